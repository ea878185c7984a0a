"""Full games through python-chess with ``rules uci`` and ``rules xboard`` as the engines (not part of CI).

Two matches, both refereed by python-chess's own rules (an independent
implementation of each variant), so every move our engine sends is checked
by a program that is not ours:

- ``stockfish``: ``rules uci`` against Stockfish at its weakest
  (``UCI_LimitStrength`` at its lowest ``UCI_Elo``, one thread), on a game
  clock (``wtime``/``btime``/``winc``/``binc``), colours alternating::

      apt-get install stockfish
      .venv/bin/python bench/engine_match.py stockfish --games 10 --clock 60 --inc 1

- ``variants``: in variants python-chess knows (``atomic``, ``crazyhouse``,
  ``kingofthehill``, ...), ``rules uci`` (chosen by ``UCI_Variant``) against
  ``rules xboard`` (chosen by ``variant``), both our alpha-beta agent with
  the same node budget, colours alternating::

      .venv/bin/python bench/engine_match.py variants --variants atomic,crazyhouse,kingofthehill --games 4

Each pair of games starts from the same ``--opening-plies`` random moves; a
game still running after ``--max-plies`` is a draw. The script prints every
game and the score with an Elo estimate and its 95% interval
(``interpreter.agents.stats``); ``--pgn`` writes the games. Its numbers
depend on the machine and, against Stockfish, on Stockfish's strength
limiting.
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import sys
import time

import chess
import chess.engine
import chess.pgn
import chess.variant

from dsl.errors import UsageError

from interpreter.agents.stats import estimate
from interpreter.loading.records import RecordsFile

RULES = [sys.executable, "-m", "interpreter.cli"]
WAIT = 300.0


class Clock:
    """Both sides' remaining seconds, charged with the time each move took and credited the increment."""

    def __init__(self, seconds: float, increment: float) -> None:
        self.left = {chess.WHITE: seconds, chess.BLACK: seconds}
        self.increment = increment

    def limit(self) -> chess.engine.Limit:
        return chess.engine.Limit(white_clock=self.left[chess.WHITE], black_clock=self.left[chess.BLACK],
                                  white_inc=self.increment, black_inc=self.increment)

    def charge(self, side: chess.Color, seconds: float) -> bool:
        """Charge ``side``; False when its flag fell."""
        self.left[side] -= seconds
        if self.left[side] < 0:
            return False
        self.left[side] += self.increment
        return True


def play_game(board: chess.Board, engines: dict[chess.Color, chess.engine.SimpleEngine], limit_of,
              max_plies: int, opening: list[chess.Move]) -> tuple[str, str, chess.Board]:
    """Play ``board`` out: the result (``1-0``, ``0-1``, ``1/2-1/2``), why, and the board."""
    for move in opening:
        board.push(move)
    clock = limit_of()
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= max_plies:
            return "1/2-1/2", f"adjudicated after {max_plies} plies", board
        side = board.turn
        limit = clock.limit() if isinstance(clock, Clock) else clock
        started = time.perf_counter()
        result = engines[side].play(board, limit, game=id(board))
        spent = time.perf_counter() - started
        if isinstance(clock, Clock) and not clock.charge(side, spent):
            return ("0-1" if side == chess.WHITE else "1-0"), "lost on time", board
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"no legal move sent ({result.move})", board
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), outcome.termination.name.lower().replace("_", " "), board


def openings(seed: int, pair: int, board_type, plies: int) -> list[chess.Move]:
    rng = random.Random(f"{seed}/{pair}")
    board, moves = board_type(), []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def score_of(result: str, ours_white: bool) -> float:
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == ours_white else 0.0


def record(board: chess.Board, white: str, black: str, result: str, why: str, event: str) -> str:
    """The PGN of the game played on ``board``, ending with a line break (as ``RecordsFile`` wants it)."""
    game = chess.pgn.Game.from_board(board)
    game.headers.update({"Event": event, "White": white, "Black": black, "Result": result, "Termination": why})
    if type(board).uci_variant != "chess":
        game.headers["Variant"] = type(board).uci_variant
    return str(game) + "\n"


def report(points: list[float], label: str, base: float = 0.0) -> None:
    est = estimate(points)
    wins, losses = points.count(1.0), points.count(0.0)
    scale = f"; estimate {base + est.difference:.0f} [{base + est.low:.0f}, {base + est.high:.0f}]" if base else ""
    print(f"{label}: {sum(points)}/{len(points)} ({100 * est.score:.1f}%): +{wins} ={len(points) - wins - losses} "
          f"-{losses}; Elo difference {est}{scale}", flush=True)


