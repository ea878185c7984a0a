#!/usr/bin/env python3
"""Independent reference move generator for Raumschach (Maack, 1907), from the rules in words.

A test oracle: written from the rules and the decisions that variants/raumschach.rules records
as interpretations, without reading the engine, in plain Python with its own board encoding (a
dict from (level, file, rank), each from 0, to a piece), so that tests/test_raumschach.py can
compare the engine's perft counts and legal moves with it.

The rules, as this file reads them:

- The board is a cube of 5 x 5 x 5 cells; levels A (0, White's) to E (4, Black's), files a to
  e, ranks 1 to 5; a cell is named level, file, rank: Aa1 ... Ee5.
- White: Ra1 Nb1 Kc1 Nd1 Re1 and pawns a2..e2 on level A; Bishop a1, Unicorn b1, Queen c1,
  Bishop d1, Unicorn e1 and pawns a2..e2 on level B. Black the same turned half round: Ra5
  Nb5 Kc5 Nd5 Re5 and pawns a4..e4 on level E; Unicorn a5, Bishop b5, Queen c5, Unicorn d5,
  Bishop e5 and pawns a4..e4 on level D.
- Rook: any distance along one axis. Bishop: any distance along a diagonal of exactly two axes.
  Unicorn: any distance along a diagonal of all three axes. Queen: any of the three. King: one
  cell in any of the 26 directions. Knight: leaps 2 along one axis and 1 along another.
- A white pawn moves (not capturing) one rank forward or one level up; it captures one step
  that is forward and sideways, up and sideways, or forward and up. Black's pawns mirror this
  (back and down). No double step, no en passant, no castling.
- A pawn reaching the last rank of the last level (rank 5 of level E for White, rank 1 of
  level A for Black) becomes a queen, rook, bishop, knight or unicorn.
- A move may not leave the mover's king attacked.

Usage:
  python3 raumschach_reference.py perft DEPTH [MOVES...]   # counts for depth 1..DEPTH
  python3 raumschach_reference.py moves [MOVES...]         # sorted legal moves
Moves are written from-cell, to-cell, promotion letter: Ba2Ca2, Da4Ea5Q.
"""
from __future__ import annotations

import sys
from itertools import permutations, product

SIZE = 5
LEVELS, FILES = "ABCDE", "abcde"
WHITE, BLACK = "w", "b"

ORTH = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 1]
DIAG = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 2]
TRI = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 3]
SLIDES = {"R": ORTH, "B": DIAG, "U": TRI, "Q": ORTH + DIAG + TRI}
KNIGHT = sorted({tuple(s * d for s, d in zip(signs, order))
                 for order in permutations((2, 1, 0)) for signs in product((1, -1), repeat=3)})
# Vectors are (level, file, rank) steps; White's pawn moves and captures, Black's are negated.
PAWN_QUIET = [(0, 0, 1), (1, 0, 0)]
PAWN_CAPTURE = [(0, 1, 1), (0, -1, 1), (1, 1, 0), (1, -1, 0), (1, 0, 1)]
PROMOTIONS = "QRBNU"


def name(cell: tuple[int, int, int]) -> str:
    z, x, y = cell
    return f"{LEVELS[z]}{FILES[x]}{y + 1}"


def cell_of(text: str) -> tuple[int, int, int]:
    return (LEVELS.index(text[0]), FILES.index(text[1]), int(text[2]) - 1)


def inside(z: int, x: int, y: int) -> bool:
    return 0 <= z < SIZE and 0 <= x < SIZE and 0 <= y < SIZE


def start() -> dict:
    """The starting position: {"board": {cell: (colour, letter)}, "turn": colour}."""
    board = {}
    for x, letter in enumerate("RNKNR"):
        board[(0, x, 0)] = (WHITE, letter)
        board[(4, 4 - x, 4)] = (BLACK, letter)
    for x, letter in enumerate("BUQBU"):
        board[(1, x, 0)] = (WHITE, letter)
        board[(3, 4 - x, 4)] = (BLACK, letter)
    for x in range(SIZE):
        for z in (0, 1):
            board[(z, x, 1)] = (WHITE, "P")
            board[(4 - z, x, 3)] = (BLACK, "P")
    return {"board": board, "turn": WHITE}


def _sign(colour: str) -> int:
    return 1 if colour == WHITE else -1


