"""Board compiler: ``BoardSpec`` -> cells, a networkx graph and step tables.

Cells are numbered 0..n-1 in file-major order of their coordinates (a1,
b1, ..., h1, a2, ... on a grid), so that tables indexed by cell are plain
lists. Every cell has a name, integer coordinates ``(x, y)`` (``x`` the file
index from 0, ``y`` the rank index from 0), a polygon for drawing and a
dict of attributes (``file``, ``rank``, ``colour`` and whatever the rules
file ``set``s).

A *direction* is a labelled step function: ``steps[label][cell]`` is the
cell one step away, or -1. Grid boards have the eight labels ``n s e w ne
nw se sw`` (edge kinds ``orth`` and ``diag``); hex boards six orthogonal
(``n ne se s sw nw``) and six diagonal (``nne e sse ssw w nnw``) ones; a
grid of levels none (the standard library ``space`` declares its 26). Coordinate offsets
(``"(dx,dy)"`` labels, used by Betza and ``leap``) are derived on demand.
The networkx ``MultiDiGraph`` (:attr:`Board.graph`) holds the same steps as
labelled edges, for validation, analysis and drawing; the move generator
never walks it, so it is built (and networkx imported) only when asked for.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import Loc, RulesSemanticError, UnsupportedError, unknown_name

from .directions import compile_directions, offset_of
from .expressions import compile_cell_formula
from .layout import FILE_LETTERS, GRID_DIRECTIONS, HEX_DIRECTIONS, HEX_FILE_LETTERS, Layout, file_letter, generate

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Board", "CellResolver", "centroid", "compile_board", "file_letter", "FILE_LETTERS", "GRID_DIRECTIONS",
           "HEX_DIRECTIONS", "HEX_FILE_LETTERS"]


def centroid(polygon: list[tuple[float, float]]) -> tuple[float, float]:
    """The area centroid of a simple polygon (the vertex mean if it has no area)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-12:
        return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))
    return (cx / (3 * area), cy / (3 * area))


@dataclass(frozen=True)
class BoardDrawing:
    """How the board is drawn (the ``draw`` statements; docs/language.md, "Drawing the board").

    ``points``: pieces on the crossings of lines through the cells' centres. ``plain``: one colour
    for every cell. ``river``: the rank below the river and the river's text, or None.
    ``diagonals``: pairs of cells whose centres a line joins (both diagonals of each palace).
    ``facing``: pieces turned towards their army's forward direction.
    """

    points: bool = False
    plain: bool = False
    facing: bool = False
    river: tuple[int, str] | None = None
    diagonals: tuple[tuple[int, int], ...] = ()


BUILT_TABLES = 1000
"""Built tables kept per board (see :meth:`Board.kept`)."""
BOARDS_BUILT = 8
"""Boards whose built tables are kept (the last used): a designer's file in all its modes, a server's
variants in play."""
_built: OrderedDict[int, dict] = OrderedDict()
_built_lock = threading.Lock()


def table_identity(table: list) -> int | None:
    """A table's part of the key of a table built from it (:meth:`Board.kept`): its id, None for an
    empty one (which each atom makes anew). The entry must hold the table, so that no other object
    takes its id while the entry is kept."""
    return id(table) if table else None


def built_for(board: "Board") -> dict:
    """The tables built for boards like ``board``: the same dict for every board with the same cells
    (names, coordinates, polygons, attributes), steps, directions, wrapping and levels, which is
    everything the kept tables read."""
    key = hash((tuple(board.names), tuple(board.coords), tuple(board.geo), repr(board.polygons), repr(board.attributes),
                tuple((label, tuple(table)) for label, table in board.steps.items()), repr(board.directions),
                board.wrap, board.levels))
    with _built_lock:
        found = _built.get(key)
        if found is None:
            found = _built[key] = {}
            while len(_built) > BOARDS_BUILT:
                _built.popitem(last=False)
        _built.move_to_end(key)
        return found


