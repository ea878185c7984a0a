"""Attacks on cells and royal pieces: the part of a position that answers "is it attacked?".

:class:`Attacks` is a mixin of :class:`~interpreter.engine.position.Position`. Most
attacks are read from the game's reverse tables (leaps, rays, lame leaps,
hops: see :meth:`interpreter.compiler.game.Game._compile_tables`); attacks that
depend on more than occupancy are found by generating the attacker's moves;
stacking games ask :mod:`interpreter.engine.stacking`, where a royal piece is
attacked when an unlocked enemy piece could remove it.
"""

from __future__ import annotations

from . import stacking


class Attacks:
    """Attack queries on a position's state (``board``, ``cells_of``, ``under`` ...)."""

    __slots__ = ()

    def attacked(self, cell: int, by: int) -> bool:
        """Is ``cell`` attacked by a piece of army ``by`` (whatever stands on ``cell``)?"""
        g = self.game
        if g.stacking is not None:
            return stacking.cell_attacked(self, cell, by)
        board = self.board
        for src, codes in g.leap_attackers[by][cell]:
            if board[src] in codes:
                return True
        if g.once_attackers[by][cell]:
            for src, codes in g.once_attackers[by][cell]:
                if board[src] in codes and (self.privileges >> src) & 1:
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
        """Is a royal piece of ``army`` (default: any army that moves this turn) attacked by an enemy?"""
        if army is None:
            return any(self.royal_attacked(a) for a in self.movers)
        return self.royal_attacked(army)

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
                        continue
                    # A piece the enemy may capture stands in for the royal one (which, with
                    # 'forbid royal-capture', no move may take).
                    king, self.board[k] = self.board[k], self.game.stand_in[e]
                    try:
                        if any(m[1] == k for m in self._piece_moves(src)):
                            found.append(src)
                    finally:
                        self.board[k] = king
        return sorted(set(found))

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

    def _gives_check(self, army: int) -> bool:
        """Does ``army`` attack a royal piece of one of its enemies?"""
        return any(self.attacked(k, army) for e in self.game.enemies[army] for k in self.royal_cells(e))
