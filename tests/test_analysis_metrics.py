"""The analysis metrics (interpreter.analysis.metrics, .intervals) on hand-made game logs.

Each log is written out by hand, as a results.jsonl line would hold it, so
that every metric can be checked against a value worked out from its
definition (docs/analysis.md).
"""

from __future__ import annotations

import math

import pytest

from interpreter.analysis import intervals, metrics

TWO = {"name": "toy", "mode": None, "players": ["white", "black"], "teams": [["white"], ["black"]],
       "first": "white", "cells": 4, "cell_names": ["a1", "b1", "a2", "b2"]}
FOUR = {"name": "toy4", "mode": "4p", "players": ["south", "west", "north", "east"],
        "teams": [["south", "north"], ["west", "east"]], "first": "south", "cells": 4,
        "cell_names": ["a1", "b1", "a2", "b2"]}


def log(winners=(), end="checkmate", branching=(2, 2), to=None, captures=(), evaluation=None, coverage=4,
        seats=None, movers=None, index=0):
    """A game log: ``branching`` gives the plies; the rest defaults to something neutral."""
    plies = len(branching)
    return {"index": index, "seats": seats or {"white": "greedy", "black": "greedy"}, "winners": list(winners),
            "end": end, "termination": f"{' and '.join(winners) or 'draw'} by {end}", "result": "*", "plies": plies,
            "movers": list(movers) if movers is not None else [i % 2 for i in range(plies)],
            "branching": list(branching), "to": list(to) if to is not None else [0] * plies,
            "captures": list(captures),
            "evaluation": [list(row) for row in evaluation] if evaluation is not None else [[0, 0]] * (plies + 1),
            "coverage": coverage, "seconds": 0.1, "record": ""}


def test_wilson_interval_of_a_rate():
    two_of_three = intervals.rate(2, 3)
    assert two_of_three.value == pytest.approx(2 / 3, abs=1e-6)
    assert (round(two_of_three.low, 3), round(two_of_three.high, 3)) == (0.208, 0.939)   # Wilson, z = 1.96
    none = intervals.rate(0, 10)
    assert none.value == 0 and none.low == 0 and 0.25 < none.high < 0.35      # 0.278: wide after ten games
    assert intervals.rate(0, 0).value is None


def test_mean_interval_and_score():
    m = intervals.mean([10, 20, 30])
    assert m.value == 20 and m.high - 20 == pytest.approx(20 - m.low, abs=1e-6)
    assert m.high - m.value == pytest.approx(1.959964 * 10 / math.sqrt(3), abs=1e-6)
    assert intervals.mean([5]).low is None
    share = intervals.mean([0.0, 0.1, 0.0], share=True)
    assert share.low == 0.0
    s = intervals.score([1, 1, 0.5])
    assert s.value == pytest.approx(5 / 6, abs=1e-6) and s.low < 5 / 6 < s.high <= 1


def test_outcomes_balance_completion_drawishness_timeouts_first_seat():
    lines = [log(["white"]), log(["white"]), log([], end="stalemate"), log([], end=None)]
    m = metrics.compute(TWO, lines)["overall"]
    # Win rates 2/4 and 0/4: balance 1 - 0.5.
    assert m["balance"]["value"] == pytest.approx(0.5, abs=1e-6)
    assert m["balance"]["low"] <= 0.5 <= m["balance"]["high"]
    assert m["completion"]["value"] == pytest.approx(0.5, abs=1e-6)
    assert m["drawishness"]["value"] == pytest.approx(0.25, abs=1e-6)     # the stalemate, not the ply limit
    assert m["timeouts"]["value"] == pytest.approx(0.25, abs=1e-6)
    assert m["first_seat_advantage"]["value"] == pytest.approx((1 + 1 + 0.5 + 0.5) / 4, abs=1e-6)


def test_balance_is_one_when_seats_win_alike_and_its_interval_is_reproducible():
    lines = [log(["white"]), log(["black"])] * 5 + [log([])]
    first = metrics.compute(TWO, lines)["overall"]["balance"]
    assert first["value"] == 1.0 and first["low"] < 1.0 and first["high"] == 1.0
    assert metrics.compute(TWO, lines)["overall"]["balance"] == first


def test_duration_branching_and_decision_moves():
    lines = [log(branching=(1, 3, 1, 3)), log(branching=(2, 2))]
    m = metrics.compute(TWO, lines)
    assert m["overall"]["duration"]["value"] == 3 and m["overall"]["duration"]["median"] == 3
    assert (m["overall"]["duration"]["min"], m["overall"]["duration"]["max"]) == (2, 4)
    assert m["overall"]["branching_factor"]["value"] == pytest.approx((2 + 2) / 2, abs=1e-6)   # mean per game, then over games
    assert m["overall"]["decision_moves"]["value"] == pytest.approx((0.5 + 1.0) / 2, abs=1e-6)
    by_ply = m["branching_by_ply"]
    assert [row["games"] for row in by_ply] == [2, 2, 1, 1]
    assert [row["mean"] for row in by_ply] == [1.5, 2.5, 1, 3]
    assert [row["seat"] for row in by_ply] == ["white", "black", "white", "black"]


