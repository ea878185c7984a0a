"""External engines as players (``uci:COMMAND``, ``xboard:COMMAND``): specs, the position given, forfeits, game clocks, the server's rule.

What both protocols share is tested on both; what is XBoard's own, in
tests/test_xboard_engine.py. The misbehaving engines are
``tests/data/engines/fake_uci.py`` and ``fake_xboard.py`` (an illegal move,
no move, silence, an exit); the real one is Debian's Fairy-Stockfish, whose
tests skip where it is not installed (and fail under CI, where ``make
engines`` installs it).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from external_engines import FAIRY, PROTOCOLS, fairy_or_skip, fake_spec, short_game

from dsl.errors import UsageError
from interpreter.agents import Budget, Forfeit, parse_agent
from interpreter.agents.clock import TIME_GRACE, GameClock, TimeControl
from interpreter.agents.external import engine_fen
from interpreter.agents.matches import play_game
from interpreter.agents.simple import RandomAgent
from interpreter.agents.specs import ENGINE_PREFIXES, ENGINES
from interpreter.cli.main import main
from interpreter.engine.outcome import FORFEIT, TIME_FORFEIT
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.reading import parse_move
from interpreter.protocols.loop import EXTERNAL_PREFIXES


@pytest.fixture()
def chess():
    return load_game("chess")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_spec_parts(protocol):
    spec = parse_agent(f"{protocol}:/usr/games/fairy-stockfish:time=0.5:Skill Level=3:variant=shogi:Hash=16")
    assert spec.kind == protocol and spec.command == "/usr/games/fairy-stockfish"
    assert spec.budget == Budget(time=0.5)
    assert spec.engine_options == (("Skill Level", "3"), ("Hash", "16"))
    assert spec.variant == "shogi"
    assert spec.label == f"{protocol}:/usr/games/fairy-stockfish:time=0.5:Skill Level=3:variant=shogi:Hash=16"
    assert isinstance(spec.make(), ENGINES[protocol])
    # The engine protocols refuse external engines by the same prefixes, read without importing the agents.
    assert EXTERNAL_PREFIXES == ENGINE_PREFIXES


@pytest.mark.parametrize("text, words", [
    ("uci:", "needs a command"),
    ("uci: :time=1", "needs a command"),
    ("uci:'unbalanced", "No closing quotation"),
    ("uci:engine:Skill Level", "is not NAME=VALUE"),
    ("uci:engine:time=fast", "not a number"),
    ("uci:engine:Hash=1\nquit", "line break"),
    ("ucx:engine", "unknown agent"),
    ("xboard:", "needs a command"),
    ("xboard:engine:depth", "is not NAME=VALUE"),
    ("xboard:engine:nodes=many", "not a number"),
    ("xboard:engine:Skill=1\nquit", "line break"),
])
def test_bad_specs_are_usage_errors(text, words):
    with pytest.raises(UsageError, match=words):
        parse_agent(text)


def test_moves_and_the_line_given(chess):
    agent = parse_agent(fake_spec("uci", "moves", "e2e4", "g1f3")).make()
    try:
        pos = start_position(chess)
        info = agent.choose(pos, Budget(time=0.2))
        assert info.move == parse_move(pos, "e4")
        assert info.score == 12 and info.depth == 1
        pos.push(info.move)
        pos.push(parse_move(pos, "e5"))
        # The opponent's move is found from the position's history: the engine sees the game's moves.
        assert agent.position_command(pos) == "position startpos moves e2e4 e7e5"
        assert agent.choose(pos, Budget(time=0.2)).move == parse_move(pos, "Nf3")
        # A position that is not the continuation starts a new line from its FEN.
        other = position_from_fen(chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        assert agent.position_command(other) == "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    finally:
        agent.close()
    assert agent.process is None


def test_promoted_mark_is_dropped_for_engines():
    shogi = load_game("shogi")
    pos = position_from_fen(shogi, "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[b] b - - 0 4")
    assert "+B~" not in engine_fen(pos) and "+B" in engine_fen(pos)


@pytest.mark.parametrize("protocol, mode, moves, reason", [
    ("uci", "moves", ("e2e5",), "illegal move 'e2e5'"),
    ("uci", "none", (), "bestmove (none) where the rules allow 20 moves"),
    ("uci", "exit", (), "exited with status 3 (stderr: fake engine: giving up)"),
    ("xboard", "moves", ("e2e5",), "illegal move 'e2e5'"),
    ("xboard", "moves", ("@@@@",), "move @@@@ where the rules allow 20 moves"),
    ("xboard", "exit", (), "exited with status 3 (stderr: fake engine: giving up)"),
    ("xboard", "resign", (), "Fake XBoard resigned"),
    ("xboard", "claim", (), "claimed '1/2-1/2 {Draw by repetition}' where the rules play on"),
    ("xboard", "usererror", (), "reported an error: 'Illegal position: no king'"),
])
def test_a_misbehaving_engine_forfeits(chess, protocol, mode, moves, reason):
    agent = parse_agent(fake_spec(protocol, mode, *moves)).make()
    with pytest.raises(Forfeit) as caught:
        agent.choose(start_position(chess), Budget(time=0.2))
    assert reason in str(caught.value)
    agent.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_silent_engine_is_stopped_then_forfeits(chess, protocol):
    agent = parse_agent(fake_spec(protocol, "hang")).make()
    agent.grace = 0.3
    started = time.monotonic()
    with pytest.raises(Forfeit, match="did not answer in"):
        agent.choose(start_position(chess), Budget(time=0.2))
    # The budget (over XBoard, st 1: whole seconds), the grace and the wait after 'stop' or '?': no hang.
    assert time.monotonic() - started < 10
    agent.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_forfeit_ends_the_game_and_keeps_its_moves(chess, protocol):
    engine = parse_agent(fake_spec(protocol, "moves", "e2e4", "e1e3")).make()   # the second move is illegal
    players = {0: (engine, Budget(time=0.2)), 1: (RandomAgent(1), Budget())}
    result, sans, _ = play_game(chess, players)
    engine.close()
    assert result.rule == FORFEIT and result.winners == (1,)
    assert sans[0] == "e4" and len(sans) == 2
    assert "illegal move 'e1e3'" in result.describe(chess)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_engine_under_a_clock_is_told_both_clocks(chess, tmp_path, protocol):
    log = tmp_path / "received.txt"
    engine = parse_agent(fake_spec(protocol, "moves", "e2e4", "g1f3", f"-log={log}")).make()
    players = {0: (engine, Budget(time=0.2)), 1: (RandomAgent(1), Budget())}
    clock = GameClock(TimeControl(5, 0.5, moves=40), chess)
    try:
        result, sans, _ = play_game(chess, players, max_plies=4, clock=clock)
    finally:
        engine.close()
    assert result is None and sans[0] == "e4" and sans[2] == "Nf3"
    sent = log.read_text().splitlines()
    assert not any(line.startswith(("st ", "go movetime")) for line in sent)   # the clock, not a time a move
    if protocol == "uci":
        # In milliseconds, both sides' clocks and increments, and the engine's moves to the control.
        first, second = ({word: int(n) for word, n in zip(go[1::2], go[2::2])}
                         for go in (line.split() for line in sent) if go[0] == "go")
        assert first == {"wtime": 5000, "btime": 5000, "winc": 500, "binc": 500, "movestogo": 40}
        assert second["winc"] == second["binc"] == 500 and second["movestogo"] == 39
        mine, theirs, unit = second["wtime"], second["btime"], 1000
    else:
        # The control once (40 moves, 5 s, 0.5 s a move), then its clock and its opponent's in centiseconds.
        assert [line for line in sent if line.startswith("level ")] == ["level 40 0:05 0.5"]
        clocks = [line for line in sent if line.startswith(("time ", "otim "))]
        assert clocks[:2] == ["time 500", "otim 500"] and len(clocks) == 4
        mine, theirs, unit = int(clocks[2][5:]), int(clocks[3][5:]), 100
    assert 5 * unit < mine <= 5.5 * unit and 5 * unit < theirs <= 5.5 * unit
    assert clock.after[0] == pytest.approx(mine / unit, abs=1 / unit)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_slow_engine_loses_on_time_and_the_record_is_kept(tmp_path, capsys, protocol):
    # 1.5 s for the game and 0.6 s a move: the third move oversteps the 0.3 s left by more than the grace.
    pgn = tmp_path / "games.pgn"
    seat = fake_spec(protocol, "slow", "0.6", "e2e4", "g1f3", "f1c4")
    status = main(["match", "chess", "--seat", seat, "--seat", "random", "--games", "1", "--jobs", "1",
                   "--opening-plies", "0", "--clock", "1.5", "--pgn", str(pgn), "--json"])
    assert status == 0
    game = json.loads(capsys.readouterr().out)["results"][0]
    assert game["result"] == "0-1" and game["plies"] == 4
    took, left = map(float, re.fullmatch(r"Black wins by time forfeit: White took (\S+) s with (\S+) s left",
                                         game["termination"]).groups())
    assert took >= 0.6 and took > left + TIME_GRACE and left <= 0.3
    record = pgn.read_text()
    assert f'[Termination "{game["termination"]}"]' in record and '[TimeControl "1.5"]' in record
    assert re.search(r"1\. e4 \{\[%clk 0:00:00\.\d\d\]\} 1\.\.\. \S+ \{\[%clk 0:00:01\.\d\d\]\} 2\. Nf3", record)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_silent_engine_under_a_clock_loses_on_time(chess, protocol):
    # It is told to stop (UCI's stop, XBoard's ?) once its clock and the grace have run out, and does not
    # answer that either.
    engine = parse_agent(fake_spec(protocol, "hang")).make()
    players = {0: (engine, Budget(time=0.2)), 1: (RandomAgent(1), Budget())}
    try:
        result, sans, _ = play_game(chess, players, clock=GameClock(TimeControl(0.3), chess))
    finally:
        engine.close()
    assert result.rule == TIME_FORFEIT and result.winners == (1,) and sans == []
    assert "White took 2." in result.describe(chess)   # 0.3 s, the grace, then two seconds after the stop


def test_a_game_the_engine_does_not_play_is_refused():
    agent = parse_agent(fake_spec("uci", "moves", "a1a2")).make()
    with pytest.raises(UsageError, match="does not play xiangqi"):
        agent.choose(start_position(load_game("xiangqi")), Budget(time=0.2))
    agent.close()
    unknown = parse_agent(fake_spec("uci", "moves", "e2e4", options=":Threads=2")).make()
    with pytest.raises(UsageError, match="has no option 'Threads'"):
        unknown.choose(start_position(load_game("chess")), Budget(time=0.2))
    unknown.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_program_that_does_not_exist_forfeits(chess, protocol):
    agent = parse_agent(f"{protocol}:/nonexistent/engine").make()
    with pytest.raises(Forfeit, match="could not be started"):
        agent.choose(start_position(chess), Budget(time=0.2))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_play_records_the_forfeit(tmp_path, capsys, protocol):
    record = tmp_path / "game.pgn"
    status = main(["play", "chess", "--white", fake_spec(protocol, "moves", "e2e5"), "--black", "random",
                   "--pgn", str(record)])
    out = capsys.readouterr().out
    assert status == 0
    assert "White forfeits" in out and "Black wins by forfeit" in out
    text = record.read_text()
    assert '[Result "0-1"]' in text and "forfeit" in text


@pytest.mark.parametrize("command", ["uci", "xboard"])
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_engine_protocols_refuse_an_external_engine(capsys, command, protocol):
    assert main([command, "--agent", fake_spec(protocol, "moves", "e2e4")]) == 2
    assert "not an external engine" in capsys.readouterr().err


# ------------------------------------------------------------------ the server


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_server_requests_cannot_start_programs(protocol):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.server.app import create_app

    client = TestClient(create_app())
    answer = client.post("/api/games", json={"variant": "chess", "seats": {"black": fake_spec(protocol, "moves", "e7e5")}})
    assert answer.status_code == 400
    assert "starts no program" in answer.json()["message"]
    answer = client.post("/api/games", json={"variant": "chess", "seats": {"black": "engine:fairy"}})
    assert answer.status_code == 400 and "no engine 'fairy'" in answer.json()["message"]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_server_offers_the_operators_engines_and_shows_a_forfeit(protocol):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.server.app import create_app
    from interpreter.server.command import probe_engines

    engines = probe_engines([f"fake={fake_spec(protocol, 'moves', 'e7e4')}"])
    try:
        client = TestClient(create_app(engines=engines))
        checked = client.post("/api/check", json={"variant": "chess"}).json()
        assert checked["variant"]["seat_kinds"]["engine:fake"] == "fake (engine)"
        xiangqi = client.post("/api/check", json={"variant": "xiangqi"}).json()
        assert "engine:fake" not in xiangqi["variant"]["seat_kinds"]
        state = client.post("/api/games", json={"variant": "chess", "moves": "e4",
                                                "seats": {"black": "engine:fake"}}).json()
        for _ in range(50):
            state = client.get(f"/api/games/{state['id']}?wait=1").json()
            if state.get("result"):
                break
        assert "forfeit" in state["result"]["text"]
        assert "illegal move 'e7e4'" in state["result"]["text"]
    finally:
        engines.close()


# ------------------------------------------------------------------ Fairy-Stockfish itself


@pytest.mark.parametrize("spec, variant", [
    (f"uci:{FAIRY}:nodes=2000:Threads=1", "shogi"),
    (f"uci:{FAIRY}:nodes=2000:Threads=1", "xiangqi"),
    (f"uci:{FAIRY}:nodes=2000:Threads=1", "crazyhouse"),
    (f"xboard:{FAIRY}:depth=3", "chess"),   # Fairy-Stockfish 11.1 takes no node budget over XBoard
    (f"xboard:{FAIRY}:depth=3", "shogi"),
    (f"xboard:{FAIRY}:depth=3", "xiangqi"),
])
def test_fairy_stockfish_plays_a_short_game(spec, variant):
    fairy_or_skip()
    result, sans, stats = short_game(variant, spec)
    # Every move it answered was legal by our rules (else the game was forfeited) over 20 of its turns.
    assert result is None or result.rule != FORFEIT, result.describe(load_game(variant))
    assert len(sans) >= 20 or result is not None
    assert stats[0].moves >= 5


def test_fairy_stockfish_reports_the_position_it_was_given():
    fairy_or_skip()
    game = load_game("chess")
    engine = parse_agent(f"uci:{FAIRY}:nodes=500").make()
    try:
        pos = start_position(game)
        for san in ("e4", "d5", "exd5", "Qxd5", "Nc3"):
            pos.push(parse_move(pos, san))
        assert engine.reported_fen(pos).split()[:2] == engine_fen(pos).split()[:2]
        assert engine.choose(pos, Budget(nodes=500)).move in pos.legal_moves()   # the 'd' lines left are ignored
    finally:
        engine.close()


def test_match_against_fairy_stockfish(capsys):
    fairy_or_skip()
    status = main(["match", "chess", "--seat", f"uci:{FAIRY}:nodes=500", "--seat", "random", "--games", "2",
                   "--jobs", "1", "--max-plies", "60"])
    out = capsys.readouterr().out
    assert status == 0
    assert "uci:" in out


def test_fairy_stockfish_plays_a_users_file_through_variant_path(tmp_path):
    fairy_or_skip()
    # A user's file named like a bundled variant, with other rules: it must not be played as FSF's chess.
    rules = tmp_path / "chess.rules"
    rules.write_text((Path(__file__).parent.parent / "docs" / "examples" / "extraqueen.rules").read_text()
                     .replace("variant extraqueen", "variant chess"))
    game = load_game(str(rules))
    engine = parse_agent(f"uci:{FAIRY}:nodes=1000").make()
    try:
        pos = start_position(game)
        info = engine.choose(pos, Budget(nodes=1000))
        assert info.move in pos.legal_moves()
        assert engine.game is game and engine._ini is not None and Path(engine._ini).exists()
        assert "UCI_Variant" in engine.offered
        written = Path(engine._ini).read_text()
        assert written.startswith("[rules_chess]") and game.spec.setup is not None
    finally:
        engine.close()
    assert engine._ini is None


def test_a_game_fairy_stockfish_cannot_express_is_refused():
    fairy_or_skip()
    engine = parse_agent(f"uci:{FAIRY}:nodes=1000").make()
    with pytest.raises(UsageError, match="cannot be written for its VariantPath"):
        engine.choose(start_position(load_game("locking")), Budget(nodes=1000))
    engine.close()


def test_an_engine_that_reads_an_exported_game_otherwise_is_refused(tmp_path):
    fairy_or_skip()
    # Debian's Fairy-Stockfish 11.1 ignores settings newer than itself (a pawn of its own, pawnTypes):
    # the perft check after VariantPath catches it before a move is played. A newer engine that reads
    # the section as it is written plays it instead.
    engine = parse_agent(f"uci:{FAIRY}:nodes=500").make()
    try:
        pos = start_position(load_game("pawnback"))
        try:
            info = engine.choose(pos, Budget(nodes=500))
        except UsageError as err:
            assert "as another game" in str(err)
        except Forfeit as err:           # 11.1 crashes on some such sections: the game is forfeited
            assert "exited" in str(err)
        else:
            assert info.move in pos.legal_moves()
    finally:
        engine.close()
