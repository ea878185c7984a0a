"""Direction tables of a board: the generator's directions, ``directions`` families and ``link``s.

A direction is a label with a step table: ``steps[label][cell]`` is the cell
one step away, or -1. The generator gives its families (``orth``, ``diag``);
a ``directions`` block declares a family, row by row over cell sets, and
one with a built-in family's name replaces it; a ``link`` adds or replaces
one step of a label at one cell, or makes a label of its own.

On a board of levels a step is written (files, ranks, levels) and held as
its ``geo`` step (:func:`~interpreter.compiler.layout.level_step`).

A label whose steps are one vector from every cell (the built-in ones, a
redeclared ``orth`` with the grid's own deltas, an added ``knight`` family
of uniform leaps) is also a *vector direction*: Betza strings, ``leap``
offsets, the relative directions (``forward`` ...) and an army's forward
work with it, and a pattern step of that vector follows its table, links
included. Other labels exist only as tables (rays look them up cell by
cell).
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl import spec as S
from dsl.errors import Loc, RulesSemanticError, unknown_name

from .layout import Layout, level_step


@dataclass(frozen=True)
class Directions:
    """The compiled directions of a board.

    ``steps``: label -> per-cell target (-1: none). ``kinds``: label -> edge
    kind. ``vectors``: the vector directions, label -> (dx, dy, kind) in step
    coordinates. ``families``: family -> labels. ``tables``: the labels given
    by ``directions`` blocks or links (patterns naming them walk the tables).
    ``replaced``: a built-in label that a declared family took away or made
    uneven -> where that family is declared (for errors about Betza and
    ``forward``).
    """

    steps: dict[str, list[int]]
    kinds: dict[str, str]
    vectors: dict[str, tuple[int, int, str]]
    families: dict[str, tuple[str, ...]]
    tables: frozenset[str]
    replaced: dict[str, Loc | None]


def offset_of(geo_at: dict[tuple[int, int], int], wrap: tuple[int, int], x: int, y: int) -> int:
    """The cell at step coordinates (x, y), taken modulo the periods ``wrap`` (0: no wrap), or -1."""
    wx, wy = wrap
    if wx:
        x %= wx
    if wy:
        y %= wy
    return geo_at.get((x, y), -1)


def compile_directions(spec: S.BoardSpec, layout: Layout, cells_of, index: dict[str, int]) -> Directions:
    """The direction tables of a board (see the module docstring).

    ``cells_of(cellset)`` evaluates a row's cell set; ``index`` maps cell
    names to cells. Rows apply in order (a later row wins for a label on a
    cell); a step to a cell that does not exist is dropped; links apply
    last. The tables are complete here: nothing looks a cell type up later.
    """
    geo, wrap = layout.geo, layout.wrap
    geo_at = {xy: i for i, xy in enumerate(geo)}

    def geometric(dx: int, dy: int) -> list[int]:
        return [offset_of(geo_at, wrap, x + dx, y + dy) for x, y in geo]

    declared = {family.name: family for family in spec.directions}
    builtin = dict(layout.directions)
    vectors = {label: v for label, v in builtin.items() if v[2] not in declared}
    families: dict[str, tuple[str, ...]] = {}
    for label, (_, _, kind) in vectors.items():
        families[kind] = families.get(kind, ()) + (label,)
    steps = {label: geometric(dx, dy) for label, (dx, dy, _) in vectors.items()}
    kinds = {label: kind for label, (_, _, kind) in vectors.items()}
    owner = {label: kind for label, (_, _, kind) in vectors.items()}
    deltas: dict[str, set[tuple[int, int]]] = {}
    for family in spec.directions:
        labels: dict[str, None] = {}
        for row in family.rows:
            cells = cells_of(row.cells)
            for entry in row.entries:
                if owner.get(entry.label, family.name) != family.name:
                    raise RulesSemanticError(
                        f"direction '{entry.label}' already belongs to family '{owner[entry.label]}'", entry.loc,
                        expected="a label of its own for each family", hint="labels are case-sensitive")
                owner[entry.label] = family.name
                labels[entry.label] = None
                dx, dy = level_step((entry.dx, entry.dy, entry.dz), layout.files, layout.levels, entry.loc)
                if layout.axial:
                    dy = dx + 2 * dy
                deltas.setdefault(entry.label, set()).add((dx, dy))
                table = steps.setdefault(entry.label, [-1] * len(geo))
                for cell in cells:
                    x, y = geo[cell]
                    table[cell] = offset_of(geo_at, wrap, x + dx, y + dy)
                if entry.edge_kind is not None or entry.label not in kinds:
                    kinds[entry.label] = entry.edge_kind or family.name
        families[family.name] = tuple(labels)
        for label in labels:  # one vector from every cell: a vector direction (Betza and forward work)
            if len(deltas[label]) == 1:
                dx, dy = next(iter(deltas[label]))
                if steps[label] == geometric(dx, dy):
                    vectors[label] = (dx, dy, kinds[label])
    tables = {label for label, family in owner.items() if family in declared}
    for link in spec.links:
        tables |= _link(link, steps, kinds, families, index, len(geo))
    replaced = {label: declared[kind].loc for label, (_, _, kind) in builtin.items()
                if kind in declared and vectors.get(label, (None, None))[:2] != (builtin[label][0], builtin[label][1])}
    return Directions(steps, kinds, vectors, families, frozenset(tables), replaced)


def _link(link: S.Link, steps: dict[str, list[int]], kinds: dict[str, str], families: dict[str, tuple[str, ...]],
          index: dict[str, int], n: int) -> set[str]:
    """Apply ``link A to B as LABEL [kind K]``; the labels it makes a table of (a new label)."""
    for name in (link.source, link.target):
        if name not in index:
            raise unknown_name("cell", name, index, link.locs.get(name, link.loc))
    if link.label in steps:
        if link.edge_kind is not None and link.edge_kind != kinds[link.label]:
            raise RulesSemanticError(
                f"direction '{link.label}' is of kind '{kinds[link.label]}'; a link cannot give it another",
                link.loc, hint=f"leave out 'kind {link.edge_kind}', or link with a label of its own")
        steps[link.label][index[link.source]] = index[link.target]
        return set()
    steps[link.label] = [-1] * n
    steps[link.label][index[link.source]] = index[link.target]
    kinds[link.label] = link.edge_kind or link.label
    families.setdefault(link.label, (link.label,))
    return {link.label}
