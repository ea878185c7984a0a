"""Several royal pieces: ``check when all royals attacked`` (duple check) and promotions limited by count.

The expected moves are worked out in the comments from the rules alone: a
Spartan king steps to its neighbours; with two kings, the Spartans may
leave one of them attacked but not both; with one, it is an ordinary king.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.engine.outcome import outcome
from interpreter.loading import compile_variant, load_game, position_from_fen
from interpreter.notation.san import move_to_san


def game_of(text: str, tmp_path):
    path = tmp_path / "variant.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


def moves_of(pos) -> set[str]:
    names = pos.game.board.names
    return {names[m[0]] + names[m[1]] + (pos.game.code_symbol[m[2]].lower() if m[2] else "") for m in pos.legal_moves()}


@pytest.fixture(scope="module")
def spartan():
    return load_game("spartan")


@pytest.fixture
def any_check(tmp_path):
    """Spartan chess with the default rule: check when any royal piece is attacked."""
    return game_of("extends spartan\nforget check\n", tmp_path)


def test_one_of_two_kings_may_be_left_attacked(spartan, any_check):
    # Kings on a8 and h8, a white rook on b1 covers b8 and b7: every step of the h8 king is safe,
    # and the a8 king may step onto the b-file too, since the other king is not attacked.
    fen = "k6k/8/8/8/8/8/8/1R2K3 b - - 0 1"
    assert moves_of(position_from_fen(spartan, fen)) == {"a8a7", "a8b8", "a8b7", "h8h7", "h8g8", "h8g7"}
    # Under the default rule a king may not step into an attack.
    assert moves_of(position_from_fen(any_check, fen)) == {"a8a7", "h8h7", "h8g8", "h8g7"}


def test_duple_check_must_be_answered(spartan, any_check):
    # A rook on d8 attacks both kings along the eighth rank: only a step off it by one of the
    # kings answers (b8 and g8 stay on it); under the default rule it is mate at once.
    fen = "k2R3k/8/8/8/8/8/8/4K3 b - - 0 1"
    pos = position_from_fen(spartan, fen)
    assert pos.in_check()
    assert moves_of(pos) == {"a8a7", "a8b7", "h8h7", "h8g7"}
    mated = position_from_fen(any_check, fen)
    assert moves_of(mated) == set() and outcome(mated).rule == "checkmate"


def test_a_single_attacked_king_is_no_check_and_can_be_taken(spartan):
    pos = position_from_fen(spartan, "k5hk/8/8/8/8/8/8/R3K3 w - - 0 1")
    take = next(m for m in pos.legal_moves() if pos.game.board.names[m[1]] == "a8")
    assert move_to_san(pos, take) == "Rxa8"      # no '+': the other king is not attacked
    pos.push(take)
    assert not pos.in_check()
    assert len([c for c in pos.cells_of[1] if pos.game.is_royal[pos.board[c]]]) == 1
    # Now the last king is an ordinary king: a check must be answered.
    pos = position_from_fen(spartan, "R6k/8/8/8/8/8/8/4K3 b - - 0 1")
    assert pos.in_check() and moves_of(pos) == {"h8h7", "h8g7"}


def test_a_move_that_attacks_both_kings_is_written_as_check(spartan):
    pos = position_from_fen(spartan, "k6k/8/8/8/8/8/8/3RK3 w - - 0 1")
    move = next(m for m in pos.legal_moves() if pos.game.board.names[m[1]] == "d8")
    assert move_to_san(pos, move) == "Rd8+"


def test_a_promotion_to_king_only_while_one_is_missing(spartan):
    # A hoplite on b2 steps diagonally to a1 or c1 (moves only) or captures straight on b1 (a rook).
    two = position_from_fen(spartan, "k6k/8/8/8/8/8/1h6/1R2K3 b - - 0 1")
    promoted = {m for m in moves_of(two) if m.startswith("b2")}
    targets = {m[4] for m in promoted}
    assert targets == {"g", "w", "l", "c"}          # two kings already: no king
    one = position_from_fen(spartan, "7k/8/8/8/8/8/1h6/1R2K3 b - - 0 1")
    promoted = {m for m in moves_of(one) if m.startswith("b2")}
    assert {m[4] for m in promoted} == {"g", "w", "l", "c", "k"}
    assert {m[:4] for m in promoted} == {"b2a1", "b2c1", "b2b1"}


def test_a_limit_must_name_a_piece_of_the_promotion(tmp_path):
    text = ("extends chess\npiece Pawn {\n  betza \"fmW\"\n  betza \"fcF\"\n"
            "  promotes in zone promotion to Queen, Rook: limit Knight to 1\n}\n")
    with pytest.raises(RulesSemanticError) as info:
        game_of(text, tmp_path)
    assert "Knight" in str(info.value) and info.value.loc.line == 5


def test_forget_check_needs_an_inherited_rule(tmp_path):
    with pytest.raises(RulesSemanticError) as info:
        game_of("extends chess\nforget check\n", tmp_path)
    assert "nothing of it was inherited" in str(info.value)
