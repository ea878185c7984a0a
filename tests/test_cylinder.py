"""Cylinder Chess against an independent move generator: perft from the start, depths 1-3 (4 slow).

The generator below shares nothing with the engine: an 8x8 array, files
taken modulo 8 (the a- and h-files are joined), the orthodox moves, and a
move is legal when the mover's king is not attacked afterwards. It has no
castling, en passant or promotion, and needs none to depth 4 from the start:
castling needs two moves of White to clear the path and a third to castle
(ply 5); en passant needs a pawn on its fifth rank (two moves) and an enemy
double step beside it (ply 4) before the capture (ply 5); promotion is
further still. What it does have is what wrapping changes: rays and leaps
that cross the edge: after 1. c3 the queen on d1 pins the f7 pawn through
c2, b3, a4, h5, g6 (Black has 18 replies, so depth 2 counts 392, not 400), and
the queen on d8 checks e1 through c7, b6, a5, h4, g3, f2 once the c- and
f-pawns are gone. The counts: 20, 392, 9162 and 211036.
"""

from __future__ import annotations

import pytest

from interpreter.engine.perft import perft
from interpreter.loading import load_game, start_position

START = ["RNBQKBNR", "PPPPPPPP", "........", "........", "........", "........", "pppppppp", "rnbqkbnr"]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
SLIDES = {"R": ROOK, "B": BISHOP, "Q": ROOK + BISHOP}


def _own(piece: str, white: bool) -> bool:
    return piece != "." and piece.isupper() == white


def _targets(board: list[list[str]], x: int, y: int) -> list[tuple[int, int]]:
    """Cells the piece on (x, y) moves to (quiet or capturing), files wrapping, ranks not."""
    piece = board[y][x]
    white, kind = piece.isupper(), piece.upper()
    out = []
    if kind in SLIDES:
        for dx, dy in SLIDES[kind]:
            cx, cy = x, y
            for _ in range(7):            # a ray round the cylinder stops before its start
                cx, cy = (cx + dx) % 8, cy + dy
                if not 0 <= cy < 8 or (cx, cy) == (x, y) or _own(board[cy][cx], white):
                    break
                out.append((cx, cy))
                if board[cy][cx] != ".":
                    break
    elif kind in "NK":
        for dx, dy in KNIGHT if kind == "N" else ROOK + BISHOP:
            cx, cy = (x + dx) % 8, y + dy
            if 0 <= cy < 8 and not _own(board[cy][cx], white):
                out.append((cx, cy))
    else:                                  # a pawn
        step = 1 if white else -1
        if board[y + step][x] == ".":
            out.append((x, y + step))
            if y == (1 if white else 6) and board[y + 2 * step][x] == ".":
                out.append((x, y + 2 * step))
        for dx in (1, -1):
            cx = (x + dx) % 8
            if board[y + step][cx] != "." and not _own(board[y + step][cx], white):
                out.append((cx, y + step))
    return out


def _attacked(board: list[list[str]], x: int, y: int, by_white: bool) -> bool:
    for sy in range(8):
        for sx in range(8):
            piece = board[sy][sx]
            if piece == "." or piece.isupper() != by_white:
                continue
            if piece.upper() == "P":
                if sy + (1 if by_white else -1) == y and (x - sx) % 8 in (1, 7):
                    return True
            elif (x, y) in _targets(board, sx, sy):
                return True
    return False


def reference_perft(board: list[list[str]], white: bool, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for y in range(8):
        for x in range(8):
            if not _own(board[y][x], white):
                continue
            for tx, ty in _targets(board, x, y):
                moved, taken = board[y][x], board[ty][tx]
                board[ty][tx], board[y][x] = moved, "."
                king = next((kx, ky) for ky in range(8) for kx in range(8) if board[ky][kx] == ("K" if white else "k"))
                if not _attacked(board, *king, by_white=not white):
                    total += reference_perft(board, not white, depth - 1)
                board[y][x], board[ty][tx] = moved, taken
    return total


@pytest.mark.parametrize("depth", [1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_perft_from_the_start_is_the_independent_count(depth):
    game = load_game("cylinder")
    board = [list(row) for row in START]
    expected = reference_perft(board, True, depth)
    assert perft(start_position(game), depth) == expected


def test_the_reference_sees_the_check_round_the_edge():
    """1. f3 c6: the black queen checks e1 round the edge, so White's king must be covered (or move)."""
    board = [list(row) for row in START]
    board[1][5], board[2][5] = ".", "P"           # f2-f3
    board[6][2], board[5][2] = ".", "p"           # c7-c6
    assert _attacked(board, 4, 0, by_white=False)
    assert reference_perft(board, True, 1) < 30   # most of White's moves leave the king in check
