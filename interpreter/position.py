"""Game state with make/unmake, legality and an incremental Zobrist hash.

The state is flat: ``board`` is a list of piece codes indexed by cell (0 =
empty), ``cells_of[army]`` the set of cells an army occupies, ``unmoved`` a
bit mask of the cells whose piece has not moved (kept only for pieces whose
rules depend on it: castling pieces and pieces with initial-only moves),
``ep_cells`` / ``ep_victim`` the en passant targets of the last double step,
``clock`` the halfmove clock and ``turn`` the index into the game's turn
order. :meth:`Position.push` and :meth:`Position.pop` change it in place;
the hash is updated incrementally and kept in ``history`` for repetition.

Legal moves are pseudo-legal moves that do not leave one of the mover's
royal pieces attacked. When every enemy attack is a plain leap or ride,
pins are computed once per position and only moves of the royal piece,
of pinned pieces, special moves and evasions are tried by make/test/unmake.
"""

from __future__ import annotations

from .game import Game
from . import stacking
from .outcome import forced_moves, immediate_end

Move = tuple  # (from, to, promotion, special): see interpreter.movegen
DROP = ("drop",)  # the special of a drop: (-1, to, code, DROP)
# Moves made by writing new contents into a few cells, undone from a snapshot of them:
# castling, and the moves of stacking games (see interpreter.stacking).
SNAPSHOT_MOVES = frozenset({"castle", "st", "sep", "castlock", "remove"})
PASS = ("pass",)      # the forced move of an army that cannot move: (-1, -1, 0, PASS)
REMOVE = ("remove",)  # the forced move that takes a mated royal piece off: (cell, cell, 0, REMOVE)


