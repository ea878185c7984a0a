"""Move notation: SAN and from-to (UCI-style) strings, for any variant on a grid board.

Nothing here knows about chess: piece letters come from the game's piece
kinds, castling strings from ``game.castle_rules[i].notation`` (and
``game.castle_locks[i].notation`` for castlock) and cell, file and rank
names from ``game.board.names`` (a file name of letters followed by a rank
number, as the board compiler makes them). Nothing knows a particular
stacking game either: stacking moves are told apart by their specials and
outcomes (:mod:`interpreter.engine.stacking`).

Writing (:func:`move_to_san`, :func:`move_to_uci`)
--------------------------------------------------

SAN is written as in the PGN standard, generalised:

- the piece letter (which may be two characters, ``+`` and a letter:
  ``+Rxc3``), *omitted for a piece kind that can promote* (the pawns of a
  variant: ``game.promotions[code] is not None``) *unless each kind it
  promotes to is written with a* ``+`` *letter* (a promoted form of the
  same piece, as in shogi, where every piece but the king and gold may
  promote and all are written with their letters);
- disambiguation when other legal moves of pieces written the same way
  go to the same cell: the origin file if none of those pieces stands on
  the origin's file, else the origin rank if none stands on its rank,
  else the whole origin cell (the PGN rule, as python-chess applies it).
  A capture by a letterless piece always starts with its origin file
  (``exd5``), and gets the rank as well if needed;
- ``x`` for a capture (en passant included), then the destination cell;
- ``=`` and the letter of the piece promoted to (``e8=Q``, ``Bxc3=+B``:
  after ``=`` a ``+`` belongs to the letter, so it is never read as a
  check); nothing when the promotion is optional and the move does not
  promote (``Bxc3``); a promotion to a piece of another army (a
  partner's, in Superchess) writes that army's symbol before the letter
  (``k14=tQ``), and without it ``=Q`` reads as the mover's own;
- a castling move is written as its rule's notation (``O-O``), after the
  army's symbol when another army of a shared turn may castle the same way
  (``wO-O``, ``tO-O``);
- ``+`` when, after the move, the mover threatens a royal piece of an
  enemy army (:meth:`Position.threatens`: with explosions, kings side by
  side do not check each other); ``#`` instead when moreover the army to move next is in
  check and has no legal move (checkmate), or when the move ends the game
  at once with a winner by an immediate end rule (the king reaching the
  hill, the third check, a king blown up: python-chess writes ``#`` for
  these variant wins too);
- a drop is the piece letter (none for a letterless piece, unless two
  letterless kinds could drop there), ``@`` and the cell: ``N@f3``,
  ``@e4``, as python-chess writes crazyhouse drops.

Forced moves (``when no moves``): ``pass`` for a pass, ``remove`` for taking
mated royal pieces off; both read back in either form (and ``--``, PGN's null move, for a pass).

Stacking games (moves with the specials ``st``, ``sep``, ``castlock``):

- ``x`` only when the outcome removes a piece (``capture``,
  ``capture-top``, ``capture-bottom``, ``capture-both``): ``Nxf3``;
- ``*`` after the destination (and promotion) when the mover ends on top
  of a piece without capturing it, i.e. the outcome ``climb`` or ``land``:
  ``Rb1*``, ``Bd5*``, ``g8=Q*``; ``descend`` and ``move`` are plain moves
  (``Bf6``); check and mate marks follow: ``Bd5*+``;
- a letterless piece (a pawn) writes its origin file whenever it changes
  file, capturing or not: ``ed5`` (an overlaid pawn stepping down
  diagonally), ``ed5*`` (landing there), ``ab3*`` (a pawn climbing by its
  capture), ``exd5``;
- disambiguation only looks at the other moves to the same cell that are
  written with ``*`` as well, or as well without it: an overlaid knight's
  landing ``Nf3*`` needs no origin even if another knight can take on f3;
- castlock is its rule's notation (``game.castle_locks[i].notation``,
  ``O-O*`` in Locking Chess);
- sep (the pawn that just passed is put back under the overlaid pawn that
  takes it) is written as the landing move it is, a pawn move that
  changes file, with ``*``, then a space and the annotation ``sep``:
  ``ba3* sep`` (``ba3*+ sep`` when it checks). The same pawn's plain step
  down to that cell is ``ba3``.

The from-to form is the origin and destination cell names, then the
lower-case letter of the piece promoted to (``e2e4``, ``e7e8q``; another
army's piece after that army's symbol, ``j14k14tq``), or for
a promotion to a kind written with a ``+`` letter a bare ``+``
(``h8c3+``, the Fairy-Stockfish and USI form; in the unlikely case of
two such kinds for one origin and destination, ``+`` and the lower-case
letter, ``h8c3+b``); nothing for a move that may promote but does not. A
castling move is written as the king's origin and destination (``e1g1``),
except when another legal move has the same origin and destination (a
castling king that moves one cell, or not at all, as in Chess960): then
as the king's origin and its rook's origin (``f1h1``), which is unique.
A drop is the upper-case piece letter, ``@`` and the cell (``P@e4``).
In stacking games a move written with ``*`` in SAN is written with ``*``
at the end of the from-to form too (``g1f3*`` lands on f3, ``g1f3``
takes there; ``b4a3*`` is a sep; ``e7e8q*``), and castlock is the king's
origin and destination and ``*`` (``e1g1*``; ``e1g1`` is ordinary
castling): so two moves with the same cells and different outcomes have
different from-to forms.

Reading (:func:`parse_move`, :func:`moves_from_text`)
-----------------------------------------------------

One grammar reads SAN and from-to alike::

    [Letter] [from-file] [from-rank] [x|:|-] to-cell [[=]letter] [+#!?...]

(a Letter or letter may be ``+`` and a letter: ``+Rxc3``, ``Bxc3=+B``),
then in stacking games an optional ``*`` (elsewhere ``*`` is refused as an
unexpected character); or a castling notation (``0``
may stand for ``O``; castlock's too: ``0-0*``), or a drop
``[Letter]@cell``. Without a piece letter and without a whole origin
cell the move is one of a letterless piece (``e4``, ``exd5``, ``@e4``);
with a whole origin cell (``g1f3``, ``e7e8q``) any piece of the side to
move. The promotion letter may be in either case;
``x`` is optional and not checked. A castling move is also read from the
king's origin and destination (when no other legal move has them) or
from the king's origin and its rook's cell. When the promotion piece is
left out, the move that does not promote is meant when the promotion is
optional (``Bxc3``, ``h8c3``); else, when the move can promote to several
pieces, it is refused with the choices (a single choice is taken). The
trailing ``+ # ! ?`` are annotations, and ignored, with one exception: in
the from-to form (whole origin cell, no piece letter) a ``+`` right after
the destination is a promotion when the move from that origin to that
destination can promote to a kind written with a ``+`` letter
(``h8c3+``; ``h8c3++`` promotes and checks); otherwise it is a check
annotation. In SAN (``Bxc3+``) a trailing ``+`` is always a check.

In stacking games: a text with ``*`` names only a move written with it (a
climb, landing, sep or castlock), and is refused with the reason
otherwise; a text without ``*`` names a move written without it, or, if
none fits, one written with it (``Rb1`` for the climb ``Rb1*``, as ``x``
may be left out). The annotation ``sep`` (after a space, before or after
``+ # ! ?``) names only a sep: ``b4-a3 sep``, as the rules write it. In
a move list (:func:`moves_from_text`) the word ``sep`` after a move
belongs to it.

Cost: each public function computes the legal moves of the position,
unless given them as ``legal=`` (the list :meth:`Position.legal_moves`
returned for this very position); callers that have them should pass
them. :func:`legal_move_table` computes them once for all its rows.

Errors are :class:`~dsl.errors.MoveError` (the text cannot be read: a bad
character, an unknown piece letter, a cell not on the board) and
:class:`~dsl.errors.IllegalMoveError` (it reads, but names no legal move,
or several), with a :class:`~dsl.errors.Loc` pointing into the text and,
for illegal moves, the reason when one can be given.

On boards of more than 26 files, file names past ``z`` have two letters
and ``Raab7`` could be read two ways. The writer therefore never puts an
origin file alone right before the destination there (it writes the
whole origin cell instead), and the reader tries the readings from the
longest destination file on, taking the first that names a legal move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from dsl.errors import IllegalMoveError, Loc, MoveError, UnsupportedError, suggest

from interpreter.compiler.game import Game
from interpreter.engine.outcome import immediate_end, outcome
from interpreter.engine.moves import Move
from interpreter.engine.position import Position
from interpreter.compiler.stacking import CAPTURES
from interpreter.engine.attacks import royal_cells, threatens
from interpreter.engine.generation import pseudo_legal_moves
from interpreter.engine.legality import is_capture

# The specials of stacking moves (see interpreter.engine.stacking), and the outcomes of those that put the
# mover on top of the piece it reaches (written with '*').
STACKING_MOVES = frozenset({"st", "sep", "castlock"})
ONTO = frozenset({"climb", "land"})

LABEL = "<move>"
LIST_LABEL = "<moves>"

_ANNOTATION = re.compile(r"[+#!?]+$")
_SEP = re.compile(r"\s+sep$", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"\d+\.+")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
_ALLOWED = re.compile(r"[A-Za-z0-9=x:+#!?@-]")


# ---------------------------------------------------------------- per-game tables


@dataclass(frozen=True)
class _Tables:
    """Notation facts of one game, computed once."""

    file_names: tuple[str, ...]        # by x coordinate
    rank_names: tuple[str, ...]        # by y coordinate
    letter_kind: dict[str, int]        # upper-case piece letter -> kind index
    long_files: bool                   # some file name has several letters (more than 26 files)
    letterless: tuple[bool, ...]       # by code: SAN writes no letter for the piece (see the module docstring)


@lru_cache(maxsize=64)
def _tables(game: Game) -> _Tables:
    board = game.board
    files: dict[int, str] = {}
    ranks: dict[int, str] = {}
    for name, (x, y) in zip(board.names, board.coords):
        m = re.fullmatch(r"([a-z]+)(\d+)", name)
        if m is None:
            raise UnsupportedError(f"move notation needs cell names made of a file and a rank, not {name!r}")
        files[x], ranks[y] = m.group(1), m.group(2)
    file_names = tuple(files.get(x, "") for x in range(board.files))
    rank_names = tuple(ranks.get(y, "") for y in range(board.ranks))
    return _Tables(file_names, rank_names, {k.letter: k.index for k in game.kinds},
                   any(len(f) > 1 for f in file_names), tuple(_letterless(game, c) for c in range(game.ncodes)))


def _letterless(game: Game, code: int) -> bool:
    """Does SAN omit the letter of the piece ``code``? It does for a piece that can promote (a pawn),
    unless every kind it promotes to is written with a '+' letter (shogi's promoted forms)."""
    if not code or game.promotions[code] is None:
        return False
    targets = {t for table in (game.promotions[code], game.promotions_leaving[code] or ())
               for codes in table for t in codes if t}
    return not targets or not all(_plus(game, t) for t in targets)


def _plus(game: Game, code: int) -> bool:
    """Is the piece ``code`` written with a '+' letter (``+R``)?"""
    return game.kinds[game.code_kind[code]].letter.startswith("+")


def _letter(game: Game, code: int) -> str:
    """The letter SAN writes for a piece: none for a pawn-like piece (see :func:`_letterless`)."""
    return "" if _tables(game).letterless[code] else game.kinds[game.code_kind[code]].letter


def _is_castle(move: Move) -> bool:
    """A castling move: ordinary (``("castle", rook_from, rook_to, rule)``) or castlock
    (``("castlock", rook_from, rule)``, the rook climbing onto the king in a stacking game)."""
    return move[3] is not None and move[3][0] in ("castle", "castlock")


def _castle_rule_of(game: Game, move: Move):
    """The castling rule of a castling move (:func:`_is_castle`)."""
    special = move[3]
    return game.castle_locks[special[2]] if special[0] == "castlock" else game.castle_rules[special[3]]


def _castle_army(pos: Position, move: Move, legal: list[Move]) -> str:
    """The army symbol written before a castling when another army may castle the same way this turn
    (a turn shared by a team: ``wO-O``, ``tO-O``), else empty."""
    game, board = pos.game, pos.board
    army = game.code_army[board[move[0]]]
    rule = _castle_rule_of(game, move)
    if any(_is_castle(m) and _castle_rule_of(game, m) is rule and game.code_army[board[m[0]]] != army for m in legal):
        return game.armies[army].symbol
    return ""


def _castle_notations(game: Game) -> list[str]:
    return [r.notation for r in game.castle_rules] + [r.notation for r in game.castle_locks]


def _stars(move: Move) -> bool:
    """Does the mover end on top of another piece without capturing it (a stacking game's climb,
    landing, sep or castlock)? Such a move is written with a ``*``."""
    special = move[3]
    if special is None:
        return False
    tag = special[0]
    return tag in ("sep", "castlock") or (tag == "st" and special[1] in ONTO)


def _is_sep(move: Move) -> bool:
    return move[3] is not None and move[3][0] == "sep"


def _captures(pos: Position, move: Move) -> bool:
    """Does ``move`` capture? A stacking move captures when its outcome removes a piece."""
    special = move[3]
    if special is not None and special[0] in STACKING_MOVES:
        return special[0] == "st" and special[1] in CAPTURES
    return is_capture(pos, move)


def _changes_file(game: Game, move: Move) -> bool:
    return game.board.coords[move[0]][0] != game.board.coords[move[1]][0]


def _is_drop(move: Move) -> bool:
    return move[3] is not None and move[3][0] == "drop"


def _plain(move: Move) -> bool:
    """A move of one piece on the board, written with its letter (not a castling, not a drop)."""
    return not (_is_castle(move) or _is_drop(move))


# ---------------------------------------------------------------- writing


def move_to_san(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The SAN of a legal ``move`` of ``pos`` (see the module docstring).

    ``legal``: the legal moves of ``pos`` if the caller has them (else they
    are computed). Raises ValueError if ``move`` is not a legal move of
    ``pos``: move tuples come from the program, so that is a bug, not a
    user error.
    """
    legal = pos.legal_moves() if legal is None else legal
    _require_legal(move, legal)
    return _san(pos, _inner(move), [_inner(m) for m in legal])


def move_to_uci(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The from-to form of a legal ``move`` of ``pos``: ``e2e4``, ``e7e8q``, ``h8c3+``, ``e1g1`` (castling).

    ``legal``: the legal moves of ``pos`` if the caller has them. Raises
    ValueError if ``move`` is not a legal move of ``pos``.
    """
    legal = pos.legal_moves() if legal is None else legal
    _require_legal(move, legal)
    return _uci(pos, _inner(move), [_inner(m) for m in legal])


def legal_move_table(pos: Position) -> list[dict]:
    """One dict per legal move of ``pos``, sorted by origin, destination and promotion cell/code.

    Keys: ``san``, ``uci``, ``from`` and ``to`` (cell names, None for a pass; for castling,
    the king's origin and destination; ``from`` is None for a drop). The
    order does not depend on the order :meth:`Position.legal_moves` happens
    to generate moves in.
    """
    legal = [_inner(m) for m in pos.legal_moves()]
    names = pos.game.board.names
    return [{"san": _san(pos, m, legal), "uci": _uci(pos, m, legal), "from": names[m[0]] if m[0] >= 0 else None,
             "to": names[m[1]] if m[1] >= 0 else None} for m in sorted(legal, key=lambda m: m[:3])]


FORCED = ("pass", "remove")  # the tags of forced moves, written as the words themselves


def _inner(move: Move) -> Move:
    """The move a rescue wraps (see :meth:`Position.rescue_moves`): it is written as that move."""
    special = move[3]
    return (move[0], move[1], move[2], special[1]) if special is not None and special[0] == "rescue" else move


def _require_legal(move: Move, legal: list[Move]) -> None:
    if move not in legal:
        raise ValueError(f"{move!r} is not a legal move in this position")


def _san(pos: Position, move: Move, legal: list[Move]) -> str:
    """SAN of ``move``, one of the ``legal`` moves of ``pos``."""
    game = pos.game
    frm, to, promo, special = move
    if special is not None and special[0] in FORCED:
        return special[0]
    if _is_castle(move):
        return _castle_army(pos, move, legal) + _castle_rule_of(game, move).notation + _check_suffix(pos, move)
    if _is_drop(move):
        return _drop_letter(pos, move, legal) + "@" + game.board.names[to] + _check_suffix(pos, move)
    capture = _captures(pos, move)
    parts = [_letter(game, pos.board[frm]), _disambiguation(pos, move, legal, capture),
             "x" if capture else "", game.board.names[to]]
    if promo:
        parts.append("=" + _promotion_owner(game, move, pos.board[frm]) + game.kinds[game.code_kind[promo]].letter)
    if _stars(move):
        parts.append("*")
    return "".join(parts) + _check_suffix(pos, move) + (" sep" if _is_sep(move) else "")


def _promotion_owner(game: Game, move: Move, piece: int) -> str:
    """The army symbol written before a promotion letter when the piece goes to another army (a
    partner's), else empty."""
    promo = move[2]
    return game.armies[game.code_army[promo]].symbol if game.code_army[promo] != game.code_army[piece] else ""


def _disambiguation(pos: Position, move: Move, legal: list[Move], capture: bool) -> str:
    """The origin file, rank or cell that tells ``move`` apart from the moves written like it."""
    game, board = pos.game, pos.board
    frm, to = move[0], move[1]
    letter = _letter(game, board[frm])
    coords = game.board.coords
    x, y = coords[frm]
    star = _stars(move)
    others = {m[0] for m in legal if m[1] == to and m[0] != frm and _plain(m) and _stars(m) == star
              and _letter(game, board[m[0]]) == letter}
    need_rank = any(coords[c][0] == x for c in others)
    # A letterless piece names its file when it captures, and in a stacking game also when it changes
    # file without capturing (an overlaid pawn's diagonal step, a pawn climbing by its capture: 'ed5*').
    sideways = capture or (move[3] is not None and move[3][0] in STACKING_MOVES and _changes_file(game, move))
    need_file = bool(others) and not need_rank or any(coords[c][1] == y for c in others) or (sideways and not letter)
    tables = _tables(game)
    if need_file and not capture and tables.long_files:
        need_rank = True  # "aab7" could be a + ab7 or aa + b7: write the whole cell
    return (tables.file_names[x] if need_file else "") + (tables.rank_names[y] if need_rank else "")


def _drop_letter(pos: Position, move: Move, legal: list[Move]) -> str:
    """The letter of a dropped piece: none for a letterless piece, unless another letterless one may drop there."""
    game = pos.game
    letter = _letter(game, move[2])
    if not letter and any(_is_drop(m) and m[1] == move[1] and m[2] != move[2] and not _letter(game, m[2])
                          for m in legal):
        letter = game.kinds[game.code_kind[move[2]]].letter
    return letter


def _check_suffix(pos: Position, move: Move) -> str:
    """``#`` for a mate or a decisive immediate end, ``+`` for a check, else empty (see the module docstring)."""
    mover = pos.army

    def suffix() -> str:
        if pos.game.has_immediate_ends and immediate_end(pos) and outcome(pos).winners:
            return "#"
        checked = _checked_enemies(pos, mover)
        if not checked:
            return ""
        return "#" if pos.army in checked and not pos.legal_moves() else "+"
    return _after(pos, move, suffix)


def _checked_enemies(pos: Position, army: int) -> list[int]:
    """The enemy armies of ``army`` with a royal piece ``army`` threatens (as :meth:`Position.threatens` says)."""
    return [e for e in pos.game.enemies[army] if any(threatens(pos, k, army) for k in royal_cells(pos, e))]


def _uci(pos: Position, move: Move, legal: list[Move]) -> str:
    """The from-to form of ``move``, one of the ``legal`` moves of ``pos``."""
    game = pos.game
    names = game.board.names
    frm, to, promo, special = move
    if special is not None and special[0] in FORCED:
        return special[0]
    if _is_drop(move):
        return game.kinds[game.code_kind[promo]].letter + "@" + names[to]  # as UCI writes drops
    star = "*" if _stars(move) else ""
    if _is_castle(move) and any(m != move and m[0] == frm and m[1] == to and _stars(m) == bool(star) for m in legal):
        to = special[1]  # the king's origin and its rook's: no other move has them
    text = names[frm] + names[to]
    if not promo:
        return text + star
    letter = _promotion_owner(game, move, pos.board[frm]) + game.kinds[game.code_kind[promo]].letter
    if letter.startswith("+") and not any(m[0] == frm and m[1] == to and m[2] and m[2] != promo and _plus(game, m[2])
                                          and _plain(m) for m in legal):
        return text + "+" + star  # the one '+' promotion of this origin and destination
    return text + letter.lower() + star


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class _Parsed:
    """What a move text says. Cells are indices, files/ranks coordinates; None: not given."""

    kind: int | None
    from_file: int | None
    from_rank: int | None
    from_cell: int | None
    dest: int
    promo: int | None          # the kind index of the promotion letter
    spans: dict                # part name -> (start, end) in the text
    drop: bool = False         # a drop: ``kind`` (None: a letterless kind) from the hand onto ``dest``
    promo_army: int | None = None  # the army the promotion gives the piece to, when written (``=tQ``)


def parse_move(pos: Position, text: str, legal: list[Move] | None = None) -> Move:
    """The legal move of ``pos`` that ``text`` names, in SAN or from-to form.

    ``legal``: the legal moves of ``pos`` if the caller has them. Surrounding
    spaces and trailing ``+ # ! ?`` are ignored (but see the module
    docstring for ``+`` after a from-to move that may promote). Raises
    :class:`MoveError` when the text cannot be read and
    :class:`IllegalMoveError` when it names no legal move (with the reason)
    or several (with the candidates); their Loc points into ``text``.
    """
    return _parse_written(pos, text, 0, len(text), legal)


def _parse_written(pos: Position, text: str, start: int, end: int, legal: list[Move] | None = None) -> Move:
    """:func:`_parse` on the annotated span ``text[start:end]``, matching moves as they are written
    (a rescue as the move it wraps)."""
    legal = pos.legal_moves() if legal is None else legal
    written = {_inner(m): m for m in legal}
    return written[_parse(pos, text, *_body(text, start, end), legal=list(written))]


def _body(text: str, start: int, end: int) -> tuple[int, int, bool]:
    """The span of ``text[start:end]`` without surrounding spaces and trailing annotations (``+ # ! ?``
    and the word ``sep``, before or after them), and whether ``sep`` was among them."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    annotation = _ANNOTATION.search(text, start, end)
    end = annotation.start() if annotation else end
    sep = _SEP.search(text, start, end)
    if sep is not None:
        annotation = _ANNOTATION.search(text, start, sep.start())
        end = annotation.start() if annotation else sep.start()
    return start, end, sep is not None


def _parse(pos: Position, text: str, start: int, end: int, sep: bool = False,
           legal: list[Move] | None = None) -> Move:
    """Parse ``text[start:end]`` (annotations already cut off, ``text[end:]`` starts with them; ``sep``:
    they named an overlay en passant); Locs point into ``text``."""
    legal = pos.legal_moves() if legal is None else legal
    plus = text.startswith("+", end)
    star = False
    try:
        if start == end:
            raise MoveError("empty move", Loc.in_string(LABEL, text, start))
        word = "pass" if text[start:end] == "--" else text[start:end]
        if word in FORCED:
            return _pick_forced(pos, legal, word, text, start, end)
        rule = _castle_rule(pos.game, text[start:end])
        if rule is not None:
            return _pick_castle(pos, legal, rule, text, start, end)
        for army in pos.movers if len(pos.movers) > 1 else ():  # 'tO-O': Tan's castling in a shared turn
            symbol = pos.game.armies[army].symbol
            rule = _castle_rule(pos.game, text[start + len(symbol):end]) if text.startswith(symbol, start) else None
            if rule is not None:
                return _pick_castle(pos, legal, rule, text, start, end, army)
        if text[end - 1] == "*" and pos.game.stacking is not None:
            star, end = True, end - 1
            if start == end:
                raise MoveError("a move is missing before '*'", Loc.in_string(LABEL, text, start))
        readings = _read(pos.game, text, start, end)
    except IllegalMoveError:
        raise
    except MoveError as err:
        err.expected = err.expected or _expected(pos, legal)
        err.hint = err.hint or _reading_hint(pos.game, text[start:end])
        raise
    return _pick(pos, legal, readings, text, start, end, plus=plus, star=star, sep=sep)


# -- grammar
#
# The text is read from the right: an optional promotion letter after the
# destination's rank, the destination (a run of letters ending with a file
# name, then a rank), then the origin part: [Letter] [file] [rank] [x|:|-].
# The run of letters before the destination's rank may hold an origin file
# and an 'x' too ("exd5", "Nbd7"); every way of splitting it whose last
# part is a file name is a reading, the longest destination file first.

_PROMOTION = re.compile(r"(?<=\d)=?([a-z]*)(\+?[A-Za-z])$")  # [army symbol] letter
_DESTINATION = re.compile(r"([a-z]+)(\d+)$")
_DROP = re.compile(r"(\+?[A-Za-z])?@([a-z]+\d+)")
_ORIGIN = re.compile(r"(?P<piece>\+?[A-Z])?(?P<file>[a-z]+?)??(?P<rank>\d+)?[x:-]?")


def _castle_rule(game: Game, body: str) -> tuple[str, int] | None:
    """The move tag and rule index of the castling rule whose notation is ``body`` (``0`` read as ``O``):
    ``("castle", i)`` for ``game.castle_rules[i]``, ``("castlock", i)`` for ``game.castle_locks[i]``; or None."""
    for candidate in (body, body.replace("0", "O")):
        for tag, rules in (("castle", game.castle_rules), ("castlock", game.castle_locks)):
            for rule in rules:
                if rule.notation == candidate:
                    return tag, rule.index
    return None


def _read(game: Game, text: str, start: int, end: int) -> list[_Parsed]:
    """The readings of ``text[start:end]``, best first; MoveError at the faulty part if there is none."""
    body = text[start:end]
    for i, ch in enumerate(body):
        if not _ALLOWED.match(ch):
            raise MoveError(f"unexpected character {ch!r} in move", Loc.in_string(LABEL, text, start + i))
    if "@" in body:
        return [_read_drop(game, text, start, end)]
    promotion = _PROMOTION.search(body)
    promo = (start + promotion.start(1), start + promotion.end(2)) if promotion else (-1, -1)
    rest = promotion.start() if promotion else len(body)
    dest = _DESTINATION.search(body, 0, rest)
    if dest is None:
        raise MoveError(f"cannot read move {body!r}", Loc.in_string(LABEL, text, start, end))
    run_start, rank_start = start + dest.start(1), start + dest.start(2)
    readings, errors = [], []
    for split in range(run_start, rank_start):
        if text[split:rank_start] not in _tables(game).file_names:
            continue
        try:
            readings.append(_reading(game, text, start, split, (split, start + rest), promo))
        except MoveError as err:
            errors.append(err)
    if readings:
        return readings
    if errors:
        raise errors[0]
    raise _no_file(game, text, rank_start - 1, rank_start)


def _reading(game: Game, text: str, start: int, origin_end: int, dest: tuple[int, int],
             promo: tuple[int, int]) -> _Parsed:
    """One reading: the origin part ``text[start:origin_end]``, the destination and promotion spans."""
    m = _ORIGIN.fullmatch(text, start, origin_end)
    if m is None:
        raise MoveError(f"cannot read {text[start:origin_end]!r} before the destination {text[dest[0]:dest[1]]!r}",
                        Loc.in_string(LABEL, text, start, origin_end))
    tables = _tables(game)
    spans = {"all": (start, dest[1] if promo[0] < 0 else promo[1]), "dest": dest}
    from_file = from_rank = from_cell = None
    if m.group("file"):
        if m.group("file") not in tables.file_names:
            raise _no_file(game, text, *m.span("file"))
        from_file = tables.file_names.index(m.group("file"))
    if m.group("rank"):
        from_rank = _rank(game, text, m.span("rank"))
    if from_file is not None and from_rank is not None:
        spans["from"] = (m.start("file"), m.end("rank"))
        from_cell = _cell(game, text, spans["from"])
    promo_army = None
    if promo[0] >= 0:
        spans["promo"] = promo
        promo_army, promo = _promotion_army(game, text, promo)
    return _Parsed(_piece_letter(game, text, m.span("piece")), from_file, from_rank, from_cell,
                   _cell(game, text, dest), _piece_letter(game, text, promo), spans, promo_army=promo_army)


def _promotion_army(game: Game, text: str, span: tuple[int, int]) -> tuple[int | None, tuple[int, int]]:
    """The army named before a promotion letter (``=tQ``: a partner's queen), or None, and the letter's span."""
    letter_start = span[1] - (2 if text[span[1] - 2:span[1] - 1] == "+" else 1)
    symbol = text[span[0]:letter_start]
    if not symbol:
        return None, span
    symbols = {a.symbol: a.index for a in game.armies}
    if symbol not in symbols:
        guess = suggest(symbol, symbols)
        raise MoveError(f"unknown army {symbol!r} before the promotion letter", Loc.in_string(LABEL, text, span[0],
                                                                                            letter_start),
                        expected="one of the army symbols " + ", ".join(symbols),
                        hint=f"did you mean {guess!r}?" if guess else None)
    return symbols[symbol], (letter_start, span[1])


def _read_drop(game: Game, text: str, start: int, end: int) -> _Parsed:
    """A drop, ``[Letter]@cell``."""
    m = _DROP.fullmatch(text, start, end)
    if m is None:
        raise MoveError(f"cannot read drop {text[start:end]!r}", Loc.in_string(LABEL, text, start, end),
                        expected="a piece letter (none for a piece written without one), '@' and a cell")
    spans = {"all": (start, end), "dest": m.span(2)}
    return _Parsed(_piece_letter(game, text, m.span(1)), None, None, None, _cell(game, text, m.span(2)), None,
                   spans, drop=True)


def _piece_letter(game: Game, text: str, span: tuple[int, int]) -> int | None:
    """The kind index of the letter at ``span`` (None for an empty span); MoveError for an unknown letter."""
    if span[0] < 0:
        return None
    letter = text[span[0]:span[1]].upper()
    letters = _tables(game).letter_kind
    if letter not in letters:
        guess = suggest(letter, letters)
        raise MoveError(f"unknown piece letter {text[span[0]:span[1]]!r}", Loc.in_string(LABEL, text, *span),
                        expected="one of the piece letters " + ", ".join(letters),
                        hint=f"did you mean {guess!r}?" if guess else None)
    return letters[letter]


def _rank(game: Game, text: str, span: tuple[int, int]) -> int:
    """The y coordinate of the rank name at ``span``; MoveError if the board has no such rank."""
    ranks = _tables(game).rank_names
    name = text[span[0]:span[1]]
    if name not in ranks:
        raise MoveError(f"no rank {name} on this board", Loc.in_string(LABEL, text, *span),
                        expected=f"a rank from {ranks[0]} to {ranks[-1]}")
    return ranks.index(name)


def _cell(game: Game, text: str, span: tuple[int, int]) -> int:
    """The cell named at ``span``; MoveError if the board has no such cell."""
    names = game.board.names
    name = text[span[0]:span[1]]
    if name not in game.board.index:
        guess = suggest(name, names)
        raise MoveError(f"no cell {name!r} on this board", Loc.in_string(LABEL, text, *span),
                        expected=f"a cell from {names[0]} to {names[-1]}",
                        hint=f"did you mean {guess!r}?" if guess else None)
    return game.board.index[name]


def _no_file(game: Game, text: str, a: int, b: int) -> MoveError:
    """MoveError for the unknown file name ``text[a:b]``."""
    files = _tables(game).file_names
    return MoveError(f"no file {text[a:b]!r} on this board", Loc.in_string(LABEL, text, a, b),
                     expected=f"a file from {files[0]} to {files[-1]}")


def _readable(game: Game, body: str) -> bool:
    """Does ``body`` follow the move grammar (legal or not)?"""
    try:
        _read(game, body, 0, len(body))
    except MoveError:
        return False
    return True


def _reading_hint(game: Game, body: str) -> str | None:
    """A guess at what an unreadable ``body`` meant: a castling, or its first letter in the other case."""
    notations = _castle_notations(game)
    if body.replace("0", "O").upper() in {n.upper() for n in notations} | {"O-O", "O-O-O"}:
        if not notations:
            return "this variant has no castling"
        return "castling is written " + " or ".join(map(repr, notations))
    i = 1 if body.startswith("+") else 0  # a '+' letter: swap the letter after the '+'
    swapped = body[:i] + body[i:i + 1].swapcase() + body[i + 1:]
    if swapped != body and _readable(game, swapped):
        return f"piece letters are upper case and cell names lower case: did you mean {swapped!r}?"
    return None


def _expected(pos: Position, legal: list[Move]) -> str:
    """What a move may look like, with examples from the legal moves of ``pos``."""
    forms = ("SAN (piece letter, optional origin file or rank, optional x, cell, optional =promotion)"
             " or from-to cells")
    if not legal:
        return forms
    lettered = [m for m in legal if not _is_castle(m) and _letter(pos.game, pos.board[m[0]])]
    example = (lettered or legal)[0]
    castles = _castle_notations(pos.game)
    more = f", castling {' / '.join(castles)}" if castles else ""
    drops = [m for m in legal if _is_drop(m)]
    more += f", drops such as {_san(pos, drops[0], legal)!r}" if drops else ""
    return f"{forms}, e.g. {_san(pos, example, legal)!r} or {_uci(pos, example, legal)!r}{more}"


# -- matching


def _fits(pos: Position, parsed: _Parsed, cell: int) -> bool:
    """Could the piece on ``cell`` be the one ``parsed`` names (its kind and origin only)?"""
    game = pos.game
    code = pos.board[cell]
    if not code:
        return False
    if parsed.kind is not None:
        if game.code_kind[code] != parsed.kind:
            return False
    elif parsed.from_cell is None and _letter(game, code):
        return False
    x, y = game.board.coords[cell]
    return ((parsed.from_file is None or parsed.from_file == x) and (parsed.from_rank is None or parsed.from_rank == y)
            and (parsed.from_cell is None or parsed.from_cell == cell))


def _matches(pos: Position, parsed: _Parsed, move: Move) -> bool:
    """Does ``move`` fit ``parsed``? A castling move fits only a letterless from-to text, a drop only a drop."""
    frm, to, promo, special = move
    if parsed.drop or _is_drop(move):
        return (parsed.drop and _is_drop(move) and to == parsed.dest
                and (pos.game.code_kind[promo] == parsed.kind if parsed.kind is not None
                     else not _letter(pos.game, promo)))
    if _is_castle(move):
        return (parsed.kind is None and parsed.from_cell == frm and parsed.promo is None
                and parsed.dest in (to, special[1]))
    if to != parsed.dest or not _fits(pos, parsed, frm):
        return False
    return parsed.promo is None or (bool(promo) and pos.game.code_kind[promo] == parsed.promo and (
        parsed.promo_army is None or pos.game.code_army[promo] == parsed.promo_army))


def _marked(moves: list[Move], star: bool, sep: bool) -> list[Move]:
    """The ``moves`` that fit the marks of the text: ``sep`` only a sep, ``*`` only a move written with
    it (:func:`_stars`); no mark, the moves written without ``*``, or else those written with it."""
    if sep:
        return [m for m in moves if _is_sep(m)]
    if star:
        return [m for m in moves if _stars(m)]
    return [m for m in moves if not _stars(m)] or moves


def _pick(pos: Position, legal: list[Move], readings: list[_Parsed], text: str, start: int, end: int,
          plus: bool = False, star: bool = False, sep: bool = False) -> Move:
    """The one legal move that fits the first reading fitting any, or the IllegalMoveError that says why not.

    ``plus``: the annotations after the text start with '+', a promotion in the from-to form if one fits.
    ``star``, ``sep``: the text ends with ``*`` / carries the annotation ``sep`` (:func:`_marked`).
    """
    shown = end + star  # the text's end in messages: with its '*'
    parsed, found, unmarked = readings[0], [], []
    for reading in readings:
        unmarked = unmarked or [m for m in legal if _matches(pos, reading, m)]
        found = _marked([m for m in legal if _matches(pos, reading, m)], star, sep)
        if found:
            parsed = reading
            break
    if not found and unmarked:
        what = "an overlay en passant (sep)" if sep else "a move that climbs or lands (written with '*')"
        text_of = ", ".join(_san(pos, m, legal) for m in unmarked)
        raise IllegalMoveError(f"illegal move {text[start:shown]!r}: it is not {what}",
                               Loc.in_string(LABEL, text, start, shown), expected=f"one of {text_of}")
    if parsed.promo is None and not parsed.drop and any(_plain(m) and m[2] for m in found):
        game = pos.game
        promoting = [m for m in found if _plain(m) and m[2] and _plus(game, m[2])]
        if plus and promoting and parsed.kind is None and parsed.from_cell is not None:
            found = promoting  # from-to 'h8c3+': the '+' promotion
        else:
            staying = [m for m in found if not (_plain(m) and m[2])]
            found = staying or found  # no promotion written: the move that may stay unpromoted does
    if parsed.promo is not None and parsed.promo_army is None and len(found) > 1:
        own = [m for m in found if pos.game.code_army[m[2]] == pos.game.code_army[pos.board[m[0]]]]
        found = own or found  # '=Q' is the mover's own queen; a partner's is written '=tQ'
    if len(found) > 1 and any(not _is_castle(m) for m in found):
        found = [m for m in found if not _is_castle(m)]  # a from-to that is also a king move is the king move
    if len(found) == 1:
        return found[0]
    body = text[start:shown]
    if not found:
        message, hint, span = _why_illegal(pos, legal, parsed)
        raise IllegalMoveError(f"illegal move {body!r}: {message}", Loc.in_string(LABEL, text, *span), hint=hint)
    loc = Loc.in_string(LABEL, text, start, shown)
    if all(_plain(m) for m in found) and len({(m[0], m[1]) for m in found}) == 1:
        choices = ", ".join(_san(pos, m, legal) for m in found)
        raise IllegalMoveError(f"move {body!r} must say which piece to promote to", loc,
                               expected=f"one of {choices}")
    listed = ", ".join(f"{_san(pos, m, legal)} ({_uci(pos, m, legal)})" for m in found)
    raise IllegalMoveError(f"ambiguous move {body!r}: it could be {listed}", loc,
                           hint="add the origin file, rank or cell of the piece to move")


def _pick_forced(pos: Position, legal: list[Move], word: str, text: str, start: int, end: int) -> Move:
    """The forced move ``word`` names (``pass`` or ``remove``), if it is the legal one."""
    found = [m for m in legal if m[3] is not None and m[3][0] == word]
    if found:
        return found[0]
    why = "an army may pass only when it has no legal move" if word == "pass" else \
        "a royal piece is removed only when it is mated (or by resigning in the runner)"
    raise IllegalMoveError(f"illegal move {text[start:end]!r}: {why}", Loc.in_string(LABEL, text, start, end))


def _pick_castle(pos: Position, legal: list[Move], rule: tuple[str, int], text: str, start: int, end: int,
                 army: int | None = None) -> Move:
    """The castling move of ``rule`` (of ``army``, when the text names one)."""
    game = pos.game
    found = [m for m in legal if _is_castle(m) and (m[3][0], _castle_rule_of(game, m).index) == rule
             and (army is None or game.code_army[pos.board[m[0]]] == army)]
    if len(found) == 1:
        return found[0]
    body = text[start:end]
    loc = Loc.in_string(LABEL, text, start, end)
    if found:
        listed = ", ".join(_uci(pos, m, legal) for m in found)
        raise IllegalMoveError(f"ambiguous castling {body!r}: it could be {listed}", loc,
                               hint="write the king's origin and its rook's cell, e.g. " + _uci(pos, found[0], legal))
    raise IllegalMoveError(f"illegal move {body!r}: {_why_no_castle(pos, rule)}", loc)


# -- explanations


def _army_title(pos: Position, army: int | None = None) -> str:
    return pos.game.armies[pos.army if army is None else army].title


def _kind_name(game: Game, parsed: _Parsed) -> str:
    if parsed.kind is not None:
        return game.kinds[parsed.kind].name
    letterless = sorted({game.kinds[game.code_kind[c]].name for c in range(1, game.ncodes) if not _letter(game, c)})
    return " or ".join(letterless) or "piece without a letter"


def _where(game: Game, parsed: _Parsed) -> str:
    tables = _tables(game)
    if parsed.from_cell is not None:
        return f" on {game.board.names[parsed.from_cell]}"
    if parsed.from_file is not None:
        return f" on the {tables.file_names[parsed.from_file]}-file"
    if parsed.from_rank is not None:
        return f" on rank {tables.rank_names[parsed.from_rank]}"
    return ""


def _why_illegal(pos: Position, legal: list[Move], parsed: _Parsed) -> tuple[str, str | None, tuple[int, int]]:
    """(reason, hint, span) for a parsed move that fits no legal move."""
    game = pos.game
    spans = parsed.spans
    everything = spans["all"]
    if not legal:
        from interpreter.engine.outcome import outcome
        ended = outcome(pos, legal)
        return (f"{_army_title(pos)} has no legal move" + (f" (the game is over: {ended.describe(game)})"
                                                          if ended else ""), None, everything)
    if parsed.drop:
        return _why_no_drop(pos, legal, parsed)
    origin = _why_origin(pos, parsed)
    if origin is not None:
        return origin
    own = [c for c in pos.cells_of[pos.army] if _fits(pos, parsed, c)]
    what = f"{_kind_name(game, parsed)}{_where(game, parsed)}"
    if not own:
        hint = _other_side_hint(pos, parsed) or _letter_hint(pos, legal, parsed)
        return f"{_army_title(pos)} has no {what}", hint, spans.get("from", everything)
    pseudo = [m for m in pseudo_legal_moves(pos) if _matches(pos, parsed, m)]
    if not pseudo:
        reaching = [m for m in pseudo_legal_moves(pos) if _matches(pos, replace(parsed, promo=None), m)]
        if reaching:
            return _why_promotion(game, parsed, reaching), None, spans.get("promo", everything)
        mover = (f"the {game.kinds[game.code_kind[pos.board[own[0]]]].name} on {game.board.names[own[0]]}"
                 if len(own) == 1 else f"no {_army_title(pos)} {what}")
        verb = "cannot" if len(own) == 1 else "can"
        return (f"{mover} {verb} move to {game.board.names[parsed.dest]}{_occupant(pos, parsed.dest)}",
                _other_side_hint(pos, parsed), spans["dest"])
    return _why_forbidden(pos, legal, pseudo[0]), None, everything


def _letter_hint(pos: Position, legal: list[Move], parsed: _Parsed) -> str | None:
    """A hint when a text without a piece letter was read in a variant whose pieces all have one."""
    game = pos.game
    if parsed.kind is not None or parsed.from_cell is not None or any(_tables(game).letterless):
        return None
    sans = sorted(_san(pos, m, legal) for m in legal if _plain(m) and m[1] == parsed.dest
                  and _fits(pos, replace(parsed, kind=game.code_kind[pos.board[m[0]]]), m[0]))
    example = f": did you mean {' or '.join(map(repr, sans[:3]))}?" if sans else ""
    return f"every piece of {game.title} is written with its letter{example}"


def _why_no_drop(pos: Position, legal: list[Move], parsed: _Parsed) -> tuple[str, str | None, tuple[int, int]]:
    """(reason, hint, span) for a drop that is not legal."""
    game = pos.game
    everything = parsed.spans["all"]
    if not game.has_drops:
        return "this variant has no drops", None, everything
    what = _kind_name(game, parsed)
    codes = [c for c in range(1 + pos.army, game.ncodes_plain, len(game.armies))
             if (game.code_kind[c] == parsed.kind if parsed.kind is not None else not _letter(game, c))]
    if not any(pos.hands[c] for c in codes):
        return f"{_army_title(pos)} has no {what} in hand", None, everything
    pseudo = [m for m in pseudo_legal_moves(pos) if _matches(pos, parsed, m)]
    if not pseudo:
        dest = game.board.names[parsed.dest]
        return f"a {what} cannot be dropped on {dest}{_occupant(pos, parsed.dest)}", None, parsed.spans["dest"]
    return _why_forbidden(pos, legal, pseudo[0]), None, everything


def _why_forbidden(pos: Position, legal: list[Move], move: Move) -> str:
    """Why the legality rules remove ``move``, a pseudo-legal move of ``pos``."""
    game = pos.game
    army, title = pos.army, _army_title(pos)
    if game.self_check and _after(pos, move, lambda: pos.in_check(army)):
        royal = " and ".join(sorted({game.kinds[game.code_kind[pos.board[c]]].name for c in royal_cells(pos, army)}))
        if pos.in_check():
            return f"{title}'s {royal} is in check and this move does not get it out"
        return f"it would leave {title}'s {royal} in check"
    if game.forbid_giving_check and _after(pos, move, lambda: bool(_checked_enemies(pos, army))):
        return "it would give check, which this variant forbids"
    captures = [m for m in legal if is_capture(pos, m)]
    if game.compulsory_capture and captures and not is_capture(pos, move):
        return f"captures are compulsory and {title} can capture (e.g. {_san(pos, captures[0], legal)})"
    if _is_drop(move) and game.drop_no_mate[move[2]]:
        return f"a {game.kinds[game.code_kind[move[2]]].name} may not be dropped to give checkmate"
    return "the rules of this variant do not allow it here"


def _after(pos: Position, move: Move, question):
    """``question()`` asked with ``move`` played."""
    pos.push(move)
    try:
        return question()
    finally:
        pos.pop()


def _occupant(pos: Position, cell: int) -> str:
    """`` (a White Pawn stands there)`` when ``cell`` holds a piece, else empty."""
    code = pos.board[cell]
    if not code:
        return ""
    game = pos.game
    return f" (a {_army_title(pos, game.code_army[code])} {game.kinds[game.code_kind[code]].name} stands there)"


def _why_origin(pos: Position, parsed: _Parsed) -> tuple[str, str | None, tuple[int, int]] | None:
    """The reason when a whole origin cell is given and holds no suitable piece, else None."""
    if parsed.from_cell is None:
        return None
    game = pos.game
    cell = parsed.from_cell
    name = game.board.names[cell]
    code = pos.board[cell]
    span = parsed.spans["from"]
    if not code:
        return f"there is no piece on {name}", None, span
    kind = game.kinds[game.code_kind[code]].name
    owner = game.code_army[code]
    if owner != pos.army:
        return (f"the {kind} on {name} belongs to {_army_title(pos, owner)}", f"it is {_army_title(pos)}'s turn",
                span)
    if parsed.kind is not None and parsed.kind != game.code_kind[code]:
        return f"the piece on {name} is a {kind}, not a {game.kinds[parsed.kind].name}", None, span
    return None


def _why_promotion(game: Game, parsed: _Parsed, reaching: list[Move]) -> str:
    """The reason when moves reach the destination but not with the promotion asked for."""
    dest = game.board.names[parsed.dest]
    choices = sorted({game.kinds[game.code_kind[m[2]]].letter for m in reaching if m[2]})
    if not choices:
        return f"a move to {dest} does not promote"
    return (f"it cannot promote to a {game.kinds[parsed.promo].name} on {dest} "
            f"(choices: {', '.join(choices)})")


def _other_side_hint(pos: Position, parsed: _Parsed) -> str | None:
    """A hint when the move would fit a piece of an army whose turn it is not."""
    game = pos.game
    for turn, army in enumerate(game.turn_order):
        if army == pos.army:
            continue
        other = pos.copy()
        other.turn, other.ep_cells = turn, ()
        if any(_matches(other, parsed, m) for m in pseudo_legal_moves(other)):
            return f"it is {_army_title(pos)}'s turn, not {_army_title(pos, army)}'s"
    return None


def _why_no_castle(pos: Position, which: tuple[str, int]) -> str:
    """Why castling by the rule ``which`` (see :func:`_castle_rule`) is not legal, as precisely as the
    castling rights tell."""
    game = pos.game
    tag, index = which
    rule = (game.castle_locks if tag == "castlock" else game.castle_rules)[index]
    army = pos.army
    title = _army_title(pos)
    king_code = game.code(game.castle_king, army)
    rook_code = game.code(game.castle_rook, army)
    kings = [c for c in pos.cells_of[army] if pos.board[c] == king_code and (pos.unmoved >> c) & 1]
    name = f"castling {rule.name} ({rule.notation})"
    king_name, rook_name = game.kinds[game.castle_king].name, game.kinds[game.castle_rook].name
    if not kings:
        if any(pos.under[c] == king_code and (pos.unmoved >> c) & 1 for c in pos.stacked):
            return f"{title} may not castle now: the {king_name} is locked under another piece"
        return f"{title} may no longer castle: the {king_name} has moved"
    if pos.under[kings[0]]:
        return f"{title} may not castle now: the {king_name} stands on top of another piece"
    kx, ky = game.board.coords[kings[0]]
    rooks = [c for c in pos.cells_of[army] if pos.board[c] == rook_code and (pos.unmoved >> c) & 1
             and game.board.coords[c][1] == ky and (not rule.side or (game.board.coords[c][0] - kx) * rule.side > 0)]
    if not rooks:
        if any(pos.under[c] == rook_code and (pos.unmoved >> c) & 1 and game.board.coords[c][1] == ky
               for c in pos.stacked):
            return f"{title} may not play {name} now: its {rook_name} is locked under another piece"
        return f"{title} may no longer play {name}: no unmoved {rook_name} for it"
    if not rule.ignore_attacks and pos.in_check():
        return f"{title} may not castle out of check"
    why = (f"{name} needs the cells between {king_name} and {rook_name} empty and the cells the {king_name} "
           f"crosses not attacked")
    if tag == "castlock":
        why += f", and the stack of {king_name} and {rook_name} it makes must not be open to capture"
    return why


# ---------------------------------------------------------------- move lists


def moves_from_text(pos: Position, text: str) -> list[Move]:
    """Play the space-separated moves of ``text`` on ``pos`` and return them.

    Moves are SAN or from-to; move numbers (``1.``, ``1...``, also glued
    as in ``1.e4``) and game results (``1-0``, ``0-1``, ``1/2-1/2``,
    ``*``) are skipped. On an error the moves already played are
    taken back, so ``pos`` is unchanged, and the MoveError /
    IllegalMoveError is raised again with its message prefixed by ``move N
    ('text'): `` (N counts moves from 1, numbers not included) and its Loc
    pointing into ``text``.
    """
    played: list[Move] = []
    try:
        for number, (start, end) in enumerate(_move_tokens(text), 1):
            try:
                move = _parse_written(pos, text, start, end)
            except MoveError as err:
                raise _in_list(err, text, number, start, end) from None
            pos.push(move)
            played.append(move)
    except MoveError:
        for _ in played:
            pos.pop()
        raise
    return played


def _move_tokens(text: str) -> list[tuple[int, int]]:
    """Spans of the moves in ``text``, move numbers and results left out; the annotation ``sep`` after a
    move belongs to it (``ba3* sep``)."""
    spans: list[tuple[int, int]] = []
    for token in re.finditer(r"\S+", text):
        if token.group() in _RESULTS:
            continue
        if token.group().lower() == "sep" and spans:
            spans[-1] = (spans[-1][0], token.end())
            continue
        start = token.start()
        number = _MOVE_NUMBER.match(text, start, token.end())
        if number:
            start = number.end()
        if start < token.end():
            spans.append((start, token.end()))
    return spans


def _in_list(err: MoveError, text: str, number: int, start: int, end: int) -> MoveError:
    """``err``, whose Loc points into ``text`` (label <move>), relabelled for a move list."""
    loc = Loc.in_string(LIST_LABEL, text, err.loc.column - 1, err.loc.end_column - 1)
    return type(err)(f"move {number} ({text[start:end]!r}): {err.message}", loc, expected=err.expected,
                     hint=err.hint)
