"""The agent interface: a budget in, a move and what the search found out.

Every agent has one method that matters, :meth:`Agent.choose`::

    info = agent.choose(pos, Budget(time=1.0), stop=event, on_info=callback)
    info.move, info.score, info.pv, info.depth, info.nodes, info.nps

``pos`` is left as it was (agents search a copy). ``budget`` bounds the
search by seconds, nodes and/or plies of depth; whichever runs out first
ends it. ``stop`` (a :class:`threading.Event`) abandons the search from
another thread: the best move found so far is returned. ``on_info`` is
called with a :class:`SearchInfo` after every completed iteration (a depth
of alpha-beta, a batch of MCTS playouts): the material of a UCI ``info``
line or a thinking display.

An agent is deterministic for a given seed and a node or depth budget (no
time limit): the same position gives the same move and the same numbers, so
a game can be replayed. Scores are centipawns from the point of view of the
side to move (its team); a forced win or loss is ``MATE - plies`` or
``-(MATE - plies)``, see :attr:`SearchInfo.mate`.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

Move = tuple

MATE = 100_000            # the score of a win now; a win in p plies scores MATE - p
MATE_BOUND = MATE - 10_000  # scores beyond this are forced wins or losses


@dataclass(frozen=True)
class Clocks:
    """The game clocks as a move starts, for a player that manages its own time (an external engine,
    told UCI's ``wtime``/``btime`` or XBoard's ``level`` and ``time``/``otim``; see
    :class:`~interpreter.agents.clock.GameClock`).

    ``left``: seconds on the clock of each army, by army index (the armies of one player share its
    clock and show the same time); ``increment``: seconds added to a player's clock after each of its
    moves; ``moves_to_go``: the moves of the player to move until its clock is given more time (None:
    never, sudden death); ``base`` and ``period``: the control's seconds at the start (and again at
    each period) and the moves of a period (None: no periods), for a player told the control itself
    (XBoard's ``level``). Times are finite and at least 0, ``moves_to_go`` and ``period`` at least 1."""

    left: tuple[float, ...]
    increment: float = 0.0
    moves_to_go: int | None = None
    base: float = 0.0
    period: int | None = None

    def __post_init__(self) -> None:
        for value in (*self.left, self.increment, self.base):
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"a clock's time must be a finite number of seconds of at least 0, not {value}")
        for name in ("moves_to_go", "period"):
            moves = getattr(self, name)
            if moves is not None and moves < 1:
                raise ValueError(f"a clock's {name.replace('_', ' ')} must be at least 1, not {moves}")


@dataclass(frozen=True)
class Budget:
    """What a search may spend: ``time`` in seconds, ``nodes`` (positions visited, or MCTS
    playouts) and ``depth`` in plies; None is no limit on that count. With none of them set the
    agent uses its own default. Only a time limit makes a search depend on the machine.

    ``soft`` (seconds, at most ``time``) is the time a move deserves when ``time`` is the most it
    may take (a game clock, see :func:`~interpreter.agents.clock.time_for_move`): a search stops
    starting new iterations around it, and goes on longer when its best move keeps changing.
    Without it, a fixed time per move: the search goes on until ``time`` is gone, and an
    iteration cut short gives the best of the moves it finished.

    ``clocks`` (with a ``time``): the game clocks this budget was drawn from, for a player that
    manages its own time (an external engine is told the clocks rather than ``time``); agents that
    search here keep to ``time`` and ``soft``."""

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    soft: float | None = None
    clocks: Clocks | None = None

    def __post_init__(self) -> None:
        for name in ("time", "nodes", "depth", "soft"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"a budget's {name} must be positive, not {value}")
        if self.soft is not None and (self.time is None or self.soft > self.time):
            raise ValueError(f"a budget's soft time ({self.soft}) needs a time limit at least as long")
        if self.clocks is not None and self.time is None:
            raise ValueError("a budget drawn from game clocks needs a time limit")

    @property
    def unlimited(self) -> bool:
        return self.time is None and self.nodes is None and self.depth is None


