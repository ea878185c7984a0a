"""A position is what its FEN says: repetition counts rights, not history.

The engine drops a right as soon as it can no longer be used (a rook whose
king has moved, a gate no piece in hand can enter), so positions that the
rules call the same have the same hash whatever moves led to them; the FEN
writes every right (first-move rights that cannot be inferred included),
and ``rules check`` warns about rights that nothing in the start holds.
The hash property over random games of every bundled variant is in
tests/test_contract.py (``test_fen_round_trip``).
"""

from __future__ import annotations

import random

import pytest

from dsl import bundled_names, load_spec
from dsl.errors import MoveError
from interpreter.cli.main import main
from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.loading.lints import reads_as_clause, shadowed_ends
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move

# Kings walk out and back (castling rights gone), then the rooks and knights shuffle: the position
# after 1.e4 e5 2.Ke2 Ke7 3.Ke1 Ke8 occurs for the second time after move 5 and the third after move 9.
KING_WALK = "e4 e5 Ke2 Ke7 Ke1 Ke8 Nf3 Nf6 Ng1 Ng8 Nh3 Nh6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8".split()
# Duck chess: the same, the duck put on d3 by White and on d6 by Black.
DUCK_WALK = [f"{move},{'d3' if i % 2 == 0 else 'd6'}" for i, move in enumerate(KING_WALK)]


def play(pos, moves):
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


@pytest.mark.parametrize("variant, moves", [("chess", KING_WALK), ("crazyhouse", KING_WALK),
                                            ("locking", KING_WALK), ("duck", DUCK_WALK)])
def test_threefold_repetition_after_the_kings_walked(variant, moves):
    """The draw comes with the third occurrence (ply 18), not before, and not later: the first
    occurrence, after the kings came back, already has no castling rights although the rooks
    never moved."""
    game = load_game(variant)
    pos = start_position(game)
    for ply, text in enumerate(moves, 1):
        assert outcome(pos) is None, f"{variant}: the game ended before ply {ply}"
        pos.push(parse_move(pos, text))
    result = outcome(pos)
    assert result is not None and result.rule == "repetition" and result.result == "draw"
    assert pos.history.count(pos.hash) == 3
    assert position_from_fen(game, to_fen(pos)).hash == pos.hash


def test_a_king_that_walked_leaves_no_trace():
    """After the kings walk out and back, the position is the one its FEN says (no castling
    rights): same FEN as, and same hash as, the position read from it."""
    game = load_game("chess")
    pos = play(start_position(game), KING_WALK[:6])
    assert to_fen(pos) == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4"
    assert pos.unmoved == 0
    assert position_from_fen(game, to_fen(pos)).hash == pos.hash


def test_a_king_whose_rooks_are_gone_holds_no_right():
    """Taking the last rook a king could castle with ends the king's right too: the position is
    the one without castling rights, whichever piece took it."""
    game = load_game("chess")
    pos = position_from_fen(game, "4k3/8/8/8/8/8/6b1/4K2R b K - 0 1")
    play(pos, ["Bxh1"])
    assert to_fen(pos).split()[2] == "-" and pos.unmoved == 0
    assert pos.hash == position_from_fen(game, to_fen(pos)).hash


