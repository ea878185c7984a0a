"""FEN for grid boards: read and write positions.

Fields, separated by spaces: placement, side to move, castling rights, en
passant target, halfmove clock, fullmove number. The last two (or last
three, as in EPD) may be left out and default to ``0 1``.

- Placement lists ranks from the highest to rank 1, separated by ``/``;
  within a rank, the cells that exist on it in file order, a piece symbol
  per occupied cell and a number (possibly of several digits, on wide
  boards) per run of empty cells. Piece symbols are the piece letter, in
  upper or lower case by the army's ``letters`` setting. On a board with
  removed cells, or a hex board, a rank lists only its own cells (Glinski's
  rank 11 is one cell long). On a board of levels (``grid 5 x 5 x 5``) the
  levels follow one another from the top level down, each its ranks from
  the highest, and ``//`` separates two levels (the 5x5x5 convention of
  Forsyth-Edwards Expanded Notation): ``.../5//5/...``.
- Side to move: the army's symbol (its first letter, e.g. ``w`` / ``b``, or
  its ``letters prefix``).
- Games whose pieces have once-per-game moves (and no castling) use the
  castling field for the cells of the pieces that still have them
  (``a1,o1``; ``-`` for none).
- Armies with prefixed symbols (``wK``, ``tP``: four-player chess's FEN)
  separate the cells of a rank with commas (``wR,2,wN``), and list castling
  rights as the cells of unmoved kings and rooks (``c12,d14,a11``), as games
  that castle along a file do.
- Castling: ``-`` or letters: ``K``/``Q`` (upper-case army) or ``k``/``q``
  (lower-case army) for the outermost unmoved rook on the king's rank
  towards higher / lower files, or a file letter for a particular rook
  (Shredder-FEN and X-FEN style, as in Chess960). In games with gating
  (``gate`` rules) a file letter is instead a gate cell of that file that
  keeps its right (its piece has not moved), and ``K``/``Q`` also stand for
  the gate rights of the king's and the rook's cells: Seirawan chess starts
  with ``KQBCDFGkqbcdfg``, Fairy-Stockfish's dialect (a gate right is
  written only while the army holds a piece that may enter there, or can
  get one: captures go to hand).
- En passant: ``-`` or the cell passed over by the last double step; kept
  only when an en passant capture is legal, as python-chess does.
- Stacking games write a stack as its symbols in parentheses, bottom
  first: ``(Pb)`` is a white pawn under a black bishop, ``(PNb)`` a white
  pawn under a white knight under a black bishop.
- Drop and gating games add the pieces in hand in brackets after the placement
  (``...RNBQKBNR[Qn]``; one more rank, ``.../Qn``, is read too) and mark
  promoted pieces with ``~`` (``Q~``).
- Games that ``count checks to N`` add a field ``R+R`` after en passant: the
  checks each army still needs (a trailing ``+G+G``, checks given, is read too).
- Games that score (``points``, ``eliminate``, the result ``score``) add a field
  after en passant (and the check counts): each army's score in army order,
  separated by commas, an army out of the game marked by ``x`` after its
  score (``20,0x,3,0``). Left out, every score is 0 and every army in play.

The castling field holds every right of the position, and only rights
(:mod:`interpreter.compiler.rights`): a rook whose king has moved is not
written, nor a king with no rook left. First-move rights (pieces with
``unmoved`` patterns) are inferred where the compiler shows that a piece
of that code on a setup cell of its code has never moved (``Game.inferred``);
otherwise they are written too, as Fairy-Stockfish writes Cambodian
chess's: the file letter of the piece's cell on its army's home rank
(``DEde``), or the cell's name elsewhere (``KQkqe3``); in the cells form,
the cell among the others. Reading a FEN drops the rights no rule can use
(``K`` for a rook that cannot castle with the king), so that the position
read has the hash of the position written.
"""

from __future__ import annotations

import re

from dsl import limits as L
from dsl.errors import Loc, suggest

