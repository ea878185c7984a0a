"""Pseudo-legal moves: every move the movement rules give the side to move.

The pieces' own moves (compiled generator closures, or the stacking rules),
castling (king and rook to given files, king-rook swaps, and castlock where
the rook climbs onto the king), drops from the hand, gating
(:mod:`interpreter.engine.gating`), promotions on a capture
into a zone, and promotions limited to lost pieces. Whether a move leaves a
royal piece attacked is :mod:`interpreter.engine.legality`'s question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from . import stacking
from .attacks import live_enemies, royal_attacked, threatens
from .gating import with_gates
from .moves import DROP, Move

if TYPE_CHECKING:
    from .position import Position


def pseudo_legal_moves(pos: Position, attacked: Callable[[int], bool] | None = None) -> list[Move]:
    """Moves allowed by the movement rules, before the self-check test.

    ``attacked(army)``: :func:`~interpreter.engine.attacks.royal_attacked`'s answer for this
    position, from a caller that computes it anyway (castling asks it); by default it is asked.
    """
    g = pos.game
    board = pos.board
    generators = g.generators
    out: list[Move] = []
    for army in g.turn_armies[pos.turn]:
        if g.stacking is not None:
            for src in list(pos.cells_of[army]):
                stacking.piece_moves(pos, src, out)
            if g.castle_locks and pos.unmoved:
                castlock_moves(pos, army, out)
        else:
            hostile = g.hostile[army]
            for src in list(pos.cells_of[army]):
                for gen in generators[board[src]]:
                    gen(pos, src, board, hostile, out)
        if g.castle_rules and pos.unmoved:
            castling_moves(pos, army, out, attacked)
        if g.has_drops:
            drops(pos, army, out)
    if g.capture_promotions:
        out = _with_capture_promotions(pos, out)
    if g.gating:
        out = with_gates(pos, out)
    if g.promotion_limits:
        out = _without_unavailable_promotions(pos, out)
    return out


def _with_capture_promotions(pos: Position, moves: list[Move]) -> list[Move]:
    """``promotes ...: on capture into ZONE``: a capture from outside the zone into it promotes."""
    table, board = pos.game.capture_promotions, pos.board
    # The captures that do not promote anyway (most moves are neither: looked for first).
    captures = [m for m in moves if (board[m[1]] or (m[3] is not None and m[3][0] == "ep")) and not m[2]
                and m[0] >= 0 and board[m[0]] in table]
    promoting = {m for m in captures if m[1] in table[board[m[0]]][0] and m[0] not in table[board[m[0]]][0]}
    if not promoting:
        return moves
    out: list[Move] = []
    for m in moves:
        if m in promoting:
            out.extend((m[0], m[1], code, m[3]) for code in table[board[m[0]]][1])
        else:
            out.append(m)
    return out


def _without_unavailable_promotions(pos: Position, moves: list[Move]) -> list[Move]:
    """Drop promotions to a kind of which the army already has as many on the board as its limit
    allows (``limit P to N``; ``only captured``: as many as in the setup)."""
    g, board = pos.game, pos.board
    limits = g.promotion_limits
    if not any(m[2] in limits and m[3] is not DROP for m in moves):
        return moves
    on_board = {code: 0 for code in limits}
    for cells in pos.cells_of:
        for cell in cells:
            if board[cell] in on_board:
                on_board[board[cell]] += 1
    return [m for m in moves if m[2] not in limits or m[3] is DROP or on_board[m[2]] < limits[m[2]]]


def drops(pos: Position, army: int, out: list[Move]) -> None:
    """Drops from the hand of ``army``: ``(-1, to, code, DROP)`` moves."""
    g = pos.game
    board, hands = pos.board, pos.hands
    for code in range(1 + army, g.ncodes_plain, len(g.armies)):
        cells = g.drop_cells[code]
        if not hands[code] or cells is None:
            continue
        twin = g.drop_no_twin[code]
        banned_files = {g.board.coords[c][0] for c in pos.cells_of[army] if board[c] == twin} if twin else ()
        coords = g.board.coords
        condition = g.drop_conditions[code]
        context = DropContext(pos, army) if condition is not None else None
        for cell in cells:
            if not board[cell] and coords[cell][0] not in banned_files:
                if context is not None:
                    context.cell = cell
                    if not condition(context):
                        continue
                out.append((-1, cell, code, DROP))


class DropContext:
    """What the ``if`` condition of a drop reads (:mod:`interpreter.compiler.drops`): the position, the
    dropping army and the destination ``cell``.

    :meth:`to` reads the destination's property ``P`` of ``to.P`` (``""`` when the cell lacks it;
    not an attribute ``to_P``: mypyc's compiled classes do not call ``__getattr__``); ``in_check``,
    ``count`` and ``enemy_count`` are computed only when asked for, and ``in_check`` only once."""

    __slots__ = ("position", "army_index", "cell", "_check")

    def __init__(self, position: Position, army: int) -> None:
        self.position, self.army_index, self.cell = position, army, -1
        self._check: bool | None = None

    def to(self, prop: str) -> object:
        return self.position.game.board.attributes[self.cell].get(prop, "")

    @property
    def army(self) -> str:
        return self.position.game.armies[self.army_index].name

    @property
    def in_check(self) -> bool:
        if self._check is None:
            self._check = royal_attacked(self.position, self.army_index)
        return self._check

    def count(self, kind: int) -> int:
        return kind_count(self.position, self.army_index, kind)

    def enemy_count(self, kind: int) -> int:
        pos = self.position
        return sum(kind_count(pos, e, kind) for e in pos.game.enemies[self.army_index])


def kind_count(pos: Position, army: int, kind: int) -> int:
    """How many pieces of ``kind`` ``army`` has: on the board (locked ones under a stack included)
    and in hand."""
    g = pos.game
    code_kind, board = g.code_kind, pos.board
    count = sum(1 for c in pos.cells_of[army] if code_kind[board[c]] == kind)
    if pos.stacked:
        count += sum(1 for _, code in stacking.locked_pieces(pos) if code_kind[code] == kind and g.code_army[code] == army)
    return count + pos.hands[g.code(kind, army)]


def castling_moves(pos: Position, army: int, out: list[Move],
                   attacked: Callable[[int], bool] | None = None) -> None:
    """Castling of ``army``'s unmoved king with an unmoved rook, by every rule that allows it
    (``attacked``: see :func:`pseudo_legal_moves`)."""
    g = pos.game
    board, under, unmoved = pos.board, pos.under, pos.unmoved
    king_code = g.code(g.castle_king, army)
    rook_codes = g.castle_rook_codes[army]
    for k in pos.cells_of[army]:
        if board[k] != king_code or under[k] or not (unmoved >> k) & 1:
            continue
        checked = None  # is the king in check? (asked once, by the first swap)
        for rule in g.castle_rules:
            allowed = rule.rook_cells[army] if rule.rook_cells else None
            if rule.swap:
                # King and rook exchange cells: only check matters (legality tests the result).
                if checked is None:
                    checked = g.self_check and g.is_royal[king_code] and (
                        attacked(army) if attacked is not None else royal_attacked(pos, army))
                if checked:
                    continue
                for r in allowed if allowed is not None and len(allowed) == 1 else pos.cells_of[army]:
                    # The rook must stand alone: a rook on top of a stack did not start there.
                    if (board[r] in rook_codes and not under[r] and (unmoved >> r) & 1
                            and (allowed is None or r in allowed)):
                        out.append((k, r, 0, ("castle", r, k, rule.index)))
                continue
            attacks = not rule.ignore_attacks and g.self_check and g.is_royal[king_code]
            for r, kd, rd, between, passing in rule.paths[k]:
                if (board[r] not in rook_codes or under[r] or not (unmoved >> r) & 1
                        or (allowed is not None and r not in allowed)):
                    continue
                if any(board[c] for c in between) or (attacks and castle_path_attacked(pos, k, passing, army)):
                    continue
                out.append((k, kd, 0, ("castle", r, rd, rule.index)))


def castle_path_attacked(pos: Position, k: int, cells: tuple[int, ...], army: int) -> bool:
    """Is one of ``cells`` (see :func:`~interpreter.compiler.castling.king_path`) attacked by an enemy
    of ``army``, with the king lifted off ``k`` (it does not shield the cells it passes)?"""
    king, pos.board[k] = pos.board[k], 0
    try:
        return any(threatens(pos, c, e) for c in cells for e in live_enemies(pos, army))
    finally:
        pos.board[k] = king

# ------------------------------------------------------------ make / unmake


def castlock_moves(pos: Position, army: int, out: list) -> None:
    """Castling rules whose rook climbs onto the king (``rook onto king``): a lone unmoved king and a
    lone unmoved rook of its line, the cells between them and the king's destination empty, and
    none of the cells the king starts on and passes attacked."""
    game = pos.game
    board, under, unmoved = pos.board, pos.under, pos.unmoved
    king_code = game.code(game.castle_king, army)
    rook_codes = game.castle_rook_codes[army]
    kings = [k for k in pos.cells_of[army] if board[k] == king_code and not under[k] and (unmoved >> k) & 1]
    for rule in game.castle_locks:
        for k in kings:
            for r, kd, _, between, passing in rule.paths[k]:
                if board[r] not in rook_codes or under[r] or not (unmoved >> r) & 1:
                    continue
                if any(board[c] for c in between) or castle_path_attacked(pos, k, passing, army):
                    continue
                out.append((k, kd, 0, ("castlock", r, rule.index)))
