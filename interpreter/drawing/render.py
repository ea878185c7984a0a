"""SVG pictures of boards and positions, drawn from the compiled board.

Everything is taken from the :class:`~interpreter.compiler.board.Board`: each cell's
polygon (so square grids, boards with holes, hex boards and free-form
cells are drawn alike), its ``colour`` attribute (``light``, ``dark``,
``mid`` or a CSS hex colour; cells without one are tinted by their
``type``), and its name for the coordinates. Nothing here knows a game by
name. Board coordinates grow upwards; the picture is drawn with the lowest
rank at the bottom.

What to draw on the board is a :class:`Diagram`: a stack of pieces per
cell (bottom first; every piece of a stack is drawn, smaller, the top one
standing on the others), pieces in hand per army, highlighted cells, marks
(the move diagrams of the documentation) and arrows. :func:`diagram_of`
makes one from a :class:`~interpreter.engine.position.Position`;
:func:`render_svg` draws it, placing pieces and labels with
:mod:`interpreter.drawing.geometry`. The output is deterministic: the same
input gives the same bytes.

Every cell is one ``<polygon class="cell ...">`` with ``id="cell-NAME"`` and
``data-cell="NAME"``, so tests, style sheets and scripts of a page can find
the cells.

The board's ``draw`` statements (:class:`~interpreter.compiler.board.BoardDrawing`) change the
picture: a ``plain`` board has one colour; on a board of ``points`` the cells are transparent (they
still take clicks) over a wooden rectangle, lines join the centres of cells that share an edge, and
pieces stand on those crossings; a ``river`` (``<g class="river">``) and palace ``diagonals``
(``<line class="diagonal">``) are drawn over the cells, under the pieces.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from dsl.colours import HEX as HEX_COLOUR
from dsl.errors import UsageError, suggest

from interpreter.compiler.game import Game
from interpreter.engine.stacking import lower_pieces
from .geometry import UNIT, Frame, Label, board_layout
from .piece_art import glyph_elements, image_name, piece_elements

CELL_COLOURS = {"light": "#f0d9b5", "dark": "#b58863", "mid": "#d7a86e"}
TYPE_TINTS = ["#e8e2cf", "#c9d8e8", "#d9e8c9", "#e8cfd8", "#d8cfe8", "#cfe8e3", "#e8dcc9", "#d0d0d0"]
ARMY_COLOURS = ["#fafafa", "#2a2a2a", "#d8b26e", "#8b4a2b", "#4a78b5", "#5a9a4a"]
NEUTRAL_COLOUR = "#f4c430"  # pieces of no army (neutral pieces)
OUTLINE = "#111111"
LABEL_COLOUR = "#555555"
HIGHLIGHT = "#f6e05e"
PLAIN_CELL = "#ecca8c"    # the one colour of a plain board's cells and of a board of points
BOARD_LINE = "#3d2b1a"    # a plain board's cell edges, a board of points' lines
RIVER = "#4f7fb0"         # the river's line on a board of squares
TEXT_FONTS = "Noto Serif CJK SC, Noto Sans CJK JP, WenQuanYi Zen Hei, DejaVu Sans, Arial, sans-serif"
ARROW = "#1f7a3d"
MARK_COLOURS = {"both": "#1f7a3d", "move": "#1f7a3d", "capture": "#c0392b", "special": "#1f5fa8"}
MARKS = tuple(MARK_COLOURS)
"""Marks of a move diagram: ``both`` (moves or captures there), ``move``
(only moves), ``capture`` (only captures), ``special`` (a special move:
first move only, en passant, ...)."""


@dataclass(frozen=True)
class PieceImage:
    """What to draw for one piece: its kind's ``name`` (picks the image), ``letter`` and ``army`` index;
    ``glyph``: the text drawn instead of the image ("" for none)."""

    name: str
    letter: str
    army: int
    glyph: str = ""


@dataclass
class Diagram:
    """Everything drawn on and beside a board.

    ``stacks[cell]``: the pieces on the cell, bottom first. ``hands[army]``:
    pieces in that army's hand (drawn only for armies listed).
    ``highlights``: cells tinted under the pieces. ``marks[cell]``: one of
    :data:`MARKS`. ``arrows``: ``(from_cell, to_cell)`` pairs. ``heat[cell]``:
    a CSS colour that replaces the cell's own (a heat map of what happened
    there), under everything else.
    """

    stacks: dict[int, tuple[PieceImage, ...]] = field(default_factory=dict)
    hands: dict[int, list[PieceImage]] = field(default_factory=dict)
    highlights: frozenset[int] = frozenset()
    marks: dict[int, str] = field(default_factory=dict)
    arrows: list[tuple[int, int]] = field(default_factory=list)
    heat: dict[int, str] = field(default_factory=dict)


def piece_image(game: Game, code: int) -> PieceImage:
    """The image of a piece code of ``game``."""
    return kind_image(game, game.code_kind[code], game.code_army[code])


def kind_image(game: Game, kind_index: int, army: int) -> PieceImage:
    """The image of a piece of kind ``kind_index`` of ``army`` (an army index; a neutral piece's is
    none of the armies'), with its glyph: the army's own, else the piece's, else none."""
    kind = game.kinds[kind_index]
    own = kind.spec.army_glyphs.get(game.armies[army].name) if 0 <= army < len(game.armies) else None
    return PieceImage(kind.name, kind.letter, army, own or kind.spec.glyph or "")


def diagram_of(position, highlights=(), arrows=(), marks=None) -> Diagram:
    """A diagram of ``position`` with optional extras.

    A cell's stack is drawn bottom first: in a stacking game the locked pieces
    under the top one are drawn too, so that every piece of a stack is visible. In a game with drops every army's hand is drawn, empty
    or not, so that a reader sees that the game has hands.
    """
    game = position.game
    stacks = {cell: tuple(piece_image(game, c) for c in (*lower_pieces(position, cell), code))
              for cell, code in enumerate(position.board) if code}
    hands: dict[int, list[PieceImage]] = {}
    if game.spec.drops is not None:
        hands = {army: [] for army in game.turn_order}
        for code, count in enumerate(position.hands):
            if code and count:
                hands[game.code_army[code]] += [piece_image(game, code)] * count
    return Diagram(stacks=stacks, hands=hands, highlights=frozenset(highlights), arrows=list(arrows),
                   marks=dict(marks or {}))


def army_colours(game: Game) -> list[str]:
    """The drawing colour of each army: its ``colour`` in the rules file, else a default by index."""
    colours = []
    for i, army in enumerate(game.spec.armies):
        colours.append(army.colour or ARMY_COLOURS[i % len(ARMY_COLOURS)])
    return colours


# ---------------------------------------------------------------- drawing


def _fmt(value: float, digits: int = 2) -> str:
    """A number with at most ``digits`` decimals, without trailing zeros (deterministic output)."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(frame: Frame, polygon) -> str:
    """A polygon's corners in pixels, as an SVG ``points`` attribute."""
    return " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in (frame.point(x, y) for x, y in polygon))


def _cell_fill(attributes: dict, type_tints: dict[str, str]) -> str:
    colour = attributes.get("colour")
    if isinstance(colour, str):
        if colour in CELL_COLOURS:
            return CELL_COLOURS[colour]
        if HEX_COLOUR.fullmatch(colour):
            return colour
    cell_type = attributes.get("type")
    if cell_type is not None:
        return type_tints[str(cell_type)]
    return CELL_COLOURS["light"]


def _luminance(colour: str) -> float:
    """Relative brightness 0..1 of a ``#rgb`` / ``#rrggbb`` colour (0.5 for anything else)."""
    if not HEX_COLOUR.fullmatch(colour):
        return 0.5
    digits = colour[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    r, g, b = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


FACING_ANGLES = {"n": 0, "e": 90, "s": 180, "w": 270}
"""How far (degrees, clockwise on the picture) a piece is turned on a board drawn with ``pieces facing
forward``, by its army's forward direction; a piece of an army with another forward is not turned."""


def _facing(game: Game, army: int) -> int:
    """The angle a piece of ``army`` is turned by (0 unless the board's pieces face forward)."""
    if not game.board.drawing.facing or not 0 <= army < len(game.armies):
        return 0
    return FACING_ANGLES.get(game.armies[army].forward or "n", 0)


def _piece_defs(game: Game, images: set[PieceImage], upright: bool = False) -> tuple[list[str], dict[PieceImage, str]]:
    """One ``<g>`` per distinct (army, piece) drawn, referenced by ``<use>``; turned towards its army's
    forward direction on a board whose pieces face forward, unless ``upright`` (the pieces without a board),
    whose ids are their own (``...-upright``): a page showing both pictures (the board and a hand) would
    otherwise draw the board's pieces with the first of two elements of one id, the upright one."""
    colours = army_colours(game)
    defs, ids = [], {}
    for image in sorted(images, key=lambda i: (i.army, i.name, i.letter)):
        body = colours[image.army % len(colours)] if image.army < len(colours) else NEUTRAL_COLOUR
        detail = "#f2f2f2" if _luminance(body) < 0.45 else OUTLINE
        slug = image_name(image.name) or re.sub(r"[^a-z0-9]+", "-", image.name.lower()) + "-" + image.letter.lower()
        angle = 0 if upright else _facing(game, image.army)
        ident = f"piece-{image.army}-{slug}" + ("-upright" if upright else "")
        ids[image] = ident
        if image.glyph:       # a light army's ink would not show on the ivory disc: dark ink for it
            art = glyph_elements(image.glyph, body if _luminance(body) < 0.6 else OUTLINE)
        else:
            art = piece_elements(image.name, image.letter, body, OUTLINE, detail)
        turn = f' transform="rotate({angle} 50 50)"' if angle else ""
        defs.append(f'<g id="{ident}"{turn}>{art}</g>')
    return defs, ids


def _use(ident: str, cx: float, cy: float, size: float) -> str:
    return (f'<use xlink:href="#{ident}" transform="translate({_fmt(cx - size / 2)},{_fmt(cy - size / 2)}) '
            f'scale({_fmt(size / 100, 4)})"/>')


STACK_SCALE = 0.68
"""The size of each piece of a stack of two, as a fraction of a lone piece's (a taller stack's pieces
are smaller still, and spread further, see :func:`_stack`)."""


def _stack(ids, stack: tuple[PieceImage, ...], cx: float, cy: float, size: float) -> list[str]:
    """A stack drawn bottom first: the pieces smaller than a lone one, the lowest at the lower left and
    each higher one to the right and up, standing on a pale plate that overlaps the piece below, so that
    every piece stays recognisable and the top one reads as standing on the others. Each piece above a
    stack of two shrinks the pieces and widens the spread, so that every piece of a tall stack shows."""
    if len(stack) == 1:
        return [_use(ids[stack[0]], cx, cy, size)]
    more = len(stack) - 2                           # pieces above a stack of two
    small = size * STACK_SCALE * 0.8 ** more
    spread_x, spread_y = 0.17 + 0.05 * more, 0.13 + 0.07 * more
    out = ['<g class="stack">']
    for k, image in enumerate(stack):
        t = -1 + 2 * k / (len(stack) - 1)           # -1 (bottom piece: lower left) .. +1 (top: upper right)
        x, y = cx + t * size * spread_x, cy - t * size * spread_y
        if k:
            out.append(f'<ellipse class="stack-plate" cx="{_fmt(x)}" cy="{_fmt(y + small * 0.38)}" '
                       f'rx="{_fmt(small * 0.5)}" ry="{_fmt(small * 0.14)}" fill="#ffffff" fill-opacity="0.8" '
                       f'stroke="{OUTLINE}" stroke-width="{_fmt(size * 0.012)}"/>')
        out.append(_use(ids[image], x, y, small))
    out.append("</g>")
    return out


def _mark(kind: str, cx: float, cy: float, r: float) -> str:
    """One move-diagram mark at a cell's centre, haloed in white so that it shows on dark cells too."""
    colour = MARK_COLOURS[kind]
    x, y = _fmt(cx), _fmt(cy)
    halo = f'stroke="#ffffff" stroke-width="{_fmt(r * 0.06)}"'
    if kind == "both":
        return f'<circle class="mark mark-both" cx="{x}" cy="{y}" r="{_fmt(r * 0.36)}" fill="{colour}" {halo}/>'
    if kind == "move":
        return (f'<circle class="mark mark-move" cx="{x}" cy="{y}" r="{_fmt(r * 0.32)}" fill="#ffffff" '
                f'fill-opacity="0.5" stroke="{colour}" stroke-width="{_fmt(r * 0.13)}"/>')
    if kind == "capture":
        d = r * 0.36
        path = (f"M{_fmt(cx - d)} {_fmt(cy - d)} L{_fmt(cx + d)} {_fmt(cy + d)} "
                f"M{_fmt(cx - d)} {_fmt(cy + d)} L{_fmt(cx + d)} {_fmt(cy - d)}")
        return (f'<g class="mark mark-capture"><path d="{path}" stroke="#ffffff" stroke-width="{_fmt(r * 0.26)}" '
                f'stroke-linecap="round"/><path d="{path}" stroke="{colour}" stroke-width="{_fmt(r * 0.15)}" '
                f'stroke-linecap="round"/></g>')
    d = r * 0.42
    return (f'<path class="mark mark-special" d="M{x} {_fmt(cy - d)} L{_fmt(cx + d)} {y} '
            f'L{x} {_fmt(cy + d)} L{_fmt(cx - d)} {y} z" fill="{colour}" {halo}/>')


def _arrow(a: tuple[float, float], b: tuple[float, float]) -> str:
    """An arrow from ``a`` to ``b`` (pixels) as one filled polygon."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return ""
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    shaft, head_w, head_l = UNIT * 0.08, UNIT * 0.24, min(UNIT * 0.4, length * 0.6)
    bx, by = x1 - ux * head_l, y1 - uy * head_l
    pts = [(x0 + nx * shaft, y0 + ny * shaft), (bx + nx * shaft, by + ny * shaft), (bx + nx * head_w, by + ny * head_w),
           (x1, y1), (bx - nx * head_w, by - ny * head_w), (bx - nx * shaft, by - ny * shaft),
           (x0 - nx * shaft, y0 - ny * shaft)]
    points = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts)
    return f'<polygon class="arrow" points="{points}" fill="{ARROW}" fill-opacity="0.8"/>'


def _edge_labels(frame: Frame, labels: list[Label]) -> list[str]:
    """The file and rank names along the edges (see :func:`interpreter.drawing.geometry.edge_labels`)."""
    out = []
    for label in labels:
        x, y = frame.point(*label.at)
        size = label.size * UNIT
        out.append(f'<text class="coord" x="{_fmt(x)}" y="{_fmt(y + size * 0.35)}" text-anchor="middle" '
                   f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{_fmt(size)}" '
                   f'fill="{LABEL_COLOUR}">{escape(label.text)}</text>')
    return out


def _cell_names(game: Game, centres, radii, explicit_only: bool = False) -> list[str]:
    """Each cell's name, small, in its lower part (for boards whose names are not obvious); with
    ``explicit_only``, only the names of explicit cells (which edge labels cannot name)."""
    out = []
    for cell, name in enumerate(game.board.names):
        if explicit_only and game.board.parts[cell] is not None:
            continue
        x, y = centres[cell]
        size = max(radii[cell] * 0.45, 6.0)
        out.append(f'<text class="cell-name" x="{_fmt(x)}" y="{_fmt(y + radii[cell] * 0.75)}" text-anchor="middle" '
                   f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{_fmt(size)}" '
                   f'fill="{LABEL_COLOUR}">{escape(name)}</text>')
    return out


def _hands(game: Game, ids, hands: dict[int, list[PieceImage]], left: float, top_edge: float,
           bottom_edge: float) -> tuple[list[str], float]:
    """Hands in rows right of the board, spread from the bottom (the first army) to the top (the last).

    Returns the elements and the width used.
    """
    size = UNIT * 0.8
    armies = sorted(hands)
    out, widest = [], 0.0
    bottom, top = bottom_edge - size / 2, top_edge + size / 2
    for row, army in enumerate(armies):
        cy = bottom - (bottom - top) * row / (len(armies) - 1) if len(armies) > 1 else bottom
        counts: dict[PieceImage, int] = {}
        for image in hands[army]:
            counts[image] = counts.get(image, 0) + 1
        x = left
        out.append(f'<rect class="hand" x="{_fmt(left - 4)}" y="{_fmt(cy - size / 2 - 2)}" '
                   f'width="{_fmt(max(len(counts), 1) * size * 1.25 + 8)}" height="{_fmt(size + 4)}" rx="4" '
                   f'fill="#ececec" stroke="#bbbbbb"/>')
        for image, count in sorted(counts.items(), key=lambda kv: (kv[0].name, kv[0].letter)):
            out.append(_use(ids[image], x + size / 2, cy, size))
            if count > 1:
                out.append(f'<text class="hand-count" x="{_fmt(x + size)}" y="{_fmt(cy + size / 2)}" '
                           f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{_fmt(size * 0.35)}" '
                           f'fill="{OUTLINE}">{count}</text>')
            x += size * 1.25
        widest = max(widest, max(len(counts), 1) * size * 1.25 + 8)
    return out, widest


def _line(kind: str, a: tuple[float, float], b: tuple[float, float], width: float) -> str:
    """A line of the board (``kind``: its class) from ``a`` to ``b`` (pixels)."""
    return (f'<line class="{kind}" x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}" '
            f'stroke="{BOARD_LINE}" stroke-width="{_fmt(width)}" stroke-linecap="round"/>')


def _wood(frame: Frame, polygons) -> str:
    """The wooden rectangle under a board of points: the cells' bounding box."""
    xs = [x for poly in polygons for x, _ in poly]
    ys = [y for poly in polygons for _, y in poly]
    (x0, y0), (x1, y1) = frame.point(min(xs), max(ys)), frame.point(max(xs), min(ys))
    return (f'<rect class="wood" x="{_fmt(x0)}" y="{_fmt(y0)}" width="{_fmt(x1 - x0)}" height="{_fmt(y1 - y0)}" '
            f'fill="{PLAIN_CELL}" stroke="{BOARD_LINE}" stroke-width="2"/>')


def _neighbours(board) -> list[tuple[int, int]]:
    """Pairs of cells (lower index first) whose polygons share an edge, sorted: on a board of points,
    the lines between their centres make the grid."""
    owners: dict[frozenset, list[int]] = {}
    for cell, poly in enumerate(board.polygons):
        corners = [(round(x, 6), round(y, 6)) for x, y in poly]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            owners.setdefault(frozenset((a, b)), []).append(cell)
    return sorted({(min(cells), max(cells)) for cells in owners.values() if len(cells) == 2})


def _rank(board, cell: int) -> int | None:
    rank = board.attributes[cell].get("rank")
    return rank if isinstance(rank, int) else None


def _crossings(board, neighbours: list[tuple[int, int]], below: int) -> list[tuple[int, int]]:
    """The pairs of ``neighbours`` across a river above rank ``below`` (lower rank first)."""
    pairs = []
    for a, b in neighbours:
        ranks = (_rank(board, a), _rank(board, b))
        if sorted(r for r in ranks if r is not None) == [below, below + 1]:
            pairs.append((a, b) if ranks[0] == below else (b, a))
    return pairs


def _grid_lines(board, neighbours: list[tuple[int, int]], centres) -> list[str]:
    """The lines of a board of points: one between the centres of every two cells that share an edge;
    across a river only the outermost two (the sides of the board) run on."""
    river = board.drawing.river
    crossing = set(_crossings(board, neighbours, river[0])) if river else set()
    kept = set()
    if crossing:
        by_x = sorted(crossing, key=lambda pair: centres[pair[0]][0])
        kept = {by_x[0], by_x[-1]}
    out = ['<g class="grid-lines">']
    for a, b in neighbours:
        if ((a, b) in crossing or (b, a) in crossing) and (a, b) not in kept and (b, a) not in kept:
            continue
        out.append(_line("grid-line", centres[a], centres[b], 1.2))
    out.append("</g>")
    return out


def _river(board, neighbours: list[tuple[int, int]], frame: Frame, centres, below: int, text: str) -> list[str]:
    """The river above rank ``below``: its text in the middle of the gap (on a board of points) or of
    the edge between the ranks, which a board of squares draws as a blue line."""
    pairs = _crossings(board, neighbours, below)
    if not pairs:
        return []
    out = ['<g class="river">']
    squares = not board.drawing.points
    if squares:
        for a, b in pairs:
            shared = set(map(tuple, board.polygons[a])) & set(map(tuple, board.polygons[b]))
            if len(shared) == 2:
                (p, q) = sorted(shared)
                out.append(f'<line class="river-edge" x1="{_fmt(frame.point(*p)[0])}" y1="{_fmt(frame.point(*p)[1])}" '
                           f'x2="{_fmt(frame.point(*q)[0])}" y2="{_fmt(frame.point(*q)[1])}" stroke="{RIVER}" '
                           f'stroke-width="4"/>')
    if text:
        mids = [((centres[a][0] + centres[b][0]) / 2, (centres[a][1] + centres[b][1]) / 2) for a, b in pairs]
        x = (min(m[0] for m in mids) + max(m[0] for m in mids)) / 2
        y = sum(m[1] for m in mids) / len(mids)
        size = UNIT * 0.42
        halo = '' if not squares else ' stroke="#ffffff" stroke-width="3" paint-order="stroke"'
        out.append(f'<text class="river-text" x="{_fmt(x)}" y="{_fmt(y + size * 0.35)}" text-anchor="middle" '
                   f'font-family="{TEXT_FONTS}" font-size="{_fmt(size)}" fill="{BOARD_LINE}"{halo} '
                   f'xml:space="preserve">{escape(text)}</text>')
    out.append("</g>")
    return out


def render_svg(game: Game, diagram: Diagram | None = None, *, coordinates: bool = True,
               cell_names: bool = False, title: str | None = None) -> str:
    """The SVG text of ``game``'s board with ``diagram`` drawn on it.

    ``coordinates``: file and rank names along the edges (boards whose
    cells are named like ``e4``). ``cell_names``: each cell's name inside
    it. ``title``: an SVG ``<title>`` (shown as a tooltip, read by screen
    readers).
    """
    diagram = diagram or Diagram()
    board = game.board
    layout = board_layout(game)
    labels = layout.labels if coordinates else []
    margin = UNIT * 0.15
    frame = Frame(board.polygons, labels, margin)
    centres = [frame.point(*point) for point in layout.centres]
    radii = [radius * UNIT for radius in layout.radii]
    images = {p for stack in diagram.stacks.values() for p in stack} | {p for h in diagram.hands.values() for p in h}
    defs, ids = _piece_defs(game, images)
    types = sorted({str(a["type"]) for a in board.attributes if "type" in a})
    tints = {t: TYPE_TINTS[i % len(TYPE_TINTS)] for i, t in enumerate(types)}

    drawing = board.drawing
    body = ['<g class="board">']
    if drawing.points:
        body.append(_wood(frame, board.polygons))
    for cell, poly in enumerate(board.polygons):
        attrs = board.attributes[cell]
        classes = "cell" + "".join(f" cell-{re.sub(r'[^A-Za-z0-9_-]', '', str(attrs[k]))}"
                                   for k in ("colour", "type") if k in attrs)
        if drawing.points:       # transparent, but it still takes clicks
            paint = 'fill="#ffffff" fill-opacity="0" stroke="none"'
        elif drawing.plain:
            paint = f'fill="{PLAIN_CELL}" stroke="{BOARD_LINE}" stroke-width="1"'
        else:
            paint = f'fill="{_cell_fill(attrs, tints)}" stroke="#8a7560" stroke-width="0.6"'
        body.append(f'<polygon class="{classes}" id={quoteattr("cell-" + board.names[cell])} '
                    f'data-cell={quoteattr(board.names[cell])} points="{_points(frame, poly)}" {paint}/>')
    neighbours = _neighbours(board) if drawing.points or drawing.river is not None else []
    if drawing.points:
        body += _grid_lines(board, neighbours, centres)
    if drawing.river is not None:
        body += _river(board, neighbours, frame, centres, *drawing.river)
    body += [_line("diagonal", centres[a], centres[b], 1.4) for a, b in drawing.diagonals]
    body.append("</g>")
    for cell in sorted(diagram.heat):
        body.append(f'<polygon class="heat" id={quoteattr("heat-" + board.names[cell])} '
                    f'points="{_points(frame, board.polygons[cell])}" fill={quoteattr(diagram.heat[cell])} '
                    f'stroke="#8a7560" stroke-width="0.6"/>')
    for cell in sorted(diagram.highlights):
        if drawing.points:
            body.append(f'<circle class="highlight" cx="{_fmt(centres[cell][0])}" cy="{_fmt(centres[cell][1])}" '
                        f'r="{_fmt(radii[cell] * 0.9)}" fill="{HIGHLIGHT}" fill-opacity="0.6"/>')
        else:
            body.append(f'<polygon class="highlight" points="{_points(frame, board.polygons[cell])}" '
                        f'fill="{HIGHLIGHT}" fill-opacity="0.6"/>')
    body += _edge_labels(frame, labels)
    if cell_names or coordinates:
        body += _cell_names(game, centres, radii, explicit_only=not cell_names)
    for cell in sorted(diagram.stacks):
        cx, cy = centres[cell]
        body += _stack(ids, diagram.stacks[cell], cx, cy, radii[cell] * 2 * (0.9 if drawing.points else 0.98))
    for cell in sorted(diagram.marks):
        body.append(_mark(diagram.marks[cell], *centres[cell], radii[cell]))
    for a, b in diagram.arrows:
        body.append(_arrow(centres[a], centres[b]))

    width, height = frame.width + 2 * margin, frame.height + 2 * margin
    if diagram.hands:
        hand_elements, used = _hands(game, ids, diagram.hands, width + UNIT * 0.3, margin, height - margin)
        body += hand_elements
        width += used + UNIT * 0.5
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{_fmt(width)}" height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}">')
    parts = [head]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect width="{_fmt(width)}" height="{_fmt(height)}" fill="#ffffff"/>')
    if defs:
        parts.append("<defs>" + "".join(defs) + "</defs>")
    parts += body
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render_position(position, highlights=(), arrows=(), **options) -> str:
    """The SVG of a position, with optional highlighted cells and ``(from, to)`` arrows."""
    return render_svg(position.game, diagram_of(position, highlights, arrows), **options)


# ---------------------------------------------------------------- command-line arguments


def cells_from_text(game: Game, text: str) -> list[int]:
    """Cells named in ``text`` (``"e4,d5"`` or ``"e4 d5"``); raises UsageError for an unknown name."""
    return [_cell(game, name) for name in re.split(r"[,\s]+", text.strip()) if name]


def arrows_from_text(game: Game, text: str) -> list[tuple[int, int]]:
    """Arrows written ``e2e4,g1f3`` (or ``e2-e4``): pairs of cells; raises UsageError when unreadable."""
    arrows = []
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        if "-" in item:
            first, _, second = item.partition("-")
            arrows.append((_cell(game, first), _cell(game, second)))
            continue
        splits = [(item[:k], item[k:]) for k in range(1, len(item))
                  if item[:k] in game.board.index and item[k:] in game.board.index]
        if len(splits) != 1:
            raise UsageError(f"cannot read the arrow {item!r}",
                             hint="write it as two cell names, e.g. e2e4 or e2-e4" if not splits
                             else f"write it with a dash, e.g. {splits[0][0]}-{splits[0][1]}")
        arrows.append((game.board.index[splits[0][0]], game.board.index[splits[0][1]]))
    return arrows


def _cell(game: Game, name: str) -> int:
    if name not in game.board.index:
        guess = suggest(name, game.board.names)
        raise UsageError(f"no cell {name!r} on the board of {game.name}",
                         hint=f"did you mean {guess!r}?" if guess else None)
    return game.board.index[name]


def render_pieces(game: Game, images: list[PieceImage], size: float = UNIT) -> str:
    """A row of piece images without a board, upright whatever the board's pieces face: the legend
    icons of the documentation, a page's pieces in hand and its promotion choices."""
    defs, ids = _piece_defs(game, set(images), upright=True)
    width = size * max(len(images), 1)
    uses = [_use(ids[image], size * (i + 0.5), size / 2, size) for i, image in enumerate(images)]
    return "\n".join([f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                      f'width="{_fmt(width)}" height="{_fmt(size)}" viewBox="0 0 {_fmt(width)} {_fmt(size)}">',
                      "<defs>" + "".join(defs) + "</defs>", *uses, "</svg>"]) + "\n"
