"""Playing strength in Elo: what a level such as ``level=1200`` limits, and the named levels' Elo.

A level of strength is a number of nodes a move and a noise added to the
evaluation (centipawns, fixed per position: see
:meth:`interpreter.agents.search.Searcher.evaluate`): the fewer nodes, the
less the agent sees; the more noise, the more often it prefers a worse
move. :data:`ELO_LEVELS` is the calibration: each row was measured in
chess against Stockfish 15.1 with ``UCI_LimitStrength`` (see
``bench/calibrate_levels.py`` and the table in docs/agents.md); between two
rows the nodes are interpolated geometrically and the noise linearly.

Node counts make a level the same on every machine (a time limit would
not), so a level's games can be replayed. In games other than chess the
same level is the same search effort, not the same Elo.
"""

from __future__ import annotations

import math

from .base import Budget

# (Elo, nodes a move, noise in centipawns), by Elo: the calibration (docs/agents.md). Measured against
# Stockfish's UCI_Elo: 1,000 to 1,200 nodes with a noise of 70 to 80 played at about 1160, 100 nodes
# with 250 below 1150, 10,000 nodes with 15 won every game against 1600 and 1350; the rows between
# are interpolated, the top one extrapolated (four times the nodes for 200 Elo).
ELO_LEVELS: tuple[tuple[int, int, int], ...] = (
    (800, 150, 200),
    (1000, 400, 120),
    (1200, 1_200, 70),
    (1400, 2_000, 50),
    (1600, 4_000, 30),
    (1800, 10_000, 15),
    (2000, 40_000, 0),
)
MIN_ELO, MAX_ELO = ELO_LEVELS[0][0], ELO_LEVELS[-1][0]
# The named levels' approximate Elo in chess. medium (1 s a move) was measured against Stockfish 15.1 at
# UCI_Elo 1800 and 1 s a move, 40 games each, another job on the other core: 1653 [1536, 1769] before the
# evaluation's activity term, 1756 [1650, 1863] with it (bench/README.md); easy's two plies are a few
# hundred nodes (the 1000 row); hard's five seconds are read as 200 more than medium. The table above was
# measured against Stockfish at 0.1 s a move, before the activity term, where Stockfish plays below its
# UCI_Elo: it is likely off by a few hundred Elo at its top.
NAMED_ELO = {"easy": 1000, "medium": 1750, "hard": 1950}


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