@dataclass
class SearchInfo:
    """What a search found: the move to play (None when there is no legal move), its score for the
    side to move in centipawns, the principal variation (moves from the position), the depth
    reached in plies (``seldepth``: the deepest ply visited), nodes and seconds spent."""

    move: Move | None
    score: int = 0
    pv: tuple[Move, ...] = ()
    depth: int = 0
    seldepth: int = 0
    nodes: int = 0
    time: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def nps(self) -> int:
        """Nodes per second (0 before any time has passed)."""
        return round(self.nodes / self.time) if self.time > 0 else 0

    @property
    def mate(self) -> int | None:
        """Plies to a forced end: positive when the side to move wins, negative when it loses,
        None when the score is not a forced result."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        if self.score <= -MATE_BOUND:
            return -(MATE + self.score)
        return None

    @property
    def mate_in_moves(self) -> int | None:
        """:attr:`mate` counted in moves of the winning side as UCI does (two sides alternating)."""
        plies = self.mate
        if plies is None:
            return None
        return (plies + 1) // 2 if plies > 0 else -((-plies) // 2)

    def score_text(self) -> str:
        """``+1.25`` (pawns) or ``mate 3`` / ``mated 2`` (plies), for people."""
        plies = self.mate
        if plies is None:
            return f"{self.score / 100:+.2f}"
        return f"mate {plies}" if plies > 0 else f"mated {-plies}"


class Stopped(Exception):
    """Raised inside a search when its budget is spent or it was told to stop."""


class Forfeit(Exception):
    """Raised by :meth:`Agent.choose` when the player forfeits the game instead of moving: an external
    engine answered a move that is not legal, or no move, or exited or hung. The game loops end the
    game with :func:`~interpreter.engine.outcome.forfeit_outcome` and this message, and keep its
    record."""


class Clock:
    """Watches a search's budget: :meth:`check` raises :class:`Stopped` once the node count is
    reached, or (tested every ``every`` nodes) the time is up or the stop flag set;
    :meth:`soft_expired` says whether a new iteration is not worth starting (half the time is
    gone)."""

    def __init__(self, budget: Budget, stop: threading.Event | None = None, every: int = 256) -> None:
        self.started = time.perf_counter()
        self.every = every
        self.budget = budget
        self.stop = stop
        self.deadline = None if budget.time is None else self.started + budget.time
        self.soft = None if budget.time is None else self.started + (
            budget.soft if budget.soft is not None else budget.time * 0.5)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, nodes: int) -> None:
        """Raise :class:`Stopped` when the budget is spent (called once per node)."""
        if self.budget.nodes is not None and nodes >= self.budget.nodes:
            raise Stopped
        if nodes % self.every == 0:
            if self.stop is not None and self.stop.is_set():
                raise Stopped
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise Stopped

    def soft_expired(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.soft is not None and time.perf_counter() >= self.soft


InfoCallback = Callable[[SearchInfo], None]


class Agent:
    """The base of every agent: :meth:`choose` a move in a position within a budget."""

    name = "agent"
    # Whether a search leaves what a later search of a nearby position uses (a transposition table,
    # histories): only such an agent gains by thinking on its opponent's time (rules play --ponder).
    learns = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        """The move to play in ``pos`` and what was found on the way (see the module docstring)."""
        raise NotImplementedError

    def ready(self, pos) -> None:
        """Get ready to move in ``pos`` before the player's clock starts: what is not thinking (an
        external engine's process started and told the game) is done here, untimed. Raises
        :class:`Forfeit` as :meth:`choose` does; nothing to do for an agent that searches here."""

    def new_game(self) -> None:
        """Forget what was learnt in an earlier game (hash tables, histories)."""

    def close(self) -> None:
        """Release what the agent holds outside this process (an engine's process); it may not be used
        afterwards."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
