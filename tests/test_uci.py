"""``rules uci`` driven by a real client, python-chess's ``chess.engine``, and by raw protocol lines.

Searches are bounded by nodes or depth wherever the test allows, and every
wait is generous: the machine may be loaded. Timing is never asserted.
"""

from __future__ import annotations

import subprocess
import sys
import time

import chess
import chess.engine
import chess.variant
import pytest

from engine_client import WAIT, Raw

UCI = [sys.executable, "-m", "interpreter.cli", "uci"]


@pytest.fixture(scope="module")
def engine():
    engine = chess.engine.SimpleEngine.popen_uci(UCI, timeout=WAIT)
    yield engine
    engine.quit()


@pytest.fixture
def raw():
    engine = Raw(UCI)
    yield engine
    if engine.process.poll() is None:
        engine.close()


def _errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error:")]


# ------------------------------------------------------------------ python-chess as the GUI
def test_handshake_offers_the_variants_uci_can_carry(engine):
    assert engine.id["name"].startswith("rules-dsl")
    variants = engine.options["UCI_Variant"].var
    assert {"chess", "atomic", "crazyhouse", "kingofthehill", "3check", "capablanca", "xiangqi"} <= set(variants)
    assert not {"superchess", "rocket", "glinski", "mccooey", "locking"} & set(variants)
    assert engine.options["UCI_Variant"].default == "chess"
    assert {"VariantPath", "UCI_Chess960", "Agent", "Move Overhead", "Clear Hash"} <= set(engine.options)


def test_analysis_reports_every_info_field(engine):
    board = chess.Board()
    board.push_san("e4")
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["depth"] == 2
    assert info["seldepth"] >= 2
    assert isinstance(info["score"], chess.engine.PovScore)
    assert info["nodes"] > 0 and "nps" in info and "time" in info
    assert info["pv"] and info["pv"][0] in board.legal_moves


@pytest.mark.parametrize("limit", [
    chess.engine.Limit(depth=2),
    chess.engine.Limit(nodes=300),
    chess.engine.Limit(time=0.3),
    chess.engine.Limit(white_clock=20, black_clock=20),
    chess.engine.Limit(white_clock=20, black_clock=20, white_inc=0.5, black_inc=0.5),
    chess.engine.Limit(white_clock=4, black_clock=4, remaining_moves=5),  # about 0.7 s a move
], ids=["depth", "nodes", "movetime", "clock", "clock+increment", "movestogo"])
def test_play_with_each_time_control(engine, limit):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for _ in range(2):
        result = engine.play(board, limit)
        assert result.move in board.legal_moves
        board.push(result.move)


