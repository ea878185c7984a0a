"""Why a move text names no legal move: the reasons and hints of IllegalMoveError."""

from __future__ import annotations

from dataclasses import replace

from interpreter.compiler.game import Game
from interpreter.engine.attacks import royal_cells
from interpreter.engine.generation import pseudo_legal_moves
from interpreter.engine.legality import is_capture
from interpreter.engine.moves import Move
from interpreter.engine.outcome import outcome
from interpreter.engine.position import Position
from interpreter.engine.stacking import locked_pieces

from .parsed import Parsed, fits, matches
from .san import checked_enemies, san_text
from .terms import after, army_title, is_drop, notation_tables, plain, san_letter

def _kind_name(game: Game, parsed: Parsed) -> str:
    if parsed.kind is not None:
        return game.kinds[parsed.kind].name
    letterless = sorted({game.kinds[game.code_kind[c]].name for c in range(1, game.ncodes) if not san_letter(game, c)})
    return " or ".join(letterless) or "piece without a letter"

def _where(game: Game, parsed: Parsed) -> str:
    if parsed.from_cell is not None:
        return f" on {game.board.names[parsed.from_cell]}"
    if parsed.from_file is not None:
        return f" on the {parsed.from_file}-file"
    if parsed.from_rank is not None:
        return f" on rank {parsed.from_rank}"
    return ""

def why_illegal(pos: Position, legal: list[Move], parsed: Parsed) -> tuple[str, str | None, tuple[int, int]]:
    """(reason, hint, span) for a parsed move that fits no legal move."""
    game = pos.game
    spans = parsed.spans
    everything = spans["all"]
    if not legal:
        ended = outcome(pos, legal)
        return (f"{army_title(pos)} has no legal move" + (f" (the game is over: {ended.describe(game)})"
                                                          if ended else ""), None, everything)
    if parsed.drop:
        return _why_no_drop(pos, legal, parsed)
    origin = _why_origin(pos, parsed)
    if origin is not None:
        return origin
    own = [c for c in pos.cells_of[pos.army] if fits(pos, parsed, c)]
    what = f"{_kind_name(game, parsed)}{_where(game, parsed)}"
    if not own:
        hint = _other_side_hint(pos, parsed) or _letter_hint(pos, legal, parsed)
        return f"{army_title(pos)} has no {what}", hint, spans.get("from", everything)
    pseudo = [m for m in pseudo_legal_moves(pos) if matches(pos, parsed, m)]
    if not pseudo:
        reaching = [m for m in pseudo_legal_moves(pos) if matches(pos, replace(parsed, promo=None), m)]
        if reaching:
            return _why_promotion(game, parsed, reaching), None, spans.get("promo", everything)
        in_place = _why_not_in_place(pos, own, parsed)
        if in_place is not None:
            return in_place, None, spans.get("promo", everything)
        mover = (f"the {game.kinds[game.code_kind[pos.board[own[0]]]].name} on {game.board.names[own[0]]}"
                 if len(own) == 1 else f"no {army_title(pos)} {what}")
        verb = "cannot" if len(own) == 1 else "can"
        return (f"{mover} {verb} move to {game.board.names[parsed.dest]}{_occupant(pos, parsed.dest)}",
                _other_side_hint(pos, parsed), spans["dest"])
    return _why_forbidden(pos, legal, pseudo[0]), None, everything

def _letter_hint(pos: Position, legal: list[Move], parsed: Parsed) -> str | None:
    """A hint when a text without a piece letter was read in a variant whose pieces all have one."""
    game = pos.game
    if parsed.kind is not None or parsed.from_cell is not None or any(notation_tables(game).letterless):
        return None
    sans = sorted(san_text(pos, m, legal) for m in legal if plain(m) and m[1] == parsed.dest
                  and fits(pos, replace(parsed, kind=game.code_kind[pos.board[m[0]]]), m[0]))
    example = f": did you mean {' or '.join(map(repr, sans[:3]))}?" if sans else ""
    return f"every piece of {game.title} is written with its letter{example}"

