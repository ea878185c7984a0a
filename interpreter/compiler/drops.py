"""The ``drops`` block, compiled: hands, where each kind may be dropped, and drop conditions.

A drop rule gives, per army, the cells a piece of its kind may be dropped
on (every cell minus its ``not in`` terms) and its other restrictions
(``not on file with own``, ``at most``, ``not giving mate``, ``if``). An ``if`` condition
that names only the destination cell's properties (``to.rank``,
``to.type`` ...) and the dropping ``army`` is evaluated here, for every
cell, and narrows the cells; one that names the position (``in_check``,
``count(P)`` ...) is compiled into a function of a context
(:class:`interpreter.engine.generation.DropContext`) and asked for each drop in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from dsl import spec as S
from dsl.errors import RulesSemanticError, unknown_name

from .end_rules import check_calls, names_used, type_of
from .expressions import compile_expr

if TYPE_CHECKING:
    from .game import Game

# The names of a drop condition: the destination cell's properties (``to.P``, any cell property), and
# these (a drop condition's calls are those of end conditions that count pieces).
DROP_NAMES = {
    "army": "the name of the dropping army",
    "in_check": "a royal piece of the dropping army is attacked (before the drop)",
}
DROP_CALLS = {
    "count": "count(Piece): the number of pieces of that kind the dropping army has, on the board and in hand",
    "enemy_count": "enemy_count(Piece): the number of pieces of that kind its enemies have, on the board and in hand",
}
STATIC_NAMES = {"army"}   # with the ``to.P`` names: known before play, so evaluated here


class _StaticCell:
    """The context of a drop condition evaluated when the game is compiled: a cell and an army."""

    __slots__ = ("attributes", "army", "cell")

    def __init__(self, attributes: list[dict], army: str) -> None:
        self.attributes, self.army, self.cell = attributes, army, -1

    def to(self, prop: str) -> object:
        return self.attributes[self.cell].get(prop, "")


def _lookup(context: Any, name: str) -> Any:
    """The value of a name in a drop condition: ``to_P`` (``to.P``) is the destination's property
    ``P``, read by ``context.to(P)``; any other name is the context's attribute."""
    return context.to(name[3:]) if name.startswith("to_") else getattr(context, name)


def compile_drop_condition(game: "Game", rule: S.DropRule) -> tuple[bool, Callable | None]:
    """``(static, function)`` for the ``if`` of a drop rule (``(True, None)`` without one).

    The function takes a context whose ``cell`` is set to the destination; ``static`` says it
    reads nothing but the cell and the army (a :class:`_StaticCell` then serves)."""
    if rule.condition is None:
        return True, None
    return compile_cell_condition(game, rule.condition, "a drop has no start cell")


def compile_cell_condition(game: "Game", condition: S.Expr, no_from: str) -> tuple[bool, Callable]:
    """``(static, function)`` for a condition over one cell (``to.P``) and the position, in a
    drop's names (see :data:`DROP_NAMES`, :data:`DROP_CALLS`): a drop's ``if`` and a promotion's
    ``in place`` ``if`` (its cell is the one the piece stands on). ``no_from``: the error's words for
    a ``from.P`` name, which such a condition cannot read."""
    properties = {key for attrs in game.board.attributes for key in attrs}
    names = dict(DROP_NAMES)
    names.update({f"to.{p}": "a property of the destination cell" for p in properties})
    used = names_used(condition)
    for name in used:
        if name.startswith("from."):
            raise RulesSemanticError(f"{no_from}: '{name}'", condition.loc,
                                     expected="to.PROPERTY, army, in_check, count(Piece) or enemy_count(Piece)")
    check_calls(game, condition)
    function = compile_expr(condition, names, DROP_CALLS, dict(game.kind_index), lookup=_lookup)
    type_of(condition)
    static = all(n in STATIC_NAMES or n.startswith("to.") for n in used if n not in game.kind_index)
    return static, function


def drop_limits(game: "Game", rule: S.DropRule, kind: int, army) -> list[tuple[int, int, list[int]]]:
    """The limits of a drop rule for one army, as ``(counted, most, group)`` triples: a drop on cell
    ``c`` with ``group[c] >= 0`` is barred while the army has ``most`` pieces of code ``counted`` or
    more on cells of the same group (``-1``: a cell the limit does not concern). ``not on file with
    own P`` counts P's code, most 1, grouped by file; ``at most N on file`` the dropped kind's code,
    most N, by file; ``at most N in TERM`` the dropped kind's, most N, one group of TERM's cells
    (a per-army zone: the army's cells)."""
    files = [game.board.coords[c][0] for c in range(game.n)]
    limits = []
    if rule.no_file_twin:
        if rule.no_file_twin not in game.kind_index:
            raise unknown_name("piece", rule.no_file_twin, game.kind_index, rule.loc)
        limits.append((game.code(game.kind_index[rule.no_file_twin], army.index), 1, files))
    for limit in rule.at_most:
        if limit.count < 1:
            raise RulesSemanticError(f"'at most {limit.count}' allows no {rule.piece} drop there", limit.loc,
                                     expected="a number of pieces of at least 1",
                                     hint="to forbid drops on some cells, write 'not in TERM'")
        group = files
        if limit.cells is not None:
            cells = game.board.term(limit.cells, army.name)
            group = [0 if c in cells else -1 for c in range(game.n)]
        limits.append((game.code(kind, army.index), limit.count, group))
    return limits


