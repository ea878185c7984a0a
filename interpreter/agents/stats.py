"""Match statistics: Elo difference with a 95% interval, and the SPRT's log-likelihood ratio.

The Elo difference of a score fraction ``s`` is ``-400 log10(1/s - 1)``.
Its interval is Wilson's score interval for the mean points per game, with
the sample variance of the per-game points in place of ``s(1 - s)`` (so
that draws narrow it), each end turned into Elo; unlike ``s +- 1.96 sd``
it stays wide after a few games that all went one way. A score of 0 or 1
has no finite Elo: the estimate is clamped to half a game from the edge
(``0.5 / (n + 1)``), so the numbers stay finite and say how little the games
can tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (a fraction strictly between 0 and 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected(elo_difference: float) -> float:
    """The expected score of a player ``elo_difference`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo_difference / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference from ``games`` results, with its 95% interval (``low``, ``high``)."""

    games: int
    score: float          # the mean points per game
    difference: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{_signed(self.difference)} [{_signed(self.low)}, {_signed(self.high)}]"


def _signed(value: float) -> str:
    return f"{round(value) or 0:+d}"


def score_interval(points: list[float]) -> tuple[float, float, float]:
    """The mean of per-game points (each between 0 and 1; a draw is 1/2) and its 95% interval
    ``(mean, low, high)``: Wilson's score interval with the sample variance of the points in place
    of ``s(1 - s)`` (a 0/1 variance of 1/4 for a single game). The ends stay within [0, 1].
    ``points`` must not be empty."""
    n = len(points)
    mean = sum(points) / n
    variance = sum((p - mean) ** 2 for p in points) / (n - 1) if n > 1 else 0.25
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(variance / n + z2 / (4 * n * n))
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def estimate(points: list[float]) -> EloEstimate | None:
    """The Elo estimate of one player from its points per game (1, 0.5, 0); None without games."""
    n = len(points)
    if n == 0:
        return None
    mean, low, high = score_interval(points)
    edge = 0.5 / (n + 1)

    def clamp(s: float) -> float:
        return min(max(s, edge), 1.0 - edge)

    return EloEstimate(n, mean, elo(clamp(mean)), elo(clamp(low)), elo(clamp(high)))


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The generalised SPRT's log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``), from
    a trinomial result (the normal approximation used by Fishtest). Accept H1 when it exceeds
    ``log((1 - beta) / alpha)`` (2.94 for alpha = beta = 0.05), H0 below ``log(beta / (1 - alpha))``."""
    n = wins + draws + losses
    if n == 0 or wins == n or losses == n:
        return 0.0
    score = (wins + 0.5 * draws) / n
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    if variance <= 0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return (s1 - s0) * (2 * score - s0 - s1) * n / (2 * variance)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The (lower, upper) LLR bounds of an SPRT with error rates ``alpha`` and ``beta``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
