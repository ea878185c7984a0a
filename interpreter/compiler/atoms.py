"""Movement patterns -> atoms: target tables indexed by the start cell.

Each pattern of a piece (Betza or native: step, ride, leap, hop, path,
zigzag), in the frame of one army (its forward direction), becomes one or
more :class:`Atom`: a kind (``leap``, ``ride`` or ``hop``), a table indexed
by the start cell (leap targets with the cells that must be empty on the
way, or rays of cells), a modality and options. Tables are built once, at
compile time, from the board's coordinates and direction tables;
:mod:`interpreter.compiler.generators` turns atoms into the closures that
generate moves, which only index lists.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from itertools import permutations, product

from dsl import spec as S
from dsl.betza import BetzaAtom, parse_betza
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

from .board import Board
from .layout import level_step
from .budget import spend
from .conditions import filtered, split_condition, static_condition

ONCE = ("once",)  # the special of a move that spends a piece's once-per-game privilege


@dataclass
class Atom:
    """One movement atom of one piece for one army, with its compiled table.

    ``leaps[c]``: tuples ``(to, between)`` where ``between`` lists the cells
    that must be empty (lame leapers). ``rays[c]``: lists of cells, nearest
    first, truncated to the range. ``quiet`` / ``capture``: which moves the
    atom makes. ``hop``: ``"p"`` or ``"g"`` for hoppers. ``hurdles[code]`` /
    ``victims[code]`` (hoppers only, None: no limit): may a piece of that code
    be the hurdle / be captured (the options ``hurdle`` and ``takes``).
    """

    kind: str
    quiet: bool
    capture: bool
    leaps: list[list[tuple[int, tuple[int, ...]]]] = field(default_factory=list)
    rays: list[list[list[int]]] = field(default_factory=list)
    hop: str | None = None
    unmoved: bool = False
    from_cells: frozenset[int] | None = None
    to_cells: frozenset[int] | None = None
    en_passant: bool = False
    sets_en_passant: bool = False
    royal_only: bool = False
    level: str | None = None   # "ground" / "upper": only at that level of a stack (stacking games)
    once: bool = False         # a privilege each piece may use once in the game ('once per game')
    unchecked: bool = False    # only while no royal piece of the mover's army is attacked ('if not in_check')
    hurdles: tuple[bool, ...] | None = None
    victims: tuple[bool, ...] | None = None

    @property
    def plain(self) -> bool:
        """No option restricts it: it can share a merged fast table."""
        return not (self.unmoved or self.from_cells is not None or self.to_cells is not None
                    or self.en_passant or self.sets_en_passant or self.hop or self.royal_only or self.once
                    or self.unchecked)

    def reach(self, cell: int) -> set[int]:
        """Every cell the atom may end on from ``cell`` on some board, whatever stands in the way:
        its leaps' targets and every cell of its rays (a hop's too), within its ``from`` and ``to``
        cells. For analyses of the compiled game, not for move generation."""
        if self.from_cells is not None and cell not in self.from_cells:
            return set()
        cells = {to for to, _ in self.leaps[cell]} if self.leaps else set()
        for ray in self.rays[cell] if self.rays else ():
            cells.update(ray)
        return cells if self.to_cells is None else cells & self.to_cells

    @property
    def attacks_plainly(self) -> bool:
        """Its captures depend only on occupancy and on fixed cells (``from``, ``to``): reverse
        attack tables can represent them. A piece's own state (moved or not, a privilege used or
        not) cannot."""
        return self.capture and not self.unmoved and not self.once


@dataclass(frozen=True)
class Pieces:
    """What a hopper's ``hurdle`` and ``takes`` options read of each piece code, for one mover's
    army: ``kinds[code]``, the name of its kind, and ``sides[code]``: ``own`` (the mover's army or
    a partner's), ``enemy``, or ``""`` (a neutral piece; code 0, no piece)."""

    kinds: list[str]
    sides: list[str]

    def matching(self, kinds: S.KindSet | None, side: str = "any") -> tuple[bool, ...]:
        """Per code: is it a piece of ``side`` and of one of ``kinds`` (None: any kind)? An unknown
        kind is an error at its name."""
        names = set(kinds.names) if kinds is not None else set()
        known = sorted(set(self.kinds) - {""})
        for name in names - set(known):
            raise unknown_name("piece", name, known, kinds.locs.get(name, kinds.loc))
        return tuple(code > 0 and (side == "any" or self.sides[code] == side)
                     and (kinds is None or (self.kinds[code] in names) != kinds.negated)
                     for code in range(len(self.kinds)))


def _hop_filters(move: S.MoveSpec, atoms: list[Atom], pieces: Pieces | None) -> None:
    """Set the ``hurdle`` and ``takes`` options of ``move`` on its hopping atoms: what each may jump
    over and capture. They are errors on a pattern without hopping atoms, and ``takes`` on one whose
    hops never capture."""
    hurdle, takes = move.hurdle, move.takes
    if hurdle is None and takes is None:
        return
    hops = [a for a in atoms if a.kind == "hop"]
    for option, word in ((hurdle, "hurdle"), (takes, "takes")):
        if option is not None and not hops:
            raise RulesSemanticError(f"'{word}' is an option of hopping moves, and this pattern has none",
                                     option.loc, expected="a 'hop' pattern or a Betza hopper ('p', 'g')",
                                     hint=f"remove '{word}', or make the pattern hop")
    if takes is not None and not any(a.capture for a in hops):
        raise RulesSemanticError("'takes' limits captures, and this pattern's hops never capture", takes.loc,
                                 hint="remove 'takes', or let the hop capture")
    assert pieces is not None, "hop options need the game's piece codes"
    hurdles = pieces.matching(hurdle.kinds, hurdle.side) if hurdle is not None else None
    victims = pieces.matching(takes) if takes is not None else None
    for atom in hops:
        atom.hurdles, atom.victims = hurdles, victims if atom.capture else None


def frame(forward: str | None, board: Board, loc=None) -> tuple[tuple[int, int], tuple[int, int]]:
    """(forward, right) unit vectors of an army whose forward is an axis direction of the board.

    Patterns are written with forward = +y and right = +x; an army facing
    ``s`` turns them half round, one facing ``e`` or ``w`` a quarter. On a
    board of levels an army faces ``n`` or ``s`` (the rank direction): one
    facing ``s`` sees every step reversed, levels too (its "up" is down). The
    error for a forward that is not an axis direction is at ``loc``, or at
    the ``directions`` family that took the direction's vector away.
    """
    name = forward or "n"
    if forward is None and "n" not in board.directions:
        return (0, 1), (1, 0)  # no axis directions (all replaced by tables): patterns use absolute labels
    dx, dy, _ = board.directions.get(name, (1, 1, ""))
    if (dx == 0) == (dy == 0):
        axis = [d for d, (x, y, _) in board.directions.items() if (x == 0) != (y == 0)]
        message = f"an army's forward must be a direction along an axis, not '{name}'"
        if name in board.replaced:
            raise RulesSemanticError(message + f": this family does not give '{name}' one step vector from every cell",
                                     board.replaced[name], expected=" or ".join(axis) or "a direction along an axis",
                                     hint=f"give '{name}' the same (dx, dy) on every cell, or give the armies "
                                          "a forward of this family")
        raise RulesSemanticError(message, loc, expected=" or ".join(axis) or "a direction along an axis")
    fx, fy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    if board.levels > 1 and fx:
        raise RulesSemanticError(f"on a board of levels an army's forward is along the ranks, not '{name}'", loc,
                                 expected="n or s")
    return (fx, fy), (fy, -fx)


def _images(offset: tuple[int, ...], symmetry: str) -> set[tuple[int, ...]]:
    """A leap offset and its images: ``all``, its numbers in every order and each of either sign
    (the 8 images of a flat offset, up to 48 of one with a level part: 24 for (2, 1, 0));
    ``mirrored``, the left-right image; else the offset alone."""
    if symmetry == "all":
        return {tuple(sign * d for sign, d in zip(signs, order))
                for order in permutations(offset) for signs in product((1, -1), repeat=len(offset))}
    if symmetry == "mirrored":
        return {offset, (-offset[0], *offset[1:])}
    return {offset}


def _orient(vector: tuple[int, int], fwd: tuple[int, int], right: tuple[int, int]) -> tuple[int, int]:
    dx, dy = vector
    return (dx * right[0] + dy * fwd[0], dx * right[1] + dy * fwd[1])


def _lame_path(dx: int, dy: int, board: Board) -> list[tuple[int, int]]:
    """Offsets passed by a lame leap.

    A leap along one of the board's directions (a multiple of its step)
    passes the cells of the smaller multiples; any other leap, on a square
    grid, passes orthogonal steps along its major axis first, then diagonal
    ones (the xiangqi horse's rule).
    """
    for sx, sy, _ in board.directions.values():
        for k in range(2, 9):
            if (sx * k, sy * k) == (dx, dy):
                return [(sx * i, sy * i) for i in range(1, k)]
    path = []
    x = y = 0
    while (x, y) != (dx, dy):
        rx, ry = dx - x, dy - y
        sx = (rx > 0) - (rx < 0)
        sy = (ry > 0) - (ry < 0)
        if abs(rx) > abs(ry):
            sy = 0
        elif abs(ry) > abs(rx):
            sx = 0
        x, y = x + sx, y + sy
        if (x, y) != (dx, dy):
            path.append((x, y))
    return path


def kept(build):
    """``build(board, *args)``, a table made from the board alone, built once per board and
    arguments (:meth:`.Board.kept`): the tables are shared, and no caller changes one in place
    (filters make new lists)."""

    @functools.wraps(build)
    def table(board: Board, *args):
        return board.kept((build.__name__, *(_frozen(a) for a in args)), lambda: build(board, *args))

    return table


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, tuple)) else value


