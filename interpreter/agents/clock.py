"""Time: how long to think for one move, and the game clocks of a game between players.

:func:`time_for_move` follows the usual rule of engines: the move deserves
an equal share of the remaining time over the moves still to play
(``movestogo`` when the time control says, else :data:`MOVES_LEFT`), plus
most of the increment (the budget's ``soft`` time); it may take up to
:data:`HARD_FACTOR` times that when its search is unstable (the budget's
``time``), never more than :data:`MAX_SHARE` of what is left and always a
little less than that (:data:`MARGIN` seconds for the answer to travel).

A game clock (``--clock`` of ``rules match``, ``rules play`` and ``rules
analyze``) is a :class:`TimeControl` written as cutechess-cli writes one,
in seconds: ``BASE+INC`` (``60+1``: a minute, and a second more after each
move), ``BASE`` (sudden death), or ``MOVES/BASE[+INC]`` (``40/60``: a
minute for every 40 moves, repeating). :class:`GameClock` keeps the clocks
of one game, one per player of the play mode; a player's clock runs while
it thinks, and a move that takes more than was left on it, by more than
:data:`TIME_GRACE` seconds, loses the game on time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from dsl.errors import UsageError, clip

from interpreter.engine.outcome import Outcome, time_forfeit_outcome

from .base import Budget, Clocks

MOVES_LEFT = 30       # moves assumed still to play when the time control does not say
INCREMENT_SHARE = 0.8  # of the increment, spent on this move
MAX_SHARE = 0.5       # at most this share of the remaining time on one move
MARGIN = 0.05         # seconds kept back
MINIMUM = 0.01        # seconds: the least a move is given
HARD_FACTOR = 3.0     # the most a move may take, in shares

TIME_GRACE = 0.1
"""Seconds by which a move may overstep its clock without losing on time. The time is measured
around the player's whole answer, so it includes what is not its thinking: Python's own overhead,
an engine's answer crossing the pipe, a loaded machine's scheduling. A move within the grace leaves
its clock at 0 (then the increment); cutechess-cli's ``timemargin`` is the same idea."""

MAX_SECONDS = 1_000_000.0   # the longest base or increment of a time control (about 11 days)
MAX_MOVES = 1_000           # the most moves of one period of a time control
_CONTROL = re.compile(r"(?:(\d{1,4})/)?(\d{1,7}(?:\.\d{1,6})?|\.\d{1,6})(?:\+(\d{1,7}(?:\.\d{1,6})?|\.\d{1,6}))?",
                      re.ASCII)
CONTROL_FORMS = "BASE+INC in seconds (60+1, 0.5+0.05), BASE alone (300: sudden death), or MOVES/BASE[+INC] (40/60)"


def time_for_move(remaining: float, increment: float = 0.0, moves_to_go: int | None = None) -> Budget:
    """A time budget for one move with ``remaining`` seconds on the clock, ``increment`` seconds
    added per move and ``moves_to_go`` moves until the next time control (None: sudden death)."""
    remaining = max(0.0, remaining)
    moves = moves_to_go + 1 if moves_to_go else MOVES_LEFT
    share = remaining / moves + INCREMENT_SHARE * max(0.0, increment)
    cap = MAX_SHARE * remaining - MARGIN
    soft = max(MINIMUM, min(share, cap))
    return Budget(time=max(soft, min(HARD_FACTOR * share, cap)), soft=soft)


@dataclass(frozen=True)
class TimeControl:
    """A game clock for every player: ``base`` seconds to start with, ``increment`` seconds more
    after each of its moves, and, when ``moves`` is set, ``base`` seconds more after every
    ``moves`` moves of the player (cutechess-cli's ``40/60``: the clock is given its time again at
    each control)."""

    base: float
    increment: float = 0.0
    moves: int | None = None

    def __str__(self) -> str:
        """The control as :func:`parse_time_control` reads it (and PGN's ``TimeControl`` tag writes a
        control of ``BASE+INC``): ``60+1``, ``300``, ``40/60+0.5``."""
        text = seconds_text(self.base) + (f"+{seconds_text(self.increment)}" if self.increment else "")
        return f"{self.moves}/{text}" if self.moves else text


