"""The evaluation's sums over the pieces, computed once and then kept up to date move by move.

:class:`~interpreter.agents.evaluation.Evaluation` compiles a game's tables
once; this module holds them as flat lists (:class:`Terms`) and does the
per-position arithmetic, the part a search repeats at every node. The
score of an army is linear in its pieces but for a few terms, so five sums
per army say everything (see :meth:`Terms.sums`):

- ``square``: every piece on the board at its cell (value, mobility,
  promotion and goal-zone terms, :attr:`Terms.square`), every piece in hand
  (:attr:`Terms.hand`) and every piece locked under another (:attr:`Terms.locked`);
- ``material``: the values of the same pieces, for the endgame phase;
- ``royal``: the royal pieces' endgame mobility (:attr:`Terms.royal`), which
  :meth:`Terms.scores` scales by how much of the army's material is gone;
- ``passed``: the bonus of the army's passed pawns (:attr:`Terms.passed`),
  which depends on the enemy pawns too, scaled as ``royal`` is;
- ``structure``: what the army's doubled and isolated pawns cost it
  (:attr:`Terms.doubled`, :attr:`Terms.isolated`), which depends on its
  other pawns.

The last two depend on the pawns alone: they are kept as they were after a
move that moves, takes, makes or drops no pawn; after one that does, they
are read from a table of pawn placements seen before, by a key that the
sums carry (one more entry, after every army's five), or computed afresh
(:meth:`Terms.pawns_into`) and put into that table.

In games with the royal pieces' safety term and no stacks, the sums end with
two counts per army that the term reads (:meth:`Terms.ring_into`): the enemy
pieces bearing on its royal pieces' rings, and its own and its partners'
pieces bearing on them. A move changes them by what the pieces it moves,
takes or drops bear on; a move of a royal piece, which moves a ring, counts
them afresh.

A move that carries one piece from a cell to another (and takes at most
one, for a hand or not) or drops one changes a few table entries:
:meth:`Terms.after` computes the new sums from the old in constant time;
any other move (castling, stacks, explosions, gating) gets them from
scratch. Both give the same numbers (the contract tests compare them).

Three terms are no sums: they depend on where every piece stands at once, so
:meth:`Terms.scores` computes them at each evaluation (the search remembers
evaluations by hash): the royal pieces' safety (from the counts above) and
shelter (:meth:`Terms.danger`), the pieces' activity along their lines with
the threats to them and the pairs of pieces bound to classes of cells (a
chess bishop's colour), in one walk (:meth:`Terms.activity`), and the passed
pawns' race with the royal pieces (:meth:`Terms.race`, from the passed pawns
that the table of pawn placements keeps).

Compiled with mypyc in the compiled build (``interpreter.native.COMPILED``):
on its hot path an item of a list is updated as ``a[i] = a[i] + d`` (mypyc
compiles ``a[i] += d`` to Python's generic, boxed addition), and a move's
cells and codes are read as :data:`interpreter.engine.moves.Move` says.
"""

from __future__ import annotations

from typing import NamedTuple

from interpreter.engine.moves import DROP, Move
from interpreter.engine.neutral import has_second_part
from interpreter.engine.position import Position
from interpreter.engine.stacking import locked_pieces

# Per army set: square sums, material sums, royal sums, passed sums, structure sums; then the pawns' key
# (5 * army_sets + 1 entries); then, where Terms.ring_sums, per army the attackers and then per army the
# defenders of its royal pieces' rings (2 * armies more).
Sums = list[int]
# A placement of the pawns: its key; the passed and then the structure sums of every army; its passed pawns
# (army, then code * n + cell, each); per army, the value of its pawns.
PawnEntry = tuple[int, list[int], list[int], list[int]]
PAWN_BITS = 12      # the pawn placements whose passed and structure sums are remembered: 2**PAWN_BITS
NEAR_MOVES = 5       # the most moves the race term counts from a royal piece to the cell in front of a pawn
DRAWISH = (1, 4)    # sixteenths of a lead that cannot mate (Terms.winnable): against at most a minor piece, against more
FIRST_CELLS = 3     # activity: a piece's first FIRST_CELLS reached cells count three times (a piece
                    # with few is near trapped; Stockfish's mobility bonuses are as steep at first)


def counted(reached: float) -> float:
    """What ``reached`` cells (a mean, for the baseline) count for in the activity term: three
    times each of the first :data:`FIRST_CELLS`, once each after them."""
    return reached + 2 * min(reached, FIRST_CELLS)


class Shape(NamedTuple):
    """Who plays on which board: what every other group of :class:`Terms`'s tables is read against."""

    n: int                    # the cells
    code_army: list[int]      # per code: its army (the neutral set's, after the armies, for neutral pieces)
    armies: int               # the armies that score (neutral pieces, in the last set, do not)
    army_sets: int            # the armies and the neutral set, if any
    team_of: list[int]        # per army: its team (see interpreter.agents.sides)
    teams: int
    turn_team: list[int]      # per turn: the team to move
    is_royal: list[bool]      # per code
    stacking: bool            # pieces stack (a royal piece locked in a stack has no ring)


