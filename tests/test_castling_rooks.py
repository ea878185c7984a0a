"""Castling with several kinds of rook: ``rook Rook | Chancellor`` (Perfect Chess castles with the
h-file rook or the a-file chancellor). Either kind castles; ``KQkq`` names the outermost piece of
either kind on that side, looking no further out than the setup's rook there (Shako); moving
either ends its right; an unknown kind is a located error."""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from dsl.errors import PositionError
from interpreter.documentation.english import English
from interpreter.loading import compile_variant, load_game, position_from_fen
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san

FEN = "c3k2r/pppppppp/8/8/8/8/PPPPPPPP/C3K2R w KQkq - 0 1"


def test_the_king_castles_with_either_kind():
    pos = position_from_fen(load_game("perfect"), FEN)
    castles = sorted(move_to_san(pos, m) for m in pos.legal_moves() if m[3] and m[3][0] == "castle")
    assert castles == ["O-O", "O-O-O"]
    pos.push(parse_move(pos, "O-O-O"))
    assert to_fen(pos).split()[:3] == ["c3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KC3R", "b", "kq"]


def test_moving_the_chancellor_ends_its_right_only():
    pos = position_from_fen(load_game("perfect"), FEN)
    pos.push(parse_move(pos, "Cb1"))
    assert to_fen(pos).split()[2] == "Kkq"


def test_kq_names_the_outermost_of_either_kind():
    """With a rook on b1 and the chancellor on a1, Q is the chancellor's: the rook stands in its way."""
    pos = position_from_fen(load_game("perfect"), "4k3/8/8/8/8/8/8/CR2K3 w Q - 0 1")
    assert not [m for m in pos.legal_moves() if m[3] and m[3][0] == "castle"]
    assert to_fen(pos).split()[2] == "Q"


def test_the_rule_page_names_both_kinds():
    spec = load_game("perfect").spec
    assert "castles with a Rook or a Chancellor" in English(spec).render(spec.castling)


def test_an_unknown_rook_kind_is_a_located_error(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('variant bad { title "Bad" }\nextends chess\ncastling {\n  king King, rook Rook | Chancelor\n'
                    '  castle short "O-O": king to file g, rook to file f, side e\n}\n')
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text(path.read_text(), str(path)))
    assert "unknown piece 'Chancelor'" in str(err.value)
    assert (err.value.loc.line, err.value.loc.column) == (4, 26)


def test_k_looks_no_further_out_than_the_setups_rook():
    """Shako's rooks start on b and i: ``K`` is the first rook from the i-file inward (the j-file rook
    stays), ``q`` the first from the b-file (the a-file rook stays), as Fairy-Stockfish reads them;
    writing the position gives the same letters back."""
    fen = "10/rr3k4/ppppp5/10/10/10/10/6PPPP/5K2RR/10 w Kq - 0 1"
    pos = position_from_fen(load_game("shako"), fen)
    assert to_fen(pos) == fen
    pos.push(parse_move(pos, "O-O"))
    assert to_fen(pos).split()[0].endswith("/6RK1R/10")
    pos.push(parse_move(pos, "O-O-O"))
    assert to_fen(pos).split()[0].startswith("10/r2kr5/")


def test_a_rook_beyond_the_setups_rook_needs_its_file_letter():
    game = load_game("shako")
    with pytest.raises(PositionError):
        position_from_fen(game, "10/5k4/10/10/10/10/10/10/5K3R/10 w K - 0 1")
    pos = position_from_fen(game, "10/5k4/10/10/10/10/10/10/5K3R/10 w J - 0 1")
    assert to_fen(pos).split()[2] == "J"
