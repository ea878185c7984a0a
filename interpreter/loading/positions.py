"""Positions of a compiled game: its start, its shuffled starting arrays, a position from FEN.

A :class:`~interpreter.compiler.game.Game` is static data and builds no
position; this module does, knowing both the game and the engine's
:class:`~interpreter.engine.position.Position`. The start is built from the
game's compiled :class:`~interpreter.compiler.setup.Setup`: read from the
setup's FEN string, or placed piece by piece; every piece with a
once-per-game move holds it at the start.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from dsl.errors import UsageError

from interpreter.compiler.game import Game
from interpreter.engine.position import Position
from interpreter.engine.rights import dead_marks
from interpreter.notation.fen import parse_fen, to_fen

from .arrays import arrangements


def start_position(game: Game, array: int | None = None) -> Position:
    """A new Position at the start of ``game``; ``array`` picks one of :func:`starting_arrays`
    (for setups that shuffle, such as Chess960's: numbers from 0)."""
    if array is not None:
        arrays = starting_arrays(game)
        if not 0 <= array < len(arrays):
            raise UsageError(f"no starting array {array}", expected=f"a number from 0 to {len(arrays) - 1}")
        return parse_fen(game, arrays[array])
    return _setup_position(game)


def position_from_fen(game: Game, fen: str) -> Position:
    """The position ``fen`` describes. Raises :class:`~dsl.errors.PositionError` pointing into it."""
    return parse_fen(game, fen)


def start_fen(game: Game) -> str:
    """The FEN of the start of ``game`` (the template of a shuffled setup)."""
    return to_fen(_setup_position(game))


def starting_arrays(game: Game) -> list[str]:
    """FENs of the starting arrays the setup allows (one unless it shuffles), in a fixed order."""
    arrays = _ARRAYS.get(game)
    if arrays is None:
        arrays = _ARRAYS[game] = arrangements(game, _setup_position(game))
    return arrays


_ARRAYS: WeakKeyDictionary[Game, list[str]] = WeakKeyDictionary()  # computed once per game


def _setup_position(game: Game) -> Position:
    setup = game.setup
    if setup.fen is not None:
        pos = parse_fen(game, setup.fen)
    else:
        pos = Position(game)
        for cell, code in setup.placement.items():
            pos.place(cell, code)
        pos.unmoved = setup.unmoved
        pos.unmoved &= ~dead_marks(pos)   # rights no rule can use (a rook without a castling king)
    if any(game.privileged):
        for cell, code in enumerate(pos.board):
            if game.privileged[code]:
                pos.privileges |= 1 << cell
    pos.rehash()
    return pos
