"""End conditions on any piece in a zone: ``pieces_in``, ``enemy_pieces_in`` and their ``safe_`` forms.

Each expectation is counted from the position by hand: the pieces of a side
on its own cells of the zone, of the kinds named (any kind without one),
and for the ``safe_`` forms only those no enemy piece attacks.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.documentation.english import English
from interpreter.engine.outcome import EndContext, outcome
from interpreter.loading import compile_variant, position_from_fen

GAME = """
variant zones { title "Zones" }
board {
  grid 5 x 5
  zone far { white: rank 5  black: rank 1 }
  zone centre: c3
}
armies {
  army white { letters upper  forward n }
  army black { letters lower  forward s }
  turn white, black
}
piece Pawn { letter P  value 1  betza "mfWfF" }
piece Rook { letter R  value 5  betza "R" }
rules {
  end through "a pawn broke through" when enemy_pieces_in(far, Pawn) > 0: loss
  end held "holding the far rank" when safe_pieces_in(far, Rook) > 0: win
  end no_moves "no legal move" when legal_moves == 0: loss
}
setup fen "ppppp/5/5/5/PPPPP w - - 0 1"
"""


def game_of(text: str, tmp_path):
    path = tmp_path / "variant.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


@pytest.fixture
def game(tmp_path):
    return game_of(GAME, tmp_path)


def counts(pos, *kinds: str) -> tuple[int, int, int, int]:
    """(pieces_in, enemy_pieces_in, safe_pieces_in, enemy_safe_pieces_in) of zone ``far``."""
    ctx = EndContext(pos)
    codes = [pos.game.kind_index[k] for k in kinds]
    return (ctx.pieces_in("far", *codes), ctx.enemy_pieces_in("far", *codes),
            ctx.safe_pieces_in("far", *codes), ctx.enemy_safe_pieces_in("far", *codes))


def test_each_side_is_counted_on_its_own_cells_of_the_zone(game):
    # White's far cells are rank 5, Black's rank 1. White: P a5, R e5 (in its zone), P b1 (not);
    # Black: p c1, r e1 (in its zone). The rooks attack each other along the e-file; nothing attacks
    # a5 or c1 (White's pawn on b1 attacks a2 and c2).
    pos = position_from_fen(game, "P3R/5/5/5/1Pp1r b - - 0 1")
    assert counts(pos) == (2, 2, 1, 1)             # Black to move: c1, e1; White's a5, e5
    assert counts(pos, "Pawn") == (1, 1, 1, 1)
    assert counts(pos, "Rook") == (1, 1, 0, 0)
    assert counts(pos, "Pawn", "Rook") == (2, 2, 1, 1)


def test_a_safe_piece_is_one_no_enemy_piece_attacks(game):
    # The black pawn on d4 attacks c3 and e3, not e5; the black rook on e2 attacks e5.
    pos = position_from_fen(game, "4R/3p1/5/4r/5 b - - 0 1")
    assert counts(pos, "Rook") == (0, 1, 0, 0)
    # On a1 the black rook attacks neither e5 nor is attacked by the rook on e5.
    safe = position_from_fen(game, "4R/3p1/5/5/r4 b - - 0 1")
    assert counts(safe, "Rook") == (1, 1, 1, 1)


def test_the_end_rules_read_the_counts(game):
    through = position_from_fen(game, "P4/5/5/5/5 b - - 0 1")       # White's pawn reached a5
    result = outcome(through)
    assert result is not None and result.rule == "through" and result.result == "loss"
    assert through.legal_moves() == []                               # an immediate rule: no moves
    held = position_from_fen(game, "4R/5/5/p4/5 w - - 0 1")          # White's rook on e5, unattacked
    assert outcome(held).rule == "held" and outcome(held).result == "win"
    attacked = position_from_fen(game, "4R/5/5/5/4r w - - 0 1")       # the black rook on e1 attacks it
    assert outcome(attacked) is None


def test_a_game_of_pawns_racing_to_the_far_rank_plays_to_its_end(game):
    from interpreter.loading import start_position
    import random
    rng = random.Random(7)
    pos = start_position(game)
    while outcome(pos) is None:
        pos.push(rng.choice(pos.legal_moves()))
    assert outcome(pos).rule in ("through", "no_moves")


@pytest.mark.parametrize("condition, message", [
    ("pieces_in(farr) > 0", "unknown zone"),
    ("pieces_in(far, Pwn) > 0", "unknown piece"),
    ("pieces_in() > 0", "takes a zone name, then piece names"),
    ("pieces_in(far, 3) > 0", "takes a zone name, then piece names"),
    ("pieces_in(far, Pawn, Pawn) > 0", "names a piece twice"),
])
def test_bad_calls_are_located_errors(tmp_path, condition, message):
    text = GAME.replace("rules {", f"rules {{\n  end bad when {condition}: win", 1)
    with pytest.raises(RulesSemanticError) as info:
        game_of(text, tmp_path)
    assert message in str(info.value)
    assert info.value.loc is not None


def test_the_rule_pages_say_it_in_english(tmp_path):
    spec = load_spec_text(GAME, str(tmp_path / "variant.rules"))
    text = English(spec).render(spec.rules.ends[0].condition)
    assert text.startswith("an enemy army has a Pawn standing on rank 5")
    held = English(spec).render(spec.rules.ends[1].condition)
    assert held.startswith("the side to move has a Rook standing on rank 5") and "that no enemy piece attacks" in held
    count = English(spec).value(load_spec_text(GAME.replace("> 0: loss", ">= 2: loss"), "v.rules").rules.ends[0]
                                .condition.left)
    assert count.startswith("the number of Pawns of the enemy armies on rank 5")


# Dobutsu shogi's try, in the bundled file: (FEN, the rule that ends the game or None, its result for
# the side to move). A lion on a4 is attacked only from a3, b3 and b4.
TRIES = [
    ("L1l/3/3/3[] b - - 0 1", "enemy_try", "loss"),         # White's lion reached a4; nothing attacks it
    ("Ll1/3/3/3[] b - - 0 1", None, None),                  # Black's lion on b4 attacks it: play goes on
    ("L2/3/1l1/3[] w - - 0 1", "try", "win"),               # White to move, and still nothing attacks it
    ("L2/l2/3/3[] w - - 0 1", None, None),                  # White to move, but Black's lion on a3 attacks it
    ("L2/3/3/2l[] w - - 0 1", "both_tries", "draw"),        # both lions stand safe on their far ranks
]


@pytest.mark.parametrize("fen, rule, result", TRIES)
def test_the_dobutsu_try(fen, rule, result):
    from interpreter.loading import load_game
    pos = position_from_fen(load_game("dobutsu"), fen)
    end = outcome(pos)
    assert (end.rule, end.result) == (rule, result) if rule else end is None
    sf = pytest.importorskip("pyffish")
    over, value = sf.is_immediate_game_end("dobutsu", fen, [])
    assert over == (rule is not None)
    if over:
        assert (value > 0) - (value < 0) == {"win": 1, "loss": -1, "draw": 0}[result]