@kept
def _leap_table(board: Board, vectors, lame: bool):
    table = []
    for cell in range(len(board)):
        row = []
        for dx, dy in vectors:
            to = board.step(cell, dx, dy)
            if to < 0 or to == cell:
                continue
            between: tuple[int, ...] = ()
            if lame:
                cells = [board.offset(cell, ox, oy) for ox, oy in _lame_path(dx, dy, board)]
                if any(c < 0 for c in cells):
                    continue
                between = tuple(cells)
            row.append((to, between))
        spend(len(row) + sum(len(b) for _, b in row))
        table.append(row)
    return table


@kept
def _ray_table(board: Board, vectors, limit: int | None):
    table = []
    for cell in range(len(board)):
        rays = []
        for dx, dy in vectors:
            ray, cur, seen = [], cell, {cell}
            while limit is None or len(ray) < limit:
                cur = board.step(cur, dx, dy)
                if cur < 0 or cur in seen:  # off the board, or round a board that wraps or links back
                    break
                ray.append(cur)
                seen.add(cur)
            if ray:
                rays.append(ray)
        spend(sum(len(r) for r in rays))
        table.append(rays)
    return table


def _label_vectors(dirs: list[str], board: Board, fwd, right, loc) -> list[tuple[int, int]]:
    """Direction names of a native pattern -> coordinate steps in the army's frame.

    A name is a direction of the board (``n``, ``ne`` ...), a kind of
    direction (``orth``, ``diag``, ``all``), or ``forward`` / ``backward``
    (the army's forward direction and its opposite) or ``forward-orth`` /
    ``forward-diag`` (the directions of that kind within 90 degrees of forward).
    """
    table = board.directions
    groups = {"orth": [d for d, v in table.items() if v[2] == "orth"],
              "diag": [d for d, v in table.items() if v[2] == "diag"],
              "all": list(table)}
    ahead = {d for d, (x, y, _) in table.items() if x * fwd[0] + y * fwd[1] > 0}
    groups["forward-orth"] = [d for d in groups["orth"] if d in ahead]
    groups["forward-diag"] = [d for d in groups["diag"] if d in ahead]
    axis = {v[:2]: d for d, v in table.items() if (v[0] == 0) != (v[1] == 0)}
    relative = {"forward": fwd, "backward": (-fwd[0], -fwd[1])}
    vectors = []
    for name in dirs:
        if name in groups:
            vectors += [table[d][:2] for d in groups[name]]
        elif name in table:
            vectors.append(table[name][:2])
        elif name in relative:
            unit = relative[name]
            step = next((v for v in axis if (v[0] > 0) - (v[0] < 0) == unit[0] and (v[1] > 0) - (v[1] < 0) == unit[1]),
                        None)
            if step is None:
                raise RulesSemanticError(f"this board has no direction '{name}' for the army", loc)
            vectors.append(step)
        else:
            raise unknown_name("direction", name, list(table) + list(groups) + list(relative), loc)
    return vectors


