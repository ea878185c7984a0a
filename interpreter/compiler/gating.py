"""The ``gate`` rules of the ``drops`` block, compiled: where pieces in hand may enter by gating.

``gate Hawk, Elephant in rank 1`` (Seirawan chess): when a piece leaves one
of the cells of the term (for a per-army zone, of its own army) on its
first move, a piece in hand of one of the listed kinds may enter on that
cell as part of the move. A cell keeps its right to be gated on while
nothing has moved from or to it, which is what the position's ``unmoved``
mask records for the pieces standing there (so every piece that starts on
a gate cell is tracked); a castling may gate on the king's or the rook's
cell. The moves themselves are made by
:func:`interpreter.engine.gating.with_gates`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import UnsupportedError, unknown_name

if TYPE_CHECKING:
    from .game import Game


def compile_gating(game: "Game", drops: S.DropsSpec | None) -> None:
    """Set ``game.gates`` (per army: cell -> the codes that may be gated there, in rule order) and
    ``game.gating``; ``game.has_hands`` is set too (drops or gating keep pieces in hand)."""
    game.gates = [{} for _ in game.armies]
    rules = drops.gates if drops is not None else []
    for rule in rules:
        if game.stacking is not None:
            raise UnsupportedError("gating in a stacking game is not run by the interpreter", rule.loc)
        for name in rule.pieces:
            if name not in game.kind_index:
                raise unknown_name("piece", name, game.kind_index, rule.locs.get(name, rule.loc))
        for army in game.armies:
            codes = tuple(game.code(game.kind_index[name], army.index) for name in rule.pieces)
            for cell in game.board.term(rule.cells, army.name):
                known = game.gates[army.index].get(cell, ())
                game.gates[army.index][cell] = known + tuple(c for c in codes if c not in known)
    game.gating = bool(rules)
    game.gate_mask = sum(1 << cell for gates in game.gates for cell in gates)
    game.has_hands = game.has_drops or game.gating