def stockfish_match(args, records: RecordsFile) -> None:
    ours = chess.engine.SimpleEngine.popen_uci(RULES + ["uci", "--agent", args.agent], timeout=WAIT)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish, timeout=WAIT)
    points: list[float] = []
    try:
        elo = stockfish.options["UCI_Elo"].min if args.elo is None else args.elo
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1})
        print(f"rules uci ({args.agent}) against {stockfish.id.get('name')} at UCI_Elo {elo}, "
              f"clock {args.clock} s + {args.inc} s", flush=True)
        for i in range(args.games):
            ours_white = i % 2 == 0
            engines = {chess.WHITE: ours if ours_white else stockfish, chess.BLACK: stockfish if ours_white else ours}
            result, why, board = play_game(chess.Board(), engines, lambda: Clock(args.clock, args.inc), args.max_plies,
                                           openings(args.seed, i // 2, chess.Board, args.opening_plies))
            points.append(score_of(result, ours_white))
            names = ("rules-dsl", f"Stockfish {elo}") if ours_white else (f"Stockfish {elo}", "rules-dsl")
            records.add(record(board, *names, result, why, "rules uci against Stockfish"))
            print(f"game {i + 1:>3}: we play {'White' if ours_white else 'Black'}: {result} ({why}, "
                  f"{board.ply()} plies), our points {points[-1]}; total {sum(points)}/{len(points)}", flush=True)
        report(points, "score of rules uci", elo)
    finally:
        ours.quit()
        stockfish.quit()


BOARDS = {cls.uci_variant: cls for cls in (
    chess.variant.AtomicBoard, chess.variant.CrazyhouseBoard, chess.variant.KingOfTheHillBoard,
    chess.variant.ThreeCheckBoard, chess.variant.RacingKingsBoard, chess.variant.HordeBoard,
    chess.variant.AntichessBoard)}


def variants_match(args, records: RecordsFile) -> None:
    uci = chess.engine.SimpleEngine.popen_uci(RULES + ["uci"], timeout=WAIT)
    xboard = chess.engine.SimpleEngine.popen_xboard(RULES + ["xboard"], timeout=WAIT)
    all_points: list[float] = []
    limit = chess.engine.Limit(nodes=args.nodes)
    try:
        for name in args.variants.split(","):
            board_type = BOARDS[name]
            points = []
            print(f"{name}: rules uci against rules xboard, {args.nodes} nodes a move", flush=True)
            for i in range(args.games):
                uci_white = i % 2 == 0
                engines = {chess.WHITE: uci if uci_white else xboard, chess.BLACK: xboard if uci_white else uci}
                result, why, board = play_game(board_type(), engines, lambda: limit, args.max_plies,
                                               openings(args.seed, i // 2, board_type, args.opening_plies))
                points.append(score_of(result, uci_white))
                names = ("rules uci", "rules xboard") if uci_white else ("rules xboard", "rules uci")
                records.add(record(board, *names, result, why, f"rules uci against rules xboard, {name}"))
                print(f"  game {i + 1:>3}: uci plays {'White' if uci_white else 'Black'}: {result} ({why}, "
                      f"{board.ply()} plies), points of rules uci {points[-1]}", flush=True)
            report(points, f"  {name}, score of rules uci")
            all_points += points
        report(all_points, "all variants, score of rules uci")
    finally:
        uci.quit()
        xboard.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match", choices=["stockfish", "variants"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--agent", default="ai", help="our agent spec for the Stockfish match (default ai)")
    parser.add_argument("--clock", type=float, default=60.0, help="seconds on each clock (Stockfish match)")
    parser.add_argument("--inc", type=float, default=1.0, help="increment in seconds (Stockfish match)")
    parser.add_argument("--elo", type=int, default=None, help="Stockfish's UCI_Elo (default: its minimum)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--variants", default="atomic,crazyhouse,kingofthehill")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move in the variants match")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pgn", help="write the games to this file (each as it ends)")
    args = parser.parse_args(argv)
    logging.getLogger("chess.engine").setLevel(logging.ERROR)  # XBoard's setup and piece lines are news to it
    try:
        records = RecordsFile(args.pgn)    # an unwritable path fails before any game
    except UsageError as err:
        parser.error(str(err))
    with records:
        (stockfish_match if args.match == "stockfish" else variants_match)(args, records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
