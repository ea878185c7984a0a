"""Board generators: the cells of a board before ``remove``, attributes and directions.

A :class:`Layout` is what the ``grid``, ``ragged`` and ``hex`` generators
make, with the explicit ``cell NAME at (X, Y)`` cells added to it (or
alone, on a board without a generator), and, for ``wrap``, the periods of
its coordinates. Every cell has logical coordinates ``coords`` (file index,
rank index, from 0 at ``a1``), step coordinates ``geo`` (what direction
steps and leaps add to: the same on grids; file and half-cell height on hex
boards), a name, attributes, a polygon and a drawing origin. Generated
cells also know the file and rank parts of their names, which move
notation writes; explicit cells are known only by their whole name.

A grid of levels (``grid F x R x L``, three dimensions) is held in the same
two coordinates: a cell of level z (0 at the bottom), file x and rank y
has ``coords`` (z * (F + 1) + x, y), the column of the picture that draws
the levels side by side, one file apart, and step coordinates ``geo``
(z * 2F + x, y): a step of (dx, dy, dz) adds (dx + 2F * dz, dy) to them
(:func:`level_step`), and no step of fewer than F files can reach another
level's cells by crossing the gap of F files between two levels.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from dsl import spec as S
from dsl.errors import Loc, RulesSemanticError

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
HEX_CIRCUMRADIUS = 1 / 3 ** 0.5  # of a hex cell one unit high

FILE_LETTERS = string.ascii_lowercase
LEVEL_LETTERS = string.ascii_uppercase
"""The names of the levels of a grid of three dimensions, from the bottom: ``Aa1`` is level A, file a, rank 1."""
HEX_FILE_LETTERS = "abcdefghiklmnopqrstuvwxyz"  # hex-chess convention: no file j

CELL_NAME = re.compile(r"[a-z]+[0-9]+")
"""What an explicit cell may be called: letters and digits, as moves write cells (``w1``, ``z10``)."""


def file_letter(x: int, letters: str = FILE_LETTERS) -> str:
    """The name of file ``x`` (0 -> a); files past the last letter get two letters."""
    if x < len(letters):
        return letters[x]
    return letters[x // len(letters) - 1] + letters[x % len(letters)]


@dataclass
class Layout:
    """What a generator makes, with the explicit cells: coordinates, names, attributes, shapes.

    ``files`` and ``ranks`` are the generator's (for an explicit board: its
    bounding box); explicit cells may lie outside them (Omega Chess's wizard
    squares). ``parts`` holds each cell's (file, rank) name parts, None for
    an explicit cell. ``wrap`` holds the periods of ``geo`` x and y (0: the
    coordinate does not wrap).
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
    parts: list[tuple[str, str] | None]
    axial: bool = False
    """Direction-table vectors are axial hex vectors (converted to ``geo`` steps), not (file, rank) deltas."""
    wrap: tuple[int, int] = (0, 0)
    hex_centre: int | None = None
    """On a hex board, the index of its middle file (a cell's height in half-cells depends on it)."""
    decls: list[S.CellDecl | None] = field(default_factory=list)
    """The ``cell`` declaration of each explicit cell (None for a generated one), for errors."""
    levels: int = 1
    """The levels of a grid of three dimensions (1: a flat board)."""

    def keep(self, cells: list[int]) -> "Layout":
        """The layout restricted to ``cells`` (in that order)."""
        pick = lambda seq: [seq[i] for i in cells]  # noqa: E731
        return Layout(pick(self.coords), pick(self.geo), pick(self.names), pick(self.attrs), self.files,
                      self.ranks, self.file_names, self.directions, pick(self.polygons), pick(self.origins),
                      pick(self.parts), self.axial, self.wrap, self.hex_centre, pick(self.decls), self.levels)


def _square(x: float, y: float) -> list[tuple[float, float]]:
    return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


def _grid(files: int, ranks: int) -> Layout:
    coords = [(x, y) for y in range(ranks) for x in range(files)]
    return Layout(
        coords, list(coords), [f"{file_letter(x)}{y + 1}" for x, y in coords],
        [{"file": x + 1, "rank": y + 1, "colour": "dark" if (x + y) % 2 == 0 else "light"} for x, y in coords],
        files, ranks, [file_letter(x) for x in range(files)], GRID_DIRECTIONS,
        [_square(x, y) for x, y in coords], [(x, y) for x, y in coords],
        [(file_letter(x), str(y + 1)) for x, y in coords], decls=[None] * len(coords))


