"""Rendering: every bundled variant draws as SVG that a real SVG renderer accepts.

The SVG is parsed with :mod:`xml.etree`, converted to PNG with cairosvg
(a real renderer, built on cairo) and checked to have exactly one cell
shape (``class="cell ..."``) per board cell. The rest checks the parts a
start position does not show: stacks, hands, marks, arrows, and the
command line.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import cairosvg
import pytest

from dsl import bundled_names
from interpreter.cli.main import main
from interpreter.loading import load_game
from interpreter.drawing.render import MARKS, Diagram, PieceImage, diagram_of, render_pieces, render_svg
from interpreter.loading import start_position

SVG = "{http://www.w3.org/2000/svg}"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _cells(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "cell" in e.get("class", "").split()]


@pytest.mark.parametrize("name", bundled_names())
def test_start_position_renders(name):
    game = load_game(name)
    svg = render_svg(game, diagram_of(start_position(game)), title=game.title)
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    cells = _cells(root)
    assert len(cells) == len(game.board)
    assert sorted(c.get("id") for c in cells) == sorted("cell-" + n for n in game.board.names)
    assert [c.get("data-cell") for c in cells] == list(game.board.names)
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    assert png.startswith(PNG_MAGIC)


def test_rendering_is_deterministic():
    game = load_game("chess")
    assert render_svg(game, diagram_of(start_position(game))) == render_svg(game, diagram_of(start_position(game)))


def test_orthodox_pieces_are_drawn_not_lettered():
    game = load_game("chess")
    svg = render_svg(game, diagram_of(start_position(game)))
    for kind in ("king", "queen", "rook", "bishop", "knight", "pawn"):
        assert f'id="piece-0-{kind}"' in svg and f'id="piece-1-{kind}"' in svg
    assert "<text" not in svg.split("<defs>")[1].split("</defs>")[0]


def test_stacks_hands_marks_and_arrows():
    game = load_game("chess")
    b = game.board.index
    rook, pawn, amazon = PieceImage("Rook", "R", 0), PieceImage("Pawn", "P", 1), PieceImage("Amazon", "A", 1)
    diagram = Diagram(
        stacks={b["d4"]: (rook, pawn), b["e5"]: (amazon,)},
        hands={0: [rook, rook], 1: [amazon]},
        highlights=frozenset({b["d4"]}),
        marks={b["a1"]: MARKS[0], b["b1"]: MARKS[1], b["c1"]: MARKS[2], b["d1"]: MARKS[3]},
        arrows=[(b["e2"], b["e4"])],
    )
    svg = render_svg(game, diagram, cell_names=True)
    root = ET.fromstring(svg)
    uses = [e for e in root.iter(SVG + "use")]
    assert len(uses) == 2 + 1 + 2      # a stack of two, one piece, two distinct pieces in hand
    assert len([e for e in root.iter() if e.get("class", "").startswith("mark")]) == 4
    assert len([e for e in root.iter() if e.get("class") == "arrow"]) == 1
    assert len([e for e in root.iter() if e.get("class") == "hand"]) == 2
    assert ">A<" in svg                # a piece without an image of its own: a disc with its letter
    cairosvg.svg2png(bytestring=svg.encode("utf-8"))


def test_render_command(tmp_path, capsys):
    out = tmp_path / "pos.svg"
    assert main(["render", "chess", "--moves", "e4 e5", "--highlight", "e4,e5", "--arrows", "g1f3,d1-h5",
                 "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert len([e for e in root.iter() if e.get("class") == "highlight"]) == 2
    assert len([e for e in root.iter() if e.get("class") == "arrow"]) == 2
    assert main(["render", "chess"]) == 0
    assert capsys.readouterr().out.startswith("<svg")


@pytest.mark.parametrize("args, message", [
    (["--highlight", "e9"], "no cell 'e9'"),
    (["--arrows", "e2"], "cannot read the arrow 'e2'"),
    (["--fen", "8/8"], "ranks"),
])
def test_render_bad_input_exits_2(args, message, capsys):
    assert main(["render", "chess", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_stack_is_drawn_with_both_pieces():
    """In a stacking game the locked piece under the top one is drawn too, in render and docs alike."""
    from interpreter.notation.reading import parse_move
    game = load_game("locking")
    pos = start_position(game)
    pos.push(parse_move(pos, "Qd2*"))                         # the Queen climbs onto its own pawn
    d2 = game.board.index["d2"]
    stack = diagram_of(pos).stacks[d2]
    assert [(p.name, p.army) for p in stack] == [("Pawn", 0), ("Queen", 0)]
    root = ET.fromstring(render_svg(game, diagram_of(pos)))
    [group] = [e for e in root.iter(SVG + "g") if e.get("class") == "stack"]
    assert [u.get("{http://www.w3.org/1999/xlink}href") for u in group.iter(SVG + "use")] == \
        ["#piece-0-pawn", "#piece-0-queen"]


def test_render_command_draws_stacks(tmp_path):
    out = tmp_path / "stack.svg"
    assert main(["render", "locking", "--moves", "Qd2*", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count('class="stack"') == 1


def test_pieces_are_one_size_on_every_cell_and_centred_on_the_cell_axis():
    """Rocket Chess: its four types of cells, of different room, get pieces of one size (at least 0.8
    of the roomiest type's room), and a chevron's piece stands on its axis of symmetry (the vertical
    through its corners' middle), not in one of its arms."""
    from interpreter.drawing.geometry import anchor, piece_radii
    game = load_game("rocket")
    board = game.board
    anchors = [anchor(polygon) for polygon in board.polygons]
    rooms = [radius for _, radius in anchors]
    radii = piece_radii(board, rooms)
    assert {board.attributes[cell]["type"] for cell in range(len(radii))} == {"L", "I", "U", "O"}
    assert len({round(radius, 6) for radius in radii}) == 1 and max(rooms) > min(rooms) * 1.2
    assert radii[0] >= 0.8 * max(rooms) - 1e-9
    for cell, ((x, _), _) in enumerate(anchors):
        xs = [px for px, _ in board.polygons[cell]]
        assert abs(x - (min(xs) + max(xs)) / 2) < 1e-6, board.names[cell]


@pytest.mark.parametrize("name", ["superchess", "rocket", "glinski", "mccooey", "chess", "xiangqi"])
def test_edge_labels_neither_overlap_nor_cover_cells(name):
    from interpreter.drawing.geometry import edge_labels, inside
    board = load_game(name).board
    labels = edge_labels(board)
    assert labels, "cells named like e4 get edge labels"
    boxes = [(lb.at[0], lb.at[1], lb.size * 0.3 * len(lb.text), lb.size * 0.4) for lb in labels]
    for i, (x, y, w, h) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert abs(x - x2) >= w + w2 or abs(y - y2) >= h + h2, f"labels overlap at {x:.2f}, {y:.2f}"
        assert not any(inside(polygon, x, y) for polygon in board.polygons), f"label {labels[i].text} on a cell"


def test_pieces_without_a_board_have_ids_of_their_own():
    """A page shows a board and pieces in hand together: the hand's upright pieces must not share an id
    with the board's (shogi's board turns the second army's pieces; one id would draw them upright)."""
    game = load_game("shogi")
    diagram = diagram_of(start_position(game))
    board = render_svg(game, diagram)
    loose = render_pieces(game, sorted({image for stack in diagram.stacks.values() for image in stack},
                                       key=lambda image: (image.army, image.name)))
    assert not set(re.findall(r'id="([^"]+)"', board)) & set(re.findall(r'id="([^"]+)"', loose))
