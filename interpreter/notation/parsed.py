"""What a move text says (:class:`Parsed`), and which moves of a position fit it."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.engine.moves import Move
from interpreter.engine.position import Position

from .terms import is_castle, is_drop, notation_tables, san_letter

@dataclass(frozen=True)
class Parsed:
    """What a move text says. Cells are indices, files and ranks their names; None: not given."""

    kind: int | None
    from_file: str | None
    from_rank: str | None
    from_cell: int | None
    dest: int
    promo: int | None          # the kind index of the promotion letter
    spans: dict                # part name -> (start, end) in the text
    drop: bool = False         # a drop: ``kind`` (None: a letterless kind) from the hand onto ``dest``
    promo_army: int | None = None  # the army the promotion gives the piece to, when written (``=tQ``)

def fits(pos: Position, parsed: Parsed, cell: int) -> bool:
    """Could the piece on ``cell`` be the one ``parsed`` names (its kind and origin only)?"""
    game = pos.game
    code = pos.board[cell]
    if not code:
        return False
    if parsed.kind is not None:
        if game.code_kind[code] != parsed.kind:
            return False
    elif parsed.from_cell is None and san_letter(game, code):
        return False
    tables = notation_tables(game)
    return ((parsed.from_file is None or parsed.from_file == tables.cell_file[cell])
            and (parsed.from_rank is None or parsed.from_rank == tables.cell_rank[cell])
            and (parsed.from_cell is None or parsed.from_cell == cell))

def matches(pos: Position, parsed: Parsed, move: Move) -> bool:
    """Does ``move`` fit ``parsed``? A castling move fits only a letterless from-to text, a drop only a drop."""
    frm, to, promo, special = move
    if parsed.drop or is_drop(move):
        return (parsed.drop and is_drop(move) and to == parsed.dest
                and (pos.game.code_kind[promo] == parsed.kind if parsed.kind is not None
                     else not san_letter(pos.game, promo)))
    if is_castle(move):
        return (parsed.kind is None and parsed.from_cell == frm and parsed.promo is None
                and parsed.dest in (to, special[1]))
    if to != parsed.dest or not fits(pos, parsed, frm):
        return False
    return parsed.promo is None or (bool(promo) and pos.game.code_kind[promo] == parsed.promo and (
        parsed.promo_army is None or pos.game.code_army[promo] == parsed.promo_army))
