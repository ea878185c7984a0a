"""Writing moves: SAN and the from-to form, for any variant on a grid board.

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
- a promotion made as a move of its own (``in place``) is the piece's cell and the promotion,
  ``g7=F``, as Fairy-Stockfish writes it; when the new piece moves off the file as it appears,
  the origin file, the destination and the promotion, ``gf6=F`` (Fairy-Stockfish: ``g7f6=F``);
- a drop is the piece letter (none for a letterless piece, unless two
  letterless kinds could drop there), ``@`` and the cell: ``N@f3``,
  ``@e4``, as python-chess writes crazyhouse drops.

Forced moves (``when no moves``): ``pass`` for a pass, ``remove`` for taking
mated royal pieces off, ``out`` for putting the armies to move out of the game
(``eliminate``); all read back in either form (and ``--``, PGN's null move, for a pass).

Stacking games (moves with the specials ``st``, ``sep``, ``castlock``):

- ``x`` only when the outcome removes a piece (``capture``,
  ``capture-top``, ``capture-bottom``, ``capture-both``, ``capture-all``):
  ``Nxf3``;
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
"""

from __future__ import annotations

from interpreter.engine.attacks import checks_all, live_enemies, royal_cells, threatens
from interpreter.engine.gating import ungated
from interpreter.engine.moves import Move
from interpreter.engine.neutral import base_move, has_second_part
from interpreter.engine.outcome import immediate_end, outcome
from interpreter.engine.position import Position

from interpreter.compiler.game import Game

from .terms import (
    FORCED, STACKING_MOVES, after, bases, captures, castle_army, castle_rule_of, changes_file, inner, is_castle, is_drop,
    Written, is_sep, notation_tables, pass_cell, plain, plus_letter, san_letter, stars, written,
)

