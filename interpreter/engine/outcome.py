"""How a game ends: the end rules of the variant, evaluated at the start of a turn.

End rules are checked in the order they are declared, immediate ones (see
:data:`~interpreter.compiler.end_rules.DEFERRED_NAMES`) first; the first
whose condition holds ends the game. Results are from the point of view of
the side to move: ``loss`` means the side to move has lost (and every enemy
army has won), ``win`` that it has won, ``draw`` a draw; ``score`` gives the
win to the armies with the highest score (see :mod:`~interpreter.engine.scoring`).

The names a condition may use are the vocabulary of
:data:`~interpreter.compiler.end_rules.END_NAMES`, computed here by
:class:`EndContext`, each only when a condition asks for it.

End rules decide the legal moves too (:func:`legal_moves`): none once an
immediate end rule holds, and the forced move of ``when no moves`` when the
rules allow no other; so legal moves are computed here, on top of
:mod:`interpreter.engine.legality`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame

from .attacks import attacked, checkers, in_check, royal_attacked, royal_cells, royals_face
from .generation import kind_count
from .legality import Guard, mates_after, rescue_moves, rule_abiding_moves
from .moves import PASS, REMOVE, Move
from .scoring import OUT, RESIGNED, armies_left
from .stacking import locked_pieces, lower_pieces

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from .position import Position


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the rule that ended it and the result for ``army`` (the side to move)."""

    rule: str
    title: str
    result: str
    army: int
    winners: tuple[int, ...]
    scores: tuple[int, ...] = ()
    """Each army's score at the end, in games that score (see ``points``); else empty."""

    def describe(self, game: "Game") -> str:
        names = [game.armies[a].title for a in self.winners]
        scores = (" (scores: " + ", ".join(f"{game.armies[a].title} {s}" for a, s in enumerate(self.scores)) + ")"
                  if self.scores else "")
        if not names:
            return f"draw by {self.title}{scores}"
        return f"{' and '.join(names)} win{'s' if len(names) == 1 else ''} by {self.title}{scores}"


