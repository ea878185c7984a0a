"""Gating: a piece in hand enters on the cell a piece leaves on its first move (Seirawan chess).

A gating move wraps the move it is made with: ``(from, to, promotion,
("gate", cell, code, special))``, where ``special`` is the wrapped move's
own special part, ``cell`` the gate cell (the mover's origin, or for a
castling the king's or the rook's origin) and ``code`` the piece that
enters from the hand. :meth:`Position.push` plays the wrapped move and then
the entry, as one move; :func:`ungated` is the move without the entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame

from .moves import Move

if TYPE_CHECKING:
    from .position import Position


def with_gates(pos: Position, moves: list[Move]) -> list[Move]:
    """``moves`` and, for each move that leaves a gate cell that keeps its right while the mover's
    army holds a piece that may enter there, the move with each such entry."""
    g: NativeGame = pos.game
    unmoved, board, hands = pos.unmoved, pos.board, pos.hands
    if not unmoved & g.gate_mask:
        return moves
    out = list(moves)
    for m in moves:
        frm, to, promo, special = m
        if frm < 0 or not (unmoved >> frm) & 1:
            continue
        gates = g.gates[g.code_army[board[frm]]]
        if special is not None and special[0] == "castle":
            cells: tuple[int, ...] = tuple(c for c in (frm, special[1]) if c != to and c != special[2])
        else:
            cells = (frm,)
        for cell in cells:
            if (unmoved >> cell) & 1:
                for code in gates.get(cell, ()):
                    if hands[code]:
                        out.append((frm, to, promo, ("gate", cell, code, special)))
    return out


def ungated(move: Move) -> Move:
    """The move a gating move is made with (any other move unchanged)."""
    special = move[3]
    return (move[0], move[1], move[2], special[3]) if special is not None and special[0] == "gate" else move