class Material(NamedTuple):
    """What the pieces are worth where they stand (the ``square`` and ``material`` sums)."""

    square: list[int]         # per code * n + cell: everything but the royal part
    royal: list[int]          # per code * n + cell: a royal piece's endgame mobility (0 for other codes)
    value: list[int]          # per code: its value
    hand: list[int]           # per code: a piece in hand
    locked: list[int]         # per code: a piece locked under another
    start_material: list[int]  # per army: its material at the start (the endgame phase's measure)
    point: int                # a point scored, in centipawns (0: the game does not score)
    checks: list[int]         # per number of checks an army has given, what they are worth (empty: not counted)
    minor: int                # the lead that cannot mate (see Terms.relative; 0: no such scaling)
    royal_start: list[int]    # per army: what its royal pieces on the board at the start are worth, taken off


class Rings(NamedTuple):
    """The royal pieces' safety term (empty ``safety``: no term)."""

    ring: bytes               # per (code * n + cell) * n + royal cell: 1 if it bears on that ring
    safety: list[int]         # what a royal piece costs by attackers net of defenders
    strong: list[bool]        # per code: worth enough to count as an attacker


class Pawns(NamedTuple):
    """The pawns (see tables.passers): the passed and structure terms, and the cells they attack."""

    passer: list[bool]        # per code: a pawn; all False: no pawn terms
    passed: list[int]         # per code * n + cell: a passed pawn's bonus there
    span: list[int]           # per code * n + cell: bit mask of its way (tables.Passer.span)
    threat: list[int]         # per code * n + cell: bit mask of where it stops enemy pawns
    keys: list[int]           # per code * n + cell: a pawn's random key there (0: no pawn)
    beside: list[int]         # per code * n + cell: bit mask of the cells beside its file
    doubled: list[int]        # per code: what a pawn with one of its army's on its way costs
    isolated: list[int]       # per code: what a pawn with none of its code beside its file costs
    hits: list[list[int]]     # per code * n + cell of a pawn: the cells it attacks (empty: none)


class Shelter(NamedTuple):
    """The royal pieces' shelter (empty ``cover``: no term)."""

    cover: list[int]          # per code * n + cell of a royal piece: its distance from the centre's worth
    shield: list[list[int]]   # per code * n + cell of a royal piece: its ring's cells but its own
    per_pawn: int             # per pawn of its army on a royal piece's ring (shield)
    most: int                 # the most pawns counted per royal piece
    routes: list[list[int]]   # per code * n + cell of a castling king: (rook cell, its destination) pairs, flat
    castle_rook: list[bool]   # per code: one of its army's castling rooks


class Lines(NamedTuple):
    """The activity, threats and pair terms, which walk the same lines (empty ``lines``: none)."""

    lines: list[list[int]]    # per code * n + cell: its lines, flat (each's length, then its cells)
    per_cell: list[int]       # per code: a reached cell's worth, in sixteenths of a centipawn
    baseline: list[int]       # per code: what is taken off each piece, in the same unit
    hostile: list[bool]       # per army * codes + code: may that army take a piece of code
    by_pawn: int              # what a piece with lines attacked by an enemy pawn costs its army
    by_lesser: int            # what a piece attacked along a line by an enemy one of less value costs
    pair_bits: list[int]      # per code * n + cell: the bit of the class of cells it is bound to (empty: none)
    pair_masks: list[int]     # per code bound to classes of cells: the mask of its classes' bits
    pair: int                 # what an army with pieces of one such code on two classes gains


class Race(NamedTuple):
    """The passed pawns' race with the royal pieces (evaluation.race_tables; empty: no term). Per
    code * n + cell of a pawn:"""

    front: list[int]          # the cell in front of it (-1: none)
    near: list[int]           # per move from the enemies' nearest royal piece to that cell
    far: list[int]            # less per move from its army's nearest royal piece
    unstoppable: list[int]    # when no enemy royal piece can catch it
    moves_left: list[int]     # the moves it needs to promote
    way: list[list[int]]      # its way: each cell, then the moves needed from there
    royal_dist: list[bytes]   # per royal code: its moves from * n + to on the empty board (255: never)


