"""Movement diagrams: where a piece can go, computed by the engine itself.

A piece is put alone on an empty board (for captures: with one enemy
piece on the target cell) and its pseudo-legal moves are generated, so a
diagram shows exactly what the interpreter plays, whatever the pattern.
Each reachable cell gets a mark of :data:`interpreter.drawing.render.MARKS`:
``both`` (moves or captures there), ``move`` (only moves), ``capture``
(only captures) or ``special`` (a move only an unmoved piece makes, a
once-per-game move, or one with a side effect such as a double step that
may be taken en passant).

A hopper needs a hurdle, so for a piece with hopping patterns the
diagram also puts one of its own army's pieces on the first cell of
every hopping line (``hurdles``) and adds what the piece reaches then.

The representative cell of a piece, for each cell type of the board
(cells without a ``type`` form one group), is the one its author names
with ``diagram at``, else the cell that shows the most kinds of quiet
move (so a pawn is shown where it may double-step), then the one nearest
the centre of the board as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.compiler.game import Game
from interpreter.engine.position import Position
from interpreter.compiler.board import centroid
from interpreter.engine.generation import pseudo_legal_moves


@dataclass(frozen=True)
class MovementDiagram:
    """The marks of one piece kind of the first army from one cell."""

    kind: int
    cell: int
    cell_type: str | None
    marks: dict[int, str]
    hurdles: tuple[int, ...] = ()
    hurdle_code: int = 0


def _alone(game: Game, code: int, cell: int, unmoved: bool, enemy: int = 0, target: int = -1,
           hurdles: tuple[int, ...] = (), hurdle_code: int = 0) -> Position:
    """A position with only ``code`` on ``cell`` (and its ``hurdles``, an ``enemy`` on ``target``),
    ``code``'s army to move. Only pseudo-legal moves are generated from it, which read no hash:
    the hash is not computed (a diagram makes thousands of these positions)."""
    pos = Position(game)
    pos.turn = game.turn_order.index(game.code_army[code]) if game.code_army[code] in game.turn_order else 0
    pos.place(cell, code)
    for hurdle in hurdles:
        pos.place(hurdle, hurdle_code)
    if enemy:
        pos.place(target, enemy)
    if unmoved and game.tracked[code]:
        pos.unmoved |= 1 << cell
    if unmoved and game.privileged[code]:      # it still holds its once-per-game move
        pos.privileges |= 1 << cell
    return pos


def _moves_from(pos: Position, cell: int) -> list[tuple]:
    """The moves of the piece on ``cell``, without promotions in place (no move of the piece itself:
    the page's Promotion section tells them)."""
    return [m for m in pseudo_legal_moves(pos) if m[0] == cell and (m[3] is None or m[3][0] != "promote")]


def _plain(move: tuple) -> bool:
    """A move without a side effect: no special, or in a stacking game a plain move or capture."""
    special = move[3]
    return special is None or (special[0] == "st" and special[1] in ("move", "capture") and not special[2])


def quiet_marks(game: Game, code: int, cell: int, hurdles: tuple[int, ...] = (), hurdle_code: int = 0) -> dict[int, str]:
    """Cells the piece reaches without capturing: ``move``, or ``special`` when only unmoved or with a side effect."""
    extra = {"hurdles": hurdles, "hurdle_code": hurdle_code}
    later = {m[1] for m in _moves_from(_alone(game, code, cell, False, **extra), cell) if _plain(m)}
    marks: dict[int, str] = {}
    for move in _moves_from(_alone(game, code, cell, True, **extra), cell):
        to = move[1]
        if marks.get(to) != "move":            # a plain move wins over a special one to the same cell
            marks[to] = "move" if _plain(move) and to in later else "special"
    return marks


def _plain_piece(game: Game, army: int) -> int:
    """A piece of ``army`` to stand in a diagram as a target or a hurdle: the least valuable non-royal one."""
    kinds = sorted(game.kinds, key=lambda k: (k.royal, k.value if k.value is not None else float("inf"), k.index))
    return game.code(kinds[0].index, army)


def hurdle_cells(game: Game, code: int, cell: int) -> tuple[int, ...]:
    """The first cell of every hopping line of ``code`` from ``cell`` (none for a piece that does not hop)."""
    return tuple(sorted({ray[0] for atom in game.atoms[code] if atom.kind == "hop"
                         for ray in atom.rays[cell] if ray}))


def movement_marks(game: Game, code: int, cell: int, hurdles: tuple[int, ...] = ()) -> dict[int, str]:
    """Every mark of the piece ``code`` standing on ``cell`` (with own pieces on ``hurdles``, for hoppers)."""
    marks = quiet_marks(game, code, cell)
    hurdle_code = _plain_piece(game, game.code_army[code])
    if hurdles:
        for to, mark in quiet_marks(game, code, cell, hurdles, hurdle_code).items():
            marks.setdefault(to, mark)
    enemies = game.enemies[game.code_army[code]]
    if not enemies:
        return marks
    enemy = _plain_piece(game, enemies[0])
    for target in range(game.n):
        if target == cell or target in hurdles:
            continue
        layouts = [()] + ([hurdles] if hurdles else [])
        for layout in layouts:
            pos = _alone(game, code, cell, True, enemy, target, layout, hurdle_code)
            if any(m[1] == target for m in _moves_from(pos, cell)):
                marks[target] = "both" if marks.get(target) == "move" else marks.get(target, "capture")
                break
    return marks


CANDIDATES = 12  # cells nearest the middle whose whole reach is compared


def _centre_distance(game: Game) -> list[float]:
    """Each cell's squared distance from the middle of the board as drawn (cell polygons, not coordinates)."""
    centres = [centroid(polygon) for polygon in game.board.polygons]
    cx = sum(x for x, _ in centres) / len(centres)
    cy = sum(y for _, y in centres) / len(centres)
    return [(x - cx) ** 2 + (y - cy) ** 2 for x, y in centres]


def representative_cells(game: Game, code: int) -> list[tuple[str | None, int]]:
    """``(cell type, cell)`` for each cell type the piece has moves from, in order of type.

    Of each type, the first cell of that type the piece's ``diagram at`` names; else, among the
    cells where the piece shows the most kinds of move (quiet, special), the cell nearest the middle
    of the drawing that reaches the most cells (moves and captures): on a board with a void in the
    middle that is not a cell on its edge.
    """
    distance = _centre_distance(game)
    groups: dict[str | None, list[int]] = {}
    for cell, attrs in enumerate(game.board.attributes):
        groups.setdefault(None if "type" not in attrs else str(attrs["type"]), []).append(cell)
    named = [game.board.index[name] for name in game.kinds[game.code_kind[code]].spec.diagram_cells]
    chosen = []
    for cell_type in sorted(groups, key=lambda t: (t is not None, t or "")):
        authored = [cell for cell in named if cell in groups[cell_type]]
        if authored:                       # 'diagram at': the author's cell for this type
            chosen.append((cell_type, authored[0]))
            continue
        scored = []
        for cell in groups[cell_type]:
            marks = quiet_marks(game, code, cell)
            scored.append((-len(set(marks.values())), distance[cell], cell))
        scored.sort()
        if scored[0][0] < 0 or len(groups) == 1:
            candidates = [s for s in scored if s[0] == scored[0][0]][:CANDIDATES]
            reach = {cell: len(movement_marks(game, code, cell, hurdle_cells(game, code, cell)))
                     for _, _, cell in candidates}
            best = min(candidates, key=lambda s: (-reach[s[2]], s[1], s[2]))
            chosen.append((cell_type, best[2]))
    return chosen


def movement_diagrams(game: Game, kind: int) -> list[MovementDiagram]:
    """The movement diagrams of one piece kind, for the first army to move (facing the way the setup
    first places it)."""
    code = game.typical_code(kind, game.turn_order[0])
    diagrams = []
    for cell_type, cell in representative_cells(game, code):
        hurdles = hurdle_cells(game, code, cell)
        diagrams.append(MovementDiagram(kind, cell, cell_type, movement_marks(game, code, cell, hurdles), hurdles,
                                        _plain_piece(game, game.code_army[code]) if hurdles else 0))
    return diagrams
