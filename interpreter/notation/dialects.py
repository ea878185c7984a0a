"""Moves as the engine protocols write them (UCI, XBoard), in both directions: from-to text with a protocol's own conventions.

Both protocols write a move as its origin and destination squares, a
promotion letter in lower case (``e7e8q``; ``+`` for a shogi-style
promotion) and a drop as ``P@e4``, which is the engine's own from-to
notation (:func:`~interpreter.notation.san.move_to_uci`). On top of it a
:class:`Dialect` knows:

- castling as the king's move onto its own rook (``e1h1``) for UCI with
  ``UCI_Chess960`` and for games with shuffled setups; otherwise as the
  king's move (``e1g1``). Either form is read in every case, and XBoard's
  ``O-O`` too;
- a pass as the null move, ``0000`` in UCI and ``@@@@`` in XBoard;
- XBoard's names of the ranks of a board of exactly ten ranks, 0 to 9
  (``e0e1`` is the engine's ``e1e2``), as XBoard and Fairy-Stockfish write
  them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dsl.errors import IllegalMoveError, Loc

from interpreter.compiler.game import Game
from interpreter.engine.moves import Move
from interpreter.engine.position import Position
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_uci
from interpreter.notation.terms import pass_cell

NULL_MOVES = {"uci": "0000", "xboard": "@@@@"}
RANKS_FROM_ZERO = 10  # XBoard names the ranks of a board of this many ranks from 0
_SQUARE = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True)
class Dialect:
    """How ``protocol`` (``uci`` or ``xboard``) writes the moves of one game."""

    protocol: str
    king_takes_rook: bool = False
    ranks_from_zero: bool = False

    @classmethod
    def of(cls, game: Game, protocol: str, chess960: bool = False) -> "Dialect":
        """The dialect of ``protocol`` for ``game``; ``chess960``: UCI's ``UCI_Chess960`` is on."""
        shuffled = bool(game.spec.setup and game.spec.setup.shuffles)
        return cls(protocol, chess960 or shuffled, protocol == "xboard" and game.board.ranks == RANKS_FROM_ZERO)

    @property
    def null_move(self) -> str:
        return NULL_MOVES[self.protocol]

    def write(self, pos: Position, move: Move, legal: list[Move] | None = None) -> str:
        """The text of ``move``, a legal move of ``pos``."""
        special = move[3]
        if special is not None and special[0] == "pass":
            # UCI writes a pass at will as Fairy-Stockfish does, the royal cell twice; XBoard its null move.
            cell = pass_cell(pos) if self.protocol == "uci" else None
            return self.null_move if cell is None else self.square(cell) * 2
        if self.king_takes_rook and special is not None and special[0] == "castle":
            names = pos.game.board.names
            text = names[move[0]] + names[special[1]]
        else:
            text = move_to_uci(pos, move, legal=legal)
        return self._shift(text, -1) if self.ranks_from_zero else text

    def read(self, pos: Position, text: str, legal: list[Move] | None = None) -> Move:
        """The legal move of ``pos`` that ``text`` names. Raises MoveError / IllegalMoveError."""
        legal = pos.legal_moves() if legal is None else legal
        if text in NULL_MOVES.values():
            passes = [m for m in legal if m[3] is not None and m[3][0] == "pass"]
            if not passes:
                raise IllegalMoveError("a null move, but the side to move may not pass",
                                       Loc.in_string("<move>", text, 0, len(text)))
            return passes[0]
        return parse_move(pos, self._shift(text, +1) if self.ranks_from_zero else text, legal=legal)

    def square(self, name: str) -> str:
        """A cell name of the engine as the protocol writes it."""
        return self._shift(name, -1) if self.ranks_from_zero else name

    def cell_name(self, square: str) -> str:
        """A square as the protocol writes it, in the engine's cell names."""
        return self._shift(square, +1) if self.ranks_from_zero else square

    @staticmethod
    def _shift(text: str, by: int) -> str:
        return _SQUARE.sub(lambda m: m.group(1) + str(int(m.group(2)) + by), text)

    def line(self, pos: Position, moves: tuple[Move, ...] | list[Move]) -> list[str]:
        """The texts of ``moves`` played one after the other from ``pos`` (left as it was); stops at
        the first move that is not legal where it comes."""
        work, texts = pos.copy(), []
        for move in moves:
            legal = work.legal_moves()
            if move not in legal:
                break
            texts.append(self.write(work, move, legal))
            work.push(move)
        return texts
