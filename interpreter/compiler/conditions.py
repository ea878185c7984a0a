"""Conditions on moves: ``if`` clauses of a piece's movement patterns, split and compiled.

A condition is split into its ``level == ...`` part (stacking games: the
mover's level, kept on the atom and tested in play), its ``not in_check``
part (the move is allowed only while no royal piece of the mover's army is
attacked: kept on the atom, tested in play) and a static part that depends
only on the start and destination cells and the army (``to.type == "I"``,
``neighbour(diag)``): that part is evaluated at compile time for every pair
of cells and filters the atoms' tables, so that conditions cost nothing in
play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UnsupportedError

from .board import Board, table_identity
from .budget import spend
from .expressions import compile_expr

if TYPE_CHECKING:
    from .atoms import Atom


def level_condition(condition) -> str | None:
    """``level == "ground"`` / ``level == "upper"`` (the mover's level in a stacking game), or None."""
    if (isinstance(condition, S.Compare) and condition.op == "==" and isinstance(condition.left, S.Ref)
            and condition.left.path == ["level"] and isinstance(condition.right, S.Str)
            and condition.right.value in ("ground", "upper")):
        return condition.right.value
    return None


# Names of move conditions that depend on the position, not only on the two cells.
_DYNAMIC = {"level": "the mover's level in a stack, which may only be compared with a text ('level == \"upper\"') "
                     "and joined by 'and'", "below": "the piece under the mover",
            "height": "the height of the mover's stack",
            "in_check": "whether the mover is in check, which may only be asked as 'not in_check' joined by 'and'"}


def unchecked_condition(condition) -> bool:
    """Is ``condition`` ``not in_check`` (the mover's army is not in check)?"""
    return (isinstance(condition, S.Not) and isinstance(condition.operand, S.Ref)
            and condition.operand.path == ["in_check"])


def split_condition(condition, loc) -> tuple[str | None, bool, S.Expr | None]:
    """An ``if`` condition -> (its ``level == ...`` part, whether it has a ``not in_check`` part,
    the rest, which must be static). Only parts joined by ``and`` are split off."""
    if condition is None:
        return None, False, None
    parts = condition.operands if isinstance(condition, S.BoolOp) and condition.op == "and" else [condition]
    levels = [lv for lv in (level_condition(p) for p in parts) if lv is not None]
    unchecked = any(unchecked_condition(p) for p in parts)
    rest = [p for p in parts if level_condition(p) is None and not unchecked_condition(p)]
    if len(set(levels)) > 1:
        raise RulesSemanticError("a move cannot be both at ground level and at the upper level", loc)
    static = None if not rest else rest[0] if len(rest) == 1 else S.BoolOp(op="and", operands=rest, loc=condition.loc)
    return (levels[0] if levels else None), unchecked, static


def _expr_refs(node) -> list:
    """Every name (Ref) in an expression."""
    if isinstance(node, S.Ref):
        return [node]
    found = []
    for child in ("operand", "left", "right"):
        if getattr(node, child, None) is not None:
            found += _expr_refs(getattr(node, child))
    for child in getattr(node, "operands", None) or getattr(node, "args", None) or []:
        found += _expr_refs(child)
    return found


class _CellPair:
    """The context of a static move condition: a start and a destination cell, and the army."""

    __slots__ = ("board", "frm", "to", "army", "_rays")

    def __init__(self, board: Board, army: str, rays: dict) -> None:
        self.board, self.army, self._rays = board, army, rays
        self.frm = self.to = -1

    def value(self, name: str):
        """The value of a name of the condition: ``army``, or ``from_P`` / ``to_P`` (property P of
        the start or the destination), read from the cell's attributes, never as a Python attribute."""
        if name == "army":
            return self.army
        side, _, prop = name.partition("_")
        cell = self.frm if side == "from" else self.to
        return self.board.attributes[cell].get(prop, "")

    def neighbour(self, labels: tuple[str, ...]) -> bool:
        steps = self.board.steps
        return any(steps[label][self.frm] == self.to for label in labels)

    def on_ray(self, labels: tuple[str, ...]) -> bool:
        key = (self.frm, labels)
        if key not in self._rays:
            self._rays[key] = {c for label in labels for c in self.board.ray(self.frm, label, None)}
        return self.to in self._rays[key]


def static_condition(expr: S.Expr, board: Board, army: str) -> CellCondition:
    """Compile a move condition over the start and destination cells (:class:`CellCondition`).

    Names: ``from.P`` / ``to.P`` (``file``, ``rank``, ``colour``, ``type``
    or any attribute), ``army``, and the calls ``neighbour(F)`` and
    ``on_ray(F)`` for a direction family or label ``F``. A condition that
    depends on the position is a :class:`RulesSemanticError`.
    """

    for ref in _expr_refs(expr):
        name = ".".join(ref.path)
        if name in _DYNAMIC:
            raise RulesSemanticError(f"a move condition is on the start and destination cells, and '{name}' "
                                     f"({_DYNAMIC[name]}) depends on the position", ref.loc,
                                     expected="from.P, to.P, army, neighbour(F), on_ray(F), and level == \"...\" "
                                              "or not in_check joined by 'and'")
    properties = board.resolver.properties()
    names = {f"{side}.{p}": "cell property" for side in ("from", "to") for p in properties}
    names["army"] = "the moving army"
    symbols = {name: tuple(labels) for name, labels in board.families.items()}
    symbols.update({label: (label,) for label in board.steps if label not in symbols})
    symbols["all"] = tuple(board.steps)
    calls = {"neighbour": "one step away", "on_ray": "on a ray"}
    test = compile_expr(expr, names, calls, symbols, lookup=_CellPair.value)
    # Verdicts by pair, kept with the board's built tables: a pair is asked again by every path that
    # reaches it, and the same condition again by other moves, other modes, the file compiled again
    # (and other armies when it does not name the army).
    army_named = any(ref.path == ["army"] for ref in _expr_refs(expr))
    key = ("condition", expr.shape(), army if army_named else None)
    return CellCondition(key, board.kept(key, dict), test, _CellPair(board, army, board.kept("on_ray", dict)),
                         getattr(expr, "loc", None))


class CellCondition:
    """A static move condition, compiled: ``condition(frm, to)`` is whether a move from ``frm`` to
    ``to`` is allowed. ``key`` names it among the board's built tables (its shape, and the army
    when it names the army): conditions with the same key give the same verdicts."""

    __slots__ = ("key", "_verdicts", "_test", "_pair", "_loc")

    def __init__(self, key: tuple, verdicts: dict[tuple[int, int], bool], test, pair: _CellPair, loc) -> None:
        self.key, self._verdicts, self._test, self._pair, self._loc = key, verdicts, test, pair, loc

    def __call__(self, frm: int, to: int) -> bool:
        verdict = self._verdicts.get((frm, to))
        if verdict is None:
            pair = self._pair
            pair.frm, pair.to = frm, to
            try:
                verdict = self._verdicts[frm, to] = bool(self._test(pair))
            except (TypeError, KeyError, AttributeError):
                raise RulesSemanticError("this condition cannot be evaluated (a direction family where a value is "
                                         "expected, or text compared with a number)", self._loc) from None
        return verdict


def filtered(atom: Atom, allowed: CellCondition, loc, board: Board) -> Atom | None:
    """``atom`` keeping only the moves whose start and destination satisfy ``allowed``; None if none is left.

    A ray whose cells pass in part becomes lame leaps (each kept cell with
    the cells before it that must be empty), so the ride still passes the
    cells where it may not stop. The filtered tables are kept with the
    board's built tables, by the condition and the tables filtered (the
    entry holds those tables, so that their ids stay theirs while it is kept).
    """
    key = ("filtered", allowed.key, atom.kind, table_identity(atom.leaps), table_identity(atom.rays))
    found = board.kept(key, lambda: (atom.leaps, atom.rays, _filtered(atom.kind, atom.leaps, atom.rays, allowed, loc)))
    if found[2] is None:
        return None
    atom.kind, atom.leaps, atom.rays = found[2]
    return atom


def _filtered(kind: str, leaps: list, rays: list, allowed: CellCondition, loc) -> tuple[str, list, list] | None:
    """The tables of :func:`filtered`: ``(kind, leaps, rays)``, None when nothing is left."""
    n = len(leaps) or len(rays)
    if kind == "leap":
        kept_leaps = [[(to, b) for to, b in leaps[c] if allowed(c, to)] for c in range(n)]
        return (kind, kept_leaps, rays) if any(kept_leaps) else None
    verdicts = [[[allowed(c, to) for to in ray] for ray in rays[c]] for c in range(n)]
    if all(all(v) or not any(v) for row in verdicts for v in row):
        kept_rays = [[ray for ray, v in zip(rays[c], verdicts[c]) if all(v)] for c in range(n)]
        return (kind, leaps, kept_rays) if any(kept_rays) else None
    if kind == "hop":
        raise UnsupportedError("a condition that keeps only some cells of a hopper's line is not run by the "
                               "interpreter yet", loc)
    lame = []
    for c in range(n):
        row: dict[tuple[int, tuple[int, ...]], None] = {}
        for ray, v in zip(rays[c], verdicts[c]):
            spend(len(ray) * (len(ray) + 1) // 2)
            for k, to in enumerate(ray):
                if v[k]:
                    row[(to, tuple(ray[:k]))] = None
        lame.append(list(row))
    return ("leap", lame, []) if any(lame) else None
