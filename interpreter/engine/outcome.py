"""How a game ends: the end rules of the variant, evaluated at the start of a turn.

End rules are checked in the order they are declared, immediate ones (see
:data:`DEFERRED_NAMES`) first; the first whose condition holds ends the game. Results are from the point of view of the
side to move: ``loss`` means the side to move has lost (and every enemy
army has won), ``win`` that it has won, ``draw`` a draw.

The names a condition may use are the documented vocabulary below; each
is computed only when a condition asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, unknown_name

from interpreter.compiler.expressions import compile_expr

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from .position import Position

END_NAMES = {
    "in_check": "a royal piece of the side to move is attacked",
    "legal_moves": "the number of legal moves of the side to move",
    "repetitions": "how many times the current position has occurred (this time included)",
    "clock": "the halfmove clock: plies since the last capture or clock-resetting move",
    "insufficient_material": "the material matches an 'insufficient' signature",
    "fullmove": "the move number",
    "royals": "the number of royal pieces of the side to move",
    "enemy_royals": "the number of royal pieces of all enemy armies",
    "pieces": "the number of pieces of the side to move",
    "team_pieces": "the number of pieces of the side to move and its partners",
    "team_royals": "the number of royal pieces of the side to move and its partners",
    "enemy_pieces": "the number of pieces of all enemy armies",
    "army": "the name of the army to move",
    "mode": "the name of the play mode (see 'mode' in the armies block; empty without modes)",
    "royal_level": "where the side to move's royal piece stands: \"ground\" (alone), \"upper\" (on top of a "
                   "stack) or \"under\" (locked below another piece)",
    "royal_above": "the side of the piece on top of the side to move's royal piece: \"own\", \"enemy\" or \"none\"",
    "checked_by_royal": "a royal piece is among the enemy pieces attacking the side to move's royal piece",
    "only_move_by_royal": "the side to move has exactly one legal move, and it moves a royal piece",
    "mate_follows": "after the side to move's only legal move, the opponent can checkmate at once",
    "stalemated": "the side to move has no move the rules allow (before 'when no moves') and is not in check",
    "partners_stalemated": "every partner army outside this turn would be stalemated were it to move now",
    "checks": "how many checks the side to move has given (with 'count checks')",
    "enemy_checks": "the most checks any enemy army has given (with 'count checks')",
}
END_CALLS = {
    "same_colour": "same_colour(Piece): all pieces of that kind stand on cells of one colour",
    "royal_in": "royal_in(Zone): a royal piece of the side to move stands in the zone",
    "enemy_royal_in": "enemy_royal_in(Zone): a royal piece of an enemy army stands in the zone (its own cells of it)",
    "royal_can_enter": "royal_can_enter(Zone): a royal piece of the side to move has a legal move into the zone",
}

# Names whose value depends on the moves available or on the game's history:
# end rules that use none of them end the game at once, whatever the side to
# move could do ("immediate" ends: a king on the hill, no pieces left ...),
# and a position where one holds has no legal moves.
DEFERRED_NAMES = {"in_check", "legal_moves", "repetitions", "clock", "insufficient_material", "fullmove",
                  "checked_by_royal", "only_move_by_royal", "mate_follows", "stalemated", "partners_stalemated"}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the rule that ended it and the result for ``army`` (the side to move)."""

    rule: str
    title: str
    result: str
    army: int
    winners: tuple[int, ...]

    def describe(self, game: "Game") -> str:
        names = [game.armies[a].title for a in self.winners]
        if not names:
            return f"draw by {self.title}"
        return f"{' and '.join(names)} win{'s' if len(names) == 1 else ''} by {self.title}"


