"""What a move is: a plain tuple, the tags of its special part, and the moves of one piece.

A move is ``(from, to, promotion, special)``: the origin and destination
cells (``from`` is -1 for a drop and a pass), the code of the piece it
promotes to (0 for none; for a drop, the code dropped) and ``special``: None
for a plain move, or a tuple whose first item is a tag:

- ``("ep_set", passed)``: a double step that passed the cells ``passed``;
- ``("ep", victim)``: an en passant capture of the piece on ``victim``;
- ``("castle", rook_from, rook_to, rule)``: castling by rule ``rule``;
- ``DROP``: a drop from the hand;
- ``PASS``, ``REMOVE`` / ``("remove", cell, ...)``: the forced moves of
  ``when no moves`` (a pass; taking mated royal pieces off);
- ``("rescue", special, cells)``: a move that saves some of a shared turn's
  royal pieces and removes the others;
- ``("once", ...)``: a move that spends a once-per-game privilege;
- ``PROMOTE``: a promotion made as a move of its own (``in place``): the piece on ``from``
  becomes ``promotion`` on ``to``, which is ``from`` itself or an empty cell the new piece
  reaches by a quiet move (nothing is captured);
- stacking games' ``("st", outcome, passed)``, ``("sep", victim)`` and
  ``("castlock", rook_from, rule)`` (see :mod:`interpreter.engine.stacking`).

Moves stay plain tuples on the hot path; :class:`interpreter.Move` is the
named view of one for users of the public API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame

from . import stacking

if TYPE_CHECKING:
    from .position import Position

Move = tuple  # (from, to, promotion, special)
# Untyped, so that lists of moves hold the tuples themselves (mypyc keeps a typed fixed-length
# tuple unboxed and makes a new object each time it goes into a list). Its items are then generic
# objects to the compiled code: a hot path reads them into variables typed ``int``
# (``frm: int = move[0]``), after which the arithmetic and indexing on them are native.
# These specials are told apart by identity (``special is DROP``), so they are typed
# ``tuple[str, ...]``: compiled by mypyc, a fixed-length tuple is kept unboxed and each use
# makes a new tuple object, which ``is`` would not recognise.
DROP: tuple[str, ...] = ("drop",)      # the special of a drop: (-1, to, code, DROP)
PASS: tuple[str, ...] = ("pass",)      # the forced move of an army that cannot move: (-1, -1, 0, PASS)
# The forced move that takes mated royal pieces off: (cell, cell, 0, REMOVE), or with more
# cells after the tag, (cell, cell, 0, ("remove", other, ...)) when a shared turn loses several.
REMOVE: tuple[str, ...] = ("remove",)
# The tags (None: a plain move) of the moves of one piece from one cell to another, which may
# capture on the way: made and unmade in place. Moves with the tags "castle", "remove" and those
# of stacking games (see interpreter.engine.stacking) are made by writing new contents into a few
# cells and undone from a snapshot of them; "drop", "pass" and "rescue" have their own ways.
STEP_TAGS = frozenset({None, "ep", "ep_set", "once", "promote"})
PROMOTE: tuple[str, ...] = ("promote",)   # the special of a promotion in place (see above)


def swaps(move: Move) -> bool:
    """Is ``move`` a castling in which king and rook exchange their cells (Superchess)?"""
    special = move[3]
    return special is not None and special[0] == "castle" and special[1] == move[1] and special[2] == move[0]


def piece_moves(pos: Position, src: int) -> list[Move]:
    """The pseudo-legal moves of the piece on ``src`` (its movement patterns only: no castling, drops
    or promotion adjustments)."""
    code = pos.board[src]
    out: list[Move] = []
    g: NativeGame = pos.game
    if g.stacking is not None:
        stacking.piece_moves(pos, src, out)
        return out
    hostile = g.hostile[g.code_army[code]]
    for gen in g.generators[code]:
        gen(pos, src, pos.board, hostile, out)
    return out
