"""``rules xboard`` driven by a real client, python-chess's ``chess.engine``, and by raw CECP lines.

Searches are bounded by depth or nodes wherever the test allows, and every
wait is generous: the machine may be loaded. Timing is never asserted.
"""

from __future__ import annotations

import subprocess
import sys

import chess
import chess.engine
import chess.variant
import pytest

from engine_client import WAIT, Raw, popen_xboard

XBOARD = [sys.executable, "-m", "interpreter.cli", "xboard"]


@pytest.fixture(scope="module")
def engine():
    engine = popen_xboard(XBOARD)
    yield engine
    engine.quit()


class RawXBoard(Raw):
    def ask(self, *lines: str) -> list[str]:
        """Send ``lines`` then a ``ping``; the lines answered up to its ``pong``."""
        self.pings = getattr(self, "pings", 0) + 1
        start = len(self.lines)
        self.send(*lines, f"ping {self.pings}")
        answered = self.wait_for(lambda line: line == f"pong {self.pings}", since=start)
        return answered[:answered.index(f"pong {self.pings}")]

    def move(self, since: int = 0) -> str:
        lines = self.wait_for(lambda line: line.startswith("move "), since=since)
        return next(line for line in lines if line.startswith("move ")).split()[1]


@pytest.fixture
def raw():
    engine = RawXBoard(XBOARD)
    engine.ask("xboard", "protover 2")
    yield engine
    if engine.process.poll() is None:
        engine.close()


# ------------------------------------------------------------------ python-chess as the GUI
def test_handshake_declares_the_features_and_variants(engine):
    assert engine.id["name"].startswith("rules-dsl")
    features = engine.protocol.features
    assert features["ping"] == 1 and features["setboard"] == 1 and features["usermove"] == 1
    variants = features["variants"].split(",")
    assert variants[0] == "normal"
    assert {"crazyhouse", "atomic", "3check", "kingofthehill", "fischerandom", "capablanca"} <= set(variants)
    assert not {"superchess", "rocket", "glinski", "mccooey", "locking", "chess", "threecheck"} & set(variants)


@pytest.mark.parametrize("limit", [
    chess.engine.Limit(depth=2),
    chess.engine.Limit(nodes=300),
    chess.engine.Limit(time=0.3),
    chess.engine.Limit(white_clock=20, black_clock=20, white_inc=0.5, black_inc=0.5),
    chess.engine.Limit(white_clock=4, black_clock=4, remaining_moves=5),  # about 0.7 s a move
], ids=["sd", "nps+st", "st", "level+time", "level with moves"])
def test_play_with_each_time_control(limit):
    engine = popen_xboard(XBOARD)  # nps and st last a session
    try:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        for _ in range(2):
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.quit()


def test_analysis_posts_thinking_with_a_principal_variation(engine):
    board = chess.Board()
    board.push_san("e4")
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["depth"] >= 2
    assert info["pv"] and info["pv"][0] in board.legal_moves
    assert info["nodes"] > 0 and "seldepth" in info and "nps" in info and "time" in info


def test_analysis_scores_a_mate_as_xboard_does(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(mate=1))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")


@pytest.mark.parametrize("board_type", [chess.variant.CrazyhouseBoard, chess.variant.AtomicBoard,
                                        chess.variant.ThreeCheckBoard, chess.variant.KingOfTheHillBoard],
                         ids=lambda t: t.xboard_variant)
def test_variants_python_chess_knows(engine, board_type):
    board = board_type()
    for _ in range(4):
        result = engine.play(board, chess.engine.Limit(depth=1))
        assert result.move in board.legal_moves, (board.fen(), result.move)
        board.push(result.move)


def test_chess960_through_fischerandom(engine):
    board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    for _ in range(2):
        result = engine.play(board, chess.engine.Limit(depth=1))
        assert result.move in board.legal_moves
        board.push(result.move)


# ------------------------------------------------------------------ raw CECP lines
def test_a_variant_xboard_does_not_know_is_set_up_with_betza_pieces(raw):
    lines = raw.ask("new", "variant amazon")
    setup = next(line for line in lines if line.startswith("setup "))
    assert setup.startswith("setup (PNBR") and " 8x8+0_fairy rnbakbnr/pppppppp/" in setup
    pieces = {line.split()[1]: line.split()[2] for line in lines if line.startswith("piece ")}
    assert pieces["A&"] == "QN" and pieces["K&"] == "KO2" and pieces["N&"] == "N"
    assert pieces["P&"] == "fmWfmniDfceF"
    assert not any(line.startswith("setup") for line in raw.ask("new", "variant capablanca"))  # XBoard knows it


