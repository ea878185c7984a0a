"""One game in progress on the server: its position, its moves, its seats, and the computer's search.

A :class:`Session` is changed only under its lock, by the requests of the
page and by its computer worker. After every change it *advances*: a forced
move (a pass, a mated king leaving the board) is played at once, whoever
sits there, and when a computer seat is to move a worker thread starts its
search on a copy of the position (:mod:`interpreter.agents`), so that no
request waits for it. The worker reports each finished iteration (depth,
score) for the page's thinking display, and plays its move only if the
game has not changed meanwhile: every change bumps :attr:`Session.version`,
and a search started at an older version is abandoned (its stop event is
set and its move thrown away). Closing a session (a new game, the store
dropping an old one) abandons its search the same way.

At most :data:`SEARCHES` searches run at once on the machine; computer
moves are spaced by ``pace`` seconds so that a person can follow a game of
computers. A game that reaches its ply cap (``max_plies`` plies in its
record, people's moves and a replayed record included) is over, adjudicated
a draw (:func:`~interpreter.engine.outcome.ply_cap`), whoever plays it: a
game of computers stops there with that result, and moves are refused until
one is taken back.

Each seat has a secret token (:mod:`.access`); the methods that change the
game take ``held``, the seats whose tokens the request showed, and refuse
(Forbidden) what those seats may not do. A session attached to a
:class:`~.database.Database` (:meth:`Session.attach`) writes every change
there before the method returns (its plies, seats, clocks, decision and
draw offers), so that a move is on disk before it is acknowledged. Watchers
(:meth:`Session.watch`: the server-sent events and the WebSockets of the
API, :mod:`.live`) are woken after every change, and all of them are sent
one JSON text of the state per change (:meth:`Session.state_text`).

A game may have clocks (:mod:`.clocks`): each ply charges its seat, a
timer wakes when the running clock reaches zero and ends the game on time,
and a computer seat's search gets its budget from its clock (and waits out
no pace). A seat may resign at any time and the seats may agree to a draw
(an offer stands until every seat accepts, one declines, or a seat that
did not offer moves); these results and a flag fall are the game's
:attr:`Session.decision`, final: no undo takes them back.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable

from dsl.errors import UsageError, clip
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.agents import Forfeit, SearchInfo
from interpreter.compiler.game import Game
from interpreter.engine.outcome import (Outcome, agreement_outcome, forfeit_outcome, outcome, ply_cap, resignation,
                                        resignation_outcome, time_forfeit_outcome)
from interpreter.engine.position import Position
from interpreter.loading.records import game_record
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san
from interpreter.notation.traditional import traditional_texts

from .access import held_seats, new_tokens, refuse
from .clocks import SeatClocks
from .database import StorageFailed
from .seats import NO_ENGINES, Engines, Seat, agent_of, assign, default_seats, seat_of

log = logging.getLogger(__name__)

SEARCHES = threading.BoundedSemaphore(max(2, os.cpu_count() or 2))
"""Computer searches running at once, over all games."""
HELPER_AGENT = "ai:level=medium"
"""Who answers 'computer, move' for a human seat."""
FORCED = ("pass", "remove", "out")


class Conflict(UsageError):
    """A request that is well formed but cannot be done now (the game is over, the computer is
    thinking); the server answers 409."""


class Source:
    """What a session's game was made from: a bundled ``variant`` or ``rules`` text (named ``label``
    in errors), its ``mode`` and mode ``options``, so that a new game, a record or the same game
    after a restart can be made from the same."""

    def __init__(self, variant: str | None, rules: str | None, mode: str | None, options: dict[str, str],
                 label: str | None = None) -> None:
        self.variant, self.rules, self.mode, self.options, self.label = variant, rules, mode, options, label


@dataclass(frozen=True)
class Ply:
    """One ply played: the move, its SAN, the army that played it, whether it was forced (a pass,
    a mated king leaving the board), which the server plays by itself, and its text in each of the
    game's traditional notations (:func:`~interpreter.notation.traditional.traditional_texts`: a
    display choice; the database keeps the SAN and a restored game writes them again)."""

    move: tuple
    san: str
    army: int
    forced: bool
    notation: dict[str, str]


class Thinking:
    """A search in progress: for which version of the game, for which army, what it found so far."""

    def __init__(self, version: int, army: int, started: float) -> None:
        self.version = version
        self.army = army
        self.started = started
        self.stop = threading.Event()
        self.info: SearchInfo | None = None


class _Shown:
    """An attribute of a :class:`Session` that its state shows and that changes by assignment (the
    game's version, its search, its failure): setting it drops the session's state text
    (:meth:`Session.state_text`), so that the next reader makes it again."""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, session, owner=None):
        return self if session is None else getattr(session, self.slot)

    def __set__(self, session, value) -> None:
        setattr(session, self.slot, value)
        session._state_text = None


class Session:
    """A game in progress (see the module docstring). ``pos`` is the current position, ``plies``
    the plies played from ``start`` (whose FEN is ``start_fen``), ``max_plies`` its ply cap.
    ``version`` (an int, bumped by every change), ``thinking`` (the search in progress, or None) and
    ``failure`` (what went wrong in the last search or write, for the page, or None) drop the
    state text when set."""

    version = _Shown()
    thinking = _Shown()
    failure = _Shown()

    def __init__(self, game: Game, source: Source, pos: Position, pace: float = 0.0, seed: int = 0,
                 max_plies: int = DEFAULT_MAX_PLIES, engines: Engines = NO_ENGINES) -> None:
        self.game = game
        self.engines = engines
        self.source = source
        self.pos = pos
        self.start_fen = to_fen(pos)
        self.start = pos.copy()
        self.plies: list[Ply] = []
        self.seats: list[Seat] = default_seats(game)
        self.pace = pace
        self.seed = seed
        self.max_plies = max_plies
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self._state_text: str | None = None   # the state as JSON while nothing it shows changed (state_text)
        self.version = 0
        self.thinking = None
        self.failure = None
        self.forfeit: Outcome | None = None   # the game's end when a seat's engine forfeited it (cleared by a change)
        self.closed = False
        self.touched = time.monotonic()
        self.tokens: dict[str, str] = new_tokens([seat.name for seat in self.seats])
        self.database = None   # a Database the game is written to, with its id there (attach)
        self.ident: str | None = None
        self.saved = 0   # plies known to be in the database, in this order
        self.watchers: set = set()   # (event loop, asyncio.Event) pairs woken after each change
        self.clock: SeatClocks | None = None   # the game clocks (see .clocks), None for a game without
        self.decision: Outcome | None = None   # a resignation, a draw agreed or a flag fall: the game's end for good
        self.offers: set[str] = set()   # the seats that offer a draw now
        self.timer: threading.Timer | None = None   # wakes when the running clock reaches zero (_arm)

    # ------------------------------------------------------------ access and keeping
    def held(self, shown: list[str]) -> frozenset[str]:
        """The seats whose tokens are among ``shown`` (see :mod:`.access`)."""
        return held_seats(self.tokens, shown)

    def attach(self, database, ident: str, restored: bool = False) -> None:
        """Keep this game in ``database`` as ``ident``, after every change; it is written there now,
        with its plies, unless it was ``restored`` from there."""
        with self.lock:
            self.database, self.ident = database, ident
            if not restored:
                self.saved = 0
                database.add_game(ident, self)
            self._save()

    def watch(self, loop, event) -> None:
        """Set the asyncio ``event`` (through ``loop``, from any thread) after each change of the game."""
        with self.lock:
            self.watchers.add((loop, event))

    def unwatch(self, loop, event) -> None:
        with self.lock:
            self.watchers.discard((loop, event))

    # ------------------------------------------------------------ what requests do
    def set_seats(self, given: dict, held: frozenset[str]) -> None:
        """Seat people and agents (``{"black": "ai:level=easy"}``); a seat's search in progress is
        abandoned when its kind changes. Each seat changed must be ``held``. A standing draw offer
        ends when a seat becomes the computer's, which never agrees (:meth:`draw`)."""
        with self.lock:
            def may_change(seat: Seat) -> None:
                if seat.name not in held:
                    raise refuse(seat.title(self.game), "changing who plays a seat")
            assign(self.game, self.seats, given, self.seed, self.engines, may_change)
            if not all(seat.human for seat in self.seats):
                self.offers.clear()
            self._changed()

    def replay(self, moves: list[tuple]) -> None:
        """Play ``moves`` (legal in turn, as :func:`~interpreter.notation.reading.moves_from_text`
        returns them) as the game's first plies; passes and removals count as forced."""
        with self.lock:
            for move in moves:
                self._push(move, self.pos.legal_moves(), forced=move[3] is not None and move[3][0] in FORCED)

    def restore(self, plies: list[tuple[str, bool]]) -> None:
        """Play again the plies a database kept, ``(SAN, forced)`` each, as the game's first plies;
        a MoveError or IllegalMoveError when one no longer reads (the rules changed since)."""
        with self.lock:
            for san, forced in plies:
                legal = self.pos.legal_moves()
                resigned = resignation(self.pos)
                if resigned is not None and resigned not in legal:   # a resignation the armies played on after
                    legal.append(resigned)
                self._push(parse_move(self.pos, san, legal=legal), legal, forced=forced)
            self.saved = len(self.plies)

    def play(self, text: str, held: frozenset[str]) -> None:
        """Play the move ``text`` (SAN or from-to) for the side to move, whose seat must be ``held``.
        Raises MoveError / IllegalMoveError for a move that cannot be read or is not legal, Conflict
        when the game is over or a computer seat is thinking, Forbidden for another seat's move."""
        with self.lock:
            self._refuse_if_busy()
            self._refuse_unless_to_move(held, "a move")
            legal = self.pos.legal_moves()
            move = parse_move(self.pos, text, legal=legal)
            self._push(move, legal, forced=False)
            self._changed()

    def undo(self, held: frozenset[str], plies: int | None = None) -> None:
        """Take back ``plies`` plies; by default back to the last position where a person of a ``held``
        seat was to move (at least one ply, and forced moves go with the move before them). Every ply
        taken back must be a held seat's, a computer seat's or forced (Forbidden otherwise: the other
        person has answered). A search is abandoned."""
        with self.lock:
            if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 1):
                raise UsageError(f"'plies' must be a whole number of at least 1, not {plies!r}")
            if self.decision is not None:
                raise Conflict(f"the game is over for good: {self.decision.describe(self.game)}",
                               hint="start a new game")
            if not self.plies:
                raise Conflict("there is no move to take back")
            count = plies if plies is not None else self._plies_to_human(held)
            if count > len(self.plies):
                raise Conflict(f"cannot take back {count} plies: {len(self.plies)} were played")
            for played in self.plies[len(self.plies) - count:]:
                seat = seat_of(self.seats, played.army)
                if not played.forced and seat.human and seat.name not in held:
                    raise refuse(seat.title(self.game), f"taking back {played.san}")
            for _ in range(count):
                self.pos.pop()
                self.plies.pop()
            self.saved = min(self.saved, len(self.plies))
            self.offers.clear()
            self._changed()

    def computer(self, held: frozenset[str], spec: str | None = None) -> None:
        """Ask the computer to move for the side to move now, whose seat must be ``held``: with the
        seat's agent, or ``spec``, or :data:`HELPER_AGENT` for a human seat. Conflict when the game
        is over or it already thinks."""
        with self.lock:
            self._refuse_if_busy()
            self._refuse_unless_to_move(held, "asking the computer to move")
            seat = seat_of(self.seats, self.pos.army)
            if spec is not None or seat.agent is None:
                parsed, agent = agent_of(spec or HELPER_AGENT, self.seed, self.engines)
            else:
                parsed, agent = seat.spec, seat.agent
            self._start_search(agent, self._budget(parsed.budget))

    def resign(self, held: frozenset[str], name: str | None = None) -> None:
        """The seat ``name`` (by default the held seat to move, or the only one held) resigns: its
        armies lose (:func:`~interpreter.engine.outcome.resignation_outcome`), at any time. In a game
        whose rules let the others play on (``when resigning``), the resignation is the seat's move
        instead, played when it is to move (Conflict at another time)."""
        with self.lock:
            self._refuse_if_over()
            seat = self._acting_seat(held, name, "resigning")
            if self.pos.army in seat.armies:
                resigned = resignation(self.pos)
                if resigned is not None:
                    self._push(resigned, [resigned], forced=False)
                    self._changed()
                    return
                self._decide(resignation_outcome(self.pos))
            elif self.game.resign_eliminates or self.game.resign_removes_royal:
                raise Conflict(f"in {self.game.title} {seat.title(self.game)} plays on after resigning: "
                               "the resignation is its move", hint="resign when it is your turn")
            else:
                self._decide(resignation_outcome(self.pos, seat.armies[0]))

    def draw(self, action: str, held: frozenset[str], name: str | None = None) -> None:
        """A draw offer: ``offer`` (by the seat ``name``, by default the held seat to move or the only
        one held), ``accept`` (by every held seat that has not offered) or ``decline`` (by any held
        seat; a move by a seat that has not offered declines too, :meth:`_push`). The game is drawn when
        every seat agrees: with more than two seats, all of them. A computer seat never agrees, so a
        draw cannot be offered to it (Conflict)."""
        with self.lock:
            self._refuse_if_over()
            before = set(self.offers)
            if action == "offer":
                seat = self._acting_seat(held, name, "offering a draw")
                computers = [s.title(self.game) for s in self.seats if not s.human]
                if computers:
                    raise Conflict(f"the computer does not take draw offers ({', '.join(computers)})",
                                   hint="play on, or resign")
                self.offers.add(seat.name)
            elif action in ("accept", "decline"):
                if not self.offers:
                    raise Conflict("no draw is offered")
                if not held:
                    raise refuse(" or ".join(s.title(self.game) for s in self.seats if s.name not in self.offers),
                                 f"{action[:-1]}ing a draw")
                if action == "decline":
                    self.offers.clear()
                elif held <= self.offers:
                    raise Conflict("this draw offer is your own", hint="the other players accept or decline it")
                else:
                    self.offers |= held
            else:
                raise UsageError(f"'action' must be offer, accept or decline, not {clip(repr(action), 40)}")
            if self.offers >= {s.name for s in self.seats}:
                self._decide(agreement_outcome(self.pos))
                return
            self.version += 1
            try:
                self._save()
            except StorageFailed:   # the offers stay as the database has them
                self.offers = before
                self.version += 1
                raise
            finally:
                self._wake()

    def close(self) -> None:
        """Abandon the game: stop its search, close its seats' agents (engines' processes); nothing
        more is played."""
        with self.lock:
            self.closed = True
            self._abandon()
            self._arm(False)
            for seat in self.seats:
                if seat.agent is not None:
                    seat.agent.close()
            self._wake()

    def wait(self, seconds: float) -> None:
        """Wait up to ``seconds`` while the computer thinks (a long poll); returns at once otherwise."""
        deadline = time.monotonic() + seconds
        with self.lock:
            while self.thinking is not None and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0 or not self.changed.wait(left):
                    break

    # ------------------------------------------------------------ what the state shows
    def state_text(self, make: Callable[[], str]) -> str:
        """The JSON text of the game's state, ``make()`` (:func:`~.views.state_view` as JSON: the same
        for every viewer, it shows no token), kept for all the channels that follow the game until
        something it shows changes: every such change sets :attr:`version`, :attr:`thinking` or
        :attr:`failure`, or is a report of the search (:meth:`_report`), and drops it. While a clock
        runs it is made afresh each time: the time left it shows changes by itself, and the page
        counts down from when the state arrives. Call it under the lock."""
        if self.clock is not None and self.clock.running is not None:
            self._state_text = None
            return make()
        if self._state_text is None:
            self._state_text = make()
        return self._state_text

    def result(self, legal: list | None = None) -> Outcome | None:
        """How the game ended: by a rule of the game, a forfeit, or adjudicated a draw at its ply cap;
        None while it goes on. A resignation, a draw agreed and a flag fall (:attr:`decision`) come first.
        ``legal``: the legal moves of the position, when the caller has them."""
        if self.decision is not None:
            return self.decision
        if self.forfeit is not None:
            return self.forfeit
        ended = outcome(self.pos, legal)
        if ended is None and len(self.plies) >= self.max_plies:
            return ply_cap(self.pos, self.max_plies)
        return ended

    def record(self, result: Outcome | None) -> str:
        """The PGN-style record of the game so far, which ended with ``result`` (None: not ended), as
        :func:`~interpreter.loading.records.game_record` writes it: the ``Variant`` tag names the game,
        ``Mode`` its play mode."""
        players = {self.game.armies[a].name: seat.kind for seat in self.seats for a in seat.armies}
        return game_record(self.game, self.start_fen, [p.san for p in self.plies], result, players,
                           self.clock.tags() if self.clock is not None else None)

    def position_at(self, ply: int) -> Position:
        """A copy of the position after ``ply`` plies (0: the start)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self.plies):
            raise UsageError(f"no position after ply {ply}", expected=f"a ply from 0 to {len(self.plies)}")
        pos = self.start.copy()
        for played in self.plies[:ply]:
            pos.push(played.move)
        return pos

    # ------------------------------------------------------------ inside
    def _refuse_if_busy(self) -> None:
        self._refuse_if_over()
        if self.thinking is not None:
            raise Conflict(f"the computer is thinking for {self.game.armies[self.thinking.army].title}",
                           hint="wait for its move, or undo to abandon the search")

    def _refuse_if_over(self) -> None:
        """Conflict when the game was abandoned or is over (a flag that has fallen falls now)."""
        if self.closed:
            raise Conflict("this game was abandoned", hint="start a new game")
        self._flag()
        result = self.result()
        if result is not None:
            raise Conflict(f"the game is over: {result.describe(self.game)}",
                           hint="start a new game" if self.decision is not None else "undo a move or start a new game")

    def _acting_seat(self, held: frozenset[str], name: str | None, what: str) -> Seat:
        """The seat a request acts for: ``name`` (a seat or army name; Forbidden unless held), else the
        held person's seat to move, else the only person's seat held, else the only seat held
        (UsageError when that leaves several)."""
        to_move = seat_of(self.seats, self.pos.army)
        mine = [s for s in self.seats if s.name in held]
        people = [s for s in mine if s.human]
        if name is not None:
            seat = next((s for s in self.seats if s.name == name), None)
            if seat is None and name in self.game.army_index:
                seat = seat_of(self.seats, self.game.army_index[name])
            if seat is None:
                raise UsageError(f"no seat '{clip(name, 40)}'", expected=", ".join(s.name for s in self.seats))
        elif to_move in people or not mine:
            seat = to_move
        elif len(people) == 1 or len(mine) == 1:
            seat = (people or mine)[0]
        else:
            raise UsageError(f"{what}: say which seat", expected=", ".join(s.name for s in people or mine))
        if seat.name not in held:
            raise refuse(seat.title(self.game), what)
        return seat

    def _refuse_unless_to_move(self, held: frozenset[str], what: str) -> None:
        seat = seat_of(self.seats, self.pos.army)
        if seat.name not in held:
            raise refuse(seat.title(self.game), what)

    def _plies_to_human(self, held: frozenset[str]) -> int:
        """Plies to take back to reach the last position where a person of a ``held`` seat was to
        move: back to the last ply such a person played (not a forced one), or to the start if
        there is none."""
        for count, played in enumerate(reversed(self.plies), 1):
            seat = seat_of(self.seats, played.army)
            if not played.forced and seat.human and seat.name in held:
                return count
        return len(self.plies)

    def _push(self, move: tuple, legal: list, forced: bool) -> None:
        """Play ``move``: its seat's clock is charged, and a draw offer it did not make is declined."""
        seat = seat_of(self.seats, self.pos.army).name
        previous = self.plies[-1].move if self.plies else None
        self.plies.append(Ply(move, move_to_san(self.pos, move, legal=legal), self.pos.army, forced,
                              traditional_texts(self.pos, move, legal, previous)))
        self.pos.push(move)
        if self.clock is not None:
            self.clock.moved(seat)
        if not forced and seat not in self.offers:
            self.offers.clear()

    def _changed(self) -> None:
        """After a change of the game: abandon a search of the old version, forget a forfeit, advance,
        wake waiters."""
        self.version += 1
        self.forfeit = None
        self.touched = time.monotonic()
        self._abandon()
        self._advance()
        self._save()
        self._wake()

    def _save(self) -> None:
        """Write the game to the database (:meth:`.database.Database.save`: the plies not yet there,
        after dropping those taken back, and its seats, clocks, decision and draw offers), in one
        transaction; nothing without a database. When that fails the plies not written are taken
        back (and a search started after them abandoned), so that no move the database lacks is
        shown, and StorageFailed is raised."""
        if self.database is None:
            return
        try:
            self.database.save(self.ident, self, self.saved)
        except StorageFailed as err:
            while len(self.plies) > self.saved:
                self.pos.pop()
                self.plies.pop()
            self.version += 1
            self._abandon()
            self.failure = err.message
            self._wake()
            raise
        self.saved = len(self.plies)

    def _wake(self) -> None:
        """Wake the requests waiting for a change (long polls, server-sent events)."""
        self.changed.notify_all()
        for loop, event in list(self.watchers):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:   # the watcher's event loop has closed
                self.watchers.discard((loop, event))

    def _decide(self, result: Outcome) -> None:
        """End the game with ``result`` (a resignation, a draw agreed, a flag fall) for good: the clocks
        stop, offers and a search are dropped, the database keeps it, waiters wake."""
        self.decision = result
        self.offers.clear()
        self.version += 1
        self._abandon()
        self._arm(False)
        try:
            self._save()
        finally:
            self._wake()

    def _flag(self) -> None:
        """Decide the game on time if the running clock has reached zero."""
        seat = self.clock.flagged() if self.clock is not None and self.decision is None else None
        if seat is not None:
            title = next(s for s in self.seats if s.name == seat).title(self.game)
            self._decide(time_forfeit_outcome(self.pos, f"{title}'s time ran out"))

    def _arm(self, runs: bool) -> None:
        """Let the clock of the seat to move run (``runs``; else stop the clocks) and set the timer that
        wakes when it reaches zero (:meth:`_time_up`)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.clock is None:
            return
        self.clock.run(seat_of(self.seats, self.pos.army).name if runs else None)
        left = self.clock.until_flag()
        if left is not None:
            self.timer = threading.Timer(left + 0.005, self._time_up)
            self.timer.daemon = True
            self.timer.start()

    def _time_up(self) -> None:
        """The timer: the flag falls if the running clock has reached zero (else it is set again)."""
        with self.lock:
            if self.closed or self.clock is None:
                return
            try:
                self._flag()
            except StorageFailed:
                log.warning("the flag fall of %s could not be stored", self.ident)
            if self.decision is None:
                self._arm(True)

    def _budget(self, limits):
        """The budget of a search for the army to move: ``limits`` (the seat's own), or drawn from its
        seat's clock (:meth:`.clocks.SeatClocks.budget`)."""
        if self.clock is None:
            return limits
        return self.clock.budget(self.seats, self.pos.army, len(self.game.armies), limits)

    def _abandon(self) -> None:
        if self.thinking is not None:
            self.thinking.stop.set()
            self.thinking = None

    def _advance(self) -> None:
        """Play forced moves; start the computer's search when a computer seat is to move."""
        while not self.closed:
            legal = self.pos.legal_moves()
            if self.result(legal) is not None:
                self._arm(False)
                return
            if len(legal) == 1 and legal[0][3] is not None and legal[0][3][0] in FORCED:
                self._push(legal[0], legal, forced=True)
                self.version += 1
                continue
            seat = seat_of(self.seats, self.pos.army)
            self._arm(True)
            if seat.agent is not None and self.thinking is None:
                self._start_search(seat.agent, self._budget(seat.spec.budget))
            return

    def _start_search(self, agent, budget) -> None:
        thinking = self.thinking = Thinking(self.version, self.pos.army, time.monotonic())
        pos = self.pos.copy()
        thread = threading.Thread(target=self._search, args=(thinking, agent, budget, pos), daemon=True,
                                  name=f"search-{self.game.name}")
        thread.start()

    def _search(self, thinking: Thinking, agent, budget, pos: Position) -> None:
        """The worker: wait for a free search slot, search, wait out the pace, play the move if the
        game is still at the version the search started from."""
        while not SEARCHES.acquire(timeout=0.2):
            if thinking.stop.is_set():
                return
        try:
            if thinking.stop.is_set():
                return
            info = agent.choose(pos, budget, stop=thinking.stop, on_info=lambda i: self._report(thinking, i))
        except Forfeit as err:   # an engine's illegal move, exit or silence: the game ends, its record stays
            with self.lock:
                if self.thinking is thinking and not thinking.stop.is_set():
                    self.thinking = None
                    self.forfeit = forfeit_outcome(self.pos, str(err))
                    self.version += 1
                    self._wake()
            return
        except Exception as err:  # a bug in a search: show it on the page instead of hanging
            log.exception("search failed")
            with self.lock:
                if self.thinking is thinking:
                    self.thinking, self.failure = None, f"the computer failed: {type(err).__name__}: {err}"
                    self._wake()
            return
        finally:
            SEARCHES.release()
        if self.clock is None:   # with clocks, the computer's time is its own: no pace
            thinking.stop.wait(max(0.0, self.pace - (time.monotonic() - thinking.started)))
        with self.lock:
            self._flag()
            if self.thinking is not thinking or thinking.stop.is_set() or self.version != thinking.version:
                return
            self.thinking = None
            legal = self.pos.legal_moves()
            if info.move is None or info.move not in legal:
                self.failure = "the computer found no move"
                self._wake()
                return
            self.failure = None
            self._push(info.move, legal, forced=False)
            try:
                self._changed()
            except StorageFailed:   # taken back and shown as the failure; a person may ask again
                log.warning("a computer move of %s could not be stored", self.ident)

    def _report(self, thinking: Thinking, info: SearchInfo) -> None:
        """The search ``thinking`` reached a depth: the state shows it (from the next read; the
        channels following the game read it at their heartbeat)."""
        with self.lock:
            if self.thinking is thinking:
                thinking.info = info
                self._state_text = None
