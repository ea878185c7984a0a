"""Promotion as a move of its own (``promotes in TERM to ...: in place``), compiled.

Such a line gives no promotion on arrival: a piece standing on a cell of ``TERM`` may, instead
of moving, become one of the listed kinds there, or (``in place or quiet move``) become it and
make one of the new piece's quiet moves from that cell. Its options ``not attacking``, ``not
giving check`` and ``if EXPR`` narrow it; ``limit P to N`` applies as to any promotion (see
:attr:`Game.promotion_limits <interpreter.compiler.game.Game>`). The moves are made by
:func:`interpreter.engine.generation.in_place_promotions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from dsl import spec as S
from dsl.errors import RulesSemanticError

from .drops import compile_cell_condition

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class InPlacePromotion:
    """One ``in place`` promotion line for one army: the ``cells`` a piece may promote on, the codes
    it may become (``targets``), whether the new piece may also make a quiet move (``moving``), the
    tests ``not attacking`` and ``not giving check``, and the compiled ``if`` (a function of a
    :class:`~interpreter.engine.generation.DropContext` whose cell is the piece's), or None,
    compiled from the line ``source``. A stored game (:mod:`interpreter.loading.stored`) keeps
    no compiled ``if``: :func:`relinked` compiles it again."""

    cells: frozenset[int]
    targets: tuple[int, ...]
    moving: bool
    not_attacking: bool
    not_giving_check: bool
    condition: Callable | None
    source: S.PromotionSpec = field(compare=False, repr=False)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "condition": None}


# The options that only a promotion as a move of its own has, and those it cannot have.
_IN_PLACE_ONLY = (("not_attacking", "not attacking"), ("not_giving_check", "not giving check"), ("condition", "if"))
_NOT_IN_PLACE = (("optional", "optional"), ("leaving", "also leaving"), ("on_capture_into", "on capture into"),
                 ("partner_pieces", "partner pieces"))


def check_promotion_options(promo: S.PromotionSpec) -> None:
    """A located error for an option that needs ``in place`` on a line without it, or one that has no
    meaning with it (such a promotion is always a choice, made where the piece stands)."""
    for field, words in _IN_PLACE_ONLY:
        if promo.in_place is None and getattr(promo, field) not in (None, False):
            raise RulesSemanticError(f"'{words}' is an option of a promotion made as a move of its own",
                                     promo.loc, expected="'in place' among the options of this line",
                                     hint="a promotion on arrival takes no such condition")
    for field, words in _NOT_IN_PLACE:
        if promo.in_place is not None and getattr(promo, field) not in (None, False):
            raise RulesSemanticError(f"'{words}' has no meaning for a promotion 'in place'", promo.loc,
                                     expected="limit PIECE to N, not attacking, not giving check or if EXPR",
                                     hint="a promotion in place is always a choice, made where the piece stands")


def in_place_promotion(game: "Game", promo: S.PromotionSpec, army_name: str, targets: tuple[int, ...]) -> InPlacePromotion:
    """The compiled ``in place`` line ``promo`` for the army ``army_name``, to the codes ``targets``."""
    return InPlacePromotion(frozenset(game.board.term(promo.cells, army_name)), targets, promo.in_place == "moving",
                            promo.not_attacking, promo.not_giving_check, _condition(game, promo), promo)


def relinked(game: "Game", line: InPlacePromotion) -> InPlacePromotion:
    """``line`` with its ``if`` compiled again for ``game`` (a stored line keeps none)."""
    return replace(line, condition=_condition(game, line.source))


def _condition(game: "Game", promo: S.PromotionSpec) -> Callable | None:
    """The compiled ``if`` of the in-place line ``promo``, or None."""
    if promo.condition is None:
        return None
    return compile_cell_condition(game, promo.condition, "a promotion in place has no start cell")[1]