def test_fen_rights_that_no_rule_can_use_are_dropped():
    """A right a FEN gives that no castling can use is not part of the position read: in
    four-player chess, Red's rook on d1 listed without its king is no right at all."""
    game = load_game("fourplayer_ffa")
    start = to_fen(start_position(game))
    fields = start.split()
    rook_only = position_from_fen(game, " ".join(fields[:2] + ["d1"] + fields[3:]))
    none = position_from_fen(game, " ".join(fields[:2] + ["-"] + fields[3:]))
    assert to_fen(rook_only).split()[2] == "-" and rook_only.hash == none.hash
    chess = load_game("chess")
    assert position_from_fen(chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1").hash != \
        position_from_fen(chess, "4k3/8/8/8/8/8/8/4K2R w - - 0 1").hash


def test_gate_rights_end_with_the_hand_unless_captures_refill_it():
    """Seirawan chess: once the hand is empty (and captures do not go to hand) no gate right can be
    used, so none is written; S-house chess writes them with an empty hand, as Fairy-Stockfish does
    (captures may bring a piece to gate)."""
    seirawan = load_game("seirawan")
    pos = position_from_fen(seirawan, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQBCDFGkqbcdfg - 0 1")
    assert to_fen(pos).split()[2] == "KQkq"
    assert pos.hash == position_from_fen(seirawan, to_fen(pos)).hash
    shouse = load_game("shouse")
    pos = position_from_fen(shouse, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQBCDFGkqbcdfg - 0 1")
    assert to_fen(pos).split()[2] == "KQBCDFGkqbcdfg"


KING_LEAP = """variant kingleap { title "King leap" }
extends makruk
piece King {
  letter K
  royal
  betza "K"
  betza "imN"
}
setup fen "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w RIGHTS - 0 1"
"""


def test_first_move_rights_that_cannot_be_inferred_are_written(tmp_path):
    """A king with a first-move leap can walk back to its cell, so FEN writes its right, as
    Fairy-Stockfish writes Cambodian chess's (a file letter on the home rank): after a walk out and
    back the right is gone, the position says so, and the hash follows the FEN on random games."""
    path = tmp_path / "kingleap.rules"
    path.write_text(KING_LEAP.replace("RIGHTS", "De"))
    game = load_game(str(path))
    king = game.code(game.kind_index["King"], 0)
    assert game.own_mark[king] and not game.inferred[king]
    pos = start_position(game)
    assert to_fen(pos).split()[2] == "De"
    assert _legal(pos, "Kb2") and _legal(pos, "Kf2")
    play(pos, "Kb2 Kg7 Kc2 Kf7 Kd2 Ke7 Kd1 Ke8".split())
    assert to_fen(pos).split()[2] == "-" and not _legal(pos, "Kb2")
    assert pos.hash == position_from_fen(game, to_fen(pos)).hash
    rng = random.Random(5)
    for _ in range(10):
        pos = start_position(game)
        for _ in range(60):
            if outcome(pos) is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
            assert position_from_fen(game, to_fen(pos)).hash == pos.hash, to_fen(pos)


def _legal(pos, text: str) -> bool:
    try:
        parse_move(pos, text)
    except MoveError:
        return False
    return True


def test_pawns_that_only_advance_have_their_rights_inferred():
    """Chess-like first-move patterns of pieces that can never come back (Superchess's pawns, with
    their committing facings; Spartan's hoplites) are not written: standing on a setup cell is
    having never moved."""
    for variant, mode in (("superchess", "4p"), ("spartan", None)):
        game = load_game(variant, mode)
        own = [c for c in range(1, game.ncodes) if game.own_mark[c]]
        assert own and all(game.inferred[c] for c in own), variant


def run(args, capsys):
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_check_warns_about_rights_nothing_holds(tmp_path, capsys):
    """'extends makruk' with a first-move king leap: makruk's '-' gives no king the right, and
    'rules check' says so, at the pattern, with the field that would give it."""
    path = tmp_path / "kingleap.rules"
    path.write_text(KING_LEAP.replace("RIGHTS", "-"))
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0
    assert f"{path}:7:" in out and "the King's first-move pattern can never be used" in out and "'De'" in out
    path.write_text(KING_LEAP.replace("RIGHTS", "De"))
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and "warning" not in out
    path.write_text('extends chess\nsetup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"\n')
    status, out, _ = run(["check", str(path)], capsys)
    assert "castling 'short' can never be made" in out and "'KQkq'" in out


BREAKTHROUGH = """variant breakthrough { title "Breakthrough" }
board {
  grid 8 x 8
  zone goal { white: rank 8  black: rank 1 }
}
armies {
  army white "White" { letters upper  forward n }
  army black "Black" { letters lower  forward s }
  turn white, black
}
piece Pawn { letter P  betza "fmWfF"  promotes in zone goal to Runner }
piece Runner { letter R  royal }
rules {
  end arrived "breaking through" when enemy_royal_in(goal): loss
  when no moves: end
}
setup fen "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1"
"""


def test_check_does_not_warn_about_games_that_end_by_themselves(tmp_path, capsys):
    """Pieces that only advance cannot go on for ever: no 'forever' warning, though no rule looks
    at repetitions; a piece that can step back (a Runner with a king's moves) brings it back."""
    path = tmp_path / "breakthrough.rules"
    path.write_text(BREAKTHROUGH)
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and "warning" not in out
    path.write_text(BREAKTHROUGH.replace("piece Runner { letter R  royal }",
                                         'piece Runner { letter R  royal  betza "K" }'))
    status, out, _ = run(["check", str(path)], capsys)
    assert "warning: a game can go on forever" in out


def test_check_warns_about_an_end_title_that_reads_as_a_clause(tmp_path, capsys):
    """A title completes 'White wins by ...': 'the lion was captured' does not, and 'rules check'
    says so at the rule, with the noun phrase to write; a noun phrase gets no warning."""
    path = tmp_path / "lion.rules"
    path.write_text(BREAKTHROUGH.replace('"breaking through"', '"the pawn reached the goal"'))
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and f"{path}:14:" in out
    assert "title of end rule 'arrived' reads as a clause: results will say 'White wins by the pawn reached" in out
    assert "noun phrase" in out
    for clause, noun in (("the lion was captured", "capture of the lion"), ("both kings reached the goal",
                                                                             "both kings reaching the goal")):
        assert reads_as_clause(clause) and not reads_as_clause(noun)
    assert not reads_as_clause("capture of the promoted pawn")    # an -ed word after a determiner: an adjective


def test_check_warns_about_an_end_rule_that_an_earlier_one_shadows(tmp_path, capsys):
    """A rule whose condition contains an earlier rule's whole condition never fires (the earlier
    one, tried first, ends the game): 'rules check' says which, at the later rule, and how to
    reorder; a rule that only shares a term with an earlier one gets no warning."""
    path = tmp_path / "shadow.rules"
    rules = ('  end repetition "repetition" when repetitions >= 3: draw\n'
             '  end perpetual "perpetual check" when checked_throughout and repetitions >= 3: win\n')
    path.write_text(BREAKTHROUGH.replace("  when no moves: end\n", rules + "  when no moves: end\n"))
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and f"{path}:16:" in out
    assert "end rule 'perpetual' can never end the game: end rule 'repetition', tried before it" in out
    assert "forget end repetition" in out
    path.write_text(BREAKTHROUGH.replace("  when no moves: end\n", rules.replace("repetitions >= 3: draw",
                                                                               "repetitions >= 4: draw")
                                         + "  when no moves: end\n"))
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and "can never end the game" not in out


def test_every_bundled_end_rule_reads_well_and_can_fire():
    """The bundled variants' results read as sentences ('Black wins by reaching the goal'), and no
    end rule is shadowed by an earlier one."""
    for name in bundled_names():
        spec = load_spec(name)
        assert not [r.title for r in spec.rules.ends if r.title and reads_as_clause(r.title)], name
        assert not shadowed_ends(spec.rules.ends), name


def test_a_castling_right_is_read_for_the_king_that_can_hold_it():
    """Kinglet: pawns promote to kings, so an army may have two; the castling letter belongs to the
    one with a rook on its side (found by the long contract run: 'no single king' was an error)."""
    game = load_game("kinglet")
    fen = "r3k3/Qb5r/3qp2n/P1Ppb1pp/P3PP1P/BKP4B/R2N4/5k1R w q - 0 26"
    pos = position_from_fen(game, fen)
    assert to_fen(pos) == fen and (pos.unmoved >> game.board.index["e8"]) & 1
