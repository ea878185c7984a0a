"""Drop limits by count: ``at most N on file`` and ``at most N in TERM``.

The expected drops are worked out from the rule's words: the empty cells,
less the files (or the cells of TERM) where the dropping army already has N
pieces of the dropped kind; promoted pieces are another kind and do not count.
"""

from __future__ import annotations

from dsl import load_spec_text
from interpreter.documentation.english import English
from interpreter.loading import compile_variant, position_from_fen

try:
    from test_drop_conditions import dropped, game_of
except ImportError:  # tests/ imported as a package
    from tests.test_drop_conditions import dropped, game_of

BASE = """
variant limits { title "Limits" }
extends chess
board { zone middle: ranks 3..6 }
drops {
  captures to hand
  drop Pawn: not in rank 1, not in rank 8, at most 2 on file
  drop Knight: at most 1 in zone middle
  drop Bishop: at most 2 on file, at most 1 in rank 4
}
"""


def empty(pos, ranks=range(1, 9)) -> set[str]:
    g = pos.game
    return {g.board.names[c] for c in range(g.n) if not pos.board[c] and int(g.board.names[c][1:]) in ranks}


def test_a_file_holding_n_own_pieces_of_the_kind_takes_no_more(tmp_path):
    game = game_of(BASE, tmp_path)
    # White pawns: two on the a-file, one on the e-file; a black pawn on b5 does not count.
    pos = position_from_fen(game, "4k3/8/8/1p6/8/P7/P3P3/4K3[P] w - - 0 1")
    expected = {c for c in empty(pos, range(2, 8)) if c[0] != "a"}
    assert dropped(pos, "P") == expected
    black = position_from_fen(game, "4k3/p7/p7/8/8/8/8/4K3[p] b - - 0 1")
    assert {c[0] for c in dropped(black, "P")} == set("bcdefgh")


def test_a_zone_limit_bars_only_the_cells_of_the_zone(tmp_path):
    game = game_of(BASE, tmp_path)
    none_yet = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    assert dropped(none_yet, "N") == empty(none_yet)
    one = position_from_fen(game, "4k3/8/8/8/3N4/8/8/4K3[N] w - - 0 1")
    assert dropped(one, "N") == empty(one, (1, 2, 7, 8))
    outside = position_from_fen(game, "4k3/8/8/8/8/8/3N4/4K3[N] w - - 0 1")    # d2 is not in the zone
    assert dropped(outside, "N") == empty(outside)


def test_limits_of_one_rule_add_up(tmp_path):
    game = game_of(BASE, tmp_path)
    # Bishops on c4 (rank 4) and c7: the c-file is full, and rank 4 too.
    pos = position_from_fen(game, "4k3/2B5/8/8/2B5/8/8/4K3[B] w - - 0 1")
    assert dropped(pos, "B") == {c for c in empty(pos) if c[0] != "c" and c[1:] != "4"}


def test_a_promoted_piece_is_not_counted():
    # Tori shogi style: shogi's pawns, at most two unpromoted on a file; a tokin does not count.
    text = load_spec_text(
        'variant t { title "T" }\nextends shogi\ndrops {\n  captures to hand demoted\n'
        '  drop Pawn: not in zone last_rank, at most 2 on file\n}\n', "t.rules")
    game = compile_variant(text)
    pos = position_from_fen(game, "4k4/9/9/9/9/9/P8/P8/4K3+P[P] w - - 0 1")
    files = {c[0] for c in dropped(pos, "P")}
    assert "a" not in files and "i" in files


def test_the_rule_pages_say_it(tmp_path):
    spec = load_spec_text(BASE, str(tmp_path / "v.rules"))
    words = English(spec)
    pawn, knight, bishop = spec.drops.drops
    assert "but not on a file where its army already has 2 pieces of that kind" in words.render(pawn)
    assert "while its army already has 1 piece of that kind there" in words.render(knight)
    assert ", nor on rank 4 while its army already has 1 piece of that kind there" in words.render(bishop)
