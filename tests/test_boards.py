"""Boards beyond a generator: explicit cells, links, wrapping, and direction families redeclared.

Each test builds a small variant from text and checks what the engine does
with it: the cells and steps of the compiled board, the moves of pieces on
it, its position strings and move notation, and the located errors for
boards that cannot be.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from dsl.catalogue import bundled_names
from interpreter.cli.play import render_text
from interpreter.engine.perft import perft
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san

# Orthodox chess on a 10x10 board with Omega Chess's four wizard squares beyond its corners.
CORNERS = """
board {
  grid 10 x 10
  cell w1 at (-1, -1)
  cell w2 at (10, -1)
  cell w3 at (10, 10)
  cell w4 at (-1, 10)
  zone promotion { white: rank 10  black: rank 1 }
  zone pawn_start { white: rank 2  black: rank 9 }
}
piece Wizard { letter W betza "FC" }
"""


def game_of(text: str, tmp_path, name: str = "variant.rules"):
    path = tmp_path / name
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


def targets(game, pos, origin: str) -> list[str]:
    cell = game.board.index[origin]
    return sorted(game.board.names[m[1]] for m in pos.legal_moves() if m[0] == cell)


def corners_game(tmp_path, setup: str):
    return game_of("extends chess\n" + CORNERS + setup, tmp_path)


SETUP = "setup {\n  white King at f1\n  black King at f10\n  white Wizard at w1\n  black Wizard at w3\n  white Bishop at c3\n}\n"


def test_explicit_cells_join_the_grid(tmp_path):
    game = corners_game(tmp_path, SETUP)
    board = game.board
    assert len(board) == 104 and board.coords[board.index["w1"]] == (-1, -1)
    assert board.parts[board.index["w1"]] is None and board.parts[board.index["a1"]] == ("a", "1")
    # Betza vectors reach the explicit cells by their coordinates: the wizard on w1 (a ferz step and
    # camel leaps), the bishop's diagonal through a1 to w1 (blocked by its own wizard) and to w3.
    pos = start_position(game)
    assert targets(game, pos, "w1") == ["a1", "a3", "c1"]
    assert "w3" in targets(game, pos, "c3") and "w1" not in targets(game, pos, "c3")
    assert board.attributes[board.index["w1"]] == {"file": 0, "rank": 0, "colour": "dark"}


def test_explicit_cells_in_fen_notation_and_text(tmp_path):
    game = corners_game(tmp_path, SETUP)
    pos = start_position(game)
    fen = to_fen(pos)
    assert fen.split()[0] == "1w/5k4/10/10/10/10/10/10/2B7/10/5K4/W1"   # a rank for each row of cells
    assert to_fen(position_from_fen(game, fen)) == fen
    capture = parse_move(pos, "Bxw3")
    assert move_to_san(pos, capture) == "Bxw3" and parse_move(pos, "c3w3") == capture
    step = parse_move(pos, "Wa1")
    assert game.board.names[step[0]] == "w1" and parse_move(pos, "w1a1") == step
    text = render_text(pos)
    assert text.splitlines()[0].split() == [".", "w"] and "W" in text.splitlines()[-2]


def test_explicit_cell_origin_is_written_whole_when_ambiguous(tmp_path):
    """Two wizards reach c1: the one on an explicit cell is named by its whole cell, the other by its file."""
    game = corners_game(tmp_path, "setup {\n  white King at f1\n  black King at f10\n  white Wizard at w1, b2\n}\n")
    pos = start_position(game)
    sans = {move_to_san(pos, m) for m in pos.legal_moves() if game.board.names[m[1]] == "c1"}
    assert sans == {"Ww1c1", "Wbc1"}
    for san in sans:
        assert move_to_san(pos, parse_move(pos, san)) == san


@pytest.mark.parametrize("cell, message", [
    ("cell W1 at (-1, -1)", "cannot be written in moves"),
    ("cell a1 at (-1, -1)", "already a cell named 'a1'"),
    ("cell w1 at (0.5, -1)", "whole numbers"),
])
def test_bad_explicit_cells_are_located_errors(tmp_path, cell, message):
    with pytest.raises(RulesSemanticError) as err:
        game_of(f"extends chess\nboard {{ grid 8 x 8 {cell} }}\n", tmp_path)
    assert message in err.value.message and err.value.loc.line == 2


LINE = """
armies { army white { letters upper } army black { letters lower } }
board {
  cell p1 at (0, 0)
  cell p2 at (1, 0)
  cell p3 at (2, 0)
  cell p4 at (5, 5)
  link p1 to p2 as east kind orth
  link p2 to p3 as east
  link p3 to p4 as east
  link p4 to p1 as east
}
piece King { royal move step east: quiet }
piece Rook { move ride east }
rules { forbid self-check }
"""


def test_board_notes_name_isolated_cells_parts_and_dead_directions(tmp_path):
    game = game_of(LINE + "board { cell p5 at (8, 8)  cell p6 at (9, 9)  cell p7 at (9, 8)  link p6 to p7 as north }\n"
                   "setup { white King at p1  black King at p4 }\n", tmp_path)
    assert game.board.diagnostics() == ["cells with no step to or from them: p5",
                                        "the board falls into 3 parts by single steps (sizes [4, 2, 1])"]


@pytest.mark.parametrize("name", bundled_names())
def test_board_notes_agree_with_networkx(name):
    """The notes are read from the step tables; networkx's reading of the same graph agrees."""
    import networkx as nx

    board = load_game(name).board
    graph = board.graph
    isolated = [board.names[c] for c in graph.nodes if graph.degree(c) == 0]
    parts = sorted((len(p) for p in nx.weakly_connected_components(graph)), reverse=True)
    notes = board.diagnostics()
    assert any(n.startswith("cells with no step") for n in notes) == bool(isolated)
    assert any(n.startswith("the board falls into") for n in notes) == (len(parts) > 1)
    if len(parts) > 1:
        assert f"(sizes {parts})" in next(n for n in notes if n.startswith("the board falls into"))


