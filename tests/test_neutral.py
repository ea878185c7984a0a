"""Neutral pieces (``neutral``) and the ``then move PIECE to an empty cell`` phase, on the bundled
Duck chess and on small boards made for the tests.

Fairy-Stockfish's numbers for Duck chess (legal move sets along random games, perft) are in
tests/test_differential.py and tests/perft/fsf-computed.txt; these tests pin down the rules one
by one, each worked out by hand from the rule text.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, UnsupportedError, load_spec_text
from dsl.errors import IllegalMoveError, MoveError
from interpreter.engine.outcome import outcome
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import legal_move_table, move_to_san, move_to_uci

# A line of three cells: two non-royal kings that step sideways, and a stone that the player
# who moved puts on another empty cell.
LINE = """
variant line { title "Line" }
board { grid 3 x 1 }
armies {
  army white "White" { letters upper  forward n }
  army black "Black" { letters lower  forward s }
}
piece King { letter K value 4 betza "W" }
piece Stone { letter "*" neutral }
rules {
  then move Stone to an empty cell
  end king_captured "capture of the king" when count(King) == 0: loss
  end stalemate "having no legal move" when legal_moves == 0: win
}
setup fen "K1k w - - 0 1"
"""


def game_of(text: str):
    return compile_variant(load_spec_text(text, "<test>"))


@pytest.fixture(scope="module")
def duck():
    return load_game("duck")


def uci(pos) -> set[str]:
    return {move_to_uci(pos, m) for m in pos.legal_moves()}


def test_the_first_move_places_the_neutral_piece_on_any_cell_empty_after_it(duck):
    pos = start_position(duck)
    moves = uci(pos)
    # 20 moves, each with the 32 cells empty after it (the cell the mover left, not the one it reached).
    assert len(moves) == 20 * 32
    assert {"e2e4,e4e2", "e2e4,e4e5", "g1f3,f3g1"} <= moves and "e2e4,e4e4" not in moves
    pos.push(parse_move(pos, "e4,e2"))
    assert to_fen(pos) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP*PPP/RNBQKBNR b KQkq - 0 1"


def test_then_the_neutral_piece_moves_to_another_empty_cell_and_blocks(duck):
    pos = position_from_fen(duck, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP*PPP/RNBQKBNR b KQkq - 0 1")
    moves = uci(pos)
    # 20 moves, each with the 31 cells empty after it (32 empty ones, less the duck's own).
    assert len(moves) == 20 * 31 and not any(m.endswith("e2") for m in moves)
    pos = position_from_fen(duck, "4k3/8/8/8/8/4*3/8/R3K1NR w - - 0 1")
    firsts = {m.split(",")[0] for m in uci(pos)}
    assert "e1e2" in firsts and "e1f1" in firsts      # the duck is not on e2 or f1
    assert "g1e2" in firsts and "g1f3" in firsts
    pos = position_from_fen(duck, "4k3/8/8/8/4*3/8/8/4R1K1 w - - 0 1")
    firsts = {m.split(",")[0] for m in uci(pos)}
    assert {"e1e2", "e1e3"} <= firsts and not {"e1e4", "e1e5", "e1e8"} & firsts   # a rook stops before it


def test_nothing_captures_the_neutral_piece_and_a_knight_jumps_over_it(duck):
    pos = position_from_fen(duck, "4k3/8/8/8/8/8/3*4/4K1N1 w - - 0 1")
    firsts = {m.split(",")[0] for m in uci(pos)}
    assert "e1d2" not in firsts and "g1e2" in firsts   # the king may not take the duck; the knight jumps
    # Leaping over it: a knight's move passes no cell, so a duck beside the knight changes nothing.
    pos = position_from_fen(duck, "4k3/8/8/8/8/8/6*1/4K1N1 w - - 0 1")
    assert {"g1e2", "g1f3", "g1h3"} <= {m.split(",")[0] for m in uci(pos)}


def test_the_king_may_be_left_attacked_and_capturing_it_wins(duck):
    pos = position_from_fen(duck, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    firsts = {m.split(",")[0] for m in uci(pos)}
    assert firsts == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}   # no check: d1, f1 stay attacked
    pos = position_from_fen(duck, "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1")
    san = move_to_san(pos, parse_move(pos, "e2e1,e1e2"))
    assert san == "Rxe1,e2#"   # the capture of the king ends the game
    pos.push(parse_move(pos, san))
    assert pos.legal_moves() == []
    result = outcome(pos)
    assert result is not None and result.rule == "king_captured" and result.result == "loss"
    assert [duck.armies[a].name for a in result.winners] == ["black"]


def test_a_player_without_a_legal_move_wins():
    game = game_of(LINE)
    pos = position_from_fen(game, "K*k w - - 0 1")
    assert pos.legal_moves() == []
    result = outcome(pos)
    assert result.rule == "stalemate" and [game.armies[a].name for a in result.winners] == ["white"]


def test_the_neutral_piece_may_land_where_the_mover_stood_and_push_pop_restore_everything():
    game = game_of(LINE)
    pos = start_position(game)
    assert uci(pos) == {"a1b1,b1a1"}   # the only empty cell after Kb1 is a1
    before = (to_fen(pos), pos.hash, list(pos.board))
    pos.push(pos.legal_moves()[0])
    assert to_fen(pos) == "*Kk b - - 1 1"
    pos.push(parse_move(pos, "Kxb1,c1"))
    assert to_fen(pos) == "1k* w - - 2 2"   # the stone left a1 for the only empty cell, c1 (no clock rule)
    assert outcome(pos).rule == "king_captured"
    pos.pop()
    pos.pop()
    assert (to_fen(pos), pos.hash, list(pos.board)) == before


def test_a_neutral_piece_on_the_en_passant_cell_takes_the_capture_away(duck):
    pos = position_from_fen(duck, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    pos.push(parse_move(pos, "d5,d6"))
    assert to_fen(pos).split()[3] == "-" and "e5d6" not in {m.split(",")[0] for m in uci(pos)}
    pos.pop()
    pos.push(parse_move(pos, "d5,a1"))
    assert to_fen(pos).split()[3] == "d6" and "e5d6,d6d5" in uci(pos)
    assert move_to_san(pos, parse_move(pos, "e5d6,d6d5")) == "exd6,d5"


def test_every_legal_move_reads_back_from_its_san_and_from_to_forms(duck):
    pos = position_from_fen(duck, "r3k2r/pppq1ppp/2n2n2/3pp3/1b1P4/2N1PN2/PPPBQPPP/R3K2R w KQkq - 0 1")
    pos.push(parse_move(pos, "O-O,e1"))   # castling, then the duck on the king's old cell
    assert to_fen(pos).startswith("r3k2r/pppq1ppp/2n2n2/3pp3/1b1P4/2N1PN2/PPPBQPPP/R3*RK1 b kq")
    table = legal_move_table(pos)
    assert len(table) == len(pos.legal_moves())
    for row in table[::37]:
        assert move_to_san(pos, parse_move(pos, row["san"])) == row["san"]
        assert move_to_uci(pos, parse_move(pos, row["uci"])) == row["uci"]


@pytest.mark.parametrize("text, error, message", [
    ("e4", MoveError, "lacks its second part"),
    ("e4,e4", IllegalMoveError, "cannot go to e4"),
    ("e4,z9", MoveError, "no cell 'z9'"),
])
def test_a_move_without_a_proper_second_part_is_a_located_error(duck, text, error, message):
    with pytest.raises(error, match=message) as caught:
        parse_move(start_position(duck), text)
    assert caught.value.loc is not None


@pytest.mark.parametrize("change, error, message", [
    ("then move Stone to an empty cell", "then move King to an empty cell", "King is not a neutral piece"),
    ("then move Stone to an empty cell", "then move Rock to an empty cell", "unknown piece 'Rock'"),
    ('piece Stone { letter "*" neutral }', 'piece Stone { letter "*" neutral betza "W" }', "cannot have moves"),
    ('piece Stone { letter "*" neutral }', 'piece Stone { letter "*" neutral royal }', "cannot be royal"),
    ('piece Stone { letter "*" neutral }', 'piece Stone { letter "/" neutral }', "must be one letter"),
    ('setup fen "K1k w - - 0 1"', "setup { white King at a1  black King at c1  white Stone at b1 }",
     "belongs to no army"),
])
def test_misused_neutral_pieces_are_located_errors(change, error, message):
    with pytest.raises(RulesSemanticError, match=message) as caught:
        game_of(LINE.replace(change, error))
    assert caught.value.loc is not None


def test_a_then_move_rule_with_a_check_rule_is_refused_as_not_run():
    with pytest.raises(UnsupportedError, match="forbid self-check") as caught:
        game_of(LINE.replace("rules {", "rules {\n  forbid self-check"))
    assert caught.value.loc is not None and caught.value.loc.line == LINE.splitlines().index("rules {") + 3


def test_forget_then_move_leaves_the_neutral_piece_where_it_stands():
    game = game_of(LINE + "forget then move\n")
    assert game.neutral_move is None
    pos = position_from_fen(game, "K*k w - - 0 1")
    assert uci(pos) == set()   # the king is walled in by the stone, which nothing moves
    with pytest.raises(RulesSemanticError, match="nothing of it was inherited"):
        game_of(LINE.replace("then move Stone to an empty cell", "") + "forget then move\n")
