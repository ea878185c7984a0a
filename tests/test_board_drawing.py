"""The board's ``draw`` statements: how a board looks (points, plain, a river, palace diagonals).

They change only the picture, so they are checked on the compiled :class:`BoardDrawing` and the SVG:
xiangqi's board is nine by ten points with a river and two palaces, errors point at the statement,
text from the file is escaped, and inheritance follows the board's rules.
"""

from __future__ import annotations

import re

import pytest

from dsl import RulesSemanticError, load_spec, load_spec_text
from dsl.files import bundled_variant
from interpreter.drawing.render import render_position
from interpreter.loading import compile_variant, start_position

MINI = """
variant mini { title "Mini" }
board {
  grid 4 x 4
  zone palace { white: a1..b2  black: c3..d4 }
  DRAW
}
armies {
  army white { letters upper }
  army black { letters lower  forward s }
}
piece King { letter K  royal  betza "K" }
setup fen "3k/4/4/K3 w - - 0 1"
"""


def game_of(draw: str, extra: str = ""):
    return compile_variant(load_spec_text(MINI.replace("DRAW", draw) + extra, "mini.rules"))


def svg_of(game) -> str:
    return render_position(start_position(game))


def bundled(name: str):
    return compile_variant(load_spec(bundled_variant(name)))


def test_xiangqi_is_drawn_on_points_with_a_river_and_palaces():
    game = bundled("xiangqi")
    drawing = game.board.drawing
    assert drawing.points and drawing.river == (5, drawing.river[1]) and len(drawing.diagonals) == 4
    svg = svg_of(game)
    lines = re.findall(r'<line class="grid-line"', svg)
    # 9 files x 9 steps up, minus the 7 inner ones across the river; 10 ranks x 8 steps across.
    assert len(lines) == 9 * 9 - 7 + 10 * 8
    assert svg.count('class="diagonal"') == 4
    assert 'class="river"' in svg and 'class="river-text"' in svg
    assert svg.count('fill-opacity="0" stroke="none"') == 90        # every point a transparent cell
    assert 'class="wood"' in svg


@pytest.mark.parametrize("name", ["janggi", "minixiangqi", "manchu"])
def test_the_xiangqi_family_is_drawn_on_points(name):
    svg = svg_of(bundled(name))
    assert 'class="grid-line"' in svg and svg.count('class="diagonal"') == 4


@pytest.mark.parametrize("name", ["shogi", "minishogi", "torishogi", "dobutsu"])
def test_the_shogi_family_is_plain(name):
    game = bundled(name)
    assert game.board.drawing.plain and not game.board.drawing.points
    fills = set(re.findall(r'<polygon class="cell[^"]*"[^>]* fill="([^"]+)"', svg_of(game)))
    assert len(fills) == 1


def test_a_river_on_squares_is_an_edge_and_its_text_is_escaped():
    svg = svg_of(game_of('draw river between ranks 2 and 3 "<script>&"'))
    assert svg.count('class="river-edge"') == 4
    assert "<script>" not in svg and "&lt;script&gt;&amp;" in svg


def test_diagonals_of_a_per_army_zone_are_drawn_in_every_palace():
    assert len(game_of("draw diagonals on zone palace").board.drawing.diagonals) == 4


@pytest.mark.parametrize("draw, message, column", [
    ("draw river between ranks 2 and 4", "neighbouring ranks", 34),
    ("draw river between ranks 4 and 5", "no rank 5", 3),
    ("draw diagonals on a1..b2, c2", "rectangular blocks", 21),
    ("draw diagonals on a1..a4", "rectangular blocks", 21),
    ("draw diagonals on rank 1 except rank 1", "no cells", 21),
])
def test_errors_point_at_the_statement(draw, message, column):
    with pytest.raises(RulesSemanticError) as caught:
        game_of(draw)
    assert message in str(caught.value)
    assert caught.value.loc.line == 6 and caught.value.loc.column == column   # MINI starts with a newline


def test_inheritance_a_new_board_starts_without_drawing_and_forget_drops_it(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(MINI.replace("DRAW", "draw on points\n  draw plain"))
    kept = load_spec_text(f'variant k {{ title "K" }}\nextends "{base}"\nboard {{ draw river between ranks 1 and 2 }}\n',
                          str(tmp_path / "k.rules"))
    assert kept.board.drawing.points and kept.board.drawing.river.below == 1
    fresh_text = f'variant f {{ title "F" }}\nextends "{base}"\nboard {{ grid 4 x 4 }}\n'
    (tmp_path / "f.rules").write_text(fresh_text)
    fresh = load_spec_text(fresh_text, str(tmp_path / "f.rules"))
    assert not fresh.board.drawing.points
    forgot = load_spec_text(f'variant g {{ title "G" }}\nextends "{base}"\nforget drawing\n', str(tmp_path / "g.rules"))
    assert not forgot.board.drawing.points and not forgot.board.drawing.plain
    with pytest.raises(RulesSemanticError, match="cannot forget drawing"):
        load_spec_text(f'variant h {{ title "H" }}\nextends "{tmp_path / "f.rules"}"\nforget drawing\n',
                       str(tmp_path / "h.rules"))


def test_xiangqi_pieces_are_drawn_by_their_glyphs_per_army():
    svg = svg_of(bundled("xiangqi"))
    assert ">俥</text>" in svg and ">車</text>" in svg and ">帥</text>" in svg and ">將</text>" in svg


@pytest.mark.parametrize("glyph, message", [
    ('glyph ""', "one to three visible characters"),
    ('glyph "成銀龍王"', "one to three visible characters"),
    ('glyph "a b"', "one to three visible characters"),
    ('glyph { red: "車" }', "army 'red'"),
])
def test_bad_glyphs_are_errors_at_the_glyph(glyph, message):
    with pytest.raises(RulesSemanticError) as caught:
        game_of("", extra=f"piece Rook {{ letter R  {glyph}  betza \"R\" }}\n")
    assert message in str(caught.value) and caught.value.loc.line == 14


def test_a_glyph_is_escaped_in_the_svg():
    game = game_of("", extra='piece King { letter K  royal  glyph "<&>"  betza "K" }\n')
    svg = svg_of(game)
    assert "&lt;&amp;&gt;</text>" in svg and "<&>" not in svg


def test_pieces_facing_forward_turn_gotes_pieces_upside_down():
    svg = svg_of(bundled("shogi"))
    turned = re.findall(r'<g id="piece-(\d)-[^"]*" transform="rotate\(180 50 50\)">', svg)
    assert turned and set(turned) == {"1"}                       # Gote's (forward s), not Sente's
    assert ">歩</text>" in svg and ">飛</text>" in svg
    assert 'transform="rotate(' not in svg_of(game_of(""))       # without the statement: upright