def test_a_drop_variant_declares_its_holdings(raw):
    setup = next(line for line in raw.ask("variant pocketknight") if line.startswith("setup "))
    assert "8x8+1_fairy" in setup and "[Nn]" in setup


def test_lift_is_answered_with_highlight(raw):
    lines = raw.ask("new", "force", "lift g1")
    assert "highlight 8/8/8/8/8/5Y1Y/8/8" in lines
    lines = raw.ask("setboard 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "lift b7")
    assert "highlight 1M6/8/8/8/8/8/8/8" in lines
    lines = raw.ask("variant xiangqi", "lift b0")
    assert "highlight 9/9/9/9/9/9/9/Y1Y6/9/9" in lines  # ten ranks: XBoard numbers them 0 to 9


def test_the_engine_moves_after_go_and_after_the_users_move(raw):
    raw.ask("new", "sd 1")
    start = len(raw.lines)
    raw.send("usermove e2e4")           # the engine plays Black after 'new'
    reply = raw.move(start)
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(reply) in board.legal_moves
    start = len(raw.lines)
    raw.send("force", "undo", "undo", "go")   # back to the start; the engine plays White now
    assert chess.Move.from_uci(raw.move(start)) in chess.Board().legal_moves


def test_the_result_is_claimed_when_a_move_ends_the_game(raw):
    raw.ask("new", "force", "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "sd 2")
    start = len(raw.lines)
    raw.send("go")
    assert raw.move(start) == "d1d8"
    lines = raw.wait_for(lambda line: line.startswith("1-0"), since=start)
    assert "1-0 {White wins by checkmate}" in lines


def test_bad_input_gets_the_protocols_error_replies(raw):
    lines = raw.ask("new", "force", "usermove e2e5", "frobnicate", "setboard 8/8 w - - 0 1",
                    "variant superchess", "variant nonsense", "level 40", "st soon", "st 1e999", "st nan",
                    "level 40 inf 0", "sd \u00b2")
    assert any(line.startswith("Illegal move (") and line.endswith("): e2e5") for line in lines)
    assert "Error (unknown command): frobnicate" in lines
    assert any(line.startswith("tellusererror Illegal position: the placement has 2 ranks") for line in lines)
    refused = next(line for line in lines if line.endswith(": variant superchess"))
    assert refused.startswith("Error (Superchess cannot be played over XBoard") and "rules serve" in refused
    assert any(line.startswith("Error (unknown variant 'nonsense'") for line in lines)
    assert any(line.startswith("Error (level needs three values") for line in lines)
    assert any(line.startswith("Error (st needs a number") for line in lines)
    assert sum(line.startswith("Error (st needs a number of at least 0") for line in lines) == 2  # inf, nan
    assert any(line.startswith("Error (level 40 inf 0: not numbers") for line in lines)
    assert any(line.startswith("Error (sd needs a number") for line in lines)
    for line in lines:    # every error reply is one python-chess recognises as one
        if line.startswith(("Error", "Illegal move")):
            assert chess.engine.XBOARD_ERROR_REGEX.match(line), line
    assert raw.ask("usermove e2e4") == []   # still alive, and the position unharmed
    assert raw.close() == 0


def test_new_ends_the_node_rate_and_the_depth_limit(raw):
    raw.ask("new", "force", "nps 1", "st 5", "sd 1")   # five nodes a move, one ply
    start = len(raw.lines)
    raw.send("go")
    raw.move(start)
    # After 'new', st 1 is a second again (with nps 1 left over, it would be one node: no depth 2).
    raw.ask("new", "force", "st 1")
    start = len(raw.lines)
    raw.send("go")
    lines = raw.wait_for(lambda line: line.startswith("move "), since=start)
    assert any(line.split()[0] == "2" for line in lines if line[:1].isdigit())


def test_question_mark_makes_the_engine_move_now(raw):
    raw.ask("new", "force")
    start = len(raw.lines)
    raw.send("st 1000", "go")
    raw.wait_for(lambda line: line[:1].isdigit(), since=start)   # thinking
    raw.send("?")
    assert chess.Move.from_uci(raw.move(start)) in chess.Board().legal_moves


def test_a_board_xboard_cannot_carry_is_refused_on_the_command_line():
    run = subprocess.run(XBOARD + ["glinski"], capture_output=True, text=True, timeout=WAIT, input="quit\n")
    assert run.returncode == 2
    assert "cannot be played over XBoard" in run.stderr and "hexagons" in run.stderr
