"""Thinking on a person's time (``rules play --ponder``).

While a person thinks about a move, the computer that moves after them
searches the position their expected move leads to: the second move of the
computer's own best line from its last move. The search runs in a thread
until the person's turn ends, and is thrown away; what it leaves is the
agent's transposition table and histories, so that if the person plays the
expected move the computer's own search finds that position searched and
goes deeper in its time (chess, five middlegame and endgame positions, 3 s
pondered before a 1 s search: depth 9 to 13, against 9 to 11 without). A
move that was not expected leaves it little: the table holds other positions.

Only agents that keep what a search learnt for the next
(:attr:`~interpreter.agents.base.Agent.learns`) ponder; the person's clock
and the computer's are as they would be without it. The search thread holds
the interpreter's lock while it computes, so the prompt may answer a few
milliseconds later; nothing is printed while it ponders.
"""

from __future__ import annotations

import threading

from interpreter.agents import Budget
from interpreter.engine.position import Position

PONDER_SECONDS = 3600.0     # the longest a ponder runs when nobody stops it (a person away from the keyboard)


class Ponder:
    """At most one search on a person's time: :meth:`start` it for a position, :meth:`stop` it
    (and wait for it) before the position changes or the game ends."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.key: tuple[int, int] | None = None   # (plies played, hash) of the position pondered from

    def start(self, agent, after: Position, key: tuple[int, int]) -> None:
        """Search ``after`` (the position the person's expected move leads to, the ponder's own copy)
        for ``agent``, unless a ponder already runs for ``key`` (the person's position: after a
        command such as ``moves`` the person is asked again for the same move)."""
        if self.key == key and self._thread is not None:
            return
        self.stop()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=_search, args=(agent, after, self._stop), name="ponder", daemon=True)
        self.key = key
        self._thread.start()

    def stop(self) -> None:
        """End the ponder, if one runs, and wait for its search to return (a few milliseconds)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        self._thread = None
        self.key = None


def _search(agent, pos: Position, stop: threading.Event) -> None:
    """The ponder's search: its move and any failure are dropped (the computer's own search, on its
    turn, reports what goes wrong)."""
    try:
        agent.choose(pos, Budget(time=PONDER_SECONDS), stop=stop)
    except Exception:   # noqa: BLE001 - a ponder must not end the person's game
        pass
