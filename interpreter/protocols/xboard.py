"""``rules xboard``: the engine over CECP v2 (the XBoard / WinBoard protocol).

The handshake (``xboard``, ``protover 2``) is answered with ``feature``
lines at once, before anything is compiled: ``ping setboard usermove time
analyze nps highlight`` and ``variants="..."``, one name per variant XBoard
can carry (``normal`` is chess, see
:mod:`~interpreter.protocols.variants`), the ``VARIANT`` of the command line
first. For a variant XBoard does not know itself, ``variant NAME`` is
answered with ``setup`` and ``piece`` commands (see
:mod:`~interpreter.protocols.cecp`).

Commands: ``new`` (chess, the engine plays Black; the limits of ``sd`` and
``nps`` end), ``variant NAME``, ``force``, ``go``, ``playother``,
``usermove MOVE`` (or the bare move),
``undo``, ``remove``, ``setboard FEN``, ``level MPS BASE INC``, ``st
SECONDS``, ``sd DEPTH``, ``nps NODES``, ``time``/``otim`` (centiseconds),
``?`` (move now), ``ping N`` (``pong N``), ``result``, ``analyze`` /
``exit`` / ``.``, ``post`` / ``nopost``, ``lift SQUARE`` (answered with
``highlight``), ``option Agent=SPEC``, ``quit``; the rest of the protocol's
commands (``hard``, ``easy``, ``computer``, ``name``, ``rating``, ...) are
accepted and change nothing.

The engine's move is ``move MOVE`` (from-to, see
:mod:`~interpreter.notation.dialects`); when a move ends the game the
result follows, as in ``1-0 {White wins by checkmate}``. Thinking output is
``DEPTH SCORE CENTISECONDS NODES SELDEPTH NPS<tab>PV`` (a mate in N as
100000+N). Bad input gets the protocol's replies and never ends the engine:
``Error (REASON): COMMAND``, ``Illegal move (REASON): MOVE``,
``tellusererror Illegal position: REASON``.
"""

from __future__ import annotations

import math

from dsl.errors import RulesError, UsageError, clip

from interpreter.loading.records import result_token

from .loop import Channel, LineEngine, SearchJob, check_agent
from .uci import version
from .variants import XBOARD_KNOWN, check_argument, protocol_names, resolve

DEFAULT_VARIANT = "normal"
OVERHEAD = 0.05        # seconds kept back from each move's time
MATE_SCORE = 100000    # XBoard's score of a mate in N moves: 100000 + N
IGNORED = frozenset((
    "xboard", "accepted", "rejected", "hard", "easy", "computer", "name", "rating", "random", "ics", "draw",
    "hint", "bk", ".", "put", "hover", "memory", "cores", "egtpath", "holding", "partner", "white", "black",
))