from interpreter.compiler.board import file_letter
from interpreter.compiler.layout import CELL_NAME
from interpreter.compiler.game import Game
from interpreter.compiler.placement import fen_error as _error
from interpreter.compiler.rights import home_rank, setup_cells
from interpreter.compiler.placement import (
    LABEL, is_number, placement_text, rank_cells, read_holdings, read_number, read_placement, split_holdings,
)
from interpreter.engine.position import Position
from interpreter.engine.rights import dead_marks, ground, marked_cells
from interpreter.engine.stacking import lower_pieces
from interpreter.engine.attacks import royal_attacked, royal_cells
from interpreter.engine.legality import ep_legal, ep_possible
from interpreter.engine.scoring import scores_text


def _fields(fen: str) -> list[tuple[str, int]]:
    """The space-separated fields with their start offsets."""
    fields, i = [], 0
    for part in fen.split(" "):
        if part:
            fields.append((part, i))
        i += len(part) + 1
    return fields


def parse_fen(game: Game, fen: str) -> Position:
    """The position described by ``fen``. Raises :class:`PositionError` pointing into the string."""
    if len(fen) > L.FEN_CHARS.value:
        raise L.FEN_CHARS.error(f"this position string has {len(fen):,} characters", Loc.in_string(LABEL, fen[:200], 0))
    fen = fen.strip()
    if not fen:
        raise _error(fen, 0, 0, "empty position", expected="a FEN string")
    pos = Position(game)
    fields = _take_scores(game, pos, fen, _take_check_counts(game, pos, fen, _fields(fen)))
    if len(fields) > 6:
        part, at = fields[6]
        raise _error(fen, at, len(fen), "too many fields", expected="at most 6 space-separated fields")
    placement, at = fields[0]
    squares, holdings, holdings_at = split_holdings(game, fen, placement, at)
    promoted: set[int] | None = set() if game.to_hand else None
    stacks: dict[int, tuple[int, ...]] | None = {} if game.stacking is not None else None
    for cell, code in read_placement(game, fen, squares, at, promoted, stacks).items():
        pos.place(cell, code)
    for cell, lower in (stacks or {}).items():
        pos.under[cell] = lower[-1]
        if pos.deep is not None:
            pos.deep[cell] = lower[:-1]
        pos.stacked.add(cell)
    if stacks:
        pos.find_royals()   # with the pieces locked below others
    for cell in promoted or ():
        pos.promoted |= 1 << cell
    if holdings:
        for code, count in read_holdings(game, fen, holdings, holdings_at).items():
            pos.hands[code] += count
    if not game.castle_rules and len(fields) > 2 and is_number(fields[2][0][0]):
        # Games without castling may leave out the castling and en passant fields ("w 0 1").
        fields = fields[:2] + [("-", fields[2][1]), ("-", fields[2][1])] + fields[2:]
    # Side to move.
    symbols = {a.symbol: a.index for a in game.armies}
    if len(fields) > 1:
        side, at = fields[1]
        if side not in symbols:
            raise _error(fen, at, at + len(side), f"unknown side to move {side!r}",
                         expected=" or ".join(repr(s) for s in symbols))
        army = symbols[side]
        if army not in game.turn_order:
            raise _error(fen, at, at + len(side), f"army {side!r} does not take turns")
        if (pos.out >> army) & 1:
            raise _error(fen, at, at + len(side), f"army {side!r} is out of the game (its score is marked 'x')",
                         expected="an army still in the game to move")
        pos.turn = game.turn_order.index(army)
    # Unmoved pieces other than castling pieces: where the setup puts them.
    _infer_unmoved(game, pos)
    if len(fields) > 2:
        _castling(game, pos, fen, *fields[2])
    if len(fields) > 3:
        _en_passant(game, pos, fen, *fields[3])
    for index, name in ((4, "halfmove clock"), (5, "fullmove number")):
        if len(fields) > index:
            text, at = fields[index]
            number = read_number(fen, text, at, name)
            if index == 4:
                pos.clock = number
            else:
                pos.fullmove = max(1, number)
    _check_royals(game, pos, fen, placement, fields[0][1])
    _check_last_mover_safe(game, pos, fen, fields[1] if len(fields) > 1 else fields[0])
    pos.unmoved &= ~dead_marks(pos)   # rights the position cannot use are no part of it (engine.rights)
    pos.rehash()
    return pos


