"""An XBoard engine as a player: any program that speaks CECP v2, the protocol of XBoard and WinBoard.

``xboard:COMMAND`` in a seat (see :mod:`.specs`) makes an
:class:`XBoardEngine`. What every external engine shares (the game's name,
the line of moves it is told, the checks of its answers, the forfeits) is
:class:`~.external.ExternalEngine`'s; over CECP it goes so:

- **the handshake.** ``xboard`` and ``protover 2``; the engine's ``feature``
  lines are read up to ``done=1`` (within :data:`~.external.HANDSHAKE`
  seconds; an engine that says no ``done`` is taken as it is once it has
  been quiet :data:`FEATURE_QUIET` seconds after its features, as the
  protocol allows). Each feature is answered ``accepted``, except
  ``san=1`` (the engine then writes moves from-to, as the protocol
  says) and features the protocol does not define, which are ``rejected``.
  An engine that sends no feature at all (a protocol-1 engine, or no
  XBoard engine) fails to start. Used: ``myname`` (the engine's name in
  messages), ``variants``, ``ping``, ``setboard``, ``usermove``, ``nps``,
  ``reuse`` and the options (``feature option="NAME -TYPE ..."``).
- **the game.** Each line starts with ``new``, ``variant NAME`` (not for
  XBoard's own ``normal``, which ``new`` sets), ``force`` (the engine only
  moves when told), ``easy`` (no pondering), ``post`` (thinking output), the
  time controls, and ``setboard FEN`` when the line does not start at the
  variant's start (an engine without ``setboard=1`` cannot be given such a
  position: UsageError); then the moves, each as ``usermove MOVE`` when the
  engine asked for ``usermove=1``, else as the bare move. The seat's other
  options are sent once a game as ``option NAME=VALUE``, each checked
  against the engine's.
- **the budget.** ``st SECONDS``, in whole seconds (XBoard sends whole
  seconds, and engines read a whole number there: Fairy-Stockfish 11.1 reads
  ``st 0.5`` as 0), at least one; ``sd DEPTH``; nodes as ``nps 1`` and ``st
  NODES`` (the engine counts its time in nodes, one a second: python-chess
  gives node budgets so). An engine that declares ``nps=0``, or answers
  ``Error`` to ``nps`` (Fairy-Stockfish 11.1), takes no node budget: a
  UsageError. A depth alone is given ``st 120`` (:data:`~.external.UNBOUNDED_WAIT`),
  no budget ``st 1``. ``new`` undoes ``sd`` and ``nps``, so a budget other
  than the line's starts a new line.
- **a game clock.** A budget drawn from game clocks is told so that the
  engine keeps its own time: ``level MOVES MIN:SEC INC`` when the line
  starts (the moves of a period, 0 for none; the base in whole seconds, as
  python-chess writes it, and at least one: Fairy-Stockfish takes a base of
  0 for no clock, ignores ``time`` then, and searches until it is stopped;
  the increment in seconds), with ``sd`` for the seat's depth, then
  ``time`` and ``otim``, the engine's clock and its opponent's in
  centiseconds, before each ``go`` (not to an engine that declared
  ``time=0``). A node budget cannot go with a clock (``nps`` would make the
  clock count nodes): a UsageError. The engine is sent ``?`` once its clock
  and :data:`~.clock.TIME_GRACE` have run out (it has lost on time then).
- **the move.** With ``ping=1``, ``ping N`` follows the moves, and the
  engine's lines up to ``pong N`` are checked (below); then ``go``, the
  engine's lines up to ``move MOVE``, and ``force`` (the engine does not
  play on by itself). Thinking output (``DEPTH SCORE CENTISECONDS NODES
  [more numbers, a tab] PV``, a mate in N moves as 100000 + N) is reported
  as the search's info. An engine past its time is sent ``?`` (move now).
  Lines left from before a new line (a result the engine claimed after its
  last move, say) are dropped.

The engine's own replies that end the game as a forfeit, besides what
every engine forfeits by: ``Illegal move`` (it refused a move our rules
allow: its rules differ), ``Error`` to any command but the optional
``post``, ``easy`` and the answers to its features, ``tellusererror``,
``resign``, and a result (``1-0 {...}``, ``0-1``, ``1/2-1/2``) claimed
where our rules play on: an engine that claims a result stops playing.
"""

