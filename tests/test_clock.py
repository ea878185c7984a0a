"""Game clocks (``--clock``, interpreter.agents.clock): the time control's text, the clocks of a game,
losing on time, and the clocks in ``rules match``, ``rules play`` and ``rules analyze``.

The clocks given to an external engine (UCI's ``go wtime btime winc binc``, XBoard's ``level`` and
``time``/``otim``) are tested with the fake engines in tests/test_external_engine.py and
tests/test_xboard_engine.py.
"""

from __future__ import annotations

import io
import json
import re
import time

import pytest

from dsl.errors import UsageError
from interpreter.agents import Budget, match, parse_agent
from interpreter.agents.base import Clocks
from interpreter.agents.clock import TIME_GRACE, GameClock, TimeControl, parse_time_control
from interpreter.cli.main import main
from interpreter.cli.play import play
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
    assert budget.clocks == Clocks((10.0, 10.0), 1.0, 2, base=10.0, period=2)
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


@pytest.mark.parametrize("mode, clocks", [("2p", {"light", "dark"}), ("4p", {"south", "west", "north", "east"})])
def test_a_clock_is_a_players_whatever_armies_it_moves(mode, clocks):
    game = load_game("superchess", mode)
    clock = GameClock(TimeControl(60), game)
    assert set(clock.left) == clocks
    budget = clock.budget(0)
    assert budget.clocks.left == (60.0,) * len(game.armies)
    result = match("superchess", ["random", "random"], 1, mode=mode, seed=1, jobs=1, max_plies=16,
                   clock=TimeControl(60, 1))
    assert set(result.games[0].clocks) == clocks


def test_clocks_in_a_budget_are_checked():
    with pytest.raises(ValueError, match="needs a time limit"):
        Budget(nodes=10, clocks=Clocks((1.0, 1.0)))
    with pytest.raises(ValueError, match="at least 0"):
        Clocks((1.0, -1.0))
    with pytest.raises(ValueError, match="at least 1"):
        Clocks((1.0, 1.0), 0.0, 0)
    with pytest.raises(ValueError, match="period must be at least 1"):
        Clocks((1.0, 1.0), period=0)


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


def test_match_play_and_analyze_take_a_clock(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    assert main(["match", "chess", "--seat", "random", "--seat", "random", "--games", "2", "--jobs", "1",
                 "--max-plies", "20", "--clock", "30+0.5", "--pgn", str(pgn)]) == 0
    assert pgn.read_text().count('[TimeControl "30+0.5"]') == 2
    record = tmp_path / "game.pgn"
    assert main(["play", "chess", "--white", "random", "--black", "random", "--max-plies", "6", "--clock", "40/60",
                 "--pgn", str(record)]) == 0
    out = capsys.readouterr().out
    assert "s left]" in out
    assert '[TimeControl "40/60"]' in record.read_text() and "[%clk 0:01:00.00]" in record.read_text()
    run = tmp_path / "run"
    argv = ["analyze", "chess", "--games", "2", "--seat", "random", "--max-plies", "20", "--jobs", "1",
            "--out", str(run)]
    assert main([*argv, "--clock", "30"]) == 0
    assert json.loads((run / "run.json").read_text())["parameters"]["clock"] == "30"
    capsys.readouterr()
    assert main([*argv, "--games", "3", "--resume"]) == 2     # another clock (none) is another experiment
    assert "other parameters (clock)" in capsys.readouterr().err


class _SlowInput:
    """A person who takes ``seconds`` to type each move of ``moves``."""

    def __init__(self, seconds: float, *moves: str) -> None:
        self.seconds, self.moves = seconds, list(moves)

    def readline(self) -> str:
        time.sleep(self.seconds)
        return self.moves.pop(0) + "\n" if self.moves else ""


def test_a_person_who_oversteps_the_clock_loses_on_time(tmp_path):
    game = load_game("chess")
    out, record = io.StringIO(), tmp_path / "game.pgn"
    seats = {0: "human", 1: parse_agent("random")}
    status = play(game, start_position(game), seats, seed=1, record_path=str(record),
                  stdin=_SlowInput(0.4, "e4", "d4"), stdout=out, clock=TimeControl(0.5))
    assert status == 0
    text = out.getvalue()
    assert "White to move [0.5 s]>" in text and "White loses on time." in text
    # 0.4 s or more (a loaded machine may oversleep) with 0.1 s left: over it by the grace and more.
    took = re.search(r"Black wins by time forfeit: White took (\d+\.\d+) s", text)
    assert took and float(took.group(1)) >= 0.4
    assert '[Result "0-1"]' in record.read_text()
    assert re.search(r"1\. e4 \{\[%clk 0:00:00\.[01]\d\]\}", record.read_text())


@pytest.mark.parametrize("command", [
    ["match", "chess", "--seat", "random", "--seat", "random"],
    ["play", "chess", "--white", "random", "--black", "random"],
    ["analyze", "chess", "--games", "1"],
])
@pytest.mark.parametrize("clock", ["abc", "0", "1e9", "60+-1"])
def test_a_bad_clock_is_a_usage_error_before_any_game(command, clock, capsys, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("a game was played")
    monkeypatch.setattr("interpreter.agents.matches.play_game", never)
    assert main([*command, "--clock", clock]) == 2
    err = capsys.readouterr().err
    assert "time control" in err and "Traceback" not in err