class EndContext:
    """Lazily computed facts about a position, named as in :data:`END_NAMES`."""

    def __init__(self, position: "Position", legal: list | None = None) -> None:
        self.position = position
        self._legal = legal

    @property
    def in_check(self) -> bool:
        return in_check(self.position)

    @property
    def legal_moves(self) -> int:
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return len(self._legal)

    @property
    def repetitions(self) -> int:
        return self.position.history.count(self.position.hash)

    @property
    def clock(self) -> int:
        return self.position.clock

    @property
    def fullmove(self) -> int:
        return self.position.fullmove

    @property
    def sides(self) -> int:
        return len(self.position.game.turn_armies)

    @property
    def insufficient_material(self) -> bool:
        return insufficient_material(self.position)

    @property
    def royals(self) -> int:
        return len(royal_cells(self.position, self.position.army))

    @property
    def enemy_royals(self) -> int:
        pos = self.position
        count = 0
        for e in pos.game.enemies[pos.army]:
            count += len(royal_cells(pos, e))
        return count

    @property
    def pieces(self) -> int:
        return len(self.position.cells_of[self.position.army])

    @property
    def team_pieces(self) -> int:
        pos = self.position
        count = len(pos.cells_of[pos.army])
        for a in pos.game.partners[pos.army]:
            count += len(pos.cells_of[a])
        return count

    @property
    def team_royals(self) -> int:
        pos = self.position
        count = len(royal_cells(pos, pos.army))
        for a in pos.game.partners[pos.army]:
            count += len(royal_cells(pos, a))
        return count

    @property
    def enemy_pieces(self) -> int:
        pos = self.position
        count = 0
        for e in pos.game.enemies[pos.army]:
            count += len(pos.cells_of[e])
        return count

    def _royal(self) -> int:
        cells = royal_cells(self.position, self.position.army)
        return cells[0] if cells else -1

    @property
    def royal_level(self) -> str:
        pos, cell = self.position, self._royal()
        if cell < 0:
            return "none"
        if any(pos.game.is_royal[code] and pos.game.code_army[code] == pos.army for code in lower_pieces(pos, cell)):
            return "under"
        return "upper" if pos.under[cell] else "ground"

    @property
    def royal_above(self) -> str:
        pos, cell = self.position, self._royal()
        if cell < 0 or self.royal_level != "under":
            return "none"
        return "enemy" if pos.game.hostile[pos.army][pos.board[cell]] else "own"

    @property
    def checked_by_royal(self) -> bool:
        pos = self.position
        return any(pos.game.is_royal[pos.board[c]] for c in checkers(pos))

    def _moves(self) -> list:
        """The legal moves themselves; :class:`MovesNeeded` where only their existence is known
        (:func:`outcome_with_moves`)."""
        if self._legal is SOME_MOVE:
            raise MovesNeeded
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return self._legal

    @property
    def only_move_by_royal(self) -> bool:
        pos = self.position
        moves = self._moves()
        if len(moves) != 1 or moves[0][0] < 0:
            return False
        return pos.game.is_royal[pos.board[moves[0][0]]]

    @property
    def mate_follows(self) -> bool:
        pos = self.position
        moves = self._moves()
        if len(moves) != 1:
            return False
        pos.push(moves[0])
        try:
            return any(mates_after(pos, m) for m in legal_moves(pos))
        finally:
            pos.pop()

    @property
    def stalemated(self) -> bool:
        pos = self.position
        return not in_check(pos) and not rule_abiding_moves(pos)

    @property
    def partners_stalemated(self) -> bool:
        pos = self.position
        g: NativeGame = pos.game
        partners = [p for a in pos.movers for p in g.partners[a] if p not in pos.movers]
        if not partners:
            return False
        for partner in partners:
            turn = next((i for i, armies in enumerate(g.turn_armies) if partner in armies), None)
            if turn is None:
                return False
            other = pos.copy()
            other.turn, other.ep_cells = turn, ()  # the partner to move, with no en passant right
            if in_check(other) or rule_abiding_moves(other):
                return False
        return True

    @property
    def checks(self) -> int:
        return self.position.checks[self.position.army]

    @property
    def enemy_checks(self) -> int:
        pos = self.position
        return max((pos.checks[e] for e in pos.game.enemies[pos.army]), default=0)

    @property
    def armies_left(self) -> int:
        return len(armies_left(self.position))

    @property
    def score(self) -> int:
        return self.position.scores[self.position.army]

    @property
    def lead(self) -> int:
        pos = self.position
        left = armies_left(pos)
        if not left:
            return 0
        leader = max(left, key=lambda a: pos.scores[a])
        others = [s for a, s in enumerate(pos.scores) if a != leader]
        return pos.scores[leader] - max(others, default=0)

    @property
    def army(self) -> str:
        pos = self.position
        return pos.game.armies[pos.army].name

    @property
    def mode(self) -> str:
        return self.position.game.mode or ""

    @property
    def passes(self) -> int:
        return self.position.passes_in_a_row()

    @property
    def checked_throughout(self) -> bool:
        return _checks_since_first_occurrence(self.position)[0]

    @property
    def checking_throughout(self) -> bool:
        return _checks_since_first_occurrence(self.position)[1]

    def royals_facing(self, family: str) -> bool:
        pos = self.position
        return royals_face(pos, pos.army, pos.game.family_rays(family))

    def royal_in(self, zone: str) -> bool:
        return self._royal_in(self.position.army, zone)

    def enemy_royal_in(self, zone: str) -> bool:
        pos = self.position
        return any(self._royal_in(e, zone) for e in pos.game.enemies[pos.army])

    def royal_can_enter(self, zone: str) -> bool:
        pos = self.position
        cells = self._zone_cells(pos.army, zone)
        is_royal, board = pos.game.is_royal, pos.board
        return any(m[1] in cells and is_royal[board[m[0]]] for m in rule_abiding_moves(pos))

    def _zone_cells(self, army: int, zone: str):
        table = self.position.game.board.zones[zone]
        return table[None] if None in table else table[self.position.game.armies[army].name]

    def _royal_in(self, army: int, zone: str) -> bool:
        cells = self._zone_cells(army, zone)
        return any(c in cells for c in royal_cells(self.position, army))

    def pieces_in(self, zone: str, *kinds: int) -> int:
        return self._pieces_in(self.position.army, zone, kinds, False)

    def enemy_pieces_in(self, zone: str, *kinds: int) -> int:
        pos = self.position
        return sum(self._pieces_in(e, zone, kinds, False) for e in pos.game.enemies[pos.army])

    def safe_pieces_in(self, zone: str, *kinds: int) -> int:
        return self._pieces_in(self.position.army, zone, kinds, True)

    def enemy_safe_pieces_in(self, zone: str, *kinds: int) -> int:
        pos = self.position
        return sum(self._pieces_in(e, zone, kinds, True) for e in pos.game.enemies[pos.army])

    def _pieces_in(self, army: int, zone: str, kinds: tuple[int, ...], safe: bool) -> int:
        """How many pieces of ``army`` (of ``kinds``; of any kind when empty) stand on its cells of
        ``zone`` (the top of a stack: a piece under another is not counted); with ``safe``, only
        those that no piece of an enemy of ``army`` attacks."""
        pos = self.position
        g: NativeGame = pos.game
        cells, board, code_kind = self._zone_cells(army, zone), pos.board, g.code_kind
        count = 0
        for cell in pos.cells_of[army]:
            if cell in cells and (not kinds or code_kind[board[cell]] in kinds) and not (
                    safe and any(attacked(pos, cell, e, board[cell]) for e in g.enemies[army])):
                count += 1
        return count

    def count(self, kind: int) -> int:
        return kind_count(self.position, self.position.army, kind)

    def enemy_count(self, kind: int) -> int:
        pos = self.position
        return sum(kind_count(pos, e, kind) for e in pos.game.enemies[pos.army])

    def same_colour(self, kind: int) -> bool:
        pos = self.position
        g: NativeGame = pos.game
        cells = [(c, code) for c, code in enumerate(pos.board)] + locked_pieces(pos)
        colours = {pos.game.board.attributes[c]["colour"] for c, code in cells if code and g.code_kind[code] == kind}
        return len(colours) <= 1


