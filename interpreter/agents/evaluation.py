"""The generic evaluation: a score per army, from tables compiled out of the game once.

A piece on a cell is worth (in centipawns):

- ``material``: its value (:func:`~interpreter.agents.tables.piece_values`),
  plus :data:`ROYAL` for a royal piece (so that a game in which a royal
  piece can leave the board, by removal or explosion, values keeping it),
  less the same for each royal piece its army has on the board at the
  start: an army is not ahead by the royal pieces it starts with (a Horde
  army of pawns and no king against an army with one is not 20 pawns
  behind), and losing one still costs it;
  a piece locked under another in a stack counts :data:`LOCKED` of it;
- ``mobility``: :data:`MOBILITY` per cell it reaches from there on the empty
  board, above or below its mean over the board (a piece-square table that
  centralises long-range pieces); for a royal piece :data:`ROYAL_MOBILITY`
  per cell, scaled by how much of its army's material is gone (a king comes
  out in the endgame, and the enemy of a lone king gains by driving it to
  where it moves least);
- ``promotion``: for a piece that promotes, :data:`PROMOTION` of its gain
  (best promotion's value minus its own) divided by the number of its
  moves until it can make a promoting move, that one included, less the
  same on the cell where it is least (the farthest from promoting): a
  pawn is worth its value where it starts, and the term is what it gains
  by advancing (a chess pawn two moves from promoting 40, one move 100);
- ``zone``: for a royal piece and each goal zone of the end rules (a hill,
  a goal rank, a cockpit), :data:`ZONE` times 2 / (moves to the zone + 1);
- ``checks`` (an army's, not a piece's): in games that count checks
  (``count checks to N``), an army that has given ``c`` checks gains
  :data:`CHECKS` times ``c / (N - c)``: with three to give, 150 for the
  first and 600 for two, one check from winning (with five: 75, 200, 450,
  1,200; none where the rules give no count, ``count checks`` alone, nor
  where losing every piece wins, nor with the weight 0).
  Read from the position at each evaluation;
- ``safety``: a royal piece's ring is its cell and the cells it reaches from
  there on the empty board (a king's neighbours, a general's palace steps).
  An enemy piece worth at least :data:`ATTACKER` that stands on the ring or
  reaches a cell of it on the empty board bears on it; an own piece that
  does defends it. The royal piece's army loses :data:`SAFETY` [attackers],
  a sixteenth less per defender (at most half less), scaled by the share of
  the enemies' starting material still on the board (no king hunt without
  pieces). The empty
  board ignores what blocks a line: a rook behind its own pawns bears on
  the enemy king's ring. The search carries the counts of attackers and
  defenders from move to move, counted afresh when a royal piece moves
  (:meth:`~.incremental.Terms.ring_into`); there is no such term when
  losing every piece wins, no army has a royal piece, or the table of rings
  (a byte per code, cell and royal cell) would pass :data:`RING_BYTES`;
- ``shelter``: a royal piece gains :data:`HIDE` per move of its mean distance
  (in its own moves on the empty board) to the board's cells above the mean
  of that over the board (far from the centre, in a corner: a chess king
  21 more on g1 than on e1, 30 less on e2), and :data:`SHELTER` per pawn
  (as for ``passed``) of its army on its ring but its cell, up to
  :data:`SHIELD` of them (f2, g2 and h2 for a king on g1), or, while it may
  still castle, on the ring of the cell a castling takes it to if more are
  there (a king on e1 that may castle short counts f2, g2 and h2, so that
  its army's d- and e-pawns may advance); both scaled, as
  the safety term, by the share of the enemies' starting material still on
  the board. The distance part is left out for a royal piece whose moves do
  not reach every cell (a general in its palace), and in games where an end
  rule sends the royal pieces to a goal zone (the ``zone`` term: a hill in
  the centre); computed at every evaluation, with the safety term and where
  it is (but for its weight);
- ``passed``: a pawn (a piece whose every move brings it nearer its
  promotion, :func:`~interpreter.agents.tables.passers`) that no enemy pawn
  stands in front of, could move in front of, or could take on its way is
  passed: it gains :data:`PASSED` of its promotion gain divided by the
  moves it needs to promote to the power 1.5 (a chess pawn on the seventh
  rank 240 with a queen of 9, on the fifth 46), scaled, as the royal pieces'
  endgame mobility, by how much of its army's material is gone. None in games with
  drops (a dropped piece stops any pawn) or where losing every piece wins;
  and its race with the royal pieces, scaled the same way: a passed pawn
  gains :data:`NEAR` of its gain per move from the cell in front of it to
  the nearest enemy royal piece and loses :data:`FAR` per move to its own
  army's (moves on the empty board, up to
  :data:`~interpreter.agents.incremental.NEAR_MOVES`), both times
  Stockfish's classical rank factor (a pawn one to four moves from
  promoting: 1, 0.71, 0.41, 0.12; none farther); where the enemies have
  nothing but royal pieces and pawns, a passed pawn whose way is empty and
  that no enemy royal piece can catch by the rule of the square gains
  :data:`UNSTOPPABLE` of its gain. Computed at each evaluation from the
  passed pawns the pawns' table keeps (none in stacking games, without royal
  pieces, or where the tables of the royal pieces' distances, a byte per
  pair of cells, would pass :data:`RING_BYTES`);
- ``structure``: a pawn (as for ``passed``) with a pawn of its army on
  its way (doubled: the one behind) loses :data:`DOUBLED` of its value; one
  with no pawn of its kind and army beside its file (isolated: on no cell
  from which one could attack a cell of its file, now or after moving on,
  a chess pawn's neighbouring files) loses :data:`ISOLATED`. None where
  there is no ``passed`` term (games with drops, or where losing every
  piece wins);
- ``activity``: a non-royal piece that moves and captures alike along lines
  (:func:`~interpreter.agents.tables.lines`: not a pawn, not a hopper) gains
  :data:`ACTIVITY` per cell it reaches on the real board (the empty cells
  of each line up to the first piece, and that one if it may take it; not
  the cells an enemy pawn, as for ``passed``, attacks: none in games with
  drops), three times as much for each of the first
  :data:`~interpreter.agents.incremental.FIRST_CELLS` (a piece that reaches
  few is near trapped), less the same count for half of what it reaches
  from the mean cell of the empty board; a piece that reaches more than
  :data:`WIDE` cells on the mean gains less per cell, and loses less for
  that half (both by the square root of the ratio), so that a queen's many
  cells do not outweigh a knight's few. Computed afresh at every
  evaluation, as the safety term; none in stacking games or where losing
  every piece wins;
- ``threats``: a piece with lines (as for ``activity``) on a cell an enemy
  pawn attacks costs its army :data:`THREAT_PAWN`, and each line of an enemy
  piece with lines that ends on a piece worth more than that enemy piece (a
  knight's leap to a rook, a bishop's ray to a queen; not to a royal piece,
  which is a check) costs the attacked piece's army :data:`THREAT_LESSER`, as
  Stockfish's classical threat terms: the side not to move may take it, and
  a search that stops at a quiet position does not see it. Computed in the
  same walk as ``activity`` (with its lines even when ``activity``'s weight
  is 0), in the same games;
- ``pair``: an army gains :data:`PAIR` for each kind of its pieces bound to
  classes of cells (:func:`bound_classes`: a chess bishop to its colour)
  that it has on two classes or more (the bishop pair). Computed in the
  same walk, in the same games, for kinds with lines;

and a piece in hand ``hand`` times 110% of its value. Each term is
multiplied by the weight of its name, 1 unless the rules file's ``ai``
block says otherwise (``dsl.spec.AI_WEIGHTS`` names them). When an end rule
makes losing every piece a win, everything a piece is worth counts
negatively, a quarter of it (:data:`EXTINCTION`). In games that score
(``points``), each point an army has scored is worth :data:`POINTS` times
the ``material`` weight, and the pieces of an army out of the game are worth
nothing to it (they never move again). In games of two armies whose every
win is a mate (:func:`mate_only`), a lead without pawns of at most the
cheapest piece's worth counts a sixteenth or a quarter of itself
(:meth:`~.incremental.Terms.relative`).

:meth:`Evaluation.relative` turns the army scores into a score for one
team: its own total minus the mean of the other teams' totals.
"""

