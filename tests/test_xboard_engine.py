"""External XBoard engines as players (``xboard:COMMAND``): the conversation, the budgets, what only XBoard says.

What every external engine shares (specs, forfeits, the server's rule, Fairy-Stockfish's short games) is
tested on both protocols in tests/test_external_engine.py. Here: what the fake engine
``tests/data/engines/fake_xboard.py`` is told and answers, and this project's own ``rules xboard`` as the
engine (ten ranks and ten files included); Fairy-Stockfish's tests skip where it is not installed (and fail
under CI, where ``make engines`` installs it).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from external_engines import FAIRY, fairy_or_skip, fake_spec, short_game

from dsl.errors import UsageError
from interpreter.agents import Budget, Forfeit, parse_agent
from interpreter.agents import xboard_engine
from interpreter.agents.clock import GameClock, TimeControl
from interpreter.agents.matches import play_game
from interpreter.agents.simple import RandomAgent
from interpreter.engine.outcome import FORFEIT, TIME_FORFEIT
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.reading import parse_move

OURS = shlex.join([sys.executable, "-m", "interpreter.cli", "xboard"])


def fake(mode: str, *words: str, options: str = ":time=1") -> str:
    """The seat of the fake XBoard engine in ``mode`` (``words``: its moves and flags)."""
    return fake_spec("xboard", mode, *words, options=options)


def logged(path: Path) -> list[str]:
    """The commands the fake engine read (its ``-log=PATH``)."""
    return path.read_text().splitlines()


@pytest.fixture()
def chess():
    return load_game("chess")


def test_the_conversation(chess, tmp_path):
    log = tmp_path / "log"
    agent = parse_agent(fake("moves", "e7e5", "b8c6", f"-log={log}")).make()
    reports = []
    try:
        pos = start_position(chess)
        pos.push(parse_move(pos, "e4"))
        info = agent.choose(pos, Budget(time=1), on_info=reports.append)
        assert info.move == parse_move(pos, "e5") and agent.engine_name == "Fake XBoard"
        assert reports[-1].depth == 1 and reports[-1].score == 12 and reports[-1].pv == (info.move,)
        pos.push(info.move)
        pos.push(parse_move(pos, "Nf3"))
        assert agent.choose(pos, Budget(time=1)).move == parse_move(pos, "Nc6")
    finally:
        agent.close()
    sent = logged(log)
    assert sent[:2] == ["xboard", "protover 2"]
    assert "rejected san" in sent and "accepted ping" in sent and "accepted done" in sent
    # chess is XBoard's 'normal': 'new' sets it, no 'variant'; the game from its start, then only the new moves.
    first = sent.index("new")
    assert sent[first:first + 9] == ["new", "force", "easy", "post", "st 1", "usermove e2e4", "ping 1", "go", "force"]
    assert sent[first + 9:] == ["usermove g1f3", "ping 2", "go", "force", "quit"]


def test_variant_options_and_refusals(tmp_path):
    log = tmp_path / "log"
    agent = parse_agent(fake("moves", "c3c4", f"-log={log}", options=":depth=3:Skill=4")).make()
    try:
        assert agent.choose(start_position(load_game("shogi")), Budget(depth=3)).move is not None
        with pytest.raises(UsageError, match="does not play xiangqi"):
            agent.choose(start_position(load_game("xiangqi")), Budget(depth=3))
    finally:
        agent.close()
    sent = logged(log)
    assert "option Skill=4" in sent
    assert sent[sent.index("new"):sent.index("go")] == ["new", "variant shogi", "force", "easy", "post", "st 120",
                                                         "sd 3", "ping 1"]
    unknown = parse_agent(fake("moves", "e2e4", options=":Threads=2")).make()
    with pytest.raises(UsageError, match="has no option 'Threads'"):
        unknown.choose(start_position(load_game("chess")), Budget(time=1))
    unknown.close()


def test_positions_and_budgets(chess, tmp_path):
    log = tmp_path / "log"
    fen, other = "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    agent = parse_agent(fake("moves", "h1h8", "a1a8", f"-log={log}")).make()
    try:
        pos = position_from_fen(chess, fen)
        assert agent.choose(pos, Budget(nodes=500)).move == parse_move(pos, "Rh8+")
        # Another position, not the line's continuation, and another budget: a new line.
        assert agent.choose(position_from_fen(chess, other), Budget(time=2.4)).move is not None
    finally:
        agent.close()
    sent = logged(log)
    assert sent[sent.index("new"):sent.index("go")] == ["new", "force", "easy", "post", "nps 1", "st 500",
                                                         f"setboard {fen}", "ping 1"]
    second = len(sent) - sent[::-1].index("new") - 1
    assert sent[second:] == ["new", "force", "easy", "post", "st 2", f"setboard {other}", "ping 2", "go", "force",
                             "quit"]


def test_bare_moves_and_engines_without_setboard_or_nps(chess, tmp_path):
    log = tmp_path / "log"
    agent = parse_agent(fake("moves", "e7e5", "-nousermove", f"-log={log}")).make()
    pos = start_position(chess)
    pos.push(parse_move(pos, "e4"))
    agent.choose(pos, Budget(time=1))
    agent.close()
    assert "e2e4" in logged(log) and "usermove e2e4" not in logged(log)
    agent = parse_agent(fake("moves", "h1h8", "-nosetboard")).make()
    with pytest.raises(UsageError, match="cannot be given a position"):
        agent.choose(position_from_fen(chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"), Budget(time=1))
    agent.close()
    agent = parse_agent(fake("moves", "e2e4", "-nonps")).make()
    with pytest.raises(UsageError, match="takes no node budget"):
        agent.choose(start_position(chess), Budget(nodes=100))
    agent.close()


def test_thinking_output_scores_a_mate(chess):
    agent = parse_agent(fake("mate", "e2e4")).make()
    reports = []
    agent.choose(start_position(chess), Budget(time=1), on_info=reports.append)
    agent.close()
    assert reports[-1].depth == 3 and reports[-1].mate == 3   # a mate in 2 moves is 3 plies away


def test_a_game_clock_is_told_as_level_time_and_otim(chess, tmp_path):
    log = tmp_path / "log"
    agent = parse_agent(fake("moves", "e7e5", "b8c6", f"-log={log}", options=":depth=5")).make()
    clock = GameClock(TimeControl(90, 2, moves=40), chess)
    try:
        pos = start_position(chess)
        for san, seconds in (("e4", 1.25), (None, None), ("Nf3", 0.5), (None, None)):
            if san is None:   # the engine's move, on the clock's budget with the seat's depth
                info = agent.choose(pos, clock.budget(pos.army, Budget(depth=5)))
                assert clock.punch(pos, 0.0) is None
                pos.push(info.move)
            else:
                assert clock.punch(pos, seconds) is None
                pos.push(parse_move(pos, san))
    finally:
        agent.close()
    sent = logged(log)
    # The control once, when the line starts (40 moves, 1:30, 2 s a move), with sd; the clocks in
    # centiseconds before each go, the engine's own first (Black's: 90 s, then 90 + 2).
    first = sent.index("new")
    assert sent[first:] == ["new", "force", "easy", "post", "level 40 1:30 2", "sd 5", "usermove e2e4", "time 9000",
                            "otim 9075", "ping 1", "go", "force", "usermove g1f3", "time 9200", "otim 9225",
                            "ping 2", "go", "force", "quit"]
    # An engine that declared time=0 gets the control only; a node budget cannot go with a clock.
    log.unlink()
    agent = parse_agent(fake("moves", "e2e4", "-notime", f"-log={log}")).make()
    try:
        agent.choose(start_position(chess), clock.budget(0))
        with pytest.raises(UsageError, match="takes no node budget over XBoard .under a game clock"):
            agent.choose(start_position(chess), clock.budget(0, Budget(nodes=100)))
    finally:
        agent.close()
    assert not any(line.startswith(("time ", "otim ", "st ")) for line in logged(log))


def test_a_refused_move_forfeits(chess):
    # The engine's rules differ from ours: it answers 'Illegal move' to a move they allow.
    agent = parse_agent(fake("refuse")).make()
    pos = start_position(chess)
    pos.push(parse_move(pos, "e4"))
    with pytest.raises(Forfeit, match="Fake XBoard refused a move the rules allow: 'Illegal move: e2e4'"):
        agent.choose(pos, Budget(time=1))
    agent.close()


def test_features_without_done_count_once_the_engine_is_quiet(chess):
    agent = parse_agent(fake("moves", "e2e4", "-nodone")).make()
    assert agent.choose(start_position(chess), Budget(time=1)).move == parse_move(start_position(chess), "e4")
    assert agent.engine_name == "Fake XBoard" and "Skill" in agent.offered
    agent.close()


def test_a_program_that_is_no_xboard_engine_fails_to_start(chess, monkeypatch):
    monkeypatch.setattr(xboard_engine, "HANDSHAKE", 1.0)   # what a silent program is given to answer
    silent = "import sys; all(line.strip() != 'quit' for line in sys.stdin)"   # reads until 'quit', says nothing
    agent = parse_agent(f"xboard:{shlex.join([sys.executable, '-c', silent])}").make()
    with pytest.raises(Forfeit, match="did not answer 'protover 2' with features in 1 s"):
        agent.choose(start_position(chess), Budget(time=1))
    agent.close()


# ------------------------------------------------------------------ real engines


@pytest.mark.parametrize("variant", ["chess", "xiangqi", "capablanca"])
def test_our_own_xboard_engine_plays_a_short_game(variant):
    # Xiangqi has ten ranks (XBoard names them from 0) and Capablanca ten files.
    result, sans, stats = short_game(variant, f"xboard:{OURS}:nodes=300")
    game = load_game(variant)
    assert result is None or result.rule != FORFEIT, result.describe(game)
    assert len(sans) >= 24 or result is not None
    won = result is not None and game.turn_order[0] in result.winners   # a quick mate of the random player
    assert stats[0].moves >= 6 or (won and stats[0].moves >= 3)


def test_fairy_stockfish_over_xboard_keeps_its_own_clock(chess):
    fairy_or_skip()
    # Told 'level 0 0:03 0.1' and its clock before each move, it spends a share of it: were 'time' or the
    # level ignored, it would search until it lost on time.
    engine = parse_agent(f"xboard:{FAIRY}").make()
    clock = GameClock(TimeControl(3, 0.1), chess)
    try:
        result, sans, stats = play_game(chess, {0: (engine, Budget()), 1: (RandomAgent(7), Budget())},
                                        max_plies=24, clock=clock)
    finally:
        engine.close()
    assert result is None or result.rule not in (FORFEIT, TIME_FORFEIT), result.describe(chess)
    assert stats[0].moves >= 5 and clock.left["white"] > 0


def test_fairy_stockfish_over_xboard_takes_no_node_budget(chess):
    fairy_or_skip()
    agent = parse_agent(f"xboard:{FAIRY}:nodes=1000").make()
    with pytest.raises(UsageError, match="takes no node budget over XBoard"):
        agent.choose(start_position(chess), Budget(nodes=1000))
    agent.close()
