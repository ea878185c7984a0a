"""Games per second of ``rules analyze`` with 1 and 2 workers, and what a task costs to schedule.

Run from the repository root (Dask, the ``cluster`` extra, for its rows)::

    .venv/bin/python bench/analysis_speed.py                    # median of 3
    .venv/bin/python bench/analysis_speed.py --games 48 --repeat 5 --variant chess --seat greedy

Two measurements:

1. **Scheduling cost**: ``--tasks`` empty tasks (batches of no game) sent
   through each backend, one after the other as a run sends them; the
   median seconds per task is what a task costs before any game is played.
2. **Games per second**: ``--games`` games (random agents by default, at most
   ``--max-plies`` plies, so that games are short and scheduling weighs as
   much as it ever will) played by the process pool and by a Dask
   LocalCluster with 1 and 2 workers, with one game per task and with the
   adaptive batches of :mod:`interpreter.analysis.execution`. Starting the
   pool or the cluster is timed apart (it is paid once per run).

The games are the same in every row (same seed): only who plays them changes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from interpreter.agents.matches import match_tasks
from interpreter.analysis import execution
from interpreter.analysis.logs import GameWatcher


def _backend(kind: str, workers: int):
    return execution.Pool(workers) if kind == "pool" else execution.Cluster(workers)


def scheduling_cost(kind: str, tasks: int) -> float:
    """Median seconds per empty task, sent one at a time through a backend of one worker."""
    backend = _backend(kind, 1)
    try:
        backend.submit([])
        backend.next_done()             # the worker is up
        times = []
        for _ in range(tasks):
            start = time.perf_counter()
            backend.submit([])
            backend.next_done()
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    finally:
        backend.close()


def games_per_second(kind: str, workers: int, tasks, batch: int | None) -> tuple[float, float]:
    """(start-up seconds, games per second) of one run of ``tasks`` on a fresh backend."""
    start = time.perf_counter()
    backend = _backend(kind, workers)
    backend.submit(tasks[:1])           # a first game: the workers have imported and compiled the game
    backend.next_done()
    ready = time.perf_counter()
    played = []
    try:
        execution.run_tasks(tasks, backend, played.append, batch)
    finally:
        backend.close()
    return ready - start, len(played) / (time.perf_counter() - ready)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--seat", default="random")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--max-plies", type=int, default=80)
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    kinds = ["pool"]
    try:
        import distributed  # noqa: F401
        kinds.append("dask")
    except ImportError:
        print("distributed is not installed: only the process pool is measured", file=sys.stderr)
    tasks = match_tasks(args.variant, [args.seat], range(args.games), max_plies=args.max_plies, seed=1,
                        observer=GameWatcher)
    print(f"{args.variant}, {args.seat} self-play, {args.games} games of at most {args.max_plies} plies, "
          f"median of {args.repeat}")
    print(f"{'backend':<6} {'cost per empty task':>20}")
    for kind in kinds:
        cost = statistics.median(scheduling_cost(kind, args.tasks) for _ in range(args.repeat))
        print(f"{kind:<6} {cost * 1000:>17.2f} ms")
    print(f"\n{'backend':<6} {'workers':>7} {'batch':>6} {'start s':>8} {'games/s':>8}")
    for kind in kinds:
        for workers in (1, 2):
            for batch in (1, None):
                runs = [games_per_second(kind, workers, tasks, batch) for _ in range(args.repeat)]
                start = statistics.median(r[0] for r in runs)
                rate = statistics.median(r[1] for r in runs)
                print(f"{kind:<6} {workers:>7} {batch or 'auto':>6} {start:>8.2f} {rate:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
