"""Moves allowed only out of check (``if not in_check``) and first moves lost to an aim
(``unmoved lost when aimed by KINDS``): what the engine generates, what FEN and the hash say, and
what unmake restores; against Fairy-Stockfish's Cambodian chess where pyffish is installed."""

from __future__ import annotations

import pytest

from dsl import load_spec_text
from interpreter.loading import compile_variant, load_game, position_from_fen
from interpreter.notation.fen import to_fen
from interpreter.notation.san import move_to_uci

# A king that leaps like a knight to the rank in front of it on its first move, out of check only,
# and loses the leap when an enemy rook lines up with it.
LEAPER = """
variant leaper { title "Leaper" }
extends chess
piece King {
  letter K
  value 0
  royal
  betza "K"
  betza "ifsmN": if not in_check
  unmoved lost when aimed by Rook
}
setup fen "4k3/7r/8/8/8/8/8/3K4 b D - 0 1"
"""


def _game(text: str = LEAPER):
    return compile_variant(load_spec_text(text, "leaper.rules"))


def _uci(pos) -> set[str]:
    return {move_to_uci(pos, m) for m in pos.legal_moves()}


def _play(pos, uci: str) -> None:
    pos.push(next(m for m in pos.legal_moves() if move_to_uci(pos, m) == uci))


def test_the_leap_is_not_made_in_check():
    game = _game()
    free = position_from_fen(game, "4k3/8/8/8/8/8/8/3K4 w D - 0 1")
    assert {"d1b2", "d1f2"} <= _uci(free)
    checked = position_from_fen(game, "4k3/8/8/8/8/4n3/8/3K4 w D - 0 1")
    assert not {"d1b2", "d1f2"} & _uci(checked)
    assert "D" in to_fen(checked).split()[2]   # a check by a knight leaves the right


@pytest.mark.parametrize("move,kept", [("h7d7", False), ("h7h1", False), ("h7g7", True)])
def test_a_rook_lining_up_ends_the_right(move, kept):
    game = _game()
    pos = position_from_fen(game, "4k3/7r/8/8/8/3P4/8/3K4 b D - 0 1")   # d7 aims through the pawn
    before, hash_before = to_fen(pos), pos.hash
    _play(pos, move)
    rights = to_fen(pos).split()[2]
    assert (rights == "D") == kept, to_fen(pos)
    assert position_from_fen(game, to_fen(pos)).hash == pos.hash   # equal positions, equal hashes
    assert ({"d1b2", "d1f2"} <= _uci(pos)) == kept
    pos.pop()
    assert (to_fen(pos), pos.hash) == (before, hash_before)


def test_only_enemy_aims_count():
    game = _game()
    pos = position_from_fen(game, "4k3/8/8/8/8/8/7R/3K4 w D - 0 1")
    _play(pos, "h2d2")   # its own rook: the king keeps its right
    assert to_fen(pos).split()[2] == "D"


def test_fen_reads_a_zero_en_passant_field_as_none():
    """Fairy-Stockfish writes its counting limit where the en passant cell stands: 0, none running."""
    game = load_game("cambodian")
    pos = position_from_fen(game, "r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe 0 0 5")
    assert to_fen(pos) == "r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe - 0 5"


CAMBODIAN_CASES = [
    ("4k3/7r/8/8/8/8/8/3K4 b D - 0 1", ["h7d7"]),
    ("4k3/7r/8/8/8/8/8/3K4 b D - 0 1", ["h7g7"]),
    ("4k3/7r/8/8/8/8/3P4/3K4 b D - 0 1", ["h7d7"]),
    ("3mk3/7r/8/8/8/8/8/3KM3 b DEde - 0 1", ["h7e7"]),
    ("1nsmksn1/r6r/pppppppp/8/8/PPPPPPPP/R6R/1NSKMSN1 w DEde - 0 1", ["a2d2", "h7d7"]),
    ("rnsmksnr/8/pppppppp/8/8/PPPPnPPP/8/RNSKMSNR w DEde - 0 1", []),
]


@pytest.mark.parametrize("fen,moves", CAMBODIAN_CASES)
def test_cambodian_against_fairy_stockfish(fen, moves):
    sf = pytest.importorskip("pyffish")
    game = load_game("cambodian")
    pos = position_from_fen(game, fen)
    for uci in moves:
        _play(pos, uci)
    theirs = sf.get_fen("cambodian", fen, moves).split()
    assert to_fen(pos).split()[:3] == theirs[:3]
    assert _uci(pos) == set(sf.legal_moves("cambodian", fen, moves))