@dataclass
class Board:
    """The compiled board of one variant (immutable after compilation)."""

    names: list[str]
    coords: list[tuple[int, int]]
    geo: list[tuple[int, int]]
    attributes: list[dict[str, object]]
    polygons: list[list[tuple[float, float]]]
    files: int
    ranks: int
    steps: dict[str, list[int]]
    edge_kinds: dict[str, str]
    directions: dict[str, tuple[int, int, str]]
    zones: dict[str, dict[str | None, frozenset[int]]]
    resolver: "CellResolver"
    file_names: list[str] = field(default_factory=list)
    families: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tables: frozenset[str] = frozenset()
    parts: list[tuple[str, str] | None] = field(default_factory=list)
    """Each cell's (file, rank) name parts, as move notation writes them; None for an explicit cell."""
    wrap: tuple[int, int] = (0, 0)
    """The periods of the step coordinates x and y on a board that wraps (0: no wrap)."""
    replaced: dict[str, Loc | None] = field(default_factory=dict)
    """Built-in labels a declared family took away or made uneven -> that family's location."""
    levels: int = 1
    """The levels of a grid of three dimensions (1: a flat board); see :mod:`.layout` for its coordinates."""
    index: dict[str, int] = field(default_factory=dict)
    at: dict[tuple[int, int], int] = field(default_factory=dict)
    geo_at: dict[tuple[int, int], int] = field(default_factory=dict)
    vector_label: dict[tuple[int, int], str] = field(default_factory=dict)
    drawing: BoardDrawing = BoardDrawing()
    built: dict = field(default_factory=dict, compare=False, repr=False)
    """Tables built from the board alone (:func:`.atoms.kept`), by how they were asked for: the same
    pattern for another army or another piece, the same walk again, costs a lookup. Shared by every
    board with the same cells, steps and attributes (:func:`built_for`): another play mode of the
    variant, the file compiled again after an edit elsewhere. Never stored with a game."""

    def __post_init__(self) -> None:
        self.index = {name: i for i, name in enumerate(self.names)}
        self.at = {xy: i for i, xy in enumerate(self.coords)}
        self.geo_at = {xy: i for i, xy in enumerate(self.geo)}
        self.vector_label = {}
        for label, (dx, dy, _) in self.directions.items():
            self.vector_label.setdefault((dx, dy), label)
        self.built = built_for(self)

    def __len__(self) -> int:
        return len(self.names)

    def kept(self, key, build):
        """The table of ``key`` in :attr:`built`, made by ``build()`` when missing. The tables of the
        boards like this one are dropped together when there are :data:`BUILT_TABLES` of them (a
        designer's session makes new ones at every edit)."""
        found = self.built.get(key)
        if found is None:
            if len(self.built) >= BUILT_TABLES:
                self.built.clear()
            found = self.built[key] = build()
        return found

    def __getstate__(self) -> dict:
        return {**self.__dict__, "built": {}}   # tables built later (a diagram's) are not stored

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The board as a networkx graph: a node per cell (with its name, drawing coordinates and
        attributes), an edge per step of each direction label (key and ``direction``: the label,
        ``kind``: its edge kind)."""
        import networkx as nx  # only for validation, analysis and drawing: not on every start-up

        graph = nx.MultiDiGraph()
        for i, name in enumerate(self.names):
            graph.add_node(i, name=name, xy=self.geo[i], **self.attributes[i])
        for label, table in self.steps.items():
            for i, j in enumerate(table):
                if j >= 0:
                    graph.add_edge(i, j, key=label, direction=label, kind=self.edge_kinds[label])
        return graph

    @cached_property
    def centres(self) -> list[tuple[float, float]]:
        """The area centroid of each cell's polygon: where the cell is, as drawn."""
        return [centroid(polygon) for polygon in self.polygons]

    @property
    def rectangular(self) -> bool:
        """True when the cells are exactly the generator's full rectangle (FEN's own shape)."""
        return len(self.names) == self.files * self.ranks and all(p is not None for p in self.parts)

    @cached_property
    def rows(self) -> list[list[int]]:
        """The cells of each row of coordinates, from the highest y down, in file order: the ranks
        of FEN (a row without cells, between explicit cells, is empty). On a board of levels, the
        ranks of the top level first, down to those of the bottom level."""
        ys = [y for _, y in self.coords]
        rows: list[list[int]] = [[] for _ in range(max(ys) - min(ys) + 1)]
        for cell in sorted(range(len(self.names)), key=lambda c: self.coords[c]):
            rows[max(ys) - self.coords[cell][1]].append(cell)
        if self.levels == 1:
            return rows
        level = [int(at["level"]) for at in self.attributes]
        return [[c for c in row if level[c] == z] for z in range(self.levels, 0, -1) for row in rows]

    def offset(self, cell: int, dx: int, dy: int) -> int:
        """The cell at step offset (dx, dy) from ``cell`` (in ``geo`` coordinates, round a board
        that wraps), or -1: where a leap lands."""
        x, y = self.geo[cell]
        if self.wrap != (0, 0):
            return offset_of(self.geo_at, self.wrap, x + dx, y + dy)
        return self.geo_at.get((x + dx, y + dy), -1)

    def step(self, cell: int, dx: int, dy: int) -> int:
        """One step of vector (dx, dy) from ``cell``: along the direction label of that vector when
        there is one (so that links are followed), else by coordinates as :meth:`offset`."""
        label = self.vector_label.get((dx, dy))
        if label is not None:
            return self.steps[label][cell]
        return self.offset(cell, dx, dy)

    @property
    def square(self) -> bool:
        """A flat square grid (Betza notation's home), as opposed to a hex board or a board of levels."""
        return self.levels == 1 and self.directions.get("n", (0, 0, ""))[:2] == (0, 1)

    def ray(self, cell: int, label: str, limit: int | None = None) -> list[int]:
        """The ray of ``label`` from ``cell``: the label looked up again on each cell reached."""
        table = self.steps[label]
        ray: list[int] = []
        seen = {cell}
        while limit is None or len(ray) < limit:
            cell = table[cell]
            if cell < 0 or cell in seen:
                break
            ray.append(cell)
            seen.add(cell)
        return ray

    def diagnostics(self) -> list[str]:
        """Warnings about the board's graph: isolated cells, disconnected parts, dead directions.

        Read from the step tables (the graph's edges; union-find for the
        weakly connected parts, so that ``rules check`` needs no networkx);
        none of them is an error (a board may have a cell only knights
        reach), but each is worth a look when designing a board.
        """
        n = len(self.names)
        parent = list(range(n))

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c

        linked = [False] * n
        for table in self.steps.values():
            for a, b in enumerate(table):
                if b >= 0:
                    linked[a] = linked[b] = True
                    parent[root(a)] = root(b)
        notes = []
        isolated = [self.names[c] for c in range(n) if not linked[c]]
        if isolated:
            notes.append(f"cells with no step to or from them: {', '.join(isolated)}")
        sizes: dict[int, int] = {}
        for c in range(n):
            sizes[root(c)] = sizes.get(root(c), 0) + 1
        if len(sizes) > 1:
            notes.append(f"the board falls into {len(sizes)} parts by single steps (sizes {sorted(sizes.values(), reverse=True)})")
        for label, table in self.steps.items():
            if all(t < 0 for t in table):
                notes.append(f"direction '{label}' leads nowhere from any cell")
        return notes

    def term(self, term: S.CellTerm, army: str | None) -> frozenset[int]:
        """The cells of one cell term (``from``, ``to``, ``promotes in`` ...) for ``army``."""
        return self.resolver.term(term, army)