def _levels(files: int, ranks: int, levels: int) -> Layout:
    """``levels`` grids of ``files`` x ``ranks`` stacked (module docstring): cells named level letter,
    file letter, rank (``Aa1`` ... ``Ee5``), numbered level by level, each level rank by rank. A
    cell's colour alternates along all three axes (``Aa1`` dark); it has no directions of its own:
    ``include space`` gives them."""
    cells = [(x, y, z) for z in range(levels) for y in range(ranks) for x in range(files)]
    coords = [(z * (files + 1) + x, y) for x, y, z in cells]
    return Layout(
        coords, [(z * 2 * files + x, y) for x, y, z in cells],
        [f"{LEVEL_LETTERS[z]}{file_letter(x)}{y + 1}" for x, y, z in cells],
        [{"file": x + 1, "rank": y + 1, "level": z + 1, "colour": "dark" if (x + y + z) % 2 == 0 else "light"}
         for x, y, z in cells],
        files, ranks, [file_letter(x) for x in range(files)], {},
        [_square(x, y) for x, y in coords], [(x, y) for x, y in coords],
        [(f"{LEVEL_LETTERS[z]}{file_letter(x)}", str(y + 1)) for x, y, z in cells], decls=[None] * len(cells),
        levels=levels)


def level_step(step: tuple[int, ...], files: int, levels: int, loc: Loc | None) -> tuple[int, int]:
    """A step of (files, ranks) or (files, ranks, levels) -> the step in ``geo`` coordinates of a board
    of ``files`` files and ``levels`` levels (1: a flat board, where a step has no level part).

    Raises :class:`RulesSemanticError` for a level part on a flat board, and, on a board of levels,
    for a step of ``files`` files or more, which lands on no cell and would cross into another level.
    """
    dx, dy, dz = (*step, 0) if len(step) == 2 else step
    if levels == 1:
        if dz:
            raise RulesSemanticError(f"the step {_written(step)} moves between levels, and this board is flat",
                                     loc, expected="a step (files, ranks)",
                                     hint="a board of levels is a grid of three numbers: grid 5 x 5 x 5")
        return (dx, dy)
    if abs(dx) >= files:
        raise RulesSemanticError(f"the step {_written(step)} moves {abs(dx)} files, on a board {files} files wide",
                                 loc, expected=f"at most {files - 1} files either way")
    return (dx + 2 * files * dz, dy)


def _written(step: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in step) + ")"


def _ragged(lengths: list[int]) -> Layout:
    """The grid of ``len(lengths)`` files and the greatest length, keeping ranks 1..N of each file."""
    grid = _grid(len(lengths), max(lengths))
    return grid.keep([i for i, (x, y) in enumerate(grid.coords) if y < lengths[x]])


def _hexagon(cx: float, cy: float) -> list[tuple[float, float]]:
    r = HEX_CIRCUMRADIUS
    return [(cx - r, cy), (cx - r / 2, cy - 0.5), (cx + r / 2, cy - 0.5), (cx + r, cy),
            (cx + r / 2, cy + 0.5), (cx - r / 2, cy + 0.5)]


def _hex(radius: int) -> Layout:
    """A hexagon of hexagons with ``radius`` cells a side (Glinski's board: radius 6, 91 cells).

    Files are vertical, named a, b, ... without j; ranks count from 1 at the
    bottom of each file. Coordinates are (file, h), h in half-cells from the
    bottom of the board; the three cell colours follow h mod 3.
    """
    size = 2 * radius - 1
    centre = radius - 1
    coords, geo, names, attrs, polygons, parts = [], [], [], [], [], []
    for x in range(size):
        for rank in range(1, radius + min(x, size - 1 - x) + 1):
            h = 2 * (rank - 1) + abs(x - centre)
            coords.append((x, rank - 1))
            geo.append((x, h))
            letter = file_letter(x, HEX_FILE_LETTERS)
            names.append(f"{letter}{rank}")
            parts.append((letter, str(rank)))
            attrs.append({"file": x + 1, "rank": rank, "colour": HEX_COLOURS[h % 3]})
            polygons.append(_hexagon(1.5 * HEX_CIRCUMRADIUS * x, h / 2 + 0.5))
    order = sorted(range(len(coords)), key=lambda i: (attrs[i]["rank"], attrs[i]["file"]))  # rank-major
    origins = [(1.5 * HEX_CIRCUMRADIUS * x, h / 2 + 0.5) for x, h in geo]  # cell centres
    layout = Layout(coords, geo, names, attrs, size, size, [file_letter(x, HEX_FILE_LETTERS) for x in range(size)],
                    HEX_DIRECTIONS, polygons, origins, parts, axial=True, hex_centre=centre,
                    decls=[None] * len(coords))
    return layout.keep(order)


def _empty() -> Layout:
    """The layout of a board without a generator, before its explicit cells."""
    return Layout([], [], [], [], 0, 0, [], {}, [], [], [])


