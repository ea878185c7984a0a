"""Promotion as a move of its own (``promotes in TERM to P: in place [or quiet move]``, with ``not
attacking``, ``not giving check`` and ``if EXPR``): the moves generated, their notation, make and
unmake, located errors; against Fairy-Stockfish's Sittuyin where pyffish is installed."""

from __future__ import annotations

import random

import pytest

from dsl import RulesSemanticError, UnsupportedError, load_spec_text
from interpreter.engine.outcome import outcome
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san, move_to_uci

# Chess whose pawns become a queen in place (or with one quiet queen move) on the sixth rank,
# while no queen of theirs stands on the board, attacking nothing and checking nobody.
IN_PLACE = """
variant inplace { title "In place" }
extends chess
board { zone sixth { white: rank 6  black: rank 3 } }
piece Pawn {
  letter P
  value 1
  betza "fmW"
  betza "fcF"
  promotes in zone sixth to Queen: in place OPTIONS
}
"""


def _game(options: str = "", extra: str = ""):
    return compile_variant(load_spec_text(IN_PLACE.replace("OPTIONS", options) + extra, "inplace.rules"))


def _promotions(pos) -> list[str]:
    legal = pos.legal_moves()
    return sorted(move_to_uci(pos, m, legal) for m in legal if m[3] is not None and m[3][0] == "promote")


def test_in_place_and_with_a_quiet_move():
    pos = position_from_fen(_game(), "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1")
    assert _promotions(pos) == ["d6d6q"]
    pos = position_from_fen(_game("or quiet move"), "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1")
    found = _promotions(pos)
    assert "d6d6q" in found and "d6a3q" in found and "d6d8q" in found
    assert all(m[-1] == "q" for m in found)
    # The pawn's own moves are unchanged, and arriving on the sixth rank does not promote.
    pos = position_from_fen(_game(), "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1")
    assert "d5d6" in {move_to_uci(pos, m) for m in pos.legal_moves()} and not _promotions(pos)


def test_limit_not_attacking_not_giving_check_and_condition():
    fen = "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1"
    assert _promotions(position_from_fen(_game(", limit Queen to 1"), "4k3/8/3P4/8/8/8/8/Q3K3 w - - 0 1")) == []
    # A queen on d6 would check the king on d8 (and attack it): each test removes that move.
    assert _promotions(position_from_fen(_game(", not giving check"), "3k4/8/3P4/8/8/8/8/4K3 w - - 0 1")) == []
    assert _promotions(position_from_fen(_game(", not attacking"), "3k4/8/3P4/8/8/8/8/4K3 w - - 0 1")) == []
    assert _promotions(position_from_fen(_game(", not attacking"), "k7/8/3P4/8/8/8/8/4K3 w - - 0 1")) == ["d6d6q"]
    assert _promotions(position_from_fen(_game(", not attacking"), "k7/8/3P3n/8/8/8/8/4K3 w - - 0 1")) == []
    # A check uncovered by the promotion counts too: a knight made on d6 may stay, not leave.
    moving = compile_variant(load_spec_text(IN_PLACE.replace("to Queen: in place OPTIONS",
                                                             "to Knight: in place or quiet move, not giving check"),
                                            "inplace.rules"))
    assert _promotions(position_from_fen(moving, "8/8/R2P3k/8/8/8/8/4K3 w - - 0 1")) == ["d6d6n"]
    assert len(_promotions(position_from_fen(moving, "8/8/3P3k/8/8/8/8/4K3 w - - 0 1"))) > 1
    assert _promotions(position_from_fen(_game(", if count(Pawn) == 2"), fen)) == []
    assert _promotions(position_from_fen(_game(", if count(Pawn) == 1"), fen)) == ["d6d6q"]


def test_notation_make_and_unmake():
    game = load_game("sittuyin")
    pos = position_from_fen(game, "1k5K/3r2P1/8/8/8/8/8/8[] w - - 3 1")
    legal = pos.legal_moves()
    forms = {move_to_uci(pos, m, legal): move_to_san(pos, m, legal) for m in legal}
    assert forms["g7g7f"] == "g7=F" and forms["g7f6f"] == "gf6=F" and forms["g7f8f"] == "gf8=F"
    for m in legal:
        for text in (move_to_san(pos, m, legal), move_to_uci(pos, m, legal)):
            assert parse_move(pos, text) == m
    assert parse_move(pos, "g7f6=F") == parse_move(pos, "gf6=F")   # Fairy-Stockfish's SAN reads too
    before, key = to_fen(pos), pos.hash
    for m in legal:
        pos.push(m)
        assert pos.clock == 0 or not m[2]
        pos.pop()
        assert to_fen(pos) == before and pos.hash == key
    pos.push(parse_move(pos, "g7=F"))
    assert to_fen(pos).startswith("1k5K/3r2F1/8/")


@pytest.mark.parametrize("options,message", [
    ("", "'not attacking' is an option of a promotion made as a move of its own"),
    ("optional, in place", "'optional' has no meaning for a promotion 'in place'"),
])
def test_located_errors(options, message):
    text = IN_PLACE.replace(": in place OPTIONS", ": " + (options or "not attacking"))
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text(text, "inplace.rules"))
    assert message in str(err.value)
    assert err.value.loc is not None and err.value.loc.line == 10   # the promotes line


def test_refused_with_stacking():
    text = IN_PLACE.replace("OPTIONS", "") + "stacking { height 2 }\n"
    with pytest.raises(UnsupportedError, match="'in place' with stacking"):
        compile_variant(load_spec_text(text, "inplace.rules"))


def test_sittuyin_against_fairy_stockfish():
    """Seeded random games of Sittuyin (a pawn moved half the time, so that promotions come): at
    every position the legal moves, and after each promotion the position, as Fairy-Stockfish has
    them."""
    sf = pytest.importorskip("pyffish")
    game = load_game("sittuyin")
    rng = random.Random(28)
    promotions = 0
    for _ in range(6):
        pos = start_position(game)
        for _ in range(160):
            if outcome(pos) is not None:
                break
            fen = to_fen(pos)
            legal = pos.legal_moves()
            assert {move_to_uci(pos, m, legal) for m in legal} == set(sf.legal_moves("sittuyin", fen, [])), fen
            pawns = [m for m in legal if m[0] >= 0 and game.kinds[game.code_kind[pos.board[m[0]]]].name == "Pawn"]
            move = rng.choice(pawns) if pawns and rng.random() < 0.5 else rng.choice(legal)
            uci = move_to_uci(pos, move, legal)
            pos.push(move)
            if move[3] is not None and move[3][0] == "promote":
                promotions += 1
                assert to_fen(pos).split()[0] == sf.get_fen("sittuyin", fen, [uci]).split()[0].split("[")[0] + "[]"
    assert promotions > 0


def test_why_a_promotion_is_illegal():
    from dsl.errors import IllegalMoveError

    game = load_game("sittuyin")
    pos = position_from_fen(game, "1k5K/3r2P1/8/8/8/8/F7/8[] w - - 0 1")
    with pytest.raises(IllegalMoveError, match="White has 1 General on the board already"):
        parse_move(pos, "g7=F")
    pos = position_from_fen(game, "1k5K/3r2P1/8/8/8/8/P7/8[] w - - 0 1")
    with pytest.raises(IllegalMoveError, match="no promotion to a General reaches a2"):
        parse_move(pos, "a2=F")
