"""Differential test: the engine's Raumschach against an independent move generator.

``tests/oracles/raumschach_reference.py`` was written from the rules in words and the decisions
that ``variants/raumschach.rules`` records as interpretations, alone, in plain Python with its
own board encoding; it imports nothing of the interpreter. The two must agree on perft from the
start, and on the set of legal moves (and the placement written in FEN) at every ply of seeded
random games, in which captures, promotions and pawn moves are favoured so that the pawns'
rules are reached. Moves are compared in the reference's notation: from-cell, to-cell and a
promotion letter (``Da4Ea5Q``).
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.outcome import outcome
from interpreter.engine.perft import perft
from interpreter.loading import load_game, start_position
from interpreter.notation.fen import to_fen
from tests.oracles import raumschach_reference as ref
from tests.reference_moves import written

GAMES, PLIES = 20, 60


@pytest.fixture(scope="module")
def game():
    return load_game("raumschach")


def play_games(game, games: int, plies: int) -> dict[str, int]:
    """Play the games, comparing move sets and placements at every ply; what was compared and met."""
    seen = {"positions": 0, "moves": 0, "captures": 0, "promotions": 0, "checks": 0, "ends": 0}
    for seed in range(games):
        rng = random.Random(f"raumschach-{seed}")
        pos, state = start_position(game), ref.start()
        path: list[str] = []
        for _ in range(plies):
            legal = pos.legal_moves()
            ours = {written(pos, m): m for m in legal}
            theirs = {ref.written(m): m for m in ref.legal_moves(state)}
            where = f"seed {seed}: {to_fen(pos)}\n  after {' '.join(path) or '-'}"
            assert set(ours) == set(theirs), (
                f"{where}\n  only the engine: {sorted(set(ours) - set(theirs))}\n"
                f"  only the reference: {sorted(set(theirs) - set(ours))}")
            assert to_fen(pos).rsplit(" ", 4)[0] == ref.fen(state), where
            seen["positions"] += 1
            seen["moves"] += len(ours)
            seen["checks"] += pos.in_check()
            if outcome(pos, legal) is not None:
                seen["ends"] += 1
                break
            special = sorted(k for k, m in ours.items() if m[2] or pos.board[m[1]])
            pawn = sorted(k for k, m in ours.items() if game.kinds[game.code_kind[pos.board[m[0]]]].letter == "P")
            roll = rng.random()
            key = rng.choice(special if special and roll < 0.5 else pawn if pawn and roll < 0.8 else sorted(ours))
            seen["captures"] += bool(pos.board[ours[key][1]])
            seen["promotions"] += bool(ours[key][2])
            pos.push(ours[key])
            state = ref.play(state, theirs[key])
            path.append(key)
    return seen


def test_perft_from_the_start_agrees_with_the_reference(game):
    pos, state = start_position(game), ref.start()
    for depth in (1, 2, 3):
        assert perft(pos, depth) == ref.perft(state, depth)


def test_legal_moves_agree_with_the_reference_along_random_games(game):
    seen = play_games(game, GAMES, PLIES)
    assert seen["positions"] > 1000 and seen["captures"] > 100 and seen["promotions"] > 0, seen


def test_the_reference_starts_as_the_variant(game):
    assert to_fen(start_position(game)).rsplit(" ", 4)[0] == ref.fen(ref.start())
