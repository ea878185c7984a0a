"""Movement diagrams are computed by the engine: marks for moves, captures, both and special moves."""

from __future__ import annotations

from interpreter.drawing.diagrams import movement_diagrams
from interpreter.loading import load_game


def _named(game, diagram):
    return {game.board.names[c]: mark for c, mark in diagram.marks.items()}


def _diagram(variant, piece):
    game = load_game(variant)
    [diagram] = movement_diagrams(game, game.kind_index[piece])
    return game, diagram


def test_knight_moves_and_captures_from_the_centre():
    game, diagram = _diagram("chess", "Knight")
    assert game.board.names[diagram.cell] == "d4"
    assert _named(game, diagram) == {c: "both" for c in ("b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5")}


def test_pawn_is_shown_where_it_may_double_step():
    game, diagram = _diagram("chess", "Pawn")
    assert game.board.names[diagram.cell] == "d2"
    assert _named(game, diagram) == {"d3": "move", "d4": "special", "c3": "capture", "e3": "capture"}


def test_a_hopper_is_shown_with_hurdles():
    game, diagram = _diagram("grasshopper", "Grasshopper")
    assert len(diagram.hurdles) == 8 and diagram.hurdle_code
    assert game.kinds[game.code_kind[diagram.hurdle_code]].name == "Pawn"     # the least valuable piece
    assert set(_named(game, diagram)) == {"b2", "b4", "b6", "d2", "d6", "f2", "f4", "f6"}


def test_plain_moves_of_a_stacking_game_are_not_special():
    """Locking Chess's moves carry a stacking special even when plain; the diagram marks them as moves."""
    game, diagram = _diagram("locking", "Rook")
    assert set(_named(game, diagram).values()) == {"both"} and len(diagram.marks) == 14


def test_a_once_per_game_move_is_special():
    game = load_game("rocket")
    marks = {d.cell_type: d for d in movement_diagrams(game, game.kind_index["King"])}
    assert sorted(_named(game, marks["L"]).values()).count("special") == 2 and len(marks["L"].marks) == 10
