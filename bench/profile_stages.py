"""Where the engine's time goes, per stage, measured with the sampling profiler py-spy.

Run from the repository root (``pip install py-spy`` first; it samples the
running interpreter from outside, so it barely slows the program down)::

    .venv/bin/python bench/profile_stages.py                      # every workload
    .venv/bin/python bench/profile_stages.py perft-bulk playouts  # some of them
    .venv/bin/python bench/profile_stages.py --variant rocket --depth 3 perft-full

Workloads: ``perft-bulk`` and ``perft-full`` (from the start, and for chess
from Kiwipete one ply less deep), ``playouts`` (random games until the end). Each runs in a child
process under ``py-spy record``; every sample is given to the stage of the
innermost frame inside ``interpreter/`` (a built-in it calls counts for the
line that called it):

- generation: the move-generation closures, ``engine/generation.py``
  (castling and drops included), ``engine/moves.py`` and stacking moves;
- legality: ``engine/legality.py`` and ``engine/attacks.py`` (pins, attack
  tests, the filters), without the make/unmake they ask for;
- make/unmake: ``engine/position.py``, but for the lines that compute
  Zobrist keys or append to the history, which are
- hashing;
- outcome and repetition: ``engine/outcome.py`` and the compiled end rules;
- driver: perft's own loop and the benchmark's.

Samples outside the workload (imports, compiling the game) are left out.
"""

from __future__ import annotations

import argparse
import linecache
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
WORKLOADS = ("perft-bulk", "perft-full", "playouts")
STAGES = ("generation", "legality", "make/unmake", "hashing", "outcome and repetition", "driver", "other")
MARK = "_run"  # the function whose samples count
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>.*):(?P<line>\d+)\)$")
HASH_LINE = re.compile(r"\bh \^=|mask_key|_key\(|\bz_|_hand_delta|history|rehash")


def _workload(kind: str, variant: str, depth: int, games: int) -> None:
    """The code that is profiled (run in the child process)."""
    from bench.playouts import our_playouts
    from interpreter.engine.perft import perft
    from interpreter.loading import load_game, position_from_fen, start_position

    name, _, mode = variant.partition("@")
    game = load_game(name, mode or None)
    starts = [(start_position(game), depth)] + ([(position_from_fen(game, KIWIPETE), depth - 1)] if name == "chess" else [])
    _run(kind, game, starts, games, perft, our_playouts)


def _run(kind, game, starts, games, perft, playouts) -> None:
    """The samples that count: from here down."""
    if kind == "playouts":
        playouts(game, games, 0)
        return
    for pos, depth in starts:
        perft(pos, depth, bulk=kind == "perft-bulk")


def _stage(file: str, line: int, function: str) -> str:
    path = file.replace(os.sep, "/")
    if "interpreter/engine/position.py" in path:
        text = linecache.getline(str(ROOT / "interpreter/engine/position.py"), line)
        return "hashing" if HASH_LINE.search(text) or function in ("mask_key", "_promoted_key", "_privilege_key",
                                                                   "_hand_delta") else "make/unmake"
    if "interpreter/engine/perft.py" in path or "bench/" in path:
        return "driver"
    if any(p in path for p in ("interpreter/compiler/generators.py", "interpreter/engine/generation.py",
                               "interpreter/engine/moves.py", "interpreter/engine/stacking.py")):
        return "generation"
    if any(p in path for p in ("interpreter/engine/legality.py", "interpreter/engine/attacks.py")):
        return "legality"
    if any(p in path for p in ("interpreter/engine/outcome.py", "interpreter/compiler/end_rules.py",
                               "interpreter/compiler/expressions.py")):
        return "outcome and repetition"
    return "other"


def stages_of(raw: str) -> Counter:
    """Samples per stage from py-spy's raw (collapsed stack) output."""
    counts: Counter = Counter()
    for row in raw.splitlines():
        stack, _, number = row.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        frames = [FRAME.match(f) for f in stack.split(";")]
        frames = [f for f in frames if f]
        marks = [i for i, f in enumerate(frames) if f["function"] == MARK]
        if not marks:
            continue
        inner = [f for f in frames[marks[0]:] if "interpreter/" in f["file"].replace(os.sep, "/")
                 or "bench/" in f["file"].replace(os.sep, "/")]
        leaf = inner[-1]
        counts[_stage(leaf["file"], int(leaf["line"]), leaf["function"])] += int(number)
    return counts


def profile(kind: str, variant: str, depth: int, games: int, rate: int) -> Counter:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "raw.txt"
        code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bench.profile_stages import _workload; "
                f"_workload({kind!r}, {variant!r}, {depth}, {games})")
        subprocess.run([spy, "record", "--format", "raw", "-r", str(rate), "-o", str(out), "--",
                        sys.executable, "-c", code], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return stages_of(out.read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS), metavar="WORKLOAD",
                        help=f"of {', '.join(WORKLOADS)} (default: all)")
    parser.add_argument("--variant", default="chess", help="bundled variant, NAME@MODE for a play mode (default chess)")
    parser.add_argument("--depth", type=int, default=None, help="perft depth (default 4 for chess, else 3)")
    parser.add_argument("--games", type=int, default=30, help="playouts (default 30)")
    parser.add_argument("--rate", type=int, default=250, help="samples per second (default 250)")
    args = parser.parse_args(argv)
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}; choose from {', '.join(WORKLOADS)}")
    spy = shutil.which("py-spy") or Path(sys.executable).with_name("py-spy")
    if not Path(spy).exists():
        parser.error("py-spy is not installed: pip install py-spy")
    depth = args.depth or (4 if args.variant == "chess" else 3)
    print(f"{'workload':<12} {'samples':>8} " + " ".join(f"{s:>12}" for s in STAGES))
    for kind in args.workloads:
        counts = profile(kind, args.variant, depth, args.games, args.rate)
        total = sum(counts.values()) or 1
        print(f"{kind:<12} {total:>8} " + " ".join(f"{100 * counts[s] / total:>11.1f}%" for s in STAGES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
