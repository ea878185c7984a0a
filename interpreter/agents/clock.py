"""Time management: how long to think for one move, from a game clock.

:func:`time_for_move` follows the usual rule of engines: the move deserves
an equal share of the remaining time over the moves still to play
(``movestogo`` when the time control says, else :data:`MOVES_LEFT`), plus
most of the increment (the budget's ``soft`` time); it may take up to
:data:`HARD_FACTOR` times that when its search is unstable (the budget's
``time``), never more than :data:`MAX_SHARE` of what is left and always a
little less than that (:data:`MARGIN` seconds for the answer to travel).
"""

from __future__ import annotations

from .base import Budget

MOVES_LEFT = 30       # moves assumed still to play when the time control does not say
INCREMENT_SHARE = 0.8  # of the increment, spent on this move
MAX_SHARE = 0.5       # at most this share of the remaining time on one move
MARGIN = 0.05         # seconds kept back
MINIMUM = 0.01        # seconds: the least a move is given
HARD_FACTOR = 3.0     # the most a move may take, in shares


def time_for_move(remaining: float, increment: float = 0.0, moves_to_go: int | None = None) -> Budget:
    """A time budget for one move with ``remaining`` seconds on the clock, ``increment`` seconds
    added per move and ``moves_to_go`` moves until the next time control (None: sudden death)."""
    remaining = max(0.0, remaining)
    moves = moves_to_go + 1 if moves_to_go else MOVES_LEFT
    share = remaining / moves + INCREMENT_SHARE * max(0.0, increment)
    cap = MAX_SHARE * remaining - MARGIN
    soft = max(MINIMUM, min(share, cap))
    return Budget(time=max(soft, min(HARD_FACTOR * share, cap)), soft=soft)
