"""Games between agents (interpreter.agents.matches) and their statistics (interpreter.agents.stats)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from interpreter.agents import match
from interpreter.agents.matches import team_players
from interpreter.agents.stats import elo, estimate, expected, sprt_bounds, sprt_llr
from interpreter.loading import load_game


def _tags(record: str) -> dict[str, str]:
    tags = {}
    for line in record.splitlines():
        if line.startswith("[") and line.endswith("]"):
            key, _, value = line[1:-1].partition(" ")
            tags[key] = value.strip('"')
    return tags


def test_seats_alternate_and_records_carry_the_variant():
    result = match("chess", ["greedy", "random"], 4, seed=3, jobs=1, max_plies=30)
    assert [g.players for g in result.games] == [{"white": 0, "black": 1}, {"white": 1, "black": 0}] * 2
    for g in result.games:
        tags = _tags(g.record)
        assert tags["Variant"] == "chess" and tags["Round"] == str(g.index + 1)
        assert tags["White"] == ["greedy", "random"][g.players["white"]]
        assert tags["Result"] == g.result
        assert sum(p for p in g.points) == 1.0
        words = g.record.split("\n\n", 1)[1].split()
        assert words[-1] == g.result and len([w for w in words[:-1] if not w.endswith(".")]) == g.plies
    table = result.table()
    assert "greedy" in table and "random" in table
    rows = {s.label: s for s in result.standings}
    assert rows["greedy"].games == rows["random"].games == 4
    assert rows["greedy"].score + rows["random"].score == 4


def test_a_game_that_reaches_the_ply_cap_is_adjudicated_a_draw_in_its_result_and_record():
    endless = str(Path(__file__).resolve().parent / "fixtures" / "endless.rules")
    result = match(endless, ["random", "greedy"], 2, seed=1, jobs=1, max_plies=12)
    for g in result.games:
        assert g.plies == 12 and g.result == "1/2-1/2" and g.points == [0.5, 0.5]
        assert g.termination == "draw by adjudication at the cap of 12 plies"
        tags = _tags(g.record)
        assert tags["Result"] == "1/2-1/2" and tags["Termination"] == g.termination
    assert [(s.draws, s.score) for s in result.standings] == [(2, 1.0), (2, 1.0)]


def test_teams_play_together():
    game = load_game("superchess", "4p")
    assert team_players(game) == [["south", "north"], ["west", "east"]]
    assert team_players(load_game("superchess", "3p")) == [["south", "north"], ["solo"]]
    result = match("superchess", ["random", "random"], 2, mode="4p", seed=1, jobs=1, max_plies=12)
    assert result.games[0].players == {"south": 0, "north": 0, "west": 1, "east": 1}
    assert result.games[1].players == {"south": 1, "north": 1, "west": 0, "east": 0}
    assert _tags(result.games[0].record)["Variant"] == "superchess"


def test_a_match_is_reproducible_per_seed_and_game_in_any_number_of_processes():
    agents = ["ai:alphabeta:nodes=60", "ai:mcts:nodes=8"]
    one = match("chess", agents, 2, seed=11, jobs=1, max_plies=16)
    two = match("chess", agents, 2, seed=11, jobs=2, max_plies=16)
    strip = lambda r: [g.record.split("\n\n", 1)[1] for g in r.games]  # noqa: E731 (the Date tag aside)
    assert strip(one) == strip(two)
    other = match("chess", agents, 2, seed=12, jobs=1, max_plies=16)
    assert strip(other) != strip(one)


def test_the_json_summary():
    data = match("chess", ["greedy", "random"], 2, seed=5, jobs=1, max_plies=20).to_json()
    assert data["variant"] == "chess" and data["games"] == 2
    assert {s["agent"] for s in data["standings"]} == {"greedy", "random"}
    assert len(data["results"]) == 2


def test_elo_and_its_interval():
    assert elo(0.5) == 0 and expected(0) == 0.5
    assert math.isclose(expected(elo(0.76)), 0.76)
    even = estimate([1, 0] * 100)
    assert even.difference == 0 and even.low < 0 < even.high
    strong = estimate([1] * 190 + [0] * 10)
    assert strong.low > 200 and strong.high > strong.difference > strong.low
    # All wins: a finite estimate, and an interval that a handful of games leaves wide.
    few = estimate([1, 1, 1, 1])
    assert math.isfinite(few.difference) and few.low < 100
    assert estimate([]) is None


def test_sprt():
    low, high = sprt_bounds()
    assert low < 0 < high
    assert sprt_llr(150, 60, 40, 0, 20) > high      # clearly stronger: accept H1
    assert sprt_llr(40, 60, 150, 0, 20) < low       # clearly weaker: accept H0
    assert low < sprt_llr(5, 2, 4, 0, 20) < high    # too few games to say


@pytest.mark.slow
def test_alphabeta_beats_random_in_a_short_match():
    result = match("chess", ["ai:alphabeta:depth=2", "random"], 4, seed=2, jobs=2)
    assert result.standings[0].score >= 3.5


class _Counter:
    """An observer that keeps the number of legal moves before each move, and the final outcome's rule."""

    def __init__(self, game, pos) -> None:
        self.start = pos.hash
        self.counts: list[int] = []

    def ply(self, pos, legal, move) -> None:
        assert move in legal
        self.counts.append(len(legal))

    def finish(self, pos, result):
        return {"start": self.start, "counts": self.counts, "rule": result.rule if result else None}


def test_an_observer_sees_every_ply_of_a_task_opening_included():
    from interpreter.agents.matches import match_tasks, play_task
    tasks = match_tasks("chess", ["random"], [0, 5], seed=2, opening_plies=4, max_plies=40, observer=_Counter)
    assert [t.index for t in tasks] == [0, 5]
    for task in tasks:
        result = play_task(task)
        assert len(result.log["counts"]) == result.plies
        assert result.log["counts"][0] == 20       # the start of chess
        assert result.log["rule"] is None or result.plies < 40
    plain = match("chess", ["random"], 6, seed=2, jobs=1, opening_plies=4, max_plies=40)
    assert plain.games[5].record == play_task(tasks[1]).record
