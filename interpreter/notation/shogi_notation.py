"""Writing moves in shogi's notations, Western and Japanese, for a game that declares ``notation shogi``.

Squares. Both name a square by its file, numbered from 1 at the right of the first player to
move (Sente, "Black"), and its rank, counted from 1 at the top (the far side from Sente). The
Western notation writes the rank as a letter, ``a`` to ``i`` (``7f``); the Japanese writes the file
as a full-width digit and the rank as a numeral (``７六``).

Western (Hodges and Townhill, 1976, as in Hosking's *The Art of Shogi*): ``P-7f``,
``Bx2b+``, ``S*5e``, ``Nx3c=``, ``G6i-5h``:

- the piece's letter: its ``notation letter`` if it has one, else its letter (``+P`` for a
  tokin, ``+R`` for a dragon: the letters of a shogi file);
- the origin square, only when another piece written with the same letter could move to the
  same square (``G6i-5h``);
- ``-`` for a move, ``x`` for a capture, ``*`` for a drop (no origin then);
- the destination square;
- ``+`` when the piece promotes, ``=`` when it could promote on that move and does not.

Japanese (the Japan Shogi Association's convention): ``▲７六歩``, ``△同歩``, ``▲５五角打``,
``▲２三歩成``, ``▲５三桂左不成``:

- ``▲`` for the first player, ``△`` for the second;
- the destination, or ``同`` ("same") when it is the square the previous move went to;
- the piece's name before it moves: its ``notation glyph`` if it has one, else its army's
  glyph, else its glyph (else its letter): 歩 香 桂 銀 金 角 飛 玉, と 成香 成桂 成銀 馬 龍;
- when another piece of the same kind could move there too, the first of these that tells it
  apart: its movement, if none of the others moves that way (``上`` forward, ``引`` backward,
  ``寄`` sideways); ``直`` for a step of one square straight forward; ``右`` / ``左`` when it
  stands right / left of all the others, as the mover sees the board (on a file of its own);
  ``右`` / ``左`` among those that move as it does, followed by the movement (``左上``,
  ``右寄``); else the origin square in brackets, as KIF files write every move (``(77)``);
- ``打`` ("drop") for a drop, only when a piece of that kind on the board could move there too;
- ``成`` when the piece promotes, ``不成`` when it could and does not.

Edge cases: a move neither notation has a form for (a castling, a pass or other forced move,
a move with a second part) is written in SAN; the Western notation writes ``+`` for any
promotion, so a move with two promotions to choose from, like any other pair of legal moves
the rules above would write alike, is written in SAN too. The Japanese ``直`` is written for
any piece's one-square step straight forward; the association writes it for the golds and
silvers, and tells two dragons or horses apart by 右 and 左 first.
"""

from __future__ import annotations

from typing import Callable

from interpreter.engine.moves import Move
from interpreter.engine.position import Position

from .san import move_to_san
from .terms import advance, captures, file_from_right, inner, is_drop, plain, rank_from_far, traditional_letter, written

FULL_WIDTH_DIGITS = "０１２３４５６７８９"
NUMERALS = "〇一二三四五六七八九"
SIDE_MARKS = ("▲", "△")