class XBoardEngine(LineEngine):
    """The XBoard side of one session: reads commands from ``channel`` until ``quit`` or the end of input."""

    def __init__(self, channel: Channel, variant: str | None = None, agent: str = "ai") -> None:
        super().__init__(channel, agent)
        self.files: dict[str, str] = {}
        self.first: str | None = None
        if variant is not None:
            self.first, path = check_argument(variant, "xboard")
            if path is not None:
                self.files[self.first] = path
        self.variant = DEFAULT_VARIANT
        self.loaded: str | None = None
        self.engine_side: int | None = None   # the army the engine plays; None in force mode
        self.analyzing = False
        self.post = True
        self.control: tuple | None = None     # ("level", moves, base seconds, increment) or ("st", seconds)
        self.depth: int | None = None
        self.nps: int | None = None
        self.my_time: float | None = None

    def command(self, line: str) -> None:
        command, _, rest = line.partition(" ")
        self.dispatch(command, rest.strip(), line)

    def dispatch(self, command: str, rest: str, line: str) -> None:
        """Run one command line; bad input is answered with the protocol's error replies."""
        handler = getattr(self, "cmd_" + ("question" if command == "?" else command), None)
        try:
            if handler is not None:
                handler(rest)
            elif command not in IGNORED:
                self.cmd_usermove(line, bare=True)
        except RulesError as err:
            self.error(summary(err), line)

    def error(self, reason: str, command: str) -> None:
        self.channel.write(f"Error ({_plain(reason)}): {clip(command, 200)}")

    # ------------------------------------------------------------ handshake
    def cmd_protover(self, rest: str) -> None:
        self.channel.write("feature done=0")   # first, so that a GUI waits for the rest (python-chess: 2 s)
        names = protocol_names("xboard")
        offered = ([self.first] if self.first and self.first not in names else []) + \
            sorted(names, key=lambda n: (n != DEFAULT_VARIANT, n))
        self.channel.write(
            f'feature myname="rules-dsl {version()}" ping=1 setboard=1 usermove=1 time=1 analyze=1 nps=1 '
            "highlight=1 colors=0 draw=0 sigint=0 sigterm=0 reuse=1 san=0 exclude=0 name=0 debug=1",
            f'feature variants="{",".join(offered)}"',
            f'feature option="Agent -string {self.agent_spec}"',
            "feature done=1")

    def cmd_ping(self, rest: str) -> None:
        self.channel.write(f"pong {rest}")

    def cmd_option(self, rest: str) -> None:
        name, _, value = rest.partition("=")
        if name.strip() != "Agent":
            raise UsageError(f"unknown option '{clip(name)}'", expected="Agent")
        self.set_agent(value.strip())

    # ------------------------------------------------------------ the game
    def _load(self):
        """The session, with the game of the current variant compiled."""
        if self.session is None:
            from .session import Session
            self.session = Session("xboard", self.agent_spec)
        if self.loaded != self.variant:
            self.session.load(resolve(self.variant, "xboard", self.files))
            self.loaded = self.variant
        return self.session

    def cmd_new(self, rest: str) -> None:
        self._abandon()
        # CECP: 'new' removes the depth limit of sd and the node rate of nps; st and level stay.
        self.variant, self.depth, self.nps, self.my_time = DEFAULT_VARIANT, None, None, None
        session = self._load()
        session.new_game()
        self.engine_side = session.game.turn_order[1]
        self._analyze_again()

    def cmd_variant(self, rest: str) -> None:
        self._abandon()
        resolve(rest, "xboard", self.files)
        self.variant = rest
        session = self._load()
        session.new_game()
        if rest not in XBOARD_KNOWN:
            from .cecp import piece_lines, setup_line
            self.channel.write(setup_line(session.game), *piece_lines(session.game))
        self._analyze_again()

    def cmd_setboard(self, rest: str) -> None:
        self._abandon()
        session = self._load()
        try:
            session.set_start(rest.replace("[-]", "[]"))
        except RulesError as err:
            self.channel.write(f"tellusererror Illegal position: {summary(err)}")
            return
        self._analyze_again()

    def cmd_force(self, rest: str) -> None:
        self._abandon()
        self.engine_side = None

    def cmd_result(self, rest: str) -> None:
        self.cmd_force(rest)

    def cmd_go(self, rest: str) -> None:
        self._abandon()
        session = self._load()
        self.engine_side = session.pos.army
        self._think()

    def cmd_playother(self, rest: str) -> None:
        self._abandon()
        session = self._load()
        self.engine_side = next(a for a in session.game.turn_order if a != session.pos.army)

    def cmd_usermove(self, rest: str, bare: bool = False) -> None:
        self._abandon()
        session = self._load()
        try:
            session.play(rest)
        except RulesError as err:
            if bare and not _looks_like_move(rest):
                self.error("unknown command", rest)
            else:
                self.channel.write(f"Illegal move ({_plain(summary(err))}): {clip(rest, 100)}")
            return
        if self._claim_result():
            return
        if self.analyzing:
            self._analyze_again()
        elif self.engine_side == session.pos.army:
            self._think()

    def cmd_undo(self, rest: str, plies: int = 1) -> None:
        self._abandon()
        session = self._load()
        for _ in range(plies):
            session.undo()
        self._analyze_again()

    def cmd_remove(self, rest: str) -> None:
        self.cmd_undo(rest, plies=2)

    def cmd_lift(self, rest: str) -> None:
        from .cecp import highlight
        session = self._load()
        board = highlight(session.pos, session.dialect, rest)
        if board is not None:
            self.channel.write(f"highlight {board}")

    # ------------------------------------------------------------ time controls
    def cmd_level(self, rest: str) -> None:
        words = rest.split()
        if len(words) != 3:
            raise UsageError("level needs three values", expected="level MOVES MINUTES[:SECONDS] INCREMENT")
        minutes, _, seconds = words[1].partition(":")
        try:
            control = ("level", int(words[0]), 60 * float(minutes) + float(seconds or 0), float(words[2]))
        except ValueError:
            control = None
        if control is None or not all(math.isfinite(v) and v >= 0 for v in control[1:]):
            raise UsageError(f"level {clip(rest)}: not numbers of at least 0", expected="level 40 5 0, level 0 2:30 1")
        self.control = control

    def cmd_st(self, rest: str) -> None:
        self.control = ("st", _number(rest, "st", float))

    def cmd_sd(self, rest: str) -> None:
        self.depth = max(1, _number(rest, "sd", int))

    def cmd_nps(self, rest: str) -> None:
        self.nps = _number(rest, "nps", int) or None

    def cmd_time(self, rest: str) -> None:
        self.my_time = _number(rest, "time", int) / 100

    def cmd_otim(self, rest: str) -> None:
        _number(rest, "otim", int)   # the opponent's clock does not change the engine's thinking

    def _budget(self):
        from .session import budget_of, move_seconds
        session = self.session
        seconds = soft = None
        if self.control is not None and self.control[0] == "st":
            seconds = max(0.01, self.control[1])
        elif self.control is not None:
            _, moves, base, increment = self.control
            remaining = self.my_time if self.my_time is not None else base
            to_go = moves - (session.pos.fullmove - 1) % moves if moves else None
            seconds, soft = move_seconds(remaining, increment, to_go, OVERHEAD)
        nodes = None
        if self.nps and seconds is not None:
            seconds, soft, nodes = None, None, max(1, int((soft or seconds) * self.nps))
        return budget_of(seconds, nodes, self.depth, soft) or session.budget

    # ------------------------------------------------------------ thinking
    def cmd_post(self, rest: str) -> None:
        self.post = True

    def cmd_nopost(self, rest: str) -> None:
        self.post = False

    def cmd_analyze(self, rest: str) -> None:
        self._abandon()
        self._load()
        self.analyzing, self.engine_side = True, None
        self._analyze_again()

    def cmd_exit(self, rest: str) -> None:
        self._abandon()
        self.analyzing = False

    def cmd_question(self, rest: str) -> None:
        job = self.searcher.current
        if job is not None and job.tag["kind"] == "move":
            job.stop.set()

    def _think(self) -> None:
        session = self.session
        if self._claim_result():
            return
        tag = {"kind": "move", "ply": len(session.moves)}
        self.searcher.start(session.job(self._budget(), self._thinking if self.post else None, tag))

    def _analyze_again(self) -> None:
        if not self.analyzing or self.session is None or self.session.outcome() is not None:
            return
        from .session import INFINITE
        self.searcher.start(self.session.job(INFINITE, self._thinking, {"kind": "analyze"}))

    def _abandon(self) -> None:
        self.searcher.abandon()

    def searched(self, job: SearchJob) -> None:
        if not self.searcher.take(job) or job.tag["kind"] != "move":
            return
        session = self.session
        if job.error is not None:
            self.error(f"the search failed: {job.error!r}", "go")
            return
        if job.tag["ply"] != len(session.moves) or job.result.move is None:
            return
        text = session.write(job.result.move)
        session.push(job.result.move)
        self.channel.write(f"move {text}")
        self._claim_result()

    def _claim_result(self) -> bool:
        """Say the result if the game has ended (and stop playing); whether it has."""
        session = self.session
        result = session.outcome()
        if result is None:
            return False
        self.channel.write(f"{result_token(session.game, result)} {{{result.describe(session.game)}}}")
        self.engine_side = None
        return True

    def _thinking(self, info, root) -> None:
        """One line of thinking output (called from the search thread)."""
        mate = info.mate_in_moves
        score = info.score if mate is None else (MATE_SCORE + mate if mate > 0 else -MATE_SCORE + mate)
        pv = " ".join(self.session.dialect.line(root, info.pv))
        self.channel.write(f"{info.depth} {score} {round(info.time * 100)} {info.nodes} {info.seldepth} {info.nps}\t{pv}")


