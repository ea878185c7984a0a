"""Where things go in a picture of a board: pieces in their cells, labels along the edges, pixels.

Pure geometry in board coordinates (y grows upwards), shared by the SVG
writer :mod:`interpreter.drawing.render`: the point of a cell a piece is
centred on and how big it may be (:func:`anchor`, :func:`piece_radii`),
the file and rank names along the edges (:func:`edge_labels`), and the
mapping to SVG pixels (:class:`Frame`). Nothing here knows a game by name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from weakref import WeakKeyDictionary

from interpreter.compiler.board import Board, centroid

UNIT = 48.0
"""Pixels per unit of board coordinates (one grid square)."""

Point = tuple[float, float]


def inside(polygon: list[Point], x: float, y: float) -> bool:
    """Is (x, y) inside the polygon (even-odd rule)?"""
    found = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            found = not found
    return found


def inradius(polygon: list[Point], centre: Point) -> float:
    """The distance from ``centre`` to the nearest edge of ``polygon``: how big a piece may be."""
    px, py = centre
    best = math.inf
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
        best = min(best, math.hypot(px - (x0 + t * dx), py - (y0 + t * dy)))
    return best


def anchor(polygon: list[Point]) -> tuple[Point, float]:
    """Where a piece goes in a cell, and how big it may be: the point inside the polygon farthest
    from its edges (the centroid for convex cells) and that distance.

    Of the points nearly as far from the edges as the farthest (a chevron's band is as wide in its
    arms as at its apex), the one nearest the cell's middle is taken, a horizontal offset counting
    twice a vertical one: pieces stand upright, so a chevron's piece sits on its axis, not in an arm.
    The result depends only on the shape, so it is computed once per shape and moved to the cell.
    """
    x0, y0 = polygon[0]
    (x, y), radius = _shape_anchor(tuple((round(x - x0, 9), round(y - y0, 9)) for x, y in polygon))
    return (x + x0, y + y0), radius


@lru_cache(maxsize=256)
def _shape_anchor(shape: tuple[Point, ...]) -> tuple[Point, float]:
    polygon = list(shape)
    middle = centroid(polygon)
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    steps = 24
    points = [middle] + [(min(xs) + (max(xs) - min(xs)) * i / steps, min(ys) + (max(ys) - min(ys)) * j / steps)
                         for i in range(1, steps) for j in range(1, steps)]
    scored = [(inradius(polygon, p), p) for p in points if inside(polygon, *p)]
    if not scored:
        return middle, 0.0
    widest = max(radius for radius, _ in scored)
    near = [(radius, p) for radius, p in scored if radius >= widest * 0.95]
    radius, point = min(near, key=lambda rp: (math.hypot(2 * (rp[1][0] - middle[0]), rp[1][1] - middle[1]),
                                              -rp[0], rp[1]))
    return point, radius


def _type_of(board: Board, cell: int) -> str | None:
    kind = board.attributes[cell].get("type")
    return None if kind is None else str(kind)


def piece_radii(board: Board, radii: list[float]) -> list[float]:
    """How big a piece is drawn on each cell (a radius, in board units), given each cell's room.

    One size on every cell, so that a piece looks the same wherever it stands: the room of the
    cells of the narrowest type (cells without a ``type`` form one group), but at least 0.8 of the
    room of the roomiest type's, so that narrow cells (chevrons) do not shrink every piece to an
    unreadable size (a piece on them reaches a little past their sides).
    """
    smallest: dict[str | None, float] = {}
    for cell, radius in enumerate(radii):
        key = _type_of(board, cell)
        smallest[key] = min(smallest.get(key, math.inf), radius)
    size = max(min(smallest.values()), 0.8 * max(smallest.values()))
    return [size] * len(radii)


@dataclass(frozen=True)
class Label:
    """A file or rank name drawn beyond the edge of the board, centred on ``at`` (board units)."""

    text: str
    at: Point
    size: float


def edge_labels(board: Board) -> list[Label]:
    """File names beyond the first cell of each file (its lowest rank), rank names beyond the first
    cell of each rank (its first file). Only generated cells have files and ranks; an explicit cell
    (Omega Chess's wizard squares) is named inside it instead.

    A label stands just beyond the first cell, away from the second (for a line of one cell, as the
    line before it goes), and clear of the first cell so that no label sits under a piece. On a
    line drawn straight, with even steps, it stands where
    the line's cell before the board's lowest rank (or first file) would be drawn, so that the
    labels of a board with cut corners (Superchess) still form one row along each edge instead of
    crowding into the corners, turned or not (a hex board's bent ranks are labelled at their ends).
    """
    files: dict[str, list[tuple[int, int]]] = {}
    ranks: dict[str, list[tuple[int, int]]] = {}
    for cell, parts in enumerate(board.parts):
        if parts is None:
            continue
        file, rank = parts
        x, y = board.coords[cell]
        files.setdefault(file, []).append((y, cell))
        ranks.setdefault(rank, []).append((x, cell))
    anchors = [anchor(polygon) for polygon in board.polygons]
    centres = [point for point, _ in anchors]          # where the pieces stand: labels line up with them
    rooms = sorted(room for _, room in anchors)
    size = max(0.6 * rooms[len(rooms) // 2], 0.3)
    first_rank = min(y for _, y in board.coords)
    first_file = min(x for x, _ in board.coords)
    wanted = []    # (gap to the edge's row, name, positions from next to the first cell out to that row)
    for lines, before, step in ((files, first_rank - 1, (0.0, 1.0)), (ranks, first_file - 1, (1.0, 0.0))):
        for name in sorted(lines, key=lambda n: (len(n), n) if lines is files else int(n)):
            cells = sorted(lines[name])
            index, first = cells[0]
            (x, y) = centres[first]
            if len(cells) > 1:
                later, second = cells[1]
                sx, sy = centres[second]
                step = ((sx - x) / (later - index), (sy - y) / (later - index))
            # else a line of one cell: the way the line before it goes (a hex board's top rank
            # continues the row of rank labels), or below it for a file and left of it for a rank
            length = math.hypot(*step) or 1.0
            ux, uy = -step[0] / length, -step[1] / length
            reach = max((vx - x) * ux + (vy - y) * uy for vx, vy in board.polygons[first]) + size * 0.7
            gap = index - before - 1 if len(cells) > 1 and _straight(cells, centres, step) else 0
            spots = [max((g + 0.62) * length, reach) for g in range(gap + 1)]
            wanted.append((gap, name, [(x + ux * d, y + uy * d) for d in spots]))
    # Labels on the edge's row first; a label of a cut corner then takes the spot nearest its line's
    # first cell that is clear of every label placed (the row's spot, at worst), so that the corner
    # labels neither float off the board nor crowd each other.
    placed: list[Label] = []
    for _, name, spots in sorted(wanted, key=lambda w: w[0]):
        at = next((p for p in spots if not any(_overlap(name, p, lb, size) for lb in placed)), spots[-1])
        placed.append(Label(name, at, size))
    order = {name: i for i, (_, name, _) in enumerate(wanted)}
    return sorted(placed, key=lambda lb: order[lb.text])


def _overlap(text: str, at: Point, label: Label, size: float) -> bool:
    """Would a label ``text`` at ``at`` come near ``label``: their text boxes overlap with a little
    room, or their centres are closer than the boxes' half-widths (a board drawn turned turns them)?"""
    w, w2, h = size * 0.3 * len(text), size * 0.3 * len(label.text), size * 0.4
    dx, dy = abs(at[0] - label.at[0]), abs(at[1] - label.at[1])
    return (dx < (w + w2) * 1.3 and dy < h * 2 * 1.3) or math.hypot(dx, dy) < (w + w2 + h) * 1.2


def _straight(cells: list[tuple[int, int]], centres: list[Point], step: Point) -> bool:
    """Are the cells of a line (``(index, cell)``, sorted) drawn on a straight line, ``step`` apart
    per index?"""
    index, first = cells[0]
    x, y = centres[first]
    return all(math.hypot(centres[cell][0] - x - (i - index) * step[0],
                          centres[cell][1] - y - (i - index) * step[1]) < 1e-6 for i, cell in cells)


class Frame:
    """Board coordinates -> SVG pixels: the bounding box of ``polygons`` and ``labels``, plus ``margin``."""

    def __init__(self, polygons, labels: list[Label], margin: float) -> None:
        xs = [x for poly in polygons for x, _ in poly]
        ys = [y for poly in polygons for _, y in poly]
        for label in labels:
            half = label.size * 0.4 * max(len(label.text), 1.5)
            xs += [label.at[0] - half, label.at[0] + half]
            ys += [label.at[1] - label.size * 0.6, label.at[1] + label.size * 0.6]
        self.min_x, self.max_y = min(xs), max(ys)
        self.width = (max(xs) - self.min_x) * UNIT
        self.height = (self.max_y - min(ys)) * UNIT
        self.margin = margin

    def point(self, x: float, y: float) -> Point:
        return (self.margin + (x - self.min_x) * UNIT, self.margin + (self.max_y - y) * UNIT)


@dataclass(frozen=True)
class Layout:
    """Where pieces and labels go on one board: each cell's piece centre and radius, the edge labels."""

    centres: list[Point]
    radii: list[float]
    labels: list[Label]


def board_layout(game) -> Layout:
    """The :class:`Layout` of ``game``'s board, computed once per game (a server draws it after every move)."""
    layout = _LAYOUTS.get(game)
    if layout is None:
        board = game.board
        anchors = [anchor(polygon) for polygon in board.polygons]
        layout = Layout([point for point, _ in anchors], piece_radii(board, [radius for _, radius in anchors]),
                        edge_labels(board))
        _LAYOUTS[game] = layout
    return layout


_LAYOUTS: WeakKeyDictionary = WeakKeyDictionary()  # Game -> Layout
