"""The public Python API: load a variant, make positions, read and write moves, play, judge, count.

Everything here is re-exported by :mod:`interpreter` itself::

    import interpreter

    game = interpreter.load_game("chess")            # a bundled name, an alias or a .rules path
    pos = interpreter.start_position(game)
    move = interpreter.parse_move(pos, "e4")         # SAN or from-to ("e2e4")
    pos.push(move)
    interpreter.san(pos, interpreter.legal_moves(pos)[0])

A :class:`Move` is a named tuple of cell indices and a piece code; it is a
tuple like the engine's own moves, so it can be pushed, compared and used
as a dict key as they are. Cell names are ``game.board.names[cell]``.
Errors are the :mod:`dsl.errors` classes: a bad rules file, FEN or move
raises a :class:`~dsl.errors.RulesError` whose ``render()`` is the message
the command line prints.
"""

from __future__ import annotations

from typing import NamedTuple

from interpreter.engine.outcome import Outcome
from interpreter.engine.outcome import outcome as _outcome
from interpreter.engine.perft import perft
from interpreter.engine.position import Position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move as _parse_move
from interpreter.notation.san import move_to_san, move_to_uci

__all__ = ["Move", "legal_moves", "parse_move", "san", "from_to", "fen", "outcome", "perft"]


class Move(NamedTuple):
    """A move of a position: ``origin`` and ``target`` cells, the ``promotion`` code, and ``special``.

    ``origin`` is -1 for a drop and a pass, ``target`` -1 for a pass;
    ``promotion`` is the code of the piece the mover becomes (for a drop,
    the code dropped), 0 for none; ``special`` is None for a plain move or a
    tuple whose first item names what else happens (see :attr:`kind`).
    """

    origin: int
    target: int
    promotion: int
    special: tuple | None

    @property
    def kind(self) -> str:
        """``"move"`` for a plain move or capture, else the tag of its special part: ``"ep_set"``
        (a double step), ``"ep"`` (en passant), ``"castle"``, ``"drop"``, ``"pass"``, ``"remove"``
        (mated royal pieces leave), ``"rescue"``, ``"once"`` (a once-per-game move), ``"promote"`` (a
        promotion made as a move of its own, ``in place``), and in
        stacking games ``"st"`` (a move with a stacking outcome), ``"sep"``, ``"castlock"``."""
        return "move" if self.special is None else str(self.special[0])


def legal_moves(pos: Position) -> list[Move]:
    """The legal moves of ``pos`` as :class:`Move` (none when the game is over)."""
    return [Move(*m) for m in pos.legal_moves()]


def parse_move(pos: Position, text: str) -> Move:
    """The legal move of ``pos`` that ``text`` names, in SAN (``Nf3``, ``O-O``, ``e8=Q``) or from-to
    form (``g1f3``). Raises :class:`~dsl.errors.MoveError` / :class:`~dsl.errors.IllegalMoveError`."""
    return Move(*_parse_move(pos, text))


def san(pos: Position, move: tuple) -> str:
    """The SAN of a legal ``move`` of ``pos`` (ValueError if it is not one)."""
    return move_to_san(pos, tuple(move))


def from_to(pos: Position, move: tuple) -> str:
    """The from-to form of a legal ``move`` of ``pos`` (``e2e4``, ``e7e8q``; ValueError if not legal)."""
    return move_to_uci(pos, tuple(move))


def fen(pos: Position) -> str:
    """The FEN of ``pos`` (with the variant's extensions: hands, stacks, facings, check counts)."""
    return to_fen(pos)


def outcome(pos: Position) -> Outcome | None:
    """How the game has ended in ``pos`` (the rule, its title, the result for the side to move and
    the winning armies), or None while it goes on."""
    return _outcome(pos)