from __future__ import annotations

import re
import threading
import time

from dsl.errors import UsageError, clip

from interpreter.engine.position import Position

from .base import Budget, Clocks, Forfeit, InfoCallback, SearchInfo
from .clock import seconds_text
from .external import (DEFAULT_TIME, HANDSHAKE, UNBOUNDED_WAIT, ExternalEngine, first_two_clocks, is_integer,
                       mate_score)
from .process import EngineFailure

XBOARD_DEFAULT_VARIANT = "normal"   # XBoard's chess: the game 'new' sets, with no 'variant' command
FEATURE_QUIET = 2.0                 # seconds of silence after features that say no 'done' before they count as all
MATE_SCORE = 100_000                # XBoard's score of a mate in N moves: 100000 + N (and -100000 - N)
FEATURES = frozenset((
    "ping", "setboard", "playother", "san", "usermove", "time", "draw", "sigint", "sigterm", "reuse", "analyze",
    "myname", "variants", "colors", "ics", "name", "pause", "nps", "debug", "memory", "smp", "egt", "option",
    "exclude", "setscore", "highlight", "done",
))
"""The features CECP v2 defines; any other is rejected."""
OPTIONAL = frozenset(("post", "easy", "accepted", "rejected"))
"""Commands sent that an engine may not know: an ``Error`` reply to them is no failure."""
_FEATURE = re.compile(r'(\w+)=(?:"([^"]*)"|(\S*))')
_OPTION = re.compile(r"(.+?) -(?:string|spin|check|combo|button|save|reset|file|path|slider)\b(.*)")
_THINKING = re.compile(r"\s*(\d{1,18})\s+(-?\d{1,18})\s+(\d{1,18})\s+(\d{1,18})\b(.*)", re.ASCII)
_ERROR = re.compile(r"Error\b\s*(?:\([^)]*\))?\s*:?\s*(.*)")
_RESULT = re.compile(r"(1-0|0-1|1/2-1/2)(\s|$)")