def parse_time_control(text: str) -> TimeControl:
    """The :class:`TimeControl` of ``text`` (see :data:`CONTROL_FORMS`): whole or decimal seconds in
    ASCII digits (the base above 0, the increment at least 0, neither more than :data:`MAX_SECONDS`)
    and the moves of a period from 1 to :data:`MAX_MOVES`; anything else is a UsageError."""
    found = _CONTROL.fullmatch(text.strip())
    if found is None:
        raise UsageError(f"{clip(text)!r} is not a time control", expected=CONTROL_FORMS,
                         hint="seconds, not minutes: 300+2 is five minutes and two seconds a move")
    moves, base, increment = found.group(1), float(found.group(2)), float(found.group(3) or 0)
    if not 0 < base <= MAX_SECONDS or increment > MAX_SECONDS:
        raise UsageError(f"time control {clip(text)!r}: the base time must be above 0 and neither it nor the increment "
                         f"more than {MAX_SECONDS:,.0f} seconds", expected=CONTROL_FORMS)
    if moves is not None and not 1 <= int(moves) <= MAX_MOVES:
        raise UsageError(f"time control {clip(text)!r}: the moves of a period go from 1 to {MAX_MOVES:,}",
                         expected=CONTROL_FORMS)
    return TimeControl(base, increment, int(moves) if moves is not None else None)


def seconds_text(value: float) -> str:
    """Seconds as written in a time control: no exponent, no trailing zeros (``0.5``, ``60``)."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


class GameClock:
    """The clocks of one game of ``game`` under ``control``: one per player of the play mode
    (``game.players``: the armies of one player share its clock), each starting at ``control.base``.

    A front end asks :meth:`budget` for the budget of the army to move, times the player's answer
    (its clock runs while it thinks) and gives the seconds to :meth:`punch`: they are taken off the
    player's clock and the increment is added, or the move has lost on time. A move played without
    asking (the only legal one) is punched with 0 seconds: it earns the increment and counts towards
    the next control like any other. :attr:`after` holds the seconds left on the mover's clock after
    each punched move, in order (a game record's ``%clk`` comments)."""

    def __init__(self, control: TimeControl, game) -> None:
        self.control = control
        self.player_of = {army: name for name, armies in game.players.items() for army in armies}
        self.left = {name: control.base for name in game.players}
        self.made = dict.fromkeys(game.players, 0)
        self.after: list[float] = []
        self.armies = len(game.armies)

    def moves_to_go(self, army: int) -> int | None:
        """The moves of ``army``'s player until its next time control (None: sudden death)."""
        period = self.control.moves
        return None if period is None else period - self.made[self.player_of[army]] % period

    def budget(self, army: int, limits: Budget | None = None) -> Budget:
        """The budget of a move of ``army``: :func:`time_for_move` on its player's clock, with every
        army's clock (:class:`~.base.Clocks`, for a player that keeps its own time) and the node and
        depth limits of ``limits`` (a seat's own budget: its ``time`` gives way to the clock)."""
        player = self.player_of[army]
        clocks = Clocks(tuple(self.left[self.player_of[a]] for a in range(self.armies)), self.control.increment,
                        self.moves_to_go(army), self.control.base, self.control.moves)
        drawn = time_for_move(self.left[player], self.control.increment, clocks.moves_to_go)
        return replace(drawn, nodes=limits.nodes if limits else None, depth=limits.depth if limits else None,
                       clocks=clocks)

    def late(self, pos, seconds: float) -> Outcome | None:
        """The loss on time of the army to move in ``pos`` if an answer of ``seconds`` oversteps its
        player's clock by more than :data:`TIME_GRACE`, else None (nothing is charged)."""
        left = self.left[self.player_of[pos.army]]
        if seconds - left <= TIME_GRACE:
            return None
        return time_forfeit_outcome(pos, f"{pos.game.armies[pos.army].title} took {seconds:.2f} s with "
                                         f"{max(0.0, left):.2f} s left")

    def punch(self, pos, seconds: float) -> Outcome | None:
        """Charge the move of the army to move in ``pos``, which took ``seconds``, to its player's
        clock: its loss on time (:meth:`late`; the clock then stands as it was), or None when the move
        was in time and the clock now holds what was left (at least 0), the increment, and the base
        again when a period of ``control.moves`` moves is complete."""
        lost = self.late(pos, seconds)
        if lost is not None:
            return lost
        player = self.player_of[pos.army]
        self.made[player] += 1
        left = max(0.0, self.left[player] - seconds) + self.control.increment
        if self.control.moves and self.made[player] % self.control.moves == 0:
            left += self.control.base
        self.left[player] = left
        self.after.append(left)
        return None
