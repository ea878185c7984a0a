"""Omega Chess against an independent move generator: perft at depths 1-3 (Fairy-Stockfish does not know it).

The generator below shares nothing with the engine: a dict from (x, y) to a
piece letter over the 10x10 grid (0..9, 0..9) and the four wizard squares
(-1, -1), (10, -1), (10, 10), (-1, 10); it reads its own FEN rows (wizard
rows first and last, two cells each); it moves by coordinates, so a ray that
leaves the grid at a corner reaches the wizard square beyond it and stops
there. Pieces: king, queen, rook, bishop, knight as in chess; champion WAD
(a step along a line of the grid, or a jump of two along any line); wizard FC
(a diagonal step, or a camel's (1, 3) leap); pawns step one, or from their
first rank two or three through empty cells, capture diagonally forward, and
after a double or triple step may be taken en passant on every cell passed;
promotion on the last rank to Q, R, B, N, C or W. Castling: the king on f1
(f10) goes two cells to h or d, the rook of that side (i or b) to g or e, the
cells between empty, the king not in check and the cell it passes and its
destination not attacked. A move is legal when the mover's king is not
attacked afterwards.

From the start nothing special happens in three plies (no capture can come
before ply 3, no check, no castling), so a mid-game position is counted too:
both sides may castle both ways, Black has just made a triple step that White
may take en passant on either passed cell, a white pawn is one step from
promotion, and a wizard stands on its wizard square.

The counts (both generators agree): from the start 40, 1600, 67202; from the
mid-game position 75, 3827, 274880. Depth 3 takes the counter here a minute
(``-m slow``).
"""

from __future__ import annotations

import re

import pytest

from interpreter.engine.perft import perft
from interpreter.loading import load_game, position_from_fen, start_position

WIZARD_CELLS = [(-1, -1), (10, -1), (10, 10), (-1, 10)]
CELLS = {(x, y) for x in range(10) for y in range(10)} | set(WIZARD_CELLS)
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(a * p, b * q) for a, b in ((1, 2), (2, 1)) for p in (1, -1) for q in (1, -1)]
CAMEL = [(a * p, b * q) for a, b in ((1, 3), (3, 1)) for p in (1, -1) for q in (1, -1)]
SLIDES = {"R": ORTH, "B": DIAG, "Q": ORTH + DIAG}
LEAPS = {"N": KNIGHT, "K": ORTH + DIAG,
         "C": ORTH + [(2 * dx, 2 * dy) for dx, dy in ORTH + DIAG], "W": DIAG + CAMEL}
PROMOTIONS = "QRBNCW"

# A mid-game position (White to move) just after Black's triple step e9-e6 (the en passant field lists the cells
# passed, e7 and e8, and the pawn's cell): White's d7 pawn may take it en passant on e8, the f6 pawn on e7; the c9
# pawn promotes on c10 or by taking the rook on b10; both kings and all four rooks are unmoved, the cells between
# them empty; White's wizard on w1 may leap to c1 or a3.
MIDGAME = "w1/cr3k2rc/ppP3pqpp/10/3P6/4pP4/2n7/3Q6/4N5/PP2P1PPPP/CR3K2RC/W1 w KQkq e6e7e8 0 21"


def read_fen(fen: str) -> tuple[dict, bool, str, set]:
    """Board, White to move, castling rights and en passant cells of a FEN in Omega Chess's rows."""
    rows, side, rights, ep = fen.split()[:4]
    board: dict = {}
    for y, row in zip(range(10, -2, -1), rows.split("/")):
        xs = [-1, 10] if y in (10, -1) else list(range(10))
        i, number = 0, ""
        for ch in row + " ":
            if ch.isdigit():
                number += ch
                continue
            i += int(number or 0)
            number = ""
            if ch != " ":
                board[(xs[i], y)] = ch
                i += 1
    cells = [(ord(name[0]) - ord("a"), int(name[1:]) - 1) for name in re.findall(r"[a-j][0-9]+", ep)]
    targets = {cell for cell in cells if cell not in board}   # the cells passed (the last is the pawn's)
    return board, side == "w", rights, targets


def _mine(piece: str | None, white: bool) -> bool:
    return piece is not None and piece.isupper() == white


def attacked(board: dict, cell: tuple, by_white: bool) -> bool:
    """Whether a piece of ``by_white``'s army attacks ``cell``."""
    for (x, y), piece in board.items():
        if _mine(piece, by_white) and cell in _captures(board, x, y):
            return True
    return False


def _captures(board: dict, x: int, y: int) -> list:
    """Cells the piece on (x, y) attacks."""
    piece = board[(x, y)]
    kind, white = piece.upper(), piece.isupper()
    if kind == "P":
        d = 1 if white else -1
        return [(x + dx, y + d) for dx in (1, -1) if (x + dx, y + d) in CELLS]
    out = []
    for dx, dy in SLIDES.get(kind, []):
        cx, cy = x + dx, y + dy
        while (cx, cy) in CELLS:
            out.append((cx, cy))
            if (cx, cy) in board:
                break
            cx, cy = cx + dx, cy + dy
    out += [(x + dx, y + dy) for dx, dy in LEAPS.get(kind, []) if (x + dx, y + dy) in CELLS]
    return out


