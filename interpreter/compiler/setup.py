"""The start of a game as the compiler reads it: which piece stands where before the first move.

A setup is either ``setup fen "..."`` (a FEN string: its placement field is
read here, the rest of it when a position is built) or ``setup { ... }``
(placements: ``white King at e1``). Either way the compiler needs the start's
pieces for facts of the game that depend on them: which armies have royal
pieces, how many of each piece there are (promotions limited to lost
pieces), which kinds exist only by promotion. :class:`Setup` holds them as
plain data; building a :class:`~interpreter.engine.position.Position` from it
is the job of :mod:`interpreter.loading`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import Loc, PositionError, RulesSemanticError, unknown_name

from .placement import read_holdings, read_placement, split_holdings

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Setup:
    """The start of a game.

    ``fen``: the setup's FEN string (``setup fen``), or None for a setup of
    placements. ``placement``: cell -> code of each piece at the start (the
    top piece of a stack); ``under``: cell -> codes of the lower pieces of each
    stack, bottom first. ``held``: the codes in hand at the start. ``unmoved``: for placements, the bit mask of the cells of pieces
    whose having moved matters (see ``Game.tracked``); a FEN says it itself.
    ``loc``: where the setup is declared, for errors about it.
    """

    fen: str | None
    placement: dict[int, int]
    under: dict[int, tuple[int, ...]]
    unmoved: int
    loc: Loc | None
    held: tuple[int, ...] = ()   # the codes of the pieces in hand at the start (a FEN's holdings)

    def codes(self) -> list[int]:
        """The code of every piece at the start, stacked ones and those in hand included."""
        return [*self.placement.values(), *(c for lower in self.under.values() for c in lower), *self.held]


def setup_error(err: PositionError, loc: Loc | None) -> RulesSemanticError:
    """A PositionError in the setup's FEN string, located in the rules file: the column of the
    string ``loc`` points at, past its quotes and the spaces that open it, plus the column in it."""
    if loc is not None and err.loc is not None:
        shift = _opening(loc)
        loc = Loc(loc.path, loc.line, loc.column + shift + err.loc.column - 1,
                  loc.column + shift + (err.loc.end_column or err.loc.column + 1) - 1, loc.text)
    return RulesSemanticError(f"the setup is not a valid position: {err.message}", loc,
                              expected=err.expected, hint=err.hint)


def _opening(loc: Loc) -> int:
    """How many characters the string at ``loc`` opens with before its text: its quote (or
    three) and the spaces the FEN is read without."""
    lines = (loc.text or "").splitlines()
    line = lines[loc.line - 1] if 0 < loc.line <= len(lines) else ""
    rest = line[loc.column - 1:]
    quote = 3 if rest.startswith('"""') else 1
    return quote + len(rest[quote:]) - len(rest[quote:].lstrip(" "))


def compile_setup(game: Game, setup: S.SetupSpec, variant_loc: Loc | None) -> Setup:
    """Read the setup of ``game`` (whose board and pieces are compiled), checking its names and cells."""
    if setup.fen is not None:
        fen = setup.fen.strip()
        field = fen.split(" ")[0]
        under: dict[int, tuple[int, ...]] = {}
        try:
            squares, holdings, holdings_at = split_holdings(game, fen, field, 0)
            placement = read_placement(game, fen, squares, 0, set() if game.to_hand else None,
                                       under if game.stacking is not None else None)
            held = read_holdings(game, fen, holdings, holdings_at) if holdings else {}
        except PositionError as err:
            raise setup_error(err, setup.loc) from None
        return Setup(setup.fen, placement, under, 0, setup.loc, tuple(c for c, n in held.items() for _ in range(n)))
    if not setup.places:
        raise RulesSemanticError("the variant has no setup", variant_loc,
                                 expected="a 'setup fen \"...\"' or 'setup { ... }' declaration")
    placement = {}
    unmoved = 0
    for place in setup.places:
        if place.army not in game.army_index:
            raise unknown_name("army", place.army, game.army_index, place.locs.get("army", place.loc))
        if place.piece not in game.kind_index:
            raise unknown_name("piece", place.piece, game.kind_index, place.locs.get("piece", place.loc))
        code = game.facing_code(game.kind_index[place.piece], game.army_index[place.army],
                                tuple(dict.fromkeys(place.facing)))
        for cell in game.board.resolver.cells(place.cells, place.army):
            if cell in placement:
                raise RulesSemanticError(f"cell {game.board.names[cell]} is given two pieces", place.loc)
            placement[cell] = code
            if game.tracked[code] or (game.gate_mask >> cell) & 1:
                unmoved |= 1 << cell
    return Setup(None, placement, {}, unmoved, setup.loc)
