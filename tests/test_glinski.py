"""Glinski's hexagonal chess: the board, hand-checked moves and the start perft."""

from __future__ import annotations

import pytest

from interpreter.loading import load_game
from interpreter.notation.san import move_to_uci
from interpreter.engine.perft import perft
from interpreter.loading import position_from_fen, start_position


@pytest.fixture(scope="module")
def game():
    return load_game("glinski")


def targets(game, fen: str, cell: str) -> list[str]:
    pos = position_from_fen(game, fen)
    start = game.board.index[cell]
    return sorted(move_to_uci(pos, m)[len(cell):] for m in pos.legal_moves() if m[0] == start)


def test_board_has_91_cells_in_11_files(game):
    board = game.board
    assert len(board) == 91
    lengths = [sum(1 for a in board.attributes if a["file"] == f) for f in range(1, 12)]
    assert lengths == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert "j1" not in board.index and "k1" in board.index and "l6" in board.index and "f11" in board.index


def test_three_colours(game):
    colours = game.board.attributes
    index = game.board.index
    assert len({colours[index[c]]["colour"] for c in ("f1", "f2", "f3")}) == 3
    assert {a["colour"] for a in colours} == {"light", "mid", "dark"}
    assert sorted([a["colour"] for a in colours].count(c) for c in ("light", "mid", "dark")) == [30, 30, 31]


def test_knight_from_the_centre(game):
    fen = _fen_with(game, {"f6": "N", "g1": "K", "g10": "k"})
    assert targets(game, fen, "f6") == sorted(["c4", "c5", "d3", "d7", "e3", "e8", "g3", "g8", "h3", "h7", "i4", "i5"])


def test_bishops_stay_on_their_colour(game):
    for cell in ("f1", "f2", "f3"):
        colour = game.board.attributes[game.board.index[cell]]["colour"]
        # The black king on a cell of another colour, which the bishop cannot attack (the side
        # that moved last may not stand in check).
        king = "l6" if game.board.attributes[game.board.index["l6"]]["colour"] != colour else "k1"
        fen = _fen_with(game, {cell: "B", "a1": "K", king: "k"})
        reached = targets(game, fen, cell)
        assert reached and all(game.board.attributes[game.board.index[c]]["colour"] == colour for c in reached)


def test_pawn_moves_and_captures(game):
    fen = _fen_with(game, {"e4": "P", "d4": "p", "f5": "n", "g1": "K", "g10": "k"})
    assert targets(game, fen, "e4") == ["d4", "e5", "e6", "f5"]
    # Off its starting cell it steps once.
    fen = _fen_with(game, {"e5": "P", "g1": "K", "g10": "k"})
    assert targets(game, fen, "e5") == ["e6"]


def test_pawn_promotes_on_the_far_edge(game):
    fen = _fen_with(game, {"e9": "P", "g1": "K", "g10": "k"})
    assert targets(game, fen, "e9") == ["e10b", "e10n", "e10q", "e10r"]


def test_en_passant(game):
    pos = position_from_fen(game, _fen_with(game, {"e4": "P", "d5": "p", "g1": "K", "g10": "k"}))
    double = next(m for m in pos.legal_moves() if move_to_uci(pos, m) == "e4e6")
    pos.push(double)
    assert "d5e5" in [move_to_uci(pos, m) for m in pos.legal_moves()]


def test_start_perft(game):
    pos = start_position(game)
    assert [perft(pos, d) for d in (1, 2, 3)] == [51, 2586, 137858]


def _fen_with(game, pieces: dict[str, str]) -> str:
    """A FEN of the Glinski board with the given pieces (cell -> symbol), White to move."""
    from interpreter.engine.position import Position
    from interpreter.notation.fen import to_fen
    pos = Position(game)
    for cell, symbol in pieces.items():
        pos.place(game.board.index[cell], game.symbol_code[symbol])
    pos.rehash()
    return to_fen(pos)