SCORES = re.compile(r"\d{1,9}x?(,\d{1,9}x?)+")


def _take_scores(game: Game, pos: Position, fen: str, fields: list[tuple[str, int]]):
    """Read and remove the scores field of games that score (see the module docstring): the first
    field after the side to move made of numbers separated by commas."""
    if not game.scoring:
        return fields
    for index in range(2, len(fields)):
        text, at = fields[index]
        if SCORES.fullmatch(text):
            parts = text.split(",")
            if len(parts) != len(game.armies):
                raise _error(fen, at, at + len(text), f"{len(parts)} scores for {len(game.armies)} armies",
                             expected="a score per army in army order (" +
                             ", ".join(a.title for a in game.armies) + "), separated by commas")
            pos.scores = tuple(int(p.rstrip("x")) for p in parts)
            pos.out = sum(1 << a for a, p in enumerate(parts) if p.endswith("x"))
            if all((pos.out >> a) & 1 for a in range(len(game.armies))):
                raise _error(fen, at, at + len(text), "every army is out of the game",
                             expected="at least one army without 'x'")
            return fields[:index] + fields[index + 1:]
    return fields


def _take_check_counts(game: Game, pos: Position, fen: str, fields: list[tuple[str, int]]):
    """Read and remove the check-counter field of games that ``count checks``.

    Two dialects: ``R+R`` after the en passant field, the checks each army
    still needs (python-chess, Fairy-Stockfish), or a last field ``+G+G``,
    the checks each army has given (lichess).
    """
    if game.count_checks is None:
        return fields
    kept = []
    for index, (text, at) in enumerate(fields):
        parts = text.lstrip("+").split("+")
        if index >= 4 and "+" in text and len(parts) == len(game.armies) and all(is_number(p) for p in parts):
            counts = [read_number(fen, p, at, "check count") for p in parts]
            if not text.startswith("+"):
                if not game.count_checks:
                    raise _error(fen, at, at + len(text), "checks remaining need a target ('count checks to N')")
                counts = [game.count_checks - c for c in counts]
            if any(c < 0 for c in counts):
                raise _error(fen, at, at + len(text), f"invalid check counts {text!r}",
                             expected=f"numbers from 0 to {game.count_checks}")
            pos.checks = tuple(counts)
        else:
            kept.append((text, at))
    return kept


def _infer_unmoved(game: Game, pos: Position) -> None:
    """Pieces whose first-move right FEN does not write (``Game.inferred``) are unmoved where the
    setup puts a piece of their code: no such piece can come back there (see
    :mod:`interpreter.compiler.rights`)."""
    if not any(game.inferred):
        return
    start = game.setup.placement
    for cell, code in enumerate(pos.board):
        if code and game.inferred[code] and start.get(cell) == code:
            pos.unmoved |= 1 << cell


def written_mark(game: Game, code: int) -> bool:
    """Does FEN's castling field write the unmoved mark of a piece of ``code`` when it is not a
    castling king or rook nor on a gate cell? (A first-move right that cannot be inferred.)"""
    return game.own_mark[code] and not game.inferred[code]


_RIGHT = re.compile(CELL_NAME.pattern + "|.")   # a cell's name, or one letter


