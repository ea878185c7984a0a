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
(``n ne se s sw nw``) and six diagonal (``nne e sse ssw w nnw``) ones. Coordinate offsets
(``"(dx,dy)"`` labels, used by Betza and ``leap``) are derived on demand.
The networkx ``MultiDiGraph`` (:attr:`Board.graph`) holds the same steps as
labelled edges, for validation, analysis and drawing; the move generator
never walks it, so it is built (and networkx imported) only when asked for.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import Loc, RulesSemanticError, UnsupportedError, unknown_name

from .expressions import compile_cell_formula

if TYPE_CHECKING:
    import networkx as nx

GRID_DIRECTIONS: dict[str, tuple[int, int, str]] = {
    "n": (0, 1, "orth"), "e": (1, 0, "orth"), "s": (0, -1, "orth"), "w": (-1, 0, "orth"),
    "ne": (1, 1, "diag"), "se": (1, -1, "diag"), "sw": (-1, -1, "diag"), "nw": (-1, 1, "diag"),
}

# Hex boards (flat-topped cells in vertical files, coordinates (file, h) with
# h in half-cells): six orthogonal steps through an edge, six diagonal steps
# through a corner.
HEX_DIRECTIONS: dict[str, tuple[int, int, str]] = {
    "n": (0, 2, "orth"), "ne": (1, 1, "orth"), "se": (1, -1, "orth"),
    "s": (0, -2, "orth"), "sw": (-1, -1, "orth"), "nw": (-1, 1, "orth"),
    "nne": (1, 3, "diag"), "e": (2, 0, "diag"), "sse": (1, -3, "diag"),
    "ssw": (-1, -3, "diag"), "w": (-2, 0, "diag"), "nnw": (-1, 3, "diag"),
}
HEX_COLOURS = ("light", "mid", "dark")

FILE_LETTERS = string.ascii_lowercase
HEX_FILE_LETTERS = "abcdefghiklmnopqrstuvwxyz"  # hex-chess convention: no file j