def _generated(spec: S.BoardSpec, variant_loc: Loc | None) -> Layout:
    gen = spec.generator
    if gen is None:
        if not spec.cells:
            raise RulesSemanticError("the board has no cells", variant_loc,
                                     expected="a board block with a generator such as 'grid 8 x 8', or cells")
        return _empty()
    if isinstance(gen, S.GridGen):
        size = f"{gen.files} x {gen.ranks}" + (f" x {gen.levels}" if gen.levels != 1 else "")
        if min(gen.files, gen.ranks, gen.levels) < 1 or gen.files * gen.ranks * gen.levels > 4096:
            raise RulesSemanticError(f"a grid of {size} cells is not allowed", gen.loc,
                                     expected="at least one file, rank and level; at most 4096 cells")
        return _levels(gen.files, gen.ranks, gen.levels) if gen.levels > 1 else _grid(gen.files, gen.ranks)
    if isinstance(gen, S.HexGen):
        if not 2 <= gen.radius <= 20:
            raise RulesSemanticError(f"a hex board of radius {gen.radius} is not allowed", gen.loc,
                                     expected="a radius from 2 to 20")
        return _hex(gen.radius)
    if not gen.lengths or min(gen.lengths) < 1 or sum(gen.lengths) > 4096:
        raise RulesSemanticError("a ragged board needs files of at least one cell, 4096 cells in all",
                                 gen.loc, expected="lengths such as 'ragged lengths 3, 4, 5'")
    return _ragged(gen.lengths)


def generate(spec: S.BoardSpec, variant_loc: Loc | None) -> Layout:
    """The cells of a board: its generator's, then its explicit ``cell``s, with its ``wrap``.

    An explicit cell at (X, Y) stands where a generated cell of file index X
    and rank index Y would (a grid: the unit square at (X, Y); a hex board:
    file X, rank Y + 1 of that file, continued past the board's edge); its
    attributes ``file`` and ``rank`` are X + 1 and Y + 1 and its colour follows
    the generator's rule. A board of explicit cells only has no directions of
    its own, and its files and ranks are its bounding box.
    """
    layout = _generated(spec, variant_loc)
    taken = set(layout.names)
    for decl in spec.cells:
        _add_cell(layout, decl, taken)
    if spec.generator is None:
        xs, ys = [x for x, _ in layout.coords], [y for _, y in layout.coords]
        layout.files, layout.ranks = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    if spec.wrap:
        _wrap(spec, layout)
    return layout


def _add_cell(layout: Layout, decl: S.CellDecl, taken: set[str]) -> None:
    if layout.levels > 1:
        raise RulesSemanticError(f"the cell '{decl.name}' is declared on a board of levels", decl.loc,
                                 hint="a grid of three dimensions has its generated cells only")
    if not CELL_NAME.fullmatch(decl.name):
        raise RulesSemanticError(f"the cell name '{decl.name}' cannot be written in moves", decl.loc,
                                 expected="lower-case letters and then digits, such as w1 or z10")
    if decl.name in taken:
        raise RulesSemanticError(f"there is already a cell named '{decl.name}'", decl.loc,
                                 hint="give the explicit cell a name of its own")
    if not (float(decl.x).is_integer() and float(decl.y).is_integer()):
        raise RulesSemanticError("the coordinates of a cell are whole numbers", decl.loc,
                                 hint="'position' and 'shape' draw a cell anywhere")
    taken.add(decl.name)
    x, y = int(decl.x), int(decl.y)
    if layout.axial:
        h = 2 * y + abs(x - (layout.hex_centre or 0))
        geo, colour = (x, h), HEX_COLOURS[h % 3]
        origin = (1.5 * HEX_CIRCUMRADIUS * x, h / 2 + 0.5)
        polygon = _hexagon(*origin)
    else:
        geo, colour, origin, polygon = (x, y), "dark" if (x + y) % 2 == 0 else "light", (x, y), _square(x, y)
    layout.coords.append((x, y))
    layout.geo.append(geo)
    layout.names.append(decl.name)
    layout.attrs.append({"file": x + 1, "rank": y + 1, "colour": colour})
    layout.polygons.append(polygon)
    layout.origins.append(origin)
    layout.parts.append(None)
    layout.decls.append(decl)


def _wrap(spec: S.BoardSpec, layout: Layout) -> None:
    """``wrap files`` / ``wrap ranks``: the grid's coordinates wrap round (a cylinder, a torus)."""
    where = spec.locs.get("wrap")
    if not isinstance(spec.generator, S.GridGen) or layout.levels > 1:
        raise RulesSemanticError("only a flat grid board can wrap", where, expected="a board with 'grid F x R'")
    outside = [d for d, (x, y) in zip(layout.decls, layout.coords)
               if d is not None and not (0 <= x < layout.files and 0 <= y < layout.ranks)]
    if outside:
        raise RulesSemanticError(f"the cell '{outside[0].name}' lies outside the grid of a board that wraps",
                                 outside[0].loc, hint="a wrapping board has no cells beyond its grid")
    layout.wrap = (layout.files if "files" in spec.wrap else 0, layout.ranks if "ranks" in spec.wrap else 0)
