"""The terms of move notation that writing and reading share: per-game tables and kinds of moves.

Nothing here knows about chess: piece letters come from the game's piece
kinds, castling strings from ``game.castle_rules[i].notation`` (and
``game.castle_locks[i].notation`` for castlock) and cell, file and rank
names from ``game.board.names`` and ``game.board.parts`` (a generated cell's
name is a file name of letters followed by a rank number; an explicit cell
is known by its whole name only). Nothing knows a particular
stacking game either: stacking moves are told apart by their specials and
outcomes (:mod:`interpreter.engine.stacking`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, NamedTuple, TypeVar

from interpreter.compiler.atoms import frame
from interpreter.compiler.game import Game
from interpreter.compiler.stacking import CAPTURES
from interpreter.engine.attacks import royal_cells
from interpreter.engine.legality import is_capture
from interpreter.engine.moves import Move
from interpreter.engine.neutral import base_move
from interpreter.engine.position import Position

T = TypeVar("T")

STACKING_MOVES = frozenset({"st", "sep", "castlock"})

ONTO = frozenset({"climb", "land"})


@dataclass(frozen=True)
class NotationTables:
    """Notation facts of one game, computed once."""

    file_names: tuple[str, ...]        # the files' names, in file order
    rank_names: tuple[str, ...]        # the ranks' names, from the lowest
    cell_file: tuple[str | None, ...]  # by cell: its file name (None: an explicit cell, known by its name only)
    cell_rank: tuple[str | None, ...]  # by cell: its rank name
    letter_kind: dict[str, int]        # upper-case piece letter -> kind index
    long_files: bool                   # some file name has several letters (more than 26 files)
    letterless: tuple[bool, ...]       # by code: SAN writes no letter for the piece (see the module docstring)

@lru_cache(maxsize=64)
def notation_tables(game: Game) -> NotationTables:
    board = game.board
    parts = board.parts
    cells = sorted((c for c in range(len(board)) if parts[c] is not None), key=lambda c: board.coords[c])
    file_names = tuple(dict.fromkeys(parts[c][0] for c in sorted(cells, key=lambda c: board.coords[c][0])))
    rank_names = tuple(dict.fromkeys(parts[c][1] for c in sorted(cells, key=lambda c: board.coords[c][1])))
    return NotationTables(file_names, rank_names, tuple(p[0] if p else None for p in parts),
                          tuple(p[1] if p else None for p in parts), {k.letter: k.index for k in game.kinds},
                          any(len(f) > 1 for f in file_names), tuple(letterless(game, c) for c in range(game.ncodes)))

def letterless(game: Game, code: int) -> bool:
    """Does SAN omit the letter of the piece ``code``? It does for a piece that can promote (a pawn),
    unless every kind it promotes to is written with a '+' letter (shogi's promoted forms)."""
    if not code or (game.promotions[code] is None and game.in_place_promotions[code] is None):
        return False
    targets = {t for table in (game.promotions[code] or (), game.promotions_leaving[code] or ())
               for codes in table for t in codes if t}
    targets.update(t for line in game.in_place_promotions[code] or () for t in line.targets)
    return not targets or not all(plus_letter(game, t) for t in targets)

def plus_letter(game: Game, code: int) -> bool:
    """Is the piece ``code`` written with a '+' letter (``+R``)?"""
    return game.kinds[game.code_kind[code]].letter.startswith("+")

def san_letter(game: Game, code: int) -> str:
    """The letter SAN writes for a piece: none for a pawn-like piece (see :func:`letterless`)."""
    return "" if notation_tables(game).letterless[code] else game.kinds[game.code_kind[code]].letter

def is_castle(move: Move) -> bool:
    """A castling move: ordinary (``("castle", rook_from, rook_to, rule)``) or castlock
    (``("castlock", rook_from, rule)``, the rook climbing onto the king in a stacking game)."""
    return move[3] is not None and move[3][0] in ("castle", "castlock")

def castle_rule_of(game: Game, move: Move):
    """The castling rule of a castling move (:func:`is_castle`)."""
    special = move[3]
    return game.castle_locks[special[2]] if special[0] == "castlock" else game.castle_rules[special[3]]

def castle_army(pos: Position, move: Move, legal: list[Move]) -> str:
    """The army symbol written before a castling when another army may castle the same way this turn
    (a turn shared by a team: ``wO-O``, ``tO-O``), else empty."""
    game, board = pos.game, pos.board
    army = game.code_army[board[move[0]]]
    rule = castle_rule_of(game, move)
    if any(is_castle(m) and castle_rule_of(game, m) is rule and game.code_army[board[m[0]]] != army for m in legal):
        return game.armies[army].symbol
    return ""

def castle_notations(game: Game) -> list[str]:
    return [r.notation for r in game.castle_rules] + [r.notation for r in game.castle_locks]

def stars(move: Move) -> bool:
    """Does the mover end on top of another piece without capturing it (a stacking game's climb,
    landing, sep or castlock)? Such a move is written with a ``*``."""
    special = move[3]
    if special is None:
        return False
    tag = special[0]
    return tag in ("sep", "castlock") or (tag == "st" and special[1] in ONTO)

def is_sep(move: Move) -> bool:
    return move[3] is not None and move[3][0] == "sep"

def captures(pos: Position, move: Move) -> bool:
    """Does ``move`` capture? A stacking move captures when its outcome removes a piece."""
    special = move[3]
    if special is not None and special[0] in STACKING_MOVES:
        return special[0] == "st" and special[1] in CAPTURES
    return is_capture(pos, move)

def changes_file(game: Game, move: Move) -> bool:
    return game.board.coords[move[0]][0] != game.board.coords[move[1]][0]

def pass_cell(pos: Position) -> str | None:
    """The cell a pass is written with in from-to notation, twice (``e2e2``, Fairy-Stockfish's
    form): the royal cell of the side to move, when the rules let it pass at will (``may pass``) and
    it has exactly one royal piece; else None (a pass is written ``pass``)."""
    if not pos.game.may_pass:
        return None
    cells = royal_cells(pos, pos.army)
    return pos.game.board.names[cells[0]] if len(cells) == 1 else None

def is_drop(move: Move) -> bool:
    return move[3] is not None and move[3][0] == "drop"

def plain(move: Move) -> bool:
    """A move of one piece on the board, written with its letter (not a castling, not a drop)."""
    return not (is_castle(move) or is_drop(move))

FORCED = ("pass", "remove", "out")  # the tags of forced moves, written as the words themselves

def inner(move: Move) -> Move:
    """The move a rescue wraps (see :meth:`Position.rescue_moves`): it is written as that move."""
    special = move[3]
    return (move[0], move[1], move[2], special[1]) if special is not None and special[0] == "rescue" else move

def army_title(pos: Position, army: int | None = None) -> str:
    return pos.game.armies[pos.army if army is None else army].title

def after(pos: Position, move: Move, question):
    """``question()`` asked with ``move`` played."""
    pos.push(move)
    try:
        return question()
    finally:
        pos.pop()

class Written(NamedTuple):
    """A list of legal moves as notation writes and reads them (see :func:`written`)."""

    moves: list[Move]          # the moves as written (a rescue as the move it wraps: :func:`inner`), in order
    legal: dict[Move, Move]    # a written move -> the legal move it stands for

_RECENT: tuple = ()  # ((a list, its length, {question: answer}), ...): the lists asked about last, the latest first

_RECENT_LISTS = 8  # more than the lists one move's notation asks about: the legal moves, as written, their bases ...

def _about(moves: list[Move], question: Callable[[list[Move]], T]) -> T:
    """``question(moves)``, computed once per list and question while the list is among the last few
    asked about, so that the notation of every legal move of a position costs one pass over its
    legal moves, not one per move (Duck chess has about 900 legal moves, made with some 30 moves of
    a piece). ``question`` is a module-level function (it is the key). A list is found again by
    identity and length, so it must not be changed after it was given to a notation function
    (:meth:`Position.legal_moves` returns a new list each call)."""
    global _RECENT
    for entry in _RECENT:
        if entry[0] is moves and entry[1] == len(moves):
            answers = entry[2]
            break
    else:
        answers = {}
        _RECENT = ((moves, len(moves), answers),) + _RECENT[:_RECENT_LISTS - 1]
    if question not in answers:
        answers[question] = question(moves)
    return answers[question]

def written(legal: list[Move]) -> Written:
    """The written forms of the legal moves ``legal``, computed once per list (:func:`_about`)."""
    return _about(legal, _written)

def _written(legal: list[Move]) -> Written:
    by_written = {inner(m): m for m in legal}
    return Written(list(by_written), by_written)

def bases(moves: list[Move]) -> list[Move]:
    """The moves that the moves of ``moves`` with a neutral piece's second part are made with, once
    each, in order (what the first part's notation is told apart from); computed once per list."""
    return _about(moves, _bases)

def _bases(moves: list[Move]) -> list[Move]:
    return list(dict.fromkeys(base_move(m) for m in moves))

def file_from_right(game: Game, army: int, cell: int) -> int:
    """The file of ``cell`` numbered from 1 at ``army``'s own right (the files of the traditional notations,
    :mod:`.wxf` and :mod:`.shogi_notation`; the compiler has checked that the armies face along the files)."""
    x = game.board.coords[cell][0]
    return game.board.files - x if frame(game.armies[army].forward, game.board)[1][0] > 0 else x + 1

def rank_from_far(game: Game, army: int, cell: int) -> int:
    """The rank of ``cell`` numbered from 1 at the far side of ``army`` (its top, as it looks at the board)."""
    y = game.board.coords[cell][1]
    return game.board.ranks - y if frame(game.armies[army].forward, game.board)[0][1] > 0 else y + 1

def advance(game: Game, army: int, frm: int, to: int) -> int:
    """How many ranks ``army`` moves forward going from ``frm`` to ``to`` (negative: backward)."""
    return rank_from_far(game, army, frm) - rank_from_far(game, army, to)

def traditional_letter(game: Game, code: int) -> str:
    """The letter a traditional notation writes for a piece: its ``notation letter``, else its letter."""
    kind = game.kinds[game.code_kind[code]]
    return kind.spec.notation_letter or kind.letter