class Position:
    """The state of one game in progress. Create with ``Game.start()`` or ``Game.position(fen)``."""

    __slots__ = ("game", "board", "cells_of", "unmoved", "ep_cells", "ep_victim", "clock", "fullmove",
                 "turn", "hash", "history", "checks", "hands", "promoted", "under", "stacked", "_undo")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board: list[int] = [0] * game.n
        self.cells_of: list[set[int]] = [set() for _ in game.armies]
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
        self.stacked: set[int] = set()  # the cells where ``under`` is not 0
        self._undo: list[tuple] = []

    # ------------------------------------------------------------ setup helpers
    def place(self, cell: int, code: int) -> None:
        """Put ``code`` on an empty ``cell`` (setup only; call :meth:`rehash` after)."""
        self.board[cell] = code
        self.cells_of[self.game.code_army[code]].add(cell)

    def rehash(self) -> None:
        """Recompute the hash from scratch and restart the repetition history."""
        g = self.game
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
        for code, count in enumerate(self.hands):
            if count:
                h ^= g.z_hand[code][min(count, len(g.z_hand[code]) - 1)]
        h ^= self._promoted_key(self.promoted)
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
        other.stacked = set(self.stacked)
        return other

    @property
    def army(self) -> int:
        """The index of the army to move."""
        return self.game.turn_order[self.turn]

    # ------------------------------------------------------------ attacks
    def attacked(self, cell: int, by: int) -> bool:
        """Is ``cell`` attacked by a piece of army ``by`` (whatever stands on ``cell``)?"""
        g = self.game
        if g.stacking is not None:
            return stacking.cell_attacked(self, cell, by)
        board = self.board
        for src, codes in g.leap_attackers[by][cell]:
            if board[src] in codes:
                return True
        for chain, codes in g.ray_attackers[by][cell]:
            for c in chain:
                q = board[c]
                if q:
                    if q in codes:
                        return True
                    break
        if g.lame_attackers[by][cell]:
            for src, between, codes in g.lame_attackers[by][cell]:
                if board[src] in codes and not any(board[c] for c in between):
                    return True
        if g.hop_attackers[by][cell]:
            for chain, codes in g.hop_attackers[by][cell]:
                hurdle = False
                for c in chain:
                    q = board[c]
                    if q:
                        if hurdle:
                            if q in codes:
                                return True
                            break
                        hurdle = True
        slow = g.slow_attackers[by]
        if slow:
            # Generate those pieces' moves with an enemy piece standing on the
            # cell, so that a capture there shows (an empty cell is attacked
            # if a piece arriving there could be taken).
            hostile = g.hostile[by]
            occupant = board[cell]
            board[cell] = g.stand_in[by]  # a piece the generators may capture, whatever stands there
            try:
                for src in list(self.cells_of[by]):
                    code = board[src]
                    if code in slow:
                        out: list = []
                        for gen in g.generators[code]:
                            gen(self, src, board, hostile, out)
                        if any(m[1] == cell for m in out):
                            return True
            finally:
                board[cell] = occupant
        return False

    def royal_cells(self, army: int) -> list[int]:
        """Cells of the royal pieces of ``army`` (in stacking games, also those locked under another)."""
        g = self.game
        is_royal, board = g.is_royal, self.board
        cells = [c for c in self.cells_of[army] if is_royal[board[c]]]
        if g.stacking is not None:
            code_army, under = g.code_army, self.under
            cells += [c for c in self.stacked if is_royal[under[c]] and code_army[under[c]] == army]
        return cells

    def in_check(self, army: int | None = None) -> bool:
        """Is a royal piece of ``army`` (default: the side to move) attacked by an enemy?"""
        return self.royal_attacked(self.army if army is None else army)

    def checkers(self) -> list[int]:
        """Cells of enemy pieces that attack a royal piece of the side to move."""
        found = []
        army = self.army
        for k in self.royal_cells(army):
            for e in self.game.enemies[army]:
                for src in self.cells_of[e]:
                    if self.game.stacking is not None:
                        if any(stacking.removes_royal(self, m, {k}) for m in self._piece_moves(src)):
                            found.append(src)
                    elif any(m[1] == k for m in self._piece_moves(src)):
                        found.append(src)
        return sorted(set(found))

    # ------------------------------------------------------------ move generation
    def _piece_moves(self, src: int) -> list[Move]:
        code = self.board[src]
        out: list[Move] = []
        if self.game.stacking is not None:
            stacking.piece_moves(self, src, out)
            return out
        hostile = self.game.hostile[self.game.code_army[code]]
        for gen in self.game.generators[code]:
            gen(self, src, self.board, hostile, out)
        return out

    def pseudo_legal_moves(self) -> list[Move]:
        """Moves allowed by the movement rules, before the self-check test."""
        g = self.game
        army = self.army
        board = self.board
        hostile = g.hostile[army]
        generators = g.generators
        out: list[Move] = []
        if g.stacking is not None:
            for src in list(self.cells_of[army]):
                stacking.piece_moves(self, src, out)
            if g.castle_locks and self.unmoved:
                stacking.castlock_moves(self, army, out)
        else:
            for src in list(self.cells_of[army]):
                for gen in generators[board[src]]:
                    gen(self, src, board, hostile, out)
        if g.castle_rules and self.unmoved:
            self._castling_moves(army, out)
        if g.has_drops:
            self._drops(army, out)
        if g.capture_promotions:
            out = self._with_capture_promotions(out)
        if g.captured_only:
            out = self._without_unavailable_promotions(out)
        return out

    def _with_capture_promotions(self, moves: list[Move]) -> list[Move]:
        """``promotes ...: on capture into ZONE``: a capture from outside the zone into it promotes."""
        table, board = self.game.capture_promotions, self.board
        out = []
        for m in moves:
            frm, to, promo, special = m
            rule = table.get(board[frm]) if frm >= 0 and not promo else None
            if rule and to in rule[0] and frm not in rule[0] and (board[to] or (special and special[0] == "ep")):
                out.extend((frm, to, code, special) for code in rule[1])
            else:
                out.append(m)
        return out

    def _without_unavailable_promotions(self, moves: list[Move]) -> list[Move]:
        """Drop promotions to a kind limited to captured pieces when none of it has been lost."""
        g, board = self.game, self.board
        limited = g.captured_only
        if not any(m[2] in limited for m in moves):
            return moves
        on_board = {code: 0 for code in limited}
        for cells in self.cells_of:
            for cell in cells:
                if board[cell] in on_board:
                    on_board[board[cell]] += 1
        return [m for m in moves if m[2] not in limited or on_board[m[2]] < g.setup_counts[m[2]]]

    def _drops(self, army: int, out: list[Move]) -> None:
        """Drops from the hand of ``army``: ``(-1, to, code, DROP)`` moves."""
        g = self.game
        board, hands = self.board, self.hands
        for code in range(1 + army, g.ncodes, len(g.armies)):
            cells = g.drop_cells[code]
            if not hands[code] or cells is None:
                continue
            twin = g.drop_no_twin[code]
            banned_files = {g.board.coords[c][0] for c in self.cells_of[army] if board[c] == twin} if twin else ()
            coords = g.board.coords
            for cell in cells:
                if not board[cell] and coords[cell][0] not in banned_files:
                    out.append((-1, cell, code, DROP))

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (none once an immediate end rule holds).

        With ``when no moves`` rules, an army without a legal move gets the
        one forced move the first matching rule gives: a pass, or removing
        its royal piece (``end``, or no matching rule, leaves none).
        """
        g = self.game
        if g.has_immediate_ends and immediate_end(self):
            return []
        moves = self.rule_abiding_moves()
        if not moves and g.no_moves:
            return forced_moves(self)
        return moves

    def rule_abiding_moves(self) -> list[Move]:
        """The moves the legality rules allow, whether or not an end rule holds.

        ``forbid self-check`` removes moves that leave an own royal piece
        attacked, ``forbid giving-check`` those that attack an enemy royal
        piece, and ``captures compulsory`` every non-capture when a capture
        exists.
        """
        g = self.game
        moves = self.pseudo_legal_moves()
        if g.self_check:
            moves = self._without_self_check(moves)
        if g.forbid_giving_check:
            army = self.army
            moves = [m for m in moves if not self._gives_check_after(m, army)]
        if g.compulsory_capture:
            captures = [m for m in moves if self.is_capture(m)]
            if captures:
                moves = captures
        if g.has_drops and any(g.drop_no_mate):
            moves = [m for m in moves if m[3] is not DROP or not g.drop_no_mate[m[2]] or not self._mates_after(m)]
        return moves

    def _mates_after(self, move: Move) -> bool:
        """Does ``move`` checkmate: the next army in check with no legal reply?"""
        self.push(move)
        mates = self.in_check() and not self.rule_abiding_moves()
        self.pop()
        return mates

    def is_capture(self, move: Move) -> bool:
        """Does ``move`` capture (en passant included)?"""
        special = move[3]
        return bool(self.board[move[1]]) and (special is None or special[0] != "castle") or (
            special is not None and special[0] == "ep")

    def _gives_check_after(self, move: Move, army: int) -> bool:
        self.push(move)
        gives = self._gives_check(army)
        self.pop()
        return gives

    def _without_self_check(self, moves: list[Move]) -> list[Move]:
        g = self.game
        army = self.army
        royals = self.royal_cells(army)
        if g.partner_check and g.partners[army]:
            safe = [m for m in moves if self._safe_after(m, army)] if royals else moves
            return self._without_partner_check(safe, army)
        if not royals:
            return moves
        enemies = g.enemies[army]
        board = self.board
        if g.stacking is not None:
            return stacking.without_self_check(self, moves, royals)
        if not all(g.pin_safe[e] for e in enemies) or len(royals) > 1:
            return [m for m in moves if self._safe_after(m, army)]
        king = royals[0]
        pinned, checked, screens = self._pins(king, enemies)
        if checked:
            return [m for m in moves if self._safe_after(m, army)]
        legal = []
        is_royal = g.is_royal
        explosive = g.blast is not None
        for m in moves:
            frm = m[0]
            if m[1] in screens:
                if self._safe_after(m, army):
                    legal.append(m)
            elif m[3] is DROP:
                legal.append(m)
            elif frm in pinned or m[3] is not None or is_royal[board[frm]] or (explosive and board[m[1]]):
                if self._safe_after(m, army):
                    legal.append(m)
            else:
                legal.append(m)
        return legal

    def _pins(self, king: int, enemies: list[int]) -> tuple[set[int], bool, set[int]]:
        """What a move must not disturb to keep ``king`` safe, and whether it is attacked now.

        Returns ``pinned`` (own pieces whose leaving would uncover an attack:
        the only piece between the king and an enemy rider, one of the two
        between it and a hopper, the piece on a lame leaper's way), whether
        the king is attacked, and ``screens`` (empty cells between the king
        and a hopper with nothing between them: a piece arriving there would
        let the hopper capture).
        """
        g = self.game
        board = self.board
        hostile = g.hostile[self.army]
        pinned: set[int] = set()
        screens: set[int] = set()
        checked = False
        for e in enemies:
            for src, codes in g.leap_attackers[e][king]:
                if board[src] in codes:
                    checked = True
            for chain, codes in g.ray_attackers[e][king]:
                blocker = -1
                for c in chain:
                    q = board[c]
                    if q:
                        if hostile[q]:
                            if q in codes:
                                if blocker < 0:
                                    checked = True
                                else:
                                    pinned.add(blocker)
                            break
                        if blocker >= 0:
                            break
                        blocker = c
            for src, between, codes in g.lame_attackers[e][king]:
                if board[src] in codes:
                    blockers = [c for c in between if board[c]]
                    if not blockers:
                        checked = True
                    elif len(blockers) == 1 and not hostile[board[blockers[0]]]:
                        pinned.add(blockers[0])
            for chain, codes in g.hop_attackers[e][king]:
                occupied = []
                for i, c in enumerate(chain):
                    if board[c]:
                        occupied.append((i, c))
                        if len(occupied) == 3:
                            break
                kinds = [board[c] in codes for _, c in occupied]
                if kinds[:1] == [True]:
                    screens.update(chain[:occupied[0][0]])
                if kinds[1:2] == [True]:
                    checked = True
                if kinds[2:3] == [True]:
                    pinned.update(c for _, c in occupied[:2] if not hostile[board[c]])
        return pinned, checked, screens

    def _without_partner_check(self, moves: list[Move], army: int) -> list[Move]:
        """``forbid partner-check``: no move may newly expose a partner's royal piece (one already
        attacked need not be relieved)."""
        partners = [p for p in self.game.partners[army] if not self.royal_attacked(p)]
        legal = []
        for m in moves:
            self.push(m)
            if not any(self.royal_attacked(p) for p in partners):
                legal.append(m)
            self.pop()
        return legal

    def _safe_after(self, move: Move, army: int) -> bool:
        self.push(move)
        safe = not self.royal_attacked(army)
        self.pop()
        return safe

    def royal_attacked(self, army: int) -> bool:
        """Is a royal piece of ``army`` attacked (or, with explosions, gone)?

        With ``captures explode``: an army that had royal pieces and has
        none is beaten (so a move that blows up its own king is illegal),
        an army whose enemies lost theirs is safe, and a capture that would
        also blow up the capturer's own royal piece does not count as an
        attack (kings next to each other do not check each other).
        """
        g = self.game
        if g.stacking is not None:
            return stacking.royal_attacked(self, army)
        royals = self.royal_cells(army)
        enemies = g.enemies[army]
        if g.blast is None:
            return any(self.attacked(k, e) for k in royals for e in enemies)
        if army in g.royal_armies and not royals:
            return True
        if any(e in g.royal_armies and not self.royal_cells(e) for e in enemies):
            return False
        return any(self.threatens(k, e) for k in royals for e in enemies)

    def threatens(self, cell: int, by: int) -> bool:
        """Could army ``by`` take a royal piece standing on ``cell``?

        :meth:`attacked`, except that with ``captures explode`` a capture
        that would also blow up a royal piece of ``by`` does not count.
        """
        g = self.game
        if g.blast is not None:
            board, is_royal, code_army = self.board, g.is_royal, g.code_army
            if any(board[c] and is_royal[board[c]] and code_army[board[c]] == by for c in g.blast[cell]):
                return False
        return self.attacked(cell, by)

    def _castling_moves(self, army: int, out: list[Move]) -> None:
        g = self.game
        board = self.board
        king_code = g.code(g.castle_king, army)
        rook_code = g.code(g.castle_rook, army)
        files = g.board.files
        for k in self.cells_of[army]:
            if board[k] != king_code or not (self.unmoved >> k) & 1:
                continue
            kx, ky = g.board.coords[k]
            for rule in g.castle_rules:
                for r in self.cells_of[army]:
                    if board[r] != rook_code or not (self.unmoved >> r) & 1:
                        continue
                    if rule.rook_cells and rule.rook_cells[army] is not None and r not in rule.rook_cells[army]:
                        continue
                    if rule.swap:
                        # King and rook exchange cells: only check matters (legality tests the result).
                        if not (g.self_check and g.is_royal[king_code] and self.royal_attacked(army)):
                            out.append((k, r, 0, ("castle", r, k, rule.index)))
                        continue
                    rx, ry = g.board.coords[r]
                    if ry != ky or rx == kx or (rule.side and (rx - kx) * rule.side < 0):
                        continue
                    if rule.king_file >= files or rule.rook_file >= files:
                        continue
                    kd = g.board.at.get((rule.king_file, ky), -1)
                    rd = g.board.at.get((rule.rook_file, ky), -1)
                    if kd < 0 or rd < 0:
                        continue
                    if not rule.ignore_path and not self._castle_path_clear(k, r, kd, rd):
                        continue
                    if (not rule.ignore_attacks and g.self_check and g.is_royal[king_code]
                            and self._castle_path_attacked(k, kd, army)):
                        continue
                    out.append((k, kd, 0, ("castle", r, rd, rule.index)))

    def _castle_path_clear(self, k: int, r: int, kd: int, rd: int) -> bool:
        coords, at, board = self.game.board.coords, self.game.board.at, self.board
        (kx, y), (rx, _), (kdx, _), (rdx, _) = coords[k], coords[r], coords[kd], coords[rd]
        lo = min(kx, rx, kdx, rdx)
        hi = max(kx, rx, kdx, rdx)
        for x in range(lo, hi + 1):
            c = at.get((x, y), -1)
            if c < 0 or (c not in (k, r) and board[c]):
                return False
        return True

    def _castle_path_attacked(self, k: int, kd: int, army: int) -> bool:
        coords, at = self.game.board.coords, self.game.board.at
        (kx, y), (kdx, _) = coords[k], coords[kd]
        step = 1 if kdx >= kx else -1
        # The cells the king starts on and passes; its destination is tested
        # by the ordinary legality test, after the rook has moved too.
        cells = [at[(x, y)] for x in range(kx, kdx, step)] or [k]
        king, self.board[k] = self.board[k], 0  # the king does not shield the cells it passes
        try:
            return any(self.threatens(c, e) for c in cells for e in self.game.enemies[army])
        finally:
            self.board[k] = king

    # ------------------------------------------------------------ make / unmake
    def push(self, move: Move) -> None:
        """Play ``move`` (assumed legal or at least pseudo-legal)."""
        g = self.game
        frm, to, promo, special = move
        board = self.board
        n = g.n
        zp = g.z_piece
        h = self.hash
        cells_of = self.cells_of
        captured = 0
        exploded = None
        hand_code = 0
        promoted = self.promoted
        tag = special[0] if special is not None else None
        if tag == "pass":
            piece, army, changed = 0, self.army, 0
        elif tag in SNAPSHOT_MOVES:
            piece = board[frm]
            army = g.code_army[piece]
            writes, taken = (self._castle_effects(move) if tag == "castle" else
                             ([(frm, self.under[frm], 0)], [piece]) if tag == "remove" else stacking.effects(self, move))
            exploded = [(cell, board[cell], self.under[cell]) for cell, _, _ in writes]  # the undo snapshot
            h = self._write_cells(writes, h)
            captured = taken[0] if taken else 0
            changed = 0 if exploded[0][2] else 1 << frm  # a piece leaving its own cell (not from a stack)
            if tag in ("castle", "castlock"):
                changed = (1 << frm) | (1 << special[1])
            elif tag == "remove":
                captured, changed = 0, 1 << frm
            elif special[0] == "st" and special[1] in stacking.CAPTURES and special[1] != "capture-top":
                changed |= 1 << to  # the piece at the bottom of the target cell is gone
        elif tag == "drop":
            piece = promo
            army = g.code_army[piece]
            board[to] = piece
            cells_of[army].add(to)
            h ^= zp[piece * n + to] ^ self._hand_delta(piece, -1)
            changed = 0
        else:
            piece = board[frm]
            army = g.code_army[piece]
            own = cells_of[army]
            changed = (1 << frm) | (1 << to)
            cell = special[1] if tag == "ep" else to
            captured = board[cell]
            if captured:
                board[cell] = 0
                cells_of[g.code_army[captured]].discard(cell)
                h ^= zp[captured * n + cell]
                changed |= 1 << cell
                if g.to_hand:
                    kind = g.code_kind[captured]
                    if g.drops_demoted and ((promoted >> cell) & 1 or g.always_demote[kind]):
                        kind = g.demote[kind]
                    hand_code = g.code(kind, army)
                    h ^= self._hand_delta(hand_code, 1)
            board[frm] = 0
            own.discard(frm)
            new = promo or piece
            board[to] = new
            cells_of[g.code_army[new]].add(to)  # a promotion may give the piece to a partner
            h ^= zp[piece * n + frm] ^ zp[new * n + to]
            if g.to_hand:
                flags = promoted & ~((1 << frm) | (1 << cell) | (1 << to))
                if promo or (promoted >> frm) & 1:
                    flags |= 1 << to
                if flags != promoted:
                    self.promoted = flags
                    h ^= self._promoted_key(promoted ^ flags)
            if captured and g.blast is not None:
                exploded, h, blasted = self._explode(to, h)
                changed |= blasted
        self._undo.append((move, piece, captured, self.unmoved, self.ep_cells, self.ep_victim,
                           self.clock, self.fullmove, self.turn, self.hash, self.checks, exploded,
                           promoted, hand_code))
        if self.ep_cells:
            for c in self.ep_cells:
                h ^= g.z_ep[c]
            self.ep_cells = ()
        passed = special[1] if tag == "ep_set" else (special[2] if tag == "st" else None)
        if passed:
            nxt = g.turn_order[(self.turn + 1) % len(g.turn_order)]
            if g.hostile[nxt][piece] and self._ep_possible(passed, nxt):
                self.ep_cells = passed
                self.ep_victim = to
                for c in passed:
                    h ^= g.z_ep[c]
        unmoved = self.unmoved
        if unmoved & changed:
            cleared = unmoved & changed
            self.unmoved = unmoved & ~changed
            zu = g.z_unmoved
            while cleared:
                low = cleared & -cleared
                h ^= zu[low.bit_length() - 1]
                cleared ^= low
        if (captured and g.clock_on_capture) or g.clock_resets[piece]:
            self.clock = 0
        else:
            self.clock += 1
        zt = g.z_turn
        h ^= zt[self.turn]
        self.turn += 1
        if self.turn == len(g.turn_order):
            self.turn = 0
            self.fullmove += 1
        h ^= zt[self.turn]
        if g.count_checks is not None and self._gives_check(army):
            zc = g.z_checks[army]
            count = self.checks[army]
            h ^= zc[min(count, len(zc) - 1)] ^ zc[min(count + 1, len(zc) - 1)]
            self.checks = self.checks[:army] + (count + 1,) + self.checks[army + 1:]
        if self.ep_cells and g.self_check and not self._ep_legal():
            for c in self.ep_cells:
                h ^= g.z_ep[c]
            self.ep_cells = ()
        self.hash = h
        self.history.append(h)

    def _ep_legal(self) -> bool:
        """Has the side to move a legal en passant capture? (Otherwise the right is void, as in FIDE's
        rule on repeated positions and in python-chess's FEN.)"""
        army, board = self.army, self.board
        victim = ("ep", self.ep_victim)
        table = self.game.ep_attackers[army]
        return any(board[src] in codes and self._safe_after((src, cell, 0, victim), army)
                   for cell in self.ep_cells for src, codes in table[cell])

    def _castle_effects(self, move: Move) -> tuple[list[tuple[int, int, int]], list[int]]:
        """Castling's new cell contents: king and rook lifted, then put down (their cells may overlap)."""
        frm, to, _, (_, rook_from, rook_to, _) = move
        king, rook = self.board[frm], self.board[rook_from]
        return [(frm, 0, 0), (rook_from, 0, 0), (to, king, 0), (rook_to, rook, 0)], []

    def _write_cells(self, writes: list[tuple[int, int, int]], h: int) -> int:
        """Set (cell, top, under) contents, keeping ``cells_of`` and the hash right; returns the hash."""
        g = self.game
        board, under, cells_of, zp, zu, n = self.board, self.under, self.cells_of, g.z_piece, g.z_under, g.n
        for cell, top, low in writes:
            old_top, old_low = board[cell], under[cell]
            if old_top:
                cells_of[g.code_army[old_top]].discard(cell)
                h ^= zp[old_top * n + cell]
            if old_low:
                h ^= zu[old_low * n + cell]
            board[cell], under[cell] = top, low
            if low:
                self.stacked.add(cell)
            else:
                self.stacked.discard(cell)
            if top:
                cells_of[g.code_army[top]].add(cell)
                h ^= zp[top * n + cell]
            if low:
                h ^= zu[low * n + cell]
        return h

    def _hand_delta(self, code: int, delta: int) -> int:
        """Add ``delta`` pieces of ``code`` to its army's hand; returns the hash change."""
        keys = self.game.z_hand[code]
        old = self.hands[code]
        self.hands[code] = old + delta
        return keys[min(old, len(keys) - 1)] ^ keys[min(old + delta, len(keys) - 1)]

    def _promoted_key(self, flipped: int) -> int:
        """The hash change for promoted flags that flipped on the cells of the mask ``flipped``."""
        key, keys = 0, self.game.z_promoted
        while flipped:
            low = flipped & -flipped
            key ^= keys[low.bit_length() - 1]
            flipped ^= low
        return key

    def _gives_check(self, army: int) -> bool:
        """Does ``army`` attack a royal piece of one of its enemies?"""
        return any(self.attacked(k, army) for e in self.game.enemies[army] for k in self.royal_cells(e))

    def _explode(self, at: int, h: int) -> tuple[list[tuple[int, int]], int, int]:
        """Remove the piece on ``at`` and the unspared pieces around it (``captures explode``).

        Returns the removed (cell, code) pairs, the updated hash and the bit
        mask of the cells emptied.
        """
        g = self.game
        board, zp, n = self.board, g.z_piece, g.n
        exploded = []
        mask = 0
        for cell in g.blast[at]:
            code = board[cell]
            if code and (cell == at or not g.blast_spares[code]):
                exploded.append((cell, code))
                board[cell] = 0
                self.cells_of[g.code_army[code]].discard(cell)
                h ^= zp[code * n + cell]
                mask |= 1 << cell
        return exploded, h, mask

    def _ep_possible(self, cells: tuple[int, ...], army: int) -> bool:
        """Could ``army`` take en passant on one of ``cells`` (pseudo-legally)?"""
        board = self.board
        table = self.game.ep_attackers[army]
        return any(board[src] in codes for c in cells for src, codes in table[c])

    def pop(self) -> Move:
        """Take back the last move and return it."""
        (move, piece, captured, self.unmoved, self.ep_cells, self.ep_victim, self.clock, self.fullmove,
         self.turn, self.hash, self.checks, exploded, self.promoted, hand_code) = self._undo.pop()
        self.history.pop()
        g = self.game
        frm, to, promo, special = move
        board = self.board
        cells_of = self.cells_of
        own = cells_of[g.code_army[piece]] if piece else set()
        tag = special[0] if special is not None else None
        if tag == "pass":
            return move
        if tag in SNAPSHOT_MOVES:
            self._write_cells(list(reversed(exploded)), 0)
            return move
        if tag == "drop":
            board[to] = 0
            own.discard(to)
            self.hands[piece] += 1
            return move
        if exploded:
            for cell, code in exploded:
                board[cell] = code
                cells_of[g.code_army[code]].add(cell)
        cells_of[g.code_army[board[to]]].discard(to)  # the mover, or the partner's piece it became
        board[to] = 0
        if captured:
            cell = special[1] if tag == "ep" else to
            board[cell] = captured
            cells_of[g.code_army[captured]].add(cell)
            if hand_code:
                self.hands[hand_code] -= 1
        board[frm] = piece
        own.add(frm)
        return move

