"""The alpha-beta search's hot path: one node of it costs a few moves made and unmade.

:class:`Searcher` runs the iterations that
:class:`~interpreter.agents.alphabeta.AlphaBeta` asks for: a negamax
principal-variation search with a quiescence search, over the two sides of
:mod:`~interpreter.agents.sides`. What makes a node cheap:

- **Legality when a move is tried.** Where a move's legality is a question
  about that move alone (:func:`~interpreter.engine.legality.each_move_alone`)
  and no end rule counts the legal moves beyond whether there is one
  (``Game.ends_count_moves``), a node generates the pseudo-legal moves, picks
  them one at a time in order (the hash move, captures by most valuable
  victim and static exchange, killers, the counter-move, history) and asks
  :func:`~interpreter.engine.legality.allowed` only of the move it is about
  to search: a cut-off after one move costs one test, not forty. The end
  rules that can hold while a move exists are asked first
  (:func:`~interpreter.engine.outcome.outcome_with_moves`); a mate or a
  stalemate is known when no move passed. A node where an end rule reads the
  moves themselves (``only_move_by_royal``, which a rule reads only when its
  conditions before it hold) generates its legal moves, as do all nodes of
  other games (compulsory captures, rules on the number of moves).
- **A neutral piece's moves made only when needed.** Where every move ends by
  moving a neutral piece, a move gets its ways of moving it when it is about to
  be searched (:meth:`Searcher.placements`): the first then, the others after
  every move's first, as late quiet moves.
  Quiescence nodes generate only the captures and promotions where the game
  allows (:func:`~interpreter.engine.generation.noisy_moves`).
- **An evaluation kept up to date.** The sums of
  :mod:`~interpreter.agents.incremental` are carried from a node to its
  children, changed by the move (from scratch only after castling, stacks,
  explosions).
- **A table in flat lists**: the transposition table is three lists indexed
  by the hash's low bits (key, packed depth/bound/score/age, move). The
  quiescence search reads it too, and keeps its own nodes' scores in it at a
  depth below every search's (never in place of an entry of this search).
- **Checks known from the move**: where two armies move in turn and neither
  may leave its royal piece attacked (:attr:`Searcher.checks_known`), a move
  that starts and ends off the ways to the enemy royal piece and moves
  nothing else (:meth:`Searcher.may_check`) leaves its child known not to be
  in check: the child skips the check test (and finding its pins) unless it
  searches a move.
- **Evaluations remembered by hash** (:meth:`Searcher.evaluate`): a position
  met again, in the next iteration or by another order of the same moves, is
  not evaluated again. Its score is the root team's, so the table is emptied
  when a search is for another team.

What makes it strong: iterative deepening with aspiration windows, the
hash move, null-move pruning where the rules make passing no better than
moving (:func:`null_move_allowed`), reverse futility, futility and
late-move pruning near the horizon (each depending on whether the side to
move is improving: its static evaluation better than two plies before),
late-move reductions, check extensions
bounded by the ply (so that games with many checks, Shogi's drops, do not
explode), static exchange evaluation (:meth:`Searcher.exchange`, from the
attack tables) for ordering and for dropping losing captures in
quiescence, two killers per ply, a counter-move per previous move and a
history table (a bonus for the quiet move that cut off, a malus for those
searched before it, see :meth:`Searcher.credit`), which also makes late
quiet moves' reductions a ply smaller or larger.

Compiled with mypyc in the compiled build (``interpreter.native.COMPILED``).
"""

from __future__ import annotations

import math
import threading
import time

from dsl.limits import SEARCH_DEPTH

from interpreter.compiler.end_rules import needs_no_moves
from interpreter.engine.attacks import table_attackers
from interpreter.engine.generation import noisy_moves, pseudo_legal_moves
from interpreter.engine.legality import Guard, allowed, each_move_alone
from interpreter.engine.moves import DROP, PASS, Move
from interpreter.engine.neutral import base_move, has_second_part, with_neutral_moves
from interpreter.engine.outcome import (MovesNeeded, Outcome, forced_moves, immediate_end, legal_moves, outcome,
                                        outcome_with_moves)
from interpreter.engine.position import Position
from interpreter.loading import start_position

from .base import MATE, MATE_BOUND, Stopped
from .incremental import Sums, Terms

INFINITY = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 2 * SEARCH_DEPTH.value  # the deepest search, and room for check extensions and captures beyond it
QUIESCENCE_PLIES = 8        # beyond this many capture plies the evaluation is taken as it is
FUTILITY = 150              # centipawns per ply of futility pruning (quiet moves, 1-2 plies from the horizon)
REVERSE_FUTILITY = 120      # centipawns per ply by which a static evaluation above beta cuts (up to 3 plies)
DELTA = 200                 # margin of delta pruning in quiescence
TEMPO = 20                  # centipawns the side to move gains by having the move (Stockfish's classical tempo)
TABLE_BITS = 18             # the transposition table holds 2**TABLE_BITS entries (about 6 MB)
# The positions whose moves are remembered: 2**GENERATED_BITS (each keeps its moves alive: about 15 MB
# at most; 16 times as many gained 8% of speed on Kiwipete and cost tens of megabytes per agent).
GENERATED_BITS = 12
EVALUATED_BITS = 16         # the evaluations remembered by hash: 2**EVALUATED_BITS (two lists of ints, about 1 MB)
CHECK_EVERY = 1024          # nodes between looks at the clock and the stop flag
NULL_MOVE: Move = (-1, -1, 0, PASS)
NO_MOVE: Move = (-1, -1, 0, None)     # no best move yet
ALL: set[int] = set()                 # see Searcher.exposed: every move may give check
# Move ordering: the bands of scores (higher is tried first).
HASH_MOVE = 1 << 40
GOOD_CAPTURE = 1 << 34
KILLER = 1 << 33
COUNTER = (1 << 33) - 2
BAD_CAPTURE = 1 << 32
_OFFSET = 2 * INFINITY      # scores are stored as non-negative numbers
NO_CUTOFF = 4 * INFINITY    # see Searcher.cutoff: no score (every score lies within INFINITY)
HISTORY_MAX = 1 << 14       # history scores never exceed HISTORY_MAX in size: each update moves a
                            # score by its bonus less the bonus's share of the score ("gravity")