def compile_atoms(move: S.MoveSpec, board: Board, army: str, forward: str | None,
                  pieces: Pieces | None = None) -> list[Atom]:
    """The atoms of one movement pattern for one army (``pieces``: what its hoppers' ``hurdle``
    and ``takes`` options read of each piece code, needed when the move has them).

    An ``if`` condition is split into its ``level == ...`` part (stacking
    games, kept on the atom), its ``not in_check`` part (kept on the atom as
    ``unchecked``; only quiet patterns may have it: a capture that depends on
    check would make check depend on itself) and a static part that depends
    only on the start and destination cells (and the army): that part is
    evaluated here, for every pair of cells, and filters the atoms' tables.
    """
    level, unchecked, static = split_condition(move.condition, move.loc)
    atoms = _pattern_atoms(move, board, army, forward, level)
    if unchecked:
        if any(a.capture for a in atoms):
            raise UnsupportedError("a capture allowed only when the mover is not in check ('not in_check') is "
                                   "not run by the interpreter yet", move.loc,
                                   hint="make the pattern quiet: 'betza \"m...\"' or the option 'quiet'")
        atoms = [replace(a, unchecked=True) for a in atoms]
    _hop_filters(move, atoms, pieces)
    if move.within is not None:
        cells = board.term(move.within, army)
        atoms = [a for a in (_confined(a, cells) for a in atoms) if a is not None]
    if static is not None:
        allowed = static_condition(static, board, army)
        atoms = [a for a in (filtered(a, allowed, move.loc, board) for a in atoms) if a is not None]
    return atoms


