"""What a game's traditional notation (``notation wxf`` / ``notation shogi``) needs of it, checked when it compiles.

Both notations number the files of a flat grid from a player's right and tell
moves forward from moves backward, so the game must have two armies facing each
other along the files (one ``forward n``, the other ``forward s``, or the
reverse) on a board of generated cells of at most nine files (one digit each);
the shogi notation also names at most nine ranks (the letters a to i, the
numerals 一 to 九). A piece's ``notation letter`` is a letter, or ``+`` and a
letter, like a piece letter. ``notation san`` (or no declaration) needs nothing.
"""

from __future__ import annotations

from dsl import spec as S
from dsl.errors import RulesSemanticError

from .atoms import frame

MAX_FILES = 9
MAX_SHOGI_RANKS = 9


def check_notation(spec: S.VariantSpec, game) -> None:
    """Raise a located RulesSemanticError when ``game`` (compiled from ``spec``) cannot be written in the
    notation ``spec`` declares (see the module docstring)."""
    for piece in spec.pieces.values():
        letter = piece.notation_letter
        if letter is not None and not (letter[-1:].isalpha() and (len(letter) == 1 or (len(letter) == 2 and letter[0] == "+"))):
            raise RulesSemanticError(f"a notation letter is a letter or '+' and a letter, not {letter!r}",
                                     piece.locs.get("notation letter", piece.loc),
                                     expected="a letter such as E or +P")
    style = spec.notation
    if style in (None, "san"):
        return
    loc = spec.locs.get("notation")
    board = game.board
    forwards = sorted(frame(army.forward, board)[0] for army in game.armies)
    if forwards != [(0, -1), (0, 1)]:
        raise RulesSemanticError(f"'notation {style}' needs two armies facing each other along the files", loc,
                                 expected="one army with 'forward n' and one with 'forward s'")
    if board.levels > 1 or any(part is None for part in board.parts):
        raise RulesSemanticError(f"'notation {style}' needs a flat grid board (it numbers files)", loc)
    if board.files > MAX_FILES or (style == "shogi" and board.ranks > MAX_SHOGI_RANKS):
        raise RulesSemanticError(f"'notation {style}' names at most {MAX_FILES} files"
                                 + (f" and {MAX_SHOGI_RANKS} ranks" if style == "shogi" else "")
                                 + f", and this board has {board.files} x {board.ranks}", loc)