HISTORY_REDUCTION = HISTORY_MAX // 2   # a late quiet move is reduced a ply less (more) per this much history above (below) 0
ROYAL_EXCHANGE = 50_000     # a royal piece's value in an exchange: taking with it loses if it is retaken
# Games whose moves end by moving a neutral piece (see Searcher.placements): a move's later ways of moving it
# are tried after every move's first (their scores this much lower), and a capture in quiescence is tried
# with its first QUIESCENCE_PLACEMENTS ways only.
LATER_PLACEMENT = 1 << 42
QUIESCENCE_PLACEMENTS = 2


def null_move_allowed(game, sides_of_turn: list[int], extinction: bool) -> bool:
    """May the search try a pass (null-move pruning) in this game?

    Null-move pruning assumes that some move is better than passing. It is
    used only where the rules make that the rule rather than the exception:
    two sides whose turns alternate (``sides_of_turn``: per turn of the
    turn order, 0 or 1), every army with a royal piece at the start, no
    ``captures compulsory``, no neutral piece moved every turn, no end rule
    that a side wins by having no move or by losing its pieces
    (``extinction``). A node tries it only when the side to move is not in
    check and has a piece that neither is royal nor promotes (endings of
    kings and pawns are where zugzwang lives).
    """
    turns = len(sides_of_turn)
    alternating = turns >= 2 and all(sides_of_turn[t] != sides_of_turn[(t + 1) % turns] for t in range(turns))
    start = start_position(game)
    royal_armies = all(any(game.is_royal[start.board[c]] for c in start.cells_of[a]) for a in range(len(game.armies)))
    stalemate_wins = any(rule.result == "win" and needs_no_moves(rule.condition) for rule in game.spec.rules.ends)
    return (alternating and royal_armies and not game.compulsory_capture and game.neutral_move is None
            and not extinction and not stalemate_wins)


def _bring_best(moves: list[Move], scores: list[int], i: int) -> None:
    """Swap the best-scored of ``moves[i:]`` (and its score) to ``i``: moves are picked one at a
    time, so that a cut-off after a few spares sorting the rest."""
    top = i
    best = scores[i]
    for j in range(i + 1, len(moves)):
        score = scores[j]
        if score > best:
            top, best = j, score
    if top != i:
        moves[i], moves[top] = moves[top], moves[i]
        scores[i], scores[top] = scores[top], scores[i]