def _castling(game: Game, pos: Position, fen: str, text: str, at: int) -> None:
    """The castling field: castling, gate and first-move rights (see the module docstring)."""
    if text == "-":
        return
    if not game.castle_rules and any(game.privileged):
        _privileges(game, pos, fen, text, at)
        return
    if not (game.castling_kinds or game.gating or any(written_mark(game, c) for c in range(game.ncodes))):
        raise _error(fen, at, at + len(text), "this variant has no castling", expected="'-'")
    board = game.board
    if rights_as_cells(game):
        # The cells of the kings, rooks and other pieces that keep a right.
        offset = at
        for name in text.split(","):
            cell = board.index.get(name, -1)
            if cell < 0 or not _marks_there(game, pos, cell):
                raise _error(fen, offset, offset + len(name), f"no piece with a castling or first-move right on {name!r}",
                             expected="cells of unmoved kings, rooks and pieces with first-move patterns, separated "
                                      "by commas, or '-'")
            pos.unmoved |= 1 << cell
            offset += len(name) + 1
        return
    for match in _RIGHT.finditer(text):
        token, offset = match.group(), at + match.start()
        if len(token) > 1:
            _first_move_cell(game, pos, fen, token, offset)
            continue
        army = next((a for a in game.armies if a.letter_case == ("upper" if token.isupper() else "lower")), None)
        if army is None:
            raise _error(fen, offset, offset + 1, f"invalid castling right {token!r}")
        lower = token.lower()
        if game.gating and (lower not in "kq" or not game.castle_rules):
            _gate_right(game, pos, fen, token, offset, army.index)
        elif game.castling_kinds and (lower in "kq" or _home_cell(game, pos, lower, army.index) < 0):
            _castling_right(game, pos, fen, token, offset, army.index)
        else:
            _file_right(game, pos, fen, token, offset, army.index)


def _castling_right(game: Game, pos: Position, fen: str, ch: str, at: int, army: int) -> None:
    """``K``, ``Q`` or a rook's file letter: the army's king and that rook are unmoved. Where the
    army has several kings (pawns that promote to kings), the letter is the right of the one that
    has such a rook on its rank, and of those of the one that stands where the setup puts a king."""
    title = game.armies[army].title
    king_code = game.castle_king_codes[army]
    grounded = _ground_cells(pos, army)  # a locked king or rook keeps its rights
    kings = [c for c, code in grounded.items() if code == king_code]
    if not kings:
        raise _error(fen, at, at + 1, f"castling right {ch!r} but {title} has no king")
    pairs = [(king, rook) for king in kings for rook in _castling_rook(game, grounded, army, king, ch.lower())]
    if len(pairs) > 1:
        home = setup_cells(game, king_code)
        pairs = [pair for pair in pairs if pair[0] in home] or pairs
    if not pairs:
        raise _error(fen, at, at + 1, f"castling right {ch!r} but no {title} rook stands there",
                     expected="K, Q, k, q, file letters of rooks on the king's rank, or '-'")
    if len(pairs) > 1:
        raise _error(fen, at, at + 1, f"castling right {ch!r} fits {len(pairs)} {title} kings",
                     expected="a position where one king of the army can hold it")
    king, rook = pairs[0]
    pos.unmoved |= (1 << king) | (1 << rook)


def _castling_rook(game: Game, grounded: dict[int, int], army: int, king: int, letter: str) -> list[int]:
    """The rook (a list of at most one cell) that the castling letter ``letter`` (lower case) names
    for ``army``'s king on ``king``: the outermost on that side for ``k`` and ``q``, within the reach
    of :func:`rook_reach`, else the one on that file."""
    board = game.board
    kx, ky = board.coords[king]
    rooks = sorted((board.coords[c][0], c) for c, code in grounded.items()
                   if code in game.castle_rook_codes[army] and board.coords[c][1] == ky)
    if letter == "k":
        return [c for x, c in rooks if kx < x <= rook_reach(game, army, king, 1)][-1:]
    if letter == "q":
        return [c for x, c in rooks if rook_reach(game, army, king, -1) <= x < kx][:1]
    return [c for x, c in rooks if file_letter(x) == letter]