def _confined(atom: Atom, cells: frozenset[int]) -> Atom | None:
    """``atom`` keeping only what stays within ``cells`` (the option ``within``), None if nothing
    is left. A leap needs its start, its target and the cells it must find empty (a lame leap's) in
    ``cells``; a ray (a ride's, a hop's) starts in ``cells`` and ends before its first cell outside
    them, so a hopper's hurdle and landing cell are inside too. The tables change, the moves are
    generated as before: the option costs nothing when moves are made."""
    n = len(atom.leaps) or len(atom.rays)
    if atom.kind == "leap":
        atom.leaps = [[(to, between) for to, between in atom.leaps[c]
                       if to in cells and all(b in cells for b in between)] if c in cells else []
                      for c in range(n)]
        return atom if any(atom.leaps) else None
    rays: list[list[list[int]]] = []
    for c in range(n):
        kept = []
        for ray in atom.rays[c] if c in cells else ():
            inside = next((k for k, cell in enumerate(ray) if cell not in cells), len(ray))
            if inside:
                kept.append(ray[:inside])
        rays.append(kept)
    atom.rays = rays
    return atom if any(rays) else None


def _pattern_atoms(move: S.MoveSpec, board: Board, army: str, forward: str | None, level: str | None) -> list[Atom]:
    fwd, right = frame(forward, board)
    options = dict(
        unmoved=move.unmoved,
        from_cells=board.term(move.from_cells, army) if move.from_cells else None,
        to_cells=board.term(move.to_cells, army) if move.to_cells else None,
        en_passant=move.en_passant,
        sets_en_passant=move.sets_en_passant,
        royal_only=move.royal_only,
        level=level,
        once=move.once_per_game,
    )
    pattern = move.pattern
    atoms: list[Atom] = []

    def modal(modality: str) -> dict:
        both = {modality, move.modality} - {"both"}
        if len(both) > 1:
            raise RulesSemanticError("a pattern cannot be both move-only and capture-only", move.loc)
        kind = both.pop() if both else "both"
        return {"quiet": kind != "capture", "capture": kind != "quiet"}

    if isinstance(pattern, S.BetzaPattern):
        if not board.square:
            if board.levels > 1:
                raise RulesSemanticError("Betza notation describes moves on a flat board, and this board has levels",
                                         pattern.loc, expected="move step/ride/leap with the board's directions",
                                         hint="'include space' names the directions of a board of levels")
            if "n" in board.replaced:
                raise RulesSemanticError("Betza notation needs the grid's direction 'n' as the step (0, 1) from every "
                                         "cell, and this family changes it", board.replaced["n"],
                                         hint="keep n (0, 1) on every cell, or write the pieces with native patterns")
            raise RulesSemanticError("Betza notation needs a square grid; on this board write native patterns",
                                     pattern.loc, expected="move step/ride/leap with the board's directions")
        for atom in parse_betza(pattern.text, pattern.loc):
            atoms.append(_betza_atom(atom, board, fwd, right, modal(atom.modality), options))
        return atoms
    if _uses_tables(pattern, board):
        return [_table_atom(pattern, board, move.lame, modal("both"), options)]
    if isinstance(pattern, (S.StepPattern, S.RidePattern, S.HopPattern)):
        vectors = _label_vectors(pattern.dirs, board, fwd, right, pattern.loc)
        if isinstance(pattern, S.StepPattern):
            return [Atom("leap", leaps=_leap_table(board, vectors, False), **modal("both"), **options)]
        if isinstance(pattern, S.RidePattern):
            return [Atom("ride", rays=_ray_table(board, vectors, pattern.range), **modal("both"), **options)]
        return [Atom("hop", rays=_ray_table(board, vectors, None), hop="p", **modal("both"), **options)]
    if isinstance(pattern, S.LeapPattern):
        if move.lame and board.levels > 1:
            raise UnsupportedError("lame leaps are not run on a board of levels yet", move.loc)
        vectors = {_orient(level_step(image, board.files, board.levels, pattern.loc), fwd, right)
                   for offset in pattern.offsets for image in _images(offset, pattern.symmetry)}
        return [Atom("leap", leaps=_leap_table(board, sorted(vectors), move.lame), **modal("both"), **options)]
    if isinstance(pattern, S.PathPattern):
        legs = [(leg.mode, _label_vectors(leg.dirs, board, fwd, right, leg.loc), leg.range) for leg in pattern.legs]
        return [Atom("leap", leaps=_path_table(board, legs, move.lame), **modal("both"), **options)]
    if isinstance(pattern, S.ZigzagPattern):
        first = _label_vectors(pattern.first, board, fwd, right, pattern.loc)
        second = _label_vectors(pattern.second, board, fwd, right, pattern.loc)
        table = _zigzag_table(board, first, second, pattern.range, lambda c, d: board.offset(c, *d),
                              lambda a, b: b not in (a, (-a[0], -a[1])))
        return [Atom("leap", leaps=table, **modal("both"), **options)]
    raise UnsupportedError(f"'{pattern.kind}' patterns are not run by the interpreter yet", pattern.loc)


