"""Alpha-beta search for any game the language describes.

Iterative deepening over a negamax principal-variation search (PVS) with
aspiration windows at the root, a quiescence search on captures and
promotions (delta-pruned, promotions only to the best choice), a
transposition table on the position's Zobrist hash, move ordering (hash
move, MVV-LVA, two killers per ply, a history table), late-move reductions
and futility pruning of quiet moves that neither check nor end the game, a
check extension, and mate scores (``MATE - plies``).

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

import threading

from dsl import spec as S
from dsl.limits import SEARCH_DEPTH

from interpreter.engine.outcome import immediate_end, outcome

from .base import MATE, MATE_BOUND, Agent, Budget, Clock, InfoCallback, SearchInfo, Stopped
from .evaluation import evaluation_of

INFINITY = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 2 * SEARCH_DEPTH.value  # the deepest search, and room for check extensions and captures beyond it
QUIESCENCE_PLIES = 8        # beyond this many capture plies the evaluation is taken as it is
FUTILITY = (200, 500)       # margins of futility pruning at 1 and 2 plies from the horizon (centipawns)
DELTA = 200                 # margin of delta pruning in quiescence
ASPIRATION = 50             # half-width of the root window, in centipawns
TABLE_SIZE = 1 << 20        # entries of the transposition table before it is cleared
DEFAULT_BUDGET = Budget(time=1.0)


class AlphaBeta(Agent):
    """The alpha-beta agent (see the module docstring). ``weights`` override the rules file's
    ``ai`` weights of the evaluation."""

    name = "alphabeta"

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None) -> None:
        super().__init__(seed)
        self.weights = weights
        self._game = None
        self.new_game()

    def new_game(self) -> None:
        self.table: dict[int, tuple] = {}
        self.history: dict[tuple[int, int], int] = {}
        self._root_team = None

    # ------------------------------------------------------------ set-up
    def _prepare(self, game) -> None:
        if game is not self._game:
            self._game = game
            self.new_game()
            self.eval = evaluation_of(game, self.weights)
            self.sides = self.eval.sides
            self.values = self.eval.values
            # What a capture is worth to the evaluation: the piece, and in drop games the piece in hand.
            self.capture_scale = 2 if game.to_hand else 1
            self.draw_by_repetition = _repetition_draws(game)

    def choose(self, pos, budget: Budget | None = None, stop: threading.Event | None = None,
               on_info: InfoCallback | None = None) -> SearchInfo:
        self._prepare(pos.game)
        budget = DEFAULT_BUDGET if budget is None or budget.unlimited else budget
        pos = pos.copy()
        legal = pos.legal_moves()
        self.clock = Clock(budget, stop)
        self.nodes = self.seldepth = 0
        root_team = self.sides.turn_team[pos.turn]
        if root_team != self._root_team:
            if self.sides.count > 2:      # paranoid scores depend on whose view they take
                self.table.clear()
            self._root_team = root_team
        self.side_of_turn = self.sides.side_of_turn(root_team)
        if not legal or outcome(pos, legal) is not None:
            return SearchInfo(None, 0, (), 0, 0, 0, self.clock.elapsed())
        if len(legal) == 1:
            return SearchInfo(legal[0], self._evaluate(pos), (legal[0],), 0, 0, 1, self.clock.elapsed())
        for key in self.history:
            self.history[key] //= 8
        self.killers = [[None, None] for _ in range(MAX_PLY + 1)]
        self.pv = [[] for _ in range(MAX_PLY + 1)]
        best = SearchInfo(legal[0], 0, (legal[0],), 0, 0, 0, 0.0)
        score = 0
        max_depth = min(budget.depth or SEARCH_DEPTH.value, SEARCH_DEPTH.value)  # a deeper budget is cut
        for depth in range(1, max_depth + 1):
            self.root_best = None
            try:
                score = self._aspiration(pos, depth, score)
            except Stopped:
                if self.root_best is not None:  # a move of the unfinished iteration beat the first one
                    move, partial = self.root_best
                    best = SearchInfo(move, partial, (move,), best.depth, self.seldepth, self.nodes,
                                      self.clock.elapsed())
                break
            pv = tuple(self.pv[0]) or (best.move,)
            best = SearchInfo(pv[0], score, pv, depth, self.seldepth, self.nodes, self.clock.elapsed())
            if on_info is not None:
                on_info(best)
            if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                break    # a forced result within the horizon: deeper search cannot change it
            if self.clock.soft_expired():
                break
        best.nodes, best.seldepth, best.time = self.nodes, self.seldepth, self.clock.elapsed()
        return best

    def _aspiration(self, pos, depth: int, previous: int) -> int:
        if depth < 4 or abs(previous) >= MATE_BOUND:
            return self._search(pos, depth, -INFINITY, INFINITY, 0)
        alpha, beta = previous - ASPIRATION, previous + ASPIRATION
        score = self._search(pos, depth, alpha, beta, 0)
        if alpha < score < beta:
            return score
        return self._search(pos, depth, -INFINITY, INFINITY, 0)

    # ------------------------------------------------------------ scores
    def _evaluate(self, pos) -> int:
        """The evaluation for the side to move."""
        value = self.eval.relative(pos, self._root_team)
        return value if self.side_of_turn[pos.turn] == 0 else -value

    def _terminal(self, result, ply: int, side: int) -> int:
        if not result.winners:
            return 0
        won = self._root_team in self.sides.winner_teams(result.winners)
        value = MATE - ply if won else ply - MATE
        return value if side == 0 else -value

    def _repeated(self, pos) -> bool:
        """Has this position occurred before, in the game or on the search path? (Scoring the
        second occurrence as the draw it can become keeps a side that is ahead from shuffling
        back and forth, and lets one that is behind steer for it.)"""
        return pos.hash in pos.history[:-1]

    # ------------------------------------------------------------ search
    def _search(self, pos, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        self.clock.check(self.nodes)
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv[ply] = []
        if ply and self.draw_by_repetition and self._repeated(pos):
            return 0
        side = self.side_of_turn[pos.turn]
        key = pos.hash
        entry = self.table.get(key)
        hash_move = None
        if entry is not None:
            e_depth, flag, e_score, hash_move = entry
            if ply and e_depth >= depth and beta - alpha == 1:
                e_score = _from_table(e_score, ply)
                if flag == EXACT or (flag == LOWER and e_score >= beta) or (flag == UPPER and e_score <= alpha):
                    return e_score
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None:
            return self._terminal(result, ply, side)
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(pos, alpha, beta, ply, 0, legal)
        in_check = pos.in_check()
        if in_check and ply < 2 * MAX_PLY // 3:
            depth += 1
        moves = self._order(pos, legal, hash_move, ply)
        # Futility: near the horizon, a quiet move that neither checks nor ends the game cannot
        # lift a static evaluation this far below alpha.
        futile = (not in_check and depth <= len(FUTILITY) and abs(alpha) < MATE_BOUND
                  and self._evaluate(pos) + FUTILITY[depth - 1] <= alpha)
        side_of_turn = self.side_of_turn
        original_alpha = alpha
        best, best_move = -INFINITY, moves[0]
        for i, move in enumerate(moves):
            quiet = not self._victim(pos, move) and not move[2]
            pos.push(move)
            if futile and i and quiet and not self._forcing(pos):
                pos.pop()
                best = max(best, alpha)   # a fail-low bound: the move was not worth searching
                continue
            same = side_of_turn[pos.turn] == side
            if i == 0:
                value = self._child(pos, depth - 1, alpha, beta, ply, same)
            else:
                reduce = 0
                if i >= 3 and depth >= 3 and quiet and not in_check and move not in self.killers[ply]:
                    reduce = 2 if i >= 12 and depth >= 5 else 1
                value = self._child(pos, depth - 1 - reduce, alpha, alpha + 1, ply, same)
                if value > alpha and (reduce or value < beta):
                    value = self._child(pos, depth - 1, alpha, beta, ply, same)
            pos.pop()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    self.pv[ply] = [move] + self.pv[ply + 1]
                    if ply == 0:
                        self.root_best = (move, value)
                    if value >= beta:
                        if quiet:
                            self._remember(move, depth, ply)
                        break
        flag = LOWER if best >= beta else EXACT if best > original_alpha else UPPER
        if len(self.table) >= TABLE_SIZE:
            self.table.clear()
        self.table[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _forcing(self, pos) -> bool:
        """After a move: does it give check or end the game at once (a king on the hill)?"""
        return pos.in_check() or (pos.game.has_immediate_ends and immediate_end(pos))

    def _child(self, pos, depth: int, alpha: int, beta: int, ply: int, same: bool) -> int:
        if same:
            return self._search(pos, depth, alpha, beta, ply + 1)
        return -self._search(pos, depth, -beta, -alpha, ply + 1)

    def _quiesce(self, pos, alpha: int, beta: int, ply: int, qply: int, legal: list | None = None) -> int:
        """Captures and promotions only, standing pat on the evaluation unless in check."""
        side = self.side_of_turn[pos.turn]
        if legal is None:
            self.nodes += 1
            self.clock.check(self.nodes)
            if ply > self.seldepth:
                self.seldepth = ply
            if pos.game.has_immediate_ends and immediate_end(pos):
                return self._terminal(outcome(pos), ply, side)
        in_check = pos.in_check()
        best = -INFINITY
        if not in_check or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY:
            best = self._evaluate(pos)
            if best >= beta or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY:
                return best
            alpha = max(alpha, best)
        if legal is None:
            legal = pos.legal_moves()
            result = outcome(pos, legal)
            if result is not None:
                return self._terminal(result, ply, side)
        moves = legal if in_check else self._noisy(pos, legal, alpha - best)
        if not moves:
            return best
        side_of_turn = self.side_of_turn
        for move in self._order(pos, moves, None, ply):
            pos.push(move)
            if side_of_turn[pos.turn] == side:
                value = self._quiesce(pos, alpha, beta, ply + 1, qply + 1)
            else:
                value = -self._quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.pop()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best

    def _noisy(self, pos, legal: list, shortfall: int) -> list:
        """The captures and promotions worth a look in quiescence: a promotion only to the most
        valuable piece of its choices, and no move whose gain at best (what it takes, what it
        promotes to, and :data:`DELTA`) cannot make up ``shortfall`` (delta pruning)."""
        values, board = self.values, pos.board
        best_promotion: dict[tuple[int, int], int] = {}
        for m in legal:
            if m[2] and m[0] >= 0:
                key = (m[0], m[1])
                best_promotion[key] = max(best_promotion.get(key, 0), values[m[2]])
        noisy = []
        for m in legal:
            gain = self._victim(pos, m) * self.capture_scale
            if m[2] and m[0] >= 0:
                if values[m[2]] < best_promotion[(m[0], m[1])]:
                    continue
                gain += values[m[2]] - values[board[m[0]]]
            if gain > 0 and gain + DELTA >= shortfall:
                noisy.append(m)
        return noisy

    # ------------------------------------------------------------ ordering
    def _victim(self, pos, move) -> int:
        """The value of what ``move`` takes: an enemy piece on its target (a capture, or locking it
        in a stack), or an en passant victim."""
        code = pos.board[move[1]] if move[1] >= 0 else 0
        if code and self._game.hostile[pos.army][code]:
            return self.values[code]
        special = move[3]
        if special is not None and special[0] == "ep":
            return self.values[pos.board[special[1]]]
        return 0

    def _order(self, pos, moves: list, hash_move, ply: int) -> list:
        """Hash move, then captures and promotions (most valuable victim, least valuable
        attacker), killers, and the rest by history."""
        values, board, history = self.values, pos.board, self.history
        killers = self.killers[ply] if ply <= MAX_PLY else (None, None)

        def score(move) -> int:
            if move == hash_move:
                return 1 << 40
            victim = self._victim(pos, move)
            if victim or move[2]:
                attacker = values[board[move[0]]] if move[0] >= 0 else 0
                return (1 << 32) + 64 * (victim + values[move[2]]) - attacker
            if move == killers[0]:
                return 1 << 31
            if move == killers[1]:
                return (1 << 31) - 1
            return history.get((move[0], move[1]), 0)

        return sorted(moves, key=score, reverse=True)

    def _remember(self, move, depth: int, ply: int) -> None:
        """A quiet move that caused a cut-off: a killer of its ply, and history credit."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        key = (move[0], move[1])
        self.history[key] = min(self.history.get(key, 0) + depth * depth, (1 << 30))


def _to_table(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, not the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def _repetition_draws(game) -> bool:
    """Does an end rule make a repeated position a draw (a condition on ``repetitions``)?"""

    def names(node) -> bool:
        if isinstance(node, S.Ref) and node.path == ["repetitions"]:
            return True
        return any(names(child) for value in node.__dict__.values()
                   for child in (value if isinstance(value, list) else [value]) if isinstance(child, S.Node))

    return any(rule.result == "draw" and names(rule.condition) for rule in game.spec.rules.ends)
