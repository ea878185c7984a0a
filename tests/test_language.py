"""The language's semantics: extends/include/forget, Betza, native patterns, setups."""

from __future__ import annotations

import pytest

from dsl import RulesSemanticError, load_spec_text
from dsl.betza import parse_betza
from interpreter.loading import compile_variant
from interpreter.engine.perft import perft
from interpreter.loading import position_from_fen, start_fen, start_position


def game_of(text: str, tmp_path):
    path = tmp_path / "variant.rules"
    path.write_text(text)
    return compile_variant(load_spec_text(text, str(path)))


def test_extends_inherits_everything(tmp_path):
    game = game_of('variant mine { title "Mine" }\nextends chess\n', tmp_path)
    assert game.name == "mine" and game.title == "Mine"
    assert perft(start_position(game), 3) == 8902


def test_forget_castle_and_end_rule(tmp_path):
    text = "extends chess\nforget castle short\nforget end stalemate\n"
    game = game_of(text, tmp_path)
    assert [r.name for r in game.castle_rules] == ["long"]
    assert "stalemate" not in [rule.name for rule, _, _ in game.end_rules]
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert perft(pos, 1) == 25  # 26 in chess: only O-O-O is left


def test_forget_forbid_self_check_makes_exposing_moves_legal(tmp_path):
    """With the bishop pinned against the king, chess forbids its moves; forgetting the rule allows them."""
    fen = "4k3/8/8/8/8/8/4B3/4K2r w - - 0 1"   # the bishop is not pinned: the rook checks along rank 1
    pinned = "4k3/8/8/8/4r3/8/4B3/4K3 w - - 0 1"
    chess = game_of("extends chess\n", tmp_path)
    free = game_of("extends chess\nforget forbid self-check\n", tmp_path)
    assert not free.self_check and chess.self_check
    bishop = lambda game: [m for m in position_from_fen(game, pinned).legal_moves() if m[0] == game.board.index["e2"]]
    assert bishop(chess) == [] and len(bishop(free)) == 9
    assert perft(position_from_fen(chess, fen), 1) < perft(position_from_fen(free, fen), 1)


@pytest.mark.parametrize("line, changed", [
    ("forget castling", lambda g, spec: spec.castling is None and not g.castle_rules),
    ("forget clock", lambda g, spec: spec.rules.clock_resets == [] and not g.clock_on_capture),
    ("forget directions zig", lambda g, spec: "zig" not in g.board.families),
    ("forget when no moves", lambda g, spec: spec.rules.no_moves == []),
])
def test_forget_whole_rules(tmp_path, line, changed):
    base = ("extends chess\nboard { directions zig { all: up (0, 1) } }\nrules { when no moves: end }\n"
            'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"\n')
    spec = load_spec_text(base + line + "\n", str(tmp_path / "v.rules"))
    assert changed(compile_variant(spec), spec)


def test_an_inherited_setup_that_no_longer_fits_is_reported_in_the_inheriting_file(tmp_path):
    """Forgetting castling leaves chess's 'KQkq' wrong: the error is at this file's extends line."""
    with pytest.raises(RulesSemanticError) as err:
        game_of("variant mine { title \"Mine\" }\nextends chess\nforget castling\n", tmp_path)
    assert err.value.loc.path.endswith("variant.rules") and err.value.loc.line == 2
    assert "inherited from chess.rules:" in err.value.message and "no castling" in err.value.message


@pytest.mark.parametrize("base, line", [
    ("extends chess", "forget drops"),
    ("extends chess", "forget captures compulsory"),
    ("extends chess", "forget forbid giving-check"),
    ("extends superchess", "forget mode 5p"),
])
def test_forget_what_was_not_inherited_is_an_error_at_the_line(tmp_path, base, line):
    with pytest.raises(RulesSemanticError) as err:
        game_of(f"{base}\n{line}\n", tmp_path)
    assert err.value.loc is not None and err.value.loc.line == 2
    assert "cannot forget" in err.value.message


def test_forget_crazyhouse_drops_gives_chess(tmp_path):
    game = game_of("extends crazyhouse\nforget drops\nsetup fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n",
                   tmp_path)
    assert not game.has_drops and perft(start_position(game), 3) == 8902


def test_forget_unknown_name_suggests(tmp_path):
    with pytest.raises(RulesSemanticError) as err:
        game_of("extends chess\nforget piece Knigt\n", tmp_path)
    assert "did you mean 'Knight'" in err.value.render()