class Searcher:
    """The search of one game for one agent: its tables (transposition, history, counter-moves)
    live as long as the agent plays that game."""

    def __init__(self, game, terms: Terms, values: list[int], team_of: list[int], turn_team: list[int],
                 null_ok: bool, repetition_draws: bool, noise: int = 0, seed: int = 0) -> None:
        self.game = game
        self.terms = terms
        self.values = values
        self.team_of = team_of
        self.turn_team = turn_team
        self.null_ok = null_ok
        self.repetition_draws = repetition_draws
        self.noise = noise
        self.seed = seed
        self.n: int = game.n
        self.lazy: bool = each_move_alone(game) and not game.ends_count_moves
        self.asks_ends: bool = bool(game.ends_with_moves)
        self.immediate: bool = game.has_immediate_ends
        self.no_moves: bool = bool(game.no_moves)
        self.noisy_generation: bool = game.noisy_generation
        # What a capture is worth: the piece, and in drop games the piece in hand as well.
        self.capture_scale: int = 2 if game.to_hand else 1
        self.hostile: list[list[bool]] = game.hostile
        self.code_army: list[int] = game.code_army
        self.exchanges: bool = game.stacking is None and game.blast is None
        self.attackers: list = game.attackers
        self.slow: list[frozenset[int]] = game.slow_attackers
        self.is_royal: list[bool] = game.is_royal
        self.lines: list[set[int] | None] = [None] * game.n
        # Checks known from the move (see make): two armies that move in turn, neither may leave its
        # own royal piece attacked, so the side to move after a move in the tree (not at the root,
        # whose position may come from anywhere) is in check only if that move gave it. Not where
        # check is every royal piece attacked: one of several may stand attacked after a legal move.
        turns = game.turn_armies
        self.checks_known: bool = (len(game.armies) == 2 and game.self_check and not game.check_all
                                   and all(len(t) == 1 and t != turns[(k + 1) % len(turns)] for k, t in enumerate(turns)))
        # The most a capture or a promotion can gain (big delta pruning in quiescence).
        self.max_gain: int = self.capture_scale * max(values) + max(values) + DELTA
        # Pieces whose presence makes zugzwang unlikely (null-move pruning): neither royal nor a pawn
        # (the cheapest kind that promotes).
        promotes = [False] + [bool(game.kinds[game.code_kind[c]].spec.promotions) for c in range(1, game.ncodes)]
        pawn = min((values[c] for c in range(1, game.ncodes) if promotes[c] and not game.is_royal[c]), default=-1)
        self.minor: list[bool] = [False] + [not game.is_royal[c] and not (promotes[c] and values[c] <= pawn)
                                            for c in range(1, game.ncodes)]
        # Values in an exchange: a royal piece is worth more than anything it could win.
        self.see_values: list[int] = [ROYAL_EXCHANGE if game.is_royal[c] else values[c] for c in range(game.ncodes)]
        size = 1 << TABLE_BITS
        self.mask = size - 1
        self.keys: list[int] = [0] * size
        self.data: list[int] = [0] * size
        self.moves: list[Move | None] = [None] * size
        self.age = 0
        self.gen_mask = (1 << GENERATED_BITS) - 1
        self.gen_keys: list[int] = [0] * (self.gen_mask + 1)
        self.gen_moves: list[list[Move] | None] = [None] * (self.gen_mask + 1)
        self.gen_noisy: list[list[Move] | None] = [None] * (self.gen_mask + 1)
        self.eval_mask = (1 << EVALUATED_BITS) - 1
        self.eval_keys: list[int] = [-1] * (self.eval_mask + 1)   # -1: no position (a hash is never negative)
        self.eval_values: list[int] = [0] * (self.eval_mask + 1)
        self.history: list[int] = [0] * (game.ncodes * game.n)
        # Games whose moves end by moving a neutral piece: per side (0: the root team's) and cell, the
        # history of moving it there (see placements).
        self.neutral: bool = game.neutral_move is not None
        self.placed: list[int] = [0] * (2 * game.n if self.neutral else 0)
        self.counters: list[Move | None] = [None] * (game.ncodes * game.n)
        self.reductions: list[list[int]] = [[0] + [int(0.5 + math.log(d) * math.log(i) / 2.25) if d and i else 0
                                                   for i in range(1, 64)] for d in range(64)]
        self.killers: list[Move | None] = [None] * (2 * (MAX_PLY + 2))
        self.quiets_tried: list[list[Move]] = [[] for _ in range(MAX_PLY + 2)]
        self.statics: list[int] = [-INFINITY] * (MAX_PLY + 2)   # the static evaluation at each ply (root side's view)
        self.pv: list[list[Move]] = [[] for _ in range(MAX_PLY + 2)]
        self.sums: list[Sums] = [[] for _ in range(MAX_PLY + 2)]
        self.played: list[Move | None] = [None] * (MAX_PLY + 2)
        # Hashes are never negative: -1 is no answer, no guard.
        self.check_keys: list[int] = [-1] * (MAX_PLY + 2)
        self.check_values: list[bool] = [False] * (MAX_PLY + 2)
        self.guard_keys: list[int] = [-1] * (MAX_PLY + 2)
        self.guards: list[Guard | None] = [None] * (MAX_PLY + 2)
        self.side_of_turn: list[int] = []
        self.root_team = 0
        self.root_moves: list[Move] = []
        self.root_best: Move | None = None
        self.root_score = 0
        self.nodes = 0
        self.seldepth = 0
        self.limit = 0
        self.next_check = 0
        self.deadline = 0.0
        self.stop: threading.Event | None = None
        self.extension_room = 0

    # ------------------------------------------------------------ a search
    def start(self, pos: Position, root_team: int, legal: list[Move], node_limit: int, deadline: float,
              stop: threading.Event | None) -> None:
        """Prepare a search of ``pos`` (a copy the search may change) for ``root_team``, whose
        legal moves are ``legal``: within ``node_limit`` nodes (0: none) and until ``deadline``
        (``time.perf_counter()``; 0: none)."""
        if root_team != self.root_team:
            if len(set(self.team_of)) > 2:
                self.keys = [0] * (self.mask + 1)      # paranoid scores depend on whose view they take
            self.eval_keys = [-1] * (self.eval_mask + 1)
        self.root_team = root_team
        self.side_of_turn = [0 if team == root_team else 1 for team in self.turn_team]
        self.age = (self.age + 1) & 0xFF
        history = self.history
        for i in range(len(history)):
            history[i] >>= 3
        placed = self.placed
        for i in range(len(placed)):
            placed[i] >>= 3
        self.killers = [None] * (2 * (MAX_PLY + 2))
        self.nodes = self.seldepth = 0
        self.limit = node_limit
        self.deadline = deadline
        self.stop = stop
        self.next_check = min(CHECK_EVERY, node_limit) if node_limit else CHECK_EVERY
        self.root_moves = list(legal)
        self.sums[0] = self.terms.sums(pos)

    def iterate(self, pos: Position, depth: int, previous: int, window: int) -> int:
        """One iteration of the given depth (an aspiration window of ``window`` centipawns around
        ``previous`` from depth 4, widened on failure). Raises :class:`Stopped` when the budget
        runs out; :attr:`root_best` then holds the best move found in it, if any."""
        self.root_best = None
        self.extension_room = 2 * depth + 4
        if depth < 4 or abs(previous) >= MATE_BOUND:
            return self.search(pos, depth, -INFINITY, INFINITY, 0, False)
        alpha, beta = previous - window, previous + window
        while True:
            score = self.search(pos, depth, alpha, beta, 0, False)
            if alpha < score < beta:
                return score
            if score <= alpha:
                alpha = max(-INFINITY, alpha - 4 * window)
            else:
                beta = min(INFINITY, beta + 4 * window)
            window *= 4
            if window > 1000:
                return self.search(pos, depth, -INFINITY, INFINITY, 0, False)

    def _check(self) -> None:
        """Raise :class:`Stopped` when the node budget is spent, the time is up or the stop flag is set."""
        nodes = self.nodes
        if self.limit and nodes >= self.limit:
            raise Stopped
        if self.stop is not None and self.stop.is_set():
            raise Stopped
        if self.deadline and time.perf_counter() >= self.deadline:
            raise Stopped
        self.next_check = nodes + CHECK_EVERY
        if self.limit:
            self.next_check = min(self.next_check, self.limit)

    # ------------------------------------------------------------ scores
    def evaluate(self, pos: Position, ply: int) -> int:
        """The evaluation for the side to move (its team's score against the others'), plus
        :data:`TEMPO` for having the move and the level's noise: a number in [-noise, noise] fixed
        by the position and the seed."""
        key = pos.hash
        slot = key & self.eval_mask
        if self.eval_keys[slot] == key:
            value = self.eval_values[slot]
        else:
            value = self.terms.relative(pos, self.sums[ply], self.root_team)
            self.eval_keys[slot] = key
            self.eval_values[slot] = value
        if self.noise:
            mixed = ((pos.hash ^ self.seed) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFF
            value += mixed % (2 * self.noise + 1) - self.noise
        return (value if self.side_of_turn[pos.turn] == 0 else -value) + TEMPO

    def evaluate_root(self, pos: Position) -> int:
        """The evaluation of ``pos`` for its side to move, outside a search (as :meth:`evaluate`
        gives it: with the tempo)."""
        self.root_team = self.turn_team[pos.turn]
        self.side_of_turn = [0 if team == self.root_team else 1 for team in self.turn_team]
        self.sums[0] = self.terms.sums(pos)
        return self.evaluate(pos, 0)

    def terminal(self, result: Outcome, ply: int, side: int) -> int:
        """The score of an ended game for the side ``side`` (0: the root team's)."""
        if not result.winners:
            return 0
        won = any(self.team_of[a] == self.root_team for a in result.winners)
        value = MATE - ply if won else ply - MATE
        return value if side == 0 else -value

    def victim(self, pos: Position, move: Move) -> int:
        """The value of what ``move`` takes: an enemy piece on its target (a capture, or locking it
        in a stack), or an en passant victim."""
        frm: int = move[0]     # typed: native ints once compiled (see moves.Move)
        to: int = move[1]
        board = pos.board
        code = board[to] if to >= 0 else 0
        if code and self.hostile[self.code_army[board[frm]] if frm >= 0 else pos.army][code]:
            return self.values[code]
        special = move[3]
        if special is not None and special[0] == "ep":
            cell: int = special[1]
            return self.values[board[cell]]
        return 0

    def exchange(self, pos: Position, move: Move) -> int:
        """Static exchange evaluation of a capture: what the mover wins on the target cell when
        both sides then take there in turn with their least valuable attacker, each free to stop
        (the swap-off). Attackers are read from the attack tables of the two armies (leaps,
        privileged leaps, rides, lame leaps, hops; x-rays appear as pieces leave), so it holds in
        any game whose attacks depend on occupancy; slow attackers (found by generating moves)
        are not seen. In games of stacks or explosions it is the victim's value."""
        gain = self.victim(pos, move) * self.capture_scale
        frm: int = move[0]
        to: int = move[1]
        promo: int = move[2]
        if not self.exchanges or frm < 0 or frm == to:   # a drop, a promotion in place
            return gain
        board, values = pos.board, self.see_values
        mover = board[frm]
        us = self.code_army[mover]
        them = self.code_army[board[to]] if board[to] else -1
        if them < 0:
            return gain
        standing = promo or mover       # the piece on the target cell, which the next capture takes
        on_square = values[standing]
        gains = [gain]
        removed = [(frm, mover)]
        board[frm] = 0
        sides = (self.attackers[them], self.attackers[us])
        turn = 0
        while len(gains) < 32:
            src = self._cheapest(board, to, sides[turn], pos.privileges, standing)
            if src < 0:
                break
            gains.append(on_square * self.capture_scale - gains[-1])
            if max(-gains[-2], gains[-1]) < 0:
                break
            standing = board[src]
            on_square = values[standing]
            removed.append((src, board[src]))
            board[src] = 0
            turn = 1 - turn
        for cell, code in removed:
            board[cell] = code
        d = len(gains) - 1
        while d > 0:
            gains[d - 1] = -max(-gains[d - 1], gains[d])
            d -= 1
        return gains[0]

    def _cheapest(self, board: list[int], cell: int, foes, privileges: int, victim: int) -> int:
        """The cell of the least valuable piece that ``foes``' attack tables say attacks the piece
        ``victim`` on ``cell`` (whatever the board holds there), or -1."""
        values = self.see_values
        best, best_value = -1, INFINITY
        for src in table_attackers(board, cell, foes, privileges, False, victim):
            if values[board[src]] < best_value:
                best, best_value = src, values[board[src]]
        return best

    # ------------------------------------------------------------ the moves of a position
    def generated(self, pos: Position, guard: Guard) -> list[Move]:
        """The pseudo-legal moves of ``pos`` (never changed in place: callers copy to reorder),
        remembered by hash: every iteration of the deepening comes back to most positions of the
        last one, and generating the moves costs about ten moves made and unmade."""
        key = pos.hash
        i = key & self.gen_mask
        noisy: list[Move] | None = None
        if self.gen_keys[i] == key:
            found = self.gen_moves[i]
            if found is not None:
                return found
            noisy = self.gen_noisy[i]    # the captures alone may be known: they stay right
        moves = pseudo_legal_moves(pos, guard.attacked)
        self.gen_keys[i] = key
        self.gen_moves[i] = moves
        self.gen_noisy[i] = noisy
        return moves

    def noisy(self, pos: Position, guard: Guard) -> list[Move]:
        """:meth:`noisy_of` the pseudo-legal moves, remembered by hash like them (see
        :meth:`generated`). Where the game allows (``Game.noisy_generation``), only the captures
        and promotions are generated when the position's moves are not remembered already."""
        key = pos.hash
        i = key & self.gen_mask
        if self.gen_keys[i] == key:
            found = self.gen_noisy[i]
            if found is not None:
                return found
            moves = self.gen_moves[i]
            if moves is not None:
                found = self.gen_noisy[i] = self.noisy_of(pos, moves)
                return found
        if not self.noisy_generation:
            moves = self.generated(pos, guard)
            found = self.gen_noisy[i] = self.noisy_of(pos, moves)
            return found
        found = self.noisy_of(pos, noisy_moves(pos))
        self.gen_keys[i] = key
        self.gen_moves[i] = None
        self.gen_noisy[i] = found
        return found

    def noisy_of(self, pos: Position, moves: list[Move]) -> list[Move]:
        """The captures and promotions among ``moves``, a promotion only to the most valuable piece
        of its choices."""
        values, n = self.values, self.n
        best_promotion: dict[int, int] = {}
        for m in moves:
            if m[2] and m[0] >= 0:
                k = m[0] * n + m[1]
                best_promotion[k] = max(best_promotion.get(k, 0), values[m[2]])
        out: list[Move] = []
        for m in moves:
            if m[2] and m[0] >= 0:
                if values[m[2]] >= best_promotion[m[0] * n + m[1]]:
                    out.append(m)
            elif self.victim(pos, m):
                out.append(m)
        return out

    def placements(self, pos: Position, move: Move, side: int, skip: Move | None) -> list[Move]:
        """``move``, a move the rules allow in a game whose moves end by moving a neutral piece,
        with each way of moving that piece after it
        (:func:`~interpreter.engine.neutral.with_neutral_moves`), best first for ``side``: by the
        history of moving it to its cell (:meth:`credit_placement`), among equals first to a cell
        on the attack tables' ways to the moved piece's target (where it may block an attack on
        that piece). ``skip``: a move left out (the hash move, tried before). Generated only for
        a move about to be searched: a node whose first move cuts off never makes the others."""
        options = with_neutral_moves(pos, [move])
        near: set[int] = self.lines_to(move[1]) if self.exchanges and move[1] >= 0 else set()
        placed, base = self.placed, side * self.n
        keys = [2 * placed[base + m[3][2]] + (1 if m[3][2] in near else 0) for m in options]
        order = sorted(range(len(options)), key=lambda k: -keys[k])
        return [options[k] for k in order if options[k] != skip]

    def first_placement(self, pos: Position, move: Move, side: int, skip: Move | None, moves: list[Move],
                        scores: list[int], score: int, most: int) -> Move | None:
        """``move`` (a move of a game whose moves end by moving a neutral piece, without that part,
        scored ``score``) with its first way of moving the neutral piece by :meth:`placements`, or
        None when it has none; its next ways, up to ``most`` ways in all, are appended to
        ``moves`` with ``scores`` below every move's first (even: no exchange is evaluated again)."""
        options = self.placements(pos, move, side, skip)
        if not options:
            return None
        later = (score & ~1) - LATER_PLACEMENT
        for k in range(1, min(len(options), most)):
            moves.append(options[k])
            scores.append(later)
        return options[0]

    # ------------------------------------------------------------ make and unmake
    def make(self, pos: Position, move: Move, ply: int, danger: set[int] | None = None) -> None:
        """Make ``move`` at ``ply``: its sums and the move played there. ``danger``: :meth:`exposed`
        of the position before it, where :attr:`checks_known` holds at this ply; a move that
        :meth:`may_check` says cannot give check leaves the child known not to be in check."""
        pos.push(move)
        self.sums[ply + 1] = self.terms.after(pos, self.sums[ply], move)
        self.played[ply] = move
        if danger is not None and not self.may_check(move, danger):
            self.check_keys[ply + 1] = pos.hash
            self.check_values[ply + 1] = False

    def may_check(self, move: Move, danger: set[int]) -> bool:
        """May ``move`` give check, by ``danger``, :meth:`exposed` of its position? A move that
        neither starts nor ends on one of its cells and moves nothing else (no castling, en
        passant, gating; a neutral piece's move only if it leaves one of them) cannot."""
        special = move[3]
        if self.neutral and has_second_part(move):
            # The neutral piece's move gives check only by leaving a line to a royal piece.
            special = special[3] if special[1] not in danger else special
        frm: int = move[0]
        to: int = move[1]
        return danger is ALL or frm in danger or to in danger or special is not None

    # ------------------------------------------------------------ ordering
    def order_scores(self, pos: Position, moves: list[Move], hash_move: Move | None, ply: int) -> list[int]:
        """A score per move: the hash move, captures and promotions by gain (those whose
        :meth:`exchange` may lose are marked odd: :meth:`search_moves` moves the losing ones after
        the killers when it reaches them), killers, the counter-move of the previous move, then
        history."""
        board, values, history, n = pos.board, self.values, self.history, self.n
        k0, k1 = self.killers[2 * ply], self.killers[2 * ply + 1]
        counter: Move | None = None
        if ply:
            previous = self.played[ply - 1]
            if previous is not None:
                last: int = previous[1]
                if last >= 0 and board[last]:
                    counter = self.counters[board[last] * n + last]
        scores: list[int] = []
        for move in moves:
            if move == hash_move:
                scores.append(HASH_MOVE)
                continue
            victim = self.victim(pos, move)
            frm: int = move[0]
            promo: int = move[2] if frm >= 0 else 0
            if victim or promo:
                attacker = values[board[frm]] if frm >= 0 else 0
                # Even: a sure gain. Odd: a capture by a more valuable piece, whose exchange is
                # evaluated when it comes up (it goes after the killers if it loses).
                mvv = 2 * (64 * (victim + values[promo]) - attacker) + (1 if victim and attacker > victim else 0)
                scores.append(GOOD_CAPTURE + mvv)
            elif move == k0:
                scores.append(KILLER + 1)
            elif move == k1:
                scores.append(KILLER)
            elif move == counter:
                scores.append(COUNTER)
            else:
                to: int = move[1]
                code: int = board[frm] if frm >= 0 else move[2]
                scores.append(history[code * n + to] if to >= 0 and code else 0)
        return scores

    def remember(self, pos: Position, move: Move, depth: int, ply: int) -> None:
        """A quiet move that caused a cut-off (and was just taken back): a killer of its ply, the
        counter-move of the move before it, and history credit; the quiet moves searched before
        it at this node (``quiets_tried``) lose as much credit. A move's neutral piece's move is
        not part of what is remembered (see :meth:`credit_placement`)."""
        if self.neutral and has_second_part(move):
            move = base_move(move)
        if self.killers[2 * ply] != move:
            self.killers[2 * ply + 1] = self.killers[2 * ply]
            self.killers[2 * ply] = move
        n, board = self.n, pos.board
        if ply:
            previous = self.played[ply - 1]
            if previous is not None and previous[1] >= 0 and board[previous[1]]:
                self.counters[board[previous[1]] * n + previous[1]] = move
        bonus = min(32 * depth * depth, HISTORY_MAX // 4)
        self.credit(board, move, bonus)
        for other in self.quiets_tried[ply]:
            self.credit(board, other, -bonus)

    def credit_placement(self, side: int, move: Move, depth: int) -> None:
        """A move with a neutral piece's move cut off at ``depth``: history credit for moving the
        neutral piece to its cell, for ``side`` (see :meth:`placements`)."""
        i = side * self.n + move[3][2]
        bonus = min(32 * depth * depth, HISTORY_MAX // 4)
        h = self.placed[i]
        self.placed[i] = h + bonus - h * bonus // HISTORY_MAX

    def credit(self, board: list[int], move: Move, bonus: int) -> None:
        """Add ``bonus`` (negative: a malus) to a quiet move's history, less the bonus's share of
        the score already there, so that no score exceeds :data:`HISTORY_MAX` in size and a
        move's recent results count more than its old ones."""
        to = move[1]
        code = board[move[0]] if move[0] >= 0 else move[2]
        if to >= 0 and code:
            i = code * self.n + to
            h = self.history[i]
            self.history[i] = h + bonus - h * abs(bonus) // HISTORY_MAX

    # ------------------------------------------------------------ the table
    def probe(self, key: int) -> int:
        """The table's packed entry for ``key``, or -1."""
        i = key & self.mask
        return self.data[i] if self.keys[i] == key else -1

    def cutoff(self, entry: int, alpha: int, beta: int, ply: int) -> int:
        """The score a node at ``ply`` returns by the table's ``entry`` (mate scores made relative
        to the root again) where its bound settles the window (alpha, beta), else NO_CUTOFF."""
        score = (entry >> 18) - _OFFSET
        if score >= MATE_BOUND:
            score -= ply
        elif score <= -MATE_BOUND:
            score += ply
        flag = entry & 3
        if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
            return score
        return NO_CUTOFF

    def store(self, key: int, depth: int, flag: int, score: int, move: Move | None, ply: int) -> None:
        """Keep an entry (mate scores relative to the node): an entry of an earlier search, another
        position's or a shallower one is replaced. ``depth`` -1 is a quiescence node's: kept as
        depth 0 (a search's ``depth`` as ``depth + 1``, so that no search node takes its bound),
        it replaces no search entry of this search, whatever its position."""
        i = key & self.mask
        old = self.data[i]
        if (old >> 10) & 0xFF == self.age and (
                (self.keys[i] == key and (old >> 2) & 0xFF >= depth + 3)
                or (depth < 0 and (old >> 2) & 0xFF)):
            return
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        self.keys[i] = key
        self.data[i] = ((score + _OFFSET) << 18) | (self.age << 10) | (min(depth + 1, 255) << 2) | flag
        self.moves[i] = move

    # ------------------------------------------------------------ the search
    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, can_null: bool) -> int:
        """The score of ``pos`` for the side to move within (alpha, beta), searched ``depth`` plies."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv[ply] = []
        if ply and self.repetition_draws and pos.history.count(pos.hash) > 1:
            return 0
        side = self.side_of_turn[pos.turn]
        key = pos.hash
        hash_move: Move | None = None
        entry = self.probe(key)
        if entry >= 0:
            hash_move = self.moves[key & self.mask]
            if ply and beta - alpha == 1 and (entry >> 2) & 0xFF > depth:
                score = self.cutoff(entry, alpha, beta, ply)
                if score != NO_CUTOFF:
                    return score
        legal: list[Move] | None = None
        if ply:
            if self.immediate and immediate_end(pos):
                found = outcome(pos, [])
                return self.terminal(found, ply, side) if found is not None else 0
            if self.lazy:
                if self.asks_ends:
                    try:
                        ended = outcome_with_moves(pos) is not None
                    except MovesNeeded:             # this node's moves are generated, as the rules define them
                        legal = legal_moves(pos)
                        ended = True
                    if ended:
                        found = outcome(pos, legal if legal is not None else legal_moves(pos))   # exact: a rule
                        if found is not None:                                                   # before may need none
                            return self.terminal(found, ply, side)
            else:
                legal = legal_moves(pos)
                found = outcome(pos, legal)
                if found is not None:
                    return self.terminal(found, ply, side)
        else:
            legal = self.root_moves
        if depth <= 0 or ply >= MAX_PLY:
            return self.quiesce(pos, alpha, beta, ply, 0, legal)
        in_check = self.checked(pos, ply)
        if in_check and ply < self.extension_room:
            depth += 1
        pv_node = beta - alpha > 1
        static = -INFINITY
        improving = False
        if not in_check:
            static = self.evaluate(pos, ply)
            # Improving: the static evaluation is better for this side than two plies before.
            earlier = self.statics[ply - 2] if ply >= 2 else -INFINITY
            if earlier != -INFINITY:
                improving = (static > earlier) if side == 0 else (static > -earlier)
            self.statics[ply] = static if side == 0 else -static   # the root side's view
            if not pv_node and abs(beta) < MATE_BOUND:
                if depth <= 3 and static - REVERSE_FUTILITY * (depth - (1 if improving else 0)) >= beta:
                    return static
                if (can_null and self.null_ok and depth >= 3 and static >= beta and self.has_minor(pos)):
                    # The pass is searched 3 plies shallower (more from depth 6), 2 up to depth 4: a
                    # reply of one ply then still sees a quiet move that mates (a threat the quiescence
                    # search alone cannot see).
                    reduction = 3 + depth // 6 if depth > 4 else 2
                    pos.push(NULL_MOVE)
                    self.sums[ply + 1] = self.sums[ply]
                    self.played[ply] = None
                    value = -self.search(pos, depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
                    pos.pop()
                    if value >= beta:
                        return beta if value >= MATE_BOUND else value
        guard = self.guard_at(pos, ply)
        futile = not in_check and not pv_node and depth <= 2 and abs(alpha) < MATE_BOUND and static + FUTILITY * depth <= alpha
        if in_check:
            self.statics[ply] = -INFINITY
        late = (3 + depth * depth) // (1 if improving else 2) if not pv_node and not in_check and depth <= 3 else 1 << 30
        original_alpha = alpha
        best, best_move, tried, quiets = -INFINITY, NO_MOVE, 0, 0
        self.quiets_tried[ply].clear()
        if legal is None:
            # The hash move first, before any move is generated: a cut-off by it spares the rest.
            if (hash_move is not None and self.plausible(pos, hash_move)
                    and allowed(pos, base_move(hash_move) if self.neutral else hash_move, guard)):
                best, best_move, alpha, tried, quiets = self.search_moves(
                    pos, [hash_move], False, guard, depth, alpha, beta, ply, side, in_check, hash_move, futile, late,
                    best, best_move, tried, quiets)
            if alpha < beta:
                moves = self.generated(pos, guard)
                if in_check:
                    # Most moves leave the check in place: they are dropped before any is ordered.
                    moves = [m for m in moves if m != hash_move and allowed(pos, m, guard)]
                elif tried:
                    moves = [m for m in moves if m != hash_move]
                # (Where moves end by moving a neutral piece, the hash move tried is left out of the ways
                # of moving it after its move.)
                best, best_move, alpha, tried, quiets = self.search_moves(
                    pos, moves, not in_check, guard, depth, alpha, beta, ply, side, in_check,
                    hash_move if self.neutral and tried else None, futile, late, best, best_move, tried, quiets)
        else:
            best, best_move, alpha, tried, quiets = self.search_moves(
                pos, legal, False, guard, depth, alpha, beta, ply, side, in_check, hash_move, futile, late,
                best, best_move, tried, quiets)
        if tried == 0:
            forced = forced_moves(pos) if self.no_moves else []
            if not forced:
                found = outcome(pos, [])
                return self.terminal(found, ply, side) if found is not None else 0
            best, best_move, alpha, tried, quiets = self.search_moves(
                pos, forced, False, guard, depth, alpha, beta, ply, side, in_check, None, False, 1 << 30,
                best, best_move, tried, quiets)
        flag = LOWER if best >= beta else EXACT if best > original_alpha else UPPER
        self.store(key, depth, flag, best, best_move if best_move is not NO_MOVE else None, ply)
        return best

    def guard_at(self, pos: Position, ply: int) -> Guard:
        """The :class:`~interpreter.engine.legality.Guard` of ``pos`` at ``ply``, remembered per ply
        by hash: the check test of a node (see :meth:`checked`) finds the pins its moves' legality
        then reads, and a child whose check test its parent asked finds them made."""
        key = pos.hash
        guard = self.guards[ply]
        if guard is not None and self.guard_keys[ply] == key:
            return guard
        guard = Guard(pos)
        self.guard_keys[ply] = key
        self.guards[ply] = guard
        return guard

    def checked(self, pos: Position, ply: int) -> bool:
        """Is the side to move in check in ``pos``, at ``ply``? Remembered per ply by hash: a node
        asks it of a child before searching it (does the move give check?), and the child again.
        Read from the ply's guard: where pins can be read from the attack tables, finding them
        answers it."""
        key = pos.hash
        if self.check_keys[ply] == key:
            return self.check_values[ply]
        guard = self.guard_at(pos, ply)
        value = any(guard.attacked(army) for army in pos.movers)
        self.check_keys[ply] = key
        self.check_values[ply] = value
        return value

    def plausible(self, pos: Position, move: Move) -> bool:
        """Could ``move``, a move of the table, be a move of ``pos``? (An entry's key is the whole
        62-bit hash, so it is the position's move unless two positions share a hash; this guards
        against that, before the legality test.)"""
        frm: int = move[0]
        to: int = move[1]
        board = pos.board
        if self.neutral and has_second_part(move):
            # The neutral piece where the move takes it from, and its cell empty or left by the move.
            source, cell = move[3][1], move[3][2]
            if (source >= 0 and board[source] != self.game.neutral_move) or (board[cell] and cell != frm) or cell == to:
                return False
        if frm >= 0:
            code = board[frm]
            return bool(code) and self.code_army[code] in pos.movers
        if move[3] is DROP:
            return pos.hands[move[2]] > 0 and board[to] == 0
        return False

    def search_moves(self, pos: Position, moves: list[Move], check: bool, guard: Guard, depth: int, alpha: int,
                     beta: int, ply: int, side: int, in_check: bool, hash_move: Move | None, futile: bool,
                     late: int, best: int, best_move: Move, tried: int,
                     quiets: int) -> tuple[int, Move, int, int, int]:
        """Search ``moves`` (testing each one's legality first when ``check``), best first, after
        ``tried`` legal moves (``quiets`` of them quiet) whose best was ``best_move`` scoring
        ``best``; returns the new best score, best move, alpha, and counts."""
        scores = self.order_scores(pos, moves, hash_move, ply)
        moves = list(moves)
        side_of_turn = self.side_of_turn
        count = len(moves)
        danger: set[int] | None = None
        i = 0
        while i < count:
            _bring_best(moves, scores, i)
            move = moves[i]
            score = scores[i]
            if GOOD_CAPTURE <= score < HASH_MOVE and score & 1 and self.exchange(pos, move) < 0:
                scores[i] = score - GOOD_CAPTURE + BAD_CAPTURE - 1    # a losing capture: after the quiet moves' killers
                continue
            i += 1
            promo: int = move[2]
            quiet = not (promo and move[0] >= 0) and not self.victim(pos, move)
            # A later way of moving the neutral piece after a move (see placements) counts as a quiet
            # move for pruning and reductions, whatever the move takes.
            late_placement = score < -(LATER_PLACEMENT >> 1)
            if (quiet or late_placement) and tried:
                quiets += 1
                if futile or (quiets > late and best > -MATE_BOUND):
                    # Futility and late-move pruning: a quiet move near the horizon, when the static
                    # evaluation is far below alpha or many moves came before it, is not searched,
                    # unless it gives check (tried only for the moves that may: see exposed). A legal
                    # move was searched before it, so its own legality need not be asked: a pruned
                    # move changes neither the score nor whether the side has a move.
                    if danger is None:
                        danger = self.exposed(pos)
                    pruned = True
                    if self.may_check(move, danger):
                        pos.push(move)
                        pruned = not self.checked(pos, ply + 1)
                        pos.pop()
                    if pruned:
                        if futile and best < alpha:
                            best = alpha   # a fail-low bound: the move was not worth searching
                        continue
            if self.neutral and not has_second_part(move):
                # A move without its neutral piece's move: allowed or not as it is, then tried with
                # its first way of moving the neutral piece, the others put after every move's first.
                if check and not allowed(pos, move, guard):
                    continue
                first = self.first_placement(pos, move, side, hash_move, moves, scores, score, 1 << 30)
                if first is None:
                    continue
                move = first
                count = len(moves)
            elif check and not allowed(pos, move, guard):
                continue
            tried += 1
            if self.checks_known and ply and danger is None:
                danger = self.exposed(pos)
            self.make(pos, move, ply, danger if self.checks_known and ply else None)
            same = side_of_turn[pos.turn] == side
            if tried == 1:
                value = self.child(pos, depth - 1, alpha, beta, ply, same)
            else:
                reduce = 0
                if (quiet or late_placement) and ply and depth >= 3 and not in_check and score < COUNTER:
                    reduce = self.reductions[min(depth, 63)][min(tried, 63)] - (1 if beta - alpha > 1 else 0)
                    # score: the move's history (a killer's or counter-move's is not reduced by it)
                    reduce -= score // HISTORY_REDUCTION if score >= 0 else -(-score // HISTORY_REDUCTION)
                    if reduce and self.checked(pos, ply + 1):
                        reduce = 0
                    reduce = max(0, min(reduce, depth - 2))
                value = self.child(pos, depth - 1 - reduce, alpha, alpha + 1, ply, same)
                if value > alpha and (reduce or value < beta):
                    value = self.child(pos, depth - 1, alpha, beta, ply, same)
            pos.pop()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    self.pv[ply] = [move] + self.pv[ply + 1]
                    if ply == 0:
                        self.root_best = move
                        self.root_score = value
                    if value >= beta:
                        if quiet:
                            self.remember(pos, move, depth, ply)
                        if self.neutral and has_second_part(move):
                            self.credit_placement(side, move, depth)
                        break
            if quiet:
                self.quiets_tried[ply].append(move)
        return best, best_move, alpha, tried, quiets

    def child(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, same: bool) -> int:
        """The child's score for this node's side (``same``: the same side moves again there)."""
        if same:
            return self.search(pos, depth, alpha, beta, ply + 1, True)
        return -self.search(pos, depth, -beta, -alpha, ply + 1, True)

    def exposed(self, pos: Position) -> set[int]:
        """The cells where a move of the side to move may start or end to give check: every cell
        from which, or through which, a piece may attack an enemy royal piece by the attack tables
        (whatever stands there); :data:`ALL` where the tables do not tell (slow attackers, stacks,
        explosions). Not to be changed: it may be a remembered set of :meth:`lines_to`."""
        if not self.exchanges:
            return ALL
        found: set[int] | None = None
        board, is_royal = pos.board, self.is_royal
        movers = pos.movers
        for army in movers:
            if self.slow[army]:
                return ALL
            for enemy in self.game.enemies[army]:
                for cell in pos.cells_of[enemy]:
                    if is_royal[board[cell]]:
                        lines = self.lines_to(cell)
                        found = lines if found is None else found | lines
        return found if found is not None else set()

    def lines_to(self, cell: int) -> set[int]:
        """The cells on the attack tables' ways to ``cell``, of every army: leaps' and privileged
        leaps' sources, the cells of rides and hops, lame leaps' sources and the cells between."""
        lines = self.lines[cell]
        if lines is None:
            lines = set()
            for foes in self.attackers:
                lines.update(src for src, _ in foes.leap[cell])
                lines.update(src for src, _ in foes.once[cell])
                for chain, _ in foes.ray[cell]:
                    lines.update(chain)
                for entry in foes.hop[cell]:
                    lines.update(entry[0])
                for entry in foes.near[cell]:
                    lines.update(entry[0])
                for src, between, _ in foes.lame[cell]:
                    lines.add(src)
                    lines.update(between)
            self.lines[cell] = lines
        return lines

    def has_minor(self, pos: Position) -> bool:
        """Has the side to move a piece that is neither royal nor promotes, on the board or in hand?"""
        minor, board, hands = self.minor, pos.board, pos.hands
        for army in pos.movers:
            for cell in pos.cells_of[army]:
                if minor[board[cell]]:
                    return True
        code_army = self.code_army
        movers = pos.movers
        for code in range(1, len(hands)):
            if hands[code] and minor[code] and code_army[code] in movers:
                return True
        return False

    # ------------------------------------------------------------ quiescence
    def quiesce(self, pos: Position, alpha: int, beta: int, ply: int, qply: int, legal: list[Move] | None) -> int:
        """Captures and promotions only, standing pat on the evaluation unless in check (then every
        move; for a side in check without one, the moves the rules force on it, a royal piece
        removed, searched as any other). ``legal``: the position's legal moves when the caller has
        them (it also asked the end rules then); None at the quiescence search's own nodes, which
        ask only the immediate ends."""
        side = self.side_of_turn[pos.turn]
        if qply:
            self.nodes += 1
            if self.nodes >= self.next_check:
                self._check()
            if ply > self.seldepth:
                self.seldepth = ply
            if self.immediate and immediate_end(pos):
                found = outcome(pos, [])
                return self.terminal(found, ply, side) if found is not None else 0
            if beta - alpha == 1:
                # Any entry bounds a quiescence node's score (a search's, of depth 1 or more, better).
                entry = self.probe(pos.hash)
                if entry >= 0:
                    score = self.cutoff(entry, alpha, beta, ply)
                    if score != NO_CUTOFF:
                        return score
        in_check = self.checked(pos, ply)
        best = -INFINITY
        original_alpha = alpha
        if not in_check or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY:
            best = self.evaluate(pos, ply)
            if best >= beta or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY:
                return best
            if best > alpha:
                alpha = best
        if legal is None and not self.lazy:
            legal = legal_moves(pos)
            found = outcome(pos, legal)
            if found is not None:
                return self.terminal(found, ply, side)
        if not in_check and best + self.max_gain < alpha:
            return best    # nothing could lift the position to alpha (big delta pruning)
        guard = self.guard_at(pos, ply)
        generating = legal is None      # the moves are generated here: a mate is this node's to find
        check = generating              # legality is asked of each move about to be searched
        if in_check:
            moves = list(self.generated(pos, guard) if legal is None else legal)
            scores = self.order_scores(pos, moves, None, ply)
        else:
            # Captures and promotions whose gain at best (what they take, what they promote to,
            # and DELTA) can make up for the shortfall (delta pruning), by gain; odd: a capture by
            # a more valuable piece (its exchange may lose).
            moves, scores = [], []
            board, values, scale = pos.board, self.values, self.capture_scale
            shortfall = alpha - best
            for m in (self.noisy(pos, guard) if legal is None else self.noisy_of(pos, legal)):
                victim = self.victim(pos, m)
                frm: int = m[0]
                code: int = m[2]
                promo = values[code] - values[board[frm]] if code and frm >= 0 else 0
                if victim * scale + promo + DELTA < shortfall:
                    continue
                attacker = values[board[frm]] if frm >= 0 else 0
                moves.append(m)
                scores.append(2 * (64 * (victim + promo) - attacker) + (1 if victim and attacker > victim else 0))
            if not moves:
                return best
        tried = 0
        best_move: Move | None = None
        danger: set[int] | None = None
        i = 0
        while i < len(moves):
            _bring_best(moves, scores, i)
            move = moves[i]
            score = scores[i]
            i += 1
            if not in_check and score & 1 and self.exchange(pos, move) < 0:
                continue      # a losing capture: standing pat is better
            if self.neutral and not has_second_part(move):
                # With its first ways of moving the neutral piece (every way in check).
                if check and not allowed(pos, move, guard):
                    continue
                first = self.first_placement(pos, move, side, None, moves, scores, score,
                                             (1 << 30) if in_check else QUIESCENCE_PLACEMENTS)
                if first is None:
                    continue
                move = first
            elif check and not allowed(pos, move, guard):
                continue
            tried += 1
            if self.checks_known and ply and danger is None:
                danger = self.exposed(pos)
            value = self.quiesce_move(pos, move, alpha, beta, ply, qply, side, danger)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    best_move = move
                    if value >= beta:
                        break
        if in_check and tried == 0 and generating:
            forced = forced_moves(pos) if self.no_moves else []
            if not forced:
                found = outcome(pos, [])
                return self.terminal(found, ply, side) if found is not None else 0
            # What the rules make a side without moves do (a royal piece removed), each move in the
            # whole window (there are few): the best of them, a bound as any fail-soft score.
            return max([self.quiesce_move(pos, move, alpha, beta, ply, qply, side) for move in forced])
        if tried:
            flag = LOWER if best >= beta else EXACT if best > original_alpha else UPPER
            self.store(pos.hash, -1, flag, best, best_move, ply)
        return best

    def quiesce_move(self, pos: Position, move: Move, alpha: int, beta: int, ply: int, qply: int,
                     side: int, danger: set[int] | None = None) -> int:
        """The quiescence score of ``move`` in ``pos`` for ``side`` (0: the root team), within
        (alpha, beta): made (``danger``: as for :meth:`make`), searched from the child's side and
        unmade."""
        self.make(pos, move, ply, danger)
        if self.side_of_turn[pos.turn] == side:
            value = self.quiesce(pos, alpha, beta, ply + 1, qply + 1, None)
        else:
            value = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1, None)
        pos.pop()
        return value