def test_mate_in_one_is_found_and_scored_as_mate(engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("d1d8")


def test_stop_ends_an_infinite_analysis_with_a_best_move(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 1:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_options_are_set_through_python_chess(engine):
    engine.configure({"Move Overhead": 200, "Agent": "ai:alphabeta:depth=1"})
    try:
        result = engine.play(chess.Board(), chess.engine.Limit(nodes=200))
        assert result.move in chess.Board().legal_moves
    finally:
        engine.configure({"Move Overhead": 30, "Agent": "ai"})


@pytest.mark.parametrize("board_type", [
    chess.variant.AtomicBoard, chess.variant.CrazyhouseBoard, chess.variant.KingOfTheHillBoard,
    chess.variant.ThreeCheckBoard, chess.variant.RacingKingsBoard, chess.variant.HordeBoard,
    chess.variant.AntichessBoard,
], ids=lambda t: t.uci_variant)
def test_variants_python_chess_knows_play_by_its_rules(engine, board_type):
    """python-chess selects the variant by UCI_Variant and sends FENs of its own; every move the
    engine answers is legal under python-chess's rules of that variant."""
    board = board_type()
    for _ in range(6):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(nodes=150))
        assert result.move in board.legal_moves, (board.fen(), result.move)
        board.push(result.move)


def test_crazyhouse_drops_travel_in_both_directions(engine):
    board = chess.variant.CrazyhouseBoard("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3")
    board.push_uci("P@d5")
    result = engine.play(board, chess.engine.Limit(depth=1))
    assert result.move in board.legal_moves


def test_chess960_castling_is_written_as_king_takes_rook(engine):
    board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    for _ in range(4):
        result = engine.play(board, chess.engine.Limit(nodes=200))
        assert result.move in board.legal_moves
        board.push(result.move)


# ------------------------------------------------------------------ raw protocol lines
def test_uciok_comes_before_any_heavy_module_is_imported():
    probe = (
        "import io, sys\n"
        "from interpreter.protocols.loop import Channel\n"
        "from interpreter.protocols.uci import UciEngine\n"
        "class Out(io.StringIO):\n"
        "    def write(self, text):\n"
        "        if text.startswith('uciok'):\n"
        "            print([m for m in ('pydantic', 'lark', 'networkx') if m in sys.modules], file=sys.stderr)\n"
        "        return super().write(text)\n"
        "UciEngine(Channel(io.StringIO('uci\\nquit\\n'), Out())).run()\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=WAIT)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "[]"


def test_isready_answers_at_once_while_searching_and_stop_gives_the_move(raw):
    raw.ask("uci", "position startpos moves e2e4")
    start = len(raw.lines)
    raw.send("go infinite", "isready")
    lines = raw.wait_for(lambda line: line == "readyok", since=start)
    assert not any(line.startswith("bestmove") for line in lines)  # still searching
    raw.send("stop")
    move = raw.best_move(start)
    board = chess.Board()
    board.push_san("e4")
    assert chess.Move.from_uci(move) in board.legal_moves


def test_go_infinite_waits_for_stop_even_when_the_search_ends(raw):
    raw.ask("position fen 7k/8/8/8/8/8/8/K6R w - - 0 1")   # small: the search soon reaches its end
    raw.send("go infinite")
    raw.wait_for(lambda line: line.startswith("info depth"))
    time.sleep(1)
    assert not any(line.startswith("bestmove") for line in raw.lines)
    raw.send("stop")
    raw.wait_for(lambda line: line.startswith("bestmove"))


def test_a_ponder_hit_searches_on_until_the_time_its_go_gave(raw):
    raw.ask("uci", "position startpos moves e2e4 e7e5")
    start = len(raw.lines)
    raw.send("go ponder movetime 60000")     # a minute from the go ponder: the hit leaves most of it
    raw.wait_for(lambda line: line.startswith("info depth"), since=start)
    raw.send("ponderhit")
    time.sleep(1)
    assert not any(line.startswith("bestmove") for line in raw.lines[start:])   # searching on
    raw.send("stop")
    board = chess.Board()
    board.push_san("e4")
    board.push_san("e5")
    assert chess.Move.from_uci(raw.best_move(start)) in board.legal_moves


def test_a_ponder_hit_ends_by_the_go_s_time_or_at_once_when_it_has_passed(raw):
    raw.ask("uci", "position startpos moves e2e4")
    for movetime in (1500, 1):   # time left at the hit (the search ends by itself), none left (at once)
        start = len(raw.lines)
        raw.send(f"go ponder movetime {movetime}")
        raw.wait_for(lambda line: line.startswith("info depth"), since=start)
        raw.send("ponderhit")
        assert raw.best_move(start) in {m.uci() for m in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
                                                                     " b KQkq - 0 1").legal_moves}
    start = len(raw.lines)
    raw.send("go ponder depth 64")   # no time among the limits: the hit gives the move at once
    raw.wait_for(lambda line: line.startswith("info depth"), since=start)
    raw.send("ponderhit")
    raw.best_move(start)


def test_bad_input_is_answered_with_info_strings_and_the_engine_goes_on(raw):
    lines = raw.ask("uci", "frobnicate", "setoption name Nonsense value 3", "setoption name Agent value nobody",
                    "position fen 8/8/8 w - - 0 1", "position startpos moves e2e4 e7e5 e1e3",
                    "go depth zero", "go nodes " + "9" * 5000, "go movetime \u00b2",
                    "setoption name Move Overhead value \u00b2", "setoption name Agent value ai:time=nan")
    errors = _errors(lines)
    assert any("go nodes needs a whole number" in e for e in errors)   # not int() of 5,000 digits
    assert any("go movetime needs a whole number" in e for e in errors)  # '²'.isdigit() is true
    assert any("Move Overhead is a number" in e for e in errors)
    assert any("not a finite number" in e for e in errors)
    assert any("unknown command 'frobnicate'" in e for e in errors)
    assert any("unknown option 'Nonsense'" in e for e in errors)
    assert any("unknown agent 'nobody'" in e for e in errors)
    assert any("the placement has 3 ranks" in e for e in errors)
    assert any("e1e3" in e for e in errors)
    assert any("go depth needs a whole number" in e for e in errors)
    # the moves before the illegal one were kept: Black's e7e5 is played, White is to move
    raw.send("go depth 1")
    move = raw.best_move()
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(move) in board.legal_moves
    assert raw.close() == 0


def test_no_legal_move_gives_bestmove_none(raw):
    raw.ask("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    raw.send("go depth 2")
    lines = raw.wait_for(lambda line: line.startswith("bestmove"))
    assert "bestmove (none)" in lines
    assert "info depth 0 score mate 0" in lines


def test_variant_change_is_announced_like_fairy_stockfish(raw):
    lines = raw.ask("setoption name UCI_Variant value capablanca")
    assert any(line.startswith("info string variant capablanca files 10 ranks 8 pocket 0 template fairy startpos "
                               "rnabqkbcnr/") for line in lines)
    raw.send("position startpos moves e2e4", "go nodes 200")
    assert len(raw.best_move()) >= 4


def test_a_variant_uci_cannot_carry_is_refused_with_the_way_to_play_it(raw):
    errors = _errors(raw.ask("setoption name UCI_Variant value superchess"))
    assert errors and "Superchess cannot be played over UCI" in errors[0] and "rules serve" in errors[0]
    run = subprocess.run(UCI + ["rocket"], capture_output=True, text=True, timeout=WAIT, input="quit\n")
    assert run.returncode == 2
    assert "Rocket Chess cannot be played over UCI" in run.stderr and "docs/serve.md" in run.stderr


def test_variantpath_plays_a_users_rules_file(raw, tmp_path):
    rules = tmp_path / "tiny.rules"
    rules.write_text('extends chess\nvariant tiny { title "Tiny" }\nsetup fen "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"\n')
    lines = raw.ask(f"setoption name VariantPath value {rules}")
    assert any(line.startswith("info string variant tiny files 8 ranks 8") for line in lines)
    raw.send("position startpos", "go depth 2")
    move = raw.best_move()
    assert chess.Move.from_uci(move) in chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").legal_moves
    combo = next(line for line in raw.ask("uci") if line.startswith("option name UCI_Variant"))
    assert "var tiny" in combo


def test_a_broken_users_file_is_reported_where_it_is_wrong(raw, tmp_path):
    rules = tmp_path / "broken.rules"
    rules.write_text("extends chess\npiece Wizard { letter W  betza \"Qx\" }\n")
    errors = _errors(raw.ask(f"setoption name VariantPath value {rules}"))
    assert errors and "broken.rules:2:" in errors[0]
    assert _errors(raw.ask("isready")) == []  # the engine stays with chess: one bad file spoils nothing later
    raw.send("go depth 1")
    assert chess.Move.from_uci(raw.best_move()) in chess.Board().legal_moves


def test_a_depth_beyond_the_deepest_search_is_cut_to_it_as_engines_do(raw):
    from dsl.limits import SEARCH_DEPTH
    from interpreter.protocols.session import budget_of
    assert budget_of(depth=10 ** 18).depth == SEARCH_DEPTH.value and budget_of(depth=3).depth == 3
    raw.ask("uci", "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    for go in ("go depth 999999999999999999", "go mate 999999999999999999"):
        start = len(raw.lines)
        raw.send(go)
        assert raw.best_move(start) == "a1a8"
    assert _errors(raw.lines) == []