def test_piece_override_by_name(tmp_path):
    """A nightrider in place of the knight: from b1 it rides c3-d5-xe7 and a3; d2 is blocked."""
    text = 'extends chess\npiece Knight { letter N value 5 betza "NN" }\n'
    game = game_of(text, tmp_path)
    assert perft(start_position(game), 1) == 24
    pos = start_position(game)
    b1 = game.board.index["b1"]
    assert sorted(game.board.names[m[1]] for m in pos.legal_moves() if m[0] == b1) == ["a3", "c3", "d5", "e7"]


@pytest.mark.parametrize("text,vectors", [
    ("W", {(0, 1), (0, -1), (1, 0), (-1, 0)}),
    ("fmW", {(0, 1)}),
    ("fcF", {(1, 1), (-1, 1)}),
    ("fsW", {(0, 1), (1, 0), (-1, 0)}),
    ("ffN", {(1, 2), (-1, 2)}),
    ("fN", {(1, 2), (-1, 2)}),  # as Fairy-Stockfish: f on an oblique atom selects a pair
    ("fsN", {(2, 1), (-2, 1)}),
    ("sN", {(2, 1), (-2, 1), (2, -1), (-2, -1)}),
    ("vN", {(1, 2), (-1, 2), (1, -2), (-1, -2)}),
])
def test_betza_directions(text, vectors):
    atoms = parse_betza(text)
    assert set(atoms[0].vectors) == vectors


def test_betza_flags():
    quiet, capture = parse_betza("mRcpR")
    assert quiet.rider and quiet.modality == "quiet" and quiet.hop is None
    assert capture.hop == "p" and capture.modality == "capture"
    (lame,) = parse_betza("ifmnD")
    assert lame.initial and lame.lame and not lame.rider
    (limited,) = parse_betza("R4")
    assert limited.rider and limited.range == 4
    (nightrider,) = parse_betza("NN")
    assert nightrider.rider and nightrider.range is None


@pytest.mark.parametrize("bad", ["", "fX", "fm", "R0", "npR"])
def test_betza_errors(bad):
    with pytest.raises(RulesSemanticError):
        parse_betza(bad)


def test_native_patterns_match_betza(tmp_path):
    """A rook written as a native ride and a knight as a symmetric leap give chess's perft."""
    text = ('extends chess\n'
            'piece Rook { letter R value 5 move ride orth }\n'
            'piece Knight { letter N value 3 move leap (1, 2) all }\n')
    game = game_of(text, tmp_path)
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert perft(position_from_fen(game, kiwipete), 2) == 2039


def test_setup_places(tmp_path):
    text = ('extends chess\n'
            'setup { white King at e1  white Rook at a1, h1  white Pawn at rank 2\n'
            '        black King at e8  black Pawn at a7..h7 }\n')
    game = game_of(text, tmp_path)
    assert start_fen(game) == "4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1"


def test_griffon_and_crooked_bishop(tmp_path):
    """Native multi-leg patterns: a griffon (F, then outward rook slides) and a crooked bishop."""
    text = ('extends chess\n'
            'piece Griffon { letter G value 8 move step diag  move path step diag then ride orth: lame }\n'
            'piece Crook { letter C value 4 move zigzag diag and diag }\n'
            'setup fen "k7/8/8/8/3G4/8/8/4K2C w - - 0 1"\n')  # the black king out of reach: not in check
    game = game_of(text, tmp_path)
    pos = start_position(game)
    names = game.board.names

    def targets(cell):
        return sorted(names[m[1]] for m in pos.legal_moves() if m[0] == game.board.index[cell])

    # d4: the four diagonal steps, then outward slides from each.
    assert len(targets("d4")) == 23
    assert "d6" not in targets("d4") and "c6" in targets("d4") and "a3" in targets("d4")
    assert targets("h1") == ["a2", "b1", "c2", "d1", "e2", "f1", "g2", "g4", "g6", "g8", "h3", "h5", "h7"]


def test_clock_resets_on_promotion_only_when_declared(tmp_path):
    """Rocket Chess's count: captures and promotions restart it, pawn moves do not."""
    game = game_of("extends chess\nrules { clock resets on capture, promotion }\n", tmp_path)
    from interpreter.notation.fen import to_fen
    from interpreter.notation.reading import parse_move
    pos = position_from_fen(game, "4k3/1P6/8/8/8/8/4P3/4K3 w - - 7 40")
    pos.push(parse_move(pos, "e3"))
    assert to_fen(pos).split()[4] == "8"
    pos.push(parse_move(pos, "Kd7"))
    pos.push(parse_move(pos, "b8=Q"))
    assert to_fen(pos).split()[4] == "0"
