"""A game's traditional notations: which its ``notation`` declaration gives, and a move written in each.

SAN stays the notation of records and of what the program reads; the notations here are a
display choice beside it (the move list of ``rules serve``). ``notation wxf`` gives one,
``wxf`` (:mod:`.wxf`); ``notation shogi`` gives two, ``western`` and ``japanese``
(:mod:`.shogi_notation`); ``notation san``, or no declaration, gives none.
"""

from __future__ import annotations

from interpreter.compiler.game import Game
from interpreter.engine.moves import Move
from interpreter.engine.position import Position

from .shogi_notation import move_to_japanese, move_to_western
from .wxf import move_to_wxf

STYLES: dict[str, tuple[tuple[str, str], ...]] = {
    "wxf": (("wxf", "WXF"),),
    "shogi": (("western", "Western"), ("japanese", "Japanese")),
}
"""By ``notation`` declaration: its notations, each as (key, title)."""


def notations(game: Game) -> tuple[tuple[str, str], ...]:
    """The traditional notations of ``game``, each as (key, title); none for a game without."""
    return STYLES.get(game.spec.notation or "san", ())


def traditional_texts(pos: Position, move: Move, legal: list[Move], previous: Move | None = None) -> dict[str, str]:
    """The legal ``move`` of ``pos`` in each traditional notation of its game, by key (empty for a game
    without); ``legal``: the legal moves of ``pos``; ``previous``: the move played just before (the
    Japanese notation writes a move to the same square ``同``), None at the start."""
    style = pos.game.spec.notation
    if style == "wxf":
        return {"wxf": move_to_wxf(pos, move, legal)}
    if style == "shogi":
        return {"western": move_to_western(pos, move, legal), "japanese": move_to_japanese(pos, move, legal, previous)}
    return {}
