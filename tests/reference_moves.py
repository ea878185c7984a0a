"""The engine's moves in the notation of the independent references of tests/oracles.

The references (Raumschach, McCooey's hexagonal chess) write a move as its from-cell, its to-cell
and the letter of the piece it promotes to, if any (``Da4Ea5Q``, ``f4f5``): the differential tests
compare the two generators' sets of moves in that form.
"""

from __future__ import annotations


def written(pos, move) -> str:
    """``move`` of ``pos`` in the references' notation."""
    game = pos.game
    frm, to, promo, _ = move
    return game.board.names[frm] + game.board.names[to] + (game.kinds[game.code_kind[promo]].letter if promo else "")
