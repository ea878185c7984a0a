"""Game state with make/unmake and an incremental Zobrist hash.

The state is flat: ``board`` is a list of piece codes indexed by cell (0 =
empty), ``cells_of[army]`` the set of cells an army occupies, ``unmoved`` a
bit mask of the cells whose piece has not moved (kept only for pieces whose
rules depend on it, castling pieces, pieces on gate cells and pieces with
initial-only moves, and only while the mark still allows something: see
:mod:`~interpreter.engine.rights`),
``ep_cells`` / ``ep_victim`` the en passant targets of the last double step,
``clock`` the halfmove clock and ``turn`` the index into the game's turn
order. :meth:`Position.push` and :meth:`Position.pop` change it in place;
the hash is updated incrementally and kept in ``history`` for repetition.
``royals`` holds the cells of each army's royal pieces (check, pins and the
end rules ask for them at every node): found again only when a move moves,
takes or makes a royal piece, or rewrites cells.

Games with more state keep it in more fields: ``checks`` (checks given, with
``count checks``), ``hands`` (pieces in hand by code) and ``promoted`` (a
bit mask of promoted pieces, for drop games), ``under``, ``deep`` and
``stacked`` (the locked lower pieces of stacks, see
:mod:`~interpreter.engine.stacking`), ``privileges`` (the pieces that may
still use a once-per-game move), ``scores`` and ``out`` (each army's score
and the armies out of the game, in games that score: see
:mod:`~interpreter.engine.scoring`).

What a position allows is asked of the modules beside this one:
:mod:`~interpreter.engine.generation` (pseudo-legal moves),
:mod:`~interpreter.engine.attacks`, :mod:`~interpreter.engine.legality`
and :mod:`~interpreter.engine.outcome` (legal moves and the end of the
game), each a set of functions of a position. :meth:`Position.legal_moves`
and :meth:`Position.in_check` are kept as methods for the questions every
caller asks.
"""

from __future__ import annotations

from interpreter.compiler.game import Game
from interpreter.compiler.native_game import NativeGame
from interpreter.compiler.stacking import CAPTURES

from . import scoring, stacking
from .attacks import gives_check, in_check
from .legality import ep_legal, ep_possible
from .moves import PASS, STEP_TAGS, Move
from .neutral import NEUTRAL_MOVED, pop_neutral, push_neutral
from .outcome import legal_moves
from .rights import dead_marks, ground, inert_marks, marked_cells

RESCUED = object()    # marks the undo record of the removals that end a rescue (see Position._rescue)
GATED = object()      # marks the undo record of a piece gated in after a move (see Position._gate)
DEAD_MEMO = 1024      # the most unmoved masks a position remembers the dead marks of


def mask_key(keys: list[int], flipped: int) -> int:
    """The XOR of the per-cell Zobrist ``keys`` of the cells set in the bit mask ``flipped``."""
    key = 0
    while flipped:
        low = flipped & -flipped
        key ^= keys[low.bit_length() - 1]
        flipped ^= low
    return key


