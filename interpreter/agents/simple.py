"""The simplest agents: ``random`` (any legal move) and ``greedy`` (one ply of lookahead).

Both draw from their own :class:`random.Random`, seeded by the agent's seed
and the position, so the same seed and position give the same move.
"""

from __future__ import annotations

import random
import threading

from interpreter.engine.outcome import outcome

from .base import MATE, Agent, Budget, Clock, InfoCallback, SearchInfo
from .evaluation import evaluation_of


def position_rng(seed: int, pos) -> random.Random:
    """A generator seeded by ``seed`` and the position (its hash and ply), for reproducible choices."""
    return random.Random(f"{seed}/{pos.hash}/{len(pos.history)}")


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        clock = Clock(budget or Budget())
        legal = pos.legal_moves()
        if not legal:
            return SearchInfo(None, time=clock.elapsed())
        move = position_rng(self.seed, pos).choice(legal)
        return SearchInfo(move, pv=(move,), nodes=1, time=clock.elapsed())


class GreedyAgent(Agent):
    """One ply: a move that wins the game at once, else the capture (or promotion) that gains the
    most material, else a random move. Ties are broken at random."""

    name = "greedy"

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        clock = Clock(budget or Budget())
        game = pos.game
        legal = pos.legal_moves()
        if not legal:
            return SearchInfo(None, time=clock.elapsed())
        rng = position_rng(self.seed, pos)
        evaluation = evaluation_of(game)
        values, team_of = evaluation.values, evaluation.sides.team_of
        team = team_of[pos.army]
        hostile = game.hostile[pos.army]
        winning, best, best_gain = [], [], 0
        pos = pos.copy()
        for move in legal:
            frm, to, promo, special = move
            victim = pos.board[to] if to >= 0 else 0
            gain = values[victim] if victim and hostile[victim] else 0
            if special is not None and special[0] == "ep":
                gain = values[pos.board[special[1]]]
            if promo and frm >= 0:
                gain += values[promo] - values[pos.board[frm]]
            pos.push(move)
            result = outcome(pos)
            pos.pop()
            if result is not None and any(team_of[a] == team for a in result.winners):
                winning.append(move)
            elif gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain and gain > 0:
                best.append(move)
        if winning:
            move, score = rng.choice(winning), MATE - 1
        elif best:
            move, score = rng.choice(best), best_gain
        else:
            move, score = rng.choice(legal), 0
        return SearchInfo(move, score, (move,), 1, 1, len(legal), clock.elapsed())
