#!/usr/bin/env python3
"""Independent reference move generator for McCooey's hexagonal chess, from the rules in words.

A test oracle: written from the published rules (McCooey and Honeycutt, 1978-79) and the
decisions that variants/mccooey.rules records as interpretations, without reading the engine, in
plain Python with its own board encoding (cube coordinates of a hexagon, a dict from (q, r) to a
piece), so that tests/test_mccooey.py can compare the engine's perft counts and legal moves with
it. Nothing of the interpreter is imported.

The rules, as this file reads them:

- The board is a hexagon of 91 hexagonal cells, six a side, with flat tops: eleven vertical
  files a to l (no j) of 6, 7, ..., 11, ..., 7, 6 cells, each numbered from 1 at its bottom.
  Here a cell is (q, r): q the file from -5 (a) to 5 (l), r the step count northwards, with
  s = -q - r; a cell exists when |q|, |r| and |s| are at most 5. Its six edge neighbours are
  north (0, 1), south, and north-east (1, 0), south-east (1, -1), south-west, north-west; the six
  corner (diagonal) neighbours are the sums of two adjacent edge steps: (1, 1), (2, -1),
  (1, -2) and their negatives.
- White: King g1, Queen e1, Rooks d1 h1, Knights e2 g2, Bishops f1 f2 f3, Pawns c1 d2 e3 f4 g3
  h2 i1. Black: the same mirrored top to bottom (each file's cell n becomes its last but n-1):
  King g10, Queen e10, Rooks d9 h9, Knights e9 g9, Bishops f11 f10 f9, Pawns c8 d8 e8 f8 g8 h8 i8.
- Rook: any distance through edges. Bishop: any distance through corners. Queen: both. King:
  one cell through an edge or a corner. Knight: leaps to a cell one edge step and then one
  corner step away, the corner step at thirty degrees to the edge step (twelve cells).
- Pawn: steps one cell straight forward (north for White, south for Black) to an empty cell;
  from its starting cell, except the middle file's (f4, f8), it may instead step two cells
  forward through an empty cell to an empty cell. It captures one corner step diagonally
  forward, at thirty degrees either side of straight ahead (White (1, 1) and (-1, 2)).
- En passant: right after an enemy pawn made a double step, a pawn that could capture on the
  cell it passed over may move there, taking that pawn.
- A pawn reaching the last cell of its file becomes a queen, rook, bishop or knight.
- No castling. A move may not leave the mover's king attacked.

Usage:
  python3 mccooey_reference.py perft DEPTH [MOVES...]   # counts for depth 1..DEPTH
  python3 mccooey_reference.py moves [MOVES...]         # sorted legal moves
Moves are written from-cell, to-cell, promotion letter: f4f5, e3e5, c7c8Q.
"""
from __future__ import annotations

import sys

RADIUS = 5
LETTERS = "abcdefghikl"
WHITE, BLACK = "w", "b"

ORTH = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]   # n, ne, se, s, sw, nw
DIAG = [(ORTH[i][0] + ORTH[(i + 1) % 6][0], ORTH[i][1] + ORTH[(i + 1) % 6][1]) for i in range(6)]
# An edge step and a corner step next to it (thirty degrees away), in the same sense.
KNIGHT = sorted({(o[0] + d[0], o[1] + d[1]) for i, o in enumerate(ORTH) for d in (DIAG[i], DIAG[i - 1])})
SLIDES = {"R": ORTH, "B": DIAG, "Q": ORTH + DIAG}
FORWARD = {WHITE: (0, 1), BLACK: (0, -1)}
PAWN_CAPTURE = {WHITE: [(1, 1), (-1, 2)], BLACK: [(-1, -1), (1, -2)]}
PROMOTIONS = "QRBN"

CELLS = [(q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1)
         if abs(-q - r) <= RADIUS]
ON_BOARD = set(CELLS)


def bottom(q: int) -> int:
    """The r of the first cell of file q."""
    return max(-RADIUS, -RADIUS - q)


def top(q: int) -> int:
    return min(RADIUS, RADIUS - q)


def name(cell: tuple[int, int]) -> str:
    q, r = cell
    return f"{LETTERS[q + RADIUS]}{r - bottom(q) + 1}"


def cell_of(text: str) -> tuple[int, int]:
    q = LETTERS.index(text[0]) - RADIUS
    return (q, bottom(q) + int(text[1:]) - 1)


def mirrored(cell: tuple[int, int]) -> tuple[int, int]:
    """The same cell for the other side: top to bottom on the same file."""
    q, r = cell
    return (q, top(q) - (r - bottom(q)))


WHITE_ARRAY = {"K": "g1", "Q": "e1", "R": "d1 h1", "N": "e2 g2", "B": "f1 f2 f3",
               "P": "c1 d2 e3 f4 g3 h2 i1"}
DOUBLE_STEP = {WHITE: {cell_of(c) for c in "c1 d2 e3 g3 h2 i1".split()}}
DOUBLE_STEP[BLACK] = {mirrored(c) for c in DOUBLE_STEP[WHITE]}


