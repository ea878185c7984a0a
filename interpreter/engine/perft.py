"""Perft: count the leaf nodes of the legal move tree, the standard test of a move generator."""

from __future__ import annotations

from dsl.limits import PERFT_DEPTH

from .position import Position


def perft(pos: Position, depth: int, bulk: bool = True) -> int:
    """The number of legal move sequences of length ``depth`` from ``pos`` (1 for a depth of 0 or less).

    With ``bulk`` the last ply is counted without playing its moves (the
    usual fast perft); without it every leaf move is made and unmade, which
    also exercises make/unmake. A depth over the limit ``perft_depth`` is a
    :class:`~dsl.errors.LimitError`, raised before any move is generated.
    """
    PERFT_DEPTH.check(depth, None, "this perft")
    return _count(pos, depth, bulk)


def divide(pos: Position, depth: int, bulk: bool = True) -> list[tuple[tuple, int]]:
    """Perft per legal move of ``pos``: pairs (move, count) (``bulk`` and the limit as in :func:`perft`)."""
    PERFT_DEPTH.check(depth, None, "this perft")
    result = []
    for move in pos.legal_moves():
        pos.push(move)
        result.append((move, _count(pos, depth - 1, bulk)))
        pos.pop()
    return result


def _count(pos: Position, depth: int, bulk: bool) -> int:
    """:func:`perft` without the check of its depth (it recurses once per ply)."""
    if depth <= 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        if not bulk:
            push, pop = pos.push, pos.pop
            for move in moves:
                push(move)
                pop()
        return len(moves)
    total = 0
    for move in moves:
        pos.push(move)
        total += _count(pos, depth - 1, bulk)
        pos.pop()
    return total