def move_to_san(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The SAN of a legal ``move`` of ``pos`` (see the module docstring).

    ``legal``: the legal moves of ``pos`` if the caller has them (else they
    are computed). Raises ValueError if ``move`` is not a legal move of
    ``pos``: move tuples come from the program, so that is a bug, not a
    user error.
    """
    forms = _legal_forms(pos, move, legal)
    return san_text(pos, inner(move), forms.moves)

def move_to_uci(pos: Position, move: Move, legal: list[Move] | None = None) -> str:
    """The from-to form of a legal ``move`` of ``pos``: ``e2e4``, ``e7e8q``, ``h8c3+``, ``e1g1`` (castling).

    ``legal``: the legal moves of ``pos`` if the caller has them. Raises
    ValueError if ``move`` is not a legal move of ``pos``.
    """
    forms = _legal_forms(pos, move, legal)
    return from_to_text(pos, inner(move), forms.moves)

def legal_move_table(pos: Position) -> list[dict]:
    """One dict per legal move of ``pos``, sorted by origin, destination and promotion cell/code.

    Keys: ``san``, ``uci``, ``from`` and ``to`` (cell names, None for a pass; for castling,
    the king's origin and destination; ``from`` is None for a drop). The
    order does not depend on the order :meth:`Position.legal_moves` happens
    to generate moves in.
    """
    legal = written(pos.legal_moves()).moves
    names = pos.game.board.names
    return [{"san": san_text(pos, m, legal), "uci": from_to_text(pos, m, legal), "from": names[m[0]] if m[0] >= 0 else None,
             "to": names[m[1]] if m[1] >= 0 else None} for m in sorted(legal, key=lambda m: m[:3])]

def _legal_forms(pos: Position, move: Move, legal: list[Move] | None) -> Written:
    """The written forms of the legal moves of ``pos`` (``legal`` if given); ValueError if ``move`` is not one of
    them (found by its written form, in one step, or else by a look through the list)."""
    legal = pos.legal_moves() if legal is None else legal
    forms = written(legal)
    if forms.legal.get(inner(move)) != move and move not in legal:
        raise ValueError(f"{move!r} is not a legal move in this position")
    return forms

def san_text(pos: Position, move: Move, legal: list[Move]) -> str:
    """SAN of ``move``, one of the ``legal`` moves of ``pos``."""
    game = pos.game
    frm, to, promo, special = move
    if special is not None and special[0] in FORCED:
        return special[0]
    if special is not None and special[0] == "gate":
        return _gate_san(pos, move, legal)
    if has_second_part(move):
        return _second_part_san(pos, move, legal)
    if is_castle(move):
        return castle_army(pos, move, legal) + castle_rule_of(game, move).notation + _check_suffix(pos, move)
    if is_drop(move):
        return _drop_letter(pos, move, legal) + "@" + game.board.names[to] + _check_suffix(pos, move)
    capture = captures(pos, move)
    parts = [san_letter(game, pos.board[frm]), _disambiguation(pos, move, legal, capture),
             "x" if capture else "", game.board.names[to]]
    if promo:
        parts.append("=" + _promotion_owner(game, move, pos.board[frm]) + game.kinds[game.code_kind[promo]].letter)
    if stars(move):
        parts.append("*")
    return "".join(parts) + _check_suffix(pos, move) + (" sep" if is_sep(move) else "")

def _gate_san(pos: Position, move: Move, legal: list[Move]) -> str:
    """A gating move: the move it is made with, ``/``, the letter of the piece that enters and, for a
    castling (two cells it could enter on), the cell: ``Nf3/H``, ``O-O/He1``."""
    game = pos.game
    _, _, _, (_, cell, code, special) = move
    text = san_text(pos, ungated(move), legal)
    text = text[:len(text) - len(_check_suffix(pos, ungated(move)))]
    where = game.board.names[cell] if special is not None and special[0] == "castle" else ""
    return f"{text}/{game.kinds[game.code_kind[code]].letter}{where}{_check_suffix(pos, move)}"

def _second_part_san(pos: Position, move: Move, legal: list[Move]) -> str:
    """A move with a neutral piece's second part: the move it is made with, a comma and the cell the
    neutral piece goes to, as Fairy-Stockfish writes Duck chess: ``e4,d5``, ``Nxe5,e4``; the
    check or end suffix, if any, comes last."""
    base = base_move(move)
    text = san_text(pos, base, bases(legal))
    text = text[:len(text) - len(_check_suffix(pos, base))]
    return f"{text},{pos.game.board.names[move[3][2]]}{_check_suffix(pos, move)}"

def _promotion_owner(game: Game, move: Move, piece: int) -> str:
    """The army symbol written before a promotion letter when the piece goes to another army (a
    partner's), else empty."""
    promo = move[2]
    return game.armies[game.code_army[promo]].symbol if game.code_army[promo] != game.code_army[piece] else ""

def _disambiguation(pos: Position, move: Move, legal: list[Move], capture: bool) -> str:
    """The origin file, rank or cell that tells ``move`` apart from the moves written like it."""
    game, board = pos.game, pos.board
    frm, to = move[0], move[1]
    letter = san_letter(game, board[frm])
    coords = game.board.coords
    tables = notation_tables(game)
    x, y = coords[frm]
    star = stars(move)
    others = {m[0] for m in legal if m[1] == to and m[0] != frm and plain(m) and stars(m) == star
              and san_letter(game, board[m[0]]) == letter}
    named = [c for c in others if tables.cell_file[c] is not None]  # explicit cells share no file or rank
    need_rank = any(coords[c][0] == x for c in named)
    # A letterless piece names its file when it captures, and in a stacking game also when it changes
    # file without capturing (an overlaid pawn's diagonal step, a pawn climbing by its capture: 'ed5*').
    # So does a promotion in place whose new piece moves off the file ('gf6=F').
    sideways = capture or (move[3] is not None and (move[3][0] in STACKING_MOVES or move[3][0] == "promote")
                           and changes_file(game, move))
    need_file = bool(others) and not need_rank or any(coords[c][1] == y for c in named) or (sideways and not letter)
    if (need_file or need_rank) and tables.cell_file[frm] is None:
        return game.board.names[frm]  # an explicit cell has no file or rank: its whole name
    if need_file and not capture and tables.long_files:
        need_rank = True  # "aab7" could be a + ab7 or aa + b7: write the whole cell
    return (tables.cell_file[frm] if need_file else "") + (tables.cell_rank[frm] if need_rank else "")

def _drop_letter(pos: Position, move: Move, legal: list[Move]) -> str:
    """The letter of a dropped piece: none for a letterless piece, unless another letterless one may drop there."""
    game = pos.game
    letter = san_letter(game, move[2])
    if not letter and any(is_drop(m) and m[1] == move[1] and m[2] != move[2] and not san_letter(game, m[2])
                          for m in legal):
        letter = game.kinds[game.code_kind[move[2]]].letter
    return letter

def _check_suffix(pos: Position, move: Move) -> str:
    """``#`` for a mate or a decisive immediate end, ``+`` for a check, else empty (see the module docstring)."""
    movers = pos.movers   # a team's turn: the move may be any of its armies', and any may check

    def suffix() -> str:
        if pos.game.has_immediate_ends and immediate_end(pos) and outcome(pos).winners:
            return "#"
        checked = [e for army in movers for e in checked_enemies(pos, army)]
        if not checked:
            return ""
        return "#" if pos.army in checked and not pos.legal_moves() else "+"
    return after(pos, move, suffix)

def checked_enemies(pos: Position, army: int) -> list[int]:
    """The enemy armies of ``army`` with a royal piece ``army`` threatens (as :meth:`Position.threatens` says;
    with ``check when all royals attacked``, whose royal pieces it threatens all)."""
    if pos.game.check_all:
        return [e for e in live_enemies(pos, army) if checks_all(pos, army, royal_cells(pos, e))]
    return [e for e in live_enemies(pos, army) if any(threatens(pos, k, army) for k in royal_cells(pos, e))]

def from_to_text(pos: Position, move: Move, legal: list[Move]) -> str:
    """The from-to form of ``move``, one of the ``legal`` moves of ``pos``."""
    game = pos.game
    names = game.board.names
    frm, to, promo, special = move
    if special is not None and special[0] in FORCED:
        cell = pass_cell(pos) if special[0] == "pass" else None
        return special[0] if cell is None else cell + cell
    if special is not None and special[0] == "gate":
        # The move it is made with and the letter of the piece that enters; a castling that gates on
        # the rook's cell is written from the rook's cell to the king's (Fairy-Stockfish's form).
        _, cell, code, inner_special = special
        text = from_to_text(pos, ungated(move), legal)
        if inner_special is not None and inner_special[0] == "castle" and cell == inner_special[1]:
            text = names[cell] + names[frm]
        return text + game.kinds[game.code_kind[code]].letter.lower()
    if has_second_part(move):
        # Fairy-Stockfish's form: the move, a comma, the mover's destination and the neutral piece's cell.
        return f"{from_to_text(pos, base_move(move), bases(legal))},{names[to] if to >= 0 else ''}{names[special[2]]}"
    if is_drop(move):
        return game.kinds[game.code_kind[promo]].letter + "@" + names[to]  # as UCI writes drops
    star = "*" if stars(move) else ""
    if is_castle(move) and any(m != move and m[0] == frm and m[1] == to and stars(m) == bool(star)
                               and (m[3] is None or m[3][0] != "gate") for m in legal):
        to = special[1]  # the king's origin and its rook's: no other move has them
    text = names[frm] + names[to]
    if not promo:
        return text + star
    letter = _promotion_owner(game, move, pos.board[frm]) + game.kinds[game.code_kind[promo]].letter
    if letter.startswith("+") and not any(m[0] == frm and m[1] == to and m[2] and m[2] != promo and plus_letter(game, m[2])
                                          and plain(m) for m in legal):
        return text + "+" + star  # the one '+' promotion of this origin and destination
    return text + letter.lower() + star
