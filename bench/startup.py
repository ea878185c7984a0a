"""Start-up times of the ``rules`` command: the median CPU time of whole processes, cold and warm.

    .venv/bin/python bench/startup.py              # median of 7 runs each
    .venv/bin/python bench/startup.py --repeat 15

Times ``rules --help``, ``rules list``, ``rules moves chess --json``, ``rules check
variants/rocket.rules`` and ``rules perft superchess --depth 1`` as separate processes (what a
user waits for), each in a cache directory of its own (``RULES_DSL_CACHE``, see
:mod:`dsl.caching`): **cold** runs find only the grammar's compiled parser stored (as on the first
run of a new or edited variant: the game is compiled, then stored), **warm** runs find the game
stored too (after one run that stores it). The time is the
CPU time of the process (user + system, from ``resource.getrusage``), which the other programs of
a shared machine disturb less than the wall time; quote medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["--help"], ["list"], ["moves", "chess", "--json"], ["check", str(ROOT / "variants" / "rocket.rules")],
            ["perft", "superchess", "--depth", "1"]]


def cpu_time(argv: list[str], cache: Path) -> float:
    """The user + system seconds of one ``rules`` process run with ``cache`` as its cache directory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "interpreter.cli", *argv], stdout=subprocess.DEVNULL, check=True,
                   env={**os.environ, "RULES_DSL_CACHE": str(cache)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_time(argv: list[str], folder: Path) -> float:
    """One run with no game stored: the cache ``folder / "cold"`` holds the grammar's parser alone.
    The parser stays where it was made: lark's cache key holds the cache file's path, so a parser
    copied to another folder is built again (as it never is on a user's machine)."""
    cache = folder / "cold"
    shutil.rmtree(cache / "games", ignore_errors=True)
    return cpu_time(argv, cache)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command and state (default 7)")
    args = parser.parse_args()
    print(f"{'command':<40} {'cold':>8} {'warm':>8}   CPU seconds, median of {args.repeat} (min-max)")
    with tempfile.TemporaryDirectory(prefix="rules-startup-") as name:
        folder = Path(name)
        cpu_time(["check", str(ROOT / "variants" / "chess.rules")], folder / "cold")   # stores the grammar's parser
        for argv in COMMANDS:
            cold = [cold_time(argv, folder) for _ in range(args.repeat)]
            warm_cache = folder / "warm"
            cpu_time(argv, warm_cache)   # stores the grammar and the game
            warm = [cpu_time(argv, warm_cache) for _ in range(args.repeat)]
            label = "rules " + " ".join(a if not a.startswith("/") else Path(a).relative_to(ROOT).as_posix() for a in argv)
            print(f"{label:<40} {statistics.median(cold):>7.3f}s {statistics.median(warm):>7.3f}s"
                  f"   cold {min(cold):.3f}-{max(cold):.3f}, warm {min(warm):.3f}-{max(warm):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
