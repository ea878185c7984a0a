"""Search speed of the alpha-beta agent beside perft's, per position.

Run from the repository root::

    .venv/bin/python bench/search_speed.py                 # default cases, median of 3
    .venv/bin/python bench/search_speed.py --repeat 5 --seconds 3
    .venv/bin/python bench/search_speed.py rocket superchess@2p

For each case it times ``perft`` (every leaf made and unmade, and with bulk
counting of the last ply) and an alpha-beta search of ``--seconds`` from
the same position, and prints nodes per second of each (medians), the
ratio of search to full perft, and the depth the search completed. A
search node costs more than a perft node: the moves of the position (or
of the hash move alone), the legality of those tried, the ends, the
evaluation, ordering and the hash table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from interpreter.agents import Budget
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.engine.perft import perft
from interpreter.loading import load_game, position_from_fen, start_position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# name -> (variant, mode, FEN or None for the start, perft depth)
CASES = {
    "chess": ("chess", None, None, 3),
    "kiwipete": ("chess", None, KIWIPETE, 3),
    "locking": ("locking", None, None, 3),
    "superchess@4p": ("superchess", "4p", None, 3),
    "superchess@3p": ("superchess", "3p", None, 3),
    "superchess@2p": ("superchess", "2p", None, 2),
    "rocket": ("rocket", None, None, 3),
    "shogi": ("shogi", None, None, 3),
    "xiangqi": ("xiangqi", None, None, 3),
    "janggi": ("janggi", None, None, 3),
    "duck": ("duck", None, None, 2),      # a neutral piece moved after every move: 640 moves at the start
}


def _median_rate(run, repeat: int) -> tuple[float, int]:
    rates, extra = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes, extra = run()
        rates.append(nodes / (time.perf_counter() - start))
    return statistics.median(rates), extra


def measure(name: str, seconds: float, repeat: int) -> dict:
    variant, mode, fen, depth = CASES[name]
    game = load_game(variant, mode)

    def position():
        return position_from_fen(game, fen) if fen else start_position(game)

    full, _ = _median_rate(lambda: (perft(position(), depth, bulk=False), 0), repeat)
    bulk, _ = _median_rate(lambda: (perft(position(), depth, bulk=True), 0), repeat)
    rates, depths = [], []
    for _ in range(repeat):
        info = AlphaBeta().choose(position(), Budget(time=seconds))
        rates.append(info.nps)
        depths.append(info.depth)
    search = statistics.median(rates)
    return {"case": name, "perft_depth": depth, "perft_full_nps": round(full), "perft_bulk_nps": round(bulk),
            "search_nps": round(search), "search_over_full": round(search / full, 3),
            "search_depth": statistics.median(depths)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=list(CASES), metavar="CASE", help=f"of {', '.join(CASES)}")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per search (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (median reported; default 3)")
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; choose from {', '.join(CASES)}")
    print(f"{'case':<15} {'d':>2} {'perft full n/s':>15} {'perft bulk n/s':>15} {'search n/s':>11} "
          f"{'search/full':>11} {'depth':>5}")
    for name in args.cases:
        print(f"{name} ...", end="\r", file=sys.stderr, flush=True)
        r = measure(name, args.seconds, args.repeat)
        print(f"{r['case']:<15} {r['perft_depth']:>2} {r['perft_full_nps']:>15,} {r['perft_bulk_nps']:>15,} "
              f"{r['search_nps']:>11,} {r['search_over_full']:>10.2f}x {r['search_depth']:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