def start() -> dict:
    """The starting position: {"board": {cell: (colour, letter)}, "turn", "ep": (passed, pawn) or None}."""
    board = {}
    for letter, cells in WHITE_ARRAY.items():
        for text in cells.split():
            board[cell_of(text)] = (WHITE, letter)
            board[mirrored(cell_of(text))] = (BLACK, letter)
    return {"board": board, "turn": WHITE, "ep": None}


def position(pieces: dict[str, str], turn: str = WHITE) -> dict:
    """A state with the given pieces (cell name -> letter, upper case White's), no en passant target."""
    board = {cell_of(text): (WHITE if letter.isupper() else BLACK, letter.upper()) for text, letter in pieces.items()}
    return {"board": board, "turn": turn, "ep": None}


def add(cell: tuple[int, int], v: tuple[int, int], times: int = 1) -> tuple[int, int]:
    return (cell[0] + times * v[0], cell[1] + times * v[1])


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def attacked(board: dict, cell: tuple[int, int], by: str) -> bool:
    """Is ``cell`` attacked by a piece of colour ``by``? Looked at from the cell outwards."""
    for family, kind in ((ORTH, "R"), (DIAG, "B")):
        for v in family:
            at, steps = add(cell, v), 1
            while at in ON_BOARD:
                piece = board.get(at)
                if piece is not None:
                    if piece[0] == by and (piece[1] in (kind, "Q") or (piece[1] == "K" and steps == 1)):
                        return True
                    break
                at, steps = add(at, v), steps + 1
    for v in KNIGHT:
        if board.get(add(cell, v)) == (by, "N"):
            return True
    for v in PAWN_CAPTURE[by]:  # a pawn of ``by`` one capture step behind the cell
        if board.get(add(cell, v, -1)) == (by, "P"):
            return True
    return False


def pseudo_moves(state: dict) -> list[tuple]:
    """(from, to, promotion letter or '', en passant victim or None), the king's safety not looked at."""
    board, me = state["board"], state["turn"]
    moves = []
    for cell, (colour, letter) in board.items():
        if colour != me:
            continue
        if letter in SLIDES:
            for v in SLIDES[letter]:
                at = add(cell, v)
                while at in ON_BOARD:
                    piece = board.get(at)
                    if piece is None or piece[0] != me:
                        moves.append((cell, at, "", None))
                    if piece is not None:
                        break
                    at = add(at, v)
        elif letter in "KN":
            for v in (ORTH + DIAG if letter == "K" else KNIGHT):
                at = add(cell, v)
                if at in ON_BOARD and board.get(at, ("", ""))[0] != me:
                    moves.append((cell, at, "", None))
        else:
            targets = []
            one = add(cell, FORWARD[me])
            if one in ON_BOARD and one not in board:
                targets.append((one, None))
                two = add(one, FORWARD[me])
                if cell in DOUBLE_STEP[me] and two in ON_BOARD and two not in board:
                    targets.append((two, None))
            for v in PAWN_CAPTURE[me]:
                at = add(cell, v)
                piece = board.get(at)
                if piece is not None and piece[0] != me:
                    targets.append((at, None))
                elif piece is None and state["ep"] is not None and state["ep"][0] == at:
                    targets.append((at, state["ep"][1]))
            for at, victim in targets:
                if add(at, FORWARD[me]) not in ON_BOARD:  # the last cell of its file
                    moves.extend((cell, at, p, victim) for p in PROMOTIONS)
                else:
                    moves.append((cell, at, "", victim))
    return moves


def play(state: dict, move: tuple) -> dict:
    """The position after ``move`` (a new state)."""
    frm, to, promotion, victim = move
    board = dict(state["board"])
    colour, letter = board.pop(frm)
    if victim is not None:
        del board[victim]
    board[to] = (colour, promotion or letter)
    ep = None
    if letter == "P" and abs(to[1] - frm[1]) == 2 and to[0] == frm[0]:
        ep = (add(frm, FORWARD[colour]), to)
    return {"board": board, "turn": other(colour), "ep": ep}


def legal_moves(state: dict) -> list[tuple]:
    me = state["turn"]
    legal = []
    for move in pseudo_moves(state):
        after = play(state, move)["board"]
        king = next(c for c, p in after.items() if p == (me, "K"))
        if not attacked(after, king, other(me)):
            legal.append(move)
    return legal


def in_check(state: dict) -> bool:
    me = state["turn"]
    king = next(c for c, p in state["board"].items() if p == (me, "K"))
    return attacked(state["board"], king, other(me))


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
    """The placement and side to move: ranks 11 down to 1, each rank's own cells from file a to l."""
    rows = []
    for rank in range(2 * RADIUS + 1, 0, -1):
        row, empty = "", 0
        for q in range(-RADIUS, RADIUS + 1):
            r = bottom(q) + rank - 1
            if r > top(q):
                continue
            piece = state["board"].get((q, r))
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + (piece[1] if piece[0] == WHITE else piece[1].lower())
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + state["turn"]


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