def _why_no_drop(pos: Position, legal: list[Move], parsed: Parsed) -> tuple[str, str | None, tuple[int, int]]:
    """(reason, hint, span) for a drop that is not legal."""
    game = pos.game
    everything = parsed.spans["all"]
    if not game.has_drops:
        return "this variant has no drops", None, everything
    what = _kind_name(game, parsed)
    codes = [c for c in range(1 + pos.army, game.ncodes_plain, len(game.armies))
             if (game.code_kind[c] == parsed.kind if parsed.kind is not None else not san_letter(game, c))]
    if not any(pos.hands[c] for c in codes):
        return f"{army_title(pos)} has no {what} in hand", None, everything
    pseudo = [m for m in pseudo_legal_moves(pos) if matches(pos, parsed, m)]
    if not pseudo:
        dest = game.board.names[parsed.dest]
        return f"a {what} cannot be dropped on {dest}{_occupant(pos, parsed.dest)}", None, parsed.spans["dest"]
    return _why_forbidden(pos, legal, pseudo[0]), None, everything

def _why_forbidden(pos: Position, legal: list[Move], move: Move) -> str:
    """Why the legality rules remove ``move``, a pseudo-legal move of ``pos``."""
    game = pos.game
    army, title = pos.army, army_title(pos)
    if game.self_check and after(pos, move, lambda: pos.in_check(army)):
        royal = " and ".join(sorted({game.kinds[game.code_kind[pos.board[c]]].name for c in royal_cells(pos, army)}))
        if pos.in_check():
            return f"{title}'s {royal} is in check and this move does not get it out"
        return f"it would leave {title}'s {royal} in check"
    if game.forbid_giving_check and after(pos, move, lambda: bool(checked_enemies(pos, army))):
        return "it would give check, which this variant forbids"
    if game.forbid_royal_escape and not is_drop(move) and game.is_royal[pos.board[move[0]]] and pos.in_check():
        return f"{title}'s royal piece is in check and may only capture the single piece giving it"
    captures = [m for m in legal if is_capture(pos, m)]
    if game.compulsory_capture and captures and not is_capture(pos, move):
        return f"captures are compulsory and {title} can capture (e.g. {san_text(pos, captures[0], legal)})"
    drops = [m for m in legal if is_drop(m)]
    if game.must_drop and drops and not is_drop(move):
        return f"{title} must drop while it can (e.g. {san_text(pos, drops[0], legal)})"
    if is_drop(move) and game.drop_no_mate[move[2]]:
        return f"a {game.kinds[game.code_kind[move[2]]].name} may not be dropped to give checkmate"
    return "the rules of this variant do not allow it here"

def _occupant(pos: Position, cell: int) -> str:
    """`` (a White Pawn stands there)`` when ``cell`` holds a piece, else empty."""
    code = pos.board[cell]
    if not code:
        return ""
    game = pos.game
    return f" (a {army_title(pos, game.code_army[code])} {game.kinds[game.code_kind[code]].name} stands there)"

def _why_origin(pos: Position, parsed: Parsed) -> tuple[str, str | None, tuple[int, int]] | None:
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
        return (f"the {kind} on {name} belongs to {army_title(pos, owner)}", f"it is {army_title(pos)}'s turn",
                span)
    if parsed.kind is not None and parsed.kind != game.code_kind[code]:
        return f"the piece on {name} is a {kind}, not a {game.kinds[parsed.kind].name}", None, span
    return None

def _why_promotion(game: Game, parsed: Parsed, reaching: list[Move]) -> str:
    """The reason when moves reach the destination but not with the promotion asked for."""
    dest = game.board.names[parsed.dest]
    choices = sorted({game.kinds[game.code_kind[m[2]]].letter for m in reaching if m[2]})
    if not choices:
        return f"a move to {dest} does not promote"
    return (f"it cannot promote to a {game.kinds[parsed.promo].name} on {dest} "
            f"(choices: {', '.join(choices)})")

def _why_not_in_place(pos: Position, own: list[int], parsed: Parsed) -> str | None:
    """The reason when the text asks a promotion of a piece that promotes in place (``promotes ...:
    in place``) and none of its lines allows it here; None when no such line could."""
    game = pos.game
    if parsed.promo is None:
        return None
    lines = [(c, line) for c in own for line in game.in_place_promotions[pos.board[c]] or ()
             if any(game.code_kind[t] == parsed.promo for t in line.targets)]
    if not lines:
        return None
    target = game.kinds[parsed.promo].name
    standing = [(c, line) for c, line in lines if c in line.cells]
    if not standing:
        return f"a {target} is made in place only on the cells of its promotion rule, and no piece stands there"
    code = game.code(parsed.promo, pos.army)
    limit = game.promotion_limits.get(code)
    if limit is not None and sum(1 for c in pos.cells_of[pos.army] if pos.board[c] == code) >= limit:
        return f"{army_title(pos)} has {limit} {target} on the board already, as many as a promotion allows"
    return (f"no promotion to a {target} reaches {game.board.names[parsed.dest]}: its rule's cell, move, condition "
            f"or tests (not attacking, not giving check) do not allow it here")

