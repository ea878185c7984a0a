"""Perft speed of bundled variants, against orthodox chess in the same run.

Run from the repository root::

    .venv/bin/python bench/variant_perft.py                  # default list, median of 3
    .venv/bin/python bench/variant_perft.py capablanca:3 xiangqi:3 --repeat 5
    .venv/bin/python bench/variant_perft.py superchess@2p:3       # a variant in a play mode

Each row times ``perft(start, depth)`` with bulk counting of the last ply
and with every leaf made and unmade, and prints nodes per second (of the
process's CPU time), the
ratio to orthodox chess's nodes per second in the same run and mode (1.0:
as fast per node as chess; each repetition times chess right before the
variant, and the median of the pairs' ratios is shown), and the mean number
of legal moves per node,
so that a bigger board's cost per *move* can be compared too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from interpreter.loading import load_game
from interpreter.engine.perft import perft
from interpreter.loading import start_position

DEFAULT = ["chess:3", "capablanca:3", "grand:3", "xiangqi:3", "shogi:3", "crazyhouse:3", "atomic:3",
           "glinski:3", "locking:3", "rocket:3", "superchess@4p:3", "superchess@2p:3"]


def _game(variant: str):
    """``name`` or ``name@mode``."""
    name, _, mode = variant.partition("@")
    return load_game(name, mode or None)


def _rate(game, depth: int, bulk: bool) -> tuple[int, float]:
    """Leaves and leaves per second of this process's CPU time (``time.process_time``: on a shared,
    loaded machine the wall clock also counts the time other processes had the core)."""
    pos = start_position(game)
    start = time.process_time()
    nodes = perft(pos, depth, bulk=bulk)
    return nodes, nodes / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=DEFAULT, metavar="VARIANT:DEPTH")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (median reported; default 3)")
    args = parser.parse_args(argv)
    cases = []
    for text in args.cases:
        name, _, depth = text.partition(":")
        cases.append((name, int(depth or 3)))
    if cases[0][0] != "chess":
        cases.insert(0, ("chess", 3))
    base_name, base_depth = cases[0]
    base = _game(base_name)
    print(f"{'variant':<15} {'d':>2} {'nodes':>10} {'bulk n/s':>10} {'x chess':>8} {'full n/s':>10} "
          f"{'x chess':>8} {'moves/node':>10}")
    for name, depth in cases:
        print(f"{name} ...", end="\r", file=sys.stderr, flush=True)
        game = _game(name)
        rates, ratios = {}, {}
        for bulk in (True, False):
            # Each repetition times chess right before the variant: the ratio of the pair is much
            # less sensitive to the load of a shared machine than either rate.
            mine, pairs = [], []
            for _ in range(args.repeat):
                _, chess_rate = _rate(base, base_depth, bulk)
                nodes, rate = _rate(game, depth, bulk)
                mine.append(rate)
                pairs.append(rate / chess_rate)
            rates[bulk], ratios[bulk] = statistics.median(mine), statistics.median(pairs)
        inner = perft(start_position(game), depth - 1) if depth > 1 else 1
        print(f"{name:<15} {depth:>2} {nodes:>10,} {rates[True]:>10,.0f} {ratios[True]:>7.2f}x "
              f"{rates[False]:>10,.0f} {ratios[False]:>7.2f}x {nodes / inner:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
