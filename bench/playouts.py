"""Random playouts of this engine against python-chess, in the same process, per ply.

Run from the repository root::

    .venv/bin/python bench/playouts.py                  # 40 games each, median of 3
    .venv/bin/python bench/playouts.py --games 100 --repeat 5 --json

A playout starts from the initial position and plays uniformly random legal
moves until the game ends by its own rules. Ours: ``pos.legal_moves()``, then
``outcome(pos, legal)`` (checkmate, stalemate, threefold repetition, the
fifty-move rule, insufficient material, as ``variants/chess.rules`` says)
before every move. python-chess: ``board.is_game_over()`` before every move
(its automatic ends: checkmate, stalemate, insufficient material, fivefold
repetition, the 75-move rule), then ``list(board.legal_moves)``. Games end at
different plies in the two engines, so the measure is plies per second: each
ply is one legal-move generation, one end-of-game test and one move made.

The ratio is ours / python-chess in plies per second (above 1: this engine
is faster). Each repetition plays ``--games`` games with each engine, the two
alternating, from the same seeds; the medians of the repetitions are shown.

The alpha-beta agent's nodes per second (a search of ``--seconds`` from the
start position and from Kiwipete) are printed beside them: a search node
generates the legal moves, asks the outcome and evaluates.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import chess

from interpreter import native
from interpreter.agents import Budget
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, position_from_fen, start_position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def our_playouts(game, games: int, seed: int) -> int:
    """Play ``games`` random games of ``game`` from its start; the number of plies played."""
    plies = 0
    for g in range(games):
        rng = random.Random(seed + g)
        pos = start_position(game)
        while True:
            legal = pos.legal_moves()
            if outcome(pos, legal) is not None:
                break
            pos.push(rng.choice(legal))
            plies += 1
    return plies


def reference_playouts(games: int, seed: int) -> int:
    """The same with python-chess, stopping at ``board.is_game_over()``; the number of plies played."""
    plies = 0
    for g in range(games):
        rng = random.Random(seed + g)
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies


def _rate(run) -> tuple[int, float]:
    start = time.perf_counter()
    plies = run()
    seconds = time.perf_counter() - start
    return plies, plies / seconds


def measure_playouts(games: int, repeat: int, seed: int = 1) -> dict:
    """Plies per second of both engines (medians of ``repeat`` alternating runs) and their ratio."""
    game = load_game("chess")
    ours, theirs, ratios = [], [], []
    plies = reference_plies = 0
    for r in range(repeat):
        plies, a = _rate(lambda: our_playouts(game, games, seed + r * games))
        reference_plies, b = _rate(lambda: reference_playouts(games, seed + r * games))
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return {"games": games, "repeat": repeat, "plies": plies, "reference_plies": reference_plies,
            "plies_per_second": round(statistics.median(ours)),
            "reference_plies_per_second": round(statistics.median(theirs)),
            "ratio": round(statistics.median(ratios), 3), "ratios": [round(x, 3) for x in ratios]}


def measure_search(seconds: float, repeat: int) -> list[dict]:
    """The alpha-beta agent's nodes per second from the start position and Kiwipete (medians)."""
    game = load_game("chess")
    rows = []
    for name, fen in (("startpos", None), ("kiwipete", KIWIPETE)):
        rates, depths = [], []
        for _ in range(repeat):
            pos = position_from_fen(game, fen) if fen else start_position(game)
            info = AlphaBeta().choose(pos, Budget(time=seconds))
            rates.append(info.nps)
            depths.append(info.depth)
        rows.append({"case": name, "seconds": seconds, "nodes_per_second": round(statistics.median(rates)),
                     "depth": statistics.median(depths)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per engine and repetition (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (median reported; default 3)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per alpha-beta search (default 2; 0: none)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    play = measure_playouts(args.games, args.repeat)
    search = measure_search(args.seconds, args.repeat) if args.seconds > 0 else []
    if args.json:
        print(json.dumps({"python_chess": chess.__version__, "engine": native.status, "playouts": play,
                          "search": search}, indent=2))
        return 0
    print(f"random playouts from the start, {args.games} games per engine, median of {args.repeat} "
          f"(python-chess {chess.__version__}; engine: {native.status})")
    print(f"  ours          {play['plies_per_second']:>9,} plies/s  ({play['plies']:,} plies in the last run)")
    print(f"  python-chess  {play['reference_plies_per_second']:>9,} plies/s  "
          f"({play['reference_plies']:,} plies in the last run)")
    print(f"  ratio         {play['ratio']:.2f}x  (per run: {', '.join(f'{x:.2f}' for x in play['ratios'])})")
    for row in search:
        print(f"alpha-beta {row['case']:<9} {row['nodes_per_second']:>9,} nodes/s  "
              f"(depth {row['depth']} in {row['seconds']:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