def _other_side_hint(pos: Position, parsed: Parsed) -> str | None:
    """A hint when the move would fit a piece of an army whose turn it is not."""
    game = pos.game
    for turn, army in enumerate(game.turn_order):
        if army == pos.army:
            continue
        other = pos.copy()
        other.turn, other.ep_cells = turn, ()
        if any(matches(other, parsed, m) for m in pseudo_legal_moves(other)):
            return f"it is {army_title(pos)}'s turn, not {army_title(pos, army)}'s"
    return None

def _rule_for_mover(pos: Position, rules: list[tuple[str, int]]):
    """``(tag, rule)`` of the first of ``rules`` with a castling from the cell of a king of the mover
    to a rook cell the rule allows it (a swap: a rule that allows it a rook cell), else the first."""
    game = pos.game
    army = pos.army
    king_code = game.code(game.castle_king, army)
    kings = [c for c in pos.cells_of[army] if pos.board[c] == king_code]
    found = [(tag, (game.castle_locks if tag == "castlock" else game.castle_rules)[index]) for tag, index in rules]
    for tag, rule in found:
        allowed = rule.rook_cells[army] if rule.rook_cells else None
        if rule.paths:
            if any(allowed is None or path[0] in allowed for k in kings for path in rule.paths[k]):
                return tag, rule
        elif allowed is None or allowed:
            return tag, rule
    return found[0]


def why_no_castle(pos: Position, rules: list[tuple[str, int]]) -> str:
    """Why castling by none of ``rules``, the rules written alike (``(tag, index)``, see
    :func:`~interpreter.notation.reading._castle_rules`), is legal, as precisely as the castling
    rights tell. The rule explained is the first that could castle the mover's king from its cell
    (another army's castling written the same way says nothing about this one), else the first."""
    game = pos.game
    army = pos.army
    tag, rule = _rule_for_mover(pos, rules)
    title = army_title(pos)
    king_code = game.code(game.castle_king, army)
    rook_codes = game.castle_rook_codes[army]
    kings = [c for c in pos.cells_of[army] if pos.board[c] == king_code and (pos.unmoved >> c) & 1]
    name = f"castling {rule.name} ({rule.notation})"
    king_name = game.kinds[game.castle_king].name
    rook_name = " or ".join(game.kinds[kind].name for kind in game.castle_rooks)
    if not kings:
        if any(code == king_code and (pos.unmoved >> c) & 1 for c, code in locked_pieces(pos)):
            return f"{title} may not castle now: the {king_name} is locked under another piece"
        return f"{title} may no longer castle: the {king_name} has moved"
    if pos.under[kings[0]]:
        return f"{title} may not castle now: the {king_name} stands on top of another piece"
    axis = rule.axis                      # along the king's rank (0) or file (1)
    coords = game.board.coords
    along, across = coords[kings[0]][axis], coords[kings[0]][1 - axis]
    rooks = [c for c in pos.cells_of[army] if pos.board[c] in rook_codes and (pos.unmoved >> c) & 1
             and coords[c][1 - axis] == across and (not rule.side or (coords[c][axis] - along) * rule.side > 0)]
    if not rooks:
        if any(code in rook_codes and (pos.unmoved >> c) & 1 and coords[c][1 - axis] == across
               for c, code in locked_pieces(pos)):
            return f"{title} may not play {name} now: its {rook_name} is locked under another piece"
        return f"{title} may no longer play {name}: no unmoved {rook_name} for it"
    if not rule.ignore_attacks and pos.in_check():
        return f"{title} may not castle out of check"
    why = (f"{name} needs the cells between {king_name} and {rook_name} empty and the cells the {king_name} "
           f"crosses not attacked")
    if tag == "castlock":
        why += f", and the stack of {king_name} and {rook_name} it makes must not be open to capture"
    return why
