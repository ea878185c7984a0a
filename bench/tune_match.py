"""Tuned weights against the start weights: games between two alpha-beta agents that differ only there.

    .venv/bin/python bench/tune_match.py chess chess-tuned.rules --games 60 --nodes 1000

``TUNED`` is a rules file that ``rules tune`` wrote (any rules file with an
``ai`` block will do): its weights play against the variant's own (1 unless
the variant's ``ai`` block says otherwise). Both sides are the alpha-beta
agent on the same node budget, so a game is the same on every machine. The
games are those of a match (:func:`interpreter.agents.matches.match_tasks`):
colours alternate, and each pair of games starts from the same random
opening (``--opening-plies``, default two rounds of the turn order). The
script prints one line per game, then the score of the tuned weights and
their Elo difference with its 95% interval (:mod:`interpreter.agents.stats`);
``--json`` prints that as one object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.agents import Budget
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.agents.matches import GameTask, play_task, standings
from interpreter.agents.specs import AgentSpec
from interpreter.agents.terms import NAMES
from interpreter.loading import load_game


@dataclass(frozen=True)
class WeightedSpec(AgentSpec):
    """The alpha-beta agent with the evaluation weights ``weights`` (name, value) pairs; none: the game's."""

    weights: tuple[tuple[str, float], ...] = ()

    def make(self, seed: int = 0) -> AlphaBeta:
        return AlphaBeta(self.seed if self.seed is not None else seed, weights=dict(self.weights) or None)


def tuned_weights(path: str) -> dict[str, float]:
    """The ai weights of the rules file ``path`` (every name; 1 where the file gives none)."""
    weights = load_game(path).spec.ai.weights
    return {name: float(weights.get(name, 1.0)) for name in NAMES}


def specs_of(tuned: dict[str, float], nodes: int) -> tuple[WeightedSpec, WeightedSpec]:
    """The two agents: the tuned weights', then the start weights' (the variant's own), on ``nodes``."""
    budget = Budget(nodes=nodes)
    return (WeightedSpec("alphabeta", budget, None, f"tuned:nodes={nodes}", weights=tuple(sorted(tuned.items()))),
            WeightedSpec("alphabeta", budget, None, f"start:nodes={nodes}"))


def run(variant: str, tuned: dict[str, float], games: int, nodes: int, mode: str | None = None, seed: int = 0,
        jobs: int = 1, opening_plies: int | None = None, max_plies: int = DEFAULT_MAX_PLIES, verbose: bool = True):
    """Play the games; the standings of the tuned agent (first) and the start weights' agent."""
    specs = specs_of(tuned, nodes)
    load_game(variant, mode)
    tasks = [GameTask(variant, mode, (), specs, i, seed, opening_plies, max_plies) for i in range(games)]
    results = []
    started = time.perf_counter()

    def seen(result) -> None:
        results.append(result)
        if verbose:
            tuned_side = next(p for p, agent in result.players.items() if agent == 0)
            print(f"game {result.index + 1:>3}: tuned plays {tuned_side:<6} {result.result:<8} {result.plies:>4} plies  "
                  f"{result.termination}  ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)

    if jobs == 1:
        for task in tasks:
            seen(play_task(task))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for future in as_completed([pool.submit(play_task, task) for task in tasks]):
                seen(future.result())
    results.sort(key=lambda g: g.index)
    return standings([spec.label for spec in specs], results), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variant", help="the variant: a bundled name or a path")
    parser.add_argument("tuned", help="the rules file of the tuned weights (rules tune --out)")
    parser.add_argument("--games", type=int, default=40, help="games (default 40; even: both colours per opening)")
    parser.add_argument("--nodes", type=int, default=1000, help="the node budget of both agents (default 1000)")
    parser.add_argument("--mode", help="the play mode")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--opening-plies", type=int, help="random opening plies (default: two rounds)")
    parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, help="ply cap of a game (a draw)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = parser.parse_args(argv)
    weights = tuned_weights(args.tuned)
    table, seconds = run(args.variant, weights, args.games, args.nodes, args.mode, args.seed,
                         args.jobs or os.cpu_count() or 1, args.opening_plies, args.max_plies)
    tuned = table[0]
    row = {"variant": args.variant, "tuned": weights, "games": tuned.games, "nodes": args.nodes,
           "score": tuned.score, "wins": tuned.wins, "draws": tuned.draws, "losses": tuned.losses,
           "elo": round(tuned.elo.difference, 1), "elo_low": round(tuned.elo.low, 1),
           "elo_high": round(tuned.elo.high, 1), "seconds": round(seconds)}
    if args.json:
        print(json.dumps(row))
    else:
        print(f"{args.variant}: tuned weights {', '.join(f'{k} {v:g}' for k, v in weights.items())}")
        print(f"tuned against start, {tuned.games} games at {args.nodes} nodes a move: +{tuned.wins} ={tuned.draws} "
              f"-{tuned.losses}, score {tuned.score:g}/{tuned.games}, Elo {tuned.elo} (95%), {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
