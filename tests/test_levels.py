"""Boards of levels: ``grid F x R x L`` (three dimensions) with the library ``space``.

A small variant is built from text: its cells and their names, the 26
directions of ``include space`` and what pieces written with them reach,
the frame of an army facing ``s`` (levels reversed too), FEN with ``//``
between levels, move notation, the drawing, and the located errors of
boards and patterns that cannot be.
"""

from __future__ import annotations

import pytest

from dsl import RulesError, RulesSemanticError, load_spec_text
from dsl import limits as L
from interpreter.cli.play import render_text
from interpreter.compiler.layout import LEVEL_LETTERS
from interpreter.drawing.render import render_position
from interpreter.loading import compile_variant, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import from_to_text, move_to_san
from dsl.errors import PositionError

SPACE = """
variant cube { title "Cube" }
board {
  grid 5 x 5 x 5
  zone promotion { white: where level == 5 and rank == 5  black: where level == 1 and rank == 1 }
}
include space
armies {
  army white "White" { letters upper }
  army black "Black" { letters lower  forward s }
}
piece King { letter K value 0 royal move step all }
piece Rook { letter R value 5 move ride orth }
piece Bishop { letter B value 3 move ride diag }
piece Unicorn { letter U value 3 move ride tri }
piece Knight { letter N value 3 move leap (2, 1, 0) all }
piece Pawn {
  letter P
  value 1
  move leap (0, 1, 0), (0, 0, 1): quiet
  move leap (1, 1, 0), (-1, 1, 0), (1, 0, 1), (-1, 0, 1), (0, 1, 1): capture
  promotes in zone promotion to Rook
}
rules {
  forbid self-check
  end mate when in_check and legal_moves == 0: loss
}
setup {
  white King at Aa1
  black King at Ee5
}
"""


def game_of(text: str, tmp_path):
    path = tmp_path / "cube.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


@pytest.fixture(scope="module")
def cube(tmp_path_factory):
    return game_of(SPACE, tmp_path_factory.mktemp("cube"))


def targets(game, fen: str, origin: str) -> list[str]:
    pos = position_from_fen(game, fen)
    cell = game.board.index[origin]
    return sorted(game.board.names[m[1]] for m in pos.legal_moves() if m[0] == cell)


def test_cells_are_named_level_file_rank(cube):
    board = cube.board
    assert len(board) == 125 and board.levels == 5
    assert board.names[:2] == ["Aa1", "Ab1"] and board.names[-1] == "Ee5"
    assert board.attributes[board.index["Cb4"]] == {"file": 2, "rank": 4, "level": 3, "colour": "dark"}
    assert board.attributes[board.index["Aa1"]]["colour"] == "dark"
    assert board.attributes[board.index["Ba1"]]["colour"] == "light"
    assert sorted(map(len, (board.families["orth"], board.families["diag"], board.families["tri"]))) == [6, 8, 12]
    assert sorted(board.names[c] for c in cube.board.zones["promotion"]["white"]) == ["Ea5", "Eb5", "Ec5", "Ed5", "Ee5"]


def fen_of(game, pieces: dict[str, str], turn: str = "w") -> str:
    """The FEN of ``pieces`` (cell name -> symbol) on the board of ``game``, ``turn`` to move."""
    names, board = game.board.names, game.board
    levels = []
    for z in range(board.levels):
        rows = []
        for cells in board.rows[z * board.ranks:(z + 1) * board.ranks]:
            row, empty = "", 0
            for cell in cells:
                if names[cell] in pieces:
                    row += (str(empty) if empty else "") + pieces[names[cell]]
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        levels.append("/".join(rows))
    return "//".join(levels) + f" {turn} - - 0 1"


@pytest.mark.parametrize("piece, centre, corner", [("R", 12, 12), ("B", 24, 12), ("U", 16, 4), ("N", 24, 6), ("K", 25, 7)])
def test_the_pieces_of_three_dimensions_reach_their_cells(cube, piece, centre, corner):
    """From the centre Cc3 and from the corner Aa1 of an empty cube, the kings on no line of theirs (a
    king on Cc3 has 26 neighbours, of which Dd4 touches the black king on Ee5)."""
    kings = {"Ed5": "k", "Be5": "K"} if piece != "K" else {"Ee5": "k"}
    assert len(targets(cube, fen_of(cube, {**kings, "Cc3": piece}), "Cc3")) == centre
    assert len(targets(cube, fen_of(cube, {**kings, "Aa1": piece}), "Aa1")) == corner


def test_black_sees_every_step_reversed_levels_too(cube):
    black = fen_of(cube, {"Ee5": "k", "Aa1": "K", "Cc3": "p", "Bb3": "P", "Bc2": "P", "Cd2": "P", "Bc3": "N"}, "b")
    assert targets(cube, black, "Cc3") == ["Bb3", "Bc2", "Cc2", "Cd2"]   # back (down is blocked), or a capture
    white = fen_of(cube, {"Ee5": "k", "Aa1": "K", "Bc3": "P", "Cc4": "p", "Bd4": "p", "Cc3": "n"})
    assert targets(cube, white, "Bc3") == ["Bc4", "Bd4", "Cc4"]


