"""Teams, play modes, partner safety, royal pieces never captured, forced moves (pass, removal).

The constructs Superchess needs, shown on a small four-army fixture
(tests/fixtures/four_armies.rules): two teams, clockwise turns, kings that
are never captured but removed on their own turn when mated, armies that
pass when they cannot move and play on without their king.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl import RulesError
from interpreter.notation.fen import to_fen
from interpreter.loading import load_game
from interpreter.engine.outcome import outcome
from interpreter.engine.moves import PASS, REMOVE
from interpreter.engine.attacks import royal_cells
from interpreter.loading import position_from_fen, start_position

FIXTURE = str(Path(__file__).resolve().parent / "fixtures" / "four_armies.rules")


@pytest.fixture(scope="module")
def game():
    return load_game(FIXTURE)


def position(game, pieces: dict[str, str], army: str = "w"):
    """A position of the fixture's board with the given pieces (cell -> symbol), ``army`` to move."""
    from interpreter.engine.position import Position
    pos = Position(game)
    for cell, symbol in pieces.items():
        pos.place(game.board.index[cell], game.symbol_code[symbol])
    pos.turn = game.turn_order.index(next(a.index for a in game.armies if a.symbol == army))
    pos.rehash()
    return position_from_fen(game, to_fen(pos))


def names(game, moves):
    return sorted(f"{game.board.names[m[0]]}{game.board.names[m[1]]}" for m in moves if m[0] >= 0)


def test_teams_and_turn_order(game):
    white, black, tan, brown = range(4)
    assert game.turn_order == [white, black, tan, brown]
    assert game.enemies[white] == [black, brown] and game.partners[white] == [tan]
    assert game.players == {"south": [white], "west": [black], "north": [tan], "east": [brown]}


def test_fen_round_trip_with_prefixes(game):
    fen = to_fen(start_position(game))
    assert fen.startswith("2,tR,tK,tN,3/3,tP,tP,tP,4/")
    assert to_fen(position_from_fen(game, fen)) == fen


def test_partner_pieces_are_never_captured(game):
    # A white rook on d5 with a tan knight on d8 and a black knight on d3.
    pos = position(game, {"d5": "wR", "d8": "tN", "d3": "bP", "c1": "wK", "e10": "tK", "a5": "bK", "j5": "rK"})
    rook = [m for m in pos.legal_moves() if game.board.names[m[0]] == "d5"]
    targets = sorted(game.board.names[m[1]] for m in rook)
    assert "d3" in targets and "d8" not in targets and "d7" in targets


def test_royal_pieces_are_never_captured(game):
    # Black's king on e3 stands in the white rook's line: the capture is not generated.
    pos = position(game, {"e4": "wR", "e3": "bK", "c1": "wK", "e10": "tK", "j5": "rK"})
    assert "e4e3" not in names(game, pos.legal_moves())


def test_a_move_may_not_expose_the_partners_king(game):
    # The white knight on e8 shields Tan's king on e10 from Black's rook on e2.
    pos = position(game, {"e8": "wN", "e10": "tK", "e2": "bR", "c1": "wK", "a5": "bK", "j5": "rK"})
    assert not [m for m in pos.legal_moves() if game.board.names[m[0]] == "e8"]


def test_mated_king_is_removed_as_the_move_and_the_army_plays_on(game):
    # Black to move, its king on b10 mated by white rooks on d10 and e9. Removing it is the move.
    pos = position(game, {"b10": "bK", "d10": "wR", "e9": "wR", "c3": "bN", "c1": "wK", "i10": "tK",
                          "j5": "rK"}, "b")
    fen = to_fen(pos)
    moves = pos.legal_moves()
    assert len(moves) == 1 and moves[0][3] == REMOVE
    pos.push(moves[0])
    assert not royal_cells(pos, 1)
    pos.push(pos.legal_moves()[0])  # tan
    pos.push(pos.legal_moves()[0])  # brown
    pos.push(pos.legal_moves()[0])  # white
    assert pos.army == 1 and any(m[3] is None for m in pos.legal_moves())  # the knight still moves
    pos.pop()
    pos.pop()
    pos.pop()
    pos.pop()
    assert to_fen(pos) == to_fen(position_from_fen(game, fen))


def test_an_army_that_cannot_move_passes(game):
    # Brown's lone king on j2 is not in check, but white rooks guard every cell around it.
    pos = position(game, {"j2": "rK", "i8": "wR", "a3": "wR", "c1": "wK", "e10": "tK", "a5": "bK"}, "r")
    fen = to_fen(pos)
    assert pos.legal_moves() == [(-1, -1, 0, PASS)]
    pos.push(pos.legal_moves()[0])
    assert pos.army == 0 and to_fen(pos).split()[1] == "w"
    pos.pop()
    assert to_fen(pos) == to_fen(position_from_fen(game, fen))


def test_a_team_wins_when_both_enemy_kings_are_gone(game):
    pos = position(game, {"c1": "wK", "e10": "tK", "g1": "bN"})
    result = outcome(pos)
    # The winners are the team: White and its partner Tan.
    assert result is not None and result.rule == "both_kings_lost" and set(result.winners) == {0, 2}


def test_modes(game):
    three = load_game(FIXTURE, mode="three")
    assert three.turn_order == [0, 1, 2, 3] and three.players["solo"] == [1, 3]
    with pytest.raises(RulesError, match="no mode 'fiv'"):
        load_game(FIXTURE, mode="fiv")