class CellResolver:
    """Evaluates cell sets and cell terms over a list of cells.

    Used twice: over the full generated grid to evaluate ``remove``, then
    over the final cells for attributes, zones and every cell term of the
    rules (``from``, ``to``, ``promotes in`` ...). Zones are looked up in
    the zone specs and evaluated for the army concerned.
    """

    def __init__(self, names, coords, attrs, files, ranks, zone_specs, armies, file_names) -> None:
        self.names, self.coords, self.attrs = names, coords, attrs
        self.files, self.ranks = files, ranks
        self.file_names = file_names
        self.zone_specs: dict[str, S.ZoneSpec] = zone_specs
        self.armies = armies
        self.by_name = {n: i for i, n in enumerate(names)}

    def cell(self, name: str, loc: Loc | None) -> int:
        if name not in self.by_name:
            raise unknown_name("cell", name, self.names, loc)
        return self.by_name[name]

    def cells(self, cellset: S.CellSet, army: str | None) -> frozenset[int]:
        result: set[int] = set()
        for term in cellset.include:
            result |= self.term(term, army)
        for term in cellset.exclude:
            result -= self.term(term, army)
        return frozenset(result)

    def term(self, term: S.CellTerm, army: str | None) -> frozenset[int]:
        kind = term.kind
        coords = self.coords
        if kind == "named":
            return frozenset({self.cell(term.a, term.loc)})
        attrs = self.attrs
        if kind == "rect":  # the box between two corners: files, ranks and, on a board of levels, levels
            a, b = attrs[self.cell(term.a, term.loc)], attrs[self.cell(term.b, term.loc)]
            spans = {axis: range(min(a[axis], b[axis]), max(a[axis], b[axis]) + 1)
                     for axis in ("file", "rank", "level") if axis in a}
            return frozenset(i for i, at in enumerate(attrs) if all(at[axis] in span for axis, span in spans.items()))
        if kind in ("rank", "ranks"):
            ranks = sorted({int(at["rank"]) for at in attrs})
            for rank in (term.lo, term.hi):
                if rank not in ranks:
                    raise RulesSemanticError(f"no rank {rank} on this board", term.loc,
                                             expected=f"a rank from {ranks[0]} to {ranks[-1]}")
            if term.step < 1:
                raise RulesSemanticError("a rank step must be at least 1", term.loc)
            wanted = set(range(term.lo, term.hi + 1, term.step))
            return frozenset(i for i, at in enumerate(attrs) if at["rank"] in wanted)
        if kind in ("file", "files"):
            letters = self.file_names
            for letter in (term.a, term.b):
                if letter not in letters:
                    raise unknown_name("file", letter, letters, term.loc)
            lo, hi = sorted((letters.index(term.a) + 1, letters.index(term.b) + 1))
            return frozenset(i for i, at in enumerate(attrs) if lo <= at["file"] <= hi)
        if kind == "type":
            types = sorted({str(a["type"]) for a in self.attrs if "type" in a})
            if term.a not in types:
                raise unknown_name("cell type", term.a, types, term.loc)
            return frozenset(i for i, a in enumerate(self.attrs) if a.get("type") == term.a)
        if kind == "zone":
            return self.zone(term.a, army, term.loc)
        if kind == "all":
            return frozenset(range(len(coords)))
        if kind == "where":
            test = compile_cell_formula(term.expr, self.properties(), "'where' condition")
            return frozenset(i for i, at in enumerate(attrs) if test(at))
        raise UnsupportedError(f"'{kind}' cell sets are not run by the interpreter yet", term.loc)

    def properties(self) -> list[str]:
        """The cell properties formulas may read now: those of the generator and every attribute set so far."""
        return sorted({"file", "rank"} | {name for at in self.attrs for name in at})

    def zone(self, name: str, army: str | None, loc: Loc | None) -> frozenset[int]:
        if name not in self.zone_specs:
            raise unknown_name("zone", name, self.zone_specs, loc)
        zone = self.zone_specs[name]
        if zone.shared is not None:
            return self.cells(zone.shared, army)
        if army is None:
            raise RulesSemanticError(f"zone '{name}' is declared per army and cannot be used here", loc,
                                     expected="a zone declared for all armies")
        cellset = zone.per_army.get(army)
        return self.cells(cellset, army) if cellset is not None else frozenset()


