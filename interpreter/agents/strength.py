"""Playing strength in Elo: what a level such as ``level=1200`` limits, and the named levels' Elo.

A level of strength is a number of nodes a move and a noise added to the
evaluation (centipawns, fixed per position: see
:meth:`interpreter.agents.search.Searcher.evaluate`): the fewer nodes, the
less the agent sees; the more noise, the more often it prefers a worse
move. :data:`ELO_LEVELS` is the calibration: its rows were measured in
chess against Stockfish 15.1 with ``UCI_LimitStrength`` at 1 s a move
(``bench/stockfish_match.py --agent ai:level=ELO``; the table in
docs/agents.md), the top two extrapolated; between two rows the nodes are
interpolated geometrically and the noise linearly.

Node counts make a level the same on every machine (a time limit would
not), so a level's games can be replayed. In games other than chess the
same level is the same search effort, not the same Elo.
"""

from __future__ import annotations

import math

from .base import Budget

# (Elo, nodes a move, noise in centipawns), by Elo: the calibration (docs/agents.md). Measured against
# Stockfish 15.1's UCI_Elo at 1 s a move, 20 games a row (at 828dfbe): 2,000 nodes with a noise of 50 played at
# about 1385, 4,000 with 30 at 1570, 10,000 with 15 at 1600, 40,000 without noise at 1711 (intervals of about
# +-150); the rows below 1400 come from an earlier run against Stockfish at 0.1 s a move (1,200 nodes with 70 at
# about 1160); the 1800 and 2000 rows are extrapolated from the measured ones, about 67 Elo per doubling of the
# nodes.
ELO_LEVELS: tuple[tuple[int, int, int], ...] = (
    (800, 150, 200),
    (1000, 400, 120),
    (1200, 1_200, 70),
    (1400, 2_000, 50),
    (1600, 4_000, 30),
    (1700, 40_000, 0),
    (1800, 100_000, 0),
    (2000, 800_000, 0),
)
MIN_ELO, MAX_ELO = ELO_LEVELS[0][0], ELO_LEVELS[-1][0]
# The named levels' approximate Elo in chess, against Stockfish 15.1 at 1 s a move (docs/agents.md,
# bench/README.md): medium (1 s a move) scored 17/86 against UCI_Elo 2000 (at 79311b1), about 1757
# [1672, 1844], and at 2a35507 about 1764 [1678, 1850] by a logistic fit over 40 games against each of
# 1600, 2000 and 2400; hard (5 s a move) 15.5/40 against 2000 (at 79311b1), about 1920 [1812, 2029];
# easy's two plies are a few hundred nodes (the 1000 row).
NAMED_ELO = {"easy": 1000, "medium": 1750, "hard": 1900}


def elo_limits(elo: int) -> tuple[int, int]:
    """The nodes a move and the noise (centipawns) of a level of ``elo`` (between :data:`MIN_ELO`
    and :data:`MAX_ELO`; a caller clamps or refuses numbers outside)."""
    if not MIN_ELO <= elo <= MAX_ELO:
        raise ValueError(f"a level of {elo} Elo is outside {MIN_ELO}-{MAX_ELO}")
    for (low, low_nodes, low_noise), (high, high_nodes, high_noise) in zip(ELO_LEVELS, ELO_LEVELS[1:]):
        if low <= elo <= high:
            share = (elo - low) / (high - low)
            nodes = math.exp(math.log(low_nodes) + share * (math.log(high_nodes) - math.log(low_nodes)))
            return round(nodes), round(low_noise + share * (high_noise - low_noise))
    return ELO_LEVELS[-1][1], ELO_LEVELS[-1][2]


def elo_budget(elo: int) -> Budget:
    """The budget of a level of ``elo``: its nodes a move."""
    return Budget(nodes=elo_limits(elo)[0])
