"""Janggi's rules: passing at will, bikjang (generals kept apart), counting material, perpetual check.

The bundled ``janggi`` is checked move for move against Fairy-Stockfish by test_differential.py and
test_perft.py; here each construct is checked on its own, and the game ends along random games
(which test_differential.py does not compare) against ``pyffish`` when it is installed.
"""

from __future__ import annotations

import random

import pytest

from dsl.errors import IllegalMoveError
from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san, move_to_uci

try:
    from fsf_perft import fsf_end
except ImportError:  # tests/ imported as a package
    from tests.fsf_perft import fsf_end

GAME = load_game("janggi")
# The generals face each other on the e-file (bikjang), Blue (White) to move.
FACING = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"


def play(fen: str | None, moves: str):
    pos = start_position(GAME) if fen is None else position_from_fen(GAME, fen)
    for text in moves.split():
        pos.push(parse_move(pos, text))
    return pos


def test_a_pass_is_written_as_the_generals_cell_twice_in_uci_and_pass_in_san():
    pos = start_position(GAME)
    legal = pos.legal_moves()
    passing = [m for m in legal if m[3] == ("pass",)]
    assert len(passing) == 1
    assert move_to_uci(pos, passing[0], legal) == "e2e2" and move_to_san(pos, passing[0], legal) == "pass"
    for text in ("e2e2", "pass", "--"):
        assert parse_move(pos, text) == passing[0]


def test_a_pass_changes_only_the_side_to_move_and_the_clocks():
    pos = play(None, "e2e2")
    assert to_fen(pos) == "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1"


def test_no_pass_in_check():
    pos = position_from_fen(GAME, "3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1")   # Han's chariot on e1 checks
    assert pos.in_check() and all(m[3] != ("pass",) for m in pos.legal_moves())
    with pytest.raises(IllegalMoveError):
        parse_move(pos, "e2e2")


def test_bikjang_must_be_broken_or_passed():
    pos = position_from_fen(GAME, FACING)
    texts = {move_to_uci(pos, m) for m in pos.legal_moves()}
    # The chariot cannot part the generals, so it may not move; the general may step aside, or pass.
    assert not any(t.startswith("a1") for t in texts) and "e1d1" in texts and "e1e1" in texts
    assert outcome(pos) is None


def test_a_pass_in_bikjang_ends_the_game_by_counting():
    pos = play(FACING, "e1e1")
    end = outcome(pos)
    assert end is not None and end.rule == "bikjang"
    # Blue has a chariot (13) against Han's 1.5: Blue wins, Han (to move) loses.
    assert end.result == "loss" and end.winners == (0,) and pos.legal_moves() == []


def test_two_passes_end_the_game_by_counting_and_han_wins_equal_material():
    pos = play(None, "e2e2 e9e9")
    end = outcome(pos)
    assert end is not None and end.rule == "passes" and end.winners == (1,)


def test_perpetual_check_loses_the_repetition():
    fen = "9/9/R2k5/9/9/9/9/9/9/5K3 b - - 0 1"
    pos = play(fen, "d8d9 a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8")
    end = outcome(pos)
    assert end is not None and end.rule == "perpetual_check" and end.result == "win" and end.winners == (1,)


def test_a_repetition_without_checks_is_counted():
    pos = play("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", "a1b1 d10d9 b1a1 d9d10 a1b1 d10d9 b1a1 d9d10")
    end = outcome(pos)
    assert end is not None and end.rule == "repetition" and end.winners == (0,)


def test_a_copied_position_does_not_know_its_checks():
    fen = "9/9/R2k5/9/9/9/9/9/9/5K3 b - - 0 1"
    pos = play(fen, "d8d9 a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8").copy()
    assert outcome(pos).rule == "repetition"


@pytest.mark.parametrize("line, column, message", [
    ("forbid keeping royals facing along orthx", 38, "unknown direction 'orthx'"),
    ("material bonus blue 1.5", 18, "unknown army 'blue'"),
    ("end x when royals_facing(diag2): draw", 28, "unknown direction 'diag2'"),
])
def test_bad_names_are_located(line, column, message):
    from dsl import RulesError, load_spec_text
    from interpreter.loading import compile_variant

    text = f'variant e {{ title "E" }}\nextends janggi\nrules {{\n  {line}\n}}\n'
    with pytest.raises(RulesError) as caught:
        compile_variant(load_spec_text(text, "<e>"))
    shown = str(caught.value)
    assert message in shown and f"<e>:4:{column}:" in shown and "^" in shown


sf = pytest.importorskip("pyffish")


def _fsf_end(start: str, path: list[str]) -> int | None:
    """Fairy-Stockfish's result for the side to move (1, 0, -1), or None when the game goes on."""
    return fsf_end(sf, "janggi", start, path)


@pytest.mark.parametrize("seed", range(3))
def test_game_ends_agree_with_fairy_stockfish(seed):
    """Random games that pass now and then: both engines end them at the same ply with the same result."""
    rng = random.Random(f"janggi-ends/{seed}")
    start = sf.start_fen("janggi")
    pos, path = start_position(GAME), []
    for _ in range(160):
        end = outcome(pos)
        ours = None if end is None else {"win": 1, "draw": 0, "loss": -1}[end.result]
        assert ours == _fsf_end(start, path), " ".join(path)
        if end is not None:
            return
        legal = pos.legal_moves()
        passes = [m for m in legal if m[3] == ("pass",)]
        others = [m for m in legal if m[3] != ("pass",)] or passes
        move = rng.choice(passes if passes and rng.random() < 0.08 else others)
        path.append(move_to_uci(pos, move, legal))
        pos.push(move)
