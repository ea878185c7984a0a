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

Bulk perft also gives a unit an engine's own perft shares: the positions it
made (every position above the last ply, each made, its legal moves generated
and counted, then unmade) per second, "made/s". With ``--stockfish PATH`` the
chess cases are also measured in Stockfish through UCI (``go perft`` timed
from the command to its total, ``go movetime`` for the search), so the cost of
a search node in these units is read beside the best engine's on the same
machine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

from interpreter.agents import Budget
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.agents.process import LineProcess
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
    made = bulk * _made_per_leaf([perft(position(), d) for d in range(1, depth + 1)])
    rates, depths = [], []
    for _ in range(repeat):
        info = AlphaBeta().choose(position(), Budget(time=seconds))
        rates.append(info.nps)
        depths.append(info.depth)
    search = statistics.median(rates)
    return {"case": name, "perft_depth": depth, "perft_full_nps": round(full), "perft_bulk_nps": round(bulk),
            "perft_made_ps": round(made), "search_nps": round(search), "search_over_full": round(search / full, 3),
            "search_depth": statistics.median(depths)}


def _made_per_leaf(counts: list[int]) -> float:
    """Positions a bulk perft makes per leaf it counts: ``counts`` are perft at depths 1 to d; the
    positions made are those of depths 1 to d - 1 (the root is not made)."""
    return sum(counts[:-1]) / counts[-1]


# The cases a UCI engine is measured on: name -> (its UCI position, perft depth)
UCI_CASES = {"chess": ("startpos", 6), "kiwipete": (f"fen {KIWIPETE}", 5)}


def _set_position(engine: LineProcess, position: str) -> None:
    """Send ``position`` (a UCI ``position`` argument) and wait until the engine is ready."""
    engine.send(f"position {position}")
    engine.send("isready")
    engine.expect(lambda line: line == "readyok", 10)


def _uci_perft(engine: LineProcess, position: str, depth: int) -> tuple[int, float]:
    """(leaves, seconds) of a UCI engine's ``go perft depth`` from ``position`` (a UCI
    ``position`` argument), timed from the command to its total."""
    _set_position(engine, position)
    start = time.perf_counter()
    engine.send(f"go perft {depth}")
    last = engine.expect(lambda line: line.startswith("Nodes searched"), 600)[-1]
    return int(last.split(":")[1]), time.perf_counter() - start


def _uci_search(engine: LineProcess, position: str, seconds: float) -> tuple[int, int]:
    """(nodes a second, depth) that a UCI engine reports last in ``go movetime``."""
    engine.send("ucinewgame")
    _set_position(engine, position)
    engine.send(f"go movetime {round(seconds * 1000)}")
    lines = engine.expect(lambda line: line.startswith("bestmove"), seconds + 30)
    last = [line.split() for line in lines if line.startswith("info depth") and " nps " in line][-1]
    return int(last[last.index("nps") + 1]), int(last[last.index("depth") + 1])


def measure_stockfish(path: str, name: str, seconds: float, repeat: int, depth: int | None = None) -> dict:
    """The columns of :func:`measure` for a UCI engine at ``path`` (its perft counts the last ply in
    bulk: no full perft), to the case's perft depth or ``depth``."""
    position, usual = UCI_CASES[name]
    depth = depth or usual
    engine = LineProcess([path], path)
    try:
        engine.send("uci")
        engine.expect(lambda line: line == "uciok", 10)
        engine.send("setoption name Threads value 1")
        counts = [_uci_perft(engine, position, d)[0] for d in range(1, depth + 1)]
        bulk = statistics.median(leaves / time_ for leaves, time_ in
                                 (_uci_perft(engine, position, depth) for _ in range(repeat)))
        rates, depths = zip(*(_uci_search(engine, position, seconds) for _ in range(repeat)))
    finally:
        engine.close()
    return {"case": f"{name} ({Path(path).name})", "perft_depth": depth, "perft_full_nps": None, "perft_bulk_nps": round(bulk),
            "perft_made_ps": round(bulk * _made_per_leaf(counts)), "search_nps": round(statistics.median(rates)),
            "search_over_full": None, "search_depth": statistics.median(depths)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=list(CASES), metavar="CASE", help=f"of {', '.join(CASES)}")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per search (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (median reported; default 3)")
    parser.add_argument("--stockfish", metavar="PATH",
                        help="also measure this UCI engine (Stockfish: /usr/games/stockfish) on the chess cases")
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; choose from {', '.join(CASES)}")
    if not args.seconds > 0 or args.repeat < 1:
        parser.error("--seconds must be above 0 and --repeat at least 1")
    if args.stockfish and not shutil.which(args.stockfish):
        parser.error(f"--stockfish: no program {args.stockfish!r} (apt-get install stockfish: /usr/games/stockfish)")
    print(f"{'case':<26} {'d':>2} {'perft full n/s':>15} {'perft bulk n/s':>15} {'bulk made/s':>12} "
          f"{'search n/s':>11} {'search/full':>11} {'made/node':>9} {'depth':>5}")
    for name in args.cases:
        print(f"{name} ...", end="\r", file=sys.stderr, flush=True)
        _print_row(measure(name, args.seconds, args.repeat))
        if args.stockfish and name in UCI_CASES:
            _print_row(measure_stockfish(args.stockfish, name, args.seconds, args.repeat))
    return 0


def _print_row(r: dict) -> None:
    """One line of the table (a dash where the engine has no such figure)."""
    full = "-" if r["perft_full_nps"] is None else f"{r['perft_full_nps']:,}"
    ratio = "-" if r["search_over_full"] is None else f"{r['search_over_full']:.2f}x"
    print(f"{r['case']:<26} {r['perft_depth']:>2} {full:>15} {r['perft_bulk_nps']:>15,} {r['perft_made_ps']:>12,} "
          f"{r['search_nps']:>11,} {ratio:>11} {r['perft_made_ps'] / r['search_nps']:>9.1f} {r['search_depth']:>5}")


if __name__ == "__main__":
    sys.exit(main())
