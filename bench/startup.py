"""Start-up times of the ``rules`` command: the median wall time of whole processes.

    .venv/bin/python bench/startup.py              # median of 7 runs each
    .venv/bin/python bench/startup.py --repeat 15

Times ``rules --help``, ``rules list``, ``rules moves chess --json`` and
``rules check variants/rocket.rules`` as separate processes (what a user
waits for), after one warm-up run each so that the grammar cache exists.
Quote medians: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["--help"], ["list"], ["moves", "chess", "--json"], ["check", str(ROOT / "variants" / "rocket.rules")]]


def wall_time(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter.cli", *argv], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (default 7)")
    args = parser.parse_args()
    print(f"{'command':<40} {'median':>8} {'min':>8} {'max':>8}")
    for argv in COMMANDS:
        wall_time(argv)  # warm-up: the grammar cache, the OS file cache
        times = [wall_time(argv) for _ in range(args.repeat)]
        label = "rules " + " ".join(a if not a.startswith("/") else Path(a).relative_to(ROOT).as_posix() for a in argv)
        print(f"{label:<40} {statistics.median(times):>7.3f}s {min(times):>7.3f}s {max(times):>7.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
