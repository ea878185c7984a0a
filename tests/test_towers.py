"""Tower Locking Chess (variants/towers.rules, stacks of three) against an independent move generator.

The generator below is written from the rules in words (the variant's
``description`` and ``interpretation`` lines, and Locking Chess's rules for
stacks of two), not from the interpreter: a cell is a list of pieces, bottom
first, each a (side, letter) pair; a move is (from, to, promotion, what),
``what`` being the outcome of the move on its destination (``move``,
``climb``, ``land``, ``descend``, ``capture``, ``capture-top``,
``capture-bottom``, ``capture-both``, ``capture-all``) or ``ep`` / ``sep``.
Its rules, as it implements them:

- Only the top piece of a cell moves. It is at ground level alone, at the
  upper level on top of a stack (of two or three).
- A piece moves by its chess patterns; a pawn steps forward, steps two from
  its start rank over a cell that does not block it (and only then may be
  taken en passant, when it ends on an empty cell), captures forward
  diagonally, and on top of a stack also steps forward diagonally without
  capturing. At ground level every piece blocks a ray; on top of a stack
  only stacks of two or three do (airspace), and the piece may end on any
  cell it passes.
- A lone piece: moves to an empty cell; captures a lone enemy piece; climbs
  onto a lone own piece or a pair of own pieces, by a move or a capture;
  captures both pieces of a pair of enemies, the bottom of a pair of an enemy
  under an own piece (taking its place under it), and, a knight only, the
  enemy top of a pair on an own piece; captures a tower of three enemy pieces
  whole.
- A piece on top of a stack: descends to an empty cell; lands on any lone
  piece (a move, not a capture); captures the enemy top of a pair on an own
  piece, both pieces of a pair of enemies, a tower of three enemies whole,
  and a lone enemy piece if it stands on a tower, or if it is a knight on a
  pair whose lower piece is its own.
- Sep: a pawn on top of a stack that reaches, by a forward diagonal step,
  the cell a lone enemy pawn has just passed over by its two-step advance
  takes that cell and puts the pawn there under itself.
- A move is legal when afterwards no enemy top piece has a move that removes
  the mover's king (from the top of a cell, or from under other pieces).

Castling (and castlock) is Locking Chess's, tested in tests/test_locking.py:
the positions here either have no castling rights or are too few moves from
the start for a castling.
"""

from __future__ import annotations

import random

import pytest

from dsl import PositionError, RulesError, load_spec_text
from interpreter.engine.perft import perft
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen

LETTERS = "KQRBNP"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
PATTERNS = {"K": (ORTH + DIAG, False), "Q": (ORTH + DIAG, True), "R": (ORTH, True), "B": (DIAG, True),
            "N": (KNIGHT, False)}


