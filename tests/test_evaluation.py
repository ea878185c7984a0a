"""The generic evaluation of the computer players (interpreter.agents.evaluation and .tables).

Piece values from the rules file or estimated from mobility, goal zones read from end rules,
the terms the ``ai`` block weighs, and the team view of the scores.
"""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, RulesSyntaxError, load_spec_text
from dsl.spec import AI_WEIGHTS
from interpreter.agents import tables
from interpreter.agents.evaluation import (PAIR, ROYAL, THREAT_LESSER, THREAT_PAWN, Evaluation, bound_classes,
                                          evaluation_of)
from interpreter.agents.sides import Sides
from interpreter.loading import compile_variant, load_game, position_from_fen, start_fen, start_position


def _game(text: str):
    return compile_variant(load_spec_text(text, "test.rules"))


def _chess():
    """Chess with every weight 1 (its own ai block forgotten), whose terms are the documented constants."""
    return _game("extends chess\nforget ai\n")


def _value(game, name: str) -> int:
    return tables.piece_values(game)[game.kind_index[name]]


def test_given_values_are_used():
    game = _chess()
    values = {k.name: v for k, v in zip(game.kinds, tables.piece_values(game))}
    assert values == {"King": 0, "Queen": 900, "Rook": 500, "Bishop": 325, "Knight": 325, "Pawn": 100}


def test_a_piece_without_value_is_valued_by_its_mobility():
    # The queen and a wazir lose their values: the estimate comes from what they reach on the
    # empty board, scaled like the game's valued pieces (rook, bishop, knight).
    game = _game('extends chess\npiece Queen { letter Q  betza "Q" }\npiece Wazir { letter W  betza "W" }\n'
                 'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBWR w KQkq - 0 1"')
    queen, wazir = _value(game, "Queen"), _value(game, "Wazir")
    assert _value(game, "Rook") < queen < 1200
    assert 50 < wazir < _value(game, "Knight")


def test_goal_zones_come_from_the_end_rules():
    assert tables.goal_zones(load_game("kingofthehill")) == ["hill"]
    assert tables.goal_zones(load_game("racingkings")) == ["goal"]
    assert tables.goal_zones(load_game("rocket")) == ["cockpit"]
    assert tables.goal_zones(_chess()) == []


def test_a_king_nearer_its_goal_scores_more():
    game = load_game("kingofthehill")
    ev = evaluation_of(game)
    far = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    near = position_from_fen(game, "4k3/8/8/8/8/4K3/8/8 w - - 0 1")
    assert ev.relative(near, 0) > ev.relative(far, 0) + 100
    chess = _chess()
    flat = evaluation_of(chess)
    assert flat.relative(position_from_fen(chess, "4k3/8/8/8/8/4K3/8/8 w - - 0 1"), 0) < 100  # no zone in chess