def test_a_board_of_explicit_cells_with_links(tmp_path):
    game = game_of(LINE + "board { cell p5 at (8, 8) }\n"
                   "setup { white Rook at p1  black Rook at p3  black King at p4  white King at p5 }\n", tmp_path)
    board = game.board
    assert board.steps["east"] == [board.index[c] for c in ("p2", "p3", "p4", "p1")] + [-1]  # p5: no step
    assert board.families["east"] == ("east",) and board.edge_kinds["east"] == "orth"
    pos = start_position(game)
    assert targets(game, pos, "p1") == ["p2", "p3"]          # the ray follows the links to the black rook
    assert to_fen(pos).split()[0] == "K///k/////R1r"           # a rank per row of coordinates: p5, p4, p1-p3
    lone = position_from_fen(game, "k///K/////1R1 w - - 0 1")  # the ray stops before its own king on p4
    assert targets(game, lone, "p2") == ["p3"]


def test_a_setup_that_leaves_the_second_mover_in_check_is_refused(tmp_path):
    """A place list has the first army move: its rook must not already attack the enemy king."""
    with pytest.raises(RulesSemanticError) as err:
        game_of(LINE + "setup { white Rook at p1  white King at p4  black King at p3 }\n", tmp_path)
    assert "Black is in check, but White moves first" in err.value.render()


def test_a_ray_round_a_ring_of_links_stops_at_its_start(tmp_path):
    text = LINE + "board { cell p5 at (8, 8)  cell p6 at (9, 8) }\nsetup { white Rook at p2  white King at p5  black King at p6 }\n"
    game = game_of(text, tmp_path)
    assert targets(game, start_position(game), "p2") == ["p1", "p3", "p4"]


def test_a_link_patches_a_grid_direction_for_rides_and_betza(tmp_path):
    """A portal: east of h4 is a4. Rides along e (native or Betza) follow it; knight leaps do not."""
    text = ("extends chess\nboard { link h4 to a4 as e }\n"
            "piece Portal { letter X betza \"R\" }\n"
            "setup { white King at e1  black King at e8  white Portal at g4  white Rook at d5  white Knight at h3 }\n")
    game = game_of(text, tmp_path)
    pos = start_position(game)
    assert {"h4", "a4", "b4", "f4"} <= set(targets(game, pos, "g4"))
    assert "g4" not in targets(game, pos, "g4")
    assert sorted(targets(game, pos, "h3")) == ["f2", "f4", "g1", "g5"]