class Board:
    """A Tower Locking Chess position: cells (x, y) -> pieces bottom first, side to move, en passant."""

    def __init__(self, fen: str) -> None:
        placement, side, _, ep = fen.split()[:4]
        self.cells: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {}
        for r, row in enumerate(placement.split("/")):
            x, i = 0, 0
            while i < len(row):
                if row[i].isdigit():
                    x += int(row[i])
                    i += 1
                    continue
                if row[i] == "(":
                    close = row.index(")", i)
                    symbols, i = row[i + 1:close], close + 1
                else:
                    symbols, i = row[i], i + 1
                self.cells[(x, 7 - r)] = tuple(("w" if s.isupper() else "b", s.upper()) for s in symbols)
                x += 1
        self.side = side
        # (passed cell, pawn cell) of a two-step advance just made, as the FEN gives it
        self.ep = None if ep == "-" else ((ord(ep[0]) - 97, int(ep[1]) - 1),
                                          (ord(ep[0]) - 97, int(ep[1]) - 1 + (-1 if side == "w" else 1)))

    def play(self, move) -> "Board":
        """The board after ``move`` (a new Board)."""
        frm, to, promo, what = move
        new = Board.__new__(Board)
        cells = dict(self.cells)
        stack = cells.pop(frm)
        mover = (stack[-1][0], promo or stack[-1][1])
        if stack[:-1]:
            cells[frm] = stack[:-1]
        target = cells.get(to, ())
        after = {"move": (mover,), "descend": (mover,), "capture": (mover,), "capture-both": (mover,),
                 "capture-all": (mover,), "climb": target + (mover,), "land": target + (mover,),
                 "capture-top": target[:-1] + (mover,), "capture-bottom": (mover,) + target[1:]}.get(what)
        if what == "ep":
            del cells[self.ep[1]]
            after = (mover,)
        elif what == "sep":
            after = (cells.pop(self.ep[1])[0], mover)
        cells[to] = after
        new.cells, new.side = cells, "b" if self.side == "w" else "w"
        dy = 1 if self.side == "w" else -1
        new.ep = None
        if what == "move" and mover[1] == "P" and abs(to[1] - frm[1]) == 2:
            new.ep = ((frm[0], frm[1] + dy), to)
        return new

    # ---------------------------------------------------------------- moves
    def moves_of(self, frm) -> list[tuple]:
        """The moves of the top piece of ``frm``, legal or not."""
        stack = self.cells[frm]
        side, letter = stack[-1]
        upper = len(stack) > 1
        below = None if not upper else ("own" if stack[-2][0] == side else "enemy")
        found: set[tuple] = set()

        def blocks(cell) -> bool:
            there = self.cells.get(cell, ())
            return len(there) >= 2 if upper else bool(there)

        def reach(cell, quiet: bool, capture: bool) -> None:
            there = self.cells.get(cell, ())
            sides = tuple("own" if s == side else "enemy" for s, _ in there)
            outcomes = []
            if not upper:
                if not sides and quiet:
                    outcomes.append("move")
                if sides == ("enemy",) and capture:
                    outcomes.append("capture")
                if sides in (("own",), ("own", "own")):
                    outcomes.append("climb")
                if sides == ("enemy", "enemy") and capture:
                    outcomes.append("capture-both")
                if sides == ("enemy", "own") and capture:
                    outcomes.append("capture-bottom")
                if sides == ("own", "enemy") and capture and letter == "N":
                    outcomes.append("capture-top")
            else:
                if not sides and quiet:
                    outcomes.append("descend")
                if len(sides) == 1 and quiet:
                    outcomes.append("land")
                if sides == ("own", "enemy") and capture:
                    outcomes.append("capture-top")
                if sides == ("enemy", "enemy") and capture:
                    outcomes.append("capture-both")
                if sides == ("enemy",) and capture and (len(stack) == 3 or (letter == "N" and below == "own"
                                                                            and len(stack) == 2)):
                    outcomes.append("capture")
            if sides == ("enemy",) * 3 and capture:
                outcomes.append("capture-all")
            last = 7 if side == "w" else 0
            promos = "QRBN" if letter == "P" and cell[1] == last else [None]
            for outcome in outcomes:
                for promo in promos:
                    found.add((frm, cell, promo, outcome))

        def inside(cell) -> bool:
            return 0 <= cell[0] < 8 and 0 <= cell[1] < 8

        if letter == "P":
            dy = 1 if side == "w" else -1
            x, y = frm
            one = (x, y + dy)
            if inside(one):
                reach(one, True, False)
                start = 1 if side == "w" else 6
                two = (x, y + 2 * dy)
                if y == start and not blocks(one):
                    reach(two, True, False)
            for dx in (-1, 1):
                diag = (x + dx, y + dy)
                if not inside(diag):
                    continue
                reach(diag, upper, True)
                if self.ep is not None and diag == self.ep[0] and diag not in self.cells:
                    victim = self.cells.get(self.ep[1], ())
                    if len(victim) == 1 and victim[0][0] != side:
                        found.add((frm, diag, None, "sep" if upper else "ep"))
            return list(found)
        steps, slides = PATTERNS[letter]
        for dx, dy in steps:
            cell = (frm[0] + dx, frm[1] + dy)
            while inside(cell):
                reach(cell, True, True)
                if not slides or blocks(cell):
                    break
                cell = (cell[0] + dx, cell[1] + dy)
        return list(found)

    def pseudo_moves(self) -> list[tuple]:
        return [m for frm, stack in self.cells.items() if stack[-1][0] == self.side for m in self.moves_of(frm)]

    def king_removable(self, side: str) -> bool:
        """Could a piece of the other side remove ``side``'s king, wherever it stands in its stack?"""
        kings = {cell for cell, stack in self.cells.items() if (side, "K") in stack}
        for frm, stack in self.cells.items():
            if stack[-1][0] == side:
                continue
            for _, to, _, what in self.moves_of(frm):
                if to not in kings:
                    continue
                pieces = self.cells[to]
                removed = {"capture": pieces[-1:], "capture-top": pieces[-1:], "capture-bottom": pieces[:1],
                           "capture-both": pieces, "capture-all": pieces}.get(what, ())
                if (side, "K") in removed:
                    return True
        return False

    def legal_moves(self) -> list[tuple]:
        return [m for m in self.pseudo_moves() if not self.play(m).king_removable(self.side)]