def _marks_there(game: Game, pos: Position, cell: int) -> bool:
    """Can the castling field give the piece at the bottom of ``cell`` a right? (A castling king or
    rook, a piece on a gate cell, or one whose first-move right FEN writes.)"""
    code = ground(pos, cell)
    return bool(code) and (game.castler[code] or written_mark(game, code) or (game.gate_mask >> cell) & 1 == 1)


def _home_cell(game: Game, pos: Position, letter: str, army: int) -> int:
    """The cell of file ``letter`` on ``army``'s home rank if a piece of the army whose first-move
    right FEN writes stands there (Fairy-Stockfish's ``DEde``), else -1."""
    y = home_rank(game, army)
    coords = game.board.coords
    cell = next((c for c in range(len(coords)) if coords[c][1] == y and file_letter(coords[c][0]) == letter), -1)
    if cell < 0:
        return -1
    code = ground(pos, cell)
    return cell if code and game.code_army[code] == army and written_mark(game, code) else -1


def _file_right(game: Game, pos: Position, fen: str, ch: str, at: int, army: int) -> None:
    """A file letter for the first-move right of the army's piece on that file of its home rank."""
    cell = _home_cell(game, pos, ch.lower(), army)
    if cell < 0:
        raise _error(fen, at, at + 1, f"first-move right {ch!r} but no {game.armies[army].title} piece with "
                     "first-move patterns stands on that file of its home rank",
                     expected="file letters of such pieces, cell names of others, or '-'")
    pos.unmoved |= 1 << cell


def _first_move_cell(game: Game, pos: Position, fen: str, name: str, at: int) -> None:
    """A cell's name: the piece there keeps its first-move right (one off its army's home rank)."""
    cell = game.board.index.get(name, -1)
    code = ground(pos, cell) if cell >= 0 else 0
    if not code or not written_mark(game, code):
        raise _error(fen, at, at + len(name), f"no piece with first-move patterns on {name!r}",
                     expected="the cell of a piece that has not moved, or '-'")
    pos.unmoved |= 1 << cell


def _gate_right(game: Game, pos: Position, fen: str, ch: str, at: int, army: int) -> None:
    """A file letter in a gating game: the army's gate cells on that file keep their right (their
    pieces are unmoved); or, where none has a piece, a first-move right (:func:`_file_right`)."""
    cells = [c for c in game.gates[army] if file_letter(game.board.coords[c][0]) == ch.lower() and pos.board[c]]
    if not cells:
        if _home_cell(game, pos, ch.lower(), army) >= 0:
            _file_right(game, pos, fen, ch, at, army)
            return
        raise _error(fen, at, at + 1, f"gate right {ch!r} but no piece stands on a gate cell of that file",
                     expected="K, Q, k, q, or file letters of gate cells with a piece on them, or '-'")
    for cell in cells:
        pos.unmoved |= 1 << cell


def other_rights(pos: Position, army: int, implied: int) -> str:
    """The army's rights other than castling letters, as the castling field writes them after those:
    file letters (in file order) of its gate cells that keep their right and of its pieces on its home
    rank that keep a first-move right FEN writes, then the names of its other such pieces' cells; none
    for the cells of the ``implied`` mask (the castling letters stand for them). As in
    Fairy-Stockfish's dialect, a gate right is written only while the army holds a piece that may
    enter there or can get one (captures go to hand)."""
    game = pos.game
    board = game.board
    files = [board.coords[c][0] for c, codes in game.gates[army].items()
             if (pos.unmoved >> c) & 1 and pos.board[c] and not (implied >> c) & 1
             and (game.to_hand or any(pos.hands[code] for code in codes))]
    cells = []
    if any(game.own_mark):
        y = home_rank(game, army)
        for cell in marked_cells(pos.unmoved & ~implied):
            code = ground(pos, cell)
            if game.code_army[code] == army and written_mark(game, code):
                if board.coords[cell][1] == y:
                    files.append(board.coords[cell][0])
                else:
                    cells.append(board.names[cell])
    letters = "".join(file_letter(x) for x in sorted(set(files)))
    return (letters.upper() if game.armies[army].letter_case == "upper" else letters) + "".join(cells)