class Position:
    """The state of one game in progress. Create with :func:`interpreter.loading.start_position` or
    :func:`interpreter.loading.position_from_fen`."""

    __slots__ = ("game", "board", "cells_of", "unmoved", "ep_cells", "ep_victim", "clock", "fullmove",
                 "turn", "hash", "history", "checks", "hands", "promoted", "under", "deep", "stacked",
                 "privileges", "scores", "out", "royals", "_undo", "_dead", "_inert")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board: list[int] = [0] * game.n
        self.cells_of: list[set[int]] = [set() for _ in range(game.army_sets)]  # and the neutral pieces'
        self.unmoved = 0
        self.ep_cells: tuple[int, ...] = ()
        self.ep_victim = -1
        self.clock = 0
        self.fullmove = 1
        self.turn = 0
        self.hash = 0
        self.history: list[int] = []
        self.checks: tuple[int, ...] = (0,) * len(game.armies)
        self.hands: list[int] = [0] * game.ncodes
        self.promoted = 0
        self.under: list[int] = [0] * game.n  # the locked piece below the top one (stacking games)
        # The pieces below ``under``, bottom first, in games of stacks higher than two (else None).
        self.deep: list[tuple[int, ...]] | None = (
            [()] * game.n if game.stacking is not None and game.stacking.height > 2 else None)
        self.stacked: set[int] = set()  # the cells where ``under`` is not 0
        self.privileges = 0  # bit mask: the pieces there may still use their once-per-game moves
        self.scores: tuple[int, ...] = (0,) * len(game.armies)
        self.out = 0  # bit mask: the armies out of the game (inert pieces; their turns are skipped)
        # Per army set, the cells of its royal pieces (see attacks.royal_cells): found again by push
        # only when a move moves, takes or makes one, or rewrites cells; put back by pop.
        self.royals: tuple[tuple[int, ...], ...] = ((),) * game.army_sets
        self._undo: list[tuple] = []
        # Memos of the rights (see _drop_dead_marks). While a cell is marked its piece is the one that
        # was there (any change to it clears the mark), so along one game's moves a mark once found
        # inert (rights.inert_marks: a pawn's first-move right) is inert whenever it is set (_inert,
        # -1 until asked), and unless armies leave the game the dead marks are a function of the
        # other marks and of which pieces that may be gated are in hand (_dead).
        self._dead: dict[int, int] = {}
        self._inert = -1

    # ------------------------------------------------------------ setup helpers

    def place(self, cell: int, code: int) -> None:
        """Put ``code`` on an empty ``cell`` (setup only; call :meth:`rehash` after)."""
        self.board[cell] = code
        self.cells_of[self.game.code_army[code]].add(cell)
        if self.game.is_royal[code]:
            self.find_royals()

    def find_royals(self) -> None:
        """Find :attr:`royals` again from the board: the cells of each army's royal pieces, in
        stacking games also those locked under another piece. For code that changes the board other
        than by :meth:`push` and :meth:`pop` (which keep them), then calls this or :meth:`rehash`."""
        g: NativeGame = self.game
        is_royal, board = g.is_royal, self.board
        found = [[c for c in cells if is_royal[board[c]]] for cells in self.cells_of]
        if g.stacking is not None:
            code_army = g.code_army
            for c, code in stacking.locked_pieces(self):
                if is_royal[code]:
                    found[code_army[code]].append(c)
        self.royals = tuple([tuple(cells) for cells in found])

    def rehash(self) -> None:
        """Recompute the hash (and :attr:`royals`) from scratch and restart the repetition history."""
        self.find_royals()
        g: NativeGame = self.game
        h = g.z_turn[self.turn]
        for cell, code in enumerate(self.board):
            if code:
                h ^= g.z_piece[code * g.n + cell]
            if (self.unmoved >> cell) & 1:
                h ^= g.z_unmoved[cell]
        for cell in self.ep_cells:
            h ^= g.z_ep[cell]
        for army, count in enumerate(self.checks):
            h ^= g.z_checks[army][min(count, len(g.z_checks[army]) - 1)]
        for cell, code in enumerate(self.under):
            if code:
                h ^= g.z_under[code * g.n + cell]
        for cell, pieces in enumerate(self.deep or ()):
            h ^= self._deep_key(cell, pieces)
        for code, count in enumerate(self.hands):
            if count:
                h ^= g.z_hand[code][min(count, len(g.z_hand[code]) - 1)]
        h ^= self._promoted_key(self.promoted)
        h ^= self._privilege_key(self.privileges)
        for army, score in enumerate(self.scores):
            keys = g.z_score[army]
            h ^= keys[min(score, len(keys) - 1)]
        h ^= mask_key(g.z_out, self.out)
        self.hash = h
        self.history = [h]

    def copy(self) -> "Position":
        """An independent copy (without the undo stack)."""
        other = Position(self.game)
        other.board = list(self.board)
        other.cells_of = [set(s) for s in self.cells_of]
        other.unmoved, other.ep_cells, other.ep_victim = self.unmoved, self.ep_cells, self.ep_victim
        other.clock, other.fullmove, other.turn, other.hash = self.clock, self.fullmove, self.turn, self.hash
        other.history = list(self.history)
        other.checks = self.checks
        other.hands = list(self.hands)
        other.promoted = self.promoted
        other.under = list(self.under)
        other.deep = None if self.deep is None else list(self.deep)
        other.stacked = set(self.stacked)
        other.privileges = self.privileges
        other.scores, other.out = self.scores, self.out
        other.royals = self.royals
        return other

    @property
    def army(self) -> int:
        """The index of the army to move (the first of them when a turn is shared, see :attr:`movers`)."""
        g: NativeGame = self.game
        return g.turn_order[self.turn]

    @property
    def movers(self) -> tuple[int, ...]:
        """The armies that may move this turn: one, or several when a player moves any piece of a team."""
        g: NativeGame = self.game
        return g.turn_armies[self.turn]

    # ------------------------------------------------------------ the questions every caller asks
    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (see :func:`interpreter.engine.outcome.legal_moves`)."""
        return legal_moves(self)

    def in_check(self, army: int | None = None) -> bool:
        """Is a royal piece of ``army`` (default: any army that moves this turn) attacked by an enemy?"""
        return in_check(self, army)

    # ------------------------------------------------------------ make / unmake
    def push(self, move: Move) -> None:
        """Play ``move`` (assumed legal or at least pseudo-legal)."""
        g: NativeGame = self.game
        frm: int = move[0]     # typed: native ints once compiled (see moves.Move)
        to: int = move[1]
        promo: int = move[2]
        special = move[3]
        board = self.board
        n = g.n
        zp = g.z_piece
        code_army = g.code_army
        h = self.hash
        cells_of = self.cells_of
        captured = 0
        exploded: list[tuple[int, ...]] | None = None  # the undo snapshot of the cells a move rewrites
        hand_code = 0
        promoted = self.promoted
        is_royal = g.is_royal
        tag: str | None = None if special is None else special[0]
        if tag in STEP_TAGS or (tag == "st" and special[1] in stacking.STEP_OUTCOMES and not self.under[frm]
                                and g.blast is None):
            # A piece moves from one cell to another (capturing on the way, for en passant); in a
            # stacking game, a lone piece that moves to an empty cell or takes a lone piece.
            piece = board[frm]
            army = code_army[piece]
            changed = (1 << frm) | (1 << to)
            cell: int = to if tag != "ep" else special[1]
            captured = board[cell] if cell != frm else 0   # a promotion in place takes nothing
            if captured:
                board[cell] = 0
                cells_of[code_army[captured]].discard(cell)
                h ^= zp[captured * n + cell]
                changed |= 1 << cell
                if g.to_hand:
                    kind = g.code_kind[captured]
                    if g.drops_demoted and ((promoted >> cell) & 1 or g.always_demote[kind]):
                        kind = g.demote[kind]
                    hand_code = g.code(kind, army)
                    h ^= self._hand_delta(hand_code, 1)
            board[frm] = 0
            cells_of[army].discard(frm)
            new = promo or piece
            if not promo and g.has_commits:
                commits = g.commits[piece]
                if commits:    # a committing move narrows the facing
                    new = commits.get(frm * n + to, piece)
            board[to] = new
            cells_of[code_army[new]].add(to)  # a promotion may give the piece to a partner
            h ^= zp[piece * n + frm] ^ zp[new * n + to]
            if g.to_hand:
                flags = promoted & ~((1 << frm) | (1 << cell) | (1 << to))
                if promo or (promoted >> frm) & 1:
                    flags |= 1 << to
                if flags != promoted:
                    self.promoted = flags
                    h ^= self._promoted_key(promoted ^ flags)
            if captured and g.blast is not None:
                exploded, h, blasted = self._explode(to, g.blast[to], h)
                changed |= blasted
            royal = is_royal[piece] or is_royal[new] or is_royal[captured] or exploded is not None
        elif tag == "rescue":
            self._rescue(move)
            return
        elif tag == "gate":
            self._gate(move)
            return
        elif tag == "then":
            push_neutral(self, move)
            return
        elif tag == "pass" or tag == "out":
            piece, army, changed, royal = 0, self.army, 0, False
        elif tag == "drop":
            piece = promo
            army = code_army[piece]
            board[to] = piece
            cells_of[army].add(to)
            h ^= zp[piece * n + to] ^ self._hand_delta(piece, -1)
            changed = 0
            royal = is_royal[piece]
        else:  # castling, removals, stacking moves: a few cells rewritten, undone from a snapshot
            piece = board[frm]
            army = code_army[piece]
            writes, taken = (self.castle_effects(move) if tag == "castle" else
                             ([stacking.without_top(self, c) for c in (frm, *special[1:])], [piece])
                             if tag == "remove" else stacking.effects(self, move))
            exploded = self._contents(writes)  # the undo snapshot
            h = self._write_cells(writes, h)
            royal = True
            captured = taken[0] if taken else 0
            changed = 0 if exploded[0][2] else 1 << frm  # a piece leaving its own cell (not from a stack)
            if tag in ("castle", "castlock"):
                changed = (1 << frm) | (1 << special[1])
            elif tag == "remove":
                captured, changed = 0, sum(1 << c for c in (frm, *special[1:]))
            elif special[0] == "st" and special[1] in CAPTURES and special[1] != "capture-top":
                changed |= 1 << to  # the piece at the bottom of the target cell is gone
        ep_cells = self.ep_cells
        self._undo.append((move, piece, captured, self.unmoved, ep_cells, self.ep_victim,
                           self.clock, self.fullmove, self.turn, self.hash, self.checks, exploded,
                           promoted, hand_code, self.privileges, self.scores, self.out, self.royals))
        if royal:
            self.find_royals()
        if self.privileges and to >= 0:   # a pass or an army going out moves no piece
            h = self._move_privilege(frm, to, tag, h)
        if ep_cells:
            z_ep = g.z_ep
            for c in ep_cells:
                h ^= z_ep[c]
            self.ep_cells = ()
        if tag is not None and (tag == "ep_set" or tag == "st"):
            passed = special[1] if tag == "ep_set" else special[2]
            if passed:
                following = scoring.next_turn(self, self.turn)[0] if self.out else (self.turn + 1) % len(g.turn_order)
                for a in g.turn_armies[following]:
                    if g.hostile[a][piece] and ep_possible(self, passed, a):
                        self.ep_cells = passed
                        self.ep_victim = to
                        for c in passed:
                            h ^= g.z_ep[c]
                        break
        unmoved = self.unmoved
        cleared = unmoved & changed
        if cleared:
            self.unmoved = unmoved & ~changed
            h ^= mask_key(g.z_unmoved, cleared)
            # Only a castling king or rook that moves or is taken can end another piece's right (any
            # other move that clears a mark clears a piece's own or a gate cell's); a move that
            # rewrites several cells (castling, stacks, removals, explosions) is asked too.
            if g.marks_die and (g.castler[piece] or g.castler[captured] or exploded is not None):
                h = self._drop_dead_marks(h)
        elif tag == "drop" and g.hand_marks_die and not self.hands[piece]:
            h = self._drop_dead_marks(h)
        if g.aim_reach[piece] is not None and to >= 0 and self.unmoved:
            h = self._lose_aimed_marks(piece, to, h)
        if tag == "drop":
            dropped = g.drop_marks[piece]
            if dropped is not None and to in dropped:
                h = self._mark_dropped(piece, army, to, h)
        if (captured and g.clock_on_capture) or g.clock_resets[piece] or (
                g.clock_on_drop if tag == "drop" else promo and g.clock_on_promotion):
            self.clock = 0
        else:
            self.clock += 1
        if g.scoring:
            if tag == "out":
                out = self.out
                h = scoring.eliminate(self, special, h)
                h ^= mask_key(g.z_out, out ^ self.out)
                h = self._drop_dead_marks(h)   # the rights of an army out of the game
            elif captured and g.scores_captures:
                h = scoring.capture_score(self, army, captured, h)
        zt = g.z_turn
        turn = self.turn
        h ^= zt[turn]
        if self.out:   # the turns of armies out of the game are skipped
            turn, wraps = scoring.next_turn(self, turn)
            self.fullmove += wraps
        else:
            turn += 1
            if turn == len(zt):
                turn = 0
                self.fullmove += 1
        self.turn = turn
        h ^= zt[turn]
        if g.count_checks is not None or self.ep_cells:
            h = self._count_check_and_ep(army, h, False)
        self.hash = h
        self.history.append(h)

    def undoable(self) -> int:
        """How many plies :meth:`pop` can take back: those played since the position was set up or
        copied (a copy has no undo records). A move with a second part (a gated piece, a neutral
        piece's move, a rescue's removals) is one ply of two records."""
        return sum(1 for entry in self._undo if entry[0] is not NEUTRAL_MOVED and entry[0] is not GATED
                   and entry[0] is not RESCUED)

    def passes_in_a_row(self) -> int:
        """How many of the last moves played (see :meth:`undoable`) were passes, counted back from
        the last one to the first move that was not a pass."""
        undo = self._undo
        found = 0
        while found < len(undo):
            move = undo[len(undo) - 1 - found][0]
            if move is NEUTRAL_MOVED or move is GATED or move is RESCUED or move[3] != PASS:
                break
            found += 1
        return found

    def last_step(self, back: int = 1) -> tuple[int, int, int] | None:
        """What the last move did, when it moved one piece from a cell to another and changed no
        other cell than that of a piece it took (en passant too): ``(piece, captured, hand_code)``,
        the mover's code before the move (on its target it may be another now: a promotion, a
        narrowed facing, a partner's piece), the code taken (0: none) and the code that went to a
        hand for it (0: none). None for every other move: castling, a drop, a pass, gating, a
        stack's move, an explosion, a removal, a rescue, a neutral piece's move. ``back``: 2 reads
        the record before the last, the wrapped move of a move whose second part moved a neutral
        piece (see :mod:`~interpreter.engine.neutral`). (For searches that keep sums over the
        pieces up to date move by move.)"""
        undo = self._undo[-back]
        if len(undo) != 18 or undo[11] is not None:   # another record (gating, rescue, neutral), or cells rewritten
            return None
        special = undo[0][3]
        tag = None if special is None else special[0]
        if tag in STEP_TAGS or tag == "st":
            return undo[1], undo[2], undo[13]
        return None

    def _mark_dropped(self, piece: int, army: int, to: int, h: int) -> int:
        """After ``piece`` of ``army`` was dropped on ``to``, one of its ``unmoved in`` cells: mark it
        unmoved, and the castling partners standing on their own ``unmoved in`` cells (a king's
        rooks, a rook's king), then drop the marks that allow nothing; returns the hash."""
        g: NativeGame = self.game
        board, marks = self.board, 1 << to
        king = g.castle_king_codes[army]
        kings = g.drop_marks[king] if king > 0 else None
        if piece == king:
            rooks = g.castle_rook_codes[army]
            for cell in marked_cells(self.game.castle_partner_mask(army, to)):
                cells = g.drop_marks[board[cell]] if board[cell] in rooks else None
                if cells is not None and cell in cells:
                    marks |= 1 << cell
        elif piece in g.castle_rook_codes[army] and kings is not None:
            for cell in kings:
                if board[cell] == king and (self.game.castle_partner_mask(army, cell) >> to) & 1:
                    marks |= 1 << cell
        new = marks & ~self.unmoved
        self.unmoved |= new
        h ^= mask_key(g.z_unmoved, new)
        return self._drop_dead_marks(h) if g.marks_die else h

    def _lose_aimed_marks(self, piece: int, to: int, h: int) -> int:
        """After ``piece`` moved (or was dropped) to ``to``: drop the marks of the enemy pieces it now
        aims at that lose them so (``unmoved lost when aimed by``, see
        :func:`~interpreter.compiler.rights.aimed_losses`); returns the hash."""
        g: NativeGame = self.game
        reach = g.aim_reach[piece]
        assert reach is not None
        victims = g.aim_victims[piece]
        lost = 0
        for cell in marked_cells(self.unmoved & reach[to]):
            if victims[ground(self, cell)]:
                lost |= 1 << cell
        if lost:
            self.unmoved &= ~lost
            h ^= mask_key(g.z_unmoved, lost)
            if g.marks_die:
                h = self._drop_dead_marks(h)
        return h

    def _count_check_and_ep(self, army: int, h: int, counted: bool) -> int:
        """After a move of ``army``: count the check it gives (``count checks``; not when ``counted``
        already) and drop en passant targets whose capture would be illegal; returns the hash."""
        g: NativeGame = self.game
        if g.count_checks is not None and not counted and gives_check(self, army):
            zc = g.z_checks[army]
            count = self.checks[army]
            h ^= zc[min(count, len(zc) - 1)] ^ zc[min(count + 1, len(zc) - 1)]
            self.checks = self.checks[:army] + (count + 1,) + self.checks[army + 1:]
        if self.ep_cells and g.self_check and not ep_legal(self):
            for c in self.ep_cells:
                h ^= g.z_ep[c]
            self.ep_cells = ()
        return h

    def _rescue(self, move: Move) -> None:
        """Play a rescue (see :func:`interpreter.engine.legality.rescue_moves`): the move, then the royal pieces it leaves
        attacked are removed, in the same turn; undone by :meth:`pop` as one move."""
        frm, to, promo, (_, special, cells) = move
        self.push((frm, to, promo, special))
        g: NativeGame = self.game
        snapshot = self._contents([(c,) for c in cells])
        unmoved = self.unmoved
        h = self._write_cells([(c, 0, 0) for c in cells], self.hash)
        self.find_royals()   # pop puts them back with the move's own record
        cleared = unmoved & sum(1 << c for c in cells)
        if cleared:
            self.unmoved = unmoved & ~cleared
            h ^= mask_key(g.z_unmoved, cleared)
            if g.marks_die:
                h = self._drop_dead_marks(h)
        self._undo.append((RESCUED, move, snapshot, unmoved, self.hash))
        self.hash = h
        self.history[-1] = h

    def _gate(self, move: Move) -> None:
        """Play a gating move (see :mod:`interpreter.engine.gating`): the move it wraps, then the piece
        from the hand on the gate cell, in the same turn; undone by :meth:`pop` as one move."""
        frm, to, promo, (_, cell, code, special) = move
        checks = self.checks
        self.push((frm, to, promo, special))
        g: NativeGame = self.game
        army = g.code_army[code]
        self.board[cell] = code
        self.cells_of[army].add(cell)
        if g.is_royal[code]:
            self.find_royals()   # pop puts them back with the move's own record
        h = self.hash ^ g.z_piece[code * g.n + cell] ^ self._hand_delta(code, -1)
        if g.hand_marks_die and not self.hands[code]:   # the last of its kind (pop puts the marks back)
            h = self._drop_dead_marks(h)
        self._undo.append((GATED, move, self.checks, self.ep_cells, self.hash))
        h = self._count_check_and_ep(army, h, self.checks != checks)   # the piece that entered may check
        self.hash = h
        self.history[-1] = h

    def _drop_dead_marks(self, h: int) -> int:
        """Drop the unmoved marks that allow nothing any more (:func:`~interpreter.engine.rights.dead_marks`:
        rooks whose king has moved, gate cells no piece in hand can enter ...); returns the hash."""
        g: NativeGame = self.game
        if g.eliminates or g.drop_marking:   # the marks of an army out of the game die, inert ones too;
            dead = dead_marks(self)             # drops set marks again: no memo
        else:
            if self._inert < 0:
                self._inert = inert_marks(self)
            key = self.unmoved & ~self._inert
            if g.gating:   # and which pieces that may be gated are in hand
                hands, n = self.hands, g.n
                for i, code in enumerate(g.gate_codes):
                    if hands[code]:
                        key |= 1 << (n + i)
            dead = self._dead.get(key, -1)
            if dead < 0:
                if len(self._dead) >= DEAD_MEMO:
                    self._dead.clear()
                dead = self._dead[key] = dead_marks(self, ~self._inert)
        if dead:
            self.unmoved &= ~dead
            h ^= mask_key(g.z_unmoved, dead)
        return h

    def castle_effects(self, move: Move) -> tuple[list[tuple[int, int, int]], list[int]]:
        """Castling's new cell contents: king and rook lifted, then put down (their cells may overlap)."""
        frm, to, _, (_, rook_from, rook_to, _) = move
        king, rook = self.board[frm], self.board[rook_from]
        return [(frm, 0, 0), (rook_from, 0, 0), (to, king, 0), (rook_to, rook, 0)], []

    def _contents(self, writes: list[tuple]) -> list[tuple]:
        """The present contents of the cells that ``writes`` will change, as writes that restore them:
        (cell, top, under), and the deeper pieces in games of stacks higher than two."""
        board, under, deep = self.board, self.under, self.deep
        if deep is None:
            return [(w[0], board[w[0]], under[w[0]]) for w in writes]
        return [(w[0], board[w[0]], under[w[0]], deep[w[0]]) for w in writes]

    def _deep_key(self, cell: int, pieces: tuple[int, ...]) -> int:
        """The hash of the pieces below ``under`` on ``cell`` (bottom first), one key per level."""
        g: NativeGame = self.game
        key = 0
        for level, code in enumerate(pieces):
            key ^= g.z_deep[level][code * g.n + cell]
        return key

    def _write_cells(self, writes: list[tuple], h: int) -> int:
        """Set (cell, top, under) contents, keeping ``cells_of`` and the hash right; returns the hash.
        In games of stacks higher than two a write may have a fourth item, the pieces below ``under``
        (bottom first; without it, none)."""
        g: NativeGame = self.game
        deep = self.deep
        if deep is not None:
            for write in writes:
                cell, pieces = write[0], write[3] if len(write) > 3 else ()
                if deep[cell] != pieces:
                    h ^= self._deep_key(cell, deep[cell]) ^ self._deep_key(cell, pieces)
                    deep[cell] = pieces
            writes = [write[:3] for write in writes]
        board, under, cells_of, stacked = self.board, self.under, self.cells_of, self.stacked
        zp, zu, n, code_army = g.z_piece, g.z_under, g.n, g.code_army
        for cell, top, low in writes:
            old_top, old_low = board[cell], under[cell]
            if old_top:
                cells_of[code_army[old_top]].discard(cell)
                h ^= zp[old_top * n + cell]
            board[cell] = top
            if old_low:
                h ^= zu[old_low * n + cell]
                if not low:
                    stacked.discard(cell)
            if low:
                under[cell] = low
                h ^= zu[low * n + cell]
                stacked.add(cell)
            elif old_low:
                under[cell] = 0
            if top:
                cells_of[code_army[top]].add(cell)
                h ^= zp[top * n + cell]
        return h

    def _restore_cells(self, snapshot: list[tuple]) -> None:
        """Put back the (cell, top, under) contents of ``snapshot``, last first (the hash is restored
        by the caller); in games of stacks higher than two, with the deeper pieces (a fourth item)."""
        deep = self.deep
        writes: list[tuple[int, int, int]] = snapshot   # typed items: mypyc 2.4 cannot reverse bare tuples
        if deep is not None:
            for write in snapshot[::-1]:
                deep[write[0]] = write[3] if len(write) > 3 else ()
            writes = [write[:3] for write in snapshot]
        board, under, cells_of, stacked = self.board, self.under, self.cells_of, self.stacked
        g: NativeGame = self.game
        code_army = g.code_army
        for cell, top, low in reversed(writes):
            old_top = board[cell]
            if old_top:
                cells_of[code_army[old_top]].discard(cell)
            board[cell] = top
            if low:
                stacked.add(cell)
            elif under[cell]:
                stacked.discard(cell)
            under[cell] = low
            if top:
                cells_of[code_army[top]].add(cell)

    def _hand_delta(self, code: int, delta: int) -> int:
        """Add ``delta`` pieces of ``code`` to its army's hand; returns the hash change."""
        g: NativeGame = self.game
        keys = g.z_hand[code]
        old = self.hands[code]
        self.hands[code] = old + delta
        return keys[min(old, len(keys) - 1)] ^ keys[min(old + delta, len(keys) - 1)]

    def _move_privilege(self, frm: int, to: int, tag: str | None, h: int) -> int:
        """A privilege travels with its piece, is spent by a move that uses it, and is lost with
        a piece that is captured; returns the updated hash."""
        old = self.privileges
        new = old & ~(1 << to)
        if frm >= 0 and (old >> frm) & 1:
            new &= ~(1 << frm)
            if tag != "once":
                new |= 1 << to
        self.privileges = new
        return h ^ self._privilege_key(old ^ new)

    def _privilege_key(self, flipped: int) -> int:
        """The hash change for once-per-game privileges that flipped on the cells of ``flipped``."""
        g: NativeGame = self.game
        return mask_key(g.z_privilege, flipped)

    def _promoted_key(self, flipped: int) -> int:
        """The hash change for promoted flags that flipped on the cells of the mask ``flipped``."""
        g: NativeGame = self.game
        return mask_key(g.z_promoted, flipped)

    def _explode(self, at: int, blast: list[int], h: int) -> tuple[list[tuple[int, ...]], int, int]:
        """Remove the piece on ``at`` and the unspared pieces on the other ``blast`` cells around it
        (``captures explode``).

        Returns the removed (cell, code) pairs, the updated hash and the bit
        mask of the cells emptied.
        """
        g: NativeGame = self.game
        board, zp, n = self.board, g.z_piece, g.n
        exploded: list[tuple[int, ...]] = []
        mask = 0
        for cell in blast:
            code = board[cell]
            if code and (cell == at or not g.blast_spares[code]):
                exploded.append((cell, code))
                board[cell] = 0
                self.cells_of[g.code_army[code]].discard(cell)
                h ^= zp[code * n + cell]
                mask |= 1 << cell
        return exploded, h, mask

    def pop(self) -> Move:
        """Take back the last move and return it."""
        undo = self._undo.pop()
        g: NativeGame = self.game
        cell: int       # typed, as the pieces and cells below: native ints once compiled (see moves.Move)
        if undo[0] is NEUTRAL_MOVED:
            return pop_neutral(self, undo)
        if undo[0] is GATED:
            _, move, self.checks, self.ep_cells, h = undo
            _, _, _, (_, cell, code, _) = move
            self.board[cell] = 0
            self.cells_of[g.code_army[code]].discard(cell)
            self.hands[code] += 1
            self.hash = self.history[-1] = h
            self.pop()
            return move
        if undo[0] is RESCUED:
            _, move, snapshot, self.unmoved, h = undo
            self._restore_cells(snapshot)
            self.hash = self.history[-1] = h
            self.pop()
            return move
        piece: int
        captured: int
        hand_code: int
        (move, piece, captured, self.unmoved, self.ep_cells, self.ep_victim, self.clock, self.fullmove,
         self.turn, self.hash, self.checks, exploded, self.promoted, hand_code, self.privileges, self.scores,
         self.out, self.royals) = undo
        self.history.pop()
        frm: int = move[0]
        to: int = move[1]
        special = move[3]
        tag: str | None = None if special is None else special[0]
        board = self.board
        cells_of = self.cells_of
        code_army = g.code_army
        if tag in STEP_TAGS or (tag == "st" and exploded is None):  # made in place (see push)
            if exploded:
                for cell, code in exploded:
                    board[cell] = code
                    cells_of[code_army[code]].add(cell)
            cells_of[code_army[board[to]]].discard(to)  # the mover, or the partner's piece it became
            board[to] = 0
            if captured:
                cell = to if tag != "ep" else special[1]
                board[cell] = captured
                cells_of[code_army[captured]].add(cell)
                if hand_code:
                    self.hands[hand_code] -= 1
            board[frm] = piece
            cells_of[code_army[piece]].add(frm)
        elif tag == "drop":
            board[to] = 0
            cells_of[code_army[piece]].discard(to)
            self.hands[piece] += 1
        elif tag != "pass" and tag != "out":
            self._restore_cells(exploded)
        return move