# ---------------------------------------------------------------- direction tables
#
# On a board with ``directions`` tables a label is a step function, looked
# up again on every cell (so rays may bend and two labels may share their
# first cells, then part). Patterns that name such a label or family are
# compiled by walking ``board.steps``; nothing here reads a cell type.


def _pattern_names(pattern) -> list[str]:
    if isinstance(pattern, (S.StepPattern, S.RidePattern, S.HopPattern)):
        return list(pattern.dirs)
    if isinstance(pattern, S.PathPattern):
        return [name for leg in pattern.legs for name in leg.dirs]
    if isinstance(pattern, S.ZigzagPattern):
        return list(pattern.first) + list(pattern.second)
    return []


def _uses_tables(pattern, board: Board) -> bool:
    """Does a native pattern name a direction (or family) given by a ``directions`` table?"""
    tables = board.tables
    for name in _pattern_names(pattern):
        if name in tables or any(label in tables for label in board.families.get(name, ())):
            return True
    return False


def _labels(dirs: list[str], board: Board, loc) -> list[str]:
    """Direction names -> labels: a family stands for its labels, ``all`` for every label."""
    labels: dict[str, None] = {}
    for name in dirs:
        if name == "all":
            labels.update(dict.fromkeys(board.steps))
        elif name in board.families:
            labels.update(dict.fromkeys(board.families[name]))
        elif name in board.steps:
            labels[name] = None
        else:
            raise unknown_name("direction", name, list(board.families) + list(board.steps), loc)
    return list(labels)