def _en_passant(game: Game, pos: Position, fen: str, text: str, at: int) -> None:
    """The en passant field: ``-``, a cell, or several cells run together.

    Several cells (Fairy-Stockfish's dialect for pawns that step
    diagonally, e.g. ``d3c4``) list the cells passed over and the cell of
    the pawn that passed them; with a single cell the pawn stands one step
    forward of it, as in chess. The field is ignored when no capture there
    is possible, as python-chess does. ``0`` reads as ``-``: in its place
    Fairy-Stockfish writes the limit of a running count of moves (counting
    rules, which the language does not model), and 0 says that no count is
    running.
    """
    if text == "-" or text == "0":
        return
    board = game.board
    names = CELL_NAME.findall(text)
    if "".join(names) != text or any(name not in board.index for name in names):
        bad = next((n for n in names if n not in board.index), text)
        raise _error(fen, at, at + len(text), f"invalid en passant field {text!r}",
                     expected="'-' or cell names such as e3", hint=(lambda g: f"did you mean {g!r}?" if g else None)(
                         suggest(bad, board.names)))
    cells = [board.index[name] for name in names]
    movers = game.turn_armies[(pos.turn - 1) % len(game.turn_order)]  # the armies of the last turn
    moved = [c for c in cells if pos.board[c] and game.code_army[pos.board[c]] in movers]
    targets = tuple(c for c in cells if not pos.board[c])
    if moved:
        victim = moved[0]
    else:
        stepped = [v for v in (_forward_of(game, cells[0], a) for a in movers)
                   if v >= 0 and pos.board[v] and game.code_army[pos.board[v]] in movers]
        if not stepped:
            return  # no double step can have passed there
        victim = stepped[0]
    if targets and any(ep_possible(pos, targets, a) for a in pos.movers):
        pos.ep_cells = targets
        pos.ep_victim = victim
        if game.self_check and not ep_legal(pos):
            pos.ep_cells = ()


def _forward_of(game: Game, cell: int, army: int) -> int:
    """The cell one step in ``army``'s forward direction from ``cell`` (-1 if none)."""
    forward = game.armies[army].forward or "n"
    return game.board.steps[forward][cell] if forward in game.board.steps else -1


def ep_field(pos: Position) -> str:
    """The en passant field: the target cell, or (diagonal steps) targets and the pawn's cell by index."""
    if not pos.ep_cells:
        return "-"
    game, board = pos.game, pos.game.board
    cells = list(pos.ep_cells)
    mover = game.code_army[pos.board[pos.ep_victim]]
    if len(cells) != 1 or _forward_of(game, cells[0], mover) != pos.ep_victim:
        cells.append(pos.ep_victim)
    return "".join(board.names[c] for c in sorted(cells))


def _check_royals(game: Game, pos: Position, fen: str, placement: str, at: int) -> None:
    """An army has a royal piece if and only if it has one in the setup (in Horde, White has none),
    on the board or, before it is dropped, in hand.

    Where captures explode or mated royal pieces are removed, a royal piece
    may be gone: the position is still one to read.
    """
    if not game.self_check:
        return
    if game.blast is not None or any(action == "remove-royal" for action, _ in game.no_moves):
        return  # the rules themselves take royal pieces off
    for army in game.armies:
        held = any(pos.hands[c] for c in range(1, game.ncodes)
                   if game.is_royal[c] and game.code_army[c] == army.index)
        if army.index in game.royal_armies and not royal_cells(pos, army.index) and not held:
            raise _error(fen, at, at + len(placement), f"{army.title} has no royal piece",
                         expected="a position with a " + " or ".join(k.name for k in game.kinds if k.royal)
                         + f" for {army.title}, as in the setup")