def test_fen_writes_levels_from_the_top_separated_by_two_slashes(cube):
    pos = start_position(cube)
    fen = to_fen(pos)
    assert fen == "4k/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/K4 w - - 0 1"
    assert to_fen(position_from_fen(cube, fen)) == fen


@pytest.mark.parametrize("fen, message", [
    ("4k/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5/5/5/5/5/K4 w - - 0 1", "the placement has 4 levels, the board has 5"),
    ("4k/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/K4 w - - 0 1", "level E of the placement has 4 ranks"),
    ("4k/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/6/K4 w - - 0 1", "rank 2 describes 6 cells"),
])
def test_bad_fens_of_levels_are_located(cube, fen, message):
    with pytest.raises(PositionError) as err:
        position_from_fen(cube, fen)
    assert message in err.value.message and err.value.loc is not None


def test_moves_are_written_with_the_cells_names(cube):
    pos = position_from_fen(cube, fen_of(cube, {"Ee5": "k", "Aa1": "K", "Bc3": "P", "Cb3": "p"}))
    legal = pos.legal_moves()
    sans = {move_to_san(pos, m) for m in legal}
    assert {"Bc4", "Cc3", "BcxCb3", "KAb2"} <= sans
    for move in legal:
        assert parse_move(pos, move_to_san(pos, move)) == move
        assert parse_move(pos, from_to_text(pos, move, legal)) == move


def test_the_drawing_and_the_text_board_show_the_levels_side_by_side(cube):
    pos = start_position(cube)
    svg = render_position(pos)
    assert ">Aa<" in svg and ">Ee<" in svg
    text = render_text(pos)
    assert "K" in text and "k" in text


def test_a_box_of_cells_spans_levels(tmp_path):
    game = game_of(SPACE.replace("include space", "include space\nboard { zone box: Aa1..Bb2 }"), tmp_path)
    assert sorted(game.board.names[c] for c in game.board.zones["box"][None]) == [
        "Aa1", "Aa2", "Ab1", "Ab2", "Ba1", "Ba2", "Bb1", "Bb2"]


def test_the_level_limit_is_the_alphabet():
    assert L.LEVELS.value == len(LEVEL_LETTERS)


BAD = [  # (text replaced, its replacement, the message, the limit, what the error's line holds)
    ("grid 5 x 5 x 5", "grid 5 x 5 x 0", "a grid of 5 x 5 x 0 cells is not allowed", None, "grid"),
    ("grid 5 x 5 x 5", "grid 5 x 5 x 27", "this grid has 27 levels", "levels", "grid"),
    ("grid 5 x 5 x 5", "grid 20 x 20 x 20", "this grid has 8,000 cells", "cells", "grid"),
    ("white King at Aa1", "white King at Fa1", "unknown cell 'Fa1'", None, "Fa1"),
    ("move ride tri", 'betza "B"', "Betza notation describes moves on a flat board", None, "betza"),
    ("letters upper }", "letters upper  forward e }", "an army's forward is along the ranks, not 'e'", None, "forward e"),
    ("leap (2, 1, 0) all", "leap (5, 1, 0) all", "moves 5 files, on a board 5 files wide", None, "(5, 1, 0)"),
    ("leap (2, 1, 0) all", "leap (2, 1.5, 0) all", "a step (files, ranks, levels) is three whole numbers", None, "1.5"),
    ("grid 5 x 5 x 5\n", "grid 5 x 5 x 5\n  cell z9 at (6, 6)\n", "the cell 'z9' is declared on a board of levels",
     None, "z9"),
    ("grid 5 x 5 x 5\n", "grid 5 x 5 x 5\n  wrap files\n", "only a flat grid board can wrap", None, "wrap"),
]


@pytest.mark.parametrize("old, new, message, limit, marker", BAD)
def test_bad_boards_of_levels_are_located_errors(tmp_path, old, new, message, limit, marker):
    text = SPACE.replace(old, new, 1)
    assert text != SPACE
    with pytest.raises(RulesError) as err:
        game_of(text, tmp_path)
    assert message in err.value.message, err.value.message
    line = next(i for i, holds in enumerate(text.splitlines(), 1) if marker in holds)
    assert err.value.loc is not None and err.value.loc.line == line
    assert getattr(err.value, "limit", None) == limit


def test_a_level_step_on_a_flat_board_is_a_located_error(tmp_path):
    text = SPACE.replace("grid 5 x 5 x 5", "grid 5 x 5").replace("include space\n", "").replace(
        "move step all", "move leap (0, 0, 1)").replace("where level == 5 and rank == 5", "rank 5").replace(
        "where level == 1 and rank == 1", "rank 1")
    with pytest.raises(RulesSemanticError) as err:
        game_of(text, tmp_path)
    assert "moves between levels, and this board is flat" in err.value.message
    assert "grid 5 x 5 x 5" in err.value.hint


def test_a_third_number_where_a_point_is_wanted_is_a_syntax_error(tmp_path):
    text = SPACE.replace("grid 5 x 5 x 5\n", "grid 5 x 5 x 5\n  shape on Aa1: (0, 0, 0), (1, 0), (0, 1)\n")
    with pytest.raises(RulesError) as err:
        game_of(text, tmp_path)
    assert err.value.loc is not None and err.value.loc.line == 5
