"""Max-n: a search for games of more than two teams in which every team plays for itself.

Alpha-beta sees two sides; with more teams (four-player chess free-for-all)
it assumes that every other team plays against the root team (the
*paranoid* assumption, :mod:`.sides`). Max-n (Luckhardt and Irani) assumes
instead that each team maximises its own score: a position's value is a
vector with a score per team, and at each node the team to move keeps the
child whose vector is best for itself. A team's score is its evaluation
total less the mean of the other teams' (:meth:`.evaluation.Evaluation.team_scores`);
a finished game gives each winning team ``MATE - ply`` and every other
``-(MATE - ply)``, a draw 0 to all.

The search deepens iteratively, trying the previous iteration's line
first and then captures, the most valuable victim first. At the horizon a
capture search settles the exchanges: the team to move keeps the position
as it is (stands pat) unless a capture gives it more, and when in check it
must move. Max-n allows no alpha-beta cut-offs (a team's gain is not the
others' loss), so it sees fewer plies than alpha-beta in the same time; it
plays two-team games too, as a negamax without pruning.

The budget's ``nodes`` counts positions visited, capture search included.
A search stopped before its first iteration is complete plays the best of
the moves it searched (its depth reads 0); a later iteration cut short is
dropped for the one before.
"""

from __future__ import annotations

import threading

from dsl.limits import SEARCH_DEPTH
from interpreter.engine.outcome import outcome

from .base import MATE, MATE_BOUND, Agent, Budget, Clock, InfoCallback, SearchInfo, Stopped
from .evaluation import evaluation_of

DEFAULT_BUDGET = Budget(time=1.0)
CAPTURE_PLIES = 6     # beyond this many capture plies the evaluation is taken as it is

Vector = list[int]    # a score per team


class MaxN(Agent):
    """Max-n with iterative deepening and a capture search (see the module docstring)."""

    name = "maxn"

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None) -> None:
        super().__init__(seed)
        self.weights = weights

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        budget = DEFAULT_BUDGET if budget is None or budget.unlimited else budget
        self.clock = Clock(budget, stop)
        self.eval = evaluation_of(pos.game, self.weights)
        self.sides = self.eval.sides
        pos = pos.copy()
        legal = pos.legal_moves()
        if not legal or outcome(pos, legal) is not None:
            return SearchInfo(None, time=self.clock.elapsed())
        if len(legal) == 1:
            return SearchInfo(legal[0], 0, (legal[0],), 0, 0, 1, self.clock.elapsed())
        team = self.sides.turn_team[pos.turn]
        self.nodes = self.seldepth = 0
        best = SearchInfo(legal[0], 0, (legal[0],), 0, 0, 0, 0.0)
        line: list = []
        depth = 0
        self.partial: tuple[Vector, list] | None = None
        try:
            while (budget.depth is None or depth < budget.depth) and depth < SEARCH_DEPTH.value:
                depth += 1
                vector, line = self._search(pos, depth, 0, line)
                self.partial = None
                best = SearchInfo(line[0], vector[team], tuple(line), depth, self.seldepth, self.nodes,
                                  self.clock.elapsed())
                if on_info is not None:
                    on_info(best)
                if abs(vector[team]) >= MATE_BOUND or self.clock.soft_expired():
                    break
        except Stopped:
            if depth == 1 and self.partial is not None:    # the first iteration, cut short: its best so far
                vector, line = self.partial
                best = SearchInfo(line[0], vector[team], tuple(line), 0, self.seldepth)
        best.nodes, best.time = self.nodes, self.clock.elapsed()
        return best

    # ------------------------------------------------------------ the search
    def _visit(self, ply: int) -> None:
        self.nodes += 1
        self.clock.check(self.nodes)
        if ply > self.seldepth:
            self.seldepth = ply

    def _search(self, pos, depth: int, ply: int, line: list) -> tuple[Vector, list]:
        """The vector of ``pos`` searched ``depth`` plies deep, and its line of moves; ``line``, the
        previous iteration's line from here, is tried first."""
        self._visit(ply)
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None:
            return self._terminal(result, ply), []
        if depth <= 0:
            return self._captures(pos, ply, 0, legal), []
        team = self.sides.turn_team[pos.turn]
        first = line[0] if line else None
        best: Vector | None = None
        best_line: list = []
        for move in self._ordered(pos, legal, first):
            pos.push(move)
            vector, below = self._search(pos, depth - 1, ply + 1, line[1:] if move == first else [])
            pos.pop()
            if best is None or vector[team] > best[team]:
                best, best_line = vector, [move, *below]
                if ply == 0:
                    self.partial = best, best_line
        assert best is not None
        return best, best_line

    def _captures(self, pos, ply: int, plies: int, legal: list) -> Vector:
        """The vector of ``pos`` once its captures are settled: the team to move stands pat on the
        evaluation or takes, whichever is better for it; in check it must move."""
        stand = self._evaluate(pos)
        if plies >= CAPTURE_PLIES:
            return stand
        checked = pos.in_check()
        moves = legal if checked else self._ordered(pos, legal, None, captures_only=True)
        team = self.sides.turn_team[pos.turn]
        best: Vector | None = None if checked else stand
        for move in moves:
            pos.push(move)
            self._visit(ply + 1)
            after = pos.legal_moves()
            result = outcome(pos, after)
            vector = (self._terminal(result, ply + 1) if result is not None
                      else self._captures(pos, ply + 1, plies + 1, after))
            pos.pop()
            if best is None or vector[team] > best[team]:
                best = vector
        return best if best is not None else stand

    def _ordered(self, pos, legal: list, first, captures_only: bool = False) -> list:
        """``first`` (if legal), then captures by the value of what they take, then the other moves
        (none with ``captures_only``)."""
        board, values = pos.board, self.eval.values
        hostile = pos.game.hostile[pos.army]
        taking = [(values[board[m[1]]], i) for i, m in enumerate(legal)
                  if m[1] >= 0 and board[m[1]] and hostile[board[m[1]]] and m != first]
        taking.sort(key=lambda t: (-t[0], t[1]))
        ordered = [legal[i] for _, i in taking]
        if captures_only:
            return ordered
        taken = {i for _, i in taking}
        head = [first] if first is not None and first in legal else []
        return head + ordered + [m for i, m in enumerate(legal) if i not in taken and m != first]

    # ------------------------------------------------------------ values
    def _evaluate(self, pos) -> Vector:
        totals = self.eval.team_scores(pos)
        others = max(1, len(totals) - 1)
        whole = sum(totals)
        return [t - (whole - t) // others for t in totals]

    def _terminal(self, result, ply: int) -> Vector:
        teams = self.sides.count
        if not result.winners:
            return [0] * teams
        won = self.sides.winner_teams(result.winners)
        return [MATE - ply if t in won else ply - MATE for t in range(teams)]
