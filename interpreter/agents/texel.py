"""Texel's method: the evaluation's weights fitted to the results of games.

Each position comes with its terms (:mod:`.terms`: what each weight
multiplies, for the side to move's team) and the game's result for that
team, ``r``: 1 won, 1/2 drawn, 0 lost. The evaluation with weights ``w``
predicts the result ``sigmoid(K * e)``, ``e`` its score in centipawns; the
fit minimises the mean squared difference between results and predictions
(Peter Österlund's method for his engine Texel), in two steps:

1. ``K`` with the start weights (:func:`fit_scale`): how much a centipawn is
   worth in these games. A golden-section search on ``log K``, for
   ``K`` between :data:`K_RANGE`;
2. the weights with that ``K`` (:func:`fit_weights`): damped Gauss-Newton
   (Levenberg-Marquardt) iterations, at most ``iterations``, each weight
   kept within :data:`BOUNDS`, with a small pull toward the start weights
   (:data:`RIDGE` times the squared distance is added to the error) so that
   a weight the positions hardly inform stays near where it was. A weight
   whose term is nonzero in too few positions (:func:`silent`: no goal zone
   in chess, no hand without drops, a royal piece lost in none of them) is
   not fitted at all and keeps its start value;
3. how sure the weights are (:func:`bootstrap`): fitted again, with the
   same ``K``, to resamples of the games, each weight's 95% interval. The
   positions of one game are far from independent, so the games are
   resampled, not the positions.

``K`` is fitted first because the two are not separable: multiplying every
weight by ``c`` and dividing ``K`` by ``c`` predicts the same results, so
only with ``K`` held fixed do the weights have one best value.

numpy does the arithmetic; :func:`fit` takes arrays of terms (positions by
:data:`~.terms.NAMES`) and results, and refuses, with a
:class:`dsl.UsageError`, positions from which nothing can be fitted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dsl import UsageError

from .terms import NAMES

K_RANGE = (1e-6, 1.0)
"""The search range of K, per centipawn (a pawn ahead predicting from 0.500025 to 1 - 4e-44)."""
BOUNDS = (0.0, 10.0)
"""The range of a fitted weight: a negative weight would reward the opposite of what its term
measures, which a noisy sample suggests more often than the game does."""
RIDGE = 1e-5
"""The pull toward the start weights: added to the mean squared error per squared unit of distance."""
ITERATIONS = 200
"""The most iterations of the weights' fit (each a solve of a 6 x 6 system over every position)."""
TOLERANCE = 1e-9
"""The fit stops when an iteration lowers the error by less than this share of it."""
MIN_POSITIONS = 20
"""Fewer positions than this are refused: nothing could be told from them."""
ROUNDS = 100
"""The resamples of the games that give each weight's interval."""
MIN_GAMES = 10
"""The fewest games whose resamples give intervals."""
MIN_SIGNAL = 0.01
"""A weight is fitted when its term is nonzero (a centipawn or more) in at least this share of the
positions, and in at least 10 of them."""

HAND, MATERIAL = NAMES.index("hand"), NAMES.index("material")


@dataclass(frozen=True)
class Fit:
    """What :func:`fit` found: ``k`` (per centipawn), the ``start`` and fitted ``weights`` (every name
    of :data:`~.terms.NAMES`), the names left ``fixed`` (silent terms), each weight's 95%
    ``intervals`` by resampling the games (None without the games), the mean squared ``error``
    before and after on the fitted positions, the same on the ``held_out`` positions (None without
    them), the numbers of positions, and the iterations the weights took."""

    k: float
    start: dict[str, float]
    weights: dict[str, float]
    fixed: tuple[str, ...]
    intervals: dict[str, tuple[float, float]] | None
    error_start: float
    error: float
    held_out_start: float | None
    held_out_error: float | None
    positions: int
    held_out_positions: int
    iterations: int


def sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)), without overflow for large ``|x|``."""
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def coefficient_vector(w: np.ndarray) -> np.ndarray:
    """What each term is multiplied by under the weights ``w`` (in the order of NAMES):
    :func:`~.terms.coefficients` for arrays."""
    c = w.copy()
    c[HAND] *= w[MATERIAL]
    return c



def error(terms: np.ndarray, results: np.ndarray, weights: np.ndarray, k: float) -> float:
    """The mean squared difference between ``results`` and the predictions of ``weights`` at ``k``."""
    return float(np.mean((results - sigmoid(k * (terms @ coefficient_vector(weights)))) ** 2))


def fit_scale(scores: np.ndarray, results: np.ndarray, steps: int = 100) -> float:
    """The K (per centipawn, within :data:`K_RANGE`) that best predicts ``results`` from ``scores``
    by ``sigmoid(K * score)``: a golden-section search on ``log K`` (the error is assumed to have
    one minimum there). When draws alone are nearest, that is K's lower end."""
    def cost(log_k: float) -> float:
        return float(np.mean((results - sigmoid(math.exp(log_k) * scores)) ** 2))
    low, high = math.log(K_RANGE[0]), math.log(K_RANGE[1])
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    cost_a, cost_b = cost(a), cost(b)
    for _ in range(steps):
        if cost_a <= cost_b:
            high, b, cost_b = b, a, cost_a
            a = high - ratio * (high - low)
            cost_a = cost(a)
        else:
            low, a, cost_a = a, b, cost_b
            b = low + ratio * (high - low)
            cost_b = cost(b)
    return math.exp((low + high) / 2)


def fit_weights(terms: np.ndarray, results: np.ndarray, k: float, start: np.ndarray, free: np.ndarray,
                iterations: int = ITERATIONS, ridge: float = RIDGE) -> tuple[np.ndarray, int]:
    """The weights (an array in the order of NAMES) that minimise the mean squared error of
    ``sigmoid(k * score)`` plus ``ridge`` times the squared distance from ``start``; only the
    weights where ``free`` is true move, each within :data:`BOUNDS`. Returns them and the
    iterations done: at most ``iterations``, fewer once a step gains less than :data:`TOLERANCE`
    of the error or none can gain.

    Each iteration solves the damped Gauss-Newton system for the free weights that are not held at
    a bound by their gradient (a weight at 0 that would go lower stays there for that step)."""
    n = len(results)
    w = start.astype(float).copy()
    current, damping = _objective(terms, results, k, w, start, ridge), 1e-3
    done = 0
    while done < iterations:
        done += 1
        predicted = sigmoid(k * (terms @ coefficient_vector(w)))
        # d score / d w: each term, but the hand term's factor is hand * material
        slopes = terms.copy()
        slopes[:, MATERIAL] += w[HAND] * terms[:, HAND]
        slopes[:, HAND] = w[MATERIAL] * terms[:, HAND]
        jacobian = (k * predicted * (1 - predicted))[:, None] * slopes   # d prediction / d w
        gradient = -2 / n * jacobian.T @ (results - predicted) + 2 * ridge * (w - start)
        held = ((w <= BOUNDS[0]) & (gradient > 0)) | ((w >= BOUNDS[1]) & (gradient < 0))
        index = np.flatnonzero(free & ~held)
        if not len(index):
            break
        jacobian, gradient = jacobian[:, index], gradient[index]
        hessian = 2 / n * jacobian.T @ jacobian + 2 * ridge * np.eye(len(index))
        gain = 0.0
        while damping < 1e12 and not gain:
            step = np.linalg.lstsq(hessian + damping * np.diag(np.diag(hessian) + 1e-12), -gradient, rcond=None)[0]
            trial = w.copy()
            trial[index] = np.clip(w[index] + step, *BOUNDS)
            value = _objective(terms, results, k, trial, start, ridge)
            if value < current:
                gain = current - value
                w, current, damping = trial, value, max(damping / 3, 1e-9)
            else:
                damping *= 4
        if gain < TOLERANCE * current:
            break
    return w, done


def _objective(terms: np.ndarray, results: np.ndarray, k: float, w: np.ndarray, start: np.ndarray,
               ridge: float) -> float:
    """What :func:`fit_weights` minimises: the error plus the pull toward the start weights."""
    return error(terms, results, w, k) + ridge * float(np.sum((w - start) ** 2))