class XBoardEngine(ExternalEngine):
    """An XBoard engine's process as a player (see the module docstring)."""

    protocol = "xboard"
    default_variant = XBOARD_DEFAULT_VARIANT
    answer_word = "move"
    interrupt = "?"

    def __init__(self, command: str, options: tuple[tuple[str, str], ...] = (), variant: str | None = None,
                 seed: int = 0) -> None:
        super().__init__(command, options, variant, seed)
        self.features: dict[str, str] = {}
        self._variant = XBOARD_DEFAULT_VARIANT   # the game's name for the engine
        self._pings = 0

    # ------------------------------------------------------------ the process
    def handshake(self) -> None:
        if self.process is None or not self.process.alive:
            process = self._spawn()
            process.send("xboard")
            process.send("protover 2")
            self.features, self.offered = {}, {}
            self._read_features()
            self._named(self.features.get("myname"))

    def _read_features(self) -> None:
        """Read the ``feature`` lines of the handshake into :attr:`features` and :attr:`offered`, and
        answer each (see the module docstring)."""
        assert self.process is not None
        deadline = overall = time.monotonic() + HANDSHAKE
        while True:
            line = self.process.next_line(deadline - time.monotonic())
            if line is None:
                if self.features and "done" not in self.features:
                    return
                raise EngineFailure(f"{self.process.name} did not finish its features in {HANDSHAKE:g} s"
                                    if self.features else f"{self.process.name} did not answer 'protover 2' with "
                                    f"features in {HANDSHAKE:g} s (is it an XBoard engine of protocol 2?)")
            if not line.startswith("feature "):
                continue
            replies = []
            for name, quoted, plain in _FEATURE.findall(line[8:]):
                value = quoted or plain
                if name == "option":
                    option = _OPTION.match(value)
                    if option:
                        self.offered[option.group(1)] = option.group(2)
                else:
                    self.features[name] = value
                known = name in FEATURES and not (name == "san" and value == "1")
                replies.append(f"{'accepted' if known else 'rejected'} {name}")
            for reply in replies:
                self.process.send(reply)
            if self.features.get("done") == "1":
                return
            if "done" not in self.features:
                deadline = min(overall, time.monotonic() + FEATURE_QUIET)

    def variants(self) -> list[str]:
        """The names of the engine's ``feature variants`` (empty: it gave none)."""
        return [name.strip() for name in self.features.get("variants", "").split(",") if name.strip()]

    def _variant_for(self, game) -> str:
        """The engine's name of ``game`` from its list; UsageError when it does not list the game
        (a UCI engine may be given such a game through VariantPath)."""
        found = self._listed_variant(game)
        if found is None:
            raise self._unlisted(game, " (it lists the games it plays; over UCI, an engine with a VariantPath "
                                       "option is also given others: uci:COMMAND)")
        return found

    def _set_game(self, game) -> None:
        assert self.process is not None
        self._variant = self._variant_for(game)
        for name, value in self._checked_options():
            self.process.send(f"option {name}={value}")

    def _forget(self) -> None:
        super()._forget()
        self._controls: tuple[str, ...] | None = None   # the time controls of the line

    def new_game(self) -> None:
        """Forget the line (the next move sends ``new``); an engine that asked for ``reuse=0`` is
        stopped, and started again for the next game."""
        super().new_game()
        if self.features.get("reuse") == "0":
            self.close()

    # ------------------------------------------------------------ a move
    def _choose(self, pos: Position, budget: Budget, stop: threading.Event | None,
                on_info: InfoCallback | None) -> SearchInfo:
        self._start(pos.game)
        process = self.process
        assert process is not None and self.dialect is not None
        legal = pos.legal_moves()
        controls, seconds = self._time_controls(pos, budget)
        texts = self._follow(pos) if controls == self._controls else None
        if texts is None:
            process.drain()   # what the engine said of the old line
            texts = self._new_line(pos)
            self._begin(controls)
        for text in texts:
            process.send(f"usermove {text}" if self.features.get("usermove") == "1" else text)
        if budget.clocks is not None and self.features.get("time") != "0":
            white, black = first_two_clocks(pos, budget.clocks)
            mine, theirs = (white, black) if pos.army == pos.game.turn_order[0] else (black, white)
            process.send(f"time {_centiseconds(mine)}")
            process.send(f"otim {_centiseconds(theirs)}")
        if self.features.get("ping") == "1":
            self._sync()
        started = time.perf_counter()
        process.send("go")
        info = SearchInfo(None)

        def take(line: str) -> bool:
            if line.startswith("move ") or line == "move":
                return True
            if _read_thinking(line, info):
                self._report(pos, info, started, on_info)
            else:
                self._check(line)
            return False

        words = self._await(started, seconds, stop, take, clocked=budget.clocks is not None).split()
        process.send("force")
        info = self._answer(pos, words[1] if len(words) > 1 else "", legal, info, started)
        assert self._at is not None and info.move is not None
        self._texts.append(self.dialect.write(self._at, info.move, legal))
        self._at.push(info.move)
        return info

    def _time_controls(self, pos: Position, budget: Budget) -> tuple[tuple[str, ...], float | None]:
        """The commands that set ``budget`` for a move in ``pos`` when a line starts (see the module
        docstring), and the seconds the engine may take (None: its nodes or depth bound it): under
        game clocks, what is left on its own."""
        if budget.clocks is not None:
            if budget.nodes is not None:
                raise self._no_nodes("under a game clock, nps would make its clock count nodes")
            commands, seconds = [_level(budget.clocks)], budget.clocks.left[pos.army]
        elif budget.nodes is not None:
            if self.features.get("nps") == "0":
                raise self._no_nodes("it declares nps=0")
            commands, seconds = ["nps 1", f"st {budget.nodes}"], budget.time
        elif budget.time is None and budget.depth is not None:
            commands, seconds = [f"st {round(UNBOUNDED_WAIT)}"], None
        else:
            whole = max(1, round(budget.time if budget.time is not None else DEFAULT_TIME))
            commands, seconds = [f"st {whole}"], float(whole)
        if budget.depth is not None:
            commands.append(f"sd {budget.depth}")
        return tuple(commands), seconds

    def _no_nodes(self, why: str) -> UsageError:
        return UsageError(f"the engine {self.engine_name} takes no node budget over XBoard ({why})",
                          hint=f"give the seat a time or a depth: {self.protocol}:COMMAND:time=1 or :depth=8")

    def _begin(self, controls: tuple[str, ...]) -> None:
        """Tell the engine the new line's start (see the module docstring); UsageError when it must be
        given a position and has no ``setboard``."""
        assert self.process is not None and self.game is not None
        fen = self._root_fen
        if fen is not None and self.features.get("setboard") != "1":
            self._forget()
            raise UsageError(f"the engine {self.engine_name} cannot be given a position (it has no setboard), "
                             f"and this game does not go back to the start of {self.game.name}: {clip(fen, 100)}",
                             hint="play it from the variant's start")
        self.process.send("new")
        if self._variant != XBOARD_DEFAULT_VARIANT:
            self.process.send(f"variant {self._variant}")
        for command in ("force", "easy", "post", *controls):
            self.process.send(command)
        if fen is not None:
            self.process.send(f"setboard {fen}")
        self._controls = controls

    def _sync(self) -> None:
        """``ping N``, and every line up to ``pong N`` checked (:meth:`_check`)."""
        assert self.process is not None
        self._pings += 1
        pong = f"pong {self._pings}"

        def answered(line: str) -> bool:
            self._check(line)
            return line.strip() == pong

        self.process.send(f"ping {self._pings}")
        self.process.expect(answered, HANDSHAKE)

    def _check(self, line: str) -> None:
        """Raise :class:`Forfeit` for a line by which the engine fails or stops playing, and UsageError
        for an ``Error`` to ``nps`` (see the module docstring); other lines pass."""
        name, text = self.engine_name, line.strip()
        if text.startswith("Illegal move"):
            raise Forfeit(f"{name} refused a move the rules allow: {clip(text, 200)!r}")
        if text.startswith("tellusererror"):
            raise Forfeit(f"{name} reported an error: {clip(text[13:].strip(), 200)!r}")
        if text == "resign":
            raise Forfeit(f"{name} resigned")
        if _RESULT.match(text):
            raise Forfeit(f"{name} claimed {clip(text, 200)!r} where the rules play on")
        error = _ERROR.match(text)
        if error:
            command = error.group(1).split()[:1]
            if command == ["nps"]:
                raise self._no_nodes(f"it answered {clip(text, 100)!r}")
            if not command or command[0] not in OPTIONAL:
                raise Forfeit(f"{name} answered {clip(text, 200)!r}")


