"""A placement phase: ``must drop``, ``keep PIECE on both colours``, drops ``unmoved in`` (castling
rights of dropped kings and rooks), royal pieces in hand and ``clock resets on drop``; against
Fairy-Stockfish's Placement chess where pyffish is installed."""

from __future__ import annotations

import random

import pytest

from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.san import move_to_uci


def _uci(pos) -> set[str]:
    return {move_to_uci(pos, m) for m in pos.legal_moves()}


def _play(pos, *moves: str) -> None:
    for uci in moves:
        pos.push(next(m for m in pos.legal_moves() if move_to_uci(pos, m).lower() == uci.lower()))


def test_a_side_with_pieces_in_hand_must_drop():
    pos = start_position(load_game("placement"))
    assert all("@" in m for m in _uci(pos))
    assert len(_uci(pos)) == 40    # five kinds on eight cells of the first rank
    # with the hand empty, the pieces move
    done = position_from_fen(pos.game, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
    assert "e2e4" in _uci(done)


def test_bishops_on_opposite_colours():
    game = load_game("placement")
    pos = position_from_fen(game, "4k3/pppppppp/8/8/8/8/PPPPPPPP/1B2K3[QRRBNNqrrbbnn] w - - 0 1")
    drops = _uci(pos)
    assert not {"B@d1", "B@f1", "B@h1"} & drops     # light cells: b1 holds the light bishop
    assert {"B@a1", "B@c1", "B@g1"} <= drops
    # with one dark cell left, another piece may not take it
    late = position_from_fen(game, "4k3/pppppppp/8/8/8/8/PPPPPPPP/RB1QKNNR[B] w - - 0 1")
    assert _uci(late) == {"B@c1"}
    crowded = position_from_fen(game, "4k3/pppppppp/8/8/8/8/PPPPPPPP/RB1QK1NR[BN] w - - 0 1")
    assert "N@c1" not in _uci(crowded) and "N@f1" in _uci(crowded)


@pytest.mark.parametrize("moves,rights", [
    (("K@e1", "K@e8", "R@h1"), "K"),          # a rook beside a king on its cell
    (("R@a1", "K@e8", "K@e1"), "Q"),          # a king beside a rook already in its corner
    (("K@d1", "K@e8", "R@h1"), "-"),          # a king off its cell never castles
    (("K@e1", "K@e8", "R@g1"), "-"),          # nor a rook off its corner
])
def test_castling_rights_from_drops(moves, rights):
    game = load_game("placement")
    pos = start_position(game)
    before = (to_fen(pos), pos.hash)
    _play(pos, *moves)
    assert to_fen(pos).split()[2] == rights
    assert position_from_fen(game, to_fen(pos)).hash == pos.hash
    for _ in moves:
        pos.pop()
    assert (to_fen(pos), pos.hash) == before


def test_a_drop_resets_the_clock():
    game = load_game("placement")
    pos = position_from_fen(game, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[Q] w - - 7 9")
    _play(pos, "Q@d1")
    assert to_fen(pos).split()[4] == "0"


def test_castling_after_placement():
    game = load_game("placement")
    pos = position_from_fen(game, "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3[Rr] w - - 0 1")
    _play(pos, "R@h1", "R@h8")
    assert to_fen(pos).split()[2] == "Kk"
    assert "e1g1" in _uci(pos) and "e1c1" not in _uci(pos)


def test_placement_against_fairy_stockfish():
    """Seeded random placements and the first moves after them: FEN (placement, hands, side to move,
    castling rights, clock) and legal moves as Fairy-Stockfish has them."""
    sf = pytest.importorskip("pyffish")
    game = load_game("placement")
    start = sf.start_fen("placement")
    for seed in range(6):
        rng = random.Random(seed)
        pos, path = start_position(game), []
        for _ in range(24):
            ours = {move_to_uci(pos, m): m for m in pos.legal_moves()}
            assert set(ours) == set(sf.legal_moves("placement", start, path))
            if not ours:
                break
            uci = rng.choice(sorted(ours))
            pos.push(ours[uci])
            path.append(uci)
            assert to_fen(pos).split()[:5] == sf.get_fen("placement", start, path).split()[:5]
