"""The ``then move`` phase: every move ends with the mover moving a neutral piece (Duck chess).

Such a move wraps the move it is made with: ``(from, to, promotion,
("then", neutral_from, neutral_to, special))``, where ``special`` is the
wrapped move's own special part, ``neutral_from`` the cell the neutral piece
leaves (-1 while none is on the board: it is placed) and ``neutral_to`` the
empty cell it goes to (empty after the wrapped move: it may be the cell the
mover left). :meth:`Position.push` plays the wrapped move and then moves the
neutral piece, as one move (one ply); :func:`base_move` is the move without
the second part. The legality rules (``captures compulsory``, drop
conditions) judge the wrapped move; a 'then move' rule together with a
check rule is refused by the compiler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame

from .moves import Move

if TYPE_CHECKING:
    from .position import Position

NEUTRAL_MOVED = object()   # marks the undo record of the second part of a move (see push_neutral)
# Tags of moves whose only effect on which cells are empty is that ``from`` empties and ``to`` fills.
_SIMPLE = (None, "ep_set", "once")


def with_neutral_moves(pos: Position, moves: list[Move]) -> list[Move]:
    """Each of ``moves`` with each way of moving the neutral piece of ``game.neutral_move`` to
    another cell empty after it (or of placing one, while none is on the board)."""
    g: NativeGame = pos.game
    code, board = neutral_code(g), pos.board
    sources = [c for c in pos.cells_of[g.neutral_army] if board[c] == code] or [-1]
    empty = [c for c in range(g.n) if not board[c]]
    out: list[Move] = []
    simple = g.blast is None
    for move in moves:
        frm, to, promo, special = move
        if simple and (special is None or special[0] in _SIMPLE):
            cells = [c for c in empty if c != to]
            if frm >= 0:
                cells.append(frm)
        else:   # castling, en passant, drops, explosions ...: look at the board after the move
            pos.push(move)
            cells = [c for c in range(g.n) if not board[c]]
            pos.pop()
        for source in sources:
            out += [(frm, to, promo, ("then", source, cell, special)) for cell in cells]
    return out


def neutral_code(game: NativeGame) -> int:
    """The code of the neutral piece of a game with a 'then move' phase (its absence here is a bug:
    this module runs only in such games)."""
    code = game.neutral_move
    assert code is not None, "a neutral piece's move in a game without one"
    return code


def has_second_part(move: Move) -> bool:
    """Does ``move`` end by moving a neutral piece (``special`` tagged ``"then"``)?"""
    special = move[3]
    return special is not None and special[0] == "then"


def base_move(move: Move) -> Move:
    """The move a move with a second part is made with (any other move unchanged)."""
    return (move[0], move[1], move[2], move[3][3]) if has_second_part(move) else move


def push_neutral(pos: Position, move: Move) -> None:
    """Play ``move``'s wrapped move, then its neutral piece's move, in the same turn; undone by
    :func:`pop_neutral` as one move. A neutral piece that lands on an en passant target cell
    takes the en passant right away (no pawn can capture onto it)."""
    _, _, _, (_, source, cell, _) = move
    pos.push(base_move(move))
    g: NativeGame = pos.game
    code, n, zp = neutral_code(g), g.n, g.z_piece
    h = pos.hash
    pos._undo.append((NEUTRAL_MOVED, move, pos.ep_cells, h))
    if source >= 0:
        pos.board[source] = 0
        pos.cells_of[g.neutral_army].discard(source)
        h ^= zp[code * n + source]
    pos.board[cell] = code
    pos.cells_of[g.neutral_army].add(cell)
    if g.is_royal[code]:
        pos.find_royals()   # pop_neutral puts them back with the wrapped move's record
    h ^= zp[code * n + cell]
    if cell in pos.ep_cells:
        for c in pos.ep_cells:
            h ^= g.z_ep[c]
        pos.ep_cells = ()
    pos.hash = pos.history[-1] = h


def pop_neutral(pos: Position, undo: tuple) -> Move:
    """Take back a move made by :func:`push_neutral` (``undo`` is its record, already popped)."""
    _, move, pos.ep_cells, pos.hash = undo
    _, _, _, (_, source, cell, _) = move
    g: NativeGame = pos.game
    pos.board[cell] = 0
    pos.cells_of[g.neutral_army].discard(cell)
    if source >= 0:
        pos.board[source] = neutral_code(g)
        pos.cells_of[g.neutral_army].add(source)
    pos.history[-1] = pos.hash
    pos.pop()
    return move
