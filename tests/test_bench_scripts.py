"""The benchmark scripts against engines (bench/tactics.py, fsf_match.py, agent_vs_agent.py),
bench/search_depth.py and bench/search_speed.py: their argument checks, the pieces that need no
engine, and search_speed's reading of Stockfish where it is installed. The benchmarks themselves
are not run here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import chess
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import agent_vs_agent, fsf_match, search_depth, search_speed, tactics  # noqa: E402
from bench.common import LineProcess, team_points  # noqa: E402

FAIRY = "/usr/games/fairy-stockfish"
STOCKFISH = "/usr/games/stockfish"
MATE_IN_TWO = "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 1"   # 1. Nf5+ gxf5 2. Qxf5# (or Qh5#)


def test_forces_mate_in_two():
    board = chess.Board(MATE_IN_TWO)
    assert tactics.forces_mate(board, board.parse_san("Nf5+"), 2)
    assert not tactics.forces_mate(board, board.parse_san("Qxb7"), 2)
    assert board.fen() == MATE_IN_TWO   # left as it was


def test_epd_suite_best_and_avoid_moves(tmp_path):
    (tmp_path / "bratko_kopec_test.epd").write_text(
        '1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";\n'
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am f3; id "x";\n')
    first, second = tactics.read_suite("bk", tmp_path)
    assert first.name == "BK.01" and first.expected() == "Qd1+"
    assert first.solved_by(first.board.parse_san("Qd1+")) and not first.solved_by(first.board.parse_san("Qc6"))
    assert not first.solved_by(None) and not first.solved_by(chess.Move.from_uci("a1a8"))
    assert second.solved_by(chess.Move.from_uci("e2e4")) and not second.solved_by(chess.Move.from_uci("f2f3"))


BAD_ARGUMENTS = [
    (tactics, ["--seconds", "0"]), (tactics, ["--limit", "0"]), (tactics, ["--suite", "nosuch"]),
    (fsf_match, ["--skill"]), (fsf_match, ["--time", "0"]), (fsf_match, ["--games", "0"]),
    (fsf_match, ["--agent", "nosuch"]), (fsf_match, ["--clock", "60:00"]), (fsf_match, ["--clock", "0"]),
    (fsf_match, ["--variants", "nosuch"]),
    (agent_vs_agent, ["--games", "0"]), (agent_vs_agent, ["--nodes", "0"]),
    (agent_vs_agent, ["--variants", "fourplayer_ffa"]),   # four teams
    (agent_vs_agent, ["--variants", "nosuch"]), (agent_vs_agent, ["--agent", "nosuch"]),
    (fsf_match, ["--pgn", "/nonexistent/games.pgn"]), (agent_vs_agent, ["--pgn", "/nonexistent/games.pgn"]),
    (search_depth, ["--depth", "0"]), (search_depth, ["nosuch"]), (search_depth, ["chess", "--dir", "/nonexistent"]),
    (search_speed, ["nosuch"]), (search_speed, ["--seconds", "0"]), (search_speed, ["--repeat", "0"]),
    (search_speed, ["--stockfish", "/nonexistent/stockfish"]),
]


@pytest.mark.parametrize("script, argv", BAD_ARGUMENTS, ids=lambda x: getattr(x, "__name__", None) or " ".join(x))
def test_scripts_refuse_bad_arguments(script, argv):
    """A usage error (exit status 2) before any engine is started or any game played."""
    with pytest.raises(SystemExit) as exit_:
        script.main(argv)
    assert exit_.value.code == 2


def test_search_speed_made_positions_per_leaf():
    """Bulk perft to depth 3 from the chess start makes the 20 + 400 positions above its last ply
    for its 8,902 leaves."""
    assert search_speed._made_per_leaf([20, 400, 8902]) == 420 / 8902


def test_search_speed_reads_a_uci_engines_perft_and_search():
    """Stockfish's perft and search in the units of our own (perft to depth 2 has 400 leaves; the
    search reports its rate and depth)."""
    if not Path(STOCKFISH).exists():
        pytest.skip("stockfish is not installed ('make engines' installs it)")
    row = search_speed.measure_stockfish(STOCKFISH, "chess", 0.2, 1, depth=2)
    assert row["perft_depth"] == 2 and row["perft_full_nps"] is None
    assert abs(row["perft_made_ps"] - row["perft_bulk_nps"] * 20 / 400) <= 1    # both rounded
    assert row["search_nps"] > 0 and row["search_depth"] >= 1


def test_fsf_positions_compare_promoted_pieces_and_hands_alike():
    ours = "lnsgkgsnl/1r5b1/ppppp+B~ppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL[sppp] w - - 24 13"
    theirs = "lnsgkgsnl/1r5b1/ppppp+Bppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL[ppps] w - - 0 13"
    assert fsf_match.position_key(ours) == fsf_match.position_key(theirs)
    assert fsf_match.position_key(ours) != fsf_match.position_key(theirs.replace(" w ", " b "))
    assert fsf_match.position_key("8/8/8/8/8/8/8/K1k5 w - - 0 1")[1] == ""


def test_fsf_match_leaves_a_game_unscored_where_the_positions_differ(monkeypatch, capsys):
    if not Path(FAIRY).exists():
        pytest.skip("fairy-stockfish is not installed ('make engines' installs it)")
    keys = iter([0, 0, *range(1, 10**6)])   # the start, checked before the games, agrees; no position after it
    monkeypatch.setattr(fsf_match, "position_key", lambda fen: next(keys))
    assert fsf_match.main(["--variants", "chess", "--skill", "0", "--games", "1", "--time", "0.05",
                           "--fairy-stockfish", FAIRY]) == 0
    out = capsys.readouterr().out
    assert "UNSCORED after 3 plies: forfeit: Fairy-Stockfish's position differs from ours" in out
    assert "chess against skill 0: 1 unscored" in out


def test_team_points():
    assert team_points(SimpleNamespace(winners=()), {0}) == 0.5
    assert team_points(SimpleNamespace(winners=(0, 2)), {0, 2}) == 1.0
    assert team_points(SimpleNamespace(winners=(1, 3)), {0, 2}) == 0.0
    assert team_points(SimpleNamespace(winners=(0, 1)), {0}) == 0.5


def test_agent_worker_answers_with_a_legal_move():
    worker = LineProcess([sys.executable, str(ROOT / "bench" / "agent_worker.py"), "--variant", "chess",
                          "--nodes", "50"], "worker", cwd=str(ROOT))
    try:
        assert worker.expect(lambda line: line.startswith(("ready", "error")), 60)[-1].startswith("ready ")
        worker.send("newgame 3")
        assert worker.expect(lambda line: True, 60) == ["ok"]
        worker.send(f"position {chess.STARTING_FEN} moves e2e4 e7e5")
        assert worker.expect(lambda line: True, 60) == ["ok"]
        worker.send("go")
        words = worker.expect(lambda line: True, 60)[-1].split()
        board = chess.Board()
        board.push_uci("e2e4")
        board.push_uci("e7e5")
        assert words[0] == "bestmove" and chess.Move.from_uci(words[1]) in board.legal_moves
        worker.send("position not a fen")
        assert worker.expect(lambda line: True, 60)[-1].startswith("error ")
    finally:
        worker.close()
    assert worker.proc.returncode == 0
    assert subprocess.run([sys.executable, str(ROOT / "bench" / "agent_worker.py"), "--help"],
                          capture_output=True).returncode == 0
