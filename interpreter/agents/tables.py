"""What the evaluation knows about a game before any position: tables computed once per Game.

Everything here comes from the compiled game, by generating moves on an
empty board of the game itself (a position holding one piece, no hands, no
castling or once-per-game rights):

- :func:`reach` -- per code and cell, the cells a lone piece moves to
  quietly, and the promotion gain of its moves from there;
- :func:`piece_values` -- the value of every piece kind in centipawns: its
  ``value`` from the rules file, or an estimate from its mobility;
- :func:`distances` -- a breadth-first distance over a piece's empty-board
  moves (to promotion, to a goal zone);
- :func:`goal_zones` -- the zones that end rules make a goal for royal
  pieces (a hill, a goal rank, a cockpit), read from the end conditions;
- :func:`passers` -- for the pieces whose every move brings them nearer
  their promotion (pawns), the cells on their way and the cells an enemy
  one could stop them from: what makes a piece *passed*;
- :func:`lines` -- per code and cell, the lines along which a piece moves
  and captures alike, which the ``activity`` term walks on the real board.

The value estimate follows the idea of Sjaak II and Fairy-Stockfish (a
piece is worth about what it can reach): a piece without ``value`` gets
``k * m``, where ``m`` is its mean number of target cells on the empty
board (quiet moves and captures counted half each) and ``k`` the median
ratio value / ``m`` of the game's own valued pieces (0.38 when there are
none: the ratio of orthodox chess's pieces on 8x8), plus 6% of the best
piece it promotes to (Sjaak II's promotion bonus).
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from dsl import spec as S

from interpreter.engine.generation import pseudo_legal_moves
from interpreter.engine.position import Position
from interpreter.engine.rights import marked_cells

PAWN = 100                 # centipawns per unit of a piece's ``value``
DEFAULT_RATIO = 0.38       # value per cell of mobility: orthodox chess pieces on 8x8 (Q 9/22.75, R 5/14, ...)
PROMOTION_SHARE = 0.06     # Sjaak II: a piece that promotes is worth 6% of its best promotion more
SAMPLE_CELLS = 48          # cells sampled on big boards to estimate capture mobility


@dataclass(frozen=True)
class Reach:
    """A lone piece's quiet moves on the empty board, per cell: targets and promotion gains."""

    targets: tuple[frozenset[int], ...]
    promotes: tuple[int, ...]       # per cell: the best gain (centipawns) of a promoting move from there, or 0

    def mobility(self, cell: int) -> int:
        return len(self.targets[cell])


def lone_position(game, code: int, cell: int, other: tuple[int, int] | None = None) -> Position:
    """A position with only ``code`` on ``cell`` (and ``other`` = (code, cell) if given), its army to move."""
    pos = Position(game)
    pos.place(cell, code)
    if other is not None:
        pos.place(other[1], other[0])
    army = game.code_army[code]
    pos.turn = next((t for t, armies in enumerate(game.turn_armies) if army in armies), 0)
    pos.rehash()
    return pos


def _moves_from(game, code: int, cell: int, other: tuple[int, int] | None = None) -> list[tuple]:
    return [m for m in pseudo_legal_moves(lone_position(game, code, cell, other)) if m[0] == cell]


def reach(game, code: int, values: list[int] | None = None) -> Reach:
    """The quiet empty-board moves of ``code`` from every cell; with ``values`` (centipawns per
    code), the promotion gain of each cell's best promoting move."""
    targets, promotes = [], []
    for cell in range(game.n):
        moves = _moves_from(game, code, cell)
        # A promotion in place is no move of the piece itself (its gain counts below).
        targets.append(frozenset(m[1] for m in moves if m[3] is None or m[3][0] != "promote"))
        gain = 0
        if values is not None:
            gain = max((values[m[2]] - values[code] for m in moves if m[2]), default=0)
        promotes.append(max(gain, 0))
    return Reach(tuple(targets), tuple(promotes))


def capture_mobility(game, code: int, cells: list[int]) -> float:
    """The mean number of cells from which ``code`` could capture a lone enemy piece, over ``cells``."""
    army = game.code_army[code]
    victim = game.stand_in[army]
    if not victim or not game.hostile[army][victim]:
        return 0.0
    total = 0
    for cell in cells:
        total += sum(1 for t in range(game.n) if t != cell
                     and any(m[1] == t for m in _moves_from(game, code, cell, (victim, t))))
    return total / max(1, len(cells))


