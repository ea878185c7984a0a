"""The placement field of FEN, read into cell contents: the language's own notation for a setup.

``setup fen "..."`` in a rules file gives the start as a FEN string; the
compiler reads its placement field here to know the start's pieces
(:mod:`interpreter.compiler.setup`), and :mod:`interpreter.notation.fen`
reads whole positions with the same functions.

- Placement lists ranks from the highest to rank 1, separated by ``/``;
  within a rank, the cells that exist on it in file order, a piece symbol
  per occupied cell and a number (possibly of several digits, on wide
  boards) per run of empty cells. On a board with removed cells, or a hex
  board, a rank lists only its own cells (Glinski's rank 11 is one cell long).
- Armies with prefixed symbols (``wK``, ``tP``) separate the cells of a rank
  with commas (``wR,2,wN``).
- Stacking games write a stack as its symbols in parentheses, bottom
  first: ``(Pb)`` is a white pawn under a black bishop, ``(PNb)`` a white
  pawn under a white knight under a black bishop.
- Drop games add the pieces in hand in brackets after the placement
  (``...RNBQKBNR[Qn]``; one more rank, ``.../Qn``, is read too) and mark
  promoted pieces with ``~`` (``Q~``).

Errors are :class:`~dsl.errors.PositionError` pointing into the FEN string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import limits as L
from dsl.errors import Loc, PositionError, clip, suggest
from .layout import LEVEL_LETTERS

if TYPE_CHECKING:
    from .game import Game

LABEL = "<fen>"


def fen_error(fen: str, start: int, end: int, message: str, expected: str | None = None,
           hint: str | None = None) -> PositionError:
    return PositionError(message, Loc.in_string(LABEL, fen, start, end), expected=expected, hint=hint)


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written with the digits 0 to 9 (not ``²``, not ``٣``)."""
    return text.isascii() and text.isdigit()


def read_number(fen: str, text: str, at: int, what: str) -> int:
    """The whole number ``text`` (at ``at`` in ``fen``), at most :data:`~dsl.limits.NUMBER`;
    else a PositionError naming ``what`` it should be."""
    if not is_number(text):
        raise fen_error(fen, at, at + len(text), f"invalid {what} {clip(text)!r}",
                        expected="a whole number written with the digits 0 to 9")
    if len(text.lstrip("0")) > len(str(L.NUMBER.value)) or int(text) > L.NUMBER.value:
        raise fen_error(fen, at, at + len(text), f"the {what} {clip(text, 20)} is too large",
                        expected=f"at most {L.NUMBER.value:,}")
    return int(text)


def split_holdings(game: Game, fen: str, text: str, offset: int) -> tuple[str, str | None, int]:
    """Split a placement field into the board part and the holdings of a drop game.

    Holdings come in brackets (``...[QRbn]``) or as one more rank (``.../Qn``,
    lichess's dialect). Returns (board text, holdings text or None, holdings offset).
    """
    if "[" in text:
        start = text.index("[")
        if not text.endswith("]"):
            raise fen_error(fen, offset + start, offset + len(text), "unclosed holdings", expected="']' after the holdings")
        if not game.has_hands:
            raise fen_error(fen, offset + start, offset + len(text), "this variant has no hands",
                         expected="a placement without holdings in brackets")
        return text[:start], text[start + 1:-1].replace("-", ""), offset + start + 1
    rows = text.split("/")
    if game.has_hands and len(rows) == len(game.board.rows) + 1:
        return "/".join(rows[:-1]), rows[-1], offset + len(text) - len(rows[-1])
    return text, None, 0


def symbol_at(game: Game, text: str, i: int) -> tuple[int | None, int]:
    """The piece code whose symbol starts ``text`` at ``i`` (the longest that fits), and its length."""
    for size in range(game.symbol_width, 0, -1):
        code = game.symbol_code.get(text[i:i + size])
        if code is not None:
            return code, size
    return None, 1


def read_holdings(game: Game, fen: str, text: str, offset: int) -> dict[int, int]:
    """Code -> count of the pieces in hand listed in ``text`` (at ``offset`` in ``fen``)."""
    hands: dict[int, int] = {}
    i = 0
    while i < len(text):
        code, size = symbol_at(game, text, i)
        if code is None or (game.is_royal[code] and game.drop_cells[code] is None):  # a royal piece only to drop
            raise fen_error(fen, offset + i, offset + i + 1, f"invalid piece in hand {text[i]!r}",
                            expected="letters of pieces that can be held, e.g. [QRbn]")
        hands[code] = hands.get(code, 0) + 1
        i += size
    return hands


def rank_cells(game: Game) -> list[list[int]]:
    """The cells of each rank, from the highest rank down, in file order (only cells that exist;
    a rank of explicit cells beyond the generator's, such as Omega Chess's wizard squares, too)."""
    return game.board.rows


def _rank_name(game: Game, cells: list[int], default: int) -> str:
    """How an error names a rank of the placement: ``rank 8`` (by its cells' names, else its number
    from the bottom), or ``the rank of w4, w3`` for a rank of explicit cells only."""
    parts, names = game.board.parts, game.board.names
    ranks = {parts[c][1] for c in cells if parts[c] is not None}
    if len(ranks) == 1:
        return f"rank {ranks.pop()}"
    if cells and not ranks:
        return "the rank of " + ", ".join(names[c] for c in cells)
    return f"rank {default}"


