"""External engines as players: any program that speaks UCI or XBoard (CECP v2), Fairy-Stockfish above all.

``uci:COMMAND`` in a seat (see :mod:`.specs`) makes a :class:`UciEngine`,
``xboard:COMMAND`` an :class:`~.xboard_engine.XBoardEngine`; both are
:class:`ExternalEngine`, which does what the protocols share. The program is
started at its first move (no shell: ``COMMAND`` is split into words as a
shell would, and run as it is), and asked in turn:

- **the game.** The spec's ``variant=NAME`` (which must be on the engine's
  list of variants, when it gives one), else, for a bundled variant, the
  first of its name and aliases that the engine lists (UCI: the choices of
  its ``UCI_Variant`` option; XBoard: its ``feature variants``). A game of
  a user's file is never played under a bundled name (its name may be a
  bundled one's with other rules). An engine that lists no variant plays
  only its protocol's own game, chess (UCI's ``chess``, XBoard's
  ``normal``: a name or alias of the game must be that). What the engine
  does not list is given to a UCI engine through ``VariantPath`` (see
  :class:`UciEngine`) and refused by an XBoard engine, with the reason,
  before the first move.
- **the line.** The engine is told the game from the variant's start and
  every move since, when the position descends from that start (its
  history of hashes is traced, each the one legal move that leads to the
  next hash), so that it sees repetitions as our rules do; else the
  position's FEN. Later moves extend that line for as long as the game
  continues it; a position this agent cannot trace back to the line's end
  starts a new line.
- **the budget.** As each protocol can say it (:class:`UciEngine`,
  :class:`~.xboard_engine.XBoardEngine`); with none, one second. A budget
  drawn from game clocks (its ``clocks``, see :class:`~.clock.GameClock`)
  is passed as the clocks, for the engine to manage its own time (UCI's
  ``go wtime btime winc binc [movestogo]``, XBoard's ``level`` and
  ``time``/``otim``).

Everything the engine says is checked. Its move is read by our rules on
the position's legal moves (:class:`~interpreter.notation.dialects.Dialect`):
a move that is not legal there, no move (UCI's ``bestmove (none)``, the null
move) where our rules have moves, an engine that exits, and one that does
not answer within its budget and :attr:`ExternalEngine.grace` seconds (it
is told to stop, and given :data:`STOP_WAIT` more) each raise
:class:`~.base.Forfeit` with the reason: the game loops end the game as a
forfeit and keep its record. A game the engine cannot be given, or a seat
option it does not offer, is a UsageError. Under game clocks the engine is
told to stop once its own clock and :data:`~.clock.TIME_GRACE` have run
out: it has lost on time by then.

The engine is started and told the game in :meth:`ExternalEngine.ready`,
which the game loops call before a player's clock starts
(:meth:`ExternalEngine.choose` does it too, for a caller that did not).
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from dsl.errors import MoveError, UsageError, clip
from dsl.files import bundled_variant

from interpreter.compiler.game import Game
from interpreter.engine.moves import Move
from interpreter.engine.perft import perft
from interpreter.engine.position import Position
from interpreter.interchange.fsf_export import NotExportable, fsf_section
from interpreter.loading import start_position
from interpreter.notation.dialects import Dialect
from interpreter.notation.fen import to_fen

from .base import MATE, Agent, Budget, Clocks, Forfeit, InfoCallback, SearchInfo
from .clock import TIME_GRACE
from .process import EngineFailure, LineProcess

UCI_DEFAULT_VARIANT = "chess"   # the game of a UCI engine that offers no UCI_Variant option
DEFAULT_TIME = 1.0              # seconds a move when the budget sets no limit
HANDSHAKE = 10.0                # seconds the engine may take to answer its handshake and each check
GRACE = 5.0                     # seconds beyond the budget's time before the engine is told to stop
UNBOUNDED_WAIT = 120.0          # seconds a node or depth budget may take before it is stopped
STOP_WAIT = 2.0                 # seconds for the move after the engine was told to stop
CHECK_DEPTH = 2                 # plies of the perft that checks an engine's reading of an exported game
NO_MOVE = "(none)"              # UCI's bestmove when the engine finds no move
_PROMOTED_MARK = re.compile(r"(\+[A-Za-z])~")
_OPTION = re.compile(r"option name (.+?) type (\S+)(.*)")


def split_command(command: str) -> list[str]:
    """The program and arguments of ``command``, split as a shell would (quotes kept together);
    UsageError for an empty command or unbalanced quotes."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise UsageError(f"engine command {clip(command)!r}: {err}", hint="quote a path with spaces") from None
    if not argv:
        raise UsageError("an engine seat needs a command", expected="uci:/usr/games/fairy-stockfish")
    return argv