def compile_drops(game: "Game", drops: S.DropsSpec | None) -> None:
    """Hands and drops, as attributes of ``game``.

    ``to_hand``: captured pieces join the capturer's hand. ``demote[kind]``:
    the kind a promoted piece of ``kind`` goes back to (the kind that
    promotes to it; itself if none). ``drop_cells[code]``: where a piece
    from hand may be dropped (None: not droppable), narrowed by a static
    ``if``. ``drop_conditions[code]``: the function of a drop context a drop
    must satisfy (:class:`~interpreter.engine.generation.DropContext`), or None. ``drop_limits[code]``: the
    limits on how many pieces of a code the dropping army may have where the drop lands, as
    ``(counted code, most, group)`` triples (see :func:`drop_limits`). ``drop_no_mate[code]``:
    the drop may not checkmate. ``drop_marks[code]``: the cells where a dropped piece counts as
    unmoved (``unmoved in``), or None. ``must_drop``: an army with a legal drop must drop.
    ``both_colours[army]``: the codes of that army's kinds kept on both colours, and
    ``dark_cells``: the cells whose ``colour`` is ``"dark"`` (the others are light).
    """
    game.to_hand = bool(drops and drops.captures_to_hand)
    game.drops_demoted = bool(drops and drops.demoted)
    game.drop_cells = [None] * game.ncodes
    game.drop_conditions = [None] * game.ncodes
    game.drop_limits = [[] for _ in range(game.ncodes)]
    game.drop_no_mate = [False] * game.ncodes
    game.drop_marks = [None] * game.ncodes
    game.drop_marking = False
    game.must_drop = bool(drops and drops.must_drop)
    game.both_colours = [() for _ in game.armies]   # a tuple of codes per army
    game.dark_cells = frozenset(c for c, attrs in enumerate(game.board.attributes) if attrs.get("colour") == "dark")
    game.demote = list(range(len(game.kinds)))
    game.has_drops = False
    game.promotion_only = set()
    if drops is None:
        return
    promoters: dict[int, set[int]] = {}
    for kind in game.kinds:
        for promo in kind.spec.promotions:
            for name in promo.to:
                promoters.setdefault(game.kind_index[name], set()).add(kind.index)
    for target, sources in promoters.items():
        if len(sources) == 1:
            game.demote[target] = next(iter(sources))
    attributes = game.board.attributes
    for rule in drops.drops:
        if rule.piece not in game.kind_index:
            raise unknown_name("piece", rule.piece, game.kind_index, rule.loc)
        static, condition = compile_drop_condition(game, rule)
        kind = game.kind_index[rule.piece]
        for army in game.armies:
            code = game.code(kind, army.index)
            cells = frozenset(range(game.n))
            for term in rule.not_in:
                cells -= game.board.term(term, army.name)
            if condition is not None and static:
                where = _StaticCell(attributes, army.name)
                kept = set()
                for cell in cells:
                    where.cell = cell
                    if condition(where):
                        kept.add(cell)
                cells = frozenset(kept)
            elif condition is not None:
                game.drop_conditions[code] = condition
            game.drop_cells[code] = cells
            game.drop_limits[code] = drop_limits(game, rule, kind, army)
            game.drop_no_mate[code] = rule.no_mate
            if rule.unmoved_in is not None:
                game.drop_marks[code] = frozenset(game.board.term(rule.unmoved_in, army.name))
    game.has_drops = any(c is not None for c in game.drop_cells)
    game.drop_marking = any(c is not None for c in game.drop_marks)
    for name in drops.both_colours:
        loc = drops.locs.get(f"both colours {name}", drops.loc)
        if name not in game.kind_index:
            raise unknown_name("piece", name, game.kind_index, loc)
        codes = [game.code(game.kind_index[name], army.index) for army in game.armies]
        if any(game.drop_cells[code] is None for code in codes):
            raise RulesSemanticError(f"'keep {name} on both colours' needs a 'drop {name}' line", loc)
        for army in game.armies:
            game.both_colours[army.index] += (codes[army.index],)
    game.promotion_only = {k for k in promoters}  # narrowed to kinds absent from the setup by the game
