"""Our agent against itself as it was at an earlier commit, at equal time, in the seed games (not part of CI).

Run from the repository root::

    .venv/bin/python bench/agent_vs_agent.py                                  # against main, 100 games each
    .venv/bin/python bench/agent_vs_agent.py --old main --games 4 --time 0.2
    .venv/bin/python bench/agent_vs_agent.py --old-tree /tmp/old-agent --variants locking --nodes 3000

The *old* agent comes from ``--old COMMIT`` (default ``main``): the script checks that commit out
with ``git worktree add --detach`` under ``/tmp/old-agent-SHA`` (reused when it is there; removed
at the end unless ``--keep-tree``), or takes a tree that is already there (``--old-tree PATH``).
The *new* agent is this tree's (``--new-tree PATH`` for another one). Each runs in its own
process, ``bench/agent_worker.py`` with ``PYTHONPATH`` set to its tree and this venv's Python, so
neither gets an advantage from sharing the referee's process; by default both run pure Python
(``RULES_DSL_PURE=1``: a fresh worktree has no compiled build), ``--as-built`` lets each tree
run as it is built. The worker speaks a line protocol (see its docstring): the position as the
FEN after the random opening plus the moves since (so that the agent sees the repetitions of
the game), the move back in from-to notation.

The referee is this tree: every game is judged by its rules files, and each move a worker sends
is read by its parser (a move it cannot read stops the game as unscored, with the details).
Both agents are ``--agent`` (``--old-agent`` for another spec on the old side) with the same
budget a move: ``--time`` seconds or ``--nodes``. Each pair of games starts from the same
``--opening-plies`` random moves (default: two rounds of the turn order) with the sides swapped;
a game still running after ``--max-plies`` is a draw.

Teams. An agent plays whole teams, as ``rules match`` seats them: in two-army games one army
each, colours alternating; in four-player Superchess (``superchess@4p``, two teams of two
armies) the new agent plays White and Tan (the light team) in the even games, Black and Brown
in the odd ones, and the old agent the other team. The alpha-beta agent searches for a team, so
this is one agent against the other, each moving both its armies; a game is won by the team the
rules name (a win of both partners), and a draw is half a point.

The script prints every game, then per variant and over all: the new agent's score with the Elo
difference and its 95% interval (``interpreter.agents.stats``; positive: the new agent is the
stronger), and each side's median search depth and nodes per second with their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # bench.common, when run as a script

from dsl.errors import MoveError, RulesError, UsageError  # noqa: E402

from bench.common import LineProcess, Unscored, agent_stats, play_out, team_points  # noqa: E402
from bench.engine_match import report  # noqa: E402
from interpreter.agents import parse_agent  # noqa: E402
from interpreter.loading import load_game, start_fen  # noqa: E402
from interpreter.loading.records import RecordsFile, game_record  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402
from interpreter.notation.reading import parse_move  # noqa: E402

WORKER = Path(__file__).resolve().parent / "agent_worker.py"
VARIANTS = ["locking", "superchess@4p", "rocket"]
WAIT = 120.0   # seconds a worker may take beyond its budget (loading a variant, a slow move)


def split_variant(text: str) -> tuple[str, str | None]:
    """``name`` or ``name@mode``."""
    name, _, mode = text.partition("@")
    return name, mode or None


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def old_tree(commit: str) -> tuple[Path, bool]:
    """A checkout of ``commit`` (a worktree under /tmp) and whether this call made it."""
    sha = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    path = Path(f"/tmp/old-agent-{sha[:10]}")
    if path.exists():
        head = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        if head != sha:
            raise SystemExit(f"{path} exists but is not a checkout of {sha}: remove it or pass --old-tree")
        return path, False
    git("worktree", "add", "--detach", str(path), sha)
    return path, True


@dataclass
class Side:
    """One agent: its worker process, label and searches."""

    label: str
    tree: Path
    worker: LineProcess | None = None
    depths: list[int] = field(default_factory=list)
    nps: list[int] = field(default_factory=list)

    def start(self, variant: str, mode: str | None, spec: str, args) -> None:
        env = dict(os.environ, PYTHONPATH=str(self.tree))
        if not args.as_built:
            env["RULES_DSL_PURE"] = "1"
        argv = [sys.executable, str(WORKER), "--variant", variant, "--agent", spec]
        argv += (["--mode", mode] if mode else []) + (["--nodes", str(args.nodes)] if args.nodes else ["--time", str(args.time)])
        self.worker = LineProcess(argv, f"the {self.label} agent's worker", env=env, cwd=str(self.tree))
        ready = self.worker.expect(lambda line: line.startswith(("ready", "error")), WAIT)[-1].split(maxsplit=2)
        if ready[0] != "ready" or not Path(ready[1]).resolve().is_relative_to(self.tree.resolve()):
            raise SystemExit(f"the {self.label} agent's worker did not load {self.tree}: {' '.join(ready)}")
        print(f"  {self.label}: {ready[1]} ({ready[2]})", flush=True)

    def ask(self, line: str, answer: str) -> str:
        self.worker.send(line)
        reply = self.worker.expect(lambda text: text.startswith((answer, "error")), WAIT + 600)[-1]
        if reply.startswith("error"):
            raise Unscored(f"the {self.label} agent's worker: {reply}")
        return reply

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def play_game(index: int, game, variant: str, new: Side, old: Side, args) -> tuple[object, set[int]]:
    """Game ``index``: the game played (:class:`bench.common.Played`) and the armies of the new agent."""
    new_armies = set(game.teams[index % 2])
    for side in (new, old):
        side.ask(f"newgame {args.seed + index}", "ok")
    since: dict[str, object] = {}   # the FEN after the opening, and how many moves the opening had

    def choose(pos, legal, texts):
        if not since:
            since.update(fen=to_fen(pos), at=len(texts))
        side = new if pos.army in new_armies else old
        moves = texts[since["at"]:]
        side.ask(f"position {since['fen']}" + (" moves " + " ".join(moves) if moves else ""), "ok")
        words = side.ask("go", "bestmove").split()
        if words[1] == "(none)":
            raise Unscored(f"the {side.label} agent has no move where our rules go on: {to_fen(pos)}")
        facts = dict(zip(words[2::2], words[3::2]))
        side.depths.append(int(facts.get("depth", 0)))
        seconds = float(facts.get("time", 0))
        side.nps.append(round(int(facts.get("nodes", 0)) / seconds) if seconds > 0 else 0)
        try:
            return parse_move(pos, words[1], legal=legal)
        except MoveError as err:
            raise Unscored(f"our parser cannot read the {side.label} agent's move {words[1]!r} in {to_fen(pos)}: "
                           f"{str(err).splitlines()[0]}") from None

    plies = len(game.turn_order) * 2 if args.opening_plies is None else args.opening_plies
    rng = random.Random(f"{args.seed}/{variant}/{index // 2}")
    return play_out(game, choose, rng, plies, args.max_plies), new_armies


def searches(label: str, new: Side, old: Side) -> str:
    """Both sides' median depth and nodes per second, and the ratio of the latter."""
    old_nps = statistics.median(old.nps) if old.nps else 0
    ratio = f", new / old {statistics.median(new.nps) / old_nps:.2f}x" if new.nps and old_nps else ""
    return f"{label}: new {agent_stats(new.depths, new.nps)}; old {agent_stats(old.depths, old.nps)}{ratio}"