def compile_board(spec: S.BoardSpec, armies: list[str], variant_loc: Loc | None = None) -> Board:
    """Compile a board spec; ``armies`` are the army names per-army zones may use.

    Statements are evaluated in the order of docs/language.md: the
    generator and the explicit cells, ``remove``, ``set``, zones,
    ``directions`` and ``link``s, then ``position`` and ``shape``. Raises
    :class:`RulesSemanticError` for a cell set naming a cell, file, rank,
    cell type, zone or army that does not exist.
    """
    layout = generate(spec, variant_loc)
    files, ranks = layout.files, layout.ranks
    on_full = CellResolver(layout.names, layout.coords, layout.attrs, files, ranks, {}, armies, layout.file_names)
    removed: set[int] = set()
    for cellset in spec.removes:
        removed |= on_full.cells(cellset, None)
    layout = layout.keep([i for i in range(len(layout.coords)) if i not in removed])
    if not layout.names:
        raise RulesSemanticError("the board has no cells left", spec.removes[-1].loc if spec.removes else variant_loc)
    coords, geo, names, attrs = layout.coords, layout.geo, layout.names, layout.attrs
    resolver = CellResolver(names, coords, attrs, files, ranks, spec.zones, armies, layout.file_names)
    for attr in spec.attributes:
        if attr.attribute in ("file", "rank"):
            raise RulesSemanticError(f"the attribute '{attr.attribute}' is given by the board and cannot be set",
                                     attr.loc)
        for cell in resolver.cells(attr.cells, None):
            attrs[cell][attr.attribute] = attr.value
    zones: dict[str, dict[str | None, frozenset[int]]] = {}
    for name, zone in spec.zones.items():
        if zone.shared is not None:
            zones[name] = {None: resolver.cells(zone.shared, None)}
        else:
            for army, cellset in zone.per_army.items():
                if army not in armies:
                    raise unknown_name("army", army, armies, cellset.loc)
            zones[name] = {army: resolver.zone(name, army, zone.loc) for army in armies}
    directions = compile_directions(spec, layout, lambda cells: resolver.cells(cells, None), resolver.by_name)
    polygons = _drawing(spec, layout, resolver)
    return Board(names, coords, geo, attrs, polygons, files, ranks, directions.steps, directions.kinds,
                 directions.vectors, zones, resolver, layout.file_names, directions.families, directions.tables,
                 layout.parts, layout.wrap, directions.replaced, layout.levels,
                 drawing=_board_drawing(spec.drawing, coords, attrs, resolver, armies))


