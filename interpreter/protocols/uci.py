"""``rules uci``: the engine over UCI, with Fairy-Stockfish's ``UCI_Variant`` convention.

The GUI's commands and the engine's answers:

- ``uci``: ``id`` lines, the options below, ``uciok``. Nothing is compiled
  yet, so the answer comes at once; the variant is compiled when it is first
  needed (``isready``, ``position``, ``go``).
- ``setoption name NAME [value VALUE]``:

  - ``UCI_Variant`` (combo): every bundled variant UCI can carry, under its
    name and its aliases, and the user's files; after a change the engine
    says ``info string variant NAME files F ranks R pocket P template fairy
    startpos FEN`` as Fairy-Stockfish does, for GUIs that draw the board
    from it;
  - ``VariantPath`` (string): a ``.rules`` file to play: it is compiled and
    played at once, and offered in ``UCI_Variant`` under its file name;
  - ``UCI_Chess960`` (check): castling is written as the king's move onto its
    rook (``e1h1``);
  - ``Agent`` (string): the agent spec (``ai``, ``ai:mcts``,
    ``ai:alphabeta:time=2``, see ``rules play --help``); its budget is what
    a ``go`` without limits spends;
  - ``UCI_LimitStrength`` (check) and ``UCI_Elo`` (spin, 800 to 2000): play
    at that strength (the agent's ``level=ELO``, see
    :mod:`interpreter.agents.strength`: nodes a move and noise in the
    evaluation, however much time the clock gives);
  - ``Move Overhead`` (spin, milliseconds): kept back from each move's time
    for the answer to reach the GUI;
  - ``Clear Hash`` (button): forget what the agent learnt.
- ``ucinewgame``, ``isready`` (``readyok``; at once, even while searching),
  ``position startpos|fen FEN [moves M...]`` (moves in from-to notation:
  ``e2e4``, ``e7e8q``, ``P@e4``, ``e1g1``), ``go`` with ``wtime btime winc
  binc movestogo`` (a clock), ``movetime``, ``depth``, ``nodes``, ``mate``
  (as a depth), ``infinite`` (searched until ``stop``) or ``ponder``, and
  ``stop``, ``ponderhit``, ``quit``. A ``go ponder`` searches the
  position after the expected move until ``stop`` or ``ponderhit``; on
  ``ponderhit`` the search goes on until the time that ``go``'s own limits
  give the move (the share of the clock it deserves, or ``movetime``), counted from
  the ``go ponder`` as Stockfish counts it: thinking done while pondering
  counts, so a long ponder answers at once and a short one searches on.
  Without a time among the limits the move is given at once.
- While searching: ``info depth D seldepth S score cp X|mate M nodes N nps N
  time T pv ...`` after each iteration, then ``bestmove MOVE [ponder MOVE]``
  (``bestmove (none)`` when the side to move has no legal move).

UCI has no error reply, so bad input (an unknown command, a bad option
value, a FEN that does not read, an illegal move) is answered with ``info
string error: ...`` lines, and the engine goes on. A ``position`` whose
moves go wrong keeps the moves before the bad one.
"""

from __future__ import annotations

import threading
import time

from dsl.errors import RulesError, UsageError, clip

from .loop import Channel, LineEngine, SearchJob, check_agent
from .variants import check_argument, protocol_names, resolve

AUTHOR = "the rules-dsl authors"
OPTION_NAMES = ("UCI_Variant", "VariantPath", "UCI_Chess960", "Agent", "UCI_LimitStrength", "UCI_Elo", "Move Overhead",
                "Clear Hash")
# The range of UCI_Elo: interpreter.agents.strength's MIN_ELO and MAX_ELO (a test keeps them equal), written
# here so that the handshake imports no agent.
ELO_RANGE = (800, 2000)
DEFAULT_ELO = 1500
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")
MOST_OVERHEAD = 5000


def version() -> str:
    """The version of the installed distribution (``dev`` when run from a tree that is not installed)."""
    from importlib import metadata  # a fifth of a second: only when the handshake asks for it
    try:
        return metadata.version("rules-dsl")
    except metadata.PackageNotFoundError:
        return "dev"


