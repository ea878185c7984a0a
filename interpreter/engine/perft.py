"""Perft: count the leaf nodes of the legal move tree, the standard test of a move generator."""

from __future__ import annotations

from .position import Position


def perft(pos: Position, depth: int, bulk: bool = True) -> int:
    """The number of legal move sequences of length ``depth`` from ``pos``.

    With ``bulk`` the last ply is counted without playing its moves (the
    usual fast perft); without it every leaf move is made and unmade, which
    also exercises make/unmake.
    """
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
        total += perft(pos, depth - 1, bulk)
        pos.pop()
    return total


def divide(pos: Position, depth: int, bulk: bool = True) -> list[tuple[tuple, int]]:
    """Perft per legal move of ``pos``: pairs (move, count) (``bulk`` as in :func:`perft`)."""
    result = []
    for move in pos.legal_moves():
        pos.push(move)
        result.append((move, perft(pos, depth - 1, bulk)))
        pos.pop()
    return result