def last_movers_in_check(game: Game, pos: Position) -> list[int]:
    """The armies of the turn before ``pos``'s that stand in check where ``forbid self-check`` says
    that no move may leave them so (``4k3/8/8/8/8/8/8/4K2r b``: Black to move could take the king).

    Empty where an army may stay in check by the rules themselves (passing, taking its royal
    piece off or rescuing it when it has no move), without self-check forbidden, or with one side.
    """
    if not game.self_check or len(game.turn_armies) < 2:
        return []
    if any(action in ("pass", "remove-royal", "rescue", "eliminate") for action, _ in game.no_moves):
        return []
    last = game.turn_armies[(pos.turn - 1) % len(game.turn_armies)]
    return [a for a in last if a not in pos.movers and royal_attacked(pos, a)]


def _check_last_mover_safe(game: Game, pos: Position, fen: str, field: tuple[str, int]) -> None:
    """Refuse a position whose last movers stand in check (:func:`last_movers_in_check`)."""
    exposed = last_movers_in_check(game, pos)
    if exposed:
        title = game.armies[exposed[0]].title
        text, at = field
        raise _error(fen, at, at + len(text), f"{title} is in check, but {title} has just moved",
                     expected=f"a position in which the side that moved last ({title}) is not in check",
                     hint="no move may leave its own royal piece attacked here (forbid self-check): "
                          "is the side to move right?")


def board_fen(pos: Position) -> str:
    """The placement field of ``pos`` (with the holdings of drop games)."""
    game = pos.game
    rows = []
    separator = "," if any(a.prefix for a in game.armies) else ""
    for cells in rank_cells(game):
        row, empty = [], 0
        for cell in cells:
            code = pos.board[cell]
            if code:
                if empty:
                    row.append(str(empty))
                    empty = 0
                if pos.under[cell]:
                    row.append("(" + "".join(game.code_symbol[c] for c in (*lower_pieces(pos, cell), code)) + ")")
                    continue
                row.append(game.code_symbol[code])
                if (pos.promoted >> cell) & 1:
                    row.append("~")
            else:
                empty += 1
        if empty:
            row.append(str(empty))
        rows.append(separator.join(row))
    placement = placement_text(game, rows)
    if game.has_hands:
        held = "".join(game.code_symbol[code] * count for code, count in _hand_order(game, pos))
        placement += f"[{held}]"
    return placement


def _hand_order(game: Game, pos: Position):
    """(code, count) of the pieces in hand: armies in order, kinds in declaration order."""
    for army in range(len(game.armies)):
        for kind in range(len(game.kinds)):
            code = game.code(kind, army)
            if pos.hands[code]:
                yield code, pos.hands[code]


def _privileges(game: Game, pos: Position, fen: str, text: str, at: int) -> None:
    """The cells of the pieces that may still use a once-per-game move, separated by commas."""
    offset = at
    for name in text.split(","):
        cell = game.board.index.get(name, -1)
        if cell < 0 or not game.privileged[pos.board[cell]]:
            raise _error(fen, offset, offset + len(name), f"no piece with a once-per-game move on {name!r}",
                         expected="cells of pieces that keep a once-per-game move, separated by commas, or '-'")
        pos.privileges |= 1 << cell
        offset += len(name) + 1


def _ground_cells(pos: Position, army: int) -> dict[int, int]:
    """Cell -> code of the army's pieces standing at ground level: alone, or locked at the bottom
    of a stack (castling rights belong to those)."""
    code_army = pos.game.code_army
    return {cell: code for cell, code in ((c, ground(pos, c)) for c in range(len(pos.board)))
            if code and code_army[code] == army}


