"""The merged attack tables of several enemy armies (``Game.foes``) answer as the armies one by one.

Pins and the king's attack tests of a game with several enemies walk the merged tables once
(:func:`interpreter.engine.attacks.table_attacked`); here every cell of positions from random
games is asked both ways, for each army's enemies and for the enemies left when some are out.
"""

from __future__ import annotations

import random

import pytest

from interpreter.compiler.game import SUBSET_FOES
from interpreter.engine.attacks import attacked, table_attacked
from interpreter.loading import load_game, start_position


def _positions(game, games: int = 2, plies: int = 30):
    for seed in range(games):
        rnd = random.Random(seed)
        pos = start_position(game)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(moves[rnd.randrange(len(moves))])
            yield pos


@pytest.mark.parametrize("variant, mode", [("superchess", "4p"), ("fourplayer_ffa", None),
                                           ("fourplayer_teams", None)])
def test_merged_tables_attack_what_one_of_the_armies_attacks(variant, mode):
    game = load_game(variant, mode)
    asked = 0
    for pos in _positions(game):
        for army in range(len(game.armies)):
            enemies = game.enemies[army]
            for some in (enemies, enemies[1:], enemies[:1]):
                if not some or not all(game.pin_safe[e] for e in some):
                    continue
                foes = game.foes(some)
                for cell in range(game.n):
                    assert table_attacked(pos, cell, foes) == any(attacked(pos, cell, e) for e in some), \
                        (army, some, game.board.names[cell])
                    asked += 1
    assert asked > 10_000


def test_the_tables_of_enemies_left_are_kept_for_the_last_few_lists():
    game = load_game("fourplayer_ffa")
    first = game.foes([1, 2])
    assert game.foes([1, 2]) is first                 # found again
    assert game.foes(game.enemies[0]) is game.foes(list(game.enemies[0]))   # made with the game
    for a, b in [(1, 3), (2, 3), (0, 1), (0, 2), (0, 3)] * 3:
        game.foes([a, b])
    assert len(game._subset_foes) <= SUBSET_FOES
    assert game.foes([0, 3]) is game.foes([0, 3])
