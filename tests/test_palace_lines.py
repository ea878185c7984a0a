"""The move option ``within``: lines confined to a set of cells (Janggi's palace diagonals)."""

from __future__ import annotations

import pytest

from dsl import RulesError, load_spec_text
from interpreter.loading import compile_variant, position_from_fen
from interpreter.notation.san import move_to_uci

BASE = """
variant lines { title "Lines" }
board {
  grid 9 x 10
  zone palace { white: d1..f3  black: d8..f10 }
  zone palace_lines: d1, f1, e2, d3, f3, d8, f8, e9, d10, f10
}
armies {
  army white "White" { letters upper  forward n }
  army black "Black" { letters lower  forward s }
  turn white, black
}
piece King { letter K royal betza "W": to zone palace }
piece Chariot { letter R betza "R" betza "B": within zone palace_lines }
piece Cannon { letter C betza "pR" betza "pB": within zone palace_lines }
piece Soldier { letter P betza "fsW" betza "fF": within zone palace_lines }
piece Guard { letter A betza "W": to zone palace  betza "F": within zone palace_lines }
rules { forbid self-check  end mate when legal_moves == 0: loss }
setup fen "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
"""


def _targets(fen: str, cell: str) -> set[str]:
    game = compile_variant(load_spec_text(BASE, "<lines>"))
    pos = position_from_fen(game, fen)
    legal = pos.legal_moves()
    return {move_to_uci(pos, m, legal)[2:] for m in legal if move_to_uci(pos, m, legal).startswith(cell)}


def test_a_chariot_rides_the_palace_diagonal_and_stops_at_its_end():
    # d3 -> e2 -> f1 along the line; d3 -> c4 leaves the palace lines, so no diagonal there.
    moves = _targets("4k4/9/9/9/9/9/9/3R5/9/3K5 w - - 0 1", "d3")
    assert "c4" not in moves and "c2" not in moves and {"e2", "f1"} <= moves


def test_a_piece_on_the_centre_blocks_the_line():
    assert "f1" not in _targets("4k4/9/9/9/9/9/9/3R5/4P4/3K5 w - - 0 1", "d3")


def test_off_the_lines_a_diagonal_move_does_not_exist():
    # e3 is in the palace but on no diagonal line: the guard and the chariot have no diagonal move.
    assert _targets("4k4/9/9/9/9/9/9/4A4/9/3K5 w - - 0 1", "e3") == {"e2", "d3", "f3"}


def test_a_cannon_jumps_along_the_line_and_a_soldier_steps_forward_on_it():
    assert "f1" in _targets("4k4/9/9/9/9/9/9/3C5/4P4/3K5 w - - 0 1", "d3")
    assert _targets("4k4/9/3P5/9/9/9/9/9/9/3K5 w - - 0 1", "d8") == {"d9", "c8", "e8", "e9"}
    assert _targets("9/4P4/5k3/9/9/9/9/9/9/4K4 w - - 0 1", "e9") == {"e10", "d9", "f9", "d10", "f10"}


def test_within_names_cells_that_must_exist():
    with pytest.raises(RulesError):
        compile_variant(load_spec_text(BASE.replace("within zone palace_lines", "within zone nowhere", 1), "<lines>"))