def _sample(game) -> list[int]:
    step = max(1, game.n // SAMPLE_CELLS)
    return list(range(0, game.n, step))


def piece_values(game) -> list[int]:
    """Centipawns per piece kind: the rules file's ``value``, else the mobility estimate (see the
    module docstring). Royal pieces without a value are worth 0 here (see evaluation.ROYAL)."""
    given = [None if k.value is None else round(k.value * PAWN) for k in game.kinds]
    missing = [k.index for k in game.kinds if k.value is None and not k.royal]
    if not missing:
        return [v or 0 for v in given]
    cells = _sample(game)

    def mobility(kind: int) -> float:
        code = game.code(kind, 0)
        quiet = statistics.fmean(len(_moves_from(game, code, c)) for c in cells)
        return (quiet + capture_mobility(game, code, cells)) / 2

    ratios = [given[k.index] / m for k in game.kinds
              if given[k.index] and not k.royal and (m := mobility(k.index)) > 0]
    ratio = statistics.median(ratios) / PAWN if ratios else DEFAULT_RATIO
    values = list(given)
    for kind in missing:
        values[kind] = round(ratio * mobility(kind) * PAWN)
    for kind in missing:
        best = max((values[t] or 0 for t in _promotion_kinds(game, kind)), default=0)
        values[kind] += round(PROMOTION_SHARE * best)
    return [v or 0 for v in values]


def _promotion_kinds(game, kind: int) -> set[int]:
    return {game.kind_index[name] for promo in game.kinds[kind].spec.promotions for name in promo.to}


def distances(edges: tuple[frozenset[int], ...], goals: set[int]) -> list[int | None]:
    """Per cell, the fewest moves along ``edges`` (targets per cell) to a cell of ``goals``
    (0 on a goal, None if unreachable)."""
    back: list[list[int]] = [[] for _ in edges]
    for frm, targets in enumerate(edges):
        for to in targets:
            back[to].append(frm)
    dist: list[int | None] = [None] * len(edges)
    queue = deque()
    for cell in goals:
        dist[cell] = 0
        queue.append(cell)
    while queue:
        cell = queue.popleft()
        for frm in back[cell]:
            if dist[frm] is None:
                dist[frm] = dist[cell] + 1
                queue.append(frm)
    return dist


@lru_cache(maxsize=8)
def all_distances(edges: tuple[frozenset[int], ...]) -> tuple[tuple[int | None, ...], ...]:
    """Per cell ``to``, :func:`distances` to it from every cell along ``edges`` (targets per cell).
    Remembered for the last few ``edges``: every army's king, and the evaluation's shelter and
    race terms, share one computation."""
    return tuple(tuple(distances(edges, {to})) for to in range(len(edges)))


# How a zone call in an end rule's condition bears on the side to move's royal piece, by the rule's
# result: +1 when a royal piece standing (or able to step) there wins for its army.
_ZONE_CALLS = {("royal_in", "win"): 1, ("royal_in", "loss"): -1, ("royal_can_enter", "win"): 1,
               ("royal_can_enter", "loss"): -1, ("enemy_royal_in", "loss"): 1, ("enemy_royal_in", "win"): -1}


def goal_zones(game) -> list[str]:
    """The zones a royal piece wins by reaching, by the end rules: a call ``royal_in(Z)``,
    ``royal_can_enter(Z)`` in a winning rule or ``enemy_royal_in(Z)`` in a losing one (under an
    even number of ``not``). Zones named only the other way round (a zone to avoid) are ignored."""
    found: list[str] = []

    def walk(node, result: str, sign: int) -> None:
        if isinstance(node, S.Not):
            walk(node.operand, result, -sign)
            return
        if isinstance(node, S.Call) and len(node.args) == 1 and isinstance(node.args[0], S.Ref):
            polarity = _ZONE_CALLS.get((node.name, result), 0) * sign
            zone = ".".join(node.args[0].path)
            if polarity > 0 and zone in game.board.zones and zone not in found:
                found.append(zone)
        for value in node.__dict__.values():
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, S.Node):
                    walk(child, result, sign)

    for rule in game.spec.rules.ends:
        if rule.result in ("win", "loss"):
            walk(rule.condition, rule.result, 1)
    return found


def zone_cells(game, zone: str, army: int) -> frozenset[int]:
    """The cells of ``zone`` for ``army`` (a shared zone, or the army's own part of it)."""
    table = game.board.zones[zone]
    return table[None] if None in table else table.get(game.armies[army].name, frozenset())


@dataclass(frozen=True)
class Passer:
    """The geometry of a piece that only moves towards its promotion (see :func:`passers`), per
    cell, as bit masks of cells (bit ``c`` for cell ``c``): ``span``, the cell and every cell it
    could move on to (its way to promotion); ``threat``, the cell and the cells it could move on
    to, with every cell it attacks from any of them on the empty board (where it would stop an
    enemy passer); ``moves``, the moves it needs to promote (None where it never does);
    ``beside``, the cells off its file (its way and the cells from which it could come) from
    which a piece of the same code could attack a cell of that file, now or after moving on
    (a chess pawn's neighbouring files): with none of its own there, it is *isolated*;
    ``attacks``, the cells it attacks from there on the empty board."""

    span: tuple[int, ...]
    threat: tuple[int, ...]
    moves: tuple[int | None, ...]
    beside: tuple[int, ...]
    attacks: tuple[int, ...]