@pytest.mark.parametrize("link, message", [
    ("link h4 to z9 as e", "unknown cell 'z9'"),
    ("link h4 to a4 as e kind diag", "is of kind 'orth'"),
])
def test_bad_links_are_located_errors(tmp_path, link, message):
    with pytest.raises(RulesSemanticError) as err:
        game_of(f"extends chess\nboard {{ {link} }}\n", tmp_path)
    assert message in err.value.render() and err.value.loc.line == 2


CYLINDER = "extends chess\nboard { wrap files }\n"


def test_a_wrapping_board_joins_its_edges(tmp_path):
    game = game_of(CYLINDER + 'setup fen "4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1"\n', tmp_path)
    pos = start_position(game)
    rook = targets(game, pos, "a1")
    assert "h1" in rook and "a1" not in rook and {"f1", "g1"}.isdisjoint(rook)  # h1 round the back; g1 is own
    assert set(targets(game, pos, "g1")) == {"e2", "f3", "h3", "a2"}            # a knight leaps round too
    assert game.board.steps["e"][game.board.index["h5"]] == game.board.index["a5"]


def test_a_wrapping_ray_stops_where_it_started(tmp_path):
    game = game_of(CYLINDER + 'setup fen "4k3/8/8/8/R7/8/8/4K3 w - - 0 1"\n', tmp_path)
    pos = start_position(game)
    along = [c for c in targets(game, pos, "a4") if c.endswith("4")]
    assert sorted(along) == ["b4", "c4", "d4", "e4", "f4", "g4", "h4"]


def test_only_a_grid_wraps(tmp_path):
    with pytest.raises(RulesSemanticError) as err:
        game_of("extends glinski\nboard { wrap files }\n", tmp_path)
    assert "only a flat grid board can wrap" in err.value.message and err.value.loc.line == 2
    with pytest.raises(RulesSemanticError) as err:
        game_of("extends chess\nboard { wrap files  cell w1 at (-1, -1) }\n", tmp_path)
    assert "outside the grid" in err.value.message


def test_redeclared_directions_with_the_grids_deltas_keep_forward_and_betza(tmp_path):
    text = "extends chess\nboard {\n  directions orth {\n    all: n (0, 1), e (1, 0), s (0, -1), w (-1, 0)\n  }\n}\n"
    game = game_of(text, tmp_path)
    assert game.board.directions["s"][:2] == (0, -1)
    assert perft(start_position(game), 3) == 8902


def test_an_added_uniform_family_is_a_vector_direction(tmp_path):
    """A family of one leap vector from every cell works with 'forward' frames (black's is turned)."""
    text = ("extends chess\nboard {\n  directions hop {\n    all: hop2 (0, 2)\n  }\n}\n"
            "piece Hopper { letter H move step hop2 }\n"
            "setup { white King at e1  black King at e8  white Hopper at d4  black Hopper at d5 }\n")
    game = game_of(text, tmp_path)
    assert game.board.directions["hop2"] == (0, 2, "hop")
    pos = start_position(game)
    assert targets(game, pos, "d4") == ["d6"]


def test_uneven_redeclared_directions_are_reported_at_the_family(tmp_path):
    """n is (0, 1) only on some cells: Betza and black's forward 's' cannot work; the error is at the family."""
    text = "extends chess\nboard {\n  directions orth {\n    rank 1: n (0, 1), s (0, -1)\n  }\n}\n"
    with pytest.raises(RulesSemanticError) as err:
        game_of(text, tmp_path)
    assert err.value.loc.path.endswith("variant.rules") and err.value.loc.line == 3


def test_walls_in_a_fen_are_read_as_nothing():
    """Fairy-Stockfish's Omicron FEN writes the cells the 12x10 grid lacks as '*'; it reads as ours."""
    from interpreter.loading import load_game
    game = load_game("omicron")
    ours = to_fen(start_position(game))
    walled = ("w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W"
              " w KQkq - 0 1")
    assert ours.split()[0] == "ww/crnbqkbnrc/pppppppppp/10/10/10/10/PPPPPPPPPP/CRNBQKBNRC/WW"
    assert to_fen(position_from_fen(game, walled)) == ours
