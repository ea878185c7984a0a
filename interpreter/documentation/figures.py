"""The figures of a rule page, as SVG text: examples from play, cell types, directions as drawn.

:func:`example_figure` draws an :class:`~interpreter.documentation.examples.Example`
as two boards side by side, the position with the move as an arrow and
the position after it; :func:`cell_type_figures` shows, from one cell of
each cell type, where every direction of the board leads;
:func:`picture_direction` says where a direction points in the drawn
board, so that a page can name facings as a reader sees them.
"""

from __future__ import annotations

import math
import re
from html import escape

from interpreter.compiler.game import Game
from interpreter.drawing.render import Diagram, diagram_of, render_svg

from .examples import Example

_SIZE = re.compile(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"')
GAP = 24.0

COMPASS = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0),
           "ne": (1, 1), "nw": (-1, 1), "se": (1, -1), "sw": (-1, -1)}
_WORDS = ["to the right", "up and to the right", "up", "up and to the left", "to the left",
          "down and to the left", "down", "down and to the right"]


def side_by_side(svgs: list[str], title: str) -> str:
    """One SVG of several, left to right, ``GAP`` pixels apart, aligned at the top."""
    sizes = [tuple(float(v) for v in _SIZE.match(svg).groups()) for svg in svgs]
    width = sum(w for w, _ in sizes) + GAP * (len(svgs) - 1)
    height = max(h for _, h in sizes)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             f'width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}">', f"<title>{escape(title)}</title>"]
    x = 0.0
    for svg, (w, h) in zip(svgs, sizes):
        inner = svg.split(">", 1)[1].rsplit("</svg>", 1)[0]
        # Each board keeps its own ids (pieces are <use>d by id): prefix them per board.
        prefix = f"b{len(parts)}-"
        inner = re.sub(r'id="([^"]+)"', rf'id="{prefix}\1"', inner)
        inner = re.sub(r'xlink:href="#([^"]+)"', rf'xlink:href="#{prefix}\1"', inner)
        parts.append(f'<svg x="{x:g}" y="0" width="{w:g}" height="{h:g}">{inner}</svg>')
        x += w + GAP
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def move_arrows(example: Example) -> list[tuple[int, int]]:
    """The arrows that show a move: the piece's own, and a castling rook's."""
    frm, to, _, special = example.move
    arrows = [(frm, to)] if frm >= 0 and to >= 0 and frm != to else []
    if special is not None and special[0] == "castle" and isinstance(special[1], int) and special[1] != to:
        arrows.append((special[1], special[2]))
    if special is not None and special[0] == "castlock":
        arrows.append((special[1], to))
    return arrows


def example_figure(game: Game, example: Example, title: str) -> str:
    """The position with the move drawn as an arrow, beside the position after it."""
    frm, to = example.move[0], example.move[1]
    cells = [c for c in (frm, to) if c >= 0]
    before = diagram_of(example.before, highlights=cells, arrows=move_arrows(example))
    after = diagram_of(example.after, highlights=[to] if to >= 0 else [])
    return side_by_side([render_svg(game, before), render_svg(game, after)], title)


def picture_direction(game: Game, direction: str) -> str | None:
    """Where ``direction`` points in the drawn board ("up and to the left"), on average over the
    cells that have a step that way; None when that is what its compass name says already (north
    is up), or when no cell has such a step."""
    board = game.board
    steps = board.steps.get(direction)
    if steps is None:
        return None
    dx = dy = 0.0
    for cell, target in enumerate(steps):
        if target >= 0:
            (x0, y0), (x1, y1) = board.centres[cell], board.centres[target]
            dx, dy = dx + x1 - x0, dy + y1 - y0
    if dx == dy == 0:
        return None
    angle = math.atan2(dy, dx)
    if direction in COMPASS:
        cx, cy = COMPASS[direction]
        if abs(math.remainder(angle - math.atan2(cy, cx), 2 * math.pi)) < math.pi / 8:
            return None
    return _WORDS[round(angle / (math.pi / 4)) % 8]


def type_cell(game: Game, cell_type: str) -> int:
    """The cell of a type shown in its figure: the one with the most steps, nearest the middle."""
    board = game.board
    cells = [c for c, a in enumerate(board.attributes) if str(a.get("type")) == cell_type]
    xs = [x for x, _ in board.centres]
    ys = [y for _, y in board.centres]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return min(cells, key=lambda c: (-sum(steps[c] >= 0 for steps in board.steps.values()),
                                     (board.centres[c][0] - mx) ** 2 + (board.centres[c][1] - my) ** 2, c))


def cell_type_figures(game: Game) -> list[tuple[str, int, str, str]]:
    """``(type, cell, svg, words)`` per cell type of the board (none on a board without types): from
    a cell of the type, a mark on each cell a direction's first step leads to (the cells named), and in words,
    family by family ("`rook`: `UR` and `UL` to `e14`, `DR` to `f12`")."""
    board = game.board
    types = sorted({str(a["type"]) for a in board.attributes if "type" in a})
    out = []
    for cell_type in types:
        cell = type_cell(game, cell_type)
        targets = sorted({steps[cell] for steps in board.steps.values() if steps[cell] >= 0})
        diagram = Diagram(highlights=frozenset({cell}), marks={t: "both" for t in targets})
        svg = render_svg(game, diagram, cell_names=True,
                         title=f"{game.title}: the steps from a cell of type {cell_type}")
        families = []
        for family, labels in board.families.items():
            by_target: dict[int, list[str]] = {}
            for label in labels:
                target = board.steps[label][cell]
                if target >= 0:
                    by_target.setdefault(target, []).append(f"`{label}`")
            if by_target:
                steps = ", ".join(f"{' and '.join(ls)} to `{board.names[t]}`" for t, ls in by_target.items())
                families.append(f"`{family}`: {steps}")
        out.append((cell_type, cell, svg, "; ".join(families)))
    return out


SIDES = {3: "three-sided", 4: "four-sided", 5: "five-sided", 6: "six-sided", 8: "eight-sided"}


def cell_type_sentence(game: Game, cell_type: str, cell: int) -> str:
    """A cell type in a player's words, for its figure: its shape as drawn, how many cells of that
    type the board has, and how many cells one step leads to from the one shown ("A cell of type
    `I` is four-sided; the board has 64 of them. From `f10` (highlighted) one step leads to the 6
    marked cells.")."""
    board = game.board
    count = sum(str(a.get("type")) == cell_type for a in board.attributes)
    corners = len(board.polygons[cell]) if board.polygons and board.polygons[cell] else 4
    shape = SIDES.get(corners, f"{corners}-sided")
    targets = {steps[cell] for steps in board.steps.values() if steps[cell] >= 0}
    return (f"A cell of type `{cell_type}` is {shape}; the board has {count} of them. From `{board.names[cell]}` "
            f"(highlighted), one step of some direction leads to each of the {len(targets)} marked cells.")
