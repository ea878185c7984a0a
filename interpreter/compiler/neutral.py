"""Neutral pieces and the ``then move`` phase of a turn, compiled (Duck chess).

A piece declared ``neutral`` belongs to no army: it gets one code of its
own, appended after every army's codes, whose army index is
``len(game.armies)`` (:attr:`Game.neutral_army`): no army's ``hostile``
row marks it, so it blocks every move as an own piece would (a leaper may
jump over it) and is never captured; it has no moves, is not royal and is
written in FEN with its letter exactly as declared (``*``, as
Fairy-Stockfish writes its duck). The per-army codes that every kind has are
never used for a neutral kind (they have no FEN symbol).

``then move PIECE to an empty cell`` makes every move a move in two parts:
the mover's move, then the neutral piece of that kind to another empty
cell (placed on any empty cell while none stands on the board). The moves
themselves are made by :mod:`interpreter.engine.neutral`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

if TYPE_CHECKING:
    from .game import Game

# Characters that FEN itself uses, which a neutral piece's symbol may not be.
FEN_RESERVED = frozenset("/,()[]~>+-0123456789 ")


def neutral_letter_ok(letter: str) -> bool:
    """May ``letter`` be the FEN symbol of a neutral piece (one character FEN does not use)?"""
    return len(letter) == 1 and letter not in FEN_RESERVED and letter.isprintable()


def add_neutral_codes(game: "Game", spec: S.VariantSpec, ncodes: int) -> int:
    """Give each neutral kind its code (kind tables ``code_kind``, ``code_army``, ``code_facing``
    grow by one each); set ``game.neutral_army`` and ``game.neutral_codes`` (kind -> code).
    Returns the new number of codes."""
    game.neutral_army = len(game.armies)
    game.neutral_codes = {}
    game.army_sets = len(game.armies) + any(k.spec.neutral for k in game.kinds)  # positions' cells_of
    for kind in game.kinds:
        piece = kind.spec
        if not piece.neutral:
            continue
        if piece.royal:
            raise RulesSemanticError(f"the neutral piece {piece.name} cannot be royal", piece.loc,
                                     hint="a neutral piece belongs to no army; leave out 'royal'")
        if piece.moves or piece.promotions:
            raise RulesSemanticError(f"the neutral piece {piece.name} cannot have moves or promotions",
                                     (piece.moves or piece.promotions)[0].loc,
                                     hint="only a 'then move' rule of the rules block moves a neutral piece")
        game.neutral_codes[kind.index] = ncodes
        game.code_kind.append(kind.index)
        game.code_army.append(game.neutral_army)
        game.code_facing.append(None)
        ncodes += 1
    neutral_names = {k.name for k in game.kinds if k.spec.neutral}
    for piece in spec.pieces.values():
        for promotion in piece.promotions:
            for target in promotion.to:
                if target in neutral_names:
                    raise RulesSemanticError(f"a piece cannot promote to the neutral piece {target}",
                                             promotion.locs.get(target, promotion.loc))
    for place in spec.setup.places:
        if place.piece in neutral_names:
            raise RulesSemanticError(f"the neutral piece {place.piece} belongs to no army", place.loc,
                                     hint="place it with the setup's FEN, or let a 'then move' rule place it")
    return ncodes


def compile_neutral_move(game: "Game", spec: S.VariantSpec) -> None:
    """Set ``game.neutral_move``: the code of the neutral piece every move ends by moving, or None.
    Neutral pieces are never captured, so no explosion takes them either (``blast_spares``)."""
    for code in game.neutral_codes.values():
        game.blast_spares[code] = True
    rules = spec.rules
    game.neutral_move = None
    if rules.neutral_move is None:
        return
    loc = rules.locs.get("neutral_move")
    name = rules.neutral_move
    if name not in game.kind_index:
        raise unknown_name("piece", name, game.kind_index, loc)
    kind = game.kind_index[name]
    if kind not in game.neutral_codes:
        raise RulesSemanticError(f"{name} is not a neutral piece", loc,
                                 hint=f"declare it with 'neutral' in 'piece {name} {{ ... }}'")
    if game.stacking is not None:
        raise UnsupportedError("a 'then move' rule in a game with stacks is not run by the interpreter", loc)
    for rule in ("self-check", "giving-check", "partner-check"):
        if rule in rules.forbid:
            # Whether a move leaves a check would depend on where the neutral piece goes next.
            raise UnsupportedError(f"a 'then move' rule together with 'forbid {rule}' is not run by the "
                                   "interpreter", loc, hint=f"add 'forget forbid {rule}' (Duck chess has no check)")
    game.neutral_move = game.neutral_codes[kind]
