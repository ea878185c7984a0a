"""Gating (``gate PIECE, ... in TERM`` in the drops block), on the bundled Seirawan chess.

Fairy-Stockfish's numbers for Seirawan chess are in tests/perft/fsf-computed.txt and
the differential test; these tests pin down the rules one by one, each worked out
from the rule text: a piece in hand enters on the cell a piece leaves on its first
move, the gate right dies with the first move from or to the cell, and castling
may gate on the king's or the rook's cell.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san, move_to_uci


@pytest.fixture(scope="module")
def seirawan():
    return load_game("seirawan")


def uci(pos) -> set[str]:
    return {move_to_uci(pos, m) for m in pos.legal_moves()}


def test_a_first_move_off_the_back_rank_may_gate_either_piece(seirawan):
    pos = start_position(seirawan)
    moves = uci(pos)
    # 16 pawn moves and 4 knight moves, and each knight move once more with a hawk and with an elephant.
    assert len(moves) == 20 + 4 * 2
    assert {"g1f3", "g1f3h", "g1f3e"} <= moves and not any(m.startswith("e2") and len(m) == 5 for m in moves)
    pos.push(parse_move(pos, "Nf3/H"))
    assert to_fen(pos) == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBHR[Ehe] b KQBCDFkqbcdfg - 1 1"
    assert move_to_san(pos, pos.pop()) == "Nf3/H"


def test_the_gate_right_is_gone_after_the_first_move(seirawan):
    pos = start_position(seirawan)
    for text in ("Nc3", "Nc6", "Nb1", "Nb8"):
        pos.push(parse_move(pos, text))
    moves = uci(pos)
    assert "b1c3" in moves and "b1c3h" not in moves and "g1f3h" in moves
    assert to_fen(pos).split()[2] == "KQCDFGkqcdfg"


def test_castling_gates_on_the_king_or_the_rook_cell(seirawan):
    pos = position_from_fen(seirawan, "4k3/8/8/8/8/8/8/4K2R[H] w K - 0 1")
    castle = {m: move_to_san(pos, parse_move(pos, m)) for m in ("e1g1", "e1g1h", "h1e1h")}
    assert castle == {"e1g1": "O-O", "e1g1h": "O-O/He1", "h1e1h": "O-O/Hh1"}
    pos.push(parse_move(pos, "O-O/Hh1"))
    assert to_fen(pos) == "4k3/8/8/8/8/8/8/5RKH[] b - - 1 1"


def test_a_gated_piece_can_block_a_check(seirawan):
    # The rook on a1 checks the king on e1 along the first rank. f1 stays on that line unless a
    # piece enters on e1 as the king leaves it; d1 is between the rook and e1.
    pos = position_from_fen(seirawan, "4k3/8/8/8/8/8/8/r3K3[H] w E - 0 1")
    assert pos.in_check()
    assert uci(pos) == {"e1d2", "e1e2", "e1f2", "e1d2h", "e1e2h", "e1f2h", "e1f1h"}


def test_gate_rights_are_written_only_while_a_piece_may_enter(seirawan):
    pos = position_from_fen(seirawan, "4k3/8/8/8/8/8/8/1N2K3[] w BE - 0 1")
    assert to_fen(pos).split()[2] == "-"
    assert "b1c3h" not in uci(pos)
    held = position_from_fen(seirawan, "4k3/8/8/8/8/8/8/1N2K3[H] w BE - 0 1")
    assert to_fen(held).split()[2] == "BE" and "b1c3h" in uci(held)


def test_a_gate_names_known_pieces(tmp_path):
    text = "extends chess\ndrops {\n  gate Knight, Wizard in rank 1\n}\n"
    path = tmp_path / "v.rules"
    path.write_text(text)
    with pytest.raises(RulesSemanticError) as info:
        compile_variant(load_spec_text(text, str(path)))
    assert "Wizard" in str(info.value) and info.value.loc.line == 3


def test_drops_and_gating_compose():
    # S-House: a captured elephant (a piece the setup holds in hand, not one that exists only by
    # promotion) joins the capturer's hand as an elephant, and may then be dropped or gated.
    shouse = load_game("shouse")
    pos = position_from_fen(shouse, "4k3/8/8/8/e7/8/8/RN2K3[] w B - 0 1")
    pos.push(parse_move(pos, "Rxa4"))
    assert to_fen(pos) == "4k3/8/8/8/R7/8/8/1N2K3[E] b B - 0 1"   # holding a piece, the gate right is written
    pos.push(parse_move(pos, "Kd7"))
    moves = uci(pos)
    assert {"E@h8", "b1c3e"} <= moves and to_fen(pos).split()[2] == "B"