class UciEngine(LineEngine):
    """The UCI side of one session: reads commands from ``channel`` until ``quit`` or the end of input."""

    def __init__(self, channel: Channel, variant: str | None = None, agent: str = "ai") -> None:
        super().__init__(channel, agent)
        self.files: dict[str, str] = {}
        self.variant = "chess"
        if variant is not None:
            self.variant, path = check_argument(variant, "uci")
            if path is not None:
                self.files[self.variant] = path
        self.overhead = 30
        self.chess960 = False
        self.limit_strength = False
        self.elo = DEFAULT_ELO
        self.base_agent = agent   # the Agent option, before UCI_LimitStrength adds a level to it
        self.loaded: str | None = None  # the variant name the session's game is of

    def command(self, line: str) -> None:
        words = line.split()
        handler = getattr(self, "cmd_" + words[0], None)
        if handler is None:
            self.error(f"unknown command '{clip(words[0])}'")
            return
        try:
            handler(words[1:])
        except RulesError as err:
            self.error(err.render())

    def error(self, text: str) -> None:
        self.channel.write(*(f"info string error: {line}" for line in text.splitlines()))

    def tell(self, text: str) -> None:
        self.channel.write(f"info string {text}")

    # ------------------------------------------------------------ handshake and options
    def cmd_uci(self, args: list[str]) -> None:
        names = protocol_names("uci") + [n for n in self.files if n not in protocol_names("uci")]
        self.channel.write(
            f"id name rules-dsl {version()}",
            f"id author {AUTHOR}",
            f"option name UCI_Variant type combo default {self.variant} " + " ".join(f"var {n}" for n in names),
            "option name VariantPath type string default <empty>",
            f"option name UCI_Chess960 type check default {'true' if self.chess960 else 'false'}",
            f"option name Agent type string default {self.base_agent}",
            f"option name UCI_LimitStrength type check default {'true' if self.limit_strength else 'false'}",
            f"option name UCI_Elo type spin default {self.elo} min {ELO_RANGE[0]} max {ELO_RANGE[1]}",
            f"option name Move Overhead type spin default {self.overhead} min 0 max {MOST_OVERHEAD}",
            "option name Clear Hash type button",
            "uciok")

    def cmd_debug(self, args: list[str]) -> None:
        """``debug on|off``: accepted; the engine says nothing more in debug mode."""

    def cmd_register(self, args: list[str]) -> None:
        """``register``: no registration is needed."""

    def cmd_setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise UsageError("setoption without a name", expected="setoption name NAME [value VALUE]")
        name, _, value = text[len("name "):].partition(" value ")
        name, value = name.strip(), value.strip()
        option = next((o for o in OPTION_NAMES if o.lower() == name.lower()), None)
        if option is None:
            raise UsageError(f"unknown option '{clip(name)}'", expected=", ".join(OPTION_NAMES))
        getattr(self, "option_" + option.replace(" ", "_").lower())(value)

    def option_uci_variant(self, value: str) -> None:
        resolve(value, "uci", self.files)
        self._finish()
        self._switch(value)

    def option_variantpath(self, value: str) -> None:
        if value in ("", "<empty>"):
            return
        name, path = check_argument(value, "uci")
        self._finish()
        known = self.files.get(name)
        if path is not None:
            self.files[name] = path
        try:
            self._switch(name)
        except RulesError:
            if known is None:
                self.files.pop(name, None)
            else:
                self.files[name] = known
            raise

    def _switch(self, variant: str) -> None:
        """Play ``variant`` from now on; if it cannot be compiled, the error is raised and the engine
        stays with the variant it had (so that one bad file does not make every later command fail)."""
        before = self.variant
        self.variant = variant
        try:
            self._load()
        except RulesError:
            self.variant = before
            raise

    def option_uci_chess960(self, value: str) -> None:
        if value.lower() not in ("true", "false"):
            raise UsageError(f"UCI_Chess960 is true or false, not '{clip(value)}'")
        self.chess960 = value.lower() == "true"
        if self.session is not None:
            self.session.chess960 = self.chess960

    def option_agent(self, value: str) -> None:
        self._finish()
        self.set_agent(self._limited(value, self.limit_strength, self.elo))
        self.base_agent = value

    def option_uci_limitstrength(self, value: str) -> None:
        if value.lower() not in ("true", "false"):
            raise UsageError(f"UCI_LimitStrength is true or false, not '{clip(value)}'")
        self._finish()
        self.set_agent(self._limited(self.base_agent, value.lower() == "true", self.elo))
        self.limit_strength = value.lower() == "true"

    def option_uci_elo(self, value: str) -> None:
        number = whole_number(value)
        if number is None or not ELO_RANGE[0] <= int(number) <= ELO_RANGE[1]:
            raise UsageError(f"UCI_Elo is a number from {ELO_RANGE[0]} to {ELO_RANGE[1]}, not '{clip(value)}'")
        self._finish()
        self.set_agent(self._limited(self.base_agent, self.limit_strength, int(number)))
        self.elo = int(number)

    @staticmethod
    def _limited(spec: str, limit: bool, elo: int) -> str:
        """The agent spec to search with: ``spec``, at the level ``elo`` when the strength is limited."""
        return f"{spec}:level={elo}" if limit else spec

    def option_move_overhead(self, value: str) -> None:
        if whole_number(value) is None or int(value) > MOST_OVERHEAD:
            raise UsageError(f"Move Overhead is a number of milliseconds from 0 to {MOST_OVERHEAD}, not '{clip(value)}'")
        self.overhead = int(value)

    def option_clear_hash(self, value: str) -> None:
        self._finish()
        if self.session is not None:
            self.session.agent.new_game()

    # ------------------------------------------------------------ the game
    def _load(self):
        """The session, with the game of the current variant compiled (RulesError if it cannot be)."""
        if self.session is None:
            from .session import Session
            self.session = Session("uci", self.agent_spec)
            self.session.chess960 = self.chess960
        if self.loaded != self.variant:
            from .games import pocket_size
            game = self.session.load(resolve(self.variant, "uci", self.files))
            self.loaded = self.variant
            self.tell(f"variant {self.variant} files {game.board.files} ranks {game.board.ranks} pocket {pocket_size(game)} "
                      f"template fairy startpos {self.session.start_fen()}")
        return self.session

    def cmd_isready(self, args: list[str]) -> None:
        if self.searcher.current is None:
            try:
                self._load()
            except RulesError as err:
                self.error(err.render())
        self.channel.write("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self._finish()
        self._load().new_game()

    def cmd_position(self, args: list[str]) -> None:
        session = self._load()
        if not args or args[0] not in ("startpos", "fen"):
            raise UsageError("position needs 'startpos' or 'fen FEN'", expected="position startpos|fen FEN [moves M...]")
        moves_at = args.index("moves") if "moves" in args else len(args)
        fen = " ".join(args[1:moves_at]) if args[0] == "fen" else None
        if args[0] == "fen" and not fen:
            raise UsageError("position fen without a FEN")
        session.set_position(fen, args[moves_at + 1:])

    def cmd_go(self, args: list[str]) -> None:
        self._finish()
        try:
            session = self._load()
        except RulesError as err:
            self.error(err.render())
            self.channel.write("bestmove (none)")
            return
        limits, infinite, ponder = self._go_limits(args)
        budget = self._budget(session, limits, infinite or ponder)
        # A ponder's search is infinite until ponderhit; then its move's time is the go's own: the share
        # of a clock the move deserves (its soft time), or the fixed time.
        move_budget = self._budget(session, limits, False) if ponder else None
        after_hit = None if move_budget is None else move_budget.soft or move_budget.time
        tag = {"infinite": infinite or ponder, "stopped": False, "reported": None, "started": time.monotonic(),
               "after_hit": after_hit}
        self.searcher.start(session.job(budget, lambda info, root: self._info(info, root, tag), tag))

    def _go_limits(self, args: list[str]) -> tuple[dict[str, int], bool, bool]:
        """The numbers of a ``go`` command's arguments, whether it says ``infinite``, and whether it says
        ``ponder``."""
        limits, infinite, ponder, i = {}, False, False, 0
        while i < len(args):
            word = args[i]
            if word == "infinite":
                infinite = True
            elif word == "ponder":
                ponder = True
            elif word == "searchmoves":
                self.tell("searchmoves is not supported: every move is searched")
                while i + 1 < len(args) and args[i + 1] not in GO_NUMBERS + ("infinite", "ponder"):
                    i += 1
            elif word in GO_NUMBERS:
                value = args[i + 1] if i + 1 < len(args) else ""
                number = whole_number(value)
                if number is not None:
                    limits[word] = number
                    i += 1
                else:
                    self.error(f"go {word} needs a whole number, not '{clip(value)}'")
            else:
                self.error(f"unknown go parameter '{clip(word)}'")
            i += 1
        return limits, infinite, ponder

    def _budget(self, session, limits: dict[str, int], infinite: bool):
        from .session import INFINITE, budget_of, move_seconds
        if infinite:
            return INFINITE
        depth = limits.get("depth")
        if "mate" in limits:  # a mate in N moves is found within 2N - 1 plies
            plies = 2 * max(1, limits["mate"]) - 1
            depth = plies if depth is None else min(depth, plies)
        white = session.pos.army == session.game.turn_order[0]
        remaining = limits.get("wtime" if white else "btime")
        movetime = limits.get("movetime")
        soft = None
        if remaining is not None:
            time, soft = move_seconds(remaining / 1000, limits.get("winc" if white else "binc", 0) / 1000,
                                      limits.get("movestogo"), self.overhead / 1000)
        else:
            time = None if movetime is None else max(0.01, (movetime - self.overhead) / 1000)
        nodes = limits.get("nodes")
        budget = budget_of(time, nodes if nodes is None or nodes > 0 else 1, depth if depth is None or depth > 0 else 1,
                           soft)
        return session.budget if budget is None else budget

    def cmd_stop(self, args: list[str]) -> None:
        job = self.searcher.current
        if job is None:
            return
        job.tag["stopped"] = True
        if job.finished:
            self.searcher.take(job)
            self._answer(job)
        else:
            job.stop.set()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The expected move was played: the ponder's search becomes the move's, and ends when the time
        its ``go`` gave the move has passed since the ``go`` (at once if it has, or if no time was given).
        A ``ponderhit`` without a ponder running is a ``stop``."""
        job = self.searcher.current
        pondering = job is not None and job.tag["infinite"] and not job.tag["stopped"] and not job.finished
        left = job.tag["started"] + job.tag["after_hit"] - time.monotonic() if pondering and job.tag["after_hit"] else 0
        if left <= 0:
            self.cmd_stop(args)
            return
        job.tag["infinite"] = False    # its end is now its answer (see searched)
        timer = threading.Timer(left, job.stop.set)
        timer.daemon = True
        timer.start()

    # ------------------------------------------------------------ search results
    def searched(self, job: SearchJob) -> None:
        if job is not self.searcher.current or (job.tag["infinite"] and not job.tag["stopped"]):
            return  # dropped, or an infinite search that ended before its stop: it waits for it
        self.searcher.take(job)
        self._answer(job)

    def _finish(self) -> None:
        """End a search still running (a GUI should have sent ``stop``): its best move is given."""
        job = self.searcher.finish()
        if job is not None:
            self._answer(job)

    def _answer(self, job: SearchJob) -> None:
        if job.error is not None:
            self.error(f"the search failed: {job.error!r}")
            self.channel.write("bestmove (none)")
            return
        info = job.result
        if info.move is None:
            self.channel.write("info depth 0 score mate 0" if job.root.in_check() else "info depth 0 score cp 0",
                               "bestmove (none)")
            return
        if job.tag["reported"] != (info.depth, info.nodes):
            self._info(info, job.root, job.tag)
        dialect = self.session.dialect
        line = dialect.line(job.root, info.pv if info.pv and info.pv[0] == info.move else (info.move,))
        self.channel.write(f"bestmove {line[0]}" + (f" ponder {line[1]}" if len(line) > 1 else ""))

    def _info(self, info, root, tag: dict) -> None:
        """One ``info`` line for a search's iteration (called from the search thread too)."""
        tag["reported"] = (info.depth, info.nodes)
        mate = info.mate_in_moves
        score = f"score mate {mate}" if mate is not None else f"score cp {info.score}"
        pv = self.session.dialect.line(root, info.pv)
        self.channel.write(f"info depth {info.depth} seldepth {info.seldepth} {score} nodes {info.nodes} "
                           f"nps {info.nps} time {round(info.time * 1000)}" + (f" pv {' '.join(pv)}" if pv else ""))


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits with an optional minus sign, or None (also
    for more than 18 digits: no clock, depth or node count is that large, and ``int()`` of thousands
    of digits, or of digits such as '²' that ``isdigit`` accepts, fails)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        return None
    return int(text)


def run(variant: str | None = None, agent: str = "ai", channel: Channel | None = None) -> int:
    """Serve UCI on standard input and output (``rules uci``); returns the exit status."""
    return UciEngine(channel or Channel(), variant, agent).run()


def cmd_uci(args) -> int:
    """``rules uci [VARIANT] [--agent SPEC]`` (see :mod:`interpreter.cli.arguments`): the command-line
    argument is checked first (a variant the protocol cannot carry, or a missing file, is a usage error)."""
    check_agent(args.agent)
    return run(args.variant, args.agent)
