"""Which of a position's unmoved marks still allow something (see :mod:`interpreter.compiler.rights`).

:meth:`Position.push <interpreter.engine.position.Position.push>` drops the
marks this module finds dead as soon as a move clears a mark or spends a
piece in hand, and reading a FEN drops them before hashing: so ``unmoved``
holds rights, not history, and two positions with the same rights have the
same hash (a king that moved away and came back, and the rooks it no longer
castles with, leave nothing behind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.castling import partner_mask
from interpreter.compiler.native_game import NativeGame

if TYPE_CHECKING:
    from .position import Position


def ground(pos: "Position", cell: int) -> int:
    """The code of the piece at the bottom of ``cell`` (its only piece when it stands alone; 0 for an
    empty cell): marks and rights belong to it, also while a piece locks it."""
    if not pos.under[cell]:
        return pos.board[cell]
    if pos.deep is not None and pos.deep[cell]:
        return pos.deep[cell][0]
    return pos.under[cell]


def marked_cells(mask: int) -> list[int]:
    """The cells of the bit ``mask``, in increasing order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def dead_marks(pos: "Position", among: int = -1) -> int:
    """The marks of ``pos.unmoved`` (of those in the bit mask ``among``) that can no longer allow
    anything, as a bit mask.

    A mark is live while the army of the piece at the bottom of its cell is
    in the game and one of these holds:

    - the piece has first-move patterns of its own (``unmoved``);
    - it is on one of its army's gate cells, and the army holds a piece that
      may enter there or can get one (captures go to hand);
    - it is the army's castling king's, and a rule could castle it with a
      marked rook of the army on a cell that rule names for a king there
      (then the rook's mark is live too).

    Marks are never set again in play (but by a drop ``unmoved in``, which
    marks its piece and asks again), and what keeps one live, once lost,
    never comes back (an army out stays out; without captures to hand a
    hand only shrinks), so a dead mark can be dropped for good.
    """
    g: NativeGame = pos.game
    marks = pos.unmoved
    live = 0
    rest = marks & among
    while rest:
        low = rest & -rest
        rest ^= low
        cell = low.bit_length() - 1
        code = ground(pos, cell)
        if not code:
            continue
        army = g.code_army[code]
        if (pos.out >> army) & 1:
            continue
        if g.own_mark[code]:
            live |= low
            continue
        if g.gating:
            codes = g.gates[army].get(cell)
            if codes is not None and (g.to_hand or any(pos.hands[c] for c in codes)):
                live |= low
        if code == g.castle_king_codes[army]:
            partners = castling_partners(pos, cell, army, marks)
            if partners:
                live |= low | partners
    return marks & among & ~live


def inert_marks(pos: "Position") -> int:
    """The marks of ``pos.unmoved`` whose piece has first-move patterns of its own and castles with
    nothing: such a mark lives as long as its piece stays (unless its army leaves the game) and no
    other mark depends on it."""
    g: NativeGame = pos.game
    found = 0
    for cell in marked_cells(pos.unmoved):
        code = ground(pos, cell)
        if g.own_mark[code] and not g.castler[code]:
            found |= 1 << cell
    return found


def castling_partners(pos: "Position", king: int, army: int, marks: int, rules: list | None = None) -> int:
    """The cells (a bit mask) of the marked rooks that ``army``'s king on ``king`` may still castle
    with by one of ``rules`` (default: every castling rule of the game), whatever stands between them
    or attacks the way."""
    g: NativeGame = pos.game
    if rules is None:
        cells = pos.game.castle_partner_mask(army, king)
    else:
        cells = 0
        for rule in rules:
            cells |= partner_mask(rule, army, king, g.n)
    rooks = g.castle_rook_codes[army]
    found = 0
    for cell in marked_cells(marks & cells & ~(1 << king)):
        if ground(pos, cell) in rooks:
            found |= 1 << cell
    return found
