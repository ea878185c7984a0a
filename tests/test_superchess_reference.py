"""Differential test: the engine's Superchess against an independent move generator.

``tests/oracles/superchess_reference.py`` was written from the rules and the decisions that
``variants/superchess.rules`` records as interpretations, alone, with its
own board encoding. Along seeded random games (special moves favoured: promotions, castling,
en passant, removals, rescues) the two must agree on the set of legal moves at every ply, in
the 4-player and the 2-player mode (3-player play has 4-player rules). Moves are compared in
the reference's notation: from-to, ``=`` army letter and piece letter for promotions,
``pass`` and ``remove`` for forced moves. The ``slow`` run plays many more games.
"""

from __future__ import annotations

import random

import pytest

from interpreter.notation.fen import to_fen
from interpreter.loading import load_game
from interpreter.engine.outcome import outcome
from interpreter.loading import start_position
from tests.oracles import superchess_reference as ref

QUICK = {"4p": (12, 300), "2p": (12, 200)}   # games, plies
LONG = {"4p": (60, 800), "2p": (60, 500)}


def written(pos, move) -> str:
    """``move`` of ``pos`` in the reference's notation."""
    game = pos.game
    frm, to, promo, special = move
    if special is not None and special[0] in ("pass", "remove"):
        return special[0]
    text = game.board.names[frm] + game.board.names[to]
    if promo:
        text += "=" + game.armies[game.code_army[promo]].symbol + game.kinds[game.code_kind[promo]].letter
    return text


def compare(mode: str, games: int, plies: int) -> int:
    """Play the games, comparing move sets at every ply; returns the number of positions compared."""
    game = load_game("superchess", mode)
    compared = 0
    for seed in range(games):
        rng = random.Random(f"superchess-{mode}-{seed}")
        pos, state = start_position(game), ref.start_state()
        path: list[str] = []
        for _ in range(plies):
            result = outcome(pos)
            if result is not None and result.rule == "only_kings":
                break  # a draw the reference does not know: it would play on
            legal = pos.legal_moves()
            ours = {written(pos, m): m for m in legal}
            theirs = {ref.move_str_full(state, m): m for m in ref.legal_moves(state, mode)}
            compared += 1
            assert set(ours) == set(theirs), (
                f"{mode} seed {seed}: {to_fen(pos)}\n  after {' '.join(path) or '-'}\n"
                f"  only the engine: {sorted(set(ours) - set(theirs))}\n"
                f"  only the reference: {sorted(set(theirs) - set(ours))}")
            if not legal:
                break
            special = sorted(k for k, m in ours.items() if m[2] or m[3] is not None or pos.board[m[1]])
            key = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(sorted(ours))
            pos.push(ours[key])
            state = ref.make(state, theirs[key], mode)
            path.append(key)
    return compared


@pytest.mark.parametrize("mode", ["4p", "2p"])
def test_legal_moves_agree_with_the_reference(mode):
    assert compare(mode, *QUICK[mode]) > 1500


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["4p", "2p"])
def test_legal_moves_agree_with_the_reference_long(mode):
    assert compare(mode, *LONG[mode]) > 10_000


def test_the_reference_passes_its_own_checks():
    ref.run_tests()