def count(board: Board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(count(board.play(m), depth - 1) for m in moves)


def described(pos, move) -> tuple:
    """An engine move as the generator writes it."""
    game = pos.game
    frm, to, promo, special = move
    coords = game.board.coords
    letter = game.kinds[game.code_kind[promo]].letter if promo else None
    what = special[1] if special[0] == "st" else special[0]
    return (tuple(coords[frm]), tuple(coords[to]), letter, what)


@pytest.fixture(scope="module")
def game():
    return load_game("towers")


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Positions with towers of both sides, a king inside a tower, a piece on a tower facing lone
# enemies, and pairs of every kind (no castling rights: see the module's docstring).
POSITIONS = {
    "towers": "r1bqk2r/ppp(ppb)1ppp/2n2n2/4p3/3(PPN)4/2N5/PPP2PPP/R2QKB1R w - - 0 1",
    "king-in-tower": "4k3/8/3(nnq)4/8/8/2(bbr)5/4(PKN)3/8 w - - 0 1",
    "tower-top-captures": "4k3/1p4p1/8/3(BNQ)4/8/1n3(pp)2/8/4K3 w - - 0 1",
    "pairs": "4k3/8/2(pn)2(Pb)2/8/3(PP)(pB)3/8/4(RN)3/4K3 b - - 0 1",
}


def test_the_start_counts_agree_at_depths_1_and_2(game):
    board = Board(START)
    pos = start_position(game)
    assert [perft(pos, d) for d in (1, 2)] == [count(board, d) for d in (1, 2)]


@pytest.mark.slow
def test_the_start_counts_agree_at_depth_3(game):
    """(The engine's counts are also in tests/perft/towers.txt, which tests/test_perft.py checks in
    the default run.)"""
    assert perft(start_position(game), 3) == count(Board(START), 3)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_position_counts_agree_at_depths_1_and_2(game, name):
    fen = POSITIONS[name]
    pos = position_from_fen(game, fen)
    assert to_fen(pos).split()[0] == fen.split()[0]
    board = Board(fen)
    assert sorted(described(pos, m) for m in pos.legal_moves()) == sorted(board.legal_moves())
    assert perft(pos, 2) == count(board, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_position_counts_agree_at_depth_3(game, name):
    pos = position_from_fen(game, POSITIONS[name])
    assert perft(pos, 3) == count(Board(POSITIONS[name]), 3)


def test_legal_moves_agree_along_random_games(game):
    """Random games from the start without castling rights, where towers are built and taken: the
    legal moves agree at every position, and the FEN written reads back the same board."""
    rng = random.Random(15)
    positions = towers = 0
    for _ in range(6):
        fen = START.replace("KQkq", "-")
        pos, board = position_from_fen(game, fen), Board(fen)
        for _ in range(50):
            engine = sorted(described(pos, m) for m in pos.legal_moves())
            assert engine == sorted(board.legal_moves()), to_fen(pos)
            positions += 1
            towers += any(len(s) == 3 for s in board.cells.values())
            if not engine:
                break
            # Prefer the moves that build or take stacks, so that towers appear often.
            stacking = [m for m in pos.legal_moves() if m[3] is not None and m[3][0] == "st"
                        and m[3][1] not in ("move", "capture", "descend")]
            move = rng.choice(stacking if stacking and rng.random() < 0.6 else pos.legal_moves())
            board = board.play(described(pos, move))
            pos.push(move)
            assert Board(to_fen(pos)).cells == board.cells
    assert positions > 150 and towers > 20


@pytest.mark.parametrize("line, message", [
    ("on ground own/own/own: climb", "nothing may climb or land on a full stack (height 3)"),
    ("on ground enemy/enemy/enemy/enemy: capture-all", "a stack of 4 pieces is higher than the game's stacks"),
    ("on ground enemy/enemy/enemy: capture-both", "capture-both takes the two pieces of a stack of two"),
    ("on upper enemy single: capture, if height == \"tall\"", "an interaction's condition is"),
])
def test_interactions_that_cannot_run_are_refused_where_they_are(tmp_path, line, message):
    text = f'variant t {{ title "T" }}\nextends towers\nstacking {{\n  height 3\n  {line}\n}}\n'
    path = tmp_path / "t.rules"
    path.write_text(text)
    with pytest.raises(RulesError) as err:
        compile_variant(load_spec_text(text, str(path)))
    assert message in str(err.value)
    assert err.value.loc is not None and err.value.loc.line == 5


def test_a_stack_higher_than_the_game_allows_is_refused_in_a_fen(game):
    with pytest.raises(PositionError) as err:
        position_from_fen(game, "4k3/8/3(nnqb)4/8/8/8/4K3/8 w - - 0 1")
    assert "2 to 3 piece symbols" in str(err.value) and err.value.loc.column == 8
