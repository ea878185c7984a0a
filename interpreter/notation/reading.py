"""Reading moves: SAN and from-to strings, and lists of moves, into legal moves.

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

The word ``resign`` is the resignation of the armies to move where the
variant lets the game go on after it (``when resigning: eliminate`` or
``remove-royal``; see :func:`~interpreter.engine.outcome.resignation`), as
``rules play`` writes it in a game record; where resigning ends the game it
is refused, with the hint to write the result instead.

Cost: each public function computes the legal moves of the position,
unless given them as ``legal=`` (the list :meth:`Position.legal_moves`
returned for this very position); callers that have them should pass
them. :func:`legal_move_table` computes them once for all its rows. What
the notation derives from such a list (the moves as written, the moves a
neutral piece's second part is made with) is kept for the last few lists
it was given and found again by the list's identity: a list passed as
``legal=`` must not be changed afterwards.

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

from dsl import limits as L
from dsl.errors import IllegalMoveError, Loc, MoveError, suggest

from interpreter.compiler.game import Game
from interpreter.engine.moves import Move
from interpreter.engine.outcome import resignation
from interpreter.engine.position import Position

from .explain import why_illegal, why_no_castle
from .parsed import Parsed, matches
from .san import from_to_text, san_text
from .terms import (
    FORCED, bases, castle_notations, castle_rule_of, is_castle, is_drop, is_sep, notation_tables, pass_cell, plain,
    plus_letter, san_letter, stars, written,
)

LABEL = "<move>"

LIST_LABEL = "<moves>"

_ANNOTATION = re.compile(r"[+#!?]+$")

_SEP = re.compile(r"\s+sep$", re.IGNORECASE)

_MOVE_NUMBER = re.compile(r"\d+\.+")

_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}

_ALLOWED = re.compile(r"[A-Za-z0-9=x:+#!?@-]")


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
    if end - start > L.MOVE_CHARS.value:
        raise L.MOVE_CHARS.error(f"this move has {end - start:,} characters",
                                 Loc.in_string(LABEL, text, start, min(end, start + 60)))
    legal = pos.legal_moves() if legal is None else legal
    forms = written(legal)
    body_start, body_end, sep = _body(text, start, end)
    if text[body_start:body_end] == "resign":
        return _pick_resignation(pos, text, body_start, body_end)
    if pos.game.neutral_move is not None and legal and legal[0][3] is not None and legal[0][3][0] == "then":
        return forms.legal[_parse_two_parts(pos, text, body_start, body_end, sep, forms.moves)]
    if pos.game.gating:
        gated = [m for m in forms.moves if m[3] is not None and m[3][0] == "gate"]
        if gated:
            body = text[body_start:body_end]
            plain_moves = [m for m in forms.moves if m not in gated]
            for m in gated:   # a gating move is matched by its whole written forms
                if body in (san_text(pos, m, forms.moves).rstrip("+#"), from_to_text(pos, m, forms.moves)):
                    return forms.legal[m]
            return forms.legal[_parse(pos, text, body_start, body_end, sep, legal=plain_moves)]
    return forms.legal[_parse(pos, text, body_start, body_end, sep, legal=forms.moves)]

def _parse_two_parts(pos: Position, text: str, start: int, end: int, sep: bool, legal: list[Move]) -> Move:
    """A move with a neutral piece's second part (see :mod:`interpreter.engine.neutral`): the move it
    is made with, a comma and the neutral piece's cell, ``Nf3,e5``, or in from-to form the mover's
    destination and that cell, ``g1f3,f3e5``."""
    comma = text.rfind(",", start, end)
    if comma < 0:
        raise MoveError(f"the move {text[start:end]!r} lacks its second part", Loc.in_string(LABEL, text, start, end),
                        expected="the move, a comma and the cell the neutral piece goes to, e.g. e4,d5 or e2e4,e4d5")
    base = _parse_written(pos, text, start, comma, bases(legal))
    index, names = pos.game.board.index, pos.game.board.names
    second = text[comma + 1:end].strip()
    landing = names[base[1]] if base[1] >= 0 else ""
    cell_name = second[len(landing):] if landing and second.startswith(landing) and second[len(landing):] in index \
        else second
    if cell_name not in index:
        raise MoveError(f"no cell {cell_name!r} on this board", Loc.in_string(LABEL, text, comma + 1, end),
                        expected="the cell the neutral piece goes to, e.g. d5")
    cell = index[cell_name]
    for m in legal:  # the first move made with ``base`` whose neutral piece goes to ``cell``, compared inline
        special = m[3]
        if special is not None and special[0] == "then" and special[2] == cell and special[3] == base[3] \
                and m[:3] == base[:3]:
            return m
    raise IllegalMoveError(f"illegal move {text[start:end]!r}: the neutral piece cannot go to {cell_name} "
                           "(it must go to another empty cell)", Loc.in_string(LABEL, text, comma + 1, end))

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
        word = text[start:end]
        cell = pass_cell(pos)
        if word == "--" or (cell is not None and word == cell + cell):
            word = "pass"   # a pass, also written as the royal cell twice where one may pass at will
        if word in FORCED:
            return _pick_forced(pos, legal, word, text, start, end)
        rules = _castle_rules(pos.game, text[start:end])
        if rules:
            return _pick_castle(pos, legal, rules, text, start, end)
        for army in pos.movers if len(pos.movers) > 1 else ():  # 'tO-O': Tan's castling in a shared turn
            symbol = pos.game.armies[army].symbol
            rules = _castle_rules(pos.game, text[start + len(symbol):end]) if text.startswith(symbol, start) else []
            if rules:
                return _pick_castle(pos, legal, rules, text, start, end, army)
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

_PROMOTION = re.compile(r"(?<=\d)=?([a-z]*)(\+?[A-Za-z])$")  # [army symbol] letter

_DESTINATION = re.compile(r"([a-z]+)(\d+)$")
_LEVEL_DESTINATION = re.compile(r"([A-Z][a-z]+)(\d+)$")  # on a board of levels a file is level and file: Aa1

_DROP = re.compile(r"(\+?[A-Za-z])?@([a-z]+\d+)")

_ORIGIN = re.compile(r"(?P<piece>\+?[A-Z])?(?P<file>[a-z]+?)??(?P<rank>\d+)?[x:-]?")
_LEVEL_ORIGIN = re.compile(r"(?P<piece>\+?[A-Z])?(?P<file>[A-Z][a-z]+?)??(?P<rank>\d+)?[x:-]?")

def _castle_rules(game: Game, body: str) -> list[tuple[str, int]]:
    """The move tags and rule indexes of the castling rules whose notation is ``body`` (``0`` read as
    ``O``), in the order they are declared: ``("castle", i)`` for ``game.castle_rules[i]``,
    ``("castlock", i)`` for ``game.castle_locks[i]``. Several rules may be written alike (each army's
    ``O-O`` of a four-army game); none: an empty list."""
    for candidate in (body, body.replace("0", "O")):
        found = [(tag, rule.index) for tag, rules in (("castle", game.castle_rules), ("castlock", game.castle_locks))
                 for rule in rules if rule.notation == candidate]
        if found:
            return found
    return []

def _read(game: Game, text: str, start: int, end: int) -> list[Parsed]:
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
    dest = (_LEVEL_DESTINATION if game.board.levels > 1 else _DESTINATION).search(body, 0, rest)
    if dest is None:
        raise MoveError(f"cannot read move {body!r}", Loc.in_string(LABEL, text, start, end))
    run_start, rank_start = start + dest.start(1), start + dest.start(2)
    readings, errors = [], []
    for split in range(run_start, rank_start):
        # A destination is a cell of the board, or a file name and a rank (to say which is missing).
        if (text[split:start + rest] not in game.board.index
                and text[split:rank_start] not in notation_tables(game).file_names):
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
             promo: tuple[int, int]) -> Parsed:
    """One reading: the origin part ``text[start:origin_end]``, the destination and promotion spans."""
    m = (_LEVEL_ORIGIN if game.board.levels > 1 else _ORIGIN).fullmatch(text, start, origin_end)
    if m is None:
        raise MoveError(f"cannot read {text[start:origin_end]!r} before the destination {text[dest[0]:dest[1]]!r}",
                        Loc.in_string(LABEL, text, start, origin_end))
    tables = notation_tables(game)
    spans = {"all": (start, dest[1] if promo[0] < 0 else promo[1]), "dest": dest}
    from_file = from_rank = from_cell = None
    if m.group("file") and m.group("rank"):  # a whole origin cell (an explicit cell has no file or rank)
        spans["from"] = (m.start("file"), m.end("rank"))
        from_cell = _cell(game, text, spans["from"])
    elif m.group("file"):
        if m.group("file") not in tables.file_names:
            raise _no_file(game, text, *m.span("file"))
        from_file = m.group("file")
    elif m.group("rank"):
        from_rank = _rank(game, text, m.span("rank"))
    promo_army = None
    if promo[0] >= 0:
        spans["promo"] = promo
        promo_army, promo = _promotion_army(game, text, promo)
    return Parsed(_piece_letter(game, text, m.span("piece")), from_file, from_rank, from_cell,
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

def _read_drop(game: Game, text: str, start: int, end: int) -> Parsed:
    """A drop, ``[Letter]@cell``."""
    m = _DROP.fullmatch(text, start, end)
    if m is None:
        raise MoveError(f"cannot read drop {text[start:end]!r}", Loc.in_string(LABEL, text, start, end),
                        expected="a piece letter (none for a piece written without one), '@' and a cell")
    spans = {"all": (start, end), "dest": m.span(2)}
    return Parsed(_piece_letter(game, text, m.span(1)), None, None, None, _cell(game, text, m.span(2)), None,
                   spans, drop=True)

def _piece_letter(game: Game, text: str, span: tuple[int, int]) -> int | None:
    """The kind index of the letter at ``span`` (None for an empty span); MoveError for an unknown letter."""
    if span[0] < 0:
        return None
    letter = text[span[0]:span[1]].upper()
    letters = notation_tables(game).letter_kind
    if letter not in letters:
        guess = suggest(letter, letters)
        raise MoveError(f"unknown piece letter {text[span[0]:span[1]]!r}", Loc.in_string(LABEL, text, *span),
                        expected="one of the piece letters " + ", ".join(letters),
                        hint=f"did you mean {guess!r}?" if guess else None)
    return letters[letter]

def _rank(game: Game, text: str, span: tuple[int, int]) -> str:
    """The rank name at ``span``; MoveError if the board has no such rank."""
    ranks = notation_tables(game).rank_names
    name = text[span[0]:span[1]]
    if name not in ranks:
        raise MoveError(f"no rank {name} on this board", Loc.in_string(LABEL, text, *span),
                        expected=f"a rank from {ranks[0]} to {ranks[-1]}")
    return name

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
    files = notation_tables(game).file_names
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
    notations = castle_notations(game)
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
    lettered = [m for m in legal if not is_castle(m) and san_letter(pos.game, pos.board[m[0]])]
    example = (lettered or legal)[0]
    castles = castle_notations(pos.game)
    more = f", castling {' / '.join(castles)}" if castles else ""
    drops = [m for m in legal if is_drop(m)]
    more += f", drops such as {san_text(pos, drops[0], legal)!r}" if drops else ""
    return f"{forms}, e.g. {san_text(pos, example, legal)!r} or {from_to_text(pos, example, legal)!r}{more}"

def _marked(moves: list[Move], star: bool, sep: bool) -> list[Move]:
    """The ``moves`` that fit the marks of the text: ``sep`` only a sep, ``*`` only a move written with
    it (:func:`stars`); no mark, the moves written without ``*``, or else those written with it."""
    if sep:
        return [m for m in moves if is_sep(m)]
    if star:
        return [m for m in moves if stars(m)]
    return [m for m in moves if not stars(m)] or moves

def _pick(pos: Position, legal: list[Move], readings: list[Parsed], text: str, start: int, end: int,
          plus: bool = False, star: bool = False, sep: bool = False) -> Move:
    """The one legal move that fits the first reading fitting any, or the IllegalMoveError that says why not.

    ``plus``: the annotations after the text start with '+', a promotion in the from-to form if one fits.
    ``star``, ``sep``: the text ends with ``*`` / carries the annotation ``sep`` (:func:`_marked`).
    """
    shown = end + star  # the text's end in messages: with its '*'
    parsed, found, unmarked = readings[0], [], []
    for reading in readings:
        unmarked = unmarked or [m for m in legal if matches(pos, reading, m)]
        found = _marked([m for m in legal if matches(pos, reading, m)], star, sep)
        if found:
            parsed = reading
            break
    if not found and unmarked:
        what = "an overlay en passant (sep)" if sep else "a move that climbs or lands (written with '*')"
        text_of = ", ".join(san_text(pos, m, legal) for m in unmarked)
        raise IllegalMoveError(f"illegal move {text[start:shown]!r}: it is not {what}",
                               Loc.in_string(LABEL, text, start, shown), expected=f"one of {text_of}")
    if parsed.promo is None and not parsed.drop and any(plain(m) and m[2] for m in found):
        game = pos.game
        promoting = [m for m in found if plain(m) and m[2] and plus_letter(game, m[2])]
        if plus and promoting and parsed.kind is None and parsed.from_cell is not None:
            found = promoting  # from-to 'h8c3+': the '+' promotion
        else:
            staying = [m for m in found if not (plain(m) and m[2])]
            found = staying or found  # no promotion written: the move that may stay unpromoted does
    if parsed.promo is not None and parsed.promo_army is None and len(found) > 1:
        own = [m for m in found if pos.game.code_army[m[2]] == pos.game.code_army[pos.board[m[0]]]]
        found = own or found  # '=Q' is the mover's own queen; a partner's is written '=tQ'
    if len(found) > 1 and any(not is_castle(m) for m in found):
        found = [m for m in found if not is_castle(m)]  # a from-to that is also a king move is the king move
    if len(found) == 1:
        return found[0]
    body = text[start:shown]
    if not found:
        message, hint, span = why_illegal(pos, legal, parsed)
        raise IllegalMoveError(f"illegal move {body!r}: {message}", Loc.in_string(LABEL, text, *span), hint=hint)
    loc = Loc.in_string(LABEL, text, start, shown)
    if all(plain(m) for m in found) and len({(m[0], m[1]) for m in found}) == 1:
        choices = ", ".join(san_text(pos, m, legal) for m in found)
        raise IllegalMoveError(f"move {body!r} must say which piece to promote to", loc,
                               expected=f"one of {choices}")
    listed = ", ".join(f"{san_text(pos, m, legal)} ({from_to_text(pos, m, legal)})" for m in found)
    raise IllegalMoveError(f"ambiguous move {body!r}: it could be {listed}", loc,
                           hint="add the origin file, rank or cell of the piece to move")

def _pick_forced(pos: Position, legal: list[Move], word: str, text: str, start: int, end: int) -> Move:
    """The forced move ``word`` names (``pass`` or ``remove``), if it is the legal one."""
    found = [m for m in legal if m[3] is not None and m[3][0] == word]
    if found:
        return found[0]
    why = {"pass": ("the rules do not let the side to move pass here" if pos.game.may_pass
                    else "an army may pass only when it has no legal move"),
           "out": "an army is put out of the game only when it has no legal move (or by resigning in the runner)",
           }.get(word, "a royal piece is removed only when it is mated (or by resigning in the runner)")
    raise IllegalMoveError(f"illegal move {text[start:end]!r}: {why}", Loc.in_string(LABEL, text, start, end))

def _pick_resignation(pos: Position, text: str, start: int, end: int) -> Move:
    """The move a resignation plays here, if the variant lets the game go on after one."""
    move = resignation(pos)
    if move is not None:
        return move
    raise IllegalMoveError("illegal move 'resign': resigning here ends the game, so it is not a move",
                           Loc.in_string(LABEL, text, start, end),
                           hint="end the record with its result instead, e.g. 0-1 when White resigns")

def _pick_castle(pos: Position, legal: list[Move], rules: list[tuple[str, int]], text: str, start: int,
                 end: int, army: int | None = None) -> Move:
    """The castling move of one of ``rules``, the rules written as ``text[start:end]`` (of ``army``,
    when the text names one)."""
    game = pos.game
    found = [m for m in legal if is_castle(m) and (m[3][0], castle_rule_of(game, m).index) in rules
             and (army is None or game.code_army[pos.board[m[0]]] == army)]
    if len(found) == 1:
        return found[0]
    body = text[start:end]
    loc = Loc.in_string(LABEL, text, start, end)
    if found:
        listed = ", ".join(from_to_text(pos, m, legal) for m in found)
        raise IllegalMoveError(f"ambiguous castling {body!r}: it could be {listed}", loc,
                               hint="write the king's origin and its rook's cell, e.g. " + from_to_text(pos, found[0], legal))
    raise IllegalMoveError(f"illegal move {body!r}: {why_no_castle(pos, rules)}", loc)

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
    tokens = _move_tokens(text)
    if len(tokens) > L.MOVES.value:
        start = tokens[L.MOVES.value][0]
        raise L.MOVES.error(f"this list has {len(tokens):,} moves", Loc.in_string(LIST_LABEL, text, start))
    try:
        for number, (start, end) in enumerate(tokens, 1):
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
