"""McCooey's hexagonal chess: hand-checked pawn rules, and a differential test against an independent generator.

``tests/oracles/mccooey_reference.py`` was written from the rules in words and the decisions that
``variants/mccooey.rules`` records as interpretations, alone, in plain Python with its own board
encoding (cube coordinates); it imports nothing of the interpreter. The two must agree on perft
from the start, and on the set of legal moves (and the placement written in FEN) at every ply of
seeded random games, in which captures, promotions and pawn moves are favoured so that the pawns'
rules (double steps, diagonal captures, en passant, promotion) are reached. Moves are compared in
the reference's notation: from-cell, to-cell and a promotion letter (``c7c8Q``).
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.outcome import outcome
from interpreter.engine.perft import perft
from interpreter.engine.position import Position
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from tests.oracles import mccooey_reference as ref
from tests.reference_moves import written

GAMES, PLIES = 40, 100


@pytest.fixture(scope="module")
def game():
    return load_game("mccooey")


def fen_with(game, pieces: dict[str, str], turn: str = "w") -> str:
    """A FEN of the board with the given pieces (cell -> symbol)."""
    pos = Position(game)
    for cell, symbol in pieces.items():
        pos.place(game.board.index[cell], game.symbol_code[symbol])
    pos.rehash()
    return to_fen(pos).replace(" w ", f" {turn} ")


def targets(game, fen: str, cell: str) -> list[str]:
    pos = position_from_fen(game, fen)
    return sorted(written(pos, m)[len(cell):] for m in pos.legal_moves() if game.board.names[m[0]] == cell)


def test_the_array(game):
    assert to_fen(start_position(game)).split()[0] == "b/qbk/rnbnr/ppppppp/9/11/11/5P5/4PBP4/3PNBNP3/2PRQBKRP2"


def test_pawns_capture_diagonally_and_double_step_off_the_middle_file(game):
    # e3 steps to e4, doubles to e5, and takes through the corners ahead: d4 and f5 (not the edge
    # neighbours d3 and f4, which Glinski's pawn would take).
    fen = fen_with(game, {"e3": "P", "d4": "n", "f5": "p", "d3": "p", "f4": "b", "g1": "K", "g10": "k"})
    assert targets(game, fen, "e3") == ["d4", "e4", "e5", "f5"]
    # The middle file's pawn steps once only, even from its starting cell.
    fen = fen_with(game, {"f4": "P", "g1": "K", "g10": "k"})
    assert targets(game, fen, "f4") == ["f5"]
    assert targets(game, fen_with(game, {"f8": "p", "g1": "K", "g10": "k"}, "b"), "f8") == ["f7"]
    # Black's pawn on c8 doubles to c6 and takes through the corners below: b6 and d7 (not the edge
    # neighbours b7 and d8).
    fen = fen_with(game, {"c8": "p", "b6": "R", "d7": "N", "b7": "B", "d8": "N", "g1": "K", "g10": "k"}, "b")
    assert targets(game, fen, "c8") == ["b6", "c6", "c7", "d7"]


def test_en_passant_on_the_passed_cell(game):
    pos = position_from_fen(game, fen_with(game, {"c1": "P", "d4": "p", "g1": "K", "g10": "k"}))
    pos.push(next(m for m in pos.legal_moves() if written(pos, m) == "c1c3"))
    # d4 takes through the corner below it on c2, the cell the pawn passed; the pawn on c3 goes.
    take = next(m for m in pos.legal_moves() if written(pos, m) == "d4c2")
    pos.push(take)
    assert to_fen(pos).split()[0] == fen_with(game, {"c2": "p", "g1": "K", "g10": "k"}).split()[0]


def test_promotion_on_the_last_cell_of_a_file_by_a_capture(game):
    fen = fen_with(game, {"d7": "P", "c8": "r", "d8": "n", "g1": "K", "g10": "k"})
    assert targets(game, fen, "d7") == ["c8B", "c8N", "c8Q", "c8R"]


def test_stalemate_is_a_draw(game):
    pos = position_from_fen(game, fen_with(game, {"f11": "k", "d8": "K", "g8": "Q"}, "b"))
    legal = pos.legal_moves()
    assert not legal and not pos.in_check()
    end = outcome(pos, legal)
    assert end is not None and end.rule == "stalemate" and end.result == "draw"


# Pawns of both sides on their starting cells, and enemy pawns beside the cells that their double steps
# pass: every double step of c1, d2, g3, i1, c8, d8, h8 and i8 may be taken en passant.
PASSING = {"g1": "K", "d1": "R", "e2": "N", "c1": "P", "d2": "P", "e3": "P", "g3": "P", "h2": "P", "i1": "P",
           "b5": "P", "e6": "P", "g6": "P", "k5": "P",
           "g10": "k", "h9": "r", "g9": "n", "c8": "p", "d8": "p", "e8": "p", "g8": "p", "h8": "p", "i8": "p",
           "b3": "p", "c4": "p", "h5": "p", "k3": "p"}


def play_games(game, games: int, plies: int, pieces: dict[str, str] | None = None) -> dict[str, int]:
    """Play the games from the start (or from ``pieces``, White to move), comparing move sets and placements at
    every ply; what was compared and met."""
    seen = {"positions": 0, "moves": 0, "captures": 0, "en_passant": 0, "en_passant_offered": 0, "promotions": 0, "checks": 0, "ends": 0}
    for seed in range(games):
        rng = random.Random(f"mccooey-{seed}" if pieces is None else f"mccooey-passing-{seed}")
        if pieces is None:
            pos, state = start_position(game), ref.start()
        else:
            pos, state = position_from_fen(game, fen_with(game, pieces)), ref.position(pieces)
        path: list[str] = []
        for _ in range(plies):
            legal = pos.legal_moves()
            ours = {written(pos, m): m for m in legal}
            theirs = {ref.written(m): m for m in ref.legal_moves(state)}
            where = f"seed {seed}: {to_fen(pos)}\n  after {' '.join(path) or '-'}"
            assert set(ours) == set(theirs), (
                f"{where}\n  only the engine: {sorted(set(ours) - set(theirs))}\n"
                f"  only the reference: {sorted(set(theirs) - set(ours))}")
            assert to_fen(pos).rsplit(" ", 4)[0] == ref.fen(state), where
            assert pos.in_check() == ref.in_check(state), where
            seen["positions"] += 1
            seen["moves"] += len(ours)
            seen["checks"] += pos.in_check()
            if outcome(pos, legal) is not None:
                seen["ends"] += 1
                break
            # Captures (en passant included) and promotions, as the reference sees them.
            special = sorted(k for k, m in theirs.items() if m[2] or m[3] is not None or m[1] in state["board"])
            pawn = sorted(k for k, m in theirs.items() if state["board"][m[0]][1] == "P")
            passing = sorted(k for k, m in theirs.items() if m[3] is not None)
            seen["en_passant_offered"] += bool(passing)
            roll = rng.random()
            key = rng.choice(passing if passing and roll < 0.5 else special if special and roll < 0.5
                             else pawn if pawn and roll < 0.8 else sorted(ours))
            move = theirs[key]
            seen["captures"] += move[1] in state["board"] or move[3] is not None
            seen["en_passant"] += move[3] is not None
            seen["promotions"] += bool(move[2])
            pos.push(ours[key])
            state = ref.play(state, move)
            path.append(key)
    return seen


def test_perft_from_the_start_agrees_with_the_reference(game):
    pos, state = start_position(game), ref.start()
    for depth in (1, 2, 3):
        assert perft(pos, depth) == ref.perft(state, depth)


def test_legal_moves_agree_with_the_reference_along_random_games(game):
    seen = play_games(game, GAMES, PLIES)
    assert (seen["positions"] > 1000 and seen["captures"] > 100 and seen["promotions"] > 0
            and seen["en_passant"] > 0), seen


def test_en_passant_agrees_with_the_reference_along_random_games(game):
    seen = play_games(game, 20, 40, PASSING)
    assert seen["positions"] > 300 and seen["en_passant"] > 10, seen


def test_the_reference_starts_as_the_variant(game):
    assert to_fen(start_position(game)).rsplit(" ", 4)[0] == ref.fen(ref.start())


def test_the_rule_page_says_one_cell_steps_on_hexagons_in_words():
    from dsl import load_spec
    from interpreter.documentation.english import English
    spec = load_spec("mccooey")
    english = English(spec)
    pawn = {m.pattern.offsets[0]: english.render(m.pattern) for m in spec.pieces["Pawn"].moves
            if m.pattern.kind == "leap"}
    assert pawn == {(1, 3): "steps one cell through a corner (diagonally), forward and to the right or forward "
                            "and to the left"}
    knight = english.render(spec.pieces["Knight"].moves[0].pattern)
    assert knight.startswith("leaps by the offsets (1, 5)") and "(files to the right, half-cells forward)" in knight
    glinski = load_spec("glinski")
    capture = next(m.pattern for m in glinski.pieces["Pawn"].moves if m.pattern.kind == "leap")
    assert English(glinski).render(capture) == ("steps one cell through an edge, forward and to the right or "
                                                "forward and to the left")