def test_random_games_remove_kings_and_play_on(game):
    rng = random.Random(4)
    removals = kingless_moves = 0
    for _ in range(20):
        pos = start_position(game)
        for _ in range(400):
            if outcome(pos) is not None:
                break
            moves = pos.legal_moves()
            if not moves:
                break
            before = (list(pos.board), pos.hash, pos.turn)
            for m in moves:
                pos.push(m)
                pos.pop()
                assert (list(pos.board), pos.hash, pos.turn) == before
            moves = sorted(moves, key=repr)
            captures = [m for m in moves if m[0] >= 0 and pos.board[m[1]] and m[1] != m[0]]
            move = rng.choice(captures if captures and rng.random() < 0.8 else moves)
            removals += move[3] == REMOVE
            kingless_moves += move[3] is None and not royal_cells(pos, pos.army)
            pos.push(move)
    assert removals > 0 and kingless_moves > 0


def test_swap_castling(game):
    pos = start_position(game)
    castles = [m for m in pos.legal_moves() if m[3] is not None and m[3][0] == "castle"]
    assert names(game, castles) == ["e1d1"]
    pos.push(castles[0])
    assert pos.board[game.board.index["d1"]] == game.symbol_code["wK"]
    assert pos.board[game.board.index["e1"]] == game.symbol_code["wR"]
    assert not {"d1", "e1"} & set(to_fen(pos).split()[2].split(","))
    pos.pop()
    # Not out of check, and not with a rook that has moved.
    checked = position(game, {"e1": "wK", "d1": "wR", "e5": "bR", "e10": "tK", "a5": "bK", "j5": "rK"})
    assert not [m for m in checked.legal_moves() if m[3] is not None]
    moved = position_from_fen(game, to_fen(start_position(game)).replace(" d1,", " ", 1))
    assert not [m for m in moved.legal_moves() if m[3] is not None and m[0] == game.board.index["e1"]]


def test_promotion_to_partner_pieces_and_on_capture_into_a_zone(game):
    # A white pawn on e4 captures a black pawn on f5, into the centre: it promotes, also to Tan's pieces.
    pos = position(game, {"e4": "wP", "f5": "bP", "c1": "wK", "e10": "tK", "a5": "bK", "j5": "rK"})
    captures = [m for m in pos.legal_moves() if game.board.names[m[0]] == "e4" and game.board.names[m[1]] == "f5"]
    assert sorted(game.code_symbol[m[2]] for m in captures) == ["tN", "tR", "wN", "wR"]
    to_tan = next(m for m in captures if game.code_symbol[m[2]] == "tR")
    fen = to_fen(pos)
    pos.push(to_tan)
    f5 = game.board.index["f5"]
    assert f5 in pos.cells_of[2] and f5 not in pos.cells_of[0]
    pos.pop()
    assert to_fen(pos) == fen and f5 in pos.cells_of[1]
    # The quiet step to e5 does not promote.
    assert [m[2] for m in pos.legal_moves() if game.board.names[m[1]] == "e5"] == [0]


def test_an_army_given_to_two_players_is_a_located_error(tmp_path):
    from dsl import RulesSemanticError, load_spec_text
    from interpreter.loading import compile_variant
    path = tmp_path / "shared.rules"
    text = "extends chess\narmies {\n  mode duo { player a: white  player b: white, black }\n}\n"
    path.write_text(text)
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text(text, str(path)))
    assert "army 'white' is given to two players of mode 'duo': a and b" in err.value.message
    assert err.value.loc.path == str(path) and err.value.loc.line == 3


@pytest.mark.parametrize("mode, limit", [("4p", 200), ("3p", 200), ("2p", 100)])
def test_the_inherited_fifty_move_rule_counts_fifty_moves_of_every_side(mode, limit):
    """Superchess inherits orthodox's 'clock >= 50 * sides': 4 sides take turns in the 4- and
    3-player modes (200 plies), 2 in the 2-player mode (100 plies)."""
    game = load_game("superchess", mode=mode)
    placement, side, castling, ep, _, fullmove = to_fen(start_position(game)).split(" ")
    for clock, ends in ((limit - 1, False), (limit, True)):
        pos = position_from_fen(game, " ".join([placement, side, castling, ep, str(clock), fullmove]))
        result = outcome(pos)
        assert (result is not None and result.rule == "fifty_moves" and result.result == "draw") == ends


def _resign(game, stdin_text: str) -> str:
    import io
    from interpreter.cli.play import play
    out = io.StringIO()
    play(game, start_position(game), {a.index: "human" for a in game.armies}, stdin=io.StringIO(stdin_text), stdout=out)
    return out.getvalue()


def test_resigning_removes_the_king_only_where_the_variant_says_so(game, tmp_path):
    """Superchess declares 'when resigning: remove-royal': White's king leaves as its move and
    Black is to move; the four-army fixture declares nothing, so resigning ends the game there."""
    superchess = load_game("superchess")
    assert superchess.resign_removes_royal and not game.resign_removes_royal
    text = _resign(superchess, "resign\nfen\n")
    assert "White resigns: its king leaves the board." in text
    fen_line = next(line for line in text.splitlines() if line.count("/") > 5 and " b " in line)
    assert "wK" not in fen_line.split()[0]
    text = _resign(game, "resign\nfen\n")
    assert "White resigns." in text and "its king leaves" not in text
    forgotten = tmp_path / "forgotten.rules"
    forgotten.write_text("extends superchess\nforget when resigning\n")
    assert not load_game(str(forgotten)).resign_removes_royal
