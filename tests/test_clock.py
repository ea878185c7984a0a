"""Game clocks (``--clock``, interpreter.agents.clock): the time control's text, the clocks of a game,
losing on time, and the clocks of a match.

The clocks given to an external engine (UCI's ``go wtime btime winc binc``) are tested with the
fake engine in tests/test_external_engine.py.
"""

from __future__ import annotations

import json

import pytest

from dsl.errors import UsageError
from interpreter.agents import Budget, match
from interpreter.agents.base import Clocks
from interpreter.agents.clock import TIME_GRACE, GameClock, TimeControl, parse_time_control
from interpreter.engine.outcome import TIME_FORFEIT
from interpreter.loading import load_game, start_position
from interpreter.loading.records import read_record
from interpreter.notation.reading import moves_from_text


@pytest.mark.parametrize("text, control, written", [
    ("60+1", TimeControl(60, 1), "60+1"),
    ("300", TimeControl(300), "300"),
    ("0.5+0.05", TimeControl(0.5, 0.05), "0.5+0.05"),
    (" .5+.25 ", TimeControl(0.5, 0.25), "0.5+0.25"),
    ("40/60", TimeControl(60, 0, 40), "40/60"),
    ("40/60+0.5", TimeControl(60, 0.5, 40), "40/60+0.5"),
    ("10+0", TimeControl(10), "10"),
])
def test_time_controls_read_and_write_back(text, control, written):
    assert parse_time_control(text) == control
    assert str(control) == written and parse_time_control(written) == control


@pytest.mark.parametrize("text, words", [
    ("", "is not a time control"), ("abc", "is not a time control"), ("60+", "is not a time control"),
    ("+1", "is not a time control"), ("-5", "is not a time control"), ("1e3", "is not a time control"),
    ("nan", "is not a time control"), ("inf", "is not a time control"), ("60+1+1", "is not a time control"),
    ("1_000", "is not a time control"), ("\uff16\uff10", "is not a time control"), ("9" * 5000, "is not a time control"),
    ("60:00", "is not a time control"), ("0", "base time must be above 0"), ("0+1", "base time must be above 0"),
    ("2000000", "more than 1,000,000 seconds"), ("60+2000000", "more than 1,000,000 seconds"),
    ("0/60", "from 1 to 1,000"), ("1001/60", "from 1 to 1,000"),
])
def test_bad_time_controls_are_usage_errors(text, words):
    with pytest.raises(UsageError, match=words) as caught:
        parse_time_control(text)
    assert len(str(caught.value)) < 500


def test_a_clock_gains_its_increment_and_its_period_and_forgives_the_grace():
    game = load_game("chess")
    pos = start_position(game)
    clock = GameClock(TimeControl(10, 1, moves=2), game)
    assert clock.moves_to_go(0) == 2
    budget = clock.budget(0, Budget(time=5, nodes=300, depth=4))
    assert budget.clocks == Clocks((10.0, 10.0), 1.0, 2)
    assert budget.nodes == 300 and budget.depth == 4 and budget.time < 5   # the clock's time, not the seat's
    assert clock.punch(pos, 3.0) is None and clock.left == {"white": 8.0, "black": 10.0}
    assert clock.moves_to_go(0) == 1 and clock.moves_to_go(1) == 2
    assert clock.punch(pos, 8.0 + TIME_GRACE / 2) is None   # over by less than the grace: the clock stands at 0
    assert clock.left["white"] == 0 + 1 + 10                 # the increment, and the base again after 2 moves
    assert clock.after == [8.0, 11.0]
    lost = clock.punch(pos, 11.0 + 2 * TIME_GRACE)
    assert lost.rule == TIME_FORFEIT and lost.winners == (1,)
    assert lost.describe(game).startswith("Black wins by time forfeit: White took 11.20 s with 11.00 s left")
    assert clock.left["white"] == 11.0 and len(clock.after) == 2   # a lost move is not charged


def test_clocks_in_a_budget_are_checked():
    with pytest.raises(ValueError, match="needs a time limit"):
        Budget(nodes=10, clocks=Clocks((1.0, 1.0)))
    with pytest.raises(ValueError, match="at least 0"):
        Clocks((1.0, -1.0))
    with pytest.raises(ValueError, match="at least 1"):
        Clocks((1.0, 1.0), 0.0, 0)


def test_a_match_with_a_clock_finishes_and_records_the_clocks():
    result = match("chess", ["random", "greedy"], 2, seed=5, jobs=1, max_plies=40, clock=TimeControl(5, 0.1))
    game = load_game("chess")
    for g in result.games:
        assert set(g.clocks) == {"white", "black"} and all(left > 4 for left in g.clocks.values())
        record = read_record(g.record)
        assert record.tags["TimeControl"] == "5+0.1"
        assert g.record.count("[%clk ") == g.plies - 4   # every move after the random opening of 4 plies
        pos = start_position(game)
        moves_from_text(pos, record.movetext)            # the comments and repeated move numbers read back
        assert len(pos.history) == g.plies + 1
    assert "time forfeit" not in json.dumps(result.to_json())
    assert result.to_json()["results"][0]["clocks"] == result.games[0].clocks
