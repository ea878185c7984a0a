"""Scores and armies out of the game: what a position keeps in games that score.

A position of such a game (see :mod:`interpreter.compiler.scoring`) has
``scores``, a score per army, and ``out``, the bit mask of the armies out of
the game. An army is put out by the forced move ``OUT`` of ``when no moves:
eliminate`` (or ``RESIGNED``, when its player resigns under ``when resigning:
eliminate``); it then stays on the board as inert pieces: they block, may
be captured (scoring nothing) and never move, attack or give check, and the
turn order skips the army.

Who scores an elimination: with its royal pieces attacked (checkmate), the
army that attacks one of them and moved last before it, in turn order; not
attacked (stalemate), the army in play that moved last before it. A
resignation scores nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame

from .attacks import attacked, royal_attacked, royal_cells

if TYPE_CHECKING:
    from .position import Position

# (tuple[str, ...], not a fixed length: compiled, that keeps them one object each, see moves.DROP)
OUT: tuple[str, ...] = ("out",)                  # the forced move that puts the armies to move out: (-1, -1, 0, OUT)
RESIGNED: tuple[str, ...] = ("out", "resigned")  # the same, by resignation: it scores nothing


def is_out(pos: Position, army: int) -> bool:
    """Is ``army`` out of the game (inert pieces on the board)?"""
    return bool((pos.out >> army) & 1)


def armies_left(pos: Position) -> list[int]:
    """The armies still in the game, in army order."""
    return [a for a in range(len(pos.game.armies)) if not (pos.out >> a) & 1]


def next_turn(pos: Position, turn: int) -> tuple[int, int]:
    """The turn after ``turn`` that has an army in the game, and how many times the turn order
    wrapped round on the way there (a new move number each time). When every army is out, the
    next turn."""
    g: NativeGame = pos.game
    size = len(g.turn_order)
    step, wraps = turn, 0
    for _ in range(size):
        step += 1
        if step == size:
            step, wraps = 0, wraps + 1
        if not all((pos.out >> a) & 1 for a in g.turn_armies[step]):
            return step, wraps
    return (turn + 1) % size, int(turn + 1 == size)


def capture_score(pos: Position, army: int, captured: int, h: int) -> int:
    """``army`` captured a piece of code ``captured``: add its points (none for a piece of an army
    that is out); returns the hash."""
    g: NativeGame = pos.game
    points = g.points_of[captured]
    if points and not (pos.out >> g.code_army[captured]) & 1:
        h = add_score(pos, army, points, h)
    return h


def add_score(pos: Position, army: int, points: int, h: int) -> int:
    """Add ``points`` to the score of ``army``; returns the hash."""
    g: NativeGame = pos.game
    keys = g.z_score[army]
    old = pos.scores[army]
    new = old + points
    pos.scores = pos.scores[:army] + (new,) + pos.scores[army + 1:]
    return h ^ keys[min(old, len(keys) - 1)] ^ keys[min(new, len(keys) - 1)]


def eliminate(pos: Position, special: tuple, h: int) -> int:
    """Play the ``out`` move ``special`` for the armies to move (before the turn passes): score the
    checkmate or stalemate (not a resignation) and put them out; returns the hash."""
    g: NativeGame = pos.game
    movers = pos.movers
    if special is OUT or len(special) == 1:
        mated = [k for a in movers if royal_attacked(pos, a) for k in royal_cells(pos, a)]
        points = g.mate_points if mated else g.stalemate_points
        scorer = _scorer(pos, mated)
        if points and scorer is not None:
            h = add_score(pos, scorer, points, h)
    for a in movers:
        pos.out |= 1 << a
    return h


def _scorer(pos: Position, mated: list[int]) -> int | None:
    """The army an elimination scores for: the last army in play before the armies to move that
    attacks one of the ``mated`` royal cells, or, with none mated, the last army in play before."""
    g: NativeGame = pos.game
    size = len(g.turn_order)
    for back in range(1, size):
        for army in g.turn_armies[(pos.turn - back) % size]:
            if army in pos.movers or (pos.out >> army) & 1:
                continue
            if not mated or any(attacked(pos, k, army) for k in mated):
                return army
    return None


def scores_text(pos: Position) -> str:
    """The scores field of FEN: each army's score in army order, separated by commas; the score of
    an army that is out is followed by ``x`` (``20,0x,3,0``)."""
    return ",".join(f"{score}{'x' if (pos.out >> a) & 1 else ''}" for a, score in enumerate(pos.scores))