class EndContext:
    """Lazily computed facts about a position, named as in :data:`END_NAMES`."""

    def __init__(self, position: "Position", legal: list | None = None) -> None:
        self.position = position
        self._legal = legal

    @property
    def in_check(self) -> bool:
        return self.position.in_check()

    @property
    def legal_moves(self) -> int:
        if self._legal is None:
            self._legal = self.position.legal_moves()
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
    def insufficient_material(self) -> bool:
        return insufficient_material(self.position)

    @property
    def royals(self) -> int:
        return len(self.position.royal_cells(self.position.army))

    @property
    def enemy_royals(self) -> int:
        pos = self.position
        return sum(len(pos.royal_cells(e)) for e in pos.game.enemies[pos.army])

    @property
    def pieces(self) -> int:
        return len(self.position.cells_of[self.position.army])

    def _team(self) -> list[int]:
        pos = self.position
        return [pos.army, *pos.game.partners[pos.army]]

    @property
    def team_pieces(self) -> int:
        return sum(len(self.position.cells_of[a]) for a in self._team())

    @property
    def team_royals(self) -> int:
        return sum(len(self.position.royal_cells(a)) for a in self._team())

    @property
    def enemy_pieces(self) -> int:
        pos = self.position
        return sum(len(pos.cells_of[e]) for e in pos.game.enemies[pos.army])

    def _royal(self) -> int:
        cells = self.position.royal_cells(self.position.army)
        return cells[0] if cells else -1

    @property
    def royal_level(self) -> str:
        pos, cell = self.position, self._royal()
        if cell < 0:
            return "none"
        if pos.under[cell] and pos.game.is_royal[pos.under[cell]] and pos.game.code_army[pos.under[cell]] == pos.army:
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
        return any(pos.game.is_royal[pos.board[c]] for c in pos.checkers())

    @property
    def only_move_by_royal(self) -> bool:
        pos = self.position
        if self._legal is None:
            self._legal = pos.legal_moves()
        if len(self._legal) != 1 or self._legal[0][0] < 0:
            return False
        return pos.game.is_royal[pos.board[self._legal[0][0]]]

    @property
    def mate_follows(self) -> bool:
        pos = self.position
        if self._legal is None:
            self._legal = pos.legal_moves()
        if len(self._legal) != 1:
            return False
        pos.push(self._legal[0])
        try:
            return any(pos._mates_after(m) for m in pos.legal_moves())
        finally:
            pos.pop()

    @property
    def stalemated(self) -> bool:
        pos = self.position
        return not pos.in_check() and not pos.rule_abiding_moves()

    @property
    def partners_stalemated(self) -> bool:
        pos = self.position
        g = pos.game
        partners = [p for a in pos.movers for p in g.partners[a] if p not in pos.movers]
        if not partners:
            return False
        for partner in partners:
            turn = next((i for i, armies in enumerate(g.turn_armies) if partner in armies), None)
            if turn is None:
                return False
            other = pos.copy()
            other.turn, other.ep_cells = turn, ()  # the partner to move, with no en passant right
            if other.in_check() or other.rule_abiding_moves():
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
    def army(self) -> str:
        pos = self.position
        return pos.game.armies[pos.army].name

    @property
    def mode(self) -> str:
        return self.position.game.mode or ""

    def royal_in(self, zone: str) -> bool:
        return self._royal_in(self.position.army, zone)

    def enemy_royal_in(self, zone: str) -> bool:
        pos = self.position
        return any(self._royal_in(e, zone) for e in pos.game.enemies[pos.army])

    def royal_can_enter(self, zone: str) -> bool:
        pos = self.position
        cells = self._zone_cells(pos.army, zone)
        is_royal, board = pos.game.is_royal, pos.board
        return any(m[1] in cells and is_royal[board[m[0]]] for m in pos.rule_abiding_moves())

    def _zone_cells(self, army: int, zone: str):
        table = self.position.game.board.zones[zone]
        return table[None] if None in table else table[self.position.game.armies[army].name]

    def _royal_in(self, army: int, zone: str) -> bool:
        cells = self._zone_cells(army, zone)
        return any(c in cells for c in self.position.royal_cells(army))

    def same_colour(self, kind: int) -> bool:
        pos = self.position
        g = pos.game
        cells = [(c, code) for c, code in enumerate(pos.board)] + [(c, pos.under[c]) for c in pos.stacked]
        colours = {g.board.attributes[c]["colour"] for c, code in cells if code and g.code_kind[code] == kind}
        return len(colours) <= 1


def _symbols(game: "Game") -> dict[str, object]:
    """Names usable as call arguments: piece kinds (as kind indices) and zones (as names)."""
    symbols: dict[str, object] = {name: name for name in game.board.zones}
    symbols.update(game.kind_index)
    return symbols