def test_board_coverage_is_a_share_of_the_cells():
    m = metrics.compute(TWO, [log(coverage=4), log(coverage=2)])
    assert m["overall"]["board_coverage"]["value"] == pytest.approx(0.75, abs=1e-6)


def test_lead_change_counts_moves_after_which_the_leaders_differ():
    # Leaders: both (tied), white, white, black: changes after moves 1 and 3 of 3.
    game = log(branching=(2, 2, 2), evaluation=[[0, 0], [10, 0], [12, 3], [0, 10]])
    assert metrics.lead_change(game["evaluation"]) == pytest.approx(2 / 3, abs=1e-6)
    assert metrics.compute(TWO, [game])["overall"]["lead_change"]["value"] == pytest.approx(2 / 3, abs=1e-6)
    assert metrics.lead_change([[0, 0], [0, 0]]) == 0.0


def test_decisiveness_is_the_share_played_before_the_winner_passes_the_losers_best():
    # Relative scores of white: 0, -60, 80, 100, 100; black's best is 60 (position 1): white passes it
    # at position 2 of 4 moves.
    rows = [[0, 0], [-30, 30], [40, -40], [50, -50], [50, -50]]
    game = log(["white"], branching=(2, 2, 2, 2), evaluation=rows)
    assert metrics.decisiveness(rows, {0}) == pytest.approx(0.5, abs=1e-6)
    # A winner that is never ahead of the loser's best: decided by the last move only.
    assert metrics.decisiveness([[0, 0], [-10, 10], [-5, 5]], {0}) == 1.0
    m = metrics.compute(TWO, [game, log([], end="stalemate")])["overall"]["decisiveness"]
    assert m["value"] == pytest.approx(0.5, abs=1e-6) and m["n"] == 1                   # drawn games have none


def test_endings_are_counted_per_rule_in_words():
    lines = [log(["white"], end="checkmate"), log(["black"], end="checkmate"), log([], end="threefold repetition"),
             log([], end=None)]
    m = metrics.compute(TWO, lines)
    assert [(e["end"], e["count"]) for e in m["endings"]] == [("checkmate", 2), ("the ply limit", 1),
                                                              ("threefold repetition", 1)]
    assert m["endings"][0]["rate"]["value"] == 0.5
    assert sum(t["count"] for t in m["terminations"]) == 4


def test_seats_count_their_own_turns_and_captures():
    game = log(["black"], branching=(4, 1, 6, 3), to=[0, 1, 2, 3], captures=[1, 2, 3])
    seat = {s["player"]: s for s in metrics.compute(TWO, [game])["seats"]}
    assert (seat["black"]["wins"], seat["white"]["losses"]) == (1, 1)
    assert seat["white"]["branching_factor"]["value"] == 5 and seat["black"]["branching_factor"]["value"] == 2
    assert seat["black"]["decision_moves"]["value"] == 0.5
    assert seat["white"]["captures_per_game"]["value"] == 1 and seat["black"]["captures_per_game"]["value"] == 2
    assert seat["white"]["agents"] == {"greedy": 1}


def test_heat_maps_count_destinations_and_captures_by_cell_name():
    lines = [log(branching=(2, 2, 2), to=[0, 3, -1], captures=[1]), log(branching=(2,), to=[3], captures=[0])]
    heat = metrics.compute(TWO, lines)["heat"]
    assert heat == {"moves": {"a1": 1, "b2": 2}, "captures": {"b2": 2}}


def test_teams_share_results_and_a_shared_win_is_a_draw_for_both():
    seats = {"south": "a", "west": "b", "north": "a", "east": "b"}
    movers = [0, 1, 2, 3]
    lines = [log(["south", "north"], branching=(2, 2, 2, 2), movers=movers, seats=seats,
                 evaluation=[[5, 0]] * 5),
             log(["south", "north", "west", "east"], branching=(2, 2, 2, 2), movers=movers, seats=seats,
                 evaluation=[[0, 5]] * 5)]
    m = metrics.compute(FOUR, lines)
    teams = m["teams"]
    assert teams[0]["players"] == ["south", "north"] and teams[0]["wins"] == 1 and teams[0]["draws"] == 1
    assert teams[1]["losses"] == 1 and teams[1]["draws"] == 1
    assert teams[0]["leading"]["value"] == pytest.approx(0.5, abs=1e-6)      # every position of game 1, none of game 2
    assert teams[0]["agents"] == {"a": 4}
    seats_by_name = {s["player"]: s for s in m["seats"]}
    assert seats_by_name["north"]["wins"] == 1 and seats_by_name["east"]["losses"] == 1
    assert m["overall"]["balance"]["value"] == pytest.approx(0.5, abs=1e-6)   # win rates 1/2, 0, 1/2, 0
    assert m["overall"]["completion"]["value"] == 1.0
