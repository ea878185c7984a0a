"""The evaluation taken apart: per position and team, what each weight of the ``ai`` block multiplies.

The evaluation (:mod:`.evaluation`) is linear in each of its weights
(``dsl.spec.AI_WEIGHTS``) but one: a piece in hand is worth ``hand``
times ``material`` times its value. So for a team in a position, with
the terms ``t`` that :meth:`Terms.of` gives, the evaluation with weights
``w`` is::

    sum(w[name] * t[name] for every name but hand) + w["hand"] * w["material"] * t["hand"]

(:func:`coefficients` gives the factor of each term). Each term is computed by the evaluation
itself, built with its weight 1 and every other weight 0 (``hand``: with
``material`` and ``hand`` 1, less ``material`` alone), so nothing of the
evaluation is written twice here. What differs is rounding: the evaluation
rounds each entry of its tables to a centipawn, so a score put together
from the terms may differ from ``Evaluation(game, w).relative(pos, team)``
by up to about half a centipawn per piece and term (more where a weight is
far above 1). A team's term is its own armies' total minus the mean total
of the other teams, as :meth:`~.evaluation.Evaluation.relative` counts,
without its rounding down.
"""

from __future__ import annotations

from collections.abc import Mapping

from dsl.spec import AI_WEIGHTS

from .evaluation import Evaluation

NAMES = tuple(AI_WEIGHTS)
"""The weights, in the order of the terms of :meth:`Terms.of`."""


def coefficients(weights: Mapping[str, float]) -> list[float]:
    """What each term of :meth:`Terms.of` is multiplied by under ``weights`` (every name of
    :data:`NAMES`): the weight itself, but ``hand`` times ``material`` for ``hand``."""
    return [weights[name] * (weights["material"] if name == "hand" else 1.0) for name in NAMES]


class Terms:
    """The terms of one compiled game's evaluation (building it builds six evaluations of the game)."""

    def __init__(self, game) -> None:
        self.game = game
        self.alone = {name: Evaluation(game, _only(name)) for name in NAMES if name != "hand"}
        self.with_hand = Evaluation(game, {**_only("material"), "hand": 1.0})   # material and hand
        sides = self.alone["material"].sides
        self.team_of, self.teams = sides.team_of, sides.count

    def of(self, pos, team: int) -> list[float]:
        """The terms of ``team`` (as :class:`~.sides.Sides` numbers teams) in ``pos``, in the order of
        :data:`NAMES`, in centipawns."""
        totals = {name: self._teams(evaluation, pos) for name, evaluation in self.alone.items()}
        totals["hand"] = [a - b for a, b in zip(self._teams(self.with_hand, pos), totals["material"])]
        others = self.teams - 1
        return [totals[name][team] - (sum(totals[name]) - totals[name][team]) / others if others
                else totals[name][team] for name in NAMES]

    def _teams(self, evaluation: Evaluation, pos) -> list[float]:
        """Every team's total of the armies' scores by ``evaluation``."""
        totals = [0.0] * self.teams
        for army, score in enumerate(evaluation.army_scores(pos)):
            totals[self.team_of[army]] += score
        return totals


def _only(name: str) -> dict[str, float]:
    """Weights that keep the term ``name`` alone."""
    return {other: float(other == name) for other in NAMES}