def _names_used(expr) -> set[str]:
    """Every bare name and function name in an expression tree."""
    found: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, S.Ref):
            found.add(".".join(node.path))
        elif isinstance(node, S.Call):
            found.add(node.name)
        for value in node.__dict__.values():
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, S.Node):
                    walk(child)
    walk(expr)
    return found


# The type of every name and call of end conditions, for the checks below.
NAME_TYPES = {"in_check": bool, "legal_moves": int, "repetitions": int, "clock": int,
              "insufficient_material": bool, "fullmove": int, "royals": int, "enemy_royals": int,
              "pieces": int, "enemy_pieces": int, "team_pieces": int, "team_royals": int, "army": str,
              "mode": str, "royal_level": str, "royal_above": str,
              "checked_by_royal": bool, "only_move_by_royal": bool, "mate_follows": bool,
              "stalemated": bool, "partners_stalemated": bool,
              "checks": int, "enemy_checks": int}


def _type_of(expr) -> type | None:
    """The type of an end condition (bool, int or str), or a RulesSemanticError where it mixes them."""
    if isinstance(expr, S.Num):
        return int
    if isinstance(expr, S.Str):
        return str
    if isinstance(expr, S.Ref):
        return NAME_TYPES.get(".".join(expr.path))
    if isinstance(expr, S.Call):
        return bool
    if isinstance(expr, (S.Not, S.BoolOp)):
        for child in ([expr.operand] if isinstance(expr, S.Not) else expr.operands):
            _type_of(child)
        return bool
    if isinstance(expr, (S.Arith, S.Neg)):
        for child in ([expr.operand] if isinstance(expr, S.Neg) else [expr.left, expr.right]):
            if _type_of(child) not in (int, None):
                raise RulesSemanticError("arithmetic needs numbers", child.loc, expected="a number or a count")
        return int
    if isinstance(expr, S.Compare):
        left, right = _type_of(expr.left), _type_of(expr.right)
        ordered = expr.op not in ("==", "!=")
        if left and right and (left != right or (ordered and left is not int)):
            raise RulesSemanticError(f"cannot compare {left.__name__} with {right.__name__} using '{expr.op}'",
                                     expr.loc, expected="two numbers, or two names with == or !=")
        return bool
    return None


# What each function of END_CALLS takes: one zone, or one piece kind.
CALL_ARGUMENTS = {"same_colour": "piece", "royal_in": "zone", "enemy_royal_in": "zone", "royal_can_enter": "zone"}


def _check_calls(game: "Game", expr) -> None:
    """Every call gets one argument of the right kind: a zone name or a piece name."""
    if isinstance(expr, S.Call) and expr.name in CALL_ARGUMENTS:
        kind = CALL_ARGUMENTS[expr.name]
        names = game.board.zones if kind == "zone" else game.kind_index
        arg = expr.args[0] if len(expr.args) == 1 else None
        if not isinstance(arg, S.Ref) or ".".join(arg.path) not in names:
            if isinstance(arg, S.Ref):
                raise unknown_name(kind, ".".join(arg.path), names, arg.loc)
            raise RulesSemanticError(f"{expr.name}() takes one {kind} name", expr.loc,
                                     expected=f"{expr.name}(NAME) with the name of a declared {kind}")
    for value in expr.__dict__.values():
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, S.Node):
                _check_calls(game, child)


def compile_condition(game: "Game", expr):
    """A checked and compiled condition of end rules, ``insufficient`` and ``when no moves``
    (None for no condition): calls take a declared zone or piece, types do not mix."""
    if expr is None:
        return None
    _check_calls(game, expr)
    _type_of(expr)
    return compile_expr(expr, END_NAMES, END_CALLS, _symbols(game))


def compile_end_rules(game: "Game", ends: list[S.EndRule]):
    """Compiled (rule, condition, immediate) triples in declaration order.

    ``immediate`` is true for a rule that uses none of :data:`DEFERRED_NAMES`.
    """
    return [(rule, compile_condition(game, rule.condition), not (_names_used(rule.condition) & DEFERRED_NAMES))
            for rule in ends]


