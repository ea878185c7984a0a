"""``forbid royal-escape`` (Makpong): a royal piece in check may not move, except to capture the
piece giving check when it is the only one. The positions are those where Fairy-Stockfish's
makpong and makruk differ; its legal moves there are the expected sets."""

from __future__ import annotations

import pytest

from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, position_from_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_uci


def _moves(variant: str, fen: str) -> set[str]:
    pos = position_from_fen(load_game(variant), fen)
    return {move_to_uci(pos, m) for m in pos.legal_moves()}


@pytest.mark.parametrize("fen, makpong, makruk", [
    # a rook checks along the d-file: the king may not step aside, the a2 rook must block
    ("3rk3/8/8/8/8/8/R7/3K4 w - - 0 1", {"a2d2"}, {"a2d2", "d1c1", "d1c2", "d1e1", "d1e2"}),
    # the checking rook stands next to the king: taking it is the one king move left
    ("4k3/8/8/8/8/8/3r4/3K4 w - - 0 1", {"d1d2"}, {"d1c1", "d1d2", "d1e1"}),
    # a knight guards the checking rook: no move at all, so checkmate
    ("4k3/8/8/8/8/4n3/3r4/3K4 w - - 0 1", set(), {"d1c1", "d1d2", "d1e1"}),
    # not in check: the king moves as in makruk
    ("4k3/8/8/8/8/8/2r5/3K4 w - - 0 1", {"d1c2", "d1e1"}, {"d1c2", "d1e1"}),
])
def test_a_king_in_check_may_only_take_a_lone_checker(fen, makpong, makruk):
    assert _moves("makpong", fen) == makpong
    assert _moves("makruk", fen) == makruk


def test_under_a_double_check_the_king_may_not_move():
    """The rook on d2 and the knight on e3 both check: taking the rook would still not be allowed."""
    fen = "4k3/8/8/8/8/8/3r1n2/3K4 w - - 0 1"   # f2 knight checks d1, d2 rook checks d1
    assert _moves("makruk", fen) & {"d1d2", "d1c1"}
    assert not _moves("makpong", fen)


def test_the_mate_ends_the_game_and_the_refusal_is_explained():
    game = load_game("makpong")
    pos = position_from_fen(game, "4k3/8/8/8/8/4n3/3r4/3K4 w - - 0 1")
    assert outcome(pos).rule == "checkmate"
    pos = position_from_fen(game, "3rk3/8/8/8/8/8/R7/3K4 w - - 0 1")
    with pytest.raises(Exception) as err:
        parse_move(pos, "Kc2")
    assert "may only capture the single piece giving it" in str(err.value)