def rook_reach(game: Game, army: int, king: int, toward: int) -> int:
    """The file from which ``K`` (``toward`` +1) or ``Q`` (-1) looks for the king's rook, going
    towards the king: the outermost file of the army's castling rooks on that side of the king's
    rank in the setup, else the board's edge (and always while the setup itself is read). This is
    Fairy-Stockfish's dialect: where the rooks start on the b- and i-files of ten, ``K`` is the
    first rook from the i-file inward, and a rook beyond it needs its file letter."""
    board = game.board
    kx, ky = board.coords[king]
    setup = getattr(game, "setup", None)
    codes = game.castle_rook_codes[army]
    files = [board.coords[c][0] for c, code in (setup.placement.items() if setup else ())
             if code in codes and board.coords[c][1] == ky and (board.coords[c][0] - kx) * toward > 0]
    if files:
        return max(files) if toward > 0 else min(files)
    return board.files - 1 if toward > 0 else 0


def rights_as_cells(game: Game) -> bool:
    """Rights are written as the cells of the unmoved kings, rooks and other pieces that keep one
    (not ``KQkq``) for armies without letter cases (prefixed symbols) and for castling along a file."""
    return any(a.prefix for a in game.armies) or any(rule.axis for rule in game.castle_rules)


def castling_field(pos: Position) -> str:
    """The castling field of ``pos``'s FEN: its rights (see the module docstring), or ``-``."""
    game, board = pos.game, pos.game.board
    if not game.castle_rules and any(game.privileged):
        cells = [c for c in range(len(board)) if (pos.privileges >> c) & 1]
        return ",".join(board.names[c] for c in cells) or "-"
    if rights_as_cells(game):
        return ",".join(board.names[c] for c in marked_cells(pos.unmoved) if _marks_there(game, pos, c)) or "-"
    out = []
    for army in game.armies:
        implied = 0   # the cells the castling letters stand for
        if game.castling_kinds:
            implied = _castling_letters(pos, army.index, out)
        out.append(other_rights(pos, army.index, implied))
    return "".join(out) or "-"


def _castling_letters(pos: Position, army: int, out: list[str]) -> int:
    """Append the castling letters of ``army`` to ``out`` (``K``, ``Q``, or a rook's file letter where
    another rook stands further out); returns the mask of the cells they stand for."""
    game, board = pos.game, pos.game.board
    implied = 0
    case = game.armies[army].letter_case
    king_code = game.castle_king_codes[army]
    rook_codes = game.castle_rook_codes[army]
    grounded = _ground_cells(pos, army)  # a locked king or rook keeps its rights
    for king in sorted(grounded):
        if grounded[king] != king_code or not (pos.unmoved >> king) & 1:
            continue
        kx, ky = board.coords[king]
        rooks = sorted((board.coords[c][0], c) for c, code in grounded.items()
                       if code in rook_codes and board.coords[c][1] == ky)
        letters = []
        for x, c in rooks:
            if not (pos.unmoved >> c) & 1:
                continue
            toward = 1 if x > kx else -1
            reach = rook_reach(game, army, king, toward)
            side = [r for r in rooks if (r[0] - kx) * toward > 0 and (reach - r[0]) * toward >= 0]
            outermost = (side[-1][0] if x > kx else side[0][0]) if side else None
            letter = ("k" if x > kx else "q") if x == outermost else file_letter(x)
            letters.append((0 if letter == "k" else 1 if letter == "q" else 2, letter))
            implied |= (1 << king) | (1 << c)
        for _, letter in sorted(letters):
            out.append(letter.upper() if case == "upper" else letter)
    return implied


def to_fen(pos: Position) -> str:
    """The FEN of ``pos``."""
    game = pos.game
    ep = ep_field(pos)
    side = game.armies[pos.army].symbol
    counts = ""
    if game.count_checks is not None:
        if game.count_checks:
            counts = " " + "+".join(str(max(game.count_checks - c, 0)) for c in pos.checks)
        else:
            counts = " " + "".join(f"+{c}" for c in pos.checks)
    scores = f" {scores_text(pos)}" if game.scoring else ""
    return f"{board_fen(pos)} {side} {castling_field(pos)} {ep}{counts}{scores} {pos.clock} {pos.fullmove}"
