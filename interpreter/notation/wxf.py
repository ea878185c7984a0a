"""Writing moves in WXF notation, the World Xiangqi Federation's, for a game that declares ``notation wxf``.

A move is four parts, as the Asian Xiangqi Federation's system (adopted by the WXF in
1997) writes them: ``C2.5``, ``H2+3``, ``R1+1``, ``P7+1``, ``K5+1``:

- the piece's letter: its ``notation letter`` if it has one, else its letter (xiangqi's file
  gives E for the elephant and H for the horse; K A R C P are its letters);
- the file it stands on, numbered 1 to 9 (to the number of files) from the mover's own right:
  Red's file 1 is Black's file 9;
- ``+`` for a move forward (towards the enemy), ``-`` backward, ``.`` sideways along its rank;
- the file it arrives on when it changes file (a diagonal mover: advisor, elephant, horse; or a
  sideways move), else the number of ranks it moves (a straight mover going forward or
  backward): what a move does, not the kind of piece, decides, so any piece is written.

Tandem pieces (WXF "Tandem Positions"): when other pieces of the same kind and army stand on
the mover's file, the file digit is replaced by the mover's place in the column, counted from
the front: two pieces are ``+`` (front) and ``-`` (rear): ``R+.3``, ``C--1``; three are ``+``,
the file digit and ``-`` (``P+.4``, ``P3.4``, ``P-.4``); four are ``++``, ``+``, ``-``, ``--`` and five
``++``, ``+``, the file, ``-``, ``--``, where a doubled sign stands without the letter (``++.4``);
more go on the same way (``+++``). When such columns stand on two files or more, the letter
is replaced by the file digit (``3+.4``, ``33.4``, ``3-.4``, ``7+.6``).

Edge cases: a move the notation has no form for (a drop, a castling, a promotion, a pass or
other forced move, a move with a second part) is written in SAN; so are two legal moves that
the rules above would write alike (a piece of another game that reaches two points of one
file moving forward), so that every legal move has a text of its own.
"""

from __future__ import annotations

import math

from interpreter.engine.moves import Move
from interpreter.engine.position import Position

from .san import move_to_san
from .terms import advance, file_from_right, inner, plain, traditional_letter, written


def move_to_wxf(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The WXF text of a legal ``move`` of ``pos`` (see the module docstring); ``legal``: its legal moves, if
    known. ValueError if ``move`` is not legal."""
    legal = pos.legal_moves() if legal is None else legal
    san = move_to_san(pos, move, legal)
    move = inner(move)
    if not _writable(move):
        return san
    text = _wxf(pos, move)
    # A text that starts with the piece's letter can only be written alike for a piece with that letter;
    # one that starts with a file digit or a sign (tandem pawns) is compared with every move.
    letter = traditional_letter(pos.game, pos.board[move[0]])
    if any(m != move and _writable(m) and (traditional_letter(pos.game, pos.board[m[0]]) == letter or not text[0].isalpha())
           and _wxf(pos, m) == text for m in written(legal).moves):
        return san
    return text


def _writable(move: Move) -> bool:
    """Has the notation a form for ``move``: a plain move of a piece on the board, without promotion?"""
    return plain(move) and move[3] is None and not move[2] and move[0] >= 0 and move[1] >= 0


def _wxf(pos: Position, move: Move) -> str:
    game, board = pos.game, pos.board
    frm, to = move[0], move[1]
    code = board[frm]
    army = game.code_army[code]
    start, end = file_from_right(game, army, frm), file_from_right(game, army, to)
    ranks = advance(game, army, frm, to)
    operator = "+" if ranks > 0 else "-" if ranks < 0 else "."
    last = end if end != start else abs(ranks)
    return _piece(pos, frm) + operator + str(last)


def _piece(pos: Position, frm: int) -> str:
    """The first two parts: the letter (or a file digit) and the file (or the place in a tandem column)."""
    game, board = pos.game, pos.board
    code = board[frm]
    army = game.code_army[code]
    x = game.board.coords[frm][0]
    file = str(file_from_right(game, army, frm))
    column = sorted((c for c in pos.cells_of[army] if board[c] == code and game.board.coords[c][0] == x),
                    key=lambda c: advance(game, army, frm, c), reverse=True)  # the front one first
    if len(column) == 1:
        return traditional_letter(game, code) + file
    files = {game.board.coords[c][0] for c in pos.cells_of[army] if board[c] == code}
    tandem_files = sum(1 for f in files if sum(1 for c in pos.cells_of[army]
                                               if board[c] == code and game.board.coords[c][0] == f) > 1)
    half = (len(column) - 1) / 2 - column.index(frm)   # > 0 in front of the middle
    marker = ("+" if half > 0 else "-") * math.ceil(abs(half)) if half else file
    if tandem_files > 1:
        return file + marker
    if len(marker) > 1 and marker[0] in "+-":
        return marker
    return traditional_letter(game, code) + marker