@dataclass(frozen=True)
class _Signature:
    exact: dict[int, int]
    starred: frozenset[int]

    def matches(self, counts: dict[int, int]) -> bool:
        for kind, count in counts.items():
            need = self.exact.get(kind, 0)
            if count < need or (count > need and kind not in self.starred):
                return False
        return all(counts.get(kind, 0) >= need for kind, need in self.exact.items())


def _signature(game: "Game", text: str, rule: S.InsufficientRule) -> _Signature:
    letters = {k.letter: k.index for k in game.kinds}
    exact: dict[int, int] = {}
    starred: set[int] = set()
    i = 0
    while i < len(text):
        letter = text[i]
        if letter not in letters:
            raise RulesSemanticError(f"unknown piece letter '{letter}' in material signature {text!r}", rule.loc,
                                     expected=f"piece letters ({', '.join(sorted(letters))}), each optionally followed by *")
        if i + 1 < len(text) and text[i + 1] == "*":
            starred.add(letters[letter])
            i += 2
        else:
            exact[letters[letter]] = exact.get(letters[letter], 0) + 1
            i += 1
    return _Signature(exact, frozenset(starred))


def compile_insufficient(game: "Game", rules: list[S.InsufficientRule]):
    """Compiled (first signature, second signature, condition or None) triples."""
    return [(_signature(game, rule.first, rule), _signature(game, rule.second, rule),
             compile_condition(game, rule.condition)) for rule in rules]


def insufficient_material(position: "Position") -> bool:
    """Does the material of a two-army game match one of the 'insufficient' signatures?"""
    g = position.game
    if len(g.armies) != 2 or not g.insufficient_rules:
        return False
    counts: list[dict[int, int]] = [{}, {}]
    # Locked pieces (under another, in stacking games) are material too.
    for code in [*position.board, *(position.under[c] for c in position.stacked)]:
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
    return any(condition(ctx) for _, condition, immediate in position.game.end_rules if immediate)


def outcome(position: "Position", legal: list | None = None) -> Outcome | None:
    """The outcome if the game is over in ``position``, else None."""
    g = position.game
    ctx = EndContext(position, legal)
    army = position.army
    # Immediate ends first: once one holds there are no legal moves, which
    # must not be read as a mate or a stalemate.
    ordered = sorted(g.end_rules, key=lambda entry: not entry[2])
    for rule, condition, _ in ordered:
        if condition(ctx):
            if rule.result == "draw":
                winners: tuple[int, ...] = ()
            elif rule.result == "win":
                winners = (army, *g.partners[army])
            else:
                winners = tuple(g.enemies[army])
            return Outcome(rule.name, rule.title or rule.name.replace("_", " "), rule.result, army, winners)
    if ctx.legal_moves == 0:  # no rule decides a position without moves: a draw
        return Outcome("no_moves", "no legal move", "draw", army, ())
    return None


def compile_no_moves(game: "Game", rules: list[S.NoMovesRule]):
    """Compiled ``when no moves`` rules: (action, condition or None) in order."""
    return [(rule.action, compile_condition(game, rule.condition)) for rule in rules]


def forced_moves(position: "Position") -> list:
    """The forced move of an army with no legal move, by the first ``when no moves`` rule that applies
    (``rescue`` applies only when it finds moves)."""
    from .position import PASS, REMOVE
    ctx = EndContext(position, [])
    for action, condition in position.game.no_moves:
        if condition is None or condition(ctx):
            if action == "rescue":
                rescues = position.rescue_moves()
                if rescues:
                    return rescues
                continue
            if action == "pass":
                return [(-1, -1, 0, PASS)]
            if action == "remove-royal":
                # Every attacked royal piece of the armies to move (in a shared turn, both kings of
                # a team when neither can be saved), or else one of them.
                movers = position.movers
                cells = [c for a in movers if position.royal_attacked(a) for c in position.royal_cells(a)]
                cells = cells or [c for a in movers for c in position.royal_cells(a)][:1]
                return [(cells[0], cells[0], 0, (REMOVE[0], *cells[1:]))] if cells else []
            return []
    return []