class Terms:
    """The evaluation's tables of one game, flat: per ``code * n + cell`` (``square``, ``royal``)
    or per code (``value``, ``hand``, ``locked``). Built from groups of tables (each group's
    class says what its tables mean), read here into attributes of their own: the hot path reads
    them without a lookup in a group."""

    def __init__(self, shape: Shape, material: Material, rings: Rings, pawns: Pawns, shelter: Shelter,
                 lines: Lines, race: Race) -> None:
        n = shape.n
        self.n = n
        self.code_army = shape.code_army
        self.armies = shape.armies
        self.army_sets = shape.army_sets
        self.team_of = shape.team_of
        self.teams = shape.teams
        self.turn_team = shape.turn_team
        self.is_royal = shape.is_royal
        self.stacking = shape.stacking
        self.square = material.square
        self.royal = material.royal
        self.value = material.value
        self.hand = material.hand
        self.locked = material.locked
        self.start_material = material.start_material
        self.point = material.point
        self.checks = material.checks
        self.minor = material.minor
        self.royal_start = material.royal_start
        self.ring = rings.ring
        self.ring_sums = bool(rings.ring) and not shape.stacking   # the sums carry the rings' counts (see ring_into)
        self.ring_at = 5 * shape.army_sets + 1                     # where they begin in the sums
        self.safety = rings.safety
        self.strong = rings.strong
        self.passer = pawns.passer
        self.has_passers = any(pawns.passer)
        self.passed = pawns.passed
        self.span = pawns.span
        self.ahead = [mask & ~(1 << (i % n)) for i, mask in enumerate(pawns.span)]   # the span, less its own cell
        self.bits = [1 << cell for cell in range(n)]
        self.threat = pawns.threat
        self.pawn_keys = pawns.keys
        self.beside = pawns.beside
        self.doubled = pawns.doubled
        self.isolated = pawns.isolated
        self.pawn_hits = pawns.hits
        self.cover = shelter.cover
        self.shield = shelter.shield
        self.shelter = shelter.per_pawn
        self.most_shelter = shelter.most
        self.has_shelter = bool(shelter.cover)
        self.routes = shelter.routes
        self.castle_rook = shelter.castle_rook
        self.lines = lines.lines
        self.per_cell = lines.per_cell
        self.baseline = lines.baseline
        self.lined = [any(lines.lines[code * n:(code + 1) * n]) for code in range(len(lines.per_cell))]   # per code: has lines
        self.walks_lines = bool(lines.lines)    # the activity, threats or pair term (they walk the same lines)
        self.hostile = lines.hostile
        self.by_pawn = lines.by_pawn
        self.by_lesser = lines.by_lesser
        self.pair_bits = lines.pair_bits
        self.pair_masks = lines.pair_masks
        self.pair = lines.pair
        self.front = race.front
        self.near = race.near
        self.far = race.far
        self.unstoppable = race.unstoppable
        self.moves_left = race.moves_left
        self.way = race.way
        self.royal_dist = race.royal_dist
        self.races = bool(race.royal_dist)      # the race term (none in stacking games: no tables)
        # Per slot: the entry of a placement of the pawns (see PawnEntry), replaced whole (threads share it).
        self.pawn_table: list[PawnEntry | None] = [None] * (1 << PAWN_BITS)
        # Per slot: a pawn key and, per team, the cells enemy pawns attack in that placement (the
        # activity term's, replaced whole as well).
        self.guard_table: list[tuple[int, list[bytes]] | None] = [None] * (1 << PAWN_BITS)
        self.unguarded = [bytes(n) for _ in range(shape.teams)]   # no pawns: no cell is guarded (read only)

    def sums(self, pos: Position) -> Sums:
        """The five sums of every army set and the pawns' key, from scratch (the pawns' sums from
        the table of placements seen before when their key is there, see :meth:`pawns_known`)."""
        n, sets = self.n, self.army_sets
        square, royal, value, code_army = self.square, self.royal, self.value, self.code_army
        passer, pawn_keys, armies = self.passer, self.pawn_keys, self.armies
        board = pos.board
        out = [0] * (5 * sets + 1 + (2 * armies if self.ring_sums else 0))
        key = 0
        for army in range(sets):
            s = m = r = 0
            for cell in pos.cells_of[army]:
                code = board[cell]
                i = code * n + cell
                s += square[i]
                m += value[code]
                r += royal[i]
                if passer[code] and army < armies:
                    key ^= pawn_keys[i]
            out[army] = s
            out[sets + army] = m
            out[2 * sets + army] = r
        if self.stacking and pos.stacked:
            for _, code in locked_pieces(pos):
                a = code_army[code]
                out[a] += self.locked[code]
                out[sets + a] += value[code]
        hands = pos.hands
        for code in range(1, len(hands)):
            count = hands[code]
            if count:
                a = code_army[code]
                out[a] += count * self.hand[code]
                out[sets + a] += count * value[code]
        if self.has_passers:
            out[5 * sets] = key
            self.pawns_known(pos, out)
        if self.ring_sums:
            self.ring_into(pos, out, self.ring_at, pos.royals)
        return out

    def ring_into(self, pos: Position, out: list[int], start: int, royals: tuple[tuple[int, ...], ...]) -> None:
        """Write into ``out`` from ``start``, per army, the attackers of its royal pieces' rings (its
        enemies' pieces, the :attr:`strong` ones, that bear on one of them: one count per piece and
        royal piece), then per army their defenders (its own and its partners' pieces); royal
        pieces count for neither. ``royals``: per army, the cells of its royal pieces (in a stack,
        those on top)."""
        armies = self.armies
        for k in range(start, start + 2 * armies):
            out[k] = 0
        board = pos.board
        for army in range(armies):
            for cell in pos.cells_of[army]:
                code = board[cell]
                if not self.is_royal[code]:
                    self.bear(code, cell, 1, out, start, royals)

    def bear(self, code: int, cell: int, sign: int, out: list[int], start: int,
             royals: tuple[tuple[int, ...], ...]) -> None:
        """Add ``sign`` to the counts of :meth:`ring_into` for each ring that the piece ``code``
        (not royal) on ``cell`` bears on: as an attacker of its enemies', a defender of its own
        team's. A piece of the neutral set bears on none."""
        army = self.code_army[code]
        armies = self.armies
        if army >= armies:
            return
        n, ring, team_of = self.n, self.ring, self.team_of
        team = team_of[army]
        strong = self.strong[code]
        base = (code * n + cell) * n
        for other in range(armies):
            own = team_of[other] == team
            if not own and not strong:
                continue
            k = start + other + (armies if own else 0)
            for king in royals[other]:
                if ring[base + king]:
                    out[k] = out[k] + sign

    def pawns_into(self, pos: Position, out: Sums) -> tuple[list[int], list[int]]:
        """Write every army's passed and structure sums into ``out``, and the pawns' key; return the
        passed pawns (army, then ``code * n + cell``, each) and per army the value of its pawns.
        Passed: the bonus of each of its pawns on the board (a locked one is no pawn on the board)
        that no pawn of an army of another team stops (see
        :func:`~interpreter.agents.tables.passers`). Structure: less :attr:`doubled` for each pawn
        with a pawn of its army on its way, less :attr:`isolated` for each with none of its army's
        pawns of its code beside its file."""
        n, sets, board, passer, threat, team_of = self.n, self.army_sets, pos.board, self.passer, self.threat, self.team_of
        span, ahead, beside, bits = self.span, self.ahead, self.beside, self.bits
        teams = self.teams
        codes = len(passer)
        stops = [0] * teams                 # per team: where its pawns stop enemy pawns
        own = [0] * (self.armies * codes)   # per army and code: the cells of its pawns
        mine = [0] * self.armies            # per army: the cells of all its pawns
        pawns: list[int] = []               # army, then code * n + cell, per pawn
        material = [0] * self.armies        # per army: the value of its pawns
        key = 0
        for army in range(self.armies):
            out[3 * sets + army] = 0
            out[4 * sets + army] = 0
            team = team_of[army]
            for cell in pos.cells_of[army]:
                code = board[cell]
                if passer[code]:
                    i = code * n + cell
                    stops[team] = stops[team] | threat[i]
                    own[army * codes + code] = own[army * codes + code] | bits[cell]
                    mine[army] = mine[army] | bits[cell]
                    key ^= self.pawn_keys[i]
                    material[army] = material[army] + self.value[code]
                    pawns.append(army)
                    pawns.append(i)
        out[5 * sets] = key
        enemies = [0] * teams               # per team: where its enemies' pawns stop its pawns
        for team in range(teams):
            for other in range(teams):
                if other != team:
                    enemies[team] = enemies[team] | stops[other]
        passed: list[int] = []
        for k in range(0, len(pawns), 2):
            army, i = pawns[k], pawns[k + 1]
            if not enemies[team_of[army]] & span[i] and self.passed[i]:
                out[3 * sets + army] = out[3 * sets + army] + self.passed[i]
                passed.append(army)
                passed.append(i)
            code = i // n
            if mine[army] & ahead[i]:
                out[4 * sets + army] = out[4 * sets + army] - self.doubled[code]
            if not own[army * codes + code] & beside[i]:
                out[4 * sets + army] = out[4 * sets + army] - self.isolated[code]
        return passed, material

    def pawns_known(self, pos: Position, out: Sums) -> PawnEntry:
        """Write every army's passed and structure sums into ``out``, whose pawns' key is that of
        ``pos``: from the table when the placement was seen before, else from :meth:`pawns_into`
        (then remembered); return the placement's entry."""
        sets, armies = self.army_sets, self.armies
        key = out[5 * sets]
        slot = key & ((1 << PAWN_BITS) - 1)
        entry = self.pawn_table[slot]
        if entry is not None and entry[0] == key:
            known = entry[1]
            for army in range(armies):
                out[3 * sets + army] = known[army]
                out[4 * sets + army] = known[armies + army]
            return entry
        passed, material = self.pawns_into(pos, out)
        entry = (key, out[3 * sets:3 * sets + armies] + out[4 * sets:4 * sets + armies], passed, material)
        self.pawn_table[slot] = entry
        return entry

    def pawn_entry(self, pos: Position, sums: Sums) -> PawnEntry:
        """The entry of ``pos``'s placement of the pawns (``sums`` are its sums): from the table,
        else computed (:meth:`pawns_known`, on a copy of the sums, which it would rewrite)."""
        key = sums[5 * self.army_sets]
        entry = self.pawn_table[key & ((1 << PAWN_BITS) - 1)]
        if entry is None or entry[0] != key:
            entry = self.pawns_known(pos, list(sums))
        return entry

    def after(self, pos: Position, before: Sums, move: Move) -> Sums:
        """The sums after ``move``, just made in ``pos`` (whose sums were ``before``). A move with
        a second part (a neutral piece moved after it, see :mod:`~interpreter.engine.neutral`):
        the wrapped move's sums, then the neutral piece's entries (its army set scores nothing, but
        the sums are those :meth:`sums` gives)."""
        if has_second_part(move):
            special = move[3]
            code = pos.game.neutral_move
            wrapped = special[3]
            step = None if wrapped is DROP else pos.last_step(2)
            if code is None or self.passer[code] or self.is_royal[code] or (wrapped is not DROP and step is None):
                return self.sums(pos)          # (castling, gating ...: from scratch, as after such a move alone)
            out = self._after(pos, before, (move[0], move[1], move[2], wrapped), step)
            source, cell, n, a = special[1], special[2], self.n, self.code_army[code]
            if source >= 0:
                out[a] = out[a] - self.square[code * n + source]
                out[2 * self.army_sets + a] = out[2 * self.army_sets + a] - self.royal[code * n + source]
            else:
                out[self.army_sets + a] = out[self.army_sets + a] + self.value[code]
            out[a] = out[a] + self.square[code * n + cell]
            out[2 * self.army_sets + a] = out[2 * self.army_sets + a] + self.royal[code * n + cell]
            return out
        return self._after(pos, before, move, None if move[3] is DROP else pos.last_step())

    def _after(self, pos: Position, before: Sums, move: Move, step: tuple[int, int, int] | None) -> Sums:
        """:meth:`after` of a move without a second part; ``step``: what its record says
        (:meth:`Position.last_step <interpreter.engine.position.Position.last_step>`; None for a drop)."""
        special = move[3]
        if special is DROP:
            code: int = move[2]
            i = code * self.n + move[1]
            a = self.code_army[code]
            out = list(before)
            out[a] = out[a] + self.square[i] - self.hand[code]
            out[2 * self.army_sets + a] = out[2 * self.army_sets + a] + self.royal[i]
            if self.passer[code]:
                out[5 * self.army_sets] = out[5 * self.army_sets] ^ self.pawn_keys[i]
                self.pawns_known(pos, out)
            if self.ring_sums:
                if self.is_royal[code]:
                    self.ring_into(pos, out, self.ring_at, pos.royals)
                else:
                    self.bear(code, move[1], 1, out, self.ring_at, pos.royals)
            return out
        if step is None:
            if special is not None and special[0] == "pass":
                return before
            return self.sums(pos)
        piece, captured, hand_code = step
        n, sets, square, royal, value, code_army = self.n, self.army_sets, self.square, self.royal, self.value, self.code_army
        frm: int = move[0]
        to: int = move[1]
        new = pos.board[to]
        out = list(before)
        a, b = code_army[piece], code_army[new]
        i, j = piece * n + frm, new * n + to
        out[a] = out[a] - square[i]
        out[b] = out[b] + square[j]
        out[sets + a] = out[sets + a] - value[piece]
        out[sets + b] = out[sets + b] + value[new]
        out[2 * sets + a] = out[2 * sets + a] - royal[i]
        out[2 * sets + b] = out[2 * sets + b] + royal[j]
        k = 0                     # the captured piece's code * n + cell (0: none; code 0 is no pawn)
        cell: int = to
        if captured:
            if special is not None and special[0] == "ep":
                cell = special[1]
            c, k = code_army[captured], captured * n + cell
            out[c] = out[c] - square[k]
            out[sets + c] = out[sets + c] - value[captured]
            out[2 * sets + c] = out[2 * sets + c] - royal[k]
        if hand_code:
            h = code_army[hand_code]
            out[h] = out[h] + self.hand[hand_code]
            out[sets + h] = out[sets + h] + value[hand_code]
        if self.has_passers and (self.passer[piece] or self.passer[new] or self.passer[captured]):
            pawn_keys = self.pawn_keys
            out[5 * sets] = out[5 * sets] ^ pawn_keys[i] ^ pawn_keys[j] ^ pawn_keys[k]
            self.pawns_known(pos, out)
        if self.ring_sums:
            is_royal = self.is_royal
            if is_royal[piece] or is_royal[new] or is_royal[captured]:
                self.ring_into(pos, out, self.ring_at, pos.royals)       # a ring moved (or went)
            else:
                at, royals = self.ring_at, pos.royals
                self.bear(piece, frm, -1, out, at, royals)
                self.bear(new, to, 1, out, at, royals)
                if captured:
                    self.bear(captured, cell, -1, out, at, royals)
        return out

    def scores(self, pos: Position, sums: Sums) -> list[int]:
        """The score of every army (centipawns, higher is better for it) from its sums: the squares
        and the pawns' structure, plus the royal pieces' endgame term and the passed pawns' bonus
        with their race (:meth:`race`), both scaled by the share of its starting material gone; the
        checks it has given (``count checks``); in games that score, the points, and nothing else
        for an army out of the game."""
        sets = self.army_sets
        danger = self.danger(pos, sums) if self.ring or self.has_shelter else None
        active = self.activity(pos, sums[5 * sets] if self.has_passers else -1) if self.walks_lines else None
        race = self.race(pos, sums) if self.races else None
        out: list[int] = []
        for army in range(self.armies):
            score = sums[army] + sums[4 * sets + army] - self.royal_start[army]
            if danger is not None:
                score -= danger[army]
            if active is not None:
                score += active[army]
            r = sums[2 * sets + army]
            p = sums[3 * sets + army] if race is None else sums[3 * sets + army] + race[army]
            if r or p:
                late = max(0.0, 1.0 - sums[sets + army] / self.start_material[army])
                score += round(late * (r + p))
            if self.checks:
                score += self.checks[min(pos.checks[army], len(self.checks) - 1)]
            if self.point:
                score = self.point * pos.scores[army] + (0 if (pos.out >> army) & 1 else score)
            out.append(score)
        return out

    def race(self, pos: Position, sums: Sums) -> list[int] | None:
        """Per army, what its passed pawns gain in their race with the royal pieces (None: there is
        no passed pawn). Each gains :attr:`near` per move from the cell in front of it
        (:attr:`front`) to the nearest royal piece of an enemy army, less :attr:`far` per move to the
        nearest of its own army's, each distance at most :data:`NEAR_MOVES` (no such
        royal piece: that many); and :attr:`unstoppable` when no enemy has anything but royal
        pieces and pawns on the board and none of the enemies' royal pieces can catch it
        (:meth:`runs_free`)."""
        armies, n = self.armies, self.n
        entry = self.pawn_entry(pos, sums)
        passed = entry[2]
        if not passed:
            return None
        board, royals, team_of, dist = pos.board, pos.royals, self.team_of, self.royal_dist
        cap = NEAR_MOVES
        out = [0] * armies
        bare: list[bool] | None = None
        for k in range(0, len(passed), 2):
            army, i = passed[k], passed[k + 1]
            team = team_of[army]
            at = self.front[i]
            if at < 0:
                continue
            own = enemy = cap
            for other in range(armies):
                mine = other == army
                if not mine and team_of[other] == team:
                    continue
                for king in royals[other]:
                    table = dist[board[king]]
                    if table:
                        d = table[king * n + at]
                        if mine:
                            own = min(own, d)
                        else:
                            enemy = min(enemy, d)
            out[army] = out[army] + self.near[i] * enemy - self.far[i] * own
            if self.unstoppable[i]:
                if bare is None:
                    bare = self.bare(pos, sums, entry[3])
                if bare[team] and self.runs_free(pos, i, team):
                    out[army] = out[army] + self.unstoppable[i]
        return out

    def bare(self, pos: Position, sums: Sums, pawns: list[int]) -> list[bool]:
        """Per team: do its enemies have nothing on the board but royal pieces and pawns (no
        :meth:`pieces`; ``pawns``: per army, its pawns' value)?"""
        out = [True] * self.teams
        team_of = self.team_of
        for army in range(self.armies):
            if self.pieces(pos, sums, pawns, army):
                for team in range(self.teams):
                    if team != team_of[army]:
                        out[team] = False
        return out

    def pieces(self, pos: Position, sums: Sums, pawns: list[int], army: int) -> int:
        """What ``army``'s pieces on the board are worth but its royal pieces and pawns: its
        material (``sums``) less its pawns' (``pawns``, per army, as the pawns' table keeps it)
        and its royal pieces' values."""
        board, value = pos.board, self.value
        rest = sums[self.army_sets + army] - pawns[army]
        for king in pos.royals[army]:
            rest -= value[board[king]]
        return rest

    def runs_free(self, pos: Position, i: int, team: int) -> bool:
        """Can the passed pawn ``code * n + cell`` = ``i`` of ``team`` run to promotion uncaught, as
        the rule of the square says? Its way must be empty, and no enemy royal piece may reach a
        cell of it in as many moves as the pawn needs to come there, one more when an enemy is to
        move (such a royal piece stands on that cell when the pawn would come, or beside it when it
        comes, and stops it or takes it). Distances are moves on the empty board; the pawn's double
        step is not counted (a pawn that has it is caught the sooner), nor what the enemies' pawns
        do meanwhile."""
        n, board, royals, team_of, dist = self.n, pos.board, pos.royals, self.team_of, self.royal_dist
        moves = self.moves_left[i]
        tempo = 1 if self.turn_team[pos.turn] != team else 0
        way = self.way[i]
        for k in range(0, len(way), 2):
            cell = way[k]
            if board[cell]:
                return False
            limit = moves - way[k + 1] + tempo
            for other in range(self.armies):
                if team_of[other] == team:
                    continue
                for king in royals[other]:
                    table = dist[board[king]]
                    if table and table[king * n + cell] <= limit:
                        return False
        return True

    def activity(self, pos: Position, key: int) -> list[int]:
        """Per army, the ``activity``, ``threats`` and ``pair`` terms (centipawns, the first rounded
        down), in one walk of its pieces' lines on ``pos``'s board. Activity: for each of its pieces with
        lines, the cells it reaches along them (up to the first piece, and that one when the army
        may take it) that no enemy pawn attacks (:meth:`guarded`), as :func:`counted`, times
        :attr:`per_cell`, less :attr:`baseline`. Threats: less :attr:`by_pawn` for each of its
        pieces with lines on a cell an enemy pawn attacks, and :attr:`by_lesser` for each line of
        an enemy piece with lines that ends on one of its pieces worth more (royal pieces aside:
        an attack on them is a check, the search's business); a piece attacked twice pays twice.
        Pair: :attr:`pair` for each code of :attr:`pair_masks` whose pieces with lines stand on
        two of its classes of cells or more (:attr:`pair_bits`).
        ``key``: the pawns' key of ``pos`` (-1: none)."""
        n, board, lines, hostile = self.n, pos.board, self.lines, self.hostile
        per_cell, baseline, lined = self.per_cell, self.baseline, self.lined
        codes = len(per_cell)
        armies, team_of = self.armies, self.team_of
        value, is_royal, code_army = self.value, self.is_royal, self.code_army
        by_pawn, by_lesser = self.by_pawn, self.by_lesser
        pair_bits, pair_masks, pair = self.pair_bits, self.pair_masks, self.pair
        guarded = self.guarded(pos, key)
        out = [0] * armies
        threats = [0] * self.army_sets    # what each army loses to threats (a neutral set's: never read)
        for army in range(armies):
            row = army * codes
            total = 0
            unsafe = guarded[team_of[army]]
            seen = 0                      # the bits of the classes its bound pieces stand on
            for cell in pos.cells_of[army]:
                code = board[cell]
                if not lined[code]:
                    continue
                if pair_masks:
                    seen |= pair_bits[code * n + cell]
                if unsafe[cell]:
                    threats[army] = threats[army] + by_pawn
                mine = value[code]
                flat = lines[code * n + cell]
                reached = 0
                k = 0
                size = len(flat)
                while k < size:
                    end = k + 1 + flat[k]
                    k += 1
                    while k < end:
                        target = flat[k]
                        other = board[target]
                        if other:
                            if hostile[row + other]:
                                if not unsafe[target]:
                                    reached += 1
                                if value[other] > mine and not is_royal[other]:
                                    threats[code_army[other]] = threats[code_army[other]] + by_lesser
                            break
                        if not unsafe[target]:
                            reached += 1
                        k += 1
                    k = end
                total += per_cell[code] * (reached + 2 * min(reached, FIRST_CELLS)) - baseline[code]    # counted(), inline
            out[army] = total // 16
            for mask in pair_masks:
                both = seen & mask
                if both & (both - 1):     # two classes or more
                    out[army] = out[army] + pair
        for army in range(armies):
            out[army] = out[army] - threats[army]
        return out

    def guarded(self, pos: Position, key: int) -> list[bytes]:
        """Per team, the cells some enemy pawn attacks (1) or none does (0), by :attr:`pawn_hits`;
        remembered by the pawns' ``key`` (-1: not remembered) as the pawns' sums are."""
        if not self.pawn_hits:
            return self.unguarded
        slot = key & ((1 << PAWN_BITS) - 1)
        if key >= 0:
            entry = self.guard_table[slot]
            if entry is not None and entry[0] == key:
                return entry[1]
        n, board, team_of, teams, pawn_hits = self.n, pos.board, self.team_of, self.teams, self.pawn_hits
        marks = [bytearray(n) for _ in range(teams)]
        for army in range(self.armies):
            own = team_of[army]
            for cell in pos.cells_of[army]:
                for target in pawn_hits[board[cell] * n + cell]:
                    for team in range(teams):
                        if team != own:
                            marks[team][target] = 1
        guarded = [bytes(mark) for mark in marks]   # read as bytes: the compiled build indexes them natively
        if key >= 0:
            self.guard_table[slot] = (key, guarded)
        return guarded

    def danger(self, pos: Position, sums: Sums) -> list[int]:
        """Per army, what the royal pieces' terms take from it: :attr:`safety` of the number of
        enemy pieces that count as attackers bearing on the rings of its royal pieces, less a
        sixteenth per own piece that bears on them (at most half), less the royal pieces'
        shelter (:attr:`cover` of their cells, :attr:`shelter` per pawn of the army on their
        :attr:`shield`, at most :attr:`most_shelter`; for a king that may still castle, on the
        shield where a castling takes it if more are there: :attr:`routes`), all times the share of the enemies'
        starting material still theirs. Negative where the shelter outweighs the attackers."""
        n, board, ring, team_of, armies, is_royal = self.n, pos.board, self.ring, self.team_of, self.armies, self.is_royal
        royals = pos.royals
        if self.stacking:
            # The royal pieces on top (a royal piece locked in a stack has no ring to defend).
            royals = tuple([tuple([cell for cell in pos.cells_of[army] if is_royal[board[cell]]])
                            for army in range(armies)])
        counts, at = sums, self.ring_at     # the rings' counts: carried in the sums, or counted here
        if not self.ring_sums:
            counts, at = [0] * (2 * armies), 0
            if ring:
                self.ring_into(pos, counts, 0, royals)
        out = [0] * armies
        last = len(self.safety) - 1
        code_army = self.code_army
        for army in range(armies):
            penalty = (self.safety[min(counts[at + army], last)] * (16 - min(counts[at + armies + army], 8))
                       if ring else 0)
            cover = 0
            if self.has_shelter:
                for king in royals[army]:
                    i = board[king] * n + king
                    pawns = self.shielding(board, self.shield[i], army)
                    routes = self.routes[i] if self.routes else []
                    if routes and (pos.unmoved >> king) & 1:
                        # A king that may still castle is as sheltered as where castling takes it.
                        for k in range(0, len(routes), 2):
                            rook = board[routes[k]]
                            if (pos.unmoved >> routes[k]) & 1 and self.castle_rook[rook] and code_army[rook] == army:
                                pawns = max(pawns, self.shielding(board, self.shield[board[king] * n + routes[k + 1]],
                                                                  army))
                    cover += self.cover[i] + self.shelter * min(pawns, self.most_shelter)
            if not penalty and not cover:
                continue
            left = start = 0
            for enemy in range(armies):
                if team_of[enemy] != team_of[army]:
                    left += sums[self.army_sets + enemy]
                    start += self.start_material[enemy]
            out[army] = (penalty - 16 * cover) * left // (16 * max(1, start))
        return out

    def shielding(self, board: list[int], cells: list[int], army: int) -> int:
        """How many of ``cells`` hold a pawn (a :attr:`passer`) of ``army``."""
        passer, code_army = self.passer, self.code_army
        pawns = 0
        for cell in cells:
            other = board[cell]
            if other and passer[other] and code_army[other] == army:
                pawns += 1
        return pawns

    def team_scores(self, pos: Position, sums: Sums) -> list[int]:
        """The score of every team: the sum of its armies'."""
        totals = [0] * self.teams
        team_of = self.team_of
        for army, score in enumerate(self.scores(pos, sums)):
            team = team_of[army]
            totals[team] = totals[team] + score
        return totals

    def relative(self, pos: Position, sums: Sums, team: int) -> int:
        """``team``'s score minus the mean score of the other teams. Where :attr:`minor` is set (two
        armies, every win a mate: see evaluation.mate_only), a lead without pawns counts
        :data:`DRAWISH` of itself when the side ahead has at most :attr:`minor` more than the other
        on the board, royal pieces and pawns aside (:meth:`winnable`)."""
        totals = self.team_scores(pos, sums)
        others = len(totals) - 1
        if not others:
            return totals[team]
        score = totals[team] - (sum(totals) - totals[team]) // others
        if self.minor and score:
            share = self.winnable(pos, sums, team if score > 0 else 1 - team)
            if share < 16:   # rounded towards 0: either team's view is the other's negated
                score = score * share // 16 if score > 0 else -(-score * share // 16)
        return score

    def winnable(self, pos: Position, sums: Sums, ahead: int) -> int:
        """In sixteenths, what the lead of army ``ahead`` (of two) counts for: 16 when it has pawns
        or more than :attr:`minor` beyond the other's :meth:`pieces`; else the first of
        :data:`DRAWISH` when the other has at most :attr:`minor` of pieces (a rook against a bishop),
        the second otherwise (a rook and a knight against a rook)."""
        pawns = self.pawn_entry(pos, sums)[3] if self.has_passers else [0, 0]
        if pawns[ahead]:
            return 16
        behind = self.pieces(pos, sums, pawns, 1 - ahead)
        if self.pieces(pos, sums, pawns, ahead) - behind > self.minor:
            return 16
        return DRAWISH[0] if behind <= self.minor else DRAWISH[1]