def _checks_since_first_occurrence(pos: "Position") -> tuple[bool, bool]:
    """(checked, checking): since the first time the current position occurred, the side to move has
    been in check at every one of its turns (this one included), and the enemy at every one of its
    turns (each move of the side to move gave check). Both false when the position has not occurred
    before, or when the moves since then cannot be taken back (a copied position). Found by taking
    the moves back and playing them again."""
    history, key = pos.history, pos.hash
    first = history.index(key)
    plies = len(history) - 1 - first
    if plies == 0 or pos.undoable() < plies:
        return False, False
    flags: list[bool] = [in_check(pos)]
    taken: list[Move] = []
    for _ in range(plies):
        taken.append(pos.pop())
        flags.append(in_check(pos))
    while taken:
        pos.push(taken.pop())
    return all(flags[0::2]), all(flags[1::2])


def material(pos: "Position") -> list[float]:
    """Per army, the sum of the values of its pieces on the board plus its ``material bonus`` (what
    the result ``material`` compares)."""
    g: NativeGame = pos.game
    board, values = pos.board, g.material_values
    return [bonus + sum(values[board[cell]] for cell in pos.cells_of[army])
            for army, bonus in enumerate(g.material_bonus)]


def legal_moves(pos: Position) -> list[Move]:
    """All legal moves of the side to move (none once an immediate end rule holds).

    With ``when no moves`` rules, an army without a legal move gets the
    one forced move the first matching rule gives: a pass, or removing
    its royal piece (``end``, or no matching rule, leaves none).
    """
    g: NativeGame = pos.game
    guard = Guard(pos) if g.shares_royal_answers else None
    if g.has_immediate_ends and immediate_end(pos):
        return []
    moves = rule_abiding_moves(pos, guard)
    if g.may_pass and (g.pass_condition is None or g.pass_condition(EndContext(pos, None))):
        moves.append((-1, -1, 0, PASS))
    if not moves and g.no_moves:
        return forced_moves(pos)
    return moves


def insufficient_material(position: "Position") -> bool:
    """Does the material of a two-army game match one of the 'insufficient' signatures?"""
    g = position.game
    if len(g.armies) != 2 or not g.insufficient_rules:
        return False
    board, code_kind, named = position.board, g.code_kind, g.material_kinds
    for cells in position.cells_of:
        for cell in cells:
            if not named[code_kind[board[cell]]]:
                return False  # a piece that no signature allows (a pawn, in chess)
    counts: list[dict[int, int]] = [{}, {}]
    # Locked pieces (under another, in stacking games) are material too.
    for code in [*position.board, *(code for _, code in locked_pieces(position))]:
        if code:
            side = counts[g.code_army[code]]
            kind = g.code_kind[code]
            side[kind] = side.get(kind, 0) + 1
    ctx = EndContext(position)
    for first, second, condition in g.insufficient_rules:
        if ((first.matches(counts[0]) and second.matches(counts[1]))
                or (first.matches(counts[1]) and second.matches(counts[0]))):
            if condition is None or condition(ctx):
                return True
    return False


