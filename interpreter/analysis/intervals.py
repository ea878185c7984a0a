"""95% intervals of the metrics: of a rate (Wilson), a score with draws, a mean, and of balance.

- A **rate** (``k`` games of ``n`` had some property: completion, a win
  of a seat, an end rule) gets Wilson's score interval, which stays inside
  [0, 1] and is not absurdly narrow after a few games that all went one way.
- A **score** (points per game, a draw 1/2: the first seat's advantage)
  gets the agents' interval for match scores,
  :func:`~interpreter.agents.stats.score_interval` (Wilson's, with the
  points' sample variance, so that draws narrow it).
- A **mean** of per-game values (plies, branching factor, or a per-game
  share such as decision moves) gets the normal interval
  ``mean +- 1.96 s / sqrt(n)`` (``s`` the sample standard deviation),
  clipped to [0, 1] for shares; one game gives no interval.
- **Balance**, a function of every seat's win rate at once, gets a
  percentile bootstrap: the games' outcomes are resampled
  (:data:`BOOTSTRAP` times, multinomially over the distinct outcomes, with
  a fixed seed so that the same results give the same interval).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from interpreter.agents.stats import Z95, score_interval

BOOTSTRAP = 2000
BOOTSTRAP_SEED = 18


@dataclass(frozen=True)
class Estimate:
    """A metric's ``value`` over ``n`` observations (games, plies) and its 95% interval (``low``,
    ``high``; None when the observations cannot give one)."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict:
        return {"value": _round(self.value), "low": _round(self.low), "high": _round(self.high), "n": self.n}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def rate(k: int, n: int) -> Estimate:
    """``k`` of ``n`` with Wilson's 95% score interval; no value when ``n`` is 0."""
    if n == 0:
        return Estimate(None, None, None, 0)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def score(points: Sequence[float]) -> Estimate:
    """The mean points per game (1 a win, 1/2 a draw, 0 a loss) and its 95% interval."""
    if not points:
        return Estimate(None, None, None, 0)
    mean, low, high = score_interval(list(points))
    return Estimate(mean, low, high, len(points))


def mean(values: Sequence[float], share: bool = False) -> Estimate:
    """The mean of ``values`` with the normal 95% interval (clipped to [0, 1] when ``share``)."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    centre = statistics.fmean(values)
    if n == 1:
        return Estimate(centre, None, None, 1)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    low, high = centre - half, centre + half
    if share:
        low, high = max(0.0, low), min(1.0, high)
    return Estimate(centre, low, high, n)


def bootstrap(outcomes: Sequence[Hashable], statistic: Callable[[Counter], float]) -> Estimate:
    """``statistic`` of the outcome counts, with a percentile bootstrap 95% interval: the counts are
    redrawn multinomially (as many games as there are, each outcome as often as observed)."""
    import numpy

    n = len(outcomes)
    counts = Counter(outcomes)
    value = statistic(counts)
    if n < 2 or len(counts) < 2:
        return Estimate(value, value if n >= 2 else None, value if n >= 2 else None, n)
    kinds = list(counts)
    draws = numpy.random.default_rng(BOOTSTRAP_SEED).multinomial(n, [counts[k] / n for k in kinds], size=BOOTSTRAP)
    values = sorted(statistic(Counter(dict(zip(kinds, row.tolist())))) for row in draws)
    return Estimate(value, values[int(0.025 * BOOTSTRAP)], values[int(0.975 * BOOTSTRAP) - 1], n)