def summary(err: RulesError) -> str:
    """An error on one line: its message, what was expected and the hint."""
    parts = [err.message] + [f"expected {err.expected}"] * bool(err.expected) + [err.hint] * bool(err.hint)
    return "; ".join(parts)


def _plain(text: str) -> str:
    """``text`` without parentheses and line breaks, as the reason of an XBoard error reply."""
    return " ".join(text.replace("(", "[").replace(")", "]").split())


def _number(text: str, command: str, kind):
    try:
        value = kind(text)
    except ValueError:
        raise UsageError(f"{command} needs a number, not '{clip(text)}'") from None
    if not math.isfinite(value) or value < 0:  # nan and inf would make a search without end
        raise UsageError(f"{command} needs a number of at least 0, not {clip(text)}")
    return value


def _looks_like_move(text: str) -> bool:
    """Whether a line that is no command is meant as a move (it has a digit, '@' or is castling)."""
    return any(c.isdigit() or c == "@" for c in text) or text.upper().startswith("O-O")


def run(variant: str | None = None, agent: str = "ai", channel: Channel | None = None) -> int:
    """Serve CECP on standard input and output (``rules xboard``); returns the exit status."""
    return XBoardEngine(channel or Channel(), variant, agent).run()


def cmd_xboard(args) -> int:
    """``rules xboard [VARIANT] [--agent SPEC]`` (see :mod:`interpreter.cli.arguments`): the command-line
    argument is checked first (a variant the protocol cannot carry, or a missing file, is a usage error)."""
    check_agent(args.agent)
    return run(args.variant, args.agent)