def moves(board: dict, white: bool, rights: str, targets: set) -> list:
    """Pseudo-legal moves: (board after, rights after, en passant targets after)."""
    out = []

    def put(frm, to, new_piece=None, extra=None, new_targets=frozenset()):
        after = dict(board)
        piece = after.pop(frm)
        if extra:
            after.pop(extra, None)
        after[to] = new_piece or piece
        lost = {(5, 0): "KQ", (8, 0): "K", (1, 0): "Q", (5, 9): "kq", (8, 9): "k", (1, 9): "q"}
        new_rights = "".join(r for r in rights if r not in lost.get(frm, "") + lost.get(to, ""))
        out.append((after, new_rights, set(new_targets)))

    for (x, y), piece in list(board.items()):
        if not _mine(piece, white):
            continue
        if piece.upper() != "P":
            for cell in _captures(board, x, y):
                if not _mine(board.get(cell), white):
                    put((x, y), cell)
            continue
        d, last = (1, 9) if white else (-1, 0)
        first = 1 if white else 8
        steps = []
        for n in (1, 2, 3) if y == first else (1,):
            if (x, y + n * d) not in CELLS or (x, y + n * d) in board:
                break
            steps.append((x, y + n * d))
        ends = [(cell, None) for cell in steps]
        ends += [(cell, None) for cell in _captures(board, x, y) if board.get(cell) and not _mine(board[cell], white)]
        ends += [(cell, "ep") for cell in _captures(board, x, y) if cell in targets and cell not in board]
        for cell, how in ends:
            extra = None
            if how == "ep":   # the pawn that passed stands beyond the target, in its own direction
                cx, cy = cell
                while (cx, cy) not in board:
                    cy -= d
                extra = (cx, cy)
            passed = frozenset(steps[:steps.index(cell)]) if cell in steps and steps.index(cell) > 0 else frozenset()
            if cell[1] == last:
                for kind in PROMOTIONS:
                    put((x, y), cell, kind if white else kind.lower(), extra)
            else:
                put((x, y), cell, None, extra, passed)
    rank, king = (0, "K") if white else (9, "k")
    for right, rook_x, king_to, rook_to in (("K", 8, 7, 6), ("Q", 1, 3, 4)):
        right = right if white else right.lower()
        if right not in rights or board.get((5, rank)) != king:
            continue
        between = range(min(rook_x, 5) + 1, max(rook_x, 5))
        passes = range(min(5, king_to), max(5, king_to) + 1)
        if any((x, rank) in board for x in between) or any(attacked(board, (x, rank), not white) for x in passes):
            continue
        after = dict(board)
        del after[(5, rank)], after[(rook_x, rank)]
        after[(king_to, rank)], after[(rook_to, rank)] = king, "R" if white else "r"
        out.append((after, rights.replace(("K" if white else "k"), "").replace("Q" if white else "q", ""), set()))
    return out


def legal(board: dict, white: bool, rights: str, targets: set) -> list:
    king = "K" if white else "k"
    return [m for m in moves(board, white, rights, targets)
            if not attacked(m[0], next(c for c, p in m[0].items() if p == king), not white)]


def count(board: dict, white: bool, rights: str, targets: set, depth: int) -> int:
    found = legal(board, white, rights, targets)
    if depth == 1:
        return len(found)
    return sum(count(b, not white, r, t, depth - 1) for b, r, t in found)


START = "ww/crnbqkbnrc/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/CRNBQKBNRC/WW w KQkq - 0 1"


@pytest.mark.parametrize("fen", [START, MIDGAME], ids=["start", "midgame"])
@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_perft_is_the_independent_count(fen, depth):
    game = load_game("omega")
    pos = start_position(game) if fen == START else position_from_fen(game, fen)
    assert perft(pos, depth) == count(*read_fen(fen), depth)


def test_the_setup_is_the_counters_start():
    """The bundled setup is the position the counter starts from (so the counts are of the same game)."""
    from interpreter.notation.fen import to_fen

    assert to_fen(start_position(load_game("omega"))) == START


def test_the_midgame_has_what_it_is_for():
    """The mid-game position offers castling both ways, en passant and promotion, and the wizard's corner moves."""
    board, white, rights, targets = read_fen(MIDGAME)
    found = legal(board, white, rights, targets)
    assert targets == {(4, 6), (4, 7)}
    assert sum(1 for b, *_ in found if b.get((7, 0)) == "K" and b.get((6, 0)) == "R") == 1       # O-O
    assert sum(1 for b, *_ in found if b.get((3, 0)) == "K" and b.get((4, 0)) == "R") == 1       # O-O-O
    assert sum(1 for b, *_ in found if (4, 5) not in b and b.get((4, 6), b.get((4, 7))) == "P") == 2   # e.p.
    assert sum(1 for b, *_ in found if b.get((2, 9)) == "Q" or b.get((1, 9)) == "Q") == 2      # =Q twice
    assert sum(1 for b, *_ in found if b.get((2, 0)) == "W") == 1                              # w1-c1