def immediate_end(position: "Position") -> bool:
    """Does an immediate end rule hold (so that the side to move has no legal move)?"""
    ctx = EndContext(position, [])
    for condition in position.game.immediate_ends:
        if condition(ctx):
            return True
    return False


# What a search that has not generated the legal moves yet knows of them: that there is one. Only
# the length of this list is read (see outcome_with_moves).
SOME_MOVE: list = [None]


class MovesNeeded(Exception):
    """An end rule asked :func:`outcome_with_moves` for the legal moves themselves (``only move by
    royal``, ``mate follows``): the caller must generate them and ask :func:`outcome`."""


def outcome_with_moves(position: "Position") -> Outcome | None:
    """The outcome of ``position`` if the side to move has a legal move: the end rules that need
    none (a mate, a stalemate: ``Game.ends_with_moves`` leaves them out) are not asked, and the
    others read ``legal_moves`` as 1. For searches that try the moves one at a time; exact when no
    rule counts the moves beyond whether there is one (not ``Game.ends_count_moves``). Raises
    :class:`MovesNeeded` when a rule reads the moves themselves (the rules are asked in order, each
    as far as it needs: a rule that holds only with the royal piece on a stack reads them only
    then). When it finds an end, the caller that does not know yet whether a move exists asks
    :func:`outcome` with the legal moves (an earlier rule may need none)."""
    return _first_end(position, position.game.ends_with_moves, SOME_MOVE)


def outcome(position: "Position", legal: list | None = None) -> Outcome | None:
    """The outcome if the game is over in ``position``, else None."""
    return _first_end(position, position.game.end_rules, legal)


def _first_end(position: "Position", rules: list, legal: list | None) -> Outcome | None:
    """The outcome by the first of ``rules`` that holds (None when none does and there is a legal
    move; a draw when there is none)."""
    g = position.game
    ctx = EndContext(position, legal)
    army = position.army
    # Immediate ends first (the order of g.end_rules): once one holds there are no
    # legal moves, which must not be read as a mate or a stalemate.
    for rule, condition, _ in rules:
        if condition(ctx):
            result = rule.result
            if result == "draw":
                winners: tuple[int, ...] = ()
            elif result == "win":
                winners = (army, *g.partners[army])
            elif result == "loss":
                winners = tuple(g.enemies[army])
            else:   # 'score' or 'material': the highest totals win ('score': in the game or out)
                totals = position.scores if result == "score" else material(position)
                best = max(totals)
                winners = tuple(a for a, s in enumerate(totals) if s == best)
                result = "draw" if len(winners) == len(g.armies) else "win" if army in winners else "loss"
                winners = () if result == "draw" else winners
            return Outcome(rule.name, rule.title or rule.name.replace("_", " "), result, army, winners,
                           position.scores if g.scoring else ())
    if ctx.legal_moves == 0:  # no rule decides a position without moves: a draw
        return Outcome("no_moves", "no legal move", "draw", army, (), position.scores if g.scoring else ())
    return None


def forced_moves(position: "Position") -> list:
    """The forced move of an army with no legal move, by the first ``when no moves`` rule that applies
    (``rescue`` applies only when it finds moves)."""
    ctx = EndContext(position, [])
    for action, condition in position.game.no_moves:
        if condition is None or condition(ctx):
            if action == "rescue":
                rescues = rescue_moves(position)
                if rescues:
                    return rescues
                continue
            if action == "pass":
                return [(-1, -1, 0, PASS)]
            if action == "eliminate":
                return [(-1, -1, 0, OUT)]
            if action == "remove-royal":
                # Every attacked royal piece of the armies to move (in a shared turn, both kings of
                # a team when neither can be saved), or else one of them.
                movers = position.movers
                cells = [c for a in movers if royal_attacked(position, a) for c in royal_cells(position, a)]
                cells = cells or [c for a in movers for c in royal_cells(position, a)][:1]
                return [_removing(cells)] if cells else []
            return []
    return []


