"""Alpha-beta search for any game the language describes.

The agent runs iterative deepening over the node search of
:mod:`interpreter.agents.search` (a principal-variation search with a
quiescence search, the transposition table, move ordering, pruning and
extensions: see there), with aspiration windows at the root, and manages
the time: with a fixed time per move it searches until the time is up (the
iteration cut short gives the best of the moves it finished, if it finished
one); with a game clock's budget (:func:`~interpreter.agents.clock.time_for_move`:
a deserved ``soft`` time within a hard ``time``) it stops near the soft
time, later when the best move just changed.

Sides. The search sees two sides (see :mod:`interpreter.agents.sides`): the
team of the army to move at the root, and everyone else. A move that hands
the turn to the same side keeps the score's sign (a partner's move in
Superchess, or a turn shared by a team); a move to the other side negates
it. With two teams this is the exact team search; with more it is the
paranoid search, chosen over BRS+ because it needs only the game's own
turn order (BRS+ lets an opponent move out of turn, which the engine's
positions, with their per-turn legality, en passant and shared turns, do
not allow), and because over two teams it is exact anyway.

Ends. Every node is judged by the game's own ``outcome``: a mate, a king on
the hill, a third check, a king in the cockpit, a draw rule. A position
that occurred before (in the game or on the search path) scores as a draw
when the game declares a repetition draw. Quiescence nodes that
stand pat test only the immediate end rules (:func:`immediate_end`);
positions in check are searched in full there.
"""

from __future__ import annotations

import gc
import threading
import time

from dsl import spec as S
from dsl.limits import SEARCH_DEPTH

from interpreter.engine.outcome import outcome

from .base import MATE, MATE_BOUND, Agent, Budget, InfoCallback, SearchInfo, Stopped
from .evaluation import evaluation_of, extinction_wins
from .search import Searcher, null_move_allowed

ASPIRATION = 40             # half-width of the root window, in centipawns
DEFAULT_BUDGET = Budget(time=1.0)
UNSTABLE = 1.6              # the share of the soft time limit a search may use when its best move just changed
NEXT_ITERATION = 0.55       # no new iteration once this share of the (scaled) soft limit is gone


class AlphaBeta(Agent):
    """The alpha-beta agent (see the module docstring). ``weights`` override the rules file's
    ``ai`` weights of the evaluation; ``noise`` (centipawns) blurs the evaluation and ``node_cap``
    bounds every search, for levels of strength (:mod:`interpreter.agents.strength`)."""

    name = "alphabeta"

    @property
    def learns(self) -> bool:
        """Its tables outlive a search, so thinking on the opponent's time helps; not at a level of
        strength (a node cap), whose play would then be stronger than its calibration says."""
        return self.node_cap is None

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None, noise: int = 0,
                 node_cap: int | None = None) -> None:
        super().__init__(seed)
        self.weights = weights
        self.noise = noise
        self.node_cap = node_cap   # the most nodes of any search, whatever its budget (a level of strength)
        self._game = None
        self._searcher: Searcher | None = None

    def new_game(self) -> None:
        self._game = None
        self._searcher = None

    def _prepare(self, game) -> Searcher:
        if game is not self._game or self._searcher is None:
            self._game = game
            evaluation = evaluation_of(game, self.weights)
            sides = evaluation.sides
            alternating = sides.side_of_turn(sides.turn_team[0])
            self._searcher = Searcher(game, evaluation.terms, evaluation.values, list(sides.team_of),
                                      list(sides.turn_team), null_move_allowed(game, alternating, extinction_wins(game)),
                                      _repetition_draws(game), self.noise, self.seed)
        return self._searcher

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        # The search makes and drops millions of small lists and tuples, none in a cycle; the cyclic
        # garbage collector, run every few hundred of them, walks the tables each time (a tenth of
        # the search's time). It is paused for the search and runs as usual afterwards.
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._choose(pos, budget, stop, on_info)
        finally:
            if paused:
                gc.enable()

    def _choose(self, pos, budget: Budget | None, stop: threading.Event | None,
                on_info: InfoCallback | None) -> SearchInfo:
        searcher = self._prepare(pos.game)
        budget = DEFAULT_BUDGET if budget is None or budget.unlimited else budget
        started = time.perf_counter()
        pos = pos.copy()
        legal = pos.legal_moves()
        if not legal or outcome(pos, legal) is not None:
            return SearchInfo(None, 0, (), 0, 0, 0, time.perf_counter() - started)
        if len(legal) == 1:
            return SearchInfo(legal[0], searcher.evaluate_root(pos), (legal[0],), 0, 0, 1, time.perf_counter() - started)
        deadline = 0.0 if budget.time is None else started + budget.time
        # When to start no new iteration: near the time a clock's move deserves (soft). A fixed time
        # per move is all used: the deadline cuts the iteration that runs over, keeping the best move
        # it found.
        last_start = None if budget.soft is None else NEXT_ITERATION * budget.soft
        root_team = searcher.turn_team[pos.turn]
        nodes = min(budget.nodes or self.node_cap or 0, self.node_cap or budget.nodes or 0)
        searcher.start(pos, root_team, legal, nodes, deadline, stop)
        best = SearchInfo(legal[0], 0, (legal[0],), 0, 0, 0, 0.0)
        score = 0
        max_depth = min(budget.depth or SEARCH_DEPTH.value, SEARCH_DEPTH.value)  # a deeper budget is cut
        for depth in range(1, max_depth + 1):
            try:
                score = searcher.iterate(pos, depth, score, ASPIRATION)
            except Stopped:
                if searcher.root_best is not None:  # a move of the unfinished iteration beat the first one
                    move = searcher.root_best
                    best = SearchInfo(move, searcher.root_score, (move,), best.depth, searcher.seldepth,
                                      searcher.nodes, time.perf_counter() - started)
                break
            pv = tuple(searcher.pv[0]) or (best.move,)
            changed = depth > 1 and pv[0] != best.move
            best = SearchInfo(pv[0], score, pv, depth, searcher.seldepth, searcher.nodes, time.perf_counter() - started)
            if on_info is not None:
                on_info(best)
            if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                break    # a forced result within the horizon: deeper search cannot change it
            if stop is not None and stop.is_set():
                break
            if last_start is not None and time.perf_counter() - started >= last_start * (UNSTABLE if changed else 1.0):
                break    # the next iteration would not end within the time this move deserves
        best.nodes, best.seldepth, best.time = searcher.nodes, searcher.seldepth, time.perf_counter() - started
        return best


def _repetition_draws(game) -> bool:
    """Does an end rule make a repeated position a draw (a condition on ``repetitions``)?"""

    def names(node) -> bool:
        if isinstance(node, S.Ref) and node.path == ["repetitions"]:
            return True
        return any(names(child) for value in node.__dict__.values()
                   for child in (value if isinstance(value, list) else [value]) if isinstance(child, S.Node))

    return any(rule.result == "draw" and names(rule.condition) for rule in game.spec.rules.ends)