def run(args, old_path: Path, old_label: str, records: RecordsFile) -> list[float]:
    """Every variant's games, new agent against old, each scored game's record added to ``records``:
    the new agent's points."""
    totals = Side("new", args.new_tree), Side("old", old_path)
    all_points: list[float] = []
    for variant in args.variants:
        new, old = Side("new", args.new_tree), Side(f"old ({old_label})", old_path)
        name, mode = split_variant(variant)
        game = load_game(name, mode)
        budget = f"{args.nodes} nodes" if args.nodes else f"{args.time:g} s"
        print(f"{variant}: new ({args.agent}) against old ({args.old_agent or args.agent}), {budget} a move", flush=True)
        points, unscored = [], 0
        try:
            new.start(name, mode, args.agent, args)
            old.start(name, mode, args.old_agent or args.agent, args)
            for i in range(args.games):
                played, new_armies = play_game(i, game, variant, new, old, args)
                armies = ", ".join(game.armies[a].title for a in sorted(new_armies))
                if played.unscored:
                    unscored += 1
                    verdict = f"UNSCORED after {played.plies} plies: {played.unscored}"
                else:
                    points.append(team_points(played.result, new_armies))
                    verdict = (f"{played.result.describe(game)}, {played.plies} plies, new agent's points {points[-1]} "
                               f"(total {sum(points)}/{len(points)})")
                    names = {a.name: "new " + args.agent if a.index in new_armies else old.label for a in game.armies}
                    records.add(game_record(game, start_fen(game), played.sans, played.result, names,
                                            {"Event": f"rules-dsl agent against {old.label}", "Round": str(i + 1)}))
                print(f"  {variant} game {i + 1:>3}: new plays {armies}: {verdict}", flush=True)
        finally:
            new.stop()
            old.stop()
        if points:
            report(points, f"{variant}, score of the new agent")
        if unscored:
            print(f"{variant}: {unscored} unscored games")
        print(searches(f"{variant}, searches", new, old), flush=True)
        all_points += points
        for total, side in zip(totals, (new, old)):
            total.depths += side.depths
            total.nps += side.nps
    if len(args.variants) > 1:
        if all_points:
            report(all_points, "all variants, score of the new agent")
        print(searches("all variants, searches", *totals))
    return all_points


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="main", help="the commit of the old agent (default main)")
    parser.add_argument("--old-tree", type=Path, help="a checkout of the old agent's tree (instead of --old)")
    parser.add_argument("--new-tree", type=Path, default=ROOT, help="the new agent's tree (default: this one)")
    parser.add_argument("--keep-tree", action="store_true", help="keep the worktree made for --old")
    parser.add_argument("--variants", nargs="+", default=VARIANTS,
                        help="NAME or NAME@MODE (default: locking superchess@4p rocket)")
    parser.add_argument("--games", type=int, default=100, help="games per variant (default 100)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move for both agents (default 1)")
    parser.add_argument("--nodes", type=int, default=None, help="nodes a move for both agents instead of --time")
    parser.add_argument("--agent", default="ai:alphabeta", help="both agents' spec (its budget is replaced)")
    parser.add_argument("--old-agent", default=None, help="the old agent's spec, when it differs")
    parser.add_argument("--as-built", action="store_true",
                        help="let each tree run as built (default: both pure Python, RULES_DSL_PURE=1)")
    parser.add_argument("--opening-plies", type=int, default=None, help="random plies first (default: two rounds)")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pgn", help="write the scored games' records to this file")
    args = parser.parse_args(argv)
    args.new_tree = args.new_tree.resolve()
    args.old_tree = args.old_tree.resolve() if args.old_tree else None
    if args.time <= 0 or (args.nodes is not None and args.nodes <= 0) or args.games <= 0:
        parser.error("--time, --nodes and --games must be positive")
    try:
        for spec in (args.agent, args.old_agent or args.agent):
            parse_agent(spec)
        for variant in args.variants:
            game = load_game(*split_variant(variant))
            if len(game.teams) != 2:
                parser.error(f"{variant} has {len(game.teams)} teams: one agent against the other needs two")
    except RulesError as err:
        parser.error(str(err))
    try:
        records = RecordsFile(args.pgn)    # an unwritable path fails before any game
    except UsageError as err:
        parser.error(str(err))
    if args.old_tree is not None:
        path, made, label = args.old_tree, False, str(args.old_tree)
    else:
        path, made = old_tree(args.old)
        label = f"{args.old} = {path.name[len('old-agent-'):]}"
    try:
        with records:
            run(args, path, label, records)
    finally:
        if made and not args.keep_tree:
            git("worktree", "remove", "--force", str(path))
        elif made:
            print(f"kept {path}: git worktree remove {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