def attacked(board: dict, cell: tuple[int, int, int], by: str) -> bool:
    """Is ``cell`` attacked by a piece of colour ``by``? Looked at from the cell outwards."""
    z, x, y = cell
    for v in ORTH + DIAG + TRI:
        kind = "R" if v in ORTH else "B" if v in DIAG else "U"
        cz, cx, cy, steps = z, x, y, 0
        while True:
            cz, cx, cy, steps = cz + v[0], cx + v[1], cy + v[2], steps + 1
            if not inside(cz, cx, cy):
                break
            piece = board.get((cz, cx, cy))
            if piece is None:
                continue
            if piece[0] == by and (piece[1] in (kind, "Q") or (piece[1] == "K" and steps == 1)):
                return True
            break
    for dz, dx, dy in KNIGHT:
        if board.get((z + dz, x + dx, y + dy)) == (by, "N"):
            return True
    s = _sign(by)
    for dz, dx, dy in PAWN_CAPTURE:  # a pawn of ``by`` one capture step away, backwards
        if board.get((z - s * dz, x - s * dx, y - s * dy)) == (by, "P"):
            return True
    return False


def pseudo_moves(state: dict) -> list[tuple]:
    """(from, to, promotion letter or '') of the side to move, its king's safety not looked at."""
    board, me = state["board"], state["turn"]
    moves = []
    for cell, (colour, letter) in board.items():
        if colour != me:
            continue
        z, x, y = cell
        if letter in SLIDES:
            for dz, dx, dy in SLIDES[letter]:
                cz, cx, cy = z + dz, x + dx, y + dy
                while inside(cz, cx, cy):
                    piece = board.get((cz, cx, cy))
                    if piece is None or piece[0] != me:
                        moves.append((cell, (cz, cx, cy), ""))
                    if piece is not None:
                        break
                    cz, cx, cy = cz + dz, cx + dx, cy + dy
        elif letter in "KN":
            for dz, dx, dy in (ORTH + DIAG + TRI if letter == "K" else KNIGHT):
                to = (z + dz, x + dx, y + dy)
                if inside(*to) and board.get(to, ("", ""))[0] != me:
                    moves.append((cell, to, ""))
        else:
            s = _sign(me)
            last = 4 if me == WHITE else 0
            for vectors, capture in ((PAWN_QUIET, False), (PAWN_CAPTURE, True)):
                for dz, dx, dy in vectors:
                    to = (z + s * dz, x + s * dx, y + s * dy)
                    if not inside(*to):
                        continue
                    piece = board.get(to)
                    if (piece is None) == capture or (capture and piece[0] == me):
                        continue
                    if to[0] == last and to[2] == last:
                        moves.extend((cell, to, p) for p in PROMOTIONS)
                    else:
                        moves.append((cell, to, ""))
    return moves


def play(state: dict, move: tuple) -> dict:
    """The position after ``move`` (a new state)."""
    frm, to, promotion = move
    board = dict(state["board"])
    colour, letter = board.pop(frm)
    board[to] = (colour, promotion or letter)
    return {"board": board, "turn": BLACK if colour == WHITE else WHITE}


def legal_moves(state: dict) -> list[tuple]:
    me = state["turn"]
    legal = []
    for move in pseudo_moves(state):
        after = play(state, move)["board"]
        king = next(c for c, p in after.items() if p == (me, "K"))
        if not attacked(after, king, BLACK if me == WHITE else WHITE):
            legal.append(move)
    return legal


def written(move: tuple) -> str:
    return name(move[0]) + name(move[1]) + move[2]


def read(state: dict, text: str) -> tuple:
    for move in legal_moves(state):
        if written(move) == text:
            return move
    raise ValueError(f"illegal move {text}")


def perft(state: dict, depth: int) -> int:
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(play(state, m), depth - 1) for m in moves)


def fen(state: dict) -> str:
    """The placement and side to move, levels from E down separated by '//', each rank 5 to 1."""
    levels = []
    for z in reversed(range(SIZE)):
        rows = []
        for y in reversed(range(SIZE)):
            row, empty = "", 0
            for x in range(SIZE):
                piece = state["board"].get((z, x, y))
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + (piece[1] if piece[0] == WHITE else piece[1].lower())
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        levels.append("/".join(rows))
    return "//".join(levels) + " " + state["turn"]


def _main(argv: list[str]) -> None:
    state = start()
    command, rest = argv[0], argv[1:]
    depth = int(rest.pop(0)) if command == "perft" else 0
    for text in rest:
        state = play(state, read(state, text))
    if command == "perft":
        for d in range(1, depth + 1):
            print(d, perft(state, d))
    else:
        print(" ".join(sorted(written(m) for m in legal_moves(state))))


if __name__ == "__main__":
    _main(sys.argv[1:])