def resignation(position: "Position") -> Move | None:
    """The move a resignation of the armies to move plays, or None when resigning ends the game.

    ``when resigning: eliminate`` with another army still in play: ``(-1, -1, 0, RESIGNED)``, the
    armies stay on the board as inert pieces and nobody scores for them. ``when resigning:
    remove-royal`` while the armies to move still have royal pieces: those pieces leave the board
    as a ``remove`` move, and the armies play on. Otherwise (and by default) the side that
    resigns loses, and there is no move to play.
    """
    game = position.game
    if game.resign_eliminates and len(armies_left(position)) > 1:
        return (-1, -1, 0, RESIGNED)
    if game.resign_removes_royal:
        cells = [c for a in position.movers for c in royal_cells(position, a)]
        if cells:
            return _removing(cells)
    return None


def _removing(cells: list[int]) -> Move:
    """The move that takes the royal pieces on ``cells`` (at least one) off the board."""
    return (cells[0], cells[0], 0, (REMOVE[0], *cells[1:]))


def resignation_outcome(position: "Position", army: int | None = None) -> Outcome:
    """The end of the game when the armies to move (or ``army``, which need not be to move: a player
    may resign at any time on the server) resign and :func:`resignation` has no move for it: they
    lose, and every army hostile to the resigning one wins (its partners lose with it)."""
    return _lost(position, "resignation", "resignation", army)


AGREEMENT = "draw-agreement"
"""The ``rule`` of a game its players agreed to draw (:func:`agreement_outcome`); no end rule can have this name."""


def agreement_outcome(position: "Position") -> Outcome:
    """The end of a game whose players agreed to a draw: ``draw by agreement``."""
    g = position.game
    return Outcome(AGREEMENT, "agreement", "draw", position.army, (), position.scores if g.scoring else ())


def forfeit_outcome(position: "Position", reason: str) -> Outcome:
    """The end of a game whose player to move forfeits it (an engine that answered an illegal move, or
    none, or exited): the armies to move lose and every army hostile to the one to move wins, as in
    :func:`resignation_outcome`; ``reason`` says why, in the outcome's title."""
    return _lost(position, FORFEIT, f"forfeit: {reason}")


def time_forfeit_outcome(position: "Position", reason: str) -> Outcome:
    """The end of a game whose player to move has overstepped its game clock (a front end's
    ``--clock``, see :mod:`interpreter.agents.clock`): the armies to move lose on time and every army
    hostile to the one to move wins, as in :func:`forfeit_outcome`; ``reason`` (how long the move took
    and what was left) goes into the outcome's title."""
    return _lost(position, TIME_FORFEIT, f"time forfeit: {reason}")


def _lost(position: "Position", rule: str, title: str, army: int | None = None) -> Outcome:
    """The armies to move (or ``army``) lose by ``rule`` (titled ``title``): every army hostile to the
    losing one wins."""
    g = position.game
    army = position.army if army is None else army
    return Outcome(rule, title, "loss", army, tuple(g.enemies[army]), position.scores if g.scoring else ())


FORFEIT = "player-forfeit"
"""The ``rule`` of a forfeited game (:func:`forfeit_outcome`); no end rule can have this name."""

TIME_FORFEIT = "time-forfeit"
"""The ``rule`` of a game lost on time (:func:`time_forfeit_outcome`); no end rule can have this name."""

PLY_CAP = "max-plies"
"""The ``rule`` of a game stopped at its ply cap; no end rule can have this name (it is no identifier)."""


def ply_cap(position: "Position", plies: int) -> Outcome:
    """The end of a game that a front end stopped when ``plies`` plies, its ply cap (``--max-plies``, by
    default :data:`dsl.limits.DEFAULT_MAX_PLIES`), were played and no end rule had ended it: a draw by
    adjudication (``1/2-1/2`` in a record), not by a rule of the game; its ``rule`` is :data:`PLY_CAP`."""
    g = position.game
    return Outcome(PLY_CAP, f"adjudication at the cap of {plies:,} {'ply' if plies == 1 else 'plies'}", "draw", position.army, (),
                   position.scores if g.scoring else ())
