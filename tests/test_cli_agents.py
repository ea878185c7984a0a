"""The runner's computer players: seats of ``rules play``, ``rules bestmove`` and ``rules match``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.cli.play import play
from interpreter.cli.thinking import Thinking
from interpreter.agents import SearchInfo, parse_agent
from interpreter.loading import load_game, position_from_fen, start_position

ENDLESS = str(Path(__file__).resolve().parent / "fixtures" / "endless.rules")


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_bestmove_json(capsys):
    status, out, _ = run(capsys, "bestmove", "chess", "--moves", "e4 e5", "--depth", "3", "--json")
    assert status == 0
    data = json.loads(out)
    for key in ("move", "from_to", "score", "pv", "depth", "nodes", "nps"):
        assert key in data
    assert data["depth"] == 3 and data["pv"][0] == data["move"] and data["nodes"] > 0


def test_bestmove_finds_a_mate(capsys):
    status, out, _ = run(capsys, "bestmove", "chess", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "2")
    assert status == 0
    assert "bestmove Ra8# (a1a8)" in out and "mate 1" in out


def test_bestmove_with_mcts_and_a_node_budget(capsys):
    status, out, _ = run(capsys, "bestmove", "superchess", "--mode", "2p", "--agent", "ai:mcts", "--nodes", "30",
                         "--json")
    data = json.loads(out)
    assert status == 0 and data["nodes"] == 30 and data["agent"] == "ai:mcts"


def test_bestmove_when_the_game_is_over(capsys):
    status, out, _ = run(capsys, "bestmove", "chess", "--fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "--json")
    assert status == 0 and json.loads(out)["move"] is None


def test_match_json_and_records(capsys, tmp_path):
    pgn = tmp_path / "games.pgn"
    status, out, _ = run(capsys, "match", "chess", "--seat", "greedy", "--seat", "random", "--games", "2",
                         "--jobs", "1", "--max-plies", "30", "--seed", "4", "--pgn", str(pgn), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["games"] == 2 and {s["agent"] for s in data["standings"]} == {"greedy", "random"}
    text = pgn.read_text()
    assert text.count('[Variant "chess"]') == 2 and text.count('[Event "rules match"]') == 2


def test_an_interrupted_match_keeps_its_finished_games(tmp_path):
    """Records are written as each game ends: a match killed midway loses only the games
    still being played, and a plain (non-terminal) stderr gets one line per game."""
    pgn = tmp_path / "games.pgn"
    command = [sys.executable, "-m", "interpreter.cli", "match", "chess", "--seat", "random", "--seat", "random",
               "--games", "1000", "--jobs", "1", "--pgn", str(pgn)]
    match = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = match.stderr.readline()          # the first game has ended and been written
        assert first.startswith("game 1/1000: "), first
        records = pgn.read_text(encoding="utf-8")
    finally:
        match.kill()
        match.wait(timeout=60)
    assert records.count('[Variant "chess"]') >= 1 and records.rstrip().endswith(("1-0", "0-1", "1/2-1/2", "*"))


def test_match_refuses_an_unwritable_record_file_before_playing(capsys, tmp_path):
    status, _, err = run(capsys, "match", "chess", "--seat", "random", "--seat", "random",
                         "--pgn", str(tmp_path / "missing" / "games.pgn"))
    assert status == 2 and "cannot write" in err


def test_match_table(capsys):
    status, out, _ = run(capsys, "match", "superchess", "--mode", "2p", "--seat", "random", "--seat", "random",
                         "--games", "2", "--jobs", "1", "--max-plies", "10")
    assert status == 0 and "superchess 2p: 2 games" in out and "Elo" in out


@pytest.mark.parametrize("argv,fragment", [
    (["play", "chess", "--white", "alphabet"], "unknown agent 'alphabet'"),
    (["play", "chess", "--seat", "white"], "is not NAME=WHO"),
    (["bestmove", "chess", "--agent", "ai:tme=1"], "unknown agent option 'tme'"),
    (["bestmove", "chess", "--depth", "0"], "argument --depth: must be at least 1, not 0"),
    (["match", "chess", "--seat", "ai"], "two agents or more"),
    (["match", "chess", "--seat", "white=ai", "--seat", "random"], "takes agents"),
    (["match", "chess", "--seat", "ai", "--seat", "random", "--games", "0"], "--games must be at least 1"),
])
def test_bad_agent_arguments(capsys, argv, fragment):
    status, _, err = run(capsys, *argv)
    assert status == 2 and fragment in err and "Traceback" not in err


def test_play_against_the_computer_shows_its_thinking():
    game = load_game("chess")
    pos = position_from_fen(game, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    out = io.StringIO()
    seats = {0: parse_agent("ai:depth=2"), 1: "human"}
    assert play(game, pos, seats, stdin=io.StringIO(""), stdout=out) == 0
    text = out.getvalue()
    assert "White: the computer (ai:depth=2, depth 2)" in text and "Black: you" in text
    assert "White thinks: depth 1/" in text and "White plays Ra8#" in text
    assert "Game over: White wins by checkmate" in text


class _Person(io.StringIO):
    """A person at the keyboard: each line comes a moment after the prompt."""

    def readline(self, *args):
        time.sleep(0.2)
        return super().readline(*args)


def _play_pondering(monkeypatch, spec: str, typed: str) -> tuple[str, list[tuple[str, threading.Event | None]]]:
    """A chess game of the computer (White, ``spec``) against a person who types ``typed``, with
    ``ponder``: what it printed, and the searches asked of the agent from a ponder's thread (FEN, stop)."""
    from interpreter.agents.alphabeta import AlphaBeta
    from interpreter.notation.fen import to_fen
    searches, choose = [], AlphaBeta.choose

    def spy(self, pos, budget=None, stop=None, on_info=None):
        if threading.current_thread().name == "ponder":
            searches.append((to_fen(pos), stop))
        return choose(self, pos, budget, stop, on_info)

    monkeypatch.setattr(AlphaBeta, "choose", spy)
    game, out = load_game("chess"), io.StringIO()
    seats = {0: parse_agent(spec), 1: "human"}
    assert play(game, start_position(game), seats, stdin=_Person(typed), stdout=out, ponder=True) == 0
    return out.getvalue(), searches