def _board_drawing(spec: S.DrawingSpec, coords, attrs, resolver: CellResolver, armies: list[str]) -> BoardDrawing:
    """The compiled ``draw`` statements. A river needs both its ranks on the board; each cell set of
    ``diagonals`` (a per-army zone in it counts the cells of every army) must fall into rectangular
    blocks of at least 2 x 2 cells (by file and rank), each of which gets its two diagonals."""
    river = None
    if spec.river is not None:
        ranks = sorted({at["rank"] for at in attrs if isinstance(at.get("rank"), int)})
        for rank in (spec.river.below, spec.river.below + 1):
            if rank not in ranks:
                raise RulesSemanticError(f"no rank {rank} on this board for the river", spec.river.loc,
                                         expected=f"ranks from {ranks[0]} to {ranks[-1]}" if ranks else None)
        river = (spec.river.below, spec.river.text)
    lines: list[tuple[int, int]] = []
    for cellset in spec.diagonals:
        cells = set().union(*(resolver.cells(cellset, army) for army in armies or [None]))
        lines += _block_diagonals(cells, coords, cellset.loc)
    return BoardDrawing(spec.points, spec.plain, spec.facing, river, tuple(lines))


def _block_diagonals(cells: set[int], coords, loc: Loc | None) -> list[tuple[int, int]]:
    """The two diagonals (corner cell to corner cell) of each block of ``cells`` joined by orthogonal
    steps of the coordinates; raises RulesSemanticError when a block is not a full rectangle of at
    least 2 x 2 cells, or the set is empty."""
    if not cells:
        raise RulesSemanticError("no cells to draw diagonals in", loc)
    at = {coords[c]: c for c in cells}
    lines, seen = [], set()
    for start in sorted(at):
        if start in seen:
            continue
        block, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in at and nxt not in block:
                    block.add(nxt)
                    todo.append(nxt)
        seen |= block
        xs, ys = [x for x, _ in block], [y for _, y in block]
        (x0, x1), (y0, y1) = (min(xs), max(xs)), (min(ys), max(ys))
        if len(block) != (x1 - x0 + 1) * (y1 - y0 + 1) or x0 == x1 or y0 == y1:
            raise RulesSemanticError("diagonals are drawn in rectangular blocks of at least 2 x 2 cells", loc,
                                     expected="cells such as d1..f3 (a palace)")
        lines += [(at[(x0, y0)], at[(x1, y1)]), (at[(x0, y1)], at[(x1, y0)])]
    return lines


def _drawing(spec: S.BoardSpec, layout: Layout, resolver: CellResolver) -> list[list[tuple[float, float]]]:
    """Each cell's polygon: the generator's, moved by ``position`` statements, replaced by ``shape`` ones.

    ``position`` sets a cell's drawing position (its polygon moves with it);
    ``shape`` gives the corners relative to that position. Statements apply
    in order, positions before shapes, later ones overriding earlier ones.
    """
    polygons = [list(p) for p in layout.polygons]
    origins = list(layout.origins)
    properties = resolver.properties()
    for place in spec.positions:
        fx = compile_cell_formula(place.x, properties, "position")
        fy = compile_cell_formula(place.y, properties, "position")
        for cell in sorted(resolver.cells(place.cells, None)):
            at = layout.attrs[cell]
            x, y = fx(at), fy(at)
            if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) or not isinstance(y, int):
                raise RulesSemanticError(f"the position of cell {layout.names[cell]} is not a pair of numbers",
                                         place.loc, expected="whole-number formulas over file, rank and attributes")
            ox, oy = origins[cell]
            polygons[cell] = [(px + x - ox, py + y - oy) for px, py in polygons[cell]]
            origins[cell] = (x, y)
    for shape in spec.shapes:
        if len(shape.points) < 3:
            raise RulesSemanticError("a cell shape needs at least three corners", shape.loc)
        for cell in resolver.cells(shape.cells, None):
            ox, oy = origins[cell]
            polygons[cell] = [(ox + px, oy + py) for px, py in shape.points]
    return polygons
