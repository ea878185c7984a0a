"""Synochess's rules: the soldiers' drops, the facing kings, the cannon that spares cannons, campmate, and
perpetual check decided as Fairy-Stockfish decides it.

The bundled ``synochess`` is checked move for move against Fairy-Stockfish by test_differential.py and
test_perft.py (its variants.ini section, loaded into ``pyffish``); here each rule is checked on its own,
and the positions (FEN, clocks and hand included) and game ends along random games, which
test_differential.py does not compare, against ``pyffish`` when it and the corpus are there.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_uci

try:
    from fsf_perft import NO_CORPUS, fsf_end, load_corpus
except ImportError:  # tests/ imported as a package
    from tests.fsf_perft import NO_CORPUS, fsf_end, load_corpus

GAME = load_game("synochess")
# White's queen checks Black's king from h5 and e8 in turn, Black's king stepping between g8 and h7.
CHECKS = "6k1/8/8/7Q/8/8/8/K7 w - - 0 1"
CYCLE = ["h5e8", "g8h7", "e8h5", "h7g8"]


def play(fen: str | None, moves: list[str]):
    pos = start_position(GAME) if fen is None else position_from_fen(GAME, fen)
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


def uci_moves(pos) -> set[str]:
    legal = pos.legal_moves()
    return {move_to_uci(pos, m, legal) for m in legal}


def test_soldiers_in_hand_drop_on_the_fifth_rank_only():
    drops = {m for m in uci_moves(play(None, ["e2e4"])) if "@" in m}
    assert drops == {f"S@{f}5" for f in "adeh"}


def test_the_kings_may_not_face_each_other_on_a_file_or_a_rank():
    pos = position_from_fen(GAME, "8/8/3k4/8/8/8/8/4K3 w - - 0 1")
    moves = uci_moves(pos)
    assert "e1d1" not in moves and "e1d2" not in moves and "e1e2" in moves
    moves = uci_moves(position_from_fen(GAME, "8/8/8/8/k7/4K3/8/8 w - - 0 1"))
    assert not {"e3d4", "e3e4", "e3f4"} & moves and {"e3d3", "e3f3"} <= moves    # not onto the a-king's rank


def test_the_cannon_neither_hops_over_nor_takes_a_cannon():
    pos = position_from_fen(GAME, "4k3/8/8/8/1cNC1c1r/8/8/K7 b - - 0 1")
    moves = uci_moves(pos)
    assert "b4d4" not in moves                          # over the knight, but onto a cannon
    assert "f4c4" not in moves and "f4e4" not in moves  # not over the cannon on d4 (nor sliding)
    pos = position_from_fen(GAME, "4k3/8/8/8/1c1N1R1r/8/8/K7 b - - 0 1")
    assert {"b4e4", "b4f4"} <= uci_moves(pos)           # over the knight, onto the rook


def test_campmate_wins_at_once():
    pos = play("8/4K3/8/8/8/k7/8/8 w - - 0 1", ["e7e8"])
    end = outcome(pos)
    assert end is not None and end.rule == "campmate" and end.winners == (0,)


def test_perpetual_check_loses_and_being_checked_throughout_wins():
    end = outcome(play(CHECKS, (CYCLE * 3)[:12]))       # White to move, having checked with every move
    assert end is not None and end.rule == "perpetual_checking" and end.result == "loss"
    end = outcome(play(CHECKS, (CYCLE * 3)[:9]))        # Black to move, checked with every move
    assert end is not None and end.rule == "perpetual_check" and end.result == "win"


def test_a_repetition_without_checks_is_a_draw():
    end = outcome(play("6k1/8/8/8/8/8/8/K6R w - - 0 1", ["h1h2", "g8f8", "h2h1", "f8g8"] * 3))
    assert end is not None and end.rule == "repetition" and end.result == "draw"


def test_stalemate_loses():
    end = outcome(position_from_fen(GAME, "k7/8/1Q6/8/8/8/8/7K b - - 0 1"))
    assert end is not None and end.rule == "stalemate" and end.result == "loss"


sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def corpus():
    if not load_corpus(sf):
        pytest.skip(NO_CORPUS)


def _fsf_end(start: str, path: list[str]) -> int | None:
    """Fairy-Stockfish's result for the side to move (1, 0, -1), or None when the game goes on."""
    return fsf_end(sf, "synochess", start, path)


@pytest.mark.parametrize("fen,plies", [(CHECKS, 9), (CHECKS, 11), (CHECKS, 12),
                                       ("k7/8/1Q6/8/8/8/8/7K b - - 0 1", 0)])
def test_ends_are_fairy_stockfish_results(corpus, fen, plies):
    path = (CYCLE * 3)[:plies]
    end = outcome(play(fen, path))
    assert end is not None and {"win": 1, "draw": 0, "loss": -1}[end.result] == _fsf_end(fen, path)


@pytest.mark.parametrize("seed", range(3))
def test_positions_and_ends_agree_with_fairy_stockfish(corpus, seed):
    """Random games that drop often: every position's FEN (clocks and hand included) is Fairy-Stockfish's,
    which our reader reads back to the same, and both engines end the game at the same ply alike."""
    rng = random.Random(f"synochess-positions/{seed}")
    start = sf.start_fen("synochess")
    pos, path = start_position(GAME), []
    for _ in range(200):
        theirs = sf.get_fen("synochess", start, path)
        assert to_fen(pos) == theirs == to_fen(position_from_fen(GAME, theirs)), " ".join(path)
        end = outcome(pos)
        ours = None if end is None else {"win": 1, "draw": 0, "loss": -1}[end.result]
        assert ours == _fsf_end(start, path), " ".join(path)
        if end is not None:
            return
        legal = pos.legal_moves()
        drops = [m for m in legal if "@" in move_to_uci(pos, m, legal)]
        move = rng.choice(drops if drops and rng.random() < 0.3 else legal)
        path.append(move_to_uci(pos, move, legal))
        pos.push(move)
