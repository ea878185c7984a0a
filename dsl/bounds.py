"""A merged Spec checked against the declared limits, before anything is compiled.

:func:`check_spec` walks every node of a :class:`~dsl.spec.VariantSpec`
once, without recursion: every list and table is bounded
(:data:`~dsl.limits.LIST_ITEMS` unless a limit of its own applies; the
transformer has bounded expressions already), and the sizes that make the compiler's work
large (board dimensions, ranges, offsets, path legs, piece kinds, Betza
strings) by their own limits. The error points at the offending node: for
too many items, the first item past the limit.
"""

from __future__ import annotations

from typing import Any, Callable

from . import limits as L
from . import spec as S
from .errors import Loc

EXPRESSIONS = (S.Num, S.Str, S.Ref, S.Call, S.Not, S.BoolOp, S.Compare, S.Arith, S.Neg)

# Lists and tables with a limit other than LIST_ITEMS: (node type, field) -> (limit, what).
LIST_LIMITS: dict[tuple[type, str], tuple[L.Limit, str]] = {
    (S.VariantSpec, "pieces"): (L.PIECE_KINDS, "this variant"),
    (S.VariantSpec, "armies"): (L.ARMIES, "this variant"),
    (S.VariantSpec, "modes"): (L.MODES, "this variant"),
    (S.PieceSpec, "moves"): (L.PIECE_MOVES, "this piece"),
    (S.PathPattern, "legs"): (L.PATH_LEGS, "this path"),
    (S.BoardSpec, "cells"): (L.CELLS, "this board"),
    (S.BoardSpec, "links"): (L.LINKS, "this board"),
    (S.RaggedGen, "lengths"): (L.FILES, "this ragged board"),
}


def check_spec(spec: S.VariantSpec) -> None:
    """Raise :class:`~dsl.errors.LimitError` at the first thing of ``spec`` that exceeds a limit."""
    todo: list[tuple[Any, Loc | None]] = [(spec, spec.locs.get("name"))]
    while todo:
        node, near = todo.pop()
        loc = node.loc or near
        if isinstance(node, EXPRESSIONS):
            continue  # bounded in depth and size by the transformer
        check = NODE_CHECKS.get(type(node))
        if check is not None:
            check(node, loc)
        for name in type(node).model_fields:
            if name in ("loc", "locs"):
                continue
            value = getattr(node, name)
            if isinstance(value, dict):
                value = list(value.values())
            if isinstance(value, list):
                limit, subject = LIST_LIMITS.get((type(node), name), (L.LIST_ITEMS, f"this list of {_words(name)}"))
                if len(value) > limit.value:
                    first_extra = getattr(value[limit.value], "loc", None)
                    raise limit.error(f"{subject} has {len(value):,} {limit.unit}", first_extra or loc)
                todo.extend((item, loc) for item in value if isinstance(item, S.Node))
            elif isinstance(value, S.Node):
                todo.append((value, loc))


def _words(field: str) -> str:
    return field.replace("_", " ")


def _grid(gen: S.GridGen, loc: Loc | None) -> None:
    L.FILES.check(gen.files, loc, "this grid")
    L.RANKS.check(gen.ranks, loc, "this grid")
    L.LEVELS.check(gen.levels, loc, "this grid")
    L.CELLS.check(gen.files * gen.ranks * gen.levels, loc, "this grid")


def _ragged(gen: S.RaggedGen, loc: Loc | None) -> None:
    L.RANKS.check(max(gen.lengths, default=0), loc, "the longest file of this board")
    L.CELLS.check(sum(gen.lengths), loc, "this board")


def _hex(gen: S.HexGen, loc: Loc | None) -> None:
    if gen.radius > L.HEX_RADIUS.value:
        raise L.HEX_RADIUS.error(f"this hex board has a radius of {gen.radius:,} cells", loc)


def _cell(cell: S.CellDecl, loc: Loc | None) -> None:
    if abs(cell.x) > L.FILES.value:
        raise L.FILES.error(f"the x coordinate {cell.x:,g} is too far out", loc)
    if abs(cell.y) > L.RANKS.value:
        raise L.RANKS.error(f"the y coordinate {cell.y:,g} is too far out", loc)


def _cell_term(term: S.CellTerm, loc: Loc | None) -> None:
    for number in (term.lo, term.hi):
        if number is not None and number > L.RANKS.value:
            raise L.RANKS.error(f"rank {number:,} cannot exist", loc)


def _ranged(pattern: S.RidePattern | S.Leg | S.ZigzagPattern, loc: Loc | None) -> None:
    if pattern.range is not None and pattern.range > L.RANGE.value:
        raise L.RANGE.error(f"a range of {pattern.range:,} cells", loc)


def _leap(pattern: S.LeapPattern, loc: Loc | None) -> None:
    for offset in pattern.offsets:
        _offset(offset, loc)


def _direction(entry: S.DirEntry, loc: Loc | None) -> None:
    _offset((entry.dx, entry.dy, entry.dz) if entry.dz else (entry.dx, entry.dy), loc)


def _offset(offset: tuple[int, ...], loc: Loc | None) -> None:
    if max(abs(d) for d in offset) > L.OFFSET.value:
        raise L.OFFSET.error(f"the offset ({', '.join(str(d) for d in offset)}) is too long", loc)


def _betza(pattern: S.BetzaPattern, loc: Loc | None) -> None:
    L.BETZA_CHARS.check(len(pattern.text), loc, "this Betza string")


def _stacking(stacking: S.StackingSpec, loc: Loc | None) -> None:
    if stacking.height > L.STACK_HEIGHT.value:
        raise L.STACK_HEIGHT.error(f"stacks of {stacking.height:,} pieces", loc)


NODE_CHECKS: dict[type, Callable[[Any, Loc | None], None]] = {
    S.GridGen: _grid, S.RaggedGen: _ragged, S.HexGen: _hex, S.CellDecl: _cell, S.CellTerm: _cell_term,
    S.RidePattern: _ranged, S.Leg: _ranged, S.ZigzagPattern: _ranged, S.LeapPattern: _leap,
    S.DirEntry: _direction, S.BetzaPattern: _betza, S.StackingSpec: _stacking,
}