def passers(game, reaches: list) -> list[Passer | None]:
    """Per code (``reaches``: :func:`reach` of each, None for code 0): a :class:`Passer` when
    the piece promotes and, from any cell from which it can promote, never comes back: its quiet
    moves on the empty board from there form no cycle (a chess or shogi pawn with or without its
    double step, a lance; not a Rocket Chess pawn, which can step up and down again), else None.

    Such a piece is *passed* when no enemy passer's ``threat`` meets its ``span``: no enemy
    pawn stands on its way, could move onto it, or attacks a cell of it or could come to. The
    attacks are read from the game's reverse attack tables (leapers, lame leapers, riders; a
    hopper needs a hurdle and is left out); a piece's own double step, being a once-per-game
    privilege, is not among its moves here (see :func:`lone_position`)."""
    n = game.n
    out: list[Passer | None] = [None]
    for code in range(1, game.ncodes):
        reach = reaches[code]
        goals = {c for c in range(n) if reach.promotes[c]}
        if not goals:
            out.append(None)
            continue
        dist = distances(reach.targets, goals)
        ahead = _ahead(reach.targets, dist)
        if ahead is None:
            out.append(None)
            continue
        hits = _attacks_from(game, code)
        span = [(1 << c) | ahead[c] for c in range(n)]
        threat = [_union(cells, hits) | cells for cells in span]
        out.append(Passer(tuple(span), tuple(threat), tuple(None if d is None else d + 1 for d in dist),
                          _beside(span, threat), tuple(hits)))
    return out


def _beside(span: list[int], threat: list[int]) -> tuple[int, ...]:
    """Per cell, :attr:`Passer.beside` from the ``span`` and ``threat`` masks of each cell."""
    n = len(span)
    files = list(span)                # a cell's file: its way, and every cell whose way passes it
    near = [0] * n                    # per cell: where a pawn could come to attack it from
    for x in range(n):
        for cell in marked_cells(span[x] & ~(1 << x)):
            files[cell] |= 1 << x
        for cell in marked_cells(threat[x] & ~span[x]):
            near[cell] |= 1 << x
    return tuple(_union(files[c], near) & ~files[c] for c in range(n))


def _union(cells: int, masks: list[int]) -> int:
    """The union of ``masks[c]`` over the cells ``c`` of the bit mask ``cells``."""
    out = 0
    for cell in marked_cells(cells):
        out |= masks[cell]
    return out


def _ahead(targets: tuple[frozenset[int], ...], dist: list[int | None]) -> list[int] | None:
    """Per cell, the bit mask of the cells a piece with quiet moves ``targets`` could ever move on
    to from it; None when, from a cell where it can still promote (``dist`` not None), it could
    come back to that cell."""
    n = len(targets)
    ahead = [0] * n
    changed = True
    while changed:                # the closure of the moves, at most as many rounds as the longest way
        changed = False
        for c in range(n):
            mask = ahead[c]
            for t in targets[c]:
                mask |= (1 << t) | ahead[t]
            if mask != ahead[c]:
                ahead[c] = mask
                changed = True
    for c in range(n):
        if dist[c] is not None and (ahead[c] >> c) & 1:
            return None
    return ahead


def lines(game, code: int) -> list[tuple[tuple[int, ...], ...]]:
    """Per cell, the lines along which a piece of ``code`` standing there moves and captures alike:
    each a tuple of cells, nearest first, where a piece on one cell blocks the cells after it; a
    leap is a line of one cell. Read from the movement atoms that both move and capture, from any
    state of the piece (not ``unmoved``, ``once``, ``en passant``, ``if not in_check``, royal-only,
    hopping or on a stack's upper level), within their ``from`` cells; a line stops at the first
    cell outside the atom's ``to`` cells. A lame leap counts as a leap (what blocks it is left
    out). A line that begins another one is dropped. Cells where the piece has none: ``()``."""
    found: list[set[tuple[int, ...]]] = [set() for _ in range(game.n)]
    for atom in game.atoms[code]:
        if (not (atom.quiet and atom.capture) or atom.kind not in ("leap", "ride") or atom.hop or atom.unmoved
                or atom.once or atom.en_passant or atom.unchecked or atom.royal_only or atom.level == "upper"):
            continue
        for cell in range(game.n):
            if atom.from_cells is not None and cell not in atom.from_cells:
                continue
            ways = [[to] for to, _ in atom.leaps[cell]] if atom.kind == "leap" else atom.rays[cell]
            for way in ways:
                line = []
                for to in way:
                    if atom.to_cells is not None and to not in atom.to_cells:
                        break
                    line.append(to)
                if line:
                    found[cell].add(tuple(line))
    out = []
    for cell_lines in found:
        kept = [line for line in cell_lines
                if not any(len(other) > len(line) and other[:len(line)] == line for other in cell_lines)]
        out.append(tuple(sorted(kept)))
    return out


def _attacks_from(game, code: int) -> list[int]:
    """Per cell, the bit mask of the cells that ``code`` attacks from it on the empty board, by the
    reverse attack tables of its army (hoppers left out: they need a hurdle)."""
    tables = game.attackers[game.code_army[code]]
    hits = [0] * game.n
    for target in range(game.n):
        bit = 1 << target
        for src, codes in (*tables.leap[target], *tables.once[target]):
            if code in codes:
                hits[src] |= bit
        for src, _, codes in tables.lame[target]:
            if code in codes:
                hits[src] |= bit
        for chain, codes in tables.ray[target]:
            if code in codes:
                for src in chain:
                    hits[src] |= bit
    return hits
