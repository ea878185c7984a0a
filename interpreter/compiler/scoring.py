"""Points, scores and armies out of the game, compiled (``points``, ``eliminate``, the ``score`` result).

A game *scores* when its rules file gives ``points`` or puts armies out of
the game (``when no moves: eliminate``, ``when resigning: eliminate``) or
ends with the result ``score``. Its positions then keep a score per army
and the set of armies that are out (see :mod:`interpreter.engine.scoring`):

- ``points_of[code]``: what capturing a piece of that code scores (0 for the
  kinds ``points`` does not name); a piece of an army that is out scores 0;
- ``mate_points`` and ``stalemate_points``: what putting an army out scores
  (``points checkmate N``, ``points stalemate N``), in check or not;
- ``z_score[army][score]``: Zobrist keys of the scores, the last key shared by
  every score from :data:`SCORE_KEYS` up (and by negative ones: none arise);
  ``z_out[army]``: the key of an army that is out (both made with the
  game's other Zobrist keys, by ``Game._zobrist``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import unknown_name

if TYPE_CHECKING:
    from .game import Game

EVENTS = ("checkmate", "stalemate")
"""The names ``points`` gives that are not piece kinds: putting an army out in check, or not."""
SCORE_KEYS = 1024
"""Scores with keys of their own in the hash (higher scores share the last key)."""


def compile_scoring(game: "Game", rules: S.RulesSpec) -> None:
    """Set the scoring tables of ``game`` (see the module docstring) from its ``rules``."""
    for name in rules.points:
        if name not in EVENTS and name not in game.kind_index:
            raise unknown_name("piece", name, [*game.kind_index, *EVENTS], rules.locs.get(f"points.{name}"))
    game.points_of = [0] * game.ncodes
    for name, value in rules.points.items():
        if name in game.kind_index:
            for code in game.codes_of_kind(game.kind_index[name]):
                game.points_of[code] = value
    game.mate_points = rules.points.get("checkmate", 0)
    game.stalemate_points = rules.points.get("stalemate", 0)
    game.eliminates = any(rule.action == "eliminate" for rule in rules.no_moves) or rules.resign == "eliminate"
    game.scoring = bool(rules.points) or game.eliminates or any(rule.result == "score" for rule in rules.ends)
    game.scores_captures = any(game.points_of)
