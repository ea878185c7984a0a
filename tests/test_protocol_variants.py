"""The variants the engine protocols carry, and how they write moves and describe pieces.

The table read at start-up (interpreter/protocols/carried.json) must agree
with the compiled games: a variant added or changed without
``make protocol-variants`` fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from dsl.catalogue import bundled_names
from dsl.errors import IllegalMoveError, UsageError
from interpreter.loading import load_game, position_from_fen
from interpreter.protocols import cecp, games, variants
from interpreter.notation.dialects import Dialect

TABLE = Path(games.__file__).with_name(variants.TABLE)


def test_the_table_of_carried_variants_is_fresh():
    assert json.loads(TABLE.read_text()) == games.carried_table(), \
        "interpreter/protocols/carried.json is stale; run 'make protocol-variants'"


def test_the_table_names_every_bundled_variant_for_each_protocol():
    for protocol in variants.PROTOCOLS:
        assert sorted(variants.carried_table()[protocol]) == bundled_names()


def test_the_engine_page_and_the_readme_count_and_name_what_is_refused():
    """docs/engines.md's table names every variant neither protocol carries, and both pages count them."""
    table = variants.carried_table()
    refused = [name for name in bundled_names() if all(table[p][name] is not None for p in variants.PROTOCOLS)]
    carried = len(bundled_names()) - len(refused)
    page = (Path(__file__).parents[1] / "docs" / "engines.md").read_text()
    rows = "\n".join(line for line in page.splitlines() if line.startswith("| ") and "why neither" not in line)
    assert [n for n in refused if load_game(n).title not in rows] == []
    assert f"{carried} of the {len(bundled_names())}" in page
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert f"{carried} of the {len(bundled_names())} bundled" in readme


@pytest.mark.parametrize("name", ["superchess", "rocket", "glinski", "mccooey", "locking"])
def test_the_seed_games_and_hex_boards_are_refused_with_a_reason(name):
    for protocol in variants.PROTOCOLS:
        assert games.why_not_carried(load_game(name), protocol) is not None
        with pytest.raises(UsageError, match="rules serve"):
            variants.resolve(name, protocol)


def test_aliases_and_xboard_names():
    assert variants.resolve("3check", "uci") == "threecheck"
    assert variants.resolve("normal", "xboard") == "chess"
    names = variants.protocol_names("xboard")
    assert "normal" in names and "3check" in names and "chess" not in names
    with pytest.raises(UsageError, match="did you mean 'atomic'"):
        variants.resolve("atomik", "uci")


def test_a_users_file_goes_by_its_file_name(tmp_path):
    path = tmp_path / "mine.rules"
    path.write_text("extends chess\n")
    assert variants.check_argument(str(path), "uci") == ("mine", str(path))
    assert variants.check_argument("koth", "uci") == ("koth", None)
    with pytest.raises(UsageError, match="no bundled variant and no file"):
        variants.check_argument(str(tmp_path / "missing.rules"), "uci")


def test_xboard_carries_at_most_ten_ranks(tmp_path):
    path = tmp_path / "tall.rules"
    path.write_text('extends chess\nboard { grid 8 x 12\n  zone promotion { white: rank 12  black: rank 1 }\n'
                    '  zone pawn_start { white: rank 2  black: rank 11 } }\n'
                    'setup fen "rnbqkbnr/pppppppp/8/8/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"\n')
    game = load_game(str(path))
    assert games.why_not_carried(game, "uci") is None
    assert "12 ranks" in games.why_not_carried(game, "xboard")


# ------------------------------------------------------------------ notation
def test_chess960_castling_is_written_king_takes_rook_and_read_both_ways():
    fen = "1r2k2r/8/8/8/8/8/8/1R2K2R w HBhb - 0 1"
    game = load_game("chess")
    pos = position_from_fen(game, fen)
    castles = [m for m in pos.legal_moves() if m[3] is not None and m[3][0] == "castle"]
    assert len(castles) == 2
    plain, frc = Dialect.of(game, "uci"), Dialect.of(game, "uci", chess960=True)
    assert sorted(plain.write(pos, m) for m in castles) == ["e1c1", "e1g1"]
    assert sorted(frc.write(pos, m) for m in castles) == ["e1b1", "e1h1"]
    board = chess.Board(fen, chess960=True)
    for move in castles:
        assert board.is_castling(chess.Move.from_uci(frc.write(pos, move)))
        for dialect in (plain, frc):
            assert frc.read(pos, dialect.write(pos, move)) == move
    assert Dialect.of(load_game("chess960"), "xboard").king_takes_rook   # a shuffled setup


def test_xboard_names_the_ranks_of_a_ten_rank_board_from_zero():
    game = load_game("xiangqi")
    pos = position_from_fen(game, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    xboard, uci = Dialect.of(game, "xboard"), Dialect.of(game, "uci")
    for move in pos.legal_moves():
        text = xboard.write(pos, move)
        assert xboard.read(pos, text) == move
        assert text == "".join(xboard.square(c) for c in (uci.write(pos, move)[:2], uci.write(pos, move)[2:]))
    assert xboard.cell_name("b0") == "b1" and uci.cell_name("b10") == "b10"


def test_the_null_move_is_a_pass_only_where_passing_is_legal():
    game = load_game("chess")
    pos = position_from_fen(game, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="may not pass"):
        Dialect.of(game, "uci").read(pos, "0000")


# ------------------------------------------------------------------ XBoard's view of a variant
@pytest.mark.parametrize("name", sorted(n for n, why in variants.carried_table()["xboard"].items() if why is None))
def test_every_carried_variant_has_a_complete_xboard_definition(name):
    game = load_game(name)
    table = cecp.piece_table(game)
    letters = [kind.letter.upper() for kind in game.kinds]
    assert sorted(table.values()) == sorted(letters), "every piece has an image, each its own"
    royal = [kind.letter.upper() for kind in game.kinds if kind.royal]
    if len(royal) == 1:
        assert table[len(cecp.IMAGES) - 1] == royal[0]
    setup = cecp.setup_line(game)
    assert f" {game.board.files}x{game.board.ranks}+" in setup
    pieces = [line for line in cecp.piece_lines(game) if line.startswith("piece ")]
    assert len(pieces) == len(game.kinds) and all(len(line.split()) == 3 for line in pieces)


def test_betza_modifiers_and_what_is_left_out():
    game = load_game("xiangqi")
    betza = {kind.name: cecp.piece_betza(game, kind) for kind in game.kinds}
    assert betza["Cannon"] == ("mRcpR", [])
    assert betza["Horse"] == ("nN", [])
    text, left_out = betza["General"]
    assert text == "WvcR" and "a move allowed only into some cells" in left_out
    assert "a move that only captures royal pieces" in left_out