from __future__ import annotations

import weakref

import networkx as nx

from dsl import spec as S
from interpreter.compiler.end_rules import is_mate
from interpreter.engine.rights import marked_cells
from interpreter.loading import start_position

from . import tables
from .incremental import Lines, Material, Pawns, Race, Rings, Shape, Shelter, Terms, counted
from .sides import Sides

ROYAL = 2000          # a royal piece on the board
LOCKED = 0.8          # share of its value that a piece locked under another keeps
MOBILITY = 4          # per cell of empty-board mobility above the piece's mean
ROYAL_MOBILITY = 20   # the same for royal pieces, as their army's material runs out (none left but royals)
PROMOTION = 0.15      # share of the promotion gain one move away (divided by the moves needed)
PASSED = 0.3          # share of the promotion gain a passed pawn one move away gets (divided by moves ** 1.5)
NEAR = 0.05           # a passed pawn one move from promoting: share of its gain per move from the enemy royal piece
FAR = 0.02            # the same, taken off per move from its own army's royal piece
UNSTOPPABLE = 0.5     # share of its gain for a passed pawn that no enemy royal piece can catch (see the docstring)
ZONE = 300            # a royal piece one move from a goal zone
CHECKS = 300          # per check given over the checks still to give (``count checks to N``)
HAND = 1.1            # a piece in hand, relative to its value on the board
EXTINCTION = -0.25    # material's weight when losing every piece wins
POINTS = 100          # a point scored (``points``), as a pawn of value 1
# What a royal piece's army loses by the number of enemy pieces bearing on its ring (one attacker alone is harmless;
# each further one costs more, as in the attack tables of chess engines); each defender takes a sixteenth off, up to half.
SAFETY = (0, 0, 50, 110, 180, 260, 340, 420, 500)
ATTACKER = 250        # pieces worth less (a chess pawn, a shogi pawn) never count as attackers
RING_BYTES = 1 << 23  # the largest table of rings (codes x cells x cells): boards beyond it go without the term
ACTIVITY = 5          # per cell a piece reaches on the real board (see the module docstring)
THREAT_PAWN = 80      # a piece with lines on a cell an enemy pawn attacks
THREAT_LESSER = 50    # each line of an enemy piece of less value that ends on a piece
PAIR = 40             # pieces of a kind bound to classes of cells (bishops), on two classes or more
WIDE = 8              # a piece that reaches more cells than this on the mean gains less per cell
HIDE = 50             # per move of a royal piece's mean distance to the board's cells above the board's mean
SHELTER = 20          # per pawn of its army on a royal piece's ring
SHIELD = 3            # the most pawns a ring counts
DOUBLED = 0.15        # share of its value a pawn with a pawn of its army on its way loses
ISOLATED = 0.12       # share of its value a pawn with no pawn of its army beside its file loses


