"""Tactical test suites: how many positions our agent and Stockfish solve in a given time (not part of CI).

Run from the repository root (python-chess, the ``test`` extra, reads the suites and drives
Stockfish; Stockfish is the Debian package ``stockfish``: ``apt-get install stockfish``)::

    .venv/bin/python bench/tactics.py                              # every suite, 1 s a position
    .venv/bin/python bench/tactics.py --suite wac --limit 20       # the first 20 of Win at Chess
    .venv/bin/python bench/tactics.py --seconds 1 5 --suite bk mate2 --no-stockfish

The suites (``--dir``, by default ``/work/shared/tactics``):

- ``wac``: Win at Chess, ``win_at_chess_test.epd`` (300 positions), and ``bk``: the
  Bratko-Kopec test, ``bratko_kopec_test.epd`` (24). EPD lines; python-chess reads their
  ``bm`` (best moves) and ``am`` (avoid moves) operations, in SAN. Solved: the move chosen is
  one of ``bm`` and none of ``am``.
- ``mate2``: mates in two, ``mate2.fen`` (one FEN a line, no solution given). Solved: the move
  chosen forces mate in at most two moves, checked by python-chess (every reply has a mating
  answer).

Our agent (``--agent``, its budget replaced by each of ``--seconds``) is driven in this process:
the position is read from the FEN by our ``chess`` rules file, the move chosen is written in our
from-to notation and read back by python-chess. Stockfish (full strength, one thread, its hash
cleared between positions) gets the same seconds through ``chess.engine``. Each position is
searched by our agent, then by Stockfish, before the next one. The script prints a line per
position and then a table: positions solved per suite, limit and engine, and for our agent the
median depth completed and nodes per second. ``--json`` adds the table as JSON.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import chess
import chess.engine

from interpreter.agents import Budget, parse_agent
from interpreter.loading import load_game, position_from_fen
from interpreter import native
from interpreter.notation.san import move_to_uci

DIRECTORY = Path("/work/shared/tactics")
SUITES = {"wac": "win_at_chess_test.epd", "bk": "bratko_kopec_test.epd", "mate2": "mate2.fen"}


@dataclass
class Problem:
    """One test position: its board, the moves that solve it (``best``; empty: checked by
    :func:`forces_mate`), the moves to avoid and its name."""

    name: str
    board: chess.Board
    best: list[chess.Move] = field(default_factory=list)
    avoid: list[chess.Move] = field(default_factory=list)
    mate_in: int = 0

    def solved_by(self, move: chess.Move | None) -> bool:
        if move is None or move not in self.board.legal_moves or move in self.avoid:
            return False
        if self.mate_in:
            return forces_mate(self.board, move, self.mate_in)
        return not self.best or move in self.best

    def expected(self) -> str:
        if self.mate_in:
            return f"mate in {self.mate_in}"
        text = " ".join(self.board.san(m) for m in self.best)
        return text + (" (not " + " ".join(self.board.san(m) for m in self.avoid) + ")" if self.avoid else "")


def forces_mate(board: chess.Board, move: chess.Move, moves: int) -> bool:
    """Whether ``move`` mates, or forces mate within ``moves`` moves of the side playing it."""
    board = board.copy(stack=False)
    board.push(move)
    if board.is_checkmate():
        return True
    if moves <= 1 or board.is_game_over():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        mated = any(forces_mate(board, answer, moves - 1) for answer in list(board.legal_moves))
        board.pop()
        if not mated:
            return False
    return True


def read_suite(name: str, directory: Path) -> list[Problem]:
    """The positions of suite ``name`` (a key of :data:`SUITES`) in file order."""
    path = directory / SUITES[name]
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if name == "mate2":
            problems.append(Problem(f"mate2.{number:03d}", chess.Board(line.strip()), mate_in=2))
            continue
        board, ops = chess.Board.from_epd(line)
        problems.append(Problem(str(ops.get("id", f"{name}.{number:03d}")), board,
                                list(ops.get("bm", [])), list(ops.get("am", []))))
    return problems


@dataclass
class Row:
    """The results of one engine on one suite at one limit."""

    suite: str
    seconds: float
    engine: str
    solved: int = 0
    total: int = 0
    depths: list[int] = field(default_factory=list)
    nps: list[int] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        out = asdict(self)
        del out["depths"], out["nps"]
        out["median_depth"] = statistics.median(self.depths) if self.depths else None
        out["median_nps"] = round(statistics.median(self.nps)) if self.nps else None
        return out


def our_move(game, spec, problem: Problem, seconds: float) -> tuple[chess.Move | None, int, int]:
    """Our agent's move in ``problem`` within ``seconds``, with the depth completed and nodes per second."""
    pos = position_from_fen(game, problem.board.fen())
    agent = spec.make(0)
    info = agent.choose(pos, Budget(time=seconds))
    if info.move is None:
        return None, info.depth, info.nps
    return chess.Move.from_uci(move_to_uci(pos, info.move)), info.depth, info.nps


