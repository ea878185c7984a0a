"""Drop conditions (``drop PIECE: if EXPR``) and the piece counts ``count(P)`` / ``enemy_count(P)``.

Each test states the expected drops from the rules alone: the empty cells
of the board, narrowed by the condition as the reference words it.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.engine.moves import DROP
from interpreter.engine.outcome import outcome
from interpreter.loading import compile_variant, position_from_fen

BASE = """
extends crazyhouse
drops {
  captures to hand
  drop Pawn: if to.rank != 1 and to.rank != 8 and to.file != 1
  drop Knight: if not in_check
  drop Bishop: if count(Bishop) < 2 or enemy_count(Queen) > 0
  drop Rook: if army == "white" and to.colour == "dark"
  drop Queen
}
"""


def game_of(text: str, tmp_path):
    path = tmp_path / "variant.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


def dropped(pos, letter: str) -> set[str]:
    """The cells a piece of this letter may be dropped on, among the legal moves."""
    g = pos.game
    return {g.board.names[m[1]] for m in pos.legal_moves()
            if m[3] is DROP and g.kinds[g.code_kind[m[2]]].letter == letter}


def empty_cells(pos) -> set[str]:
    return {pos.game.board.names[c] for c in range(pos.game.n) if not pos.board[c]}


def test_a_condition_on_the_cell_narrows_where_a_piece_drops(tmp_path):
    game = game_of(BASE, tmp_path)
    pos = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[PRNr] w - - 0 1")
    expected = {c for c in empty_cells(pos) if c[1:] not in ("1", "8") and c[0] != "a"}
    assert dropped(pos, "P") == expected and len(expected) == 42
    # The rook: White only, dark cells only (a1 is dark: file + rank even).
    dark = {c for c in empty_cells(pos) if (ord(c[0]) - ord("a") + 1 + int(c[1:])) % 2 == 0}
    assert dropped(pos, "R") == dark and len(dark) == 31    # e1 is dark and taken by the king
    black = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[PRNr] b - - 0 1")
    assert dropped(black, "R") == set()


def test_a_condition_on_the_position_is_asked_for_each_drop(tmp_path):
    game = game_of(BASE, tmp_path)
    quiet = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert dropped(quiet, "N") == empty_cells(quiet)
    checked = position_from_fen(game, "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1")
    assert dropped(checked, "N") == set()     # in check: the knight may not be dropped, even to block


def test_counts_include_the_board_and_the_hand(tmp_path):
    game = game_of(BASE, tmp_path)
    one = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[B] w - - 0 1")
    assert len(dropped(one, "B")) == 62
    two_in_hand = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[BB] w - - 0 1")
    assert dropped(two_in_hand, "B") == set()
    one_on_board = position_from_fen(game, "4k3/8/8/8/8/8/8/B3K3[B] w - - 0 1")
    assert dropped(one_on_board, "B") == set()
    enemy_queen = position_from_fen(game, "4k3/8/8/8/8/8/8/B3K3[Bq] w - - 0 1")   # the queen in Black's hand counts
    assert len(dropped(enemy_queen, "B")) == 61


@pytest.mark.parametrize("condition, message", [
    ("if from.rank == 2", "no start cell"),
    ("if count(Queen, Rook) > 1", "takes one piece"),
    ("if count(Quen) > 1", "unknown piece"),
    ("if in_check == 3", "cannot compare"),
    ("if legal_moves > 3", "unknown name"),
    ("at most 0 on file", "allows no Pawn drop"),             # the limits of tests/test_drop_limits.py
    ("at most 2 in zone nowhere", "unknown zone"),
])
def test_bad_drop_conditions_are_located_errors(tmp_path, condition, message):
    text = f"extends crazyhouse\ndrops {{\n  drop Pawn: {condition}\n}}\n"
    with pytest.raises(RulesSemanticError) as info:
        game_of(text, tmp_path)
    assert message in str(info.value)
    assert info.value.loc is not None and info.value.loc.line == 3


EXTINCTION = """
extends chess
forget end checkmate
forget end stalemate
forget forbid self-check
piece King { letter K  betza "K" }
rules {
  end enemy_extinct "an enemy kind of piece lost" when enemy_count(Queen) == 0 or enemy_count(King) == 0: win
  end extinct "a kind of piece lost" when count(Queen) == 0 or count(King) == 0: loss
  end stalemate when legal_moves == 0: draw
}
"""


def test_count_ends_the_game_at_once(tmp_path):
    game = game_of(EXTINCTION, tmp_path)
    # Black to move, without a queen: Black has lost (checked first: White still has both kinds).
    pos = position_from_fen(game, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    result = outcome(pos)
    assert result.rule == "extinct" and result.winners == (0,)
    assert pos.legal_moves() == []            # an immediate end: no moves left to count
    # White to move after losing its own queen somehow: the enemy rule is asked first.
    both = position_from_fen(game, "3qk3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert outcome(both).rule == "extinct"
    gone = position_from_fen(game, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert outcome(gone).rule == "enemy_extinct" and outcome(gone).winners == (0,)