class Evaluation:
    """The evaluation of one compiled game (build with :func:`evaluation_of`, which caches)."""

    def __init__(self, game, weights: dict[str, float] | None = None) -> None:
        self.game = game
        given = dict(getattr(getattr(game.spec, "ai", None), "weights", None) or {})
        given.update(weights or {})
        self.weights = {name: float(given.get(name, 1.0)) for name in S.AI_WEIGHTS}
        w = self.weights
        self.sides = Sides(game)
        kind_values = tables.piece_values(game)
        material = w["material"]
        scale = EXTINCTION if extinction_wins(game) else 1.0
        ncodes, n = game.ncodes, game.n
        # Centipawns per code: what a capture wins (move ordering, greedy), and material for the phase.
        self.values = [0] + [kind_values[game.code_kind[c]] for c in range(1, ncodes)]
        start = start_position(game)
        self.start_material = [max(1, sum(self.values[start.board[c]] for c in cells)) for cells in start.cells_of[:len(game.armies)]]
        zones = tables.goal_zones(game)
        reaches = [None] + [tables.reach(game, code, self.values) for code in range(1, ncodes)]
        self.square: list[list[int]] = [[0] * n]          # per code and cell, everything but the royal part
        self.royal_square: list[list[int] | None] = [None]  # per code and cell, the endgame mobility of royals
        for code in range(1, ncodes):
            reach = reaches[code]
            royal = game.is_royal[code]
            mobility = [reach.mobility(c) for c in range(n)]
            mean = sum(mobility) / n
            base = material * self.values[code] + (ROYAL * w["royal"] if royal else 0)
            row = [base] * n
            if not royal:
                for c in range(n):
                    row[c] += w["mobility"] * MOBILITY * (mobility[c] - mean)
            if any(reach.promotes):
                dist = tables.distances(reach.targets, {c for c in range(n) if reach.promotes[c]})
                best = max(reach.promotes)
                bonus = {c: PROMOTION * (reach.promotes[c] if dist[c] == 0 else best) / (d + 1)
                         for c, d in enumerate(dist) if d is not None}
                least = min(bonus.values())
                for c, b in bonus.items():
                    row[c] += w["promotion"] * (b - least)
            if royal:
                for zone in zones:
                    dist = tables.distances(reach.targets, set(tables.zone_cells(game, zone, game.code_army[code])))
                    for c in range(n):
                        if dist[c] is not None:
                            row[c] += w["zone"] * ZONE * 2 / (dist[c] + 1)
            self.square.append([round(scale * v) for v in row])
            self.royal_square.append([round(w["mobility"] * ROYAL_MOBILITY * (m - mean)) for m in mobility]
                                     if royal else None)
        self.hand = [round(scale * w["hand"] * material * HAND * v) for v in self.values]
        self.locked = [round(scale * material * LOCKED * v) for v in self.values]
        royal_value = round(scale * ROYAL * w["royal"])
        royal_start = [royal_value * sum(1 for c in cells if game.is_royal[start.board[c]])
                       for cells in start.cells_of[:len(game.armies)]]
        self.point = round(material * POINTS) if game.scoring else 0
        goal = game.count_checks or 0
        self.checks = ([round(w["checks"] * CHECKS * c / (goal - c)) for c in range(goal)]
                       if scale > 0 and w["checks"] else [])
        n = game.n
        royal_terms = scale > 0 and any(game.is_royal) and game.ncodes * n * n <= RING_BYTES
        self.safety = [round(w["safety"] * p) for p in SAFETY] if w["safety"] and royal_terms else []
        cover, shield = (shelter_tables(game, reaches, w["shelter"], hide=not zones) if w["shelter"] and royal_terms
                         else ([], []))
        pawn_terms = (w["passed"] or w["structure"] or shield) and scale > 0 and not game.has_drops
        found = tables.passers(game, reaches) if pawn_terms else [None] * ncodes
        passed, span, threat = [0] * (ncodes * n), [0] * (ncodes * n), [0] * (ncodes * n)
        beside, doubled, isolated = [0] * (ncodes * n), [0] * ncodes, [0] * ncodes
        for code, passer in enumerate(found):
            if passer is not None:
                gain = max(reaches[code].promotes)
                for c in range(n):
                    moves = passer.moves[c]
                    if moves is not None:
                        passed[code * n + c] = round(w["passed"] * PASSED * gain / moves ** 1.5)
                    span[code * n + c], threat[code * n + c] = passer.span[c], passer.threat[c]
                    beside[code * n + c] = passer.beside[c]
                doubled[code] = round(w["structure"] * DOUBLED * self.values[code])
                isolated[code] = round(w["structure"] * ISOLATED * self.values[code])
        race = (race_tables(game, found, reaches, w["passed"]) if w["passed"] and royal_terms and game.stacking is None
                else RACE_NONE)
        routes, castle_rook = castle_routes(game) if shield else ([], [])
        walks = scale > 0 and game.stacking is None
        activity, threats, pair = (w["activity"], w["threats"], w["pair"]) if walks else (0.0, 0.0, 0.0)
        line_table, per_cell, baseline = activity_tables(game, activity, walk=bool(threats or pair))
        pair_bits, pair_masks = pair_tables(game, reaches, line_table) if pair else ([], [])
        # The pawns whose attacks the activity term leaves out (none in games with drops, as above).
        hits = (pawn_hits(game, found if pawn_terms else tables.passers(game, reaches))
                if line_table and not game.has_drops else [])
        self.terms = Terms(
            Shape(n=n, code_army=list(game.code_army), armies=len(game.armies), army_sets=game.army_sets,
                  team_of=list(self.sides.team_of), teams=self.sides.count, turn_team=list(self.sides.turn_team),
                  is_royal=list(game.is_royal), stacking=game.stacking is not None),
            Material(square=[v for row in self.square for v in row],
                     royal=[v for row in self.royal_square for v in (row or [0] * n)],
                     value=list(self.values), hand=self.hand, locked=self.locked,
                     start_material=self.start_material, point=self.point, checks=self.checks,
                     minor=lone_minor(game, self.values, found, list(self.sides.team_of)) if pawn_terms else 0,
                     royal_start=royal_start),
            Rings(ring=ring_table(game, reaches) if self.safety else b"", safety=self.safety,
                  strong=[v >= ATTACKER for v in self.values]),
            Pawns(passer=[p is not None for p in found], passed=passed, span=span, threat=threat,
                  keys=[game.z_piece[i] if found[i // n] is not None else 0 for i in range(ncodes * n)],
                  beside=beside, doubled=doubled, isolated=isolated, hits=hits),
            Shelter(cover=cover, shield=shield, per_pawn=round(w["shelter"] * SHELTER), most=SHIELD,
                    routes=routes, castle_rook=castle_rook),
            Lines(lines=line_table, per_cell=per_cell, baseline=baseline,
                  hostile=[h for row in game.hostile for h in row],
                  by_pawn=round(threats * THREAT_PAWN), by_lesser=round(threats * THREAT_LESSER),
                  pair_bits=pair_bits, pair_masks=pair_masks, pair=round(pair * PAIR)),
            race)

    def army_scores(self, pos) -> list[int]:
        """The score of every army in ``pos`` (centipawns, higher is better for that army)."""
        return self.terms.scores(pos, self.terms.sums(pos))

    def team_scores(self, pos) -> list[int]:
        """The score of every team (the sum of its armies')."""
        return self.terms.team_scores(pos, self.terms.sums(pos))

    def relative(self, pos, team: int) -> int:
        """``team``'s score minus the mean score of the other teams."""
        return self.terms.relative(pos, self.terms.sums(pos), team)


def activity_tables(game, weight: float, walk: bool) -> tuple[list[list[int]], list[int], list[int]]:
    """The ``activity`` term's tables, with its ``weight``: per ``code * n + cell``, the
    :func:`tables.lines` of a piece of ``code`` there, flat (each line's length, then its cells);
    per code, what a reached cell is worth and the baseline taken off a piece, both in sixteenths
    of a centipawn. All empty (no walk of the lines) when no piece has lines, or when the weight
    is 0 unless ``walk`` (the ``threats`` and ``pair`` terms walk the same lines: then only the
    worths are 0)."""
    if not weight and not walk:
        return [], [], []
    n = game.n
    flat: list[list[int]] = [[] for _ in range(game.ncodes * n)]
    per_cell, baseline = [0] * game.ncodes, [0] * game.ncodes
    for code in range(1, game.ncodes):
        if game.is_royal[code]:
            continue
        found = tables.lines(game, code)
        mean = sum(len(line) for cell_lines in found for line in cell_lines) / n
        if not mean:
            continue
        for cell, cell_lines in enumerate(found):
            flat[code * n + cell] = [v for line in cell_lines for v in (len(line), *line)]
        worth = 16 * weight * ACTIVITY * min(1.0, (WIDE / mean) ** 0.5)
        per_cell[code], baseline[code] = round(worth), round(worth * counted(mean / 2))
    return (flat, per_cell, baseline) if any(flat) else ([], [], [])


RACE_NONE = Race([], [], [], [], [], [], [])
"""The tables of :func:`race_tables` where there is no such term."""


def race_tables(game, found: list, reaches: list, weight: float) -> Race:
    """The tables of the passed pawns' race with the royal pieces (see the module docstring), with
    the ``passed`` term's ``weight``; ``found``: :func:`tables.passers` per code. Per ``code * n +
    cell`` of a pawn that can promote from there: the cell in front of it (the nearest of its way;
    -1: none), what each move of the enemy royal piece's distance to that cell is worth (:data:`NEAR`)
    and each of its own's costs (:data:`FAR`), both times its gain and the rank factor, its
    :data:`UNSTOPPABLE` bonus, the moves it needs to promote, and its way (each cell, then the moves
    needed from there, 0 where it promotes), flat; per code of a royal piece, the fewest moves it
    needs from a cell to another on the empty board (a byte per pair, ``from * n + to``, at most
    255; empty for other codes). :data:`RACE_NONE` when no pawn can promote or no piece is royal
    (the caller also gives it in stacking games).

    The rank factor is Stockfish's classical one: a pawn ``m`` moves from promoting counts ``(22 -
    5m) / 17`` (1, 0.71, 0.41, 0.12 for one to four moves; none beyond)."""
    n = game.n
    size = game.ncodes * n
    front, near, far, run, left = [-1] * size, [0] * size, [0] * size, [0] * size, [0] * size
    way: list[list[int]] = [[] for _ in range(size)]
    for code, passer in enumerate(found):
        if passer is None:
            continue
        gain = weight * max(reaches[code].promotes)
        for cell in range(n):
            moves = passer.moves[cell]
            ahead = [(to, passer.moves[to] or 0) for to in marked_cells(passer.span[cell] & ~(1 << cell))]
            if moves is None or not ahead:
                continue
            i = code * n + cell
            front[i] = max(ahead, key=lambda step: (step[1], -step[0]))[0]
            rank = max(0.0, (22 - 5 * moves) / 17)
            near[i], far[i] = round(NEAR * gain * rank), round(FAR * gain * rank)
            run[i], left[i] = round(UNSTOPPABLE * gain), moves
            way[i] = [v for step in sorted(ahead) for v in step]
    if not any(run):
        return RACE_NONE
    known: dict[tuple[frozenset[int], ...], bytes] = {}
    dist: list[bytes] = []
    for code in range(game.ncodes):
        if code == 0 or not game.is_royal[code]:
            dist.append(b"")
            continue
        targets = reaches[code].targets
        if targets not in known:
            table = bytearray([255]) * (n * n)
            for to, column in enumerate(tables.all_distances(targets)):
                for frm, d in enumerate(column):
                    if d is not None:
                        table[frm * n + to] = min(d, 255)
            known[targets] = bytes(table)
        dist.append(known[targets])
    return Race(front, near, far, run, left, way, dist) if any(dist) else RACE_NONE


def bound_classes(targets: tuple[frozenset[int], ...]) -> list[set[int]]:
    """The classes of cells a piece is bound to, by its moves on the empty board (``targets``, per
    cell): the cells split into two or more classes, each of at least two cells, such that every
    move stays in its class and the piece can come back from any cell of its class to any other
    (the two colours of a chess bishop, the three of a hexagonal one). Empty when the piece is
    bound to none: a rook or a knight reaches every cell, a pawn or a lance never comes back,
    a xiangqi elephant stands on few cells."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(targets)))
    for cell, reached in enumerate(targets):
        graph.add_edges_from((cell, to) for to in reached)
    classes = list(nx.strongly_connected_components(graph))
    if len(classes) < 2 or min(map(len, classes)) < 2 or nx.number_weakly_connected_components(graph) != len(classes):
        return []
    return classes


def pair_tables(game, reaches: list, line_table: list[list[int]]) -> tuple[list[int], list[int]]:
    """The ``pair`` term's tables: per ``code * n + cell``, a bit that names the class of cells
    (:func:`bound_classes`) a piece of ``code`` is bound to there (0: none), and per code bound to
    classes, the mask of its classes' bits. Only codes with lines in ``line_table`` (the walk that
    reads the bits visits no other); both empty when no code is bound."""
    n = game.n
    bits = [0] * (game.ncodes * n)
    masks: list[int] = []
    bit = 1                       # the next class's bit
    for code in range(1, game.ncodes):
        if game.is_royal[code] or not any(line_table[code * n:(code + 1) * n]):
            continue
        mask = 0
        for cells in bound_classes(reaches[code].targets):
            for cell in cells:
                bits[code * n + cell] = bit
            mask |= bit
            bit <<= 1
        if mask:
            masks.append(mask)
    return (bits, masks) if masks else ([], [])


def pawn_hits(game, found: list) -> list[list[int]]:
    """Per ``code * n + cell`` of a pawn (a code of ``found``, :func:`tables.passers`): the cells it
    attacks from there on the empty board (:attr:`tables.Passer.attacks`); empty for other codes,
    and all empty without pawns."""
    n = game.n
    hits: list[list[int]] = [[] for _ in range(game.ncodes * n)]
    for code, passer in enumerate(found):
        if passer is not None:
            for cell, mask in enumerate(passer.attacks):
                hits[code * n + cell] = list(marked_cells(mask))
    return hits if any(hits) else []


def shelter_tables(game, reaches: list, weight: float, hide: bool) -> tuple[list[int], list[list[int]]]:
    """The ``shelter`` term's tables, with its ``weight``: per ``code * n + cell`` of a royal piece,
    what its distance from the centre is worth there (:data:`HIDE`, see the module docstring; 0
    everywhere unless ``hide``) and the cells of its ring but its own (where its army's pawns
    shelter it); empty for other codes. ``reaches``: :func:`tables.reach` of every code. Codes
    whose moves are the same share one computation of the distances (every army's king)."""
    n = game.n
    cover, shield = [0] * (game.ncodes * n), [[] for _ in range(game.ncodes * n)]
    known: dict[tuple[frozenset[int], ...], list[int]] = {}
    for code in range(1, game.ncodes):
        if not game.is_royal[code]:
            continue
        targets = reaches[code].targets
        if targets not in known:
            known[targets] = _hiding(targets, weight) if hide else [0] * n
        for cell, worth in enumerate(known[targets]):
            cover[code * n + cell] = worth
            shield[code * n + cell] = sorted(targets[cell] - {cell})
    return cover, shield


def castle_routes(game) -> tuple[list[list[int]], list[bool]]:
    """Where the ``shelter`` term looks for a royal piece that may still castle: per ``code * n +
    cell`` of an army's castling king, the castlings that take it from that cell to another, flat
    (each one's rook cell, then the king's destination: g1 and c1 for a king on e1); and per code,
    whether it is one of its army's castling rooks. Castlings that swap king and rook, or lift the
    rook onto the king, move it nowhere new and are left out; all empty without castling."""
    n = game.n
    routes: list[list[int]] = [[] for _ in range(game.ncodes * n)]
    for army, king in enumerate(game.castle_king_codes):
        if king < 0:
            continue
        for rule in game.castle_rules:
            allowed = rule.rook_cells[army] if rule.rook_cells else None
            for cell in range(n) if not rule.swap else ():
                for rook, to, *_ in rule.paths[cell]:
                    if to != cell and (allowed is None or rook in allowed):
                        routes[king * n + cell] += [rook, to]
    if not any(routes):
        return [], []
    armies = len(game.armies)
    return routes, [0 < code and game.code_army[code] < armies and code in game.castle_rook_codes[game.code_army[code]]
                    for code in range(game.ncodes)]


def _hiding(targets: tuple[frozenset[int], ...], weight: float) -> list[int]:
    """Per cell, :data:`HIDE` times ``weight`` times how many more moves along ``targets`` it takes
    on the mean to come there from the board's cells than the mean over the cells; all 0 when
    some cell cannot be reached from another (a palace)."""
    n = len(targets)
    means = []
    for column in tables.all_distances(targets):
        if None in column:
            return [0] * n
        means.append(sum(column) / n)
    overall = sum(means) / n
    return [round(weight * HIDE * (m - overall)) for m in means]


def ring_table(game, reaches: list) -> bytes:
    """Per ``(code * n + cell) * n + royal_cell``: 1 when a non-royal piece of ``code`` on ``cell``
    stands on or reaches (on the empty board) a cell of the ring of a royal piece on ``royal_cell``
    (see the module docstring), else 0. ``reaches``: :func:`tables.reach` of every code. The
    caller keeps it within :data:`RING_BYTES` (the terms of royal pieces are left out beyond)."""
    n = game.n
    near: list[set[int]] = [set() for _ in range(n)]      # per cell: the royal cells whose ring holds it
    for code in range(1, game.ncodes):
        if game.is_royal[code]:
            for king in range(n):
                for cell in reaches[code].targets[king] | {king}:
                    near[cell].add(king)
    table = bytearray(game.ncodes * n * n)
    for code in range(1, game.ncodes):
        if game.is_royal[code]:
            continue
        for cell in range(n):
            base = (code * n + cell) * n
            for target in reaches[code].targets[cell] | {cell}:
                for king in near[target]:
                    table[base + king] = 1
    return bytes(table)


def mate_only(game) -> bool:
    """Is every win of the game a mate? Every end rule that gives a result other than a draw must
    be a loss for a side in check without a legal move (:func:`~interpreter.compiler.end_rules.is_mate`:
    ``in_check and legal_moves == 0``, as chess's ``checkmate``); a game that is won otherwise too (by baring the
    royal piece, by stalemate, three checks, a goal zone, points, material) is not, and neither is
    one with drops (a piece in hand mates where the board alone could not)."""
    return not game.has_drops and all(rule.result == "draw" or (rule.result == "loss" and is_mate(rule.condition))
                                      for rule in game.spec.rules.ends)


def lone_minor(game, values: list[int], found: list, team_of: list[int]) -> int:
    """The lead that cannot mate (:attr:`.incremental.Terms.minor`): in a game of two armies on two
    teams whose every win is a mate (:func:`mate_only`), without stacks or explosions, the value
    of its cheapest piece that is neither royal nor a pawn (``found``: :func:`tables.passers` per
    code), a chess knight or bishop; else 0 (no scaling), also where a piece that promotes is no
    pawn (it may move back: Pawnback's pawns count as pieces, and one pawn more would be a lead
    that cannot mate). The caller gives 0 where the pawns'
    table is not kept (the ``passed`` and ``structure`` terms and the shelter all off), whose
    pawn values the scaling reads."""
    if (len(game.armies) != 2 or team_of != [0, 1] or game.stacking is not None or game.blast is not None
            or not mate_only(game)):
        return 0
    if any(game.kinds[game.code_kind[c]].spec.promotions and found[c] is None for c in range(1, game.ncodes)):
        return 0      # a piece that promotes but may come back (not a pawn): what it is worth is no guide
    pieces = [values[c] for c in range(1, game.ncodes)
              if values[c] > 0 and not game.is_royal[c] and found[c] is None]
    return min(pieces, default=0)


def extinction_wins(game) -> bool:
    """Does an end rule give the win to an army that has no pieces left (``pieces == 0: win``)?"""
    for rule in game.spec.rules.ends:
        cond = rule.condition
        if (rule.result == "win" and isinstance(cond, S.Compare) and cond.op == "==" and isinstance(cond.left, S.Ref)
                and cond.left.path == ["pieces"] and isinstance(cond.right, S.Num) and cond.right.value == 0):
            return True
    return False


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def evaluation_of(game, weights: dict[str, float] | None = None) -> Evaluation:
    """The game's evaluation (cached per game when ``weights`` is None)."""
    if weights:
        return Evaluation(game, weights)
    if game not in _CACHE:
        _CACHE[game] = Evaluation(game)
    return _CACHE[game]