def test_material_mobility_and_promotion_terms():
    game = _chess()
    ev = evaluation_of(game)
    start = start_position(game)
    assert ev.army_scores(start)[0] == ev.army_scores(start)[1]
    # A knight in the centre beats one in the corner; a pawn on the seventh beats one at home.
    centre = position_from_fen(game, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1")
    corner = position_from_fen(game, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    assert ev.relative(centre, 0) > ev.relative(corner, 0)
    seventh = position_from_fen(game, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    home = position_from_fen(game, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
    assert ev.relative(seventh, 0) > ev.relative(home, 0) + 50


def test_the_ai_block_weighs_the_terms():
    plain = _chess()
    flat = _game("extends chess\nforget ai\nai { weight mobility 0  weight promotion 0 }")
    knight = plain.code(plain.kind_index["Knight"], 0)
    assert len(set(Evaluation(plain).square[knight])) > 1
    assert len(set(Evaluation(flat).square[knight])) == 1
    doubled = _game("extends chess\nforget ai\nai { weight material 2 }")
    assert Evaluation(doubled).values == Evaluation(plain).values   # values stay what captures win
    pos = position_from_fen(doubled, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert Evaluation(doubled).relative(pos, 0) > 1.8 * Evaluation(plain).relative(position_from_fen(plain, pos_fen(pos)), 0)


def pos_fen(pos) -> str:
    from interpreter.notation.fen import to_fen
    return to_fen(pos)


def test_ai_weights_are_inherited_and_replaced_one_by_one(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text("extends chess\nforget ai\nai { weight zone 3  weight hand 2 }\n")
    spec = load_spec_text(f'extends "{base}"\nai {{ weight zone 0.5 }}', str(tmp_path / "child.rules"))
    assert spec.ai.weights == {"zone": 0.5, "hand": 2.0}
    # forget ai drops every inherited weight; a block after it starts afresh.
    spec = load_spec_text(f'extends "{base}"\nforget ai\nai {{ weight hand 0.5 }}', str(tmp_path / "other.rules"))
    assert spec.ai.weights == {"hand": 0.5}
    assert evaluation_of(compile_variant(spec)).weights["zone"] == 1.0
    with pytest.raises(RulesSemanticError, match="cannot forget ai"):
        load_spec_text("extends capablanca\nforget ai\n", str(tmp_path / "none.rules"))


def test_an_unknown_weight_is_a_located_error():
    with pytest.raises(RulesSyntaxError) as err:
        load_spec_text("extends chess\nai { weight mobilty 2 }", "x.rules")
    text = err.value.render()
    assert "x.rules:2:13" in text and "did you mean 'mobility'" in text
    for name in AI_WEIGHTS:
        assert name in text


def test_the_grammar_lists_every_weight():
    from dsl.parser import grammar_parser
    pattern = grammar_parser().get_terminal("AI_TERM").pattern.value
    assert {w for w in AI_WEIGHTS} == set(pattern.strip("(?:)").split("|"))


def test_losing_every_piece_as_the_goal_turns_material_around():
    game = load_game("antichess")
    ev = evaluation_of(game)
    more = position_from_fen(game, "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1")
    fewer = position_from_fen(game, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
    assert ev.relative(fewer, 0) > ev.relative(more, 0)


def test_team_scores_and_the_view_of_one_team():
    game = load_game("superchess", "4p")
    sides = Sides(game)
    assert sides.count == 2 and sides.teams == [(0, 2), (1, 3)] and sides.turn_team == [0, 1, 0, 1]
    ev = evaluation_of(game)
    start = start_position(game)
    assert ev.relative(start, 0) == 0 == ev.relative(start, 1)
    # Without White's queen the light team is behind, the dark team ahead by as much.
    from interpreter.notation.fen import to_fen
    fen = to_fen(start)
    fewer = position_from_fen(game, fen.replace("wQ,", "1,", 1) if "wQ," in fen else fen)
    assert ev.relative(fewer, 0) < 0 < ev.relative(fewer, 1)
    assert ev.relative(fewer, 0) == -ev.relative(fewer, 1)


def test_free_for_all_sides(tmp_path):
    # Four armies without teams: each its own team; the paranoid view sets one against the rest.
    path = tmp_path / "ffa.rules"
    text = (open("tests/fixtures/four_armies.rules").read().replace("  team light: white, tan\n", "")
            .replace("  team dark: black, brown\n", "").replace("forbid partner-check", ""))
    path.write_text(text)
    game = load_game(str(path))
    sides = Sides(game)
    assert sides.count == 4 and sides.side_of_turn(2) == [1, 1, 0, 1]


def test_the_documentation_names_every_weight():
    from interpreter.documentation.english import English
    from interpreter.documentation.phrases import AI_TERMS
    assert set(AI_TERMS) == set(AI_WEIGHTS)
    spec = load_spec_text("extends chess\nai { weight zone 3 }", "x.rules")
    sections = dict(English(spec).sections())
    assert "goal zones by 3" in sections["Computer players"][0]


def test_a_royal_piece_with_attackers_on_its_ring_costs_its_army():
    """Three white pieces (queen, bishop, rook) bear on the ring of Black's king on g8, which three
    pawns defend: Black loses SAFETY[3], 3/16 less, scaled by White's material left; White's king, with no black piece near, loses nothing. Pawns never count as attackers,
    and weight 0 (or a game without royal pieces) leaves the term out."""
    from interpreter.agents.evaluation import SAFETY
    game = _chess()
    ev = Evaluation(game, {"shelter": 0})
    pos = position_from_fen(game, "6k1/5ppp/8/8/8/2Q5/1B6/K5R1 w - - 0 1")
    sums = ev.terms.sums(pos)
    penalty = SAFETY[3] * 13 * sums[game.army_sets + 0] // (16 * ev.start_material[0])
    assert ev.terms.danger(pos, sums) == [0, penalty]
    off = Evaluation(game, {"safety": 0, "shelter": 0})
    assert not off.terms.ring and off.relative(pos, 0) == ev.relative(pos, 0) - penalty
    # Pawns bearing on the ring are not attackers: a white pawn storm on f6/h6 alone costs nothing.
    storm = position_from_fen(game, "6k1/8/5P1P/8/8/8/8/K7 w - - 0 1")
    assert ev.terms.danger(storm, ev.terms.sums(storm)) == [0, 0]
    assert not evaluation_of(load_game("antichess")).terms.ring


def test_a_royal_piece_far_from_the_centre_behind_its_pawns_is_sheltered():
    """The shelter term alone: a chess king is worth more on g1 than on e1, and more on e1 than
    on e2 (its mean distance to the board's cells, in king moves); each pawn of its army on its
    ring adds SHELTER, up to SHIELD of them (a fourth, an enemy pawn, a piece add nothing); all
    scaled by the enemies' material left. A Xiangqi general, which cannot leave its palace, and
    a king that must reach the hill have no distance part; weight 0 leaves the term out."""
    from interpreter.agents.evaluation import SHELTER, SHIELD
    game = _chess()
    ev = Evaluation(game, {"safety": 0})
    n, king = game.n, game.board.index
    code = next(c for c in range(1, game.ncodes) if game.is_royal[c] and game.code_army[c] == 0)
    cover = [ev.terms.cover[code * n + king[c]] for c in ("g1", "e1", "e2", "d4")]
    assert cover == sorted(cover, reverse=True) and cover[0] - cover[1] >= 15 and cover[3] < 0
    pos = position_from_fen(game, "rnbq1rk1/8/8/8/8/8/4PPPP/6K1 w - - 0 1")   # e2 is not on g1's ring
    sums = ev.terms.sums(pos)
    own = -(cover[0] + SHIELD * SHELTER) * sums[game.army_sets + 1] // ev.start_material[1]
    assert SHIELD == 3 and ev.terms.danger(pos, sums)[0] == own
    bare = position_from_fen(game, "rnbq1rk1/8/8/8/8/8/4Np1N/6K1 w - - 0 1")
    bare_sums = ev.terms.sums(bare)
    assert ev.terms.danger(bare, bare_sums)[0] == -cover[0] * bare_sums[game.army_sets + 1] // ev.start_material[1]
    assert ev.relative(bare, 0) < ev.relative(pos, 0)
    assert not Evaluation(game, {"shelter": 0}).terms.has_shelter
    for confined in ("xiangqi", "kingofthehill"):       # a palace; a goal zone the king must go to
        terms = evaluation_of(load_game(confined)).terms
        assert terms.has_shelter and not any(terms.cover) and any(terms.shield), confined


def test_a_king_that_may_castle_is_as_sheltered_as_where_castling_takes_it():
    """The shield counts the pawns on the ring of the cell a castling would take the king to, while
    king and rook may still castle there: with both castlings, 1. e4 and 1. d4 cost the shelter
    nothing (f2, g2, h2 stand); once the rights are gone the king on e1 counts its own ring; with the
    long castling alone, the ring of c1. Games without castling have no routes."""
    from interpreter.agents.evaluation import SHELTER
    game = _chess()
    ev = Evaluation(game, {"safety": 0})
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    moved = "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR"

    def shelter(board: str, rights: str) -> int:
        pos = position_from_fen(game, f"{board} w {rights} - 0 1")
        return ev.terms.danger(pos, ev.terms.sums(pos))[0]

    assert shelter(moved, "KQkq") == shelter(start, "KQkq") == shelter(start, "-")
    assert shelter(moved, "-") - shelter(start, "-") == 2 * SHELTER      # d2 and e2 were on e1's ring
    assert shelter(moved, "Qkq") - shelter(moved, "KQkq") == SHELTER       # c1's ring keeps b2 and c2 alone
    assert shelter(moved.replace("PPP2PPP", "2P2PPP"), "Qkq") == shelter(moved, "-")
    assert not any(evaluation_of(load_game("shogi")).terms.routes)


def test_activity_counts_the_cells_a_piece_reaches_that_no_enemy_pawn_attacks():
    """The activity term: a rook on a1 beside its king on e1 reaches ten cells (a2 to a8, b1 to d1).
    A black pawn on b3 attacks a2 and c2: a2 no longer counts, though the rook still sees past it;
    a white pawn there takes nothing off; a black knight on a5 counts as a cell the rook may take,
    unless a black pawn defends it. The first three cells count three times each: a rook shut in
    on a1 by its pawn and king, reaching one cell (b1), counts three. Games with drops count every
    cell."""
    game = _chess()
    ev = Evaluation(game)
    rook = game.code(game.kind_index["Rook"], 0)
    per_cell, baseline = ev.terms.per_cell[rook], ev.terms.baseline[rook]

    def reach(fen: str) -> int:
        pos = position_from_fen(game, fen + " w - - 0 1")
        return ev.terms.activity(pos, ev.terms.sums(pos)[5 * game.army_sets])[0]

    def cells(k: int) -> int:
        return (per_cell * (k + 2 * min(k, 3)) - baseline) // 16

    assert reach("4k3/8/8/8/8/8/8/R3K3") == cells(10)
    assert reach("4k3/8/8/8/8/1p6/8/R3K3") == cells(9)
    assert reach("4k3/8/8/8/8/1P6/8/R3K3") == cells(10)
    assert reach("4k3/8/8/n7/8/8/8/R3K3") == cells(7)          # a2, a3, a4 and the knight; b1 to d1
    assert reach("4k3/8/1p6/n7/8/8/8/R3K3") == cells(6)
    assert reach("4k3/8/8/8/8/8/P7/R1K5") == cells(1) == (3 * per_cell - baseline) // 16
    assert not evaluation_of(load_game("shogi")).terms.pawn_hits


def test_threats_cost_a_piece_attacked_by_a_pawn_or_by_a_piece_of_less_value():
    """The threats term, alone (activity's weight 0): a knight attacked by a pawn costs its army
    THREAT_PAWN; a rook attacked by a knight costs THREAT_LESSER, by a knight and a bishop twice
    that; a queen attacked by a queen, a pawn attacked by a pawn and a king attacked by a knight
    (a check) cost nothing. Weight 0 turns it off."""
    game = _chess()
    ev = Evaluation(game, {"activity": 0})

    def threats(fen: str, terms=ev.terms) -> list[int]:
        pos = position_from_fen(game, fen + " w - - 0 1")
        return terms.activity(pos, terms.sums(pos)[5 * game.army_sets])

    assert threats("4k3/8/8/8/3p4/2N5/8/4K3") == [-THREAT_PAWN, 0]
    assert threats("r3k3/8/1N6/8/8/8/8/4K3") == [0, -THREAT_LESSER]
    assert threats("r3k3/8/1N6/8/8/8/8/4K2B") == [0, -2 * THREAT_LESSER]
    assert threats("3qk3/8/8/8/8/8/8/3QK3") == [0, 0]
    assert threats("4k3/8/3p4/2P5/8/8/8/4K3") == [0, 0]
    assert threats("4k3/8/8/8/8/3n4/8/4K3") == [0, 0]
    assert threats("4k3/8/8/8/3p4/2N5/8/4K3", Evaluation(game, {"activity": 0, "threats": 0}).terms) == [0, 0]


def test_the_bishop_pair_gains_pair_for_bishops_on_both_colours():
    """The pair term, alone: two bishops on different colours gain PAIR for their army, two on
    the same colour and a lone one nothing; a promoted third bishop adds nothing more. Weight 2
    doubles it."""
    game = _chess()
    alone = {name: 0.0 for name in AI_WEIGHTS}

    def pair(fen: str, weight: float = 1.0) -> list[int]:
        terms = Evaluation(game, {**alone, "pair": weight}).terms
        pos = position_from_fen(game, fen + " w - - 0 1")
        return terms.activity(pos, terms.sums(pos)[5 * game.army_sets])

    assert pair("4k3/8/8/8/8/8/8/2B1KB2") == [PAIR, 0]
    assert pair("2b1kb2/8/8/8/8/8/8/2B1K1B1") == [0, PAIR]
    assert pair("4k3/8/8/8/8/8/8/2B1K3") == [0, 0]
    assert pair("4k3/8/8/8/8/8/8/2BBKB2") == [PAIR, 0]
    assert pair("4k3/8/8/8/8/8/8/2B1KB2", 2.0) == [2 * PAIR, 0]


def test_checks_given_count_more_the_fewer_are_left_to_give():
    """The checks term, alone: in Three-check an army that has given c of its three checks gains
    CHECKS * c / (3 - c) (150, then 600); Five-check's five give 75, 200, 450, 1,200; chess, which
    counts none, has no term. Weight 2 doubles it, and the tuner sees it as a term of its own."""
    from interpreter.agents.evaluation import CHECKS
    from interpreter.agents.terms import NAMES, Terms
    alone = {name: 0.0 for name in AI_WEIGHTS}
    three, five = load_game("threecheck"), load_game("fivecheck")
    assert Evaluation(three, {**alone, "checks": 1.0}).checks == [0, CHECKS // 2, 2 * CHECKS]
    assert Evaluation(five, {**alone, "checks": 1.0}).checks == [0, 75, 200, 450, 1200]
    assert Evaluation(load_game("chess")).checks == []
    board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"

    def scores(game, counts: str, weight: float = 1.0) -> list[int]:
        return Evaluation(game, {**alone, "checks": weight}).army_scores(
            position_from_fen(game, f"{board} {counts} 0 1"))

    # A FEN's counts are the checks each side may still give (White's first).
    assert scores(three, "3+3") == [0, 0]
    assert scores(three, "2+3") == [150, 0]
    assert scores(three, "1+2") == [600, 150]
    assert scores(three, "1+2", weight=2.0) == [1200, 300]
    assert scores(five, "1+4") == [1200, 75]
    terms = Terms(three).of(position_from_fen(three, f"{board} 1+3 0 1"), 0)
    assert terms[NAMES.index("checks")] == 600


def test_bound_classes_come_from_the_moves_on_the_empty_board():
    """A chess bishop is bound to the two colours, a hexagonal (Glinski) one to three; a rook, a
    knight, a pawn (it never comes back) and a xiangqi elephant (its few cells) to none."""
    def classes(variant: str, kind: str) -> list[int]:
        game = load_game(variant)
        code = game.code(game.kind_index[kind], 0)
        return sorted(len(c) for c in bound_classes(tables.reach(game, code).targets))

    assert classes("chess", "Bishop") == [32, 32]
    assert classes("chess", "Rook") == classes("chess", "Knight") == classes("chess", "Pawn") == []
    assert classes("glinski", "Bishop") == [30, 30, 31]
    assert classes("xiangqi", "Elephant") == []


def test_the_ring_is_the_royal_piece_own_reach_on_the_board_graph():
    """A Xiangqi general's ring is its palace steps: a chariot on the general's file bears on it
    from afar, on the empty board, whatever stands between."""
    game = load_game("xiangqi")
    ev = evaluation_of(game)
    n = game.n
    rook = next(c for c in range(1, game.ncodes) if game.kinds[game.code_kind[c]].name == "Chariot"
                and game.code_army[c] == 0)
    general = game.board.index["e10"]
    assert ev.terms.ring[(rook * n + game.board.index["e1"]) * n + general] == 1
    assert ev.terms.ring[(rook * n + game.board.index["a1"]) * n + general] == 0


def _passed(game, fen: str) -> list[int]:
    """Every army's passed sum in ``fen``."""
    ev = evaluation_of(game)
    sets = game.army_sets
    return ev.terms.sums(position_from_fen(game, fen))[3 * sets:4 * sets]


def test_a_pawn_no_enemy_pawn_can_stop_is_passed():
    """A white pawn on e4 is passed unless a black pawn stands on its file ahead, or on a
    neighbouring file where it attacks, or could come to attack, a cell of its way; one behind
    it, or beside it, does not stop it. The bonus grows as the pawn nears its promotion."""
    from interpreter.agents.evaluation import PASSED
    game = _chess()
    values = evaluation_of(game).values
    gain = values[game.code(game.kind_index["Queen"], 0)] - values[game.code(game.kind_index["Pawn"], 0)]
    alone = _passed(game, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")[0]
    assert alone == round(PASSED * gain / 4 ** 1.5) > 0      # four moves: e5, e6, e7, e8
    for stopper in ("4k3/4p3/8/8/4P3/8/8/4K3", "4k3/3p4/8/8/4P3/8/8/4K3", "4k3/8/8/5p2/4P3/8/8/4K3"):
        assert _passed(game, stopper + " w - - 0 1")[0] == 0, stopper
    for harmless in ("4k3/8/8/8/4P3/3p4/8/4K3", "4k3/8/8/8/4Pp2/8/8/4K3", "4k3/2p5/8/8/4P3/8/8/4K3"):
        assert _passed(game, harmless + " w - - 0 1")[0] == alone, harmless
    seventh = _passed(game, "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1")[0]
    assert seventh > 5 * alone
    # The same for Black, whose pawns go the other way (the geometry comes from the board graph).
    assert _passed(game, "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1")[1] == alone


def _race(game, fen: str) -> list[int] | None:
    """Every army's race term in ``fen`` (None: no passed pawn)."""
    terms = evaluation_of(game).terms
    pos = position_from_fen(game, fen)
    return terms.race(pos, terms.sums(pos))


def test_a_passed_pawn_races_the_royal_pieces():
    """The race term: a passed pawn gains NEAR of its gain per move from the enemy king to the
    cell in front of it and loses FAR per move from its own (at most NEAR_MOVES each), both times
    the rank factor; where the enemy has only a king and pawns, a pawn outside the king's square
    (the rule of the square, one cell wider when the enemy is to move) gains UNSTOPPABLE of its
    gain. Black's pawns run the other way; a far pawn (rank factor 0) gains nothing."""
    from interpreter.agents.evaluation import FAR, NEAR, UNSTOPPABLE
    from interpreter.agents.incremental import NEAR_MOVES
    game = _chess()
    values = evaluation_of(game).values
    gain = values[game.code(game.kind_index["Queen"], 0)] - values[game.code(game.kind_index["Pawn"], 0)]
    rank = (22 - 5 * 3) / 17                         # a5: three moves from promoting
    near, far, run = round(NEAR * gain * rank), round(FAR * gain * rank), round(UNSTOPPABLE * gain)
    # Kings on e5 (four moves from a6) and h1 (seven, counted as NEAR_MOVES).
    assert _race(game, "8/8/8/P3k3/8/8/8/7K b - - 0 1") == [4 * near - NEAR_MOVES * far, 0]
    # White to move: e5 is outside the square a5-d8 and the pawn runs; Black to move, it is not.
    assert _race(game, "8/8/8/P3k3/8/8/8/7K w - - 0 1") == [4 * near - NEAR_MOVES * far + run, 0]
    assert _race(game, "8/8/8/P7/4k3/8/8/7K b - - 0 1")[0] == 4 * near - NEAR_MOVES * far
    assert _race(game, "8/8/8/P7/5k2/8/8/7K b - - 0 1")[0] == 5 * near - NEAR_MOVES * far + run
    # Black's pawns do not stop the race (h7's own way holds White's king: it gains nothing).
    assert _race(game, "8/7p/8/P3k3/8/8/8/7K w - - 0 1") == [4 * near - NEAR_MOVES * far + run, 0]
    # A black rook, or the pawn's own king in its way, and the pawn may be caught.
    assert _race(game, "8/8/8/P7/8/8/7r/k6K w - - 0 1")[0] == NEAR_MOVES * (near - far)
    assert _race(game, "K7/8/8/P7/8/8/8/7k w - - 0 1")[0] == NEAR_MOVES * near - 2 * far
    # Its own king nearer the cell in front of it is worth more; the same for Black's pawns.
    assert _race(game, "8/8/1K6/P3k3/8/8/8/8 b - - 0 1")[0] == 4 * near - far
    assert _race(game, "7k/8/8/8/p3K3/8/8/8 w - - 0 1") == [0, 4 * near - NEAR_MOVES * far]
    assert _race(game, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") == [0, 0]     # e2: six moves, and e8 in its way
    assert _race(game, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") is None


def test_the_race_is_read_from_the_board_graph():
    """The race term in Grand Chess (a 10 by 10 board, pawns promoting on the last three ranks):
    a pawn on the seventh rank can promote next move, so it counts as one move away; the term
    is off with the ``passed`` weight and in games with drops."""
    grand = load_game("grand")
    terms = evaluation_of(grand).terms
    i = grand.code(grand.kind_index["Pawn"], 0) * grand.n + grand.board.index["a7"]
    assert terms.moves_left[i] == 1 and terms.near[i] > 0
    assert _race(grand, "k9/10/10/10/P9/10/10/10/10/9K w - - 0 1")[0] > 0
    assert not Evaluation(_chess(), {"passed": 0}).terms.races
    assert not evaluation_of(load_game("crazyhouse")).terms.races


def test_pawns_are_the_pieces_that_never_come_back():
    """The passed term knows a pawn by its moves alone: a chess, Makruk or Superchess pawn is one;
    no other chess piece is; games with drops (Shogi, Crazyhouse) and antichess have no term, and
    weight 0 turns it off (with the structure and shelter terms', which read the same pawns)."""
    def kinds(variant, mode=None, weights=None):
        game = load_game(variant, mode)
        terms = (Evaluation(game, weights) if weights else evaluation_of(game)).terms
        return {game.kinds[game.code_kind[c]].name for c in range(1, game.ncodes) if terms.passer[c]}
    assert kinds("chess") == {"Pawn"}
    assert kinds("makruk") == kinds("superchess", "4p") == {"Pawn"}
    assert kinds("shogi") == kinds("crazyhouse") == kinds("antichess") == set()
    assert kinds("chess", weights={"passed": 0, "structure": 0, "shelter": 0}) == set()
    assert kinds("chess", weights={"passed": 0, "structure": 0}) == {"Pawn"}
    assert kinds("chess", weights={"passed": 0}) == {"Pawn"}


def _structure(game, fen: str, weights: dict[str, float] | None = None) -> list[int]:
    """Every army's structure sum in ``fen``."""
    ev = Evaluation(game, weights) if weights else evaluation_of(game)
    sets = game.army_sets
    return ev.terms.sums(position_from_fen(game, fen))[4 * sets:5 * sets]


def test_doubled_and_isolated_pawns_cost_their_army():
    """A pawn behind a pawn of its army on its file pays DOUBLED of its value (the front one does
    not); a pawn with no pawn of its army on a neighbouring file, ahead or behind, pays ISOLATED.
    The files are found from the pawns' moves, so Black's pawns count the same way."""
    from interpreter.agents.evaluation import DOUBLED, ISOLATED
    game = _chess()
    value = evaluation_of(game).values[game.code(game.kind_index["Pawn"], 0)]
    doubled, isolated = round(DOUBLED * value), round(ISOLATED * value)
    assert doubled > 0 and isolated > 0
    assert _structure(game, "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1") == [0, 0]    # d2, e2, f2: neither
    assert _structure(game, "4k3/8/8/8/8/8/P1P1PP1P/4K3 w - - 0 1")[0] == -3 * isolated   # a2, c2, h2
    # c2 and c3 with d5: doubled once (c2), neither isolated (d5 is beside, ahead or not).
    assert _structure(game, "4k3/8/8/3P4/8/2P5/2P5/4K3 w - - 0 1")[0] == -doubled
    assert _structure(game, "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1")[0] == -doubled - 2 * isolated
    assert _structure(game, "4k3/2p5/2p5/8/8/8/8/4K3 w - - 0 1")[1] == -doubled - 2 * isolated
    # Enemy pawns neither double nor support: a black pawn on d3 leaves c2 isolated.
    assert _structure(game, "4k3/8/8/8/8/3p4/2P5/4K3 w - - 0 1") == [-isolated, -isolated]
    assert _structure(game, "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", {"structure": 0}) == [0, 0]


def test_only_mates_win_where_every_other_end_draws():
    """mate_only reads the end rules: chess and its kin yes; a bare king, stalemate as a loss,
    three checks, a hill, drops, no."""
    from interpreter.agents.evaluation import mate_only
    assert all(mate_only(load_game(v)) for v in ("chess", "capablanca", "makruk", "grand"))
    assert not any(mate_only(load_game(v)) for v in ("courier", "shatranj", "xiangqi", "threecheck",
                                                     "kingofthehill", "crazyhouse", "shogi", "antichess"))


def test_a_lead_that_cannot_mate_counts_little():
    """Without pawns, a lead of at most a minor piece counts a sixteenth of itself against at most
    a minor piece (a rook against a bishop), a quarter against more (a rook and a knight against a
    rook); a queen against a rook, a pawn more, or a game won by baring the king: unscaled."""
    from interpreter.agents.incremental import DRAWISH

    def both(variant: str, fen: str) -> tuple[int, int]:
        game = load_game(variant)
        evaluation = evaluation_of(game)
        pos = position_from_fen(game, fen)
        white, black = evaluation.army_scores(pos)
        assert evaluation.relative(pos, 1) == -evaluation.relative(pos, 0)     # either view, rounded alike
        return evaluation.relative(pos, 0), white - black

    for fen, share in [("8/8/8/3kb3/8/8/8/R3K3 w - - 0 1", DRAWISH[0]),      # a rook against a bishop
                       ("8/8/8/3kb3/8/8/8/R3K3 b - - 0 1", DRAWISH[0]),
                       ("8/8/8/3kr3/8/8/8/RN2K3 w - - 0 1", DRAWISH[1]),     # a rook and a knight against a rook
                       ("k7/8/8/8/8/8/8/1B2KR1R w - - 0 1", 16),            # two rooks and a bishop
                       ("8/8/8/3kr3/8/8/8/Q3K3 w - - 0 1", 16),             # a queen against a rook: wins
                       ("8/8/8/3kb3/8/8/P7/R3K3 w - - 0 1", 16),            # a pawn more
                       ("8/8/8/3kbp2/8/8/8/R3K3 w - - 0 1", 16)]:           # Black ahead, with its pawn
        scaled, raw = both("chess", fen)
        assert raw and scaled == int(raw * share / 16), fen
    # Courier wins by baring the king: a lead of a minor piece is a lead.
    scaled, raw = both("courier", "12/12/12/12/3k8/12/12/R4K6 w - - 0 1")
    assert scaled == raw


def test_an_army_is_not_ahead_by_the_royal_pieces_it_starts_with():
    """A royal piece is worth ROYAL less the royal pieces its army starts with: nothing at the start
    in any game (Horde's pawns have no king, the other army one), and losing one still costs it."""
    only_royal = {name: float(name == "royal") for name in AI_WEIGHTS}
    for name in ("chess", "horde", "threekings"):
        game = load_game(name)
        assert Evaluation(game, only_royal).army_scores(start_position(game)) == [0, 0]
    horde = load_game("horde")
    assert abs(Evaluation(horde).relative(start_position(horde), 0)) < 500   # not 20 pawns and more
    game = load_game("superchess", "4p")
    fen = start_fen(game).replace("wK,wB,", "1,wB,", 1).replace("c12,", "")   # white's king gone
    assert Evaluation(game, only_royal).army_scores(position_from_fen(game, fen)) == [-ROYAL, 0, 0, 0]