def test_ponder_searches_the_expected_reply_on_the_persons_time_and_stops_with_the_turn(monkeypatch):
    text, searches = _play_pondering(monkeypatch, "ai:depth=3", "moves\ne5\nquit\n")
    assert "The computer thinks on your time." in text and text.count("White plays") == 2
    # One ponder a turn of the person's (the 'moves' command does not start another), each from the position
    # after the computer's move and the reply it expected, stopped when the turn ended.
    assert len(searches) == 2 and all(stop is not None and stop.is_set() for _, stop in searches)
    assert [fen.split()[1] + fen.split()[5] for fen, _ in searches] == ["w2", "w3"]   # White to move at 2 and 3


def test_no_ponder_at_a_level_of_strength(monkeypatch):
    text, searches = _play_pondering(monkeypatch, "ai:level=1200", "e5\nquit\n")
    assert "so none thinks on your time" in text and searches == []


def test_two_computers_in_a_game_that_nothing_ends_stop_at_the_ply_cap(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    record = tmp_path / "game.pgn"
    status, out, _ = run(capsys, "play", ENDLESS, "--white", "random", "--black", "random", "--pgn", str(record))
    assert status == 0 and "Game over: draw by adjudication at the cap of 600 plies." in out
    text = record.read_text()
    assert '[Result "1/2-1/2"]' in text and '[Termination "draw by adjudication at the cap of 600 plies"]' in text
    words = text.split("\n\n", 1)[1].split()
    assert words[-1] == "1/2-1/2" and len([w for w in words[:-1] if not w.endswith(".")]) == 600


def test_the_ply_cap_counts_peoples_moves_and_not_those_of_moves(capsys, monkeypatch):
    game = load_game(ENDLESS)
    out = io.StringIO()
    assert play(game, start_position(game), {0: "human", 1: "human"}, stdin=io.StringIO("Wa2\nWc2\nWa3\n"),
                stdout=out, max_plies=2) == 0
    assert "Game over: draw by adjudication at the cap of 2 plies." in out.getvalue()
    assert out.getvalue().count("to move> ") == 2             # the third move was not asked for
    monkeypatch.setattr("sys.stdin", io.StringIO("Wb3\nWb1\n"))
    status, out, _ = run(capsys, "play", ENDLESS, "--moves", "Wa2 Wc2 Wa3 Wc1", "--max-plies", "1")
    assert status == 0 and out.count("to move> ") == 1 and "draw by adjudication at the cap of 1 ply." in out


def test_thinking_rewrites_one_line_on_a_terminal():
    game = load_game("chess")
    pos = position_from_fen(game, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    move = pos.legal_moves()[0]
    tty = io.StringIO()
    thinking = Thinking(pos, "White", tty, tty=True)
    thinking(SearchInfo(move, 35, (move,), 3, 5, 1000, 0.5))
    thinking.close()
    assert "\r" in tty.getvalue() and "\n" not in tty.getvalue() and "depth 3/5" in tty.getvalue()
    plain = io.StringIO()
    thinking = Thinking(pos, "White", plain, tty=False)
    thinking(SearchInfo(move, 35, (move,), 3, 5, 1000, 0.5))
    assert plain.getvalue().count("\n") == 1 and "\r" not in plain.getvalue()