def read_placement(game: Game, fen: str, text: str, offset: int, promoted: set[int] | None = None,
               stacks: dict[int, tuple[int, ...]] | None = None) -> dict[int, int]:
    """Cells -> (top) codes of a placement field (without holdings); '~' marks in ``promoted``,
    the lower pieces of stacks such as ``(Pb)`` or ``(PNb)`` in ``stacks`` (cell -> their codes,
    bottom first; only given for stacking games, whose height a stack may not exceed).

    Each rank lists the cells that exist on it, in file order: on a
    rectangular board that is plain FEN; on a board with removed cells or a
    hex board, a rank is as long as the cells it has. A ``*`` (Fairy-Stockfish's
    wall: a removed cell written in its place) is read as nothing, so such a
    FEN reads the same as without its walls, unless a neutral piece has the
    symbol ``*`` (the duck).
    """
    ranks = rank_cells(game)
    placed: dict[int, int] = {}
    for r, (row, pos) in enumerate(_split_ranks(game, fen, text, offset)):
        cells = ranks[r]
        rank = _rank_name(game, cells, len(ranks) - r)
        x = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch == "," or (ch == "*" and "*" not in game.symbol_code):
                # Commas separate cells (armies with prefixed symbols, such as wK); '*' is a wall, a
                # cell the board lacks, in Fairy-Stockfish's and XBoard's FEN: neither is a cell here
                # (unless '*' is a neutral piece's symbol, Fairy-Stockfish's duck).
                i += 1
                continue
            if "0" <= ch <= "9":
                j = i
                while j < len(row) and "0" <= row[j] <= "9":
                    j += 1
                x += read_number(fen, row[i:j], pos + i, "number of empty cells")
                i = j
                continue
            if ch == "(" and stacks is not None:
                close = row.find(")", i)
                inner = row[i + 1:close] if close > i else ""
                pieces = _stack_symbols(game, inner)
                height = game.spec.stacking.height if game.spec.stacking is not None else 2
                if close < 0 or pieces is None or not 2 <= len(pieces) <= height:
                    raise fen_error(fen, pos + i, pos + (close + 1 if close > i else len(row)),
                                 f"a stack is written as 2 to {height} piece symbols in parentheses, bottom first",
                                 expected="e.g. (Pb): a white pawn under a black bishop")
                if x >= len(cells):
                    break
                placed[cells[x]] = pieces[-1]
                stacks[cells[x]] = tuple(pieces[:-1])
                x += 1
                i = close + 1
                continue
            code, size = symbol_at(game, row, i)
            if code is None and ch == ">" and x > 0 and placed.get(cells[x - 1]):
                end = i + 1
                while end < len(row) and row[end] not in ",/":
                    end += 1
                bare = game.code_symbol[placed[cells[x - 1]]].split(">")[0]
                facings = sorted(s[len(bare):] for s in game.symbol_code if s.startswith(bare + ">"))
                raise fen_error(fen, pos + i, pos + end, f"{bare} cannot face {row[i + 1:end]!r}",
                             expected=f"a facing {bare} may have: " + (" ".join(facings) or "none"))
            if code is None:
                guess = suggest(ch, list(game.symbol_code))
                raise fen_error(fen, pos + i, pos + i + 1, f"unknown piece symbol {ch!r}",
                             expected="one of " + " ".join(sorted(game.symbol_code)) + " or a digit",
                             hint=f"did you mean {guess!r}?" if guess else None)
            if x >= len(cells):
                break
            placed[cells[x]] = code
            x += 1
            i += size
            if i < len(row) and row[i] == "~":
                if promoted is None:
                    raise fen_error(fen, pos + i, pos + i + 1, "'~' marks a promoted piece, which only drop games track")
                promoted.add(cells[x - 1])
                i += 1
        if x != len(cells):
            raise fen_error(fen, pos, pos + len(row),
                         f"{rank} describes {x} cells, the board has {len(cells)} on it",
                         expected=f"{len(cells)} cells on {rank}")
    return placed


def _split_ranks(game: Game, fen: str, text: str, offset: int) -> list[tuple[str, int]]:
    """The ranks of a placement (``text``, at ``offset`` in ``fen``) with their offsets: separated by
    ``/``, and on a board of levels, the levels (each its ranks, top level first) by ``//``. Raises
    a :class:`PositionError` for a count of ranks or levels the board does not have."""
    levels = game.board.levels
    per_level = len(game.board.rows) // levels
    parts = text.split("//") if levels > 1 else [text]
    if len(parts) != levels:
        raise fen_error(fen, offset, offset + len(text), f"the placement has {len(parts)} levels, the board has {levels}",
                        expected=f"{levels} levels of {per_level} ranks, the top level first, separated by '//'")
    ranks: list[tuple[str, int]] = []
    at = offset
    for z, part in enumerate(parts):
        rows = part.split("/")
        if len(rows) != per_level:
            where = f"level {LEVEL_LETTERS[levels - 1 - z]} of the placement" if levels > 1 else "the placement"
            raise fen_error(fen, at, at + len(part), f"{where} has {len(rows)} ranks, the board has {per_level}",
                            expected=f"{per_level} ranks separated by '/'")
        for row in rows:
            ranks.append((row, at))
            at += len(row) + 1
        at += 1
    return ranks


def placement_text(game: Game, rows: list[str]) -> str:
    """The ranks of a placement, written (top first) as :func:`read_placement` reads them."""
    per_level = len(rows) // game.board.levels
    return "//".join("/".join(rows[i:i + per_level]) for i in range(0, len(rows), per_level))


def _stack_symbols(game: Game, text: str) -> list[int] | None:
    """The codes of the piece symbols that make up ``text`` (a stack in parentheses), or None if it
    is not a row of symbols."""
    codes, at = [], 0
    while at < len(text):
        code, width = symbol_at(game, text, at)
        if code is None or not width:
            return None
        codes.append(code)
        at += width
    return codes
