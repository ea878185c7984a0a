"""End rules, compiled: the vocabulary of conditions, their checks, and material signatures.

The conditions of ``end``, ``insufficient`` and ``when no moves`` rules are
expressions over a small documented vocabulary (:data:`END_NAMES`,
:data:`END_CALLS`). Here they are checked (every call takes a declared zone
or piece, types do not mix) and compiled into functions of an evaluation
context; :class:`interpreter.engine.outcome.EndContext` is that context, and
:func:`interpreter.engine.outcome.outcome` applies the rules in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, unknown_name

from .expressions import COMPARE, compile_expr

if TYPE_CHECKING:
    from .game import Game

END_NAMES = {
    "in_check": "a royal piece of the side to move is attacked",
    "legal_moves": "the number of legal moves of the side to move",
    "repetitions": "how many times the current position has occurred (this time included)",
    "clock": "the halfmove clock: plies since the last capture or clock-resetting move",
    "insufficient_material": "the material matches an 'insufficient' signature",
    "fullmove": "the move number",
    "sides": "the number of sides taking turns: the turns of a round of the turn order being played",
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
    "armies_left": "the number of armies still in the game (not put out by 'eliminate')",
    "score": "the score of the side to move (see 'points')",
    "passes": "how many passes in a row led to this position (the last move a pass: 1 or more)",
    "checked_throughout": "the side to move has been in check at each of its turns since the first time "
                          "the current position occurred (so the enemy gave check with every move)",
    "checking_throughout": "each move of the side to move since the first time the current position occurred "
                           "gave check",
    "lead": "how many points the best score among the armies still in the game is ahead of every other "
            "army's score, out of the game or not (0 or less when it does not lead alone)",
}
END_CALLS = {
    "same_colour": "same_colour(Piece): all pieces of that kind stand on cells of one colour",
    "royal_in": "royal_in(Zone): a royal piece of the side to move stands in the zone",
    "enemy_royal_in": "enemy_royal_in(Zone): a royal piece of an enemy army stands in the zone (its own cells of it)",
    "royal_can_enter": "royal_can_enter(Zone): a royal piece of the side to move has a legal move into the zone",
    "count": "count(Piece): the number of pieces of that kind the side to move has, on the board and in hand",
    "enemy_count": "enemy_count(Piece): the number of pieces of that kind the enemy armies have, on the board and in hand",
    "pieces_in": "pieces_in(Zone, Piece, ...): the number of pieces of the side to move (of those kinds; of any kind "
                 "without one) that stand in the zone (its own cells of it)",
    "enemy_pieces_in": "enemy_pieces_in(Zone, Piece, ...): the same, of the pieces of all enemy armies (each "
                       "army's own cells of the zone)",
    "safe_pieces_in": "safe_pieces_in(Zone, Piece, ...): as pieces_in, counting only the pieces no enemy piece "
                      "attacks",
    "enemy_safe_pieces_in": "enemy_safe_pieces_in(Zone, Piece, ...): as enemy_pieces_in, counting only the pieces "
                            "that no piece of an enemy of their army attacks",
    "royals_facing": "royals_facing(Family): a royal piece of the side to move and an enemy royal piece stand on one "
                     "line of the direction family with only empty cells between",
}
# Calls whose value is a number (the others are true or false).
NUMBER_CALLS = {"count", "enemy_count", "pieces_in", "enemy_pieces_in", "safe_pieces_in", "enemy_safe_pieces_in"}

# Names whose value depends on the moves available or on the game's history:
# end rules that use none of them end the game at once, whatever the side to
# move could do ("immediate" ends: a king on the hill, no pieces left ...),
# and a position where one holds has no legal moves. ``passes`` reads the last
# moves, yet a rule over it is immediate: two passes end the game at once.
DEFERRED_NAMES = {"in_check", "legal_moves", "repetitions", "clock", "insufficient_material", "fullmove",
                  "checked_by_royal", "only_move_by_royal", "mate_follows", "stalemated", "partners_stalemated",
                  "checked_throughout", "checking_throughout"}


def _symbols(game: "Game") -> dict[str, object]:
    """Names usable as call arguments: piece kinds (as kind indices), zones and direction families
    (as names)."""
    symbols: dict[str, object] = {name: name for name in (*game.board.families, *game.board.steps,
                                                          *game.board.zones)}
    symbols.update(game.kind_index)
    return symbols


def names_used(expr) -> set[str]:
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


# The names whose values grow in a game that goes on forever: an end rule over one of them can stop it.
BOUNDING_NAMES = ("repetitions", "clock", "fullmove")


def can_go_on_forever(ends: list[S.EndRule]) -> bool:
    """Whether no end rule looks at repetitions, the clock or the move number, so that nothing
    stops a game in which no one wins (pieces shuffled to and fro for ever)."""
    return not any(names_used(rule.condition) & set(BOUNDING_NAMES) for rule in ends)


# The type of every name and call of end conditions, for the checks below.
NAME_TYPES = {"in_check": bool, "legal_moves": int, "repetitions": int, "clock": int,
              "insufficient_material": bool, "fullmove": int, "sides": int, "royals": int, "enemy_royals": int,
              "pieces": int, "enemy_pieces": int, "team_pieces": int, "team_royals": int, "army": str,
              "mode": str, "royal_level": str, "royal_above": str,
              "checked_by_royal": bool, "only_move_by_royal": bool, "mate_follows": bool,
              "stalemated": bool, "partners_stalemated": bool,
              "checks": int, "enemy_checks": int, "armies_left": int, "score": int, "lead": int,
              "passes": int, "checked_throughout": bool, "checking_throughout": bool}


def type_of(expr) -> type | None:
    """The type of an end condition (bool, int or str), or a RulesSemanticError where it mixes them."""
    if isinstance(expr, S.Num):
        return int
    if isinstance(expr, S.Str):
        return str
    if isinstance(expr, S.Ref):
        return NAME_TYPES.get(".".join(expr.path))
    if isinstance(expr, S.Call):
        return int if expr.name in NUMBER_CALLS else bool
    if isinstance(expr, (S.Not, S.BoolOp)):
        for child in ([expr.operand] if isinstance(expr, S.Not) else expr.operands):
            type_of(child)
        return bool
    if isinstance(expr, (S.Arith, S.Neg)):
        for child in ([expr.operand] if isinstance(expr, S.Neg) else [expr.left, expr.right]):
            if type_of(child) not in (int, None):
                raise RulesSemanticError("arithmetic needs numbers", child.loc, expected="a number or a count")
        return int
    if isinstance(expr, S.Compare):
        left, right = type_of(expr.left), type_of(expr.right)
        ordered = expr.op not in ("==", "!=")
        if left and right and (left != right or (ordered and left is not int)):
            raise RulesSemanticError(f"cannot compare {left.__name__} with {right.__name__} using '{expr.op}'",
                                     expr.loc, expected="two numbers, or two names with == or !=")
        return bool
    return None


# What each function of END_CALLS takes: one zone, one piece kind, one direction, or a zone and any number of
# piece kinds ("zone, pieces").
CALL_ARGUMENTS = {"same_colour": "piece", "royal_in": "zone", "enemy_royal_in": "zone", "royal_can_enter": "zone",
                  "count": "piece", "enemy_count": "piece", "pieces_in": "zone, pieces",
                  "enemy_pieces_in": "zone, pieces", "safe_pieces_in": "zone, pieces",
                  "enemy_safe_pieces_in": "zone, pieces", "royals_facing": "direction"}


def check_calls(game: "Game", expr) -> None:
    """Every call gets the arguments it takes: one zone name, one piece name, one direction (a family
    or one label), or (``zone, pieces``) a zone name and then any number of distinct piece names."""
    if isinstance(expr, S.Call) and expr.name in CALL_ARGUMENTS:
        takes = CALL_ARGUMENTS[expr.name]
        several = "," in takes
        kinds = ["zone"] + ["piece"] * (len(expr.args) - 1) if several else [takes]
        what = "a zone name, then piece names" if several else f"one {takes} name"
        usage = (f"{expr.name}(ZONE, PIECE, ...) with a declared zone and declared pieces" if several
                 else f"{expr.name}(NAME) with the name of a declared {takes}")
        if not expr.args or len(expr.args) != len(kinds):
            raise RulesSemanticError(f"{expr.name}() takes {what}", expr.loc, expected=usage)
        for kind, arg in zip(kinds, expr.args):
            names = (game.board.zones if kind == "zone" else game.kind_index if kind == "piece"
                     else [*game.board.families, *game.board.steps])
            if not isinstance(arg, S.Ref):
                raise RulesSemanticError(f"{expr.name}() takes {what}", expr.loc, expected=usage)
            if ".".join(arg.path) not in names:
                raise unknown_name(kind, ".".join(arg.path), names, arg.loc)
        pieces = [".".join(arg.path) for arg in expr.args[1:]]
        if len(set(pieces)) != len(pieces):
            raise RulesSemanticError(f"{expr.name}() names a piece twice", expr.loc, expected=usage)
    for value in expr.__dict__.values():
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, S.Node):
                check_calls(game, child)


def compile_condition(game: "Game", expr):
    """A checked and compiled condition of end rules, ``insufficient`` and ``when no moves``
    (None for no condition): calls take a declared zone or piece, types do not mix."""
    if expr is None:
        return None
    check_calls(game, expr)
    type_of(expr)
    return compile_expr(expr, END_NAMES, END_CALLS, _symbols(game))


def is_immediate(rule: S.EndRule) -> bool:
    """Does the rule use none of :data:`DEFERRED_NAMES` (so it is tried before the others)?"""
    return not (names_used(rule.condition) & DEFERRED_NAMES)


def trial_order(ends: list[S.EndRule]) -> list[S.EndRule]:
    """The end rules in the order a position is checked against them: the immediate ones first, each
    group in declaration order (see :func:`interpreter.engine.outcome.outcome`)."""
    return sorted(ends, key=lambda rule: not is_immediate(rule))


def compile_end_rules(game: "Game", ends: list[S.EndRule]):
    """Compiled (rule, condition, immediate) triples in the order they are tried: the immediate
    rules first, then the others, each group in declaration order.

    ``immediate`` is true for a rule that uses none of :data:`DEFERRED_NAMES`.
    """
    compiled = [(rule, compile_condition(game, rule.condition), is_immediate(rule)) for rule in ends]
    return [entry for entry in compiled if entry[2]] + [entry for entry in compiled if not entry[2]]


def _moves_test(node) -> bool | None:
    """For a comparison of ``legal_moves`` with a number whose answer is the same for every number
    of moves from one up, that answer: False for ``legal_moves == 0`` or ``legal_moves < 1``
    (either way round), True for ``legal_moves > 0``, ``legal_moves != 0`` or ``1 <= legal_moves``.
    None for any other node (``legal_moves >= 2`` counts the moves). Such a test asks only whether
    a move exists."""
    if not isinstance(node, S.Compare):
        return None
    left, right = node.left, node.right
    if isinstance(left, S.Ref) and left.path == ["legal_moves"] and isinstance(right, S.Num):
        number, count_first = right.value, True
    elif isinstance(right, S.Ref) and right.path == ["legal_moves"] and isinstance(left, S.Num):
        number, count_first = left.value, False
    else:
        return None
    compare = COMPARE[node.op]
    # A comparison of whole numbers changes its answer only next to the number compared with.
    counts = {1, number, number + 1, 1 << 40}
    answers = {compare(c, number) if count_first else compare(number, c) for c in counts if c >= 1}
    return answers.pop() if len(answers) == 1 else None


def needs_no_moves(condition) -> bool:
    """Can ``condition`` hold only where the side to move has no move the rules allow: it is
    ``legal_moves == 0`` (or another test false whenever a move exists, see :func:`_moves_test`) or
    ``stalemated``, or an ``and`` of which one operand needs no moves. (A search that has found a
    legal move skips such rules: a mate, a stalemate.)"""
    if _moves_test(condition) is False or (isinstance(condition, S.Ref) and condition.path == ["stalemated"]):
        return True
    return (isinstance(condition, S.BoolOp) and condition.op == "and"
            and any(needs_no_moves(operand) for operand in condition.operands))


def is_check(condition) -> bool:
    """Is ``condition`` the clause ``in_check`` (the side to move is in check)?"""
    return isinstance(condition, S.Ref) and condition.path == ["in_check"]


def is_mate(condition) -> bool:
    """Does ``condition`` hold only where the side to move is in check and has no move the rules
    allow (a mate): an ``and`` with ``in_check`` (:func:`is_check`) among its operands and an
    operand that needs no moves (:func:`needs_no_moves`), as chess's ``in_check and legal_moves == 0``?"""
    return (isinstance(condition, S.BoolOp) and condition.op == "and"
            and any(is_check(o) for o in condition.operands)
            and any(needs_no_moves(o) for o in condition.operands))