def engine_fen(pos: Position) -> str:
    """Our FEN of ``pos`` as engines read it: a promoted piece written with its own letter (``+B``)
    carries no promotion mark ``~`` besides (that mark is for a promoted piece written as its
    original kind, ``Q~`` where a captured promoted piece goes to the hand, and stays)."""
    return _PROMOTED_MARK.sub(r"\1", to_fen(pos))


def mate_score(moves: int) -> int:
    """Our score of an engine's "mate in ``moves``" (moves of the side to move; negative: it is mated
    in ``-moves``): ``MATE`` less the plies, 2N - 1 for a win in N and 2N for a loss in N."""
    return MATE - (2 * moves - 1) if moves > 0 else -MATE - 2 * moves


class ExternalEngine(Agent):
    """Another program as a player over ``protocol`` (``uci``, ``xboard``): ``command`` (split with
    :func:`split_command`), ``options`` (name, value) set on the engine, ``variant`` its name of
    the game (else found from the game). What the protocols share: the process, the choice of the
    game's name, the line of moves the engine was given, the wait for its answer and the checks
    of it (see the module docstring); a protocol supplies :meth:`handshake`, :meth:`variants`,
    :meth:`_variant_for`, :meth:`_set_game` and :meth:`_choose`."""

    protocol = ""
    default_variant = ""   # the protocol's own game: what an engine that lists no variant plays
    answer_word = ""       # the word before the engine's move (UCI's bestmove, XBoard's move)
    interrupt = ""         # the command that tells a thinking engine to move now

    def __init__(self, command: str, options: tuple[tuple[str, str], ...] = (), variant: str | None = None,
                 seed: int = 0) -> None:
        super().__init__(seed)
        self.argv = split_command(command)
        self.label = f"{self.protocol}:{command}"
        self.options = options
        self.variant = variant
        self.grace = GRACE
        self.process: LineProcess | None = None
        self.engine_name = self.argv[0]
        self.offered: dict[str, str] = {}   # the engine's option name -> the rest of its declaration
        self.game: Game | None = None
        self.dialect: Dialect | None = None
        self._lock = threading.Lock()
        self._forget()

    # ------------------------------------------------------------ the process and the game
    def handshake(self) -> None:
        """Start the engine if it is not running, and learn its name, options and variants;
        :class:`EngineFailure` if it cannot be started or does not answer."""
        raise NotImplementedError

    def _spawn(self) -> LineProcess:
        """Start the program (a new game must then be set up: :attr:`game` is forgotten)."""
        self.process = LineProcess(self.argv, f"the engine {self.argv[0]}")
        self.game = None
        return self.process

    def _named(self, name: str | None) -> None:
        """Call the engine ``name`` (the name it gave; None: its program's) in messages."""
        self.engine_name = clip(name or self.argv[0], 60)
        assert self.process is not None
        self.process.name = f"the engine {self.engine_name}"

    def variants(self) -> list[str]:
        """The names of the variants the engine lists (empty: it lists none)."""
        raise NotImplementedError

    def plays(self, game) -> bool:
        """Does the engine (after :meth:`handshake`) play ``game`` (see :meth:`_variant_for`)?"""
        try:
            self._variant_for(game)
        except UsageError:
            return False
        return True

    def _variant_for(self, game) -> str:
        """The engine's name of ``game``; UsageError when the engine cannot play it."""
        raise NotImplementedError

    def _listed_variant(self, game) -> str | None:
        """The name under which the engine plays ``game`` by its own list (see the module docstring),
        or None when it does not list the game; UsageError for a ``variant=NAME`` it does not list,
        and for any game but its protocol's own when it lists none."""
        known = self.variants()
        names = [game.name, *game.spec.aliases] if _is_bundled(game) else []
        if self.variant is not None:
            if known and self.variant not in known:
                raise UsageError(f"the engine {self.engine_name} has no variant {clip(self.variant)!r}",
                                 expected=", ".join(known))
            return self.variant
        if not known:
            if self.default_variant in names:
                return self.default_variant
            raise UsageError(f"the engine {self.engine_name} plays only chess (it lists no variants), "
                             f"not {game.name}")
        return next((name for name in names if name in known), None)

    def _unlisted(self, game, why: str = "") -> UsageError:
        """The error of a game the engine does not list (``why``: what else was tried)."""
        return UsageError(f"the engine {self.engine_name} does not play {game.name}{why}",
                          expected=", ".join(self.variants()),
                          hint=f"if it plays the game under another name, give it: {self.protocol}:COMMAND:variant=NAME")

    def _checked_options(self) -> tuple[tuple[str, str], ...]:
        """The seat's options; UsageError for one the engine does not offer."""
        for name, _ in self.options:
            if name not in self.offered:
                raise UsageError(f"the engine {self.engine_name} has no option {clip(name)!r}",
                                 expected=", ".join(sorted(self.offered)) or "(it offers none)")
        return self.options

    def _start(self, game) -> None:
        """Start the engine (or restart it for another game) and set it up for ``game``."""
        self.handshake()
        if self.game is not game:
            self._set_game(game)
            self.game = game
            self.dialect = Dialect.of(game, self.protocol, chess960=self.offered_true("UCI_Chess960"))
            self._forget()

    def _set_game(self, game) -> None:
        """Tell the running engine that the game is ``game`` (UsageError when it cannot play it)."""
        raise NotImplementedError

    def offered_true(self, option: str) -> bool:
        """Is ``option`` set to true by this seat's options?"""
        return any(name == option and value.lower() == "true" for name, value in self.options)

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None

    # ------------------------------------------------------------ the line the engine was given
    def _forget(self) -> None:
        """Forget the line: the next move starts a new one."""
        self._root_fen: str | None = None   # where the line starts: None at the variant's start, else this FEN
        self._at: Position | None = None     # our position at the line's end
        self._texts: list[str] = []          # the moves of the line, as the engine writes them

    def _follow(self, pos: Position) -> list[str] | None:
        """Extend the line to ``pos`` and return the texts of the moves added (traced through
        ``pos.history``), or None, leaving the line as it was, when ``pos`` does not continue it."""
        at = self._at
        assert self.dialect is not None
        if at is None or len(pos.history) < len(at.history) or pos.history[:len(at.history)] != at.history:
            return None
        work, texts = at.copy(), []
        for key in pos.history[len(at.history):]:
            legal = work.legal_moves()
            move = _move_to(work, legal, key)
            if move is None:
                return None
            texts.append(self.dialect.write(work, move, legal))
            work.push(move)
        self._at = work
        self._texts += texts
        return texts

    def _new_line(self, pos: Position) -> list[str]:
        """Start a new line that ends at ``pos``: at the variant's start when ``pos`` descends from it
        (the texts of the moves since are returned), else at ``pos`` itself (none)."""
        self._forget()
        self._at = start_position(pos.game)
        texts = self._follow(pos)
        if texts is not None:
            return texts
        self._root_fen, self._at = engine_fen(pos), pos.copy()
        return []

    def new_game(self) -> None:
        self._forget()

    # ------------------------------------------------------------ a move
    def ready(self, pos: Position) -> None:
        """Start the engine and set it up for ``pos``'s game (see :meth:`_start`), untimed;
        :class:`Forfeit` when it fails."""
        with self._engine_calls():
            self._start(pos.game)

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        """The engine's move in ``pos`` (see the module docstring); :class:`Forfeit` when it fails."""
        with self._engine_calls():
            return self._choose(pos, budget or Budget(), stop, on_info)

    @contextmanager
    def _engine_calls(self) -> Iterator[None]:
        """One caller at a time speaks to the engine; an engine that fails is stopped, and its failure
        raised as :class:`Forfeit`."""
        with self._lock:
            try:
                yield
            except EngineFailure as err:
                self.close()
                raise Forfeit(str(err)) from None

    def _choose(self, pos: Position, budget: Budget, stop: threading.Event | None,
                on_info: InfoCallback | None) -> SearchInfo:
        raise NotImplementedError

    def _await(self, started: float, seconds: float | None, stop: threading.Event | None,
               take: Callable[[str], bool], clocked: bool = False) -> str:
        """The engine's lines, each given to ``take`` (which may raise), up to the first for which it
        is true: that line. The engine was told to move at ``started`` with ``seconds`` to spend (None:
        a node or depth budget, given :data:`UNBOUNDED_WAIT`); once they and :attr:`grace` are gone
        (``clocked``: ``seconds`` are what is left on its game clock, and the grace is
        :data:`~.clock.TIME_GRACE`, past which it has lost on time), or ``stop`` is set, it is sent
        :attr:`interrupt`; :class:`EngineFailure` when no answer comes :data:`STOP_WAIT` seconds later."""
        process = self.process
        assert process is not None
        beyond = TIME_GRACE if clocked else self.grace
        limit = started + (seconds + beyond if seconds is not None else UNBOUNDED_WAIT)
        stopped_at = None
        while True:
            now = time.perf_counter()
            if stopped_at is None and (now >= limit or (stop is not None and stop.is_set())):
                process.send(self.interrupt)
                stopped_at = now
            if stopped_at is not None and now >= stopped_at + STOP_WAIT:
                raise EngineFailure(f"{self.engine_name} did not answer in {now - started:.1f} s")
            line = process.next_line(0.05)
            if line is not None and take(line):
                return line

    def _report(self, pos: Position, info: SearchInfo, started: float, on_info: InfoCallback | None) -> None:
        """Pass what the engine said it found so far (``info``, its moves in ``info.extra["pv"]``) to
        ``on_info``."""
        info.time = time.perf_counter() - started
        if on_info is not None:
            on_info(SearchInfo(None, info.score, self._pv(pos, info.extra.get("pv", ())), info.depth,
                               info.seldepth, info.nodes, info.time))

    def _answer(self, pos: Position, text: str, legal: list[Move], info: SearchInfo, started: float) -> SearchInfo:
        """``info`` with the move the engine answered, ``text``, read on ``legal``; :class:`Forfeit` for a
        move that is not legal, and for no move (:data:`NO_MOVE`, the null move) where the rules
        allow moves but no pass."""
        assert self.dialect is not None
        info.time = time.perf_counter() - started
        if text in (NO_MOVE, self.dialect.null_move) and not any(m[3] is not None and m[3][0] == "pass" for m in legal):
            raise Forfeit(f"{self.engine_name} answered {self.answer_word} {text} where the rules allow {len(legal)} "
                          f"move{'s' if len(legal) != 1 else ''}")
        try:
            info.move = self.dialect.read(pos, text, legal)
        except MoveError as err:
            raise Forfeit(f"{self.engine_name} answered the illegal move {clip(text)!r} in {to_fen(pos)} "
                          f"({str(err).splitlines()[0]})") from None
        info.pv = self._pv(pos, info.extra.get("pv", ()))
        if not info.pv or info.pv[0] != info.move:
            info.pv = (info.move,)
        return info

    def _pv(self, pos: Position, texts) -> tuple[Move, ...]:
        """The moves of ``texts`` read one after the other from ``pos``, up to the first that is not legal."""
        assert self.dialect is not None
        work, moves = pos.copy(), []
        for text in texts:
            try:
                move = self.dialect.read(work, text)
            except MoveError:
                break
            moves.append(move)
            work.push(move)
        return tuple(moves)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"


