"""An external engine as a player: any program that speaks UCI, Fairy-Stockfish above all.

``uci:COMMAND`` in a seat (see :mod:`.specs`) makes a :class:`UciEngine`.
The program is started at its first move (no shell: ``COMMAND`` is split
into words as a shell would, and run as it is), and asked in turn:

- **the game.** If the engine has a ``UCI_Variant`` option, the variant is
  the spec's ``variant=NAME``, else, for a bundled variant, the first of
  its name and aliases that the engine lists. A game it does not list, and
  every game of a user's file (whose name may be a bundled one's with other
  rules), is written as a variants.ini section
  (:func:`~interpreter.interchange.fsf_export.fsf_section`) into a
  temporary file that the engine loads through its ``VariantPath`` option
  (Fairy-Stockfish's), and the engine's ``go perft 2`` from the start must
  equal ours (an older engine ignores settings it does not know); a game
  that cannot be written so, one the engine reads otherwise, or an engine
  without that option, is refused before the first move, with the reason.
  An engine without ``UCI_Variant`` plays only UCI's own game, chess: any
  other game is refused likewise.
- **the position.** ``position startpos moves ...`` when the game began
  at the variant's start, else ``position fen FEN moves ...``; the moves
  since are found from the position's history of hashes (each the one
  legal move that leads to the next hash), so that the engine sees
  repetitions as our rules do. A position this agent cannot trace back to
  the last one it was given starts a new line from its FEN.
- **the budget.** ``go movetime`` (``time``), ``go nodes``, ``go depth``;
  with none, one second. A budget drawn from game clocks (its ``clocks``,
  see :class:`~.clock.GameClock`) is passed as the clocks instead of a
  movetime, in milliseconds, for the engine to manage: ``go wtime W btime
  B winc I binc I [movestogo N]`` (``wtime`` the clock of the army that
  moves first, as ``rules uci`` reads it), with the budget's nodes and depth.

Everything the engine says is checked. Its move is read by our rules on
the position's legal moves (:class:`~interpreter.notation.dialects.Dialect`):
a move that is not legal there, ``bestmove (none)`` or ``0000`` where our
rules have moves, an engine that exits, and one that does not answer
within its budget and :attr:`UciEngine.grace` seconds (it is sent
``stop`` and given two more) each raise :class:`~.base.Forfeit` with the
reason: the game loops end the game as a forfeit and keep its record.
Under game clocks the engine is sent ``stop`` once its own clock and
:data:`~.clock.TIME_GRACE` have run out: it has lost on time by then.

The engine is started and told the game in :meth:`UciEngine.ready`, which
the game loops call before a player's clock starts (:meth:`UciEngine.choose`
does it too, for a caller that did not).
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

from dsl.errors import MoveError, UsageError, clip
from dsl.files import bundled_variant

from interpreter.engine.moves import Move
from interpreter.engine.perft import perft
from interpreter.engine.position import Position
from interpreter.interchange.fsf_export import NotExportable, fsf_section
from interpreter.loading import start_fen, start_position
from interpreter.notation.dialects import Dialect
from interpreter.notation.fen import to_fen

from .base import MATE, Agent, Budget, Forfeit, InfoCallback, SearchInfo
from .clock import TIME_GRACE
from .process import EngineFailure, LineProcess

UCI_DEFAULT_VARIANT = "chess"   # the game of a UCI engine that offers no UCI_Variant option
DEFAULT_TIME = 1.0              # seconds a move when the budget sets no limit
HANDSHAKE = 10.0                # seconds the engine may take to answer 'uci' and 'isready'
GRACE = 5.0                     # seconds beyond the budget's time before the engine is told to stop
UNBOUNDED_WAIT = 120.0          # seconds a node or depth budget may take before it is stopped
STOP_WAIT = 2.0                 # seconds for 'bestmove' after 'stop'
CHECK_DEPTH = 2                 # plies of the perft that checks an engine's reading of an exported game
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
    """Our FEN of ``pos`` as UCI engines read it: a promoted piece written with its own letter
    (``+B``) carries no promotion mark ``~`` besides (that mark is for a promoted piece written as
    its original kind, ``Q~`` in Crazyhouse, and stays)."""
    return _PROMOTED_MARK.sub(r"\1", to_fen(pos))


class UciEngine(Agent):
    """A UCI engine's process as a player: ``command`` (split with :func:`split_command`),
    ``options`` set with ``setoption`` after the handshake, ``variant`` the ``UCI_Variant`` (else
    found from the game)."""

    name = "uci"

    def __init__(self, command: str, options: tuple[tuple[str, str], ...] = (), variant: str | None = None,
                 seed: int = 0) -> None:
        super().__init__(seed)
        self.argv = split_command(command)
        self.label = f"uci:{command}"
        self.options = options
        self.variant = variant
        self.grace = GRACE
        self.process: LineProcess | None = None
        self.engine_name = self.argv[0]
        self.offered: dict[str, str] = {}   # option name -> the rest of its 'option' line
        self.game = None
        self.dialect: Dialect | None = None
        self._lock = threading.Lock()
        self._ini: str | None = None   # the variants.ini file written for the engine's VariantPath
        # The line the engine was last given: its first command, our position at its end, the moves.
        self._root = ""
        self._at: Position | None = None
        self._texts: list[str] = []

    # ------------------------------------------------------------ the process
    def handshake(self) -> None:
        """Start the engine if it is not running, and read its name and options (``uci``/``uciok``);
        :class:`EngineFailure` if it cannot be started or does not answer."""
        if self.process is None or not self.process.alive:
            self.process = LineProcess(self.argv, f"the engine {self.argv[0]}")
            self.process.send("uci")
            lines = self.process.expect(lambda line: line == "uciok", HANDSHAKE)
            self.engine_name = clip(next((line[8:].strip() for line in lines if line.startswith("id name ")),
                                         self.argv[0]), 60)
            self.process.name = f"the engine {self.engine_name}"
            self.offered = {m.group(1): m.group(3) for m in map(_OPTION.match, lines) if m}
            self.game = None

    def plays(self, game) -> bool:
        """Does the engine (after :meth:`handshake`) play ``game`` (see :meth:`_variant_for`)?"""
        try:
            self._variant_for(game)
        except UsageError:
            return False
        return True

    def _start(self, game) -> None:
        """Start the engine (or restart it for another game) and set it up for ``game``."""
        self.handshake()
        assert self.process is not None
        if self.game is not game:
            variant = self._variant_for(game) or self._load_section(game)
            if "UCI_Variant" in self.offered:
                self.process.send(f"setoption name UCI_Variant value {variant}")
            for name, value in self.options:
                if name not in self.offered:
                    raise UsageError(f"the engine {self.engine_name} has no option {clip(name)!r}",
                                     expected=", ".join(sorted(self.offered)) or "(it offers none)")
                self.process.send(f"setoption name {name} value {value}")
            self.game = game
            self.dialect = Dialect.of(game, "uci", chess960=self.offered_true("UCI_Chess960"))
            self._forget()
            self.process.send("ucinewgame")
            self._ready()

    def offered_true(self, option: str) -> bool:
        """Is ``option`` set to true by this seat's options?"""
        return any(name == option and value.lower() == "true" for name, value in self.options)

    def variants(self) -> list[str]:
        """The names of ``UCI_Variant``'s choices (empty: the engine has no such option)."""
        words = self.offered.get("UCI_Variant", "").split()
        return [words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"]

    def _variant_for(self, game) -> str:
        """The ``UCI_Variant`` of ``game`` by name (see the module docstring), or "" when the game must
        be given to the engine through ``VariantPath``; UsageError when the engine cannot play it."""
        known = self.variants()
        names = [game.name, *game.spec.aliases] if _is_bundled(game) else []
        if self.variant is not None:
            if known and self.variant not in known:
                raise UsageError(f"the engine {self.engine_name} has no variant {clip(self.variant)!r}",
                                 expected=", ".join(known))
            return self.variant
        if not known:
            if UCI_DEFAULT_VARIANT in names:
                return UCI_DEFAULT_VARIANT
            raise UsageError(f"the engine {self.engine_name} plays only chess (it has no UCI_Variant option), "
                             f"not {game.name}")
        found = next((name for name in names if name in known), None)
        if found is not None:
            return found
        if "VariantPath" not in self.offered:
            raise UsageError(f"the engine {self.engine_name} does not play {game.name}",
                             expected=", ".join(known),
                             hint="if it plays the game under another name, give it: uci:COMMAND:variant=NAME")
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

    def _forget(self) -> None:
        self._root, self._at, self._texts = "", None, []

    def new_game(self) -> None:
        self._forget()
        if self.process is not None and self.process.alive:
            try:
                self.process.send("ucinewgame")
                self._ready()
            except EngineFailure:
                pass

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None
        self._drop_ini()

    # ------------------------------------------------------------ a move
    def ready(self, pos: Position) -> None:
        """Start the engine and set it up for ``pos``'s game (see :meth:`_start`), untimed;
        :class:`Forfeit` when it fails."""
        with self._engine_calls():
            self._start(pos.game)

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
        """The ``position`` command of ``pos``: the moves since the line this agent last gave, traced
        through ``pos.history``, or a new line from ``pos``."""
        assert self.dialect is not None
        at = self._at
        if at is not None and len(pos.history) >= len(at.history) and pos.history[:len(at.history)] == at.history:
            work = at.copy()
            texts = list(self._texts)
            for key in pos.history[len(at.history):]:
                legal = work.legal_moves()
                move = _move_to(work, legal, key)
                if move is None:
                    break
                texts.append(self.dialect.write(work, move, legal))
                work.push(move)
            else:
                self._at, self._texts = work, texts
                return self._root + (" moves " + " ".join(texts) if texts else "")
        fen = to_fen(pos)
        self._root = "position startpos" if fen == start_fen(pos.game) else f"position fen {engine_fen(pos)}"
        self._at, self._texts = pos.copy(), []
        return self._root

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        """The engine's move in ``pos`` (see the module docstring); :class:`Forfeit` when it fails."""
        with self._engine_calls():
            return self._choose(pos, budget or Budget(), stop, on_info)

    @contextmanager
    def _engine_calls(self):
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
        self._start(pos.game)
        process, dialect = self.process, self.dialect
        assert process is not None and dialect is not None
        legal = pos.legal_moves()
        process.send(self.position_command(pos))
        clocks = budget.clocks
        go = "go"
        if clocks is not None:
            # The engine keeps its own time: it may take what is left on its clock, no more.
            first = pos.game.turn_order[0]
            white, black = clocks.left[first], clocks.left[next(a for a in pos.game.turn_order if a != first)]
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
        started = time.perf_counter()
        process.send(go)
        beyond = TIME_GRACE if clocks is not None else self.grace
        limit = started + (seconds + beyond if seconds is not None else UNBOUNDED_WAIT)
        info = SearchInfo(None)
        stopped_at = None
        while True:
            now = time.perf_counter()
            if stopped_at is None and (now >= limit or (stop is not None and stop.is_set())):
                process.send("stop")
                stopped_at = now
            if stopped_at is not None and now >= stopped_at + STOP_WAIT:
                waited = now - started
                raise EngineFailure(f"{self.engine_name} did not answer in {waited:.1f} s")
            line = process.next_line(0.05)
            if line is None:
                continue
            if line.startswith("info "):
                if _read_info(line, info) and on_info is not None:
                    info.time = time.perf_counter() - started
                    on_info(SearchInfo(None, info.score, self._pv(pos, info.extra.get("pv", ())), info.depth,
                                       info.seldepth, info.nodes, info.time))
            elif line.startswith("bestmove"):
                break
        info.time = time.perf_counter() - started
        words = line.split()
        text = words[1] if len(words) > 1 else "(none)"
        if text in ("(none)", dialect.null_move) and not any(m[3] is not None and m[3][0] == "pass" for m in legal):
            raise Forfeit(f"{self.engine_name} answered bestmove {text} where the rules allow {len(legal)} "
                          f"move{'s' if len(legal) != 1 else ''}")
        try:
            info.move = dialect.read(pos, text, legal)
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
        return f"UciEngine({self.label!r})"


def _is_bundled(game) -> bool:
    """Is ``game`` a bundled variant (read from the bundled file of its name)? A user's file may
    take a bundled variant's name with other rules: it is never played under that name."""
    path = bundled_variant(game.name)
    return path is not None and bool(game.spec.sources) and Path(game.spec.sources[0]).resolve() == path.resolve()


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
            if kind in ("cp", "mate") and _integer(amount):
                n = int(amount)
                # 'mate N': the side to move mates in N moves (2N - 1 plies), or is mated in -N (-2N plies).
                info.score = n if kind == "cp" else MATE - (2 * n - 1) if n > 0 else -MATE - 2 * n
                scored = True
            i += 3
            continue
        if word in ("depth", "seldepth", "nodes") and _integer(value):
            setattr(info, word, int(value))
            i += 2
            continue
        i += 1
    return scored


def _integer(text: str) -> bool:
    """A whole number of at most 18 ASCII digits, with an optional minus sign."""
    digits = text[1:] if text.startswith("-") else text
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()