def file_letter(x: int, letters: str = FILE_LETTERS) -> str:
    """The name of file ``x`` (0 -> a); files past the last letter get two letters."""
    if x < len(letters):
        return letters[x]
    return letters[x // len(letters) - 1] + letters[x % len(letters)]


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
    index: dict[str, int] = field(default_factory=dict)
    at: dict[tuple[int, int], int] = field(default_factory=dict)
    geo_at: dict[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {name: i for i, name in enumerate(self.names)}
        self.at = {xy: i for i, xy in enumerate(self.coords)}
        self.geo_at = {xy: i for i, xy in enumerate(self.geo)}

    def __len__(self) -> int:
        return len(self.names)

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
        """True when every cell of the bounding grid exists (FEN's own shape)."""
        return len(self.names) == self.files * self.ranks

    def offset(self, cell: int, dx: int, dy: int) -> int:
        """The cell at step offset (dx, dy) from ``cell`` (in ``geo`` coordinates), or -1."""
        x, y = self.geo[cell]
        return self.geo_at.get((x + dx, y + dy), -1)

    @property
    def square(self) -> bool:
        """A square grid (Betza notation's home), as opposed to a hex board."""
        return self.directions.get("n", (0, 0, ""))[:2] == (0, 1)

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

        Computed with networkx on the compiled graph; none of them is an
        error (a board may have a cell only knights reach), but each is
        worth a look when designing a board.
        """
        import networkx as nx

        graph = self.graph
        notes = []
        isolated = [self.names[c] for c in graph.nodes if graph.degree(c) == 0]
        if isolated:
            notes.append(f"cells with no step to or from them: {', '.join(isolated)}")
        parts = list(nx.weakly_connected_components(graph))
        if len(parts) > 1:
            sizes = sorted((len(p) for p in parts), reverse=True)
            notes.append(f"the board falls into {len(parts)} parts by single steps (sizes {sizes})")
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
        if kind == "rect":
            a, b = attrs[self.cell(term.a, term.loc)], attrs[self.cell(term.b, term.loc)]
            files = range(min(a["file"], b["file"]), max(a["file"], b["file"]) + 1)
            ranks = range(min(a["rank"], b["rank"]), max(a["rank"], b["rank"]) + 1)
            return frozenset(i for i, at in enumerate(attrs) if at["file"] in files and at["rank"] in ranks)
        if kind in ("rank", "ranks"):
            for rank in (term.lo, term.hi):
                if not 1 <= rank <= self.ranks:
                    raise RulesSemanticError(f"no rank {rank} on this board", term.loc,
                                             expected=f"a rank from 1 to {self.ranks}")
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


@dataclass
class _Layout:
    """What a generator makes: cells with coordinates, names, attributes, steps and shapes.

    ``coords`` are logical, (file index, rank index) from 0; ``geo`` are the
    coordinates that direction steps and leaps add to (the same on grids;
    (file, half-cell height) on hex boards).
    """

    coords: list[tuple[int, int]]
    geo: list[tuple[int, int]]
    names: list[str]
    attrs: list[dict[str, object]]
    files: int
    ranks: int
    file_names: list[str]
    directions: dict[str, tuple[int, int, str]]
    polygons: list[list[tuple[float, float]]]
    origins: list[tuple[float, float]]
    """Each cell's drawing position: the point ``position`` moves and ``shape`` corners are relative to."""
    axial: bool = False
    """Direction-table vectors are axial hex vectors (converted to ``geo`` steps), not (file, rank) deltas."""

    def keep(self, cells: list[int]) -> "_Layout":
        """The layout restricted to ``cells`` (in that order)."""
        pick = lambda seq: [seq[i] for i in cells]  # noqa: E731
        return _Layout(pick(self.coords), pick(self.geo), pick(self.names), pick(self.attrs), self.files,
                       self.ranks, self.file_names, self.directions, pick(self.polygons), pick(self.origins),
                       self.axial)


def _grid(files: int, ranks: int) -> _Layout:
    coords = [(x, y) for y in range(ranks) for x in range(files)]
    return _Layout(
        coords, coords, [f"{file_letter(x)}{y + 1}" for x, y in coords],
        [{"file": x + 1, "rank": y + 1, "colour": "dark" if (x + y) % 2 == 0 else "light"} for x, y in coords],
        files, ranks, [file_letter(x) for x in range(files)], GRID_DIRECTIONS,
        [[(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)] for x, y in coords],
        [(x, y) for x, y in coords])


def _ragged(lengths: list[int]) -> _Layout:
    """The grid of ``len(lengths)`` files and the greatest length, keeping ranks 1..N of each file."""
    grid = _grid(len(lengths), max(lengths))
    return grid.keep([i for i, (x, y) in enumerate(grid.coords) if y < lengths[x]])


def _hex(radius: int) -> _Layout:
    """A hexagon of hexagons with ``radius`` cells a side (Glinski's board: radius 6, 91 cells).

    Files are vertical, named a, b, ... without j; ranks count from 1 at the
    bottom of each file. Coordinates are (file, h), h in half-cells from the
    bottom of the board; the three cell colours follow h mod 3.
    """
    size = 2 * radius - 1
    centre = radius - 1
    r = 1 / 3 ** 0.5  # circumradius of a cell one unit high
    coords, geo, names, attrs, polygons = [], [], [], [], []
    for x in range(size):
        for rank in range(1, radius + min(x, size - 1 - x) + 1):
            h = 2 * (rank - 1) + abs(x - centre)
            coords.append((x, rank - 1))
            geo.append((x, h))
            names.append(f"{file_letter(x, HEX_FILE_LETTERS)}{rank}")
            attrs.append({"file": x + 1, "rank": rank, "colour": HEX_COLOURS[h % 3]})
            cx, cy = 1.5 * r * x, h / 2 + 0.5
            polygons.append([(cx - r, cy), (cx - r / 2, cy - 0.5), (cx + r / 2, cy - 0.5), (cx + r, cy),
                             (cx + r / 2, cy + 0.5), (cx - r / 2, cy + 0.5)])
    order = sorted(range(len(coords)), key=lambda i: (attrs[i]["rank"], attrs[i]["file"]))  # rank-major
    origins = [(1.5 * r * x, h / 2 + 0.5) for x, h in geo]  # cell centres
    layout = _Layout(coords, geo, names, attrs, size, size, [file_letter(x, HEX_FILE_LETTERS) for x in range(size)],
                     HEX_DIRECTIONS, polygons, origins, axial=True)
    return layout.keep(order)


def _generate(spec: S.BoardSpec, variant_loc: Loc | None) -> _Layout:
    gen = spec.generator
    if gen is None:
        if not spec.cells:
            raise RulesSemanticError("the board has no cells", variant_loc,
                                     expected="a board block with a generator such as 'grid 8 x 8'")
        raise UnsupportedError("boards of explicit cells are not run by the interpreter yet", spec.cells[0].loc)
    if isinstance(gen, S.GridGen):
        if gen.files < 1 or gen.ranks < 1 or gen.files * gen.ranks > 4096:
            raise RulesSemanticError(f"a grid of {gen.files} x {gen.ranks} cells is not allowed", gen.loc,
                                     expected="between 1 and 4096 cells")
        return _grid(gen.files, gen.ranks)
    if isinstance(gen, S.HexGen):
        if not 2 <= gen.radius <= 20:
            raise RulesSemanticError(f"a hex board of radius {gen.radius} is not allowed", gen.loc,
                                     expected="a radius from 2 to 20")
        return _hex(gen.radius)
    if isinstance(gen, S.RaggedGen):
        if not gen.lengths or min(gen.lengths) < 1 or sum(gen.lengths) > 4096:
            raise RulesSemanticError("a ragged board needs files of at least one cell, 4096 cells in all",
                                     gen.loc, expected="lengths such as 'ragged lengths 3, 4, 5'")
        return _ragged(gen.lengths)
    raise UnsupportedError(f"{gen.kind} boards are not run by the interpreter yet", gen.loc)


def compile_board(spec: S.BoardSpec, armies: list[str], variant_loc: Loc | None = None) -> Board:
    """Compile a board spec; ``armies`` are the army names per-army zones may use.

    Statements are evaluated in the order of docs/language.md: the
    generator, ``remove``, ``set``, zones, ``directions``, then ``position``
    and ``shape``. Raises :class:`RulesSemanticError` for a cell set naming
    a cell, file, rank, cell type, zone or army that does not exist, and
    :class:`UnsupportedError` for board constructs the interpreter cannot
    run yet.
    """
    layout = _generate(spec, variant_loc)
    files, ranks = layout.files, layout.ranks
    on_full = CellResolver(layout.names, layout.coords, layout.attrs, files, ranks, {}, armies, layout.file_names)
    removed: set[int] = set()
    for cellset in spec.removes:
        removed |= on_full.cells(cellset, None)
    layout = layout.keep([i for i in range(len(layout.coords)) if i not in removed])
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
    steps, kinds, vectors, families = _directions(spec, layout, resolver)
    polygons = _drawing(spec, layout, resolver)
    tables = frozenset(label for family in spec.directions for label in families[family.name])
    return Board(names, coords, geo, attrs, polygons, files, ranks, steps, kinds, vectors, zones,
                 resolver, layout.file_names, families, tables)


def _directions(spec: S.BoardSpec, layout: _Layout, resolver: CellResolver):
    """Step tables of every direction label: the generator's, then the ``directions`` families.

    Returns ``steps`` (label -> per-cell target or -1), ``kinds`` (label ->
    edge kind), ``vectors`` (the generator's directions whose family was not
    replaced: label -> (dx, dy, kind)) and ``families`` (family -> labels).
    A declared family with the name of a built-in one (``orth``, ``diag``)
    replaces it. Rows apply in order (a later row wins for a label on a
    cell); a step to a cell that does not exist is dropped. The tables are
    complete here: nothing looks a cell type up later.
    """
    geo = layout.geo
    geo_at = {xy: i for i, xy in enumerate(geo)}
    declared = {family.name for family in spec.directions}
    vectors = {label: v for label, v in layout.directions.items() if v[2] not in declared}
    families: dict[str, tuple[str, ...]] = {}
    for label, (_, _, kind) in vectors.items():
        families[kind] = families.get(kind, ()) + (label,)
    steps: dict[str, list[int]] = {}
    kinds: dict[str, str] = {}
    for label, (dx, dy, kind) in vectors.items():
        steps[label] = [geo_at.get((x + dx, y + dy), -1) for x, y in geo]
        kinds[label] = kind
    owner = {label: kind for label, (_, _, kind) in vectors.items()}
    for family in spec.directions:
        labels: dict[str, None] = {}
        for row in family.rows:
            cells = resolver.cells(row.cells, None)
            for entry in row.entries:
                if owner.get(entry.label, family.name) != family.name:
                    raise RulesSemanticError(
                        f"direction '{entry.label}' already belongs to family '{owner[entry.label]}'", entry.loc,
                        expected="a label of its own for each family", hint="labels are case-sensitive")
                owner[entry.label] = family.name
                labels[entry.label] = None
                dx, dy = (entry.dx, entry.dx + 2 * entry.dy) if layout.axial else (entry.dx, entry.dy)
                table = steps.setdefault(entry.label, [-1] * len(geo))
                for cell in cells:
                    x, y = geo[cell]
                    table[cell] = geo_at.get((x + dx, y + dy), -1)
                if entry.edge_kind is not None or entry.label not in kinds:
                    kinds[entry.label] = entry.edge_kind or family.name
        families[family.name] = tuple(labels)
    return steps, kinds, vectors, families


def _drawing(spec: S.BoardSpec, layout: _Layout, resolver: CellResolver) -> list[list[tuple[float, float]]]:
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