def silent(terms: np.ndarray) -> np.ndarray:
    """Per term: is it nonzero (a centipawn or more) in too few positions to be fitted (see
    :data:`MIN_SIGNAL`)?"""
    nonzero = np.sum(np.abs(terms) >= 1.0, axis=0)
    return nonzero < max(10, MIN_SIGNAL * len(terms))


def fit(terms: np.ndarray, results: np.ndarray, start: dict[str, float], games: np.ndarray | None = None,
        held_out_terms: np.ndarray | None = None, held_out_results: np.ndarray | None = None,
        iterations: int = ITERATIONS) -> Fit:
    """Texel's fit of the weights (see the module's docstring) to ``terms`` (an array of positions by
    NAMES) and ``results`` (one per position, 0 to 1), from the ``start`` weights; with ``games``
    (the game of each position), the weights' intervals by resampling the games (:func:`bootstrap`),
    and the errors on the ``held_out`` positions, if any, beside. A UsageError when there are fewer
    than :data:`MIN_POSITIONS` positions, when every result is the same (a fit needs games that went
    different ways), when the start weights' scores are all 0, or when K ends at an end of
    :data:`K_RANGE` (the results do not depend on the score, or it predicts every one of them)."""
    if len(results) < MIN_POSITIONS:
        raise UsageError(f"only {len(results)} positions to fit the weights to", expected=f"at least {MIN_POSITIONS}",
                         hint="play more games (--games), or longer ones")
    if np.all(results == results[0]):
        what = {1.0: "won", 0.5: "drawn", 0.0: "lost"}.get(float(results[0]), "alike")
        raise UsageError(f"every position is of a game its side to move {what}: the results tell nothing apart",
                         hint="play more games, or with a budget that decides more of them (--seat)")
    first = np.array([start[name] for name in NAMES], dtype=float)
    scores = terms @ coefficient_vector(first)
    if not np.any(scores):
        raise UsageError("the evaluation scores every position 0 with the start weights: nothing to fit")
    k = fit_scale(scores, results)
    if not K_RANGE[0] * 1.01 < k < K_RANGE[1] / 1.01:
        raise UsageError("the results do not depend on the score in these games" if k < K_RANGE[0] * 1.01 else
                         "the side ahead by the evaluation won every game: nothing tells the weights apart",
                         hint="fit to games between agents of equal strength (self-play), which any term "
                              "can decide")
    fixed = silent(terms)
    weights, done = fit_weights(terms, results, k, first, ~fixed, iterations)
    spread = None
    if games is not None and len(np.unique(games)) >= MIN_GAMES:
        spread = bootstrap(terms, results, games, k, first, ~fixed, iterations)
    held = held_out_terms is not None and held_out_results is not None and len(held_out_results) > 0
    return Fit(k, dict(start), {name: float(v) for name, v in zip(NAMES, weights)},
               tuple(name for name, f in zip(NAMES, fixed) if f),
               None if spread is None else {name: (float(low), float(high)) for name, (low, high) in zip(NAMES, spread)},
               error(terms, results, first, k), error(terms, results, weights, k),
               error(held_out_terms, held_out_results, first, k) if held else None,
               error(held_out_terms, held_out_results, weights, k) if held else None,
               len(results), len(held_out_results) if held else 0, done)


def bootstrap(terms: np.ndarray, results: np.ndarray, games: np.ndarray, k: float, start: np.ndarray,
              free: np.ndarray, iterations: int = ITERATIONS, rounds: int = ROUNDS) -> np.ndarray:
    """Each weight's 95% interval (an array of (low, high) in the order of NAMES): the weights fitted
    again, K fixed, to ``rounds`` samples of the games drawn with replacement (a game with all its
    positions, since the positions of one game are not independent), from a fixed seed; the 2.5th
    and 97.5th percentiles."""
    rng = np.random.default_rng(0)
    order = np.argsort(games, kind="stable")
    _, first_rows = np.unique(games[order], return_index=True)
    rows_of = np.split(order, first_rows[1:])
    found = []
    for _ in range(rounds):
        rows = np.concatenate([rows_of[i] for i in rng.integers(0, len(rows_of), len(rows_of))])
        found.append(fit_weights(terms[rows], results[rows], k, start, free, iterations)[0])
    return np.percentile(np.array(found), [2.5, 97.5], axis=0).T
