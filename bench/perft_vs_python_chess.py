"""Perft speed of this engine against python-chess, in the same process.

Run from the repository root::

    .venv/bin/python bench/perft_vs_python_chess.py            # table, median of 3
    .venv/bin/python bench/perft_vs_python_chess.py --repeat 5 --json

Two modes, both counting the same leaves:

- ``full``: every move down to depth 0 is made and unmade (ours:
  ``perft(pos, d, bulk=False)``; python-chess: ``push`` / ``pop`` of every
  legal move, leaves included);
- ``bulk``: the last ply is only counted (ours: ``perft(pos, d, bulk=True)``;
  python-chess: ``board.legal_moves.count()`` at depth 1).

The ratio is ours / python-chess in nodes per second: above 1 this engine
is faster, below 1 slower (0.5 = half the speed of python-chess).

Reusable: other benchmarks import :class:`Case`, :func:`run_case`,
:func:`format_table` and add their own cases (another variant of ours
against a ``chess.variant`` board class, say)::

    from bench.perft_vs_python_chess import Case, run_cases, format_table
    import chess.variant
    rows = run_cases([Case("atomic-start", "atomic", None, 3, chess.variant.AtomicBoard)], repeat=3)
    print(format_table(rows))
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import chess

from interpreter import native
from interpreter.loading import load_game
from interpreter.engine.perft import perft
from interpreter.loading import position_from_fen, start_fen

MODES = ("full", "bulk")


@dataclass(frozen=True)
class Case:
    """A perft to time: ``variant`` of ours (bundled name) from ``fen`` (None: its start) to ``depth``.

    ``reference`` makes the python-chess board from a FEN (a board class such
    as ``chess.Board`` or ``chess.variant.AtomicBoard``, or any callable).
    """

    name: str
    variant: str
    fen: str | None
    depth: int
    reference: Callable[[str], chess.Board] = chess.Board


CASES = [
    Case("startpos", "chess", None, 4),
    Case("kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
]


@dataclass
class Row:
    case: str
    variant: str
    mode: str
    depth: int
    fen: str
    nodes: int
    reference_nodes: int
    seconds: float                       # median over the repetitions
    reference_seconds: float
    times: list[float] = field(default_factory=list)
    reference_times: list[float] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return self.nodes == self.reference_nodes

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds else float("inf")

    @property
    def reference_nps(self) -> float:
        return self.reference_nodes / self.reference_seconds if self.reference_seconds else float("inf")

    @property
    def ratio(self) -> float:
        """Ours / python-chess, in nodes per second (> 1: ours is faster)."""
        return self.nps / self.reference_nps

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(agree=self.agree, nps=round(self.nps), reference_nps=round(self.reference_nps),
                 ratio=round(self.ratio, 3))
        return d


# ---------------------------------------------------------------- python-chess perft
def reference_perft_full(board: chess.Board, depth: int) -> int:
    """python-chess perft, making and unmaking every move including the leaves."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += reference_perft_full(board, depth - 1)
        board.pop()
    return total


def reference_perft_bulk(board: chess.Board, depth: int) -> int:
    """python-chess perft counting the last ply with ``legal_moves.count()``."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += reference_perft_bulk(board, depth - 1)
        board.pop()
    return total


# ---------------------------------------------------------------- timing
def _timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = fn()
    return nodes, time.perf_counter() - start


def run_case(case: Case, mode: str, repeat: int = 3) -> Row:
    """Time ``case`` in ``mode`` with both engines, ``repeat`` times each (alternating); medians."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    game = load_game(case.variant)
    fen = case.fen if case.fen is not None else start_fen(game)
    bulk = mode == "bulk"
    ref_fn = reference_perft_bulk if bulk else reference_perft_full
    ours_t, ref_t = [], []
    nodes = ref_nodes = -1
    for _ in range(repeat):
        pos = position_from_fen(game, fen)            # set-up cost is not timed
        nodes, t = _timed(lambda: perft(pos, case.depth, bulk=bulk))
        ours_t.append(t)
        board = case.reference(fen)
        ref_nodes, t = _timed(lambda: ref_fn(board, case.depth))
        ref_t.append(t)
    return Row(case.name, case.variant, mode, case.depth, fen, nodes, ref_nodes,
               statistics.median(ours_t), statistics.median(ref_t), ours_t, ref_t)


def run_cases(cases: list[Case], modes: tuple[str, ...] = MODES, repeat: int = 3,
              progress: Callable[[str], None] | None = None) -> list[Row]:
    rows = []
    for case in cases:
        for mode in modes:
            if progress:
                progress(f"{case.name} {mode} depth {case.depth} x{repeat}...")
            rows.append(run_case(case, mode, repeat))
    return rows


# ---------------------------------------------------------------- output
def format_table(rows: list[Row]) -> str:
    header = ("case", "mode", "d", "nodes", "python-chess", "ok", "ours s", "ours n/s", "pc s", "pc n/s",
              "ratio")
    lines = [header]
    for r in rows:
        lines.append((r.case, r.mode, str(r.depth), f"{r.nodes:,}", f"{r.reference_nodes:,}",
                      "yes" if r.agree else "NO", f"{r.seconds:.3f}", f"{r.nps:,.0f}",
                      f"{r.reference_seconds:.3f}", f"{r.reference_nps:,.0f}", f"{r.ratio:.2f}x"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for k, line in enumerate(lines):
        out.append("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))))
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def environment(repeat: int) -> dict:
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "python_chess": chess.__version__, "machine": platform.machine(), "repeat": repeat,
            "statistic": "median", "engine": native.status}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per engine (median reported; default 3)")
    parser.add_argument("--mode", choices=(*MODES, "both"), default="both", help="full, bulk or both (default)")
    parser.add_argument("--case", action="append", choices=[c.name for c in CASES],
                        help="run only this case (repeatable; default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    cases = [c for c in CASES if not args.case or c.name in args.case]
    modes = MODES if args.mode == "both" else (args.mode,)
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    rows = run_cases(cases, modes, args.repeat, progress)
    if args.json:
        print(json.dumps({"environment": environment(args.repeat), "rows": [r.to_dict() for r in rows]}, indent=2))
    else:
        env = environment(args.repeat)
        print(f"perft: this engine vs python-chess {env['python_chess']} "
              f"({env['implementation']} {env['python']}, median of {args.repeat}; engine: {env['engine']})")
        print(format_table(rows))
        print("ratio = ours n/s / python-chess n/s (above 1: this engine is faster)")
    disagree = [r for r in rows if not r.agree]
    for r in disagree:
        print(f"node counts differ: {r.case} {r.mode} depth {r.depth}: ours {r.nodes}, python-chess "
              f"{r.reference_nodes} ({r.fen})", file=sys.stderr)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