def stockfish_move(engine: chess.engine.SimpleEngine, problem: Problem, seconds: float) -> tuple[chess.Move | None, int, int]:
    result = engine.play(problem.board, chess.engine.Limit(time=seconds), game=object(), info=chess.engine.INFO_BASIC)
    return result.move, result.info.get("depth", 0), result.info.get("nps", 0)


def run(args) -> list[Row]:
    game = load_game("chess")
    spec = parse_agent(args.agent)
    engine = None
    if not args.no_stockfish:
        engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        engine.configure({"Threads": 1})
    suites = {name: read_suite(name, args.dir)[:args.limit] for name in args.suite}
    rows: list[Row] = []
    try:
        for seconds in args.seconds:
            for name, problems in suites.items():
                ours = Row(name, seconds, args.agent, total=len(problems))
                theirs = Row(name, seconds, engine.id.get("name", "Stockfish") if engine else "-", total=len(problems))
                rows += [ours] + ([theirs] if engine else [])
                for i, problem in enumerate(problems, 1):
                    words = [f"{name:<5} {seconds:g} s {i:>3}/{len(problems)} {problem.name:<10} {problem.expected():<14}"]
                    players = [(ours, lambda p: our_move(game, spec, p, seconds))]
                    if engine:
                        players.append((theirs, lambda p: stockfish_move(engine, p, seconds)))
                    for row, play in players:
                        move, depth, nps = play(problem)
                        ok = problem.solved_by(move)
                        row.solved += ok
                        row.depths.append(depth)
                        row.nps.append(nps)
                        if not ok:
                            row.failed.append(problem.name)
                        text = problem.board.san(move) if move in problem.board.legal_moves else str(move)
                        words.append(f"{'ours' if row is ours else 'sf'} {text:<7} {'ok ' if ok else '-- '} "
                                     f"(d{depth}) {row.solved}/{i}")
                    print("  ".join(words), flush=True)
    finally:
        if engine:
            engine.quit()
    return rows


def format_table(rows: list[Row]) -> str:
    lines = [f"{'suite':<6} {'s':>4}  {'engine':<28} {'solved':>9} {'%':>6} {'depth':>6} {'nps':>9}"]
    for row in rows:
        s = row.summary()
        lines.append(f"{row.suite:<6} {row.seconds:>4g}  {row.engine[:28]:<28} {row.solved:>4}/{row.total:<4} "
                     f"{100 * row.solved / max(row.total, 1):>5.1f}% {s['median_depth'] or 0:>6g} {s['median_nps'] or 0:>9}")
    pairs = [(a, b) for a, b in zip(rows, rows[1:]) if a.suite == b.suite and a.seconds == b.seconds and a.engine != b.engine]
    for ours, theirs in pairs:
        if theirs.solved:
            lines.append(f"{ours.suite} at {ours.seconds:g} s: ours / Stockfish solved {ours.solved / theirs.solved:.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", nargs="+", choices=list(SUITES), default=list(SUITES), help="suites (default: all)")
    parser.add_argument("--seconds", nargs="+", type=float, default=[1.0], help="seconds a position, each a run (default 1)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions of each suite")
    parser.add_argument("--agent", default="ai:alphabeta", help="our agent (its budget is replaced by --seconds)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--no-stockfish", action="store_true", help="run our agent only")
    parser.add_argument("--dir", type=Path, default=DIRECTORY, help=f"where the suites are (default {DIRECTORY})")
    parser.add_argument("--json", action="store_true", help="print the table as JSON too")
    args = parser.parse_args(argv)
    if any(s <= 0 for s in args.seconds):
        parser.error("--seconds must be positive")
    if args.limit is not None and args.limit <= 0:
        parser.error("--limit must be positive")
    started = time.perf_counter()
    print(f"engine: {native.status}; suites {', '.join(args.suite)}; seconds {', '.join(f'{s:g}' for s in args.seconds)}",
          flush=True)
    rows = run(args)
    print(format_table(rows))
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.json:
        print(json.dumps([row.summary() for row in rows], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