def move_to_western(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The Western shogi notation of a legal ``move`` of ``pos`` (see the module docstring)."""
    return _unique(pos, move, legal, _western)


def move_to_japanese(pos: Position, move: Move, legal: list[Move] | None = None, previous: Move | None = None) -> str:
    """The Japanese notation of a legal ``move`` of ``pos``; ``previous``: the move played just before it
    (its destination is written ``同``), None at the start of a record."""
    return _unique(pos, move, legal, lambda p, m, moves: _japanese(p, m, moves, previous))


def _unique(pos: Position, move: Move, legal: list[Move] | None,
            write: Callable[[Position, Move, list[Move]], str]) -> str:
    """``write``'s text of ``move``, or its SAN when the notation has no form for it or writes another
    legal move alike. ValueError if ``move`` is not legal."""
    legal = pos.legal_moves() if legal is None else legal
    san = move_to_san(pos, move, legal)
    moves = written(legal).moves
    move = inner(move)
    if not _writable(move):
        return san
    text = write(pos, move, moves)
    # Both notations name the destination (同 is the previous move's): only moves there can be written alike.
    if any(m != move and m[1] == move[1] and _writable(m) and write(pos, m, moves) == text for m in moves):
        return san
    return text


def _writable(move: Move) -> bool:
    """Has the notation a form for ``move``: a move of a piece on the board or a drop?"""
    return (plain(move) and move[3] is None and move[0] >= 0 and move[1] >= 0) or is_drop(move)


def _first(pos: Position) -> int:
    """The army the squares are named from: the first to move."""
    return pos.game.turn_order[0]


def _rivals(pos: Position, move: Move, legal: list[Move], same: Callable[[int], bool]) -> list[int]:
    """The origins of the legal moves of pieces on the board to ``move``'s destination whose piece ``same``
    accepts (its code), ``move``'s own origin included when it is such a move."""
    board = pos.board
    return sorted({m[0] for m in legal if plain(m) and m[3] is None and m[1] == move[1] and m[0] >= 0
                   and same(board[m[0]])})


def _promotes(move: Move) -> bool:
    return bool(move[2]) and not is_drop(move)


def _declines(move: Move, legal: list[Move]) -> bool:
    """Does ``move`` not promote where another legal move of the same piece to the same square does?"""
    return not move[2] and any(m[0] == move[0] and m[1] == move[1] and _promotes(m) for m in legal)


# ------------------------------------------------------------------ Western


def _square(pos: Position, cell: int) -> str:
    army = _first(pos)
    return f"{file_from_right(pos.game, army, cell)}{chr(ord('a') + rank_from_far(pos.game, army, cell) - 1)}"


def _western(pos: Position, move: Move, legal: list[Move]) -> str:
    game, board = pos.game, pos.board
    frm, to, promo, _ = move
    if is_drop(move):
        return f"{traditional_letter(game, promo)}*{_square(pos, to)}"
    letter = traditional_letter(game, board[frm])
    rivals = _rivals(pos, move, legal, lambda code: traditional_letter(game, code) == letter)
    origin = _square(pos, frm) if len(rivals) > 1 else ""
    suffix = "+" if _promotes(move) else "=" if _declines(move, legal) else ""
    return f"{letter}{origin}{'x' if captures(pos, move) else '-'}{_square(pos, to)}{suffix}"


# ------------------------------------------------------------------ Japanese


def _name(pos: Position, code: int) -> str:
    """The piece's name in the Japanese notation (see the module docstring)."""
    game = pos.game
    spec = game.kinds[game.code_kind[code]].spec
    return (spec.notation_glyph or spec.army_glyphs.get(game.armies[game.code_army[code]].name) or spec.glyph
            or game.kinds[game.code_kind[code]].letter)


def _japanese(pos: Position, move: Move, legal: list[Move], previous: Move | None) -> str:
    game, board = pos.game, pos.board
    frm, to, promo, _ = move
    army = pos.army
    mark = SIDE_MARKS[0] if army == _first(pos) else SIDE_MARKS[1]
    if previous is not None and previous[1] == to:
        where = "同"
    else:
        first = _first(pos)
        where = FULL_WIDTH_DIGITS[file_from_right(game, first, to)] + NUMERALS[rank_from_far(game, first, to)]
    if is_drop(move):
        on_board = _rivals(pos, move, legal, lambda code: code == promo)
        return mark + where + _name(pos, promo) + ("打" if on_board else "")
    rivals = _rivals(pos, move, legal, lambda code: code == board[frm])
    suffix = "成" if _promotes(move) else "不成" if _declines(move, legal) else ""
    return mark + where + _name(pos, board[frm]) + _relative(pos, move, rivals) + suffix


def _movement(pos: Position, frm: int, to: int) -> str:
    ranks = advance(pos.game, pos.army, frm, to)
    return "上" if ranks > 0 else "引" if ranks < 0 else "寄"


def _relative(pos: Position, move: Move, rivals: list[int]) -> str:
    """What tells the mover apart from the other pieces of its kind that could go to the same square
    (the ``rivals``' origins, its own included); empty when there are none (see the module docstring)."""
    if len(rivals) < 2:
        return ""
    game = pos.game
    frm, to = move[0], move[1]
    movement = _movement(pos, frm, to)
    group = [c for c in rivals if _movement(pos, c, to) == movement]
    if len(group) == 1:
        return movement
    if advance(game, pos.army, frm, to) == 1 and file_from_right(game, pos.army, frm) == file_from_right(game, pos.army, to):
        return "直"
    side = _side(pos, frm, rivals)
    if side:
        return side
    side = _side(pos, frm, group)
    if side:
        return side + movement
    first = _first(pos)
    return f"({file_from_right(game, first, frm)}{rank_from_far(game, first, frm)})"


def _side(pos: Position, frm: int, cells: list[int]) -> str:
    """``右`` when ``frm`` is the rightmost of ``cells`` as the mover sees the board (on a file of its own),
    ``左`` when it is the leftmost, else empty."""
    files = {c: file_from_right(pos.game, pos.army, c) for c in cells}   # from the mover's right: 1 is the rightmost
    if all(files[frm] < files[c] for c in cells if c != frm):
        return "右"
    if all(files[frm] > files[c] for c in cells if c != frm):
        return "左"
    return ""