@kept
def _label_steps(board: Board, labels: list[str]) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Per cell, the cells one step of ``labels`` away (each once)."""
    return [[(to, ()) for to in dict.fromkeys(board.steps[label][cell] for label in labels) if to >= 0]
            for cell in range(len(board))]


@kept
def _label_rays(board: Board, labels: list[str], limit: int | None) -> list[list[list[int]]]:
    """Per cell, the rays of ``labels``; a ray equal to another, or the start of a longer one, is dropped
    (it would only repeat moves)."""
    table = []
    for cell in range(len(board)):
        rays = [r for r in (board.ray(cell, label, limit) for label in labels) if r]
        spend(sum(len(r) for r in rays))
        kept: list[list[int]] = []
        for i, ray in enumerate(rays):
            if any(len(other) >= len(ray) and other[:len(ray)] == ray and (len(other) > len(ray) or j < i)
                   for j, other in enumerate(rays) if j != i):
                continue
            kept.append(ray)
        table.append(kept)
    return table


def _bearing(board: Board, a: int, b: int) -> tuple[float, float]:
    """The direction from cell ``a`` to cell ``b`` as drawn (between their centres)."""
    (ax, ay), (bx, by) = board.centres[a], board.centres[b]
    return (bx - ax, by - ay)


def _table_atom(pattern, board: Board, lame: bool, modality: dict, options: dict) -> Atom:
    """A native pattern over direction labels (see the section comment)."""
    if isinstance(pattern, S.StepPattern):
        return Atom("leap", leaps=_label_steps(board, _labels(pattern.dirs, board, pattern.loc)), **modality, **options)
    if isinstance(pattern, S.RidePattern):
        rays = _label_rays(board, _labels(pattern.dirs, board, pattern.loc), pattern.range)
        return Atom("ride", rays=rays, **modality, **options)
    if isinstance(pattern, S.HopPattern):
        rays = _label_rays(board, _labels(pattern.dirs, board, pattern.loc), None)
        return Atom("hop", rays=rays, hop="p", **modality, **options)
    if isinstance(pattern, S.PathPattern):
        legs = [(leg.mode, _labels(leg.dirs, board, leg.loc), leg.range) for leg in pattern.legs]
        return Atom("leap", leaps=_label_path_table(board, legs, lame), **modality, **options)
    if isinstance(pattern, S.ZigzagPattern):
        first = _labels(pattern.first, board, pattern.loc)
        second = _labels(pattern.second, board, pattern.loc)
        table = _zigzag_table(board, first, second, pattern.range, lambda c, d: board.steps[d][c],
                              lambda a, b: a != b)
        return Atom("leap", leaps=table, **modality, **options)
    raise UnsupportedError(f"'{pattern.kind}' patterns cannot use direction tables", pattern.loc)


@kept
def _label_path_table(board: Board, legs, lame: bool) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Multi-leg moves over direction labels (see :func:`_path_table`).

    A later leg may take a label whose first step, as drawn, goes less than
    90 degrees from the first leg's first step (it bends, never back). The
    cells inside a ride leg must be empty; the cells where legs meet too if
    the move is ``lame``.
    """
    steps = board.steps
    rays = board.kept("rays", dict)   # each leg's ray, walked once for every start
    table = []
    for cell in range(len(board)):
        rows: dict[tuple[int, tuple[int, ...]], None] = {}

        def extend(index: int, at: int, between: tuple[int, ...], heading) -> None:
            mode, labels, rng = legs[index]
            last = index == len(legs) - 1
            for label in labels:
                nxt = steps[label][at]
                if nxt < 0:
                    continue
                bearing = _bearing(board, at, nxt)
                if heading is not None and bearing[0] * heading[0] + bearing[1] * heading[1] <= 1e-9:
                    continue
                key = (at, label, 1 if mode == "step" else rng)
                ray = rays.get(key)
                if ray is None:
                    ray = rays[key] = board.ray(*key)
                for k, end in enumerate(ray):
                    if end == cell:
                        break
                    spend(len(between) + k + 1)
                    inside = between + tuple(ray[:k])
                    if last:
                        rows[(end, tuple(c for c in inside if c != end))] = None
                    else:
                        extend(index + 1, end, inside + ((end,) if lame else ()), heading or bearing)

        extend(0, cell, (), None)
        table.append(list(rows))
    return table


