"""What XBoard is told about a variant it does not know, and the targets of a lifted piece.

H.G. Muller's extension of CECP lets an engine define a variant for the
GUI, in answer to ``variant NAME``:

- ``setup (PIECETOCHAR) WxH+S_PARENT FEN``: which letter stands for which of
  XBoard's piece images, the board's width and height, the number of piece
  kinds a hand holds (S), the XBoard variant whose other rules apply
  (``crazyhouse`` when captured pieces go to the captor's hand, else
  ``fairy``) and the start position;
- ``piece LETTER& BETZA``: how each piece moves, in XBoard's Betza notation,
  so that the GUI can test moves for legality and show where a piece may go.

The Betza text of a piece is its rules file's own Betza moves, with the
move options written as Betza modifiers: ``m`` (move only) and ``c``
(capture only), ``i`` (only the first move; also for a move allowed from a
zone, as a pawn's double step is), ``n`` (lame), ``e`` (captures en
passant), and ``O2`` on the king for castling with a king's move of two
files. What Betza cannot say (a move allowed only into some cells, a
condition) is left out of the text and named in a ``#`` line, XBoard's
comment: turn legality testing off in XBoard for such a variant.

XBoard's piece images are placed by letter where XBoard has an image of
that letter (:data:`IMAGES`), the royal piece on the king's image; other
letters take the images left over.

``lift SQUARE`` (the user picks up a piece) is answered with ``highlight``
and a board in FEN's shape whose letters colour the piece's targets:
``Y`` a move, ``R`` a capture, ``M`` a promotion.
"""

from __future__ import annotations

from dsl import spec as S
from dsl.betza import written_betza

from interpreter.compiler.game import Game, PieceKind
from interpreter.engine.legality import is_capture
from interpreter.engine.position import Position
from interpreter.loading import start_fen, start_position

from .games import pocket_size
from interpreter.notation.dialects import Dialect

IMAGES = "PNBRQFEACWMOHIJGDVLSUK"
"""XBoard's piece images in the order of its piece-to-char table (its ``fairy`` letters); the last is the king."""

def setup_line(game: Game) -> str:
    """The ``setup`` command that defines ``game`` for XBoard."""
    table = piece_table(game)
    white = "".join(table.get(i, ".") for i in range(len(IMAGES)))
    parent = "crazyhouse" if game.to_hand else "fairy"
    return (f"setup ({white}{white.lower()}) {game.board.files}x{game.board.ranks}+{pocket_size(game)}_{parent} "
            f"{start_fen(game)}")


def piece_table(game: Game) -> dict[int, str]:
    """XBoard image index -> the letter of the kind drawn with it."""
    table: dict[int, str] = {}
    waiting = []
    for kind in game.kinds:
        letter = kind.letter.upper()
        slot = len(IMAGES) - 1 if kind.royal else IMAGES.find(letter)
        if len(letter) == 1 and slot >= 0 and slot not in table and (kind.royal or slot != len(IMAGES) - 1):
            table[slot] = letter
        else:
            waiting.append(letter)
    free = [i for i in range(len(IMAGES) - 1) if i not in table]
    for letter, slot in zip(waiting, free):
        table[slot] = letter
    return table


def piece_lines(game: Game) -> list[str]:
    """A ``piece`` command for each kind, and a ``#`` line for each part Betza cannot say."""
    lines = []
    for kind in game.kinds:
        betza, left_out = piece_betza(game, kind)
        lines.append(f"piece {kind.letter.upper()}& {betza}")
        lines.extend(f"# {kind.name}: {note} is not in its Betza text" for note in left_out)
    return lines


def piece_betza(game: Game, kind: PieceKind) -> tuple[str, list[str]]:
    """The Betza text of ``kind``'s moves, and what of them it leaves out."""
    parts, left_out = [], []
    for move in kind.spec.moves:
        if not isinstance(move.pattern, S.BetzaPattern):
            left_out.append(f"a {move.pattern.kind} move")
            continue
        parts.append(written_betza(move))
        for flag, note in ((move.to_cells is not None, "a move allowed only into some cells"),
                           (move.within is not None, "a move confined to some cells"),
                           (move.condition is not None, "a move's condition"),
                           (move.royal_only, "a move that only captures royal pieces"),
                           (move.once_per_game, "a once-per-game move"), (move.commits is not None, "a committed direction")):
            if flag:
                left_out.append(note)
    step = _castling_step(game) if kind.index == game.castle_king else None
    if step:
        parts.append(f"O{step}")
    return "".join(parts), left_out


def _castling_step(game: Game) -> int | None:
    """How many files the king moves when it castles by the first rule that moves it to a file (None
    when no king stands at the start, as White's in Horde)."""
    start = start_position(game)
    rule = next((r for r in game.castle_rules if r.king_to is not None and r.axis == 0), None)
    kings = [game.board.coords[c][0] for army in game.turn_order for c in start.cells_of[army]
             if start.board[c] == game.code(game.castle_king, army)]
    return None if rule is None or not kings else abs(rule.king_to - kings[0])


def highlight(pos: Position, dialect: Dialect, square: str) -> str | None:
    """The ``highlight`` board for the piece on ``square`` (protocol notation), or None if it is not a
    square of the board."""
    board = pos.game.board
    cell = board.index.get(dialect.cell_name(square))
    if cell is None:
        return None
    colours: dict[int, str] = {}
    for move in pos.legal_moves():
        if move[0] == cell and move[1] >= 0:
            colour = "M" if move[2] else "R" if is_capture(pos, move) else "Y"
            if colours.get(move[1]) != "M":
                colours[move[1]] = colour
    rows = []
    for y in range(board.ranks - 1, -1, -1):
        row, empty = "", 0
        for x in range(board.files):
            colour = colours.get(board.at[(x, y)])
            if colour is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + colour
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)

