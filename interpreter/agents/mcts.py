"""Monte-Carlo tree search (UCT) for any number of sides, with playouts cut off by the evaluation.

Each iteration walks down the tree by UCB1 (the side to move at a node picks
the child best for its own team), adds one child, plays a few random moves
from there (captures preferred half the time) and scores the result: a
finished game gives its winners' teams 1 (shared), and a draw gives every
team an equal share; otherwise the teams' evaluation scores are turned into
shares that sum to 1 (a softmax, :data:`SCALE` centipawns per unit). Every
node keeps the sum of each team's rewards, so two teams, partners and
free-for-all games are all the same to it.

The budget's ``nodes`` counts iterations (playouts). The move played is the
most visited child of the root; the reported score is the root team's share
turned back into centipawns, and the principal variation follows the most
visited children.
"""

from __future__ import annotations

import math
import threading

from interpreter.engine.outcome import outcome

from .base import MATE, Agent, Budget, Clock, InfoCallback, SearchInfo, Stopped
from .evaluation import evaluation_of
from .simple import position_rng

EXPLORATION = 1.0     # the UCB1 constant (rewards are shares in [0, 1])
SCALE = 400           # centipawns per unit of the softmax that turns scores into shares
PLAYOUT_PLIES = 4     # random moves played from a new node before the evaluation is taken
REPORT_EVERY = 256    # iterations between two on_info reports
DEFAULT_BUDGET = Budget(time=1.0)


class _Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "rewards", "team", "result")

    def __init__(self, move, parent, teams: int) -> None:
        self.move = move
        self.parent = parent
        self.children: list[_Node] = []
        self.untried: list | None = None      # legal moves not yet expanded (None: not generated)
        self.visits = 0
        self.rewards = [0.0] * teams
        self.team = -1                        # the team to move here
        self.result: list[float] | None = None  # the shares of a finished game


class MCTS(Agent):
    """UCT with evaluation cut-offs (see the module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None,
                 playout_plies: int = PLAYOUT_PLIES) -> None:
        super().__init__(seed)
        self.weights = weights
        self.playout_plies = playout_plies

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        budget = DEFAULT_BUDGET if budget is None or budget.unlimited else budget
        clock = Clock(budget, stop, every=1)
        self.eval = evaluation_of(pos.game, self.weights)
        self.sides = self.eval.sides
        self.rng = position_rng(self.seed, pos)
        pos = pos.copy()
        root = _Node(None, None, self.sides.count)
        self._expand(pos, root)
        if root.result is not None or not root.untried:
            return SearchInfo(None, time=clock.elapsed())
        if len(root.untried) == 1:
            return SearchInfo(root.untried[0], 0, (root.untried[0],), 0, 0, 1, clock.elapsed())
        iterations = 0
        depth = 0
        try:
            while budget.depth is None or depth < budget.depth:
                depth = max(depth, self._iterate(pos, root))
                iterations += 1
                clock.check(iterations)
                if on_info is not None and iterations % REPORT_EVERY == 0:
                    on_info(self._info(root, iterations, depth, clock))
        except Stopped:
            pass
        return self._info(root, iterations, depth, clock)

    # ------------------------------------------------------------ one iteration
    def _iterate(self, pos, root: _Node) -> int:
        """Select, expand, play out, back up; returns the depth of the new node."""
        node, pushed = root, 0
        while node.result is None and not node.untried and node.children:
            node = self._select(node)
            pos.push(node.move)
            pushed += 1
        if node.result is None and node.untried:
            move = node.untried.pop(self.rng.randrange(len(node.untried)))
            pos.push(move)
            pushed += 1
            child = _Node(move, node, self.sides.count)
            node.children.append(child)
            self._expand(pos, child)
            node = child
        rewards = node.result if node.result is not None else self._playout(pos)
        for _ in range(pushed):
            pos.pop()
        while node is not None:
            node.visits += 1
            for team, reward in enumerate(rewards):
                node.rewards[team] += reward
            node = node.parent
        return pushed

    def _expand(self, pos, node: _Node) -> None:
        node.team = self.sides.turn_team[pos.turn]
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None:
            node.result = self._shares(result)
            node.untried = []
        else:
            node.untried = list(legal)

    def _select(self, node: _Node) -> _Node:
        team, log_n = node.team, math.log(node.visits)
        return max(node.children, key=lambda c: c.rewards[team] / c.visits
                   + EXPLORATION * math.sqrt(log_n / c.visits))

    def _playout(self, pos) -> list[float]:
        pushed, rng, hostile = 0, self.rng, pos.game.hostile
        rewards = None
        for _ in range(self.playout_plies):
            legal = pos.legal_moves()
            result = outcome(pos, legal)
            if result is not None:
                rewards = self._shares(result)
                break
            captures = [m for m in legal if m[1] >= 0 and hostile[pos.army][pos.board[m[1]]]]
            pos.push(rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(legal))
            pushed += 1
        if rewards is None:
            rewards = self._eval_shares(pos)
        for _ in range(pushed):
            pos.pop()
        return rewards

    # ------------------------------------------------------------ rewards
    def _shares(self, result) -> list[float]:
        teams = self.sides.count
        if not result.winners:
            return [1.0 / teams] * teams
        won = self.sides.winner_teams(result.winners)
        return [1.0 / len(won) if t in won else 0.0 for t in range(teams)]

    def _eval_shares(self, pos) -> list[float]:
        scores = self.eval.team_scores(pos)
        top = max(scores)
        weights = [math.exp((s - top) / SCALE) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]

    # ------------------------------------------------------------ report
    def _info(self, root: _Node, iterations: int, depth: int, clock: Clock) -> SearchInfo:
        best = max(root.children, key=lambda c: c.visits)
        pv, node = [], root
        while node.children:
            node = max(node.children, key=lambda c: c.visits)
            pv.append(node.move)
        share = best.rewards[root.team] / max(1, best.visits)
        return SearchInfo(best.move, _centipawns(share, self.sides.count), tuple(pv), len(pv), depth,
                          iterations, clock.elapsed(), {"visits": best.visits})


def _centipawns(share: float, teams: int) -> int:
    """A team's reward share as a score: 0 for an even share, +-SCALE per unit of log-odds."""
    even = 1.0 / teams
    share = min(max(share, 1e-6), 1 - 1e-6)
    value = SCALE * math.log(share / (1 - share) * (1 - even) / even)
    return max(-(MATE // 2), min(MATE // 2, round(value)))