def _walk(board: Board, cell: int, steps: list[tuple[int, int]]) -> list[int]:
    """The cells visited by taking ``steps`` in turn from ``cell`` (shorter if one leaves the board)."""
    visited = []
    for dx, dy in steps:
        cell = board.offset(cell, dx, dy)
        if cell < 0:
            break
        visited.append(cell)
    return visited


@kept
def _path_table(board: Board, legs, lame: bool) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Multi-leg moves (the griffon's diagonal step then orthogonal slide).

    Legs are taken in order, each from where the previous one ended; a
    later leg goes in a direction less than 90 degrees from the first
    leg's (it may bend, never back). A ``step`` leg is one cell, a ``ride``
    leg one cell or more (up to its range), and the cells inside a ride
    must be empty. The cells where legs meet may be occupied (the move
    leaps them) unless the move is ``lame``. The legs are walked cell by
    cell, so a leg stops at the edge of the board whatever its range.
    """
    limit = max(board.files, board.ranks) + 1
    table = []
    for cell in range(len(board)):
        rows: dict[tuple[int, tuple[int, ...]], None] = {}

        def extend(index: int, at: int, between: tuple[int, ...], first: tuple[int, int]) -> None:
            mode, vectors, rng = legs[index]
            last = index == len(legs) - 1
            allowed = [first] if index == 0 else [v for v in vectors if v[0] * first[0] + v[1] * first[1] > 0]
            for dx, dy in allowed:
                cur, run = at, []
                for _ in range(1 if mode == "step" else rng or limit):
                    cur = board.offset(cur, dx, dy)
                    if cur < 0:
                        break
                    inside = between + tuple(run)
                    spend(len(inside) + 1)
                    if last:
                        rows[(cur, tuple(c for c in inside if c != cur))] = None
                    else:
                        extend(index + 1, cur, inside + ((cur,) if lame else ()), first)
                    run.append(cur)

        for first in legs[0][1]:
            extend(0, cell, (), first)
        table.append(list(rows))
    return table


def _zigzag_table(board: Board, first: list, second: list, rng, step, distinct) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Zig-zag rides (the crooked bishop): steps alternate between a direction of ``first`` and one
    of ``second``, for every pair ``distinct(a, b)`` allows; every cell reached is a destination,
    the cells before it must be empty. ``step(cell, d)`` is the next cell (-1 off the board); the
    ride also stops where it would come back to a cell it passed."""
    limit = rng or (len(board) + 1)
    table = []
    for cell in range(len(board)):
        rows: dict[tuple[int, tuple[int, ...]], None] = {}
        for a in first:
            for b in second:
                if not distinct(a, b):
                    continue
                path, at, seen = [], cell, {cell}
                for i in range(limit):
                    at = step(at, a if i % 2 == 0 else b)
                    if at < 0 or at in seen:
                        break
                    seen.add(at)
                    path.append(at)
                spend(len(path) * (len(path) + 1) // 2)
                for k, to in enumerate(path):
                    rows[(to, tuple(path[:k]))] = None
        table.append(list(rows))
    return table


def _betza_atom(atom: BetzaAtom, board: Board, fwd, right, modality: dict, options: dict) -> Atom:
    vectors = [_orient(v, fwd, right) for v in atom.vectors]
    options = dict(options, unmoved=options["unmoved"] or atom.initial)
    if atom.hop:
        return Atom("hop", rays=_ray_table(board, vectors, None), hop=atom.hop, **modality, **options)
    if atom.rider:
        return Atom("ride", rays=_ray_table(board, vectors, atom.range), **modality, **options)
    return Atom("leap", leaps=_leap_table(board, vectors, atom.lame), **modality, **options)


# ---------------------------------------------------------------- closures
#
