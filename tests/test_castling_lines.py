"""Castling along a file: ``king to rank R, rook to rank S, side n|s`` (the side armies of
four-player chess), with the FIDE conditions along the king's file, castling rights as cells in
FEN, the rule page's words, and the located errors of rules that cannot be."""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.documentation.english import English
from interpreter.loading import compile_variant, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san

SIDEWAYS = """
variant sideways { title "Sideways" }
include orthodox
board {
  grid 8 x 8
  zone promotion { white: file h  black: file a }
  zone pawn_start { white: file b  black: file g }
}
armies {
  army white { letters upper  forward e }
  army black { letters lower  forward w }
}
castling {
  king King, rook Rook
  castle north "O-O": king to rank 6, rook to rank 5, side n
  castle south "O-O-O": king to rank 2, rook to rank 3, side s
}
setup {
  white King at a4
  white Rook at a1, a8
  black King at h4
  black Rook at h1, h8
}
"""


def game_of(text: str, tmp_path):
    path = tmp_path / "sideways.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


def castles(pos) -> dict[str, tuple[str, str, str]]:
    """SAN of each castling move -> (king's destination, rook's origin, rook's destination)."""
    names = pos.game.board.names
    return {move_to_san(pos, m): (names[m[1]], names[m[3][1]], names[m[3][2]])
            for m in pos.legal_moves() if m[3] is not None and m[3][0] == "castle"}


def test_castling_along_the_kings_file(tmp_path):
    game = game_of(SIDEWAYS, tmp_path)
    pos = start_position(game)
    assert castles(pos) == {"O-O": ("a6", "a8", "a5"), "O-O-O": ("a2", "a1", "a3")}
    pos.push(parse_move(pos, "O-O"))
    board, names = pos.board, game.board.names
    placed = {names[c]: game.code_symbol[board[c]] for c in range(len(board)) if board[c]}
    assert placed["a6"] == "K" and placed["a5"] == "R" and "a4" not in placed and "a8" not in placed
    # Black's king would pass h5, which the rook on a5 now attacks: only the other way.
    assert castles(pos) == {"O-O-O": ("h2", "h1", "h3")}


def test_the_fide_conditions_hold_along_the_file(tmp_path):
    game = game_of(SIDEWAYS, tmp_path)
    # A piece between king and rook (a7), a passed cell attacked (the rook on h3 sees a3 along rank 3),
    # a king in check (the rook on h4): each takes away what it must.
    assert set(castles(position_from_fen(game, "R7/N6k/8/8/K7/8/8/R7 w a1,a4,a8 - 0 1"))) == {"O-O-O"}
    assert set(castles(position_from_fen(game, "R7/7k/8/8/K7/7r/8/R7 w a1,a4,a8 - 0 1"))) == {"O-O"}
    assert castles(position_from_fen(game, "R7/7k/8/8/K6r/8/8/R7 w a1,a4,a8 - 0 1")) == {}


def test_castling_rights_along_a_file_are_cells_in_fen(tmp_path):
    game = game_of(SIDEWAYS, tmp_path)
    fen = to_fen(start_position(game))
    assert fen.split()[2] == "a1,h1,a4,h4,a8,h8"
    assert to_fen(position_from_fen(game, fen)) == fen
    without = position_from_fen(game, fen.replace("a1,h1,a4,h4,a8,h8", "h1,h4,h8"))
    assert castles(without) == {}


def test_the_rule_page_says_rank_and_file(tmp_path):
    game = game_of(SIDEWAYS, tmp_path)
    text = English(game.spec).render(game.spec.castling.rules[0])
    assert "the king moves to rank 6" in text and "the rook to rank 5" in text
    assert "towards higher ranks), on its file" in text


@pytest.mark.parametrize("rule, message", [
    ("king to rank 6, rook to file f", "along a rank or along a file, not both"),
    ("king to rank 9, rook to rank 5", "no rank 9"),
    ("king to rank 6, rook to rank 5, side e", "unknown side along a file 'e'"),
    ("king to rank 6", "needs 'king to rank' and 'rook to rank'"),
])
def test_bad_file_castling_is_a_located_error(tmp_path, rule, message):
    text = SIDEWAYS.replace("king to rank 6, rook to rank 5, side n", rule)
    with pytest.raises(RulesSemanticError) as err:
        game_of(text, tmp_path)
    assert message in err.value.render() and err.value.loc.line == 15