def _level(clocks: Clocks) -> str:
    """CECP's ``level MOVES MIN:SEC INC`` of the time control ``clocks`` were drawn from (see the
    module docstring)."""
    minutes, seconds = divmod(max(1, round(clocks.base)), 60)
    return f"level {clocks.period or 0} {minutes}:{seconds:02d} {seconds_text(clocks.increment)}"


def _centiseconds(seconds: float) -> int:
    """A clock as ``time`` and ``otim`` give it: whole centiseconds, at least one."""
    return max(1, round(seconds * 100))


def _read_thinking(line: str, info: SearchInfo) -> bool:
    """Update ``info`` from a line of XBoard thinking output; whether it was one."""
    match = _THINKING.match(line)
    if match is None:
        return False
    depth, score, _, nodes, rest = match.groups()
    extra, tab, pv = rest.partition("\t")
    if not tab:
        extra, pv = "", rest
    info.depth, info.nodes = int(depth), int(nodes)
    numbers = extra.split()
    info.seldepth = int(numbers[0]) if numbers and is_integer(numbers[0]) else info.depth
    points = int(score)
    info.score = mate_score(points - MATE_SCORE if points > 0 else points + MATE_SCORE) \
        if abs(points) > MATE_SCORE else points
    info.extra["pv"] = pv.split()
    return True