class UciEngine(ExternalEngine):
    """A UCI engine's process as a player (see the module docstring for what every engine shares).

    - **the handshake.** ``uci`` up to ``uciok``: its name (``id name``) and options; ``isready``
      is answered ``readyok`` within :data:`HANDSHAKE` seconds after each setting.
    - **the game.** ``setoption name UCI_Variant value NAME`` when the engine has that option.
      A game it does not list by name is written as a variants.ini section
      (:func:`~interpreter.interchange.fsf_export.fsf_section`) into a temporary file that the
      engine loads through its ``VariantPath`` option (Fairy-Stockfish's), and the engine's
      ``go perft 2`` from the start must equal ours (an older engine ignores settings it does not
      know); a game that cannot be written so, one the engine reads otherwise, or an engine
      without that option, is refused before the first move, with the reason. The seat's other
      options are sent as ``setoption name NAME value VALUE``, then ``ucinewgame``.
    - **the line.** ``position startpos moves ...`` from the variant's start, else ``position fen
      FEN moves ...``.
    - **the budget.** ``go movetime`` (``time``), ``go nodes``, ``go depth``; an engine past its
      time is sent ``stop``. Under game clocks, the clocks instead of a movetime, in milliseconds,
      for the engine to manage: ``go wtime W btime B winc I binc I [movestogo N]`` (``wtime`` the
      clock of the army that moves first, as ``rules uci`` reads it), with the budget's nodes and
      depth. ``info`` lines are read for the score, depth, nodes and line.
    """

    protocol = "uci"
    default_variant = UCI_DEFAULT_VARIANT
    answer_word = "bestmove"
    interrupt = "stop"
    _ini: str | None = None   # the variants.ini file written for the engine's VariantPath

    # ------------------------------------------------------------ the process
    def handshake(self) -> None:
        if self.process is None or not self.process.alive:
            process = self._spawn()
            process.send("uci")
            lines = process.expect(lambda line: line == "uciok", HANDSHAKE)
            self._named(next((line[8:].strip() for line in lines if line.startswith("id name ")), None))
            self.offered = {m.group(1): m.group(3) for m in map(_OPTION.match, lines) if m}

    def _set_game(self, game) -> None:
        assert self.process is not None
        variant = self._variant_for(game) or self._load_section(game)
        if "UCI_Variant" in self.offered:
            self.process.send(f"setoption name UCI_Variant value {variant}")
        for name, value in self._checked_options():
            self.process.send(f"setoption name {name} value {value}")
        self.process.send("ucinewgame")
        self._ready()

    def variants(self) -> list[str]:
        """The names of ``UCI_Variant``'s choices (empty: the engine has no such option)."""
        words = self.offered.get("UCI_Variant", "").split()
        return [words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"]

    def _variant_for(self, game) -> str:
        """The ``UCI_Variant`` of ``game`` by name, or "" when the game must be given to the engine
        through ``VariantPath``; UsageError when the engine cannot play it."""
        found = self._listed_variant(game)
        if found is not None:
            return found
        if "VariantPath" not in self.offered:
            raise self._unlisted(game)
        try:
            fsf_section(game)
        except NotExportable as err:
            raise UsageError(f"the engine {self.engine_name} does not play {game.name}, and the game cannot be "
                             f"written for its VariantPath: {err.message}") from None
        return ""

    def _load_section(self, game) -> str:
        """Write ``game`` as a variants.ini section into a temporary file, point the engine's
        ``VariantPath`` at it, and return the section's name."""
        assert self.process is not None
        name = f"rules_{game.name}"
        self._drop_ini()
        handle, self._ini = tempfile.mkstemp(prefix="rules-dsl-", suffix=".ini", text=True)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(fsf_section(game, name))
        self.process.send(f"setoption name VariantPath value {self._ini}")
        self._ready()
        self._check_section(game, name)
        return name

    def _check_section(self, game, name: str) -> None:
        """Make sure the engine reads the section written for ``game`` as the same game: its
        ``go perft 2`` from the start equals ours (an older Fairy-Stockfish ignores settings it does
        not know, Debian's 11.1 among them, and would play another game); UsageError if not."""
        assert self.process is not None
        self.process.send(f"setoption name UCI_Variant value {name}")
        self.process.send("position startpos")
        self.process.send(f"go perft {CHECK_DEPTH}")
        lines = self.process.expect(lambda line: line.startswith("Nodes searched"), HANDSHAKE)
        theirs = lines[-1].partition(":")[2].strip()
        ours = perft(start_position(game), CHECK_DEPTH)
        if theirs != str(ours):
            raise UsageError(f"the engine {self.engine_name} reads {game.name}, written for its VariantPath, as "
                             f"another game: {clip(theirs, 20)} positions {CHECK_DEPTH} plies from the start, "
                             f"where the rules have {ours}", hint="a newer Fairy-Stockfish may know the settings "
                                                                   "it ignores (see docs/engines.md)")

    def _drop_ini(self) -> None:
        if self._ini is not None:
            Path(self._ini).unlink(missing_ok=True)
            self._ini = None

    def _ready(self) -> None:
        assert self.process is not None
        self.process.send("isready")
        self.process.expect(lambda line: line == "readyok", HANDSHAKE)

    def new_game(self) -> None:
        super().new_game()
        if self.process is not None and self.process.alive:
            try:
                self.process.send("ucinewgame")
                self._ready()
            except EngineFailure:
                pass

    def close(self) -> None:
        super().close()
        self._drop_ini()

    # ------------------------------------------------------------ a move
    def reported_fen(self, pos: Position) -> str:
        """The engine's own FEN of ``pos`` after it is given the line that leads there: the ``Fen:``
        line of its answer to ``d``, a command of Stockfish and Fairy-Stockfish that UCI does not
        define, for cross-checking the moves it was told; :class:`Forfeit` when it fails or does not
        say."""
        with self._engine_calls():
            self._start(pos.game)
            assert self.process is not None
            self.process.send(self.position_command(pos))
            self.process.send("d")
            line = self.process.expect(lambda line: line.startswith("Fen: "), HANDSHAKE)[-1]
            return line[len("Fen: "):].strip()

    def position_command(self, pos: Position) -> str:
        """The ``position`` command of ``pos``: the line this agent gave, extended to ``pos``, or a new
        line (see the module docstring)."""
        if self._follow(pos) is None:
            self._new_line(pos)
        root = "position startpos" if self._root_fen is None else f"position fen {self._root_fen}"
        return root + (" moves " + " ".join(self._texts) if self._texts else "")

    def _choose(self, pos: Position, budget: Budget, stop: threading.Event | None,
                on_info: InfoCallback | None) -> SearchInfo:
        self._start(pos.game)
        process = self.process
        assert process is not None
        legal = pos.legal_moves()
        process.send(self.position_command(pos))
        go, seconds = self._go(pos, budget)
        started = time.perf_counter()
        process.send(go)
        info = SearchInfo(None)

        def take(line: str) -> bool:
            if line.startswith("info ") and _read_info(line, info):
                self._report(pos, info, started, on_info)
            return line.startswith("bestmove")

        words = self._await(started, seconds, stop, take, clocked=budget.clocks is not None).split()
        return self._answer(pos, words[1] if len(words) > 1 else NO_MOVE, legal, info, started)

    @staticmethod
    def _go(pos: Position, budget: Budget) -> tuple[str, float | None]:
        """The ``go`` command of ``budget`` for a move in ``pos``, and the seconds the engine may take
        (None: its nodes or depth bound it): under game clocks, what is left on its own."""
        clocks = budget.clocks
        go = "go"
        if clocks is not None:
            # The engine keeps its own time: it may take what is left on its clock, no more.
            white, black = first_two_clocks(pos, clocks)
            increment = round(clocks.increment * 1000)
            go += f" wtime {round(white * 1000)} btime {round(black * 1000)} winc {increment} binc {increment}"
            if clocks.moves_to_go is not None:
                go += f" movestogo {clocks.moves_to_go}"
            seconds = clocks.left[pos.army]
        else:
            seconds = budget.time if budget.time is not None else (None if budget.nodes or budget.depth else DEFAULT_TIME)
            if seconds is not None:
                go += f" movetime {max(1, round(seconds * 1000))}"
        if budget.nodes is not None:
            go += f" nodes {budget.nodes}"
        if budget.depth is not None:
            go += f" depth {budget.depth}"
        return go, seconds


def _is_bundled(game) -> bool:
    """Is ``game`` a bundled variant (read from the bundled file of its name)? A user's file may
    take a bundled variant's name with other rules: it is never played under that name."""
    path = bundled_variant(game.name)
    return path is not None and bool(game.spec.sources) and Path(game.spec.sources[0]).resolve() == path.resolve()


def first_two_clocks(pos: Position, clocks: Clocks) -> tuple[float, float]:
    """The seconds on the clocks of the army that moves first in ``pos``'s game and of the next other
    army in its turn order: White's and Black's to an engine (UCI's ``wtime`` and ``btime``), as
    ``rules uci`` and ``rules xboard`` read them."""
    order = pos.game.turn_order
    return clocks.left[order[0]], clocks.left[next(army for army in order if army != order[0])]


def _move_to(pos: Position, legal: list[Move], key: int) -> Move | None:
    """The legal move of ``pos`` after which its hash is ``key`` (None if there is none)."""
    for move in legal:
        pos.push(move)
        reached = pos.hash
        pos.pop()
        if reached == key:
            return move
    return None


def _read_info(line: str, info: SearchInfo) -> bool:
    """Update ``info`` from a UCI ``info`` line; True if it carried a score (a report worth passing on)."""
    words = line.split()
    scored = False
    i = 1
    while i < len(words):
        word = words[i]
        if word == "pv":
            info.extra["pv"] = words[i + 1:]
            break
        value = words[i + 1] if i + 1 < len(words) else ""
        if word == "score" and i + 2 < len(words):
            kind, amount = words[i + 1], words[i + 2]
            if kind in ("cp", "mate") and is_integer(amount):
                n = int(amount)
                # 'mate N': the side to move mates in N moves, or is mated in -N.
                info.score = n if kind == "cp" else mate_score(n)
                scored = True
            i += 3
            continue
        if word in ("depth", "seldepth", "nodes") and is_integer(value):
            setattr(info, word, int(value))
            i += 2
            continue
        i += 1
    return scored


def is_integer(text: str) -> bool:
    """A whole number of at most 18 ASCII digits, with an optional minus sign."""
    digits = text[1:] if text.startswith("-") else text
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()
