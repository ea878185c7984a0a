"""The game clocks of a game on the server: each seat's time control, the time left on it, which one runs.

A game is created without clocks (the default) or with a time control per
seat, each a base time and an increment in seconds (the request's
``clock``: ``{"base": 300, "increment": 2}`` for every seat, or
``{"white": {"base": 300}, "black": {"base": 60, "increment": 1}}`` for
each seat by name, every seat given). The server is the authority: it
measures time with :func:`time.monotonic`, and the page only counts down
between two states.

- The clocks start with the game's first ply played on the server (that ply
  costs nothing: the first player need not be at the board when the game is
  created); from then on the clock of the seat to move runs.
- A ply takes the time since its seat's clock started running off it and
  adds the seat's increment (a forced ply too: it takes no time).
- Taking moves back gives no time back: the clock of the seat to move after
  the undo runs from then on.
- When the running clock reaches zero the seat has lost on time
  (:func:`~interpreter.engine.outcome.time_forfeit_outcome`); the session
  wakes at that moment by a timer (:meth:`.sessions.Session._arm`), so that
  the flag falls though nobody asks. Whether the other side could still
  win (FIDE's insufficient material against a flag) is not judged: the
  seat that ran out of time loses.
- A clock kept in the database holds the time left when it was last
  written; a game made again after a restart runs the clock of the seat to
  move from then on, so the time the server was down is not charged.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from dsl.errors import UsageError, clip

from interpreter.agents import Budget
from interpreter.agents.base import Clocks
from interpreter.agents.clock import MAX_SECONDS, TimeControl, time_for_move

from .seats import MOST_TIME, Seat, seat_of

CLOCK_FORMS = ('{"base": SECONDS, "increment": SECONDS} for every seat, or '
               '{"SEAT": {"base": SECONDS, "increment": SECONDS}, ...} for each seat')


def controls_of(given: dict | None, seats: list[Seat]) -> dict[str, TimeControl] | None:
    """The time control of each seat that the request's ``clock`` gives (None: no clocks); UsageError
    for anything but :data:`CLOCK_FORMS` with a base above 0 and an increment of at least 0 seconds,
    neither more than :data:`~interpreter.agents.clock.MAX_SECONDS`."""
    if given is None:
        return None
    if not isinstance(given, dict):
        raise UsageError("'clock' must be an object", expected=CLOCK_FORMS)
    names = [seat.name for seat in seats]
    if "base" in given or "increment" in given:
        control = _control(given, "the clock")
        return dict.fromkeys(names, control)
    unknown = [name for name in given if name not in names]
    missing = [name for name in names if name not in given]
    if unknown or missing:
        what = f"no seat '{clip(str(unknown[0]), 40)}'" if unknown else f"no time control for {', '.join(missing)}"
        raise UsageError(f"'clock': {what}", expected=f"a time control for each of {', '.join(names)}; " + CLOCK_FORMS)
    return {name: _control(given[name], f"the clock of {name}") for name in names}


def _control(given, what: str) -> TimeControl:
    if not isinstance(given, dict) or set(given) - {"base", "increment"}:
        raise UsageError(f"{what} must be an object of 'base' and 'increment'", expected=CLOCK_FORMS)
    base, increment = given.get("base"), given.get("increment", 0)
    for name, value in (("base", base), ("increment", increment)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise UsageError(f"{what}: '{name}' must be a number of seconds, not {clip(repr(value), 40)}",
                             expected=CLOCK_FORMS)
    if not 0 < base <= MAX_SECONDS or not 0 <= increment <= MAX_SECONDS:
        raise UsageError(f"{what}: the base must be above 0 and the increment at least 0 seconds, neither more "
                         f"than {MAX_SECONDS:,.0f}", expected=CLOCK_FORMS)
    return TimeControl(float(base), float(increment))


class SeatClocks:
    """The clocks of one game (see the module docstring): ``controls`` by seat name, ``left`` the
    seconds left on each (when it last stopped, for the running one), ``started`` whether a ply was
    played, ``running`` the seat whose clock runs (None: none) since ``since`` (of ``clock``)."""

    def __init__(self, controls: dict[str, TimeControl], left: dict[str, float] | None = None,
                 started: bool = False, clock=time.monotonic) -> None:
        self.controls = controls
        self.left = dict(left) if left is not None else {name: c.base for name, c in controls.items()}
        self.started = started
        self.running: str | None = None
        self.since = 0.0
        self.clock = clock

    def remaining(self, seat: str) -> float:
        """Seconds left on ``seat``'s clock now (at least 0)."""
        spent = self.clock() - self.since if seat == self.running else 0.0
        return max(0.0, self.left[seat] - spent)

    def moved(self, seat: str) -> None:
        """``seat`` played a ply: its clock stops, loses the time it ran and gains the increment."""
        self._settle()
        self.running = None
        self.left[seat] += self.controls[seat].increment
        self.started = True

    def run(self, seat: str | None) -> None:
        """Let ``seat``'s clock run (None: stop them all), once the clocks have started; the clock
        that ran until now is charged the time it ran."""
        if seat != self.running:
            self._settle()
            self.running = seat if self.started else None

    def flagged(self) -> str | None:
        """The seat whose running clock has reached zero, or None."""
        return self.running if self.running is not None and self.remaining(self.running) <= 0 else None

    def until_flag(self) -> float | None:
        """Seconds until the running clock reaches zero (None: no clock runs)."""
        return None if self.running is None else self.remaining(self.running)

    def budget(self, seats: list[Seat], army: int, armies: int, limits: Budget) -> Budget:
        """The search budget of ``army`` (of ``armies``) on its seat's clock
        (:func:`~interpreter.agents.clock.time_for_move`), with the node and depth limits of the seat's
        own budget ``limits`` and every army's clock for an engine that keeps its own time. The seat's
        own time (a level's: ``ai:level=medium`` thinks a second) stays the most it takes, so that a
        level plays as strong as without a clock unless its clock runs short; never more than
        :data:`~.seats.MOST_TIME`."""
        seat = seat_of(seats, army).name
        control = self.controls[seat]
        drawn = time_for_move(self.remaining(seat), control.increment)
        clocks = Clocks(tuple(self.remaining(seat_of(seats, a).name) for a in range(armies)), control.increment,
                        None, control.base)
        most = min(drawn.time, limits.time or MOST_TIME, MOST_TIME)
        return replace(drawn, time=most, soft=min(drawn.soft, most), nodes=limits.nodes, depth=limits.depth,
                       clocks=clocks)

    def tags(self) -> dict[str, str]:
        """The ``TimeControl`` tag of a record (``300+2``, as PGN writes it), when every seat has the
        same control; nothing otherwise."""
        controls = set(self.controls.values())
        return {"TimeControl": str(controls.pop())} if len(controls) == 1 else {}

    def view(self) -> dict:
        """The clocks for the page: each seat's control, the milliseconds left on each now, the seat
        whose clock runs, and the server's time (milliseconds since 1970) when this was written."""
        return {"controls": {name: {"base": c.base, "increment": c.increment} for name, c in self.controls.items()},
                "left": {name: round(self.remaining(name) * 1000) for name in self.controls},
                "running": self.running, "now": round(time.time() * 1000)}

    def stored(self) -> dict:
        """What the database keeps (:meth:`from_stored` reads it back): controls, time left now, started."""
        return {"controls": {name: [c.base, c.increment] for name, c in self.controls.items()},
                "left": {name: self.remaining(name) for name in self.controls}, "started": self.started}

    @classmethod
    def from_stored(cls, stored: dict) -> SeatClocks:
        """The clocks :meth:`stored` wrote, none running yet."""
        return cls({name: TimeControl(base, increment) for name, (base, increment) in stored["controls"].items()},
                   stored["left"], stored["started"])

    def _settle(self) -> None:
        """Take the time the running clock ran off it, and let it run on from now."""
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running)
        self.since = self.clock()
