"""Nodes and time the alpha-beta search takes to complete a fixed depth, per case.

Run from the repository root::

    .venv/bin/python bench/search_depth.py                  # every case at its depth
    .venv/bin/python bench/search_depth.py chess --depth 7  # one case, another depth

A change to the search's tables, ordering or pruning is measured here at equal depth: fewer
nodes for the same depth is a search that sees as far sooner (pruning changes what a depth
sees, so read those beside the tactics and games too). To compare two trees, run the script
of each tree with its own build (``PYTHONPATH=/path/to/tree .venv/bin/python
/path/to/tree/bench/search_depth.py``), one after the other or one per core.

The cases: ``chess`` searches the start position, Kiwipete and the 24 positions of the
Bratko-Kopec test (read from ``--dir``, as ``bench/tactics.py`` reads them) to depth 8; each
other game searches its start and the positions 2, 4, 6, 8 and 10 plies into a random game
seeded by the case's name (the same positions whatever the search does) to the case's depth.
Each search is a new agent: nothing is carried from one position to the next. Prints per case
the nodes, the seconds and the nodes per second, and their totals.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # bench.search_speed and bench.tactics, when run as a script

from bench.search_speed import KIWIPETE  # noqa: E402
from bench.tactics import DIRECTORY  # noqa: E402
from interpreter.agents import Budget  # noqa: E402
from interpreter.agents.alphabeta import AlphaBeta  # noqa: E402
from interpreter.loading import load_game, position_from_fen, start_position  # noqa: E402
GAME_PLIES = (0, 2, 4, 6, 8, 10)    # the plies of the seeded random game whose positions are searched
SUITE, GAME = "the start, Kiwipete and Bratko-Kopec", "six positions of a seeded random game"
# name -> (variant, mode, depth, the positions searched)
CASES = {
    "chess": ("chess", None, 8, SUITE),
    "shogi": ("shogi", None, 6, GAME),
    "xiangqi": ("xiangqi", None, 7, GAME),
    "superchess@4p": ("superchess", "4p", 4, GAME),
    "locking": ("locking", None, 5, GAME),
    "rocket": ("rocket", None, 6, GAME),
    "crazyhouse": ("crazyhouse", None, 6, GAME),
    "janggi": ("janggi", None, 6, GAME),
}


def chess_positions(game, directory: Path) -> list:
    """The chess start, Kiwipete and the Bratko-Kopec positions (their first four FEN fields)."""
    fens = [None, KIWIPETE]
    suite = directory / "bratko_kopec_test.epd"
    fens += [" ".join(line.split()[:4]) + " 0 1" for line in suite.read_text().splitlines() if line.strip()]
    return [position_from_fen(game, fen) if fen else start_position(game) for fen in fens]


def measure(name: str, depth: int | None, directory: Path) -> tuple[int, float]:
    """The nodes and seconds of the case's searches, all together."""
    variant, mode, default, positions = CASES[name]
    game = load_game(variant, mode)
    budget = Budget(depth=depth or default)
    nodes, seconds = 0, 0.0
    if positions == SUITE:
        for pos in chess_positions(game, directory):
            info = AlphaBeta().choose(pos, budget)
            nodes, seconds = nodes + info.nodes, seconds + info.time
        return nodes, seconds
    rng = random.Random(name)
    pos = start_position(game)
    for ply in range(max(GAME_PLIES) + 1):
        legal = pos.legal_moves()
        if not legal:
            break
        if ply in GAME_PLIES:
            info = AlphaBeta().choose(pos, budget)
            nodes, seconds = nodes + info.nodes, seconds + info.time
        pos.push(rng.choice(legal))
    return nodes, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=list(CASES), metavar="CASE", help=f"of {', '.join(CASES)}")
    parser.add_argument("--depth", type=int, help="the depth of every case's searches (default: each case's own)")
    parser.add_argument("--dir", type=Path, default=DIRECTORY, help=f"where bratko_kopec_test.epd is (default {DIRECTORY})")
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; choose from {', '.join(CASES)}")
    if args.depth is not None and not 1 <= args.depth <= 20:
        parser.error("--depth must be between 1 and 20")
    if any(CASES[c][3] == SUITE for c in args.cases) and not (args.dir / "bratko_kopec_test.epd").is_file():
        parser.error(f"no bratko_kopec_test.epd in {args.dir} (--dir)")
    print(f"{'case':<15} {'depth':>5} {'nodes':>11} {'seconds':>8} {'n/s':>8}")
    total_nodes, total_seconds = 0, 0.0
    for name in args.cases:
        print(f"{name} ...", end="\r", file=sys.stderr, flush=True)
        nodes, seconds = measure(name, args.depth, args.dir)
        seconds = max(seconds, 1e-9)
        total_nodes, total_seconds = total_nodes + nodes, total_seconds + seconds
        print(f"{name:<15} {args.depth or CASES[name][2]:>5} {nodes:>11,} {seconds:>8.1f} {nodes / seconds:>8,.0f}")
    print(f"{'total':<15} {'':>5} {total_nodes:>11,} {total_seconds:>8.1f} {total_nodes / max(total_seconds, 1e-9):>8,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