def counts_moves(condition) -> bool:
    """Does ``condition`` read the number of legal moves beyond whether there is one
    (``legal_moves`` other than in a test of whether a move exists, :func:`_moves_test`:
    ``legal_moves == 0``, ``legal_moves > 0`` ...)? Where no end rule does, a search may learn
    whether moves exist by trying them one at a time (the names that read the moves themselves,
    ``only_move_by_royal`` and ``mate_follows``, ask for them when they are read: see
    :func:`~interpreter.engine.outcome.outcome_with_moves`)."""
    if _moves_test(condition) is not None:
        return False
    if isinstance(condition, S.Ref):
        return condition.path == ["legal_moves"]
    return any(counts_moves(child) for value in condition.__dict__.values()
               for child in (value if isinstance(value, list) else [value]) if isinstance(child, S.Node))


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


def material_kinds(game: "Game", rules) -> list[bool]:
    """Per piece kind: does a signature of the compiled ``insufficient`` rules name it? (While a
    kind no signature names is on the board, no signature matches.)"""
    named = {kind for first, second, _ in rules for sig in (first, second) for kind in (*sig.exact, *sig.starred)}
    return [kind.index in named for kind in game.kinds]


def compile_no_moves(game: "Game", rules: list[S.NoMovesRule]):
    """Compiled ``when no moves`` rules: (action, condition or None) in order."""
    return [(rule.action, compile_condition(game, rule.condition)) for rule in rules]
