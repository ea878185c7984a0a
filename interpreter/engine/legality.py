"""Legality: which pseudo-legal moves the rules allow.

:class:`Legality` is a mixin of :class:`~interpreter.engine.position.Position`.
``forbid self-check`` removes moves that leave an own royal piece
attacked, ``forbid partner-check`` those that newly expose a partner's,
``forbid giving-check`` those that attack an enemy royal piece, and
``captures compulsory`` every non-capture when a capture exists. When
every enemy attack depends on occupancy alone, pins and hopper screens are
computed once per position and only the moves that could matter are tried
by make, test and unmake.
"""

from __future__ import annotations

from . import stacking
from .outcome import forced_moves, immediate_end

DROP = ("drop",)  # the special of a drop: (-1, to, code, DROP)


class Legality:
    """The legal moves of a position, and the tests behind them."""

    __slots__ = ()

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
        if len(g.turn_armies[self.turn]) > 1:
            return self._without_team_check(moves, g.turn_armies[self.turn])
        army = self.army
        if g.partner_check and g.partners[army]:
            return self._without_partner_check(self._without_own_check(moves, army), army)
        return self._without_own_check(moves, army)

    def _without_own_check(self, moves: list[Move], army: int) -> list[Move]:
        """The moves that leave no royal piece of ``army`` attacked (pins and screens spare most
        moves the make-test-unmake)."""
        g = self.game
        royals = self.royal_cells(army)
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
            elif _swaps(m):
                # King and rook exchange cells: nothing else changes, so the king's new cell is
                # attacked after the move exactly when it is now.
                if not any(self.attacked(m[1], e) for e in enemies):
                    legal.append(m)
            elif (frm in pinned or (m[3] is not None and m[3][0] != "ep_set") or is_royal[board[frm]]
                  or (explosive and board[m[1]])):
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
            for src, codes in g.once_attackers[e][king]:
                if board[src] in codes and (self.privileges >> src) & 1:
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
        partners = self._exposable_partners((army,))
        return self._keeping_safe(moves, partners, guarded=partners)

    def _without_team_check(self, moves: list[Move], movers: tuple[int, ...]) -> list[Move]:
        """A turn shared by several armies: no royal piece of any of them may be left attacked, and
        (``forbid partner-check``) no royal piece of a partner outside the turn newly exposed."""
        exposed = self._exposable_partners(movers)
        if any(self.royal_attacked(a) for a in movers):
            return self._keeping_safe(moves, [*movers, *exposed])
        return self._keeping_safe(moves, [*movers, *exposed], guarded=[*movers, *exposed])

    def _exposable_partners(self, movers: tuple[int, ...]) -> list[int]:
        """With ``forbid partner-check``: the partners of ``movers`` outside the turn whose royal
        pieces are not attacked now (the ones a move may not expose)."""
        g = self.game
        if not g.partner_check:
            return []
        return [p for a in movers for p in g.partners[a] if p not in movers and not self.royal_attacked(p)]

    def _keeping_safe(self, moves: list[Move], armies: list[int], guarded: list[int] = ()) -> list[Move]:
        """The moves after which no royal piece of ``armies`` is attacked.

        ``guarded``: armies whose royal pieces are not attacked now. When each has one royal
        piece and every enemy attack depends on occupancy alone, only a move of a royal piece,
        of a piece pinned against one, onto a hopper's screen, or with a side effect (en
        passant, castling that changes occupancy) can expose one; the other moves are kept
        without make and unmake.
        """
        g = self.game
        if not armies:
            return moves
        fast: list[Move] = []
        if guarded and g.stacking is None:
            kings = [self.royal_cells(a) for a in guarded]
            if all(len(cells) <= 1 for cells in kings) and all(g.pin_safe[e] for a in guarded for e in g.enemies[a]):
                suspects, screens = {c for cells in kings for c in cells}, set()
                for a, cells in zip(guarded, kings):
                    if cells:
                        pinned, _, near = self._pins(cells[0], g.enemies[a])
                        suspects |= pinned
                        screens |= near
                slow = []
                for m in moves:
                    # A double step is a plain move here; a swap leaves every cell occupied as it was.
                    plain = m[3] is None or m[3][0] == "ep_set" or _swaps(m)
                    (fast if plain and m[0] not in suspects and m[1] not in screens else slow).append(m)
                if not slow:
                    return moves
                moves = slow
        for m in moves:
            self.push(m)
            if not any(self.royal_attacked(a) for a in armies):
                fast.append(m)
            self.pop()
        return fast

    def rescue_moves(self) -> list[Move]:
        """``when no moves: rescue``: when royal pieces of several armies to move are attacked and no
        move saves them all, the moves that save some and expose no other; each is wrapped as
        ``(from, to, promotion, ("rescue", special, cells))``, ``cells`` holding the royal pieces
        still attacked after it, which the move removes."""
        movers = self.movers
        attacked = {a for a in movers if self.royal_attacked(a)}
        if len(attacked) < 2:
            return []
        exposed = self._exposable_partners(movers)
        out = []
        for m in self.pseudo_legal_moves():
            self.push(m)
            still = {a for a in movers if self.royal_attacked(a)}
            if still < attacked and not any(self.royal_attacked(p) for p in exposed):
                out.append((m[0], m[1], m[2], ("rescue", m[3], tuple(c for a in sorted(still)
                                                                       for c in self.royal_cells(a)))))
            self.pop()
        return out

    def _safe_after(self, move: Move, army: int) -> bool:
        self.push(move)
        safe = not self.royal_attacked(army)
        self.pop()
        return safe

    def _ep_legal(self) -> bool:
        """Has the side to move a legal en passant capture? (Otherwise the right is void, as in FIDE's
        rule on repeated positions and in python-chess's FEN.)"""
        army, board = self.army, self.board
        if self.game.stacking is not None:  # en passant or sep, whichever the pieces there can make
            return any(m[3] is not None and m[3][0] in ("ep", "sep") and self._safe_after(m, army)
                       for m in self.pseudo_legal_moves())
        victim = ("ep", self.ep_victim)
        if len(self.movers) > 1:
            captures = [(src, cell, 0, victim) for a in self.movers for cell in self.ep_cells
                        for src, codes in self.game.ep_attackers[a][cell] if board[src] in codes]
            return bool(captures) and bool(self._without_team_check(captures, self.movers))
        table = self.game.ep_attackers[army]
        return any(board[src] in codes and self._safe_after((src, cell, 0, victim), army)
                   for cell in self.ep_cells for src, codes in table[cell])


def _swaps(move: Move) -> bool:
    """Is ``move`` a castling in which king and rook exchange their cells (Superchess)?"""
    special = move[3]
    return special is not None and special[0] == "castle" and special[1] == move[1] and special[2] == move[0]
