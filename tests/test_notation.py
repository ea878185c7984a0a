"""Move notation (interpreter.notation) against python-chess, round trips and error reporting."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from dsl.errors import IllegalMoveError, MoveError
from interpreter.loading import load_game
from interpreter.notation.san import legal_move_table, move_to_san, move_to_uci
from interpreter.notation.reading import moves_from_text, parse_move
from interpreter.loading import position_from_fen, start_position

# Start positions for the random playouts: the initial position and perft
# classics rich in castling, en passant, promotion and pins.
FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "N7/7k/N7/1N6/8/8/4r3/3K3b w - - 3 10",  # three knights reach c7: file, rank and cell disambiguation
]


@pytest.fixture(scope="module")
def game():
    return load_game("chess")


def _playouts(game, games: int, plies: int, round_trip: bool) -> int:
    """Random games compared move by move with python-chess; returns the number of moves checked."""
    checked = 0
    for seed in range(games):
        rng = random.Random(seed)
        fen = FENS[seed % len(FENS)]
        pos, board = position_from_fen(game, fen), chess.Board(fen)
        for _ in range(plies):
            legal = pos.legal_moves()
            mine = {move_to_uci(pos, m, legal=legal): (m, move_to_san(pos, m, legal=legal)) for m in legal}
            theirs = {m.uci(): board.san(m) for m in board.legal_moves}
            context = f"seed {seed}, position {board.fen()}"
            assert set(mine) == set(theirs), context
            assert {u: san for u, (_, san) in mine.items()} == theirs, context
            assert {(d["uci"], d["san"]) for d in legal_move_table(pos)} == set(theirs.items()), context
            if round_trip:
                for uci, (move, san) in mine.items():
                    assert parse_move(pos, san, legal=legal) == move, (context, san)
                    assert parse_move(pos, uci, legal=legal) == move, (context, uci)
            checked += len(legal)
            if not legal:
                break
            # Half of the time play a capture, check, promotion or castling, to reach them often.
            ucis = sorted(mine)
            special = [u for u in ucis if any(c in mine[u][1] for c in "x+#=O")]
            uci = rng.choice(special if special and rng.random() < 0.5 else ucis)
            pos.push(mine[uci][0])
            board.push_uci(uci)
    return checked


def test_san_and_uci_match_python_chess(game):
    assert _playouts(game, games=20, plies=100, round_trip=False) > 20_000


def test_round_trip_san_and_uci(game):
    assert _playouts(game, games=8, plies=80, round_trip=True) > 6_000


def test_chess960_san_matches_python_chess(game):
    """Castling with the king and rook anywhere: SAN as python-chess, from-to forms unique and readable."""
    for seed in range(8):
        rng = random.Random(seed)
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        pos = position_from_fen(game, board.fen())
        for _ in range(40):
            table = legal_move_table(pos)
            assert sorted(d["san"] for d in table) == sorted(board.san(m) for m in board.legal_moves), board.fen()
            assert len({d["uci"] for d in table}) == len(table)
            for d in table:
                assert parse_move(pos, d["uci"]) == parse_move(pos, d["san"])
            if not table:
                break
            castles = [d for d in table if d["san"].startswith("O-O")]
            d = rng.choice(castles if castles and rng.random() < 0.5 else table)
            pos.push(parse_move(pos, d["san"]))
            board.push_san(d["san"])


@pytest.mark.slow
def test_long_differential_run(game):
    assert _playouts(game, games=200, plies=120, round_trip=False) > 200_000


# ---------------------------------------------------------------- accepted forms


def _one(pos, *texts):
    """Parse every text; they must all name the same move, which is returned."""
    moves = {parse_move(pos, t) for t in texts}
    assert len(moves) == 1, moves
    return moves.pop()


def test_san_and_from_to_variants_name_the_same_move(game):
    pos = start_position(game)
    knight = _one(pos, "Nf3", "g1f3", "Ng1f3", "Ngf3", "N1f3", "Ng1-f3", "Nf3!?", "  Nf3+ ")
    assert move_to_uci(pos, knight) == "g1f3"
    pawn = _one(pos, "e4", "e2e4", "e2-e4", "Pe4", "Pe2e4")
    assert move_to_san(pos, pawn) == "e4"


def test_castling_forms(game):
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    short = _one(pos, "O-O", "0-0", "O-O+", "e1g1", "e1h1")
    long = _one(pos, "O-O-O", "0-0-0", "e1c1", "e1a1")
    assert short[3][0] == long[3][0] == "castle"
    assert (move_to_san(pos, short), move_to_uci(pos, short)) == ("O-O", "e1g1")
    assert (move_to_san(pos, long), move_to_uci(pos, long)) == ("O-O-O", "e1c1")


def test_castling_from_to_when_the_king_moves_one_cell(game):
    # Chess960-style: the king goes f1-g1 both by castling and by a plain step.
    pos = position_from_fen(game, "4k3/8/8/8/8/8/8/5K1R w H - 0 1")
    step = parse_move(pos, "f1g1")
    castle = parse_move(pos, "O-O")
    assert step[3] is None and castle[3][0] == "castle"
    assert move_to_uci(pos, step) == "f1g1" and move_to_uci(pos, castle) == "f1h1"
    assert parse_move(pos, "f1h1") == castle and parse_move(pos, "Kg1") == step
    table = legal_move_table(pos)
    assert len({d["uci"] for d in table}) == len(table)


def test_promotion_forms(game):
    pos = position_from_fen(game, "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    knight = _one(pos, "a8=N", "a8N", "a8n", "a8=n", "a7a8n", "a7a8N")
    assert (move_to_san(pos, knight), move_to_uci(pos, knight)) == ("a8=N", "a7a8n")


def test_en_passant_forms(game):
    pos = position_from_fen(game, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    ep = _one(pos, "exd6", "ed6", "e5d6", "exd6+")
    assert ep[3][0] == "ep"
    assert move_to_san(pos, ep) == "exd6"


def test_check_and_mate_suffixes(game):
    pos = start_position(game)
    played = moves_from_text(pos, "1. f3 e5 2. g4")
    assert len(played) == 3
    mate = parse_move(pos, "Qh4")
    assert move_to_san(pos, mate) == "Qh4#"
    pos = position_from_fen(game, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert move_to_san(pos, parse_move(pos, "Ra8")) == "Ra8+"


def test_move_lists_skip_move_numbers(game):
    pos = start_position(game)
    played = moves_from_text(pos, "1. e4 1... e5 2.Nf3 Nc6 3. Bb5 *")
    assert len(played) == 5 and pos.fullmove == 3
    assert moves_from_text(pos, "") == []


def test_legal_move_table(game):
    pos = start_position(game)
    table = legal_move_table(pos)
    assert len(table) == 20
    assert table[0] == {"san": "Na3", "uci": "b1a3", "from": "b1", "to": "a3"}
    assert {d["san"] for d in table} >= {"e4", "Nf3", "h3"}


def test_illegal_move_tuple_is_a_value_error(game):
    pos = start_position(game)
    with pytest.raises(ValueError):
        move_to_san(pos, (12, 36, 0, None))  # e2e5
    with pytest.raises(ValueError):
        move_to_uci(pos, (12, 36, 0, None))


BIG = """
variant big {
  title "Big"
}

include orthodox

board {
  grid 10 x 10
  zone promotion { white: rank 10  black: rank 1 }
  zone pawn_start { white: rank 2  black: rank 9 }
}

armies {
  army white "White" { letters upper  forward n }
  army black "Black" { letters lower  forward s }
  turn white, black
}

setup fen "r1bqkb2nr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R1BQKB2NR w - - 0 1"
"""


def test_ten_by_ten_board_with_two_digit_ranks(tmp_path: Path):
    path = tmp_path / "big.rules"
    path.write_text(BIG)
    big = load_game(path)
    pos = start_position(big)
    played = moves_from_text(pos, "a4 j7 a5 j6 a6 j5 a7 j4 a8 j3 axb9 jxi2 bxc10=Q ixj1=N")
    assert move_to_san(start_position(big), played[0]) == "a4"
    queen = _one(pos, "Qxd9", "Qd9", "Qcd9", "Q10d9", "c10d9", "Qc10xd9")
    assert (move_to_san(pos, queen), move_to_uci(pos, queen)) == ("Qxd9+", "c10d9")
    with pytest.raises(MoveError) as info:
        parse_move(pos, "a11")
    assert "no cell 'a11'" in info.value.message and info.value.loc.column == 1


# ---------------------------------------------------------------- errors


def _error(pos, text, kind=MoveError):
    with pytest.raises(kind) as info:
        parse_move(pos, text)
    return info.value


@pytest.mark.parametrize("text, message, column, end", [
    ("Nf", "cannot read move 'Nf'", 1, 3),
    ("Nf3$", "unexpected character '$'", 4, 5),
    ("Ke9", "no cell 'e9' on this board", 2, 4),
    ("Zf3", "unknown piece letter 'Z'", 1, 2),
    ("e4=X", "unknown piece letter 'X'", 4, 5),
    ("i4", "no file 'i' on this board", 1, 2),
    ("", "empty move", 1, 2),
])
def test_unreadable_moves(game, text, message, column, end):
    err = _error(start_position(game), text)
    assert not isinstance(err, IllegalMoveError)
    assert message in err.message
    assert (err.loc.path, err.loc.column, err.loc.end_column) == ("<move>", column, end)
    assert err.expected


def test_unreadable_move_hints(game):
    pos = start_position(game)
    assert "'Nc3'" in _error(pos, "nc3").hint
    assert "'O-O'" in _error(pos, "o-o").hint
    assert "'e4'" in _error(pos, "E4").hint
    assert "piece letters K, Q, R, B, N, P" in _error(pos, "Zf3").expected


@pytest.mark.parametrize("fen, text, message, column", [
    (None, "Nf4", "no White Knight can move to f4", 2),
    (None, "Nd2", "no White Knight can move to d2 (a White Pawn stands there)", 2),
    (None, "e3e4", "there is no piece on e3", 1),
    (None, "Bg1f3", "the piece on g1 is a Knight, not a Bishop", 2),
    (None, "Qh5", "the Queen on d1 cannot move to h5", 2),
    (None, "Ra3", "no White Rook can move to a3", 2),
    (None, "Kb1", "the King on e1 cannot move to b1 (a White Knight stands there)", 2),
    (None, "e4=Q", "a move to e4 does not promote", 4),
    ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "it would leave White's King in check", 1),
    ("4k3/4r3/8/8/8/8/8/N3K3 w - - 0 1", "Nb3", "White's King is in check and this move does not get it out", 1),
    ("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8=K", "it cannot promote to a King on a8 (choices: B, N, Q, R)", 4),
    ("8/8/8/8/8/8/8/K6k w - - 0 1", "b8", "White has no Pawn", 1),
])
def test_illegal_moves_say_why(game, fen, text, message, column):
    err = _error(position_from_fen(game, fen) if fen else start_position(game), text, IllegalMoveError)
    assert err.message == f"illegal move {text!r}: {message}"
    assert err.loc.column == column


def test_wrong_side(game):
    pos = start_position(game)
    err = _error(pos, "e7e5", IllegalMoveError)
    assert "the Pawn on e7 belongs to Black" in err.message
    assert err.hint == "it is White's turn"
    assert (err.loc.column, err.loc.end_column) == (1, 3)
    err = _error(pos, "e5", IllegalMoveError)
    assert "no White Pawn can move to e5" in err.message
    assert err.hint == "it is White's turn, not Black's"


def test_ambiguous_move_lists_candidates(game):
    pos = start_position(game)
    moves_from_text(pos, "d4 a6 Nf3 a5")
    err = _error(pos, "Nd2", IllegalMoveError)
    assert err.message.startswith("ambiguous move 'Nd2': it could be ")
    assert "Nbd2 (b1d2)" in err.message and "Nfd2 (f3d2)" in err.message
    assert (err.loc.column, err.loc.end_column) == (1, 4)
    assert "origin file" in err.hint


def test_missing_promotion_piece(game):
    err = _error(position_from_fen(game, "8/P6k/8/8/8/8/8/K7 w - - 0 1"), "a8", IllegalMoveError)
    assert "must say which piece to promote to" in err.message
    assert "a8=Q" in err.expected and "a8=N" in err.expected


def test_illegal_castling(game):
    pos = start_position(game)
    err = _error(pos, "O-O", IllegalMoveError)
    assert "castling short (O-O)" in err.message
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1")
    assert "may no longer castle" in _error(pos, "O-O-O", IllegalMoveError).message
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1")
    assert "no unmoved Rook" in _error(pos, "O-O-O", IllegalMoveError).message
    pos = position_from_fen(game, "r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1")
    assert "out of check" in _error(pos, "O-O", IllegalMoveError).message


def test_no_move_after_checkmate(game):
    pos = start_position(game)
    moves_from_text(pos, "f3 e5 g4 Qh4#")
    err = _error(pos, "e4", IllegalMoveError)
    assert "White has no legal move (the game is over: Black wins by checkmate)" in err.message


def test_move_list_errors_point_into_the_whole_text(game):
    pos = start_position(game)
    before = (list(pos.board), pos.hash, len(pos.history))
    text = "1. e4 e5 2. Ke3 Nc6"
    with pytest.raises(IllegalMoveError) as info:
        moves_from_text(pos, text)
    err = info.value
    assert err.message.startswith("move 3 ('Ke3'): illegal move 'Ke3': the King on e1 cannot move to e3")
    assert (err.loc.path, err.loc.column, err.loc.end_column) == ("<moves>", text.index("e3") + 1,
                                                                  text.index("e3") + 3)
    assert err.loc.text == text
    assert (list(pos.board), pos.hash, len(pos.history)) == before  # nothing stays played

    with pytest.raises(MoveError) as info:
        moves_from_text(pos, "e4 e5 Nf$")
    assert info.value.message.startswith("move 3 ('Nf$'): unexpected character '$'")
    assert info.value.loc.column == 9
    assert not isinstance(info.value, IllegalMoveError)


WIDE = BIG.replace("variant big", "variant wide").replace("grid 10 x 10", "grid 28 x 4") \
    .replace("rank 10", "rank 4").replace("rank 9", "rank 3") \
    .replace("r1bqkb2nr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R1BQKB2NR", "k27/27p/P27/R25RK")


def test_two_letter_files_read_back(tmp_path: Path):
    # Files past z are aa, ab: "Raab1" could be R a-file -> ab1 or R aa-file -> b1, so the
    # writer gives the whole origin cell, and every written move reads back.
    path = tmp_path / "wide.rules"
    path.write_text(WIDE)
    pos = start_position(load_game(path))
    table = {d["uci"]: d["san"] for d in legal_move_table(pos)}
    assert table["a1b1"] == "Ra1b1" and table["aa1b1"] == "Raa1b1" and table["aa1aa2"] == "Raa2"
    for uci, san in table.items():
        assert parse_move(pos, san) == parse_move(pos, uci)
    assert move_to_uci(pos, parse_move(pos, "Raab1")) == "aa1b1"


# ---------------------------------------------------------------- other variants

VARIANT_BOARDS = {  # bundled variant -> python-chess board class (antichess differs: see below)
    "crazyhouse": "CrazyhouseBoard",
    "atomic": "AtomicBoard",
    "kingofthehill": "KingOfTheHillBoard",
    "threecheck": "ThreeCheckBoard",
    "horde": "HordeBoard",
    "racingkings": "RacingKingsBoard",
}


@pytest.mark.parametrize("variant", sorted(VARIANT_BOARDS))
def test_variant_san_matches_python_chess(variant):
    """Drops, explosions, immediate wins ('#' as python-chess writes variant wins), no royal piece.

    Antichess is left out: python-chess also writes '#' for a move that
    leaves the opponent without a move (a win there), which would need the
    replies of every move; this module writes '#' only for mates and
    immediate ends.
    """
    import chess.variant

    game = load_game(variant)
    for seed in range(4):
        rng = random.Random(seed)
        pos, board = start_position(game), getattr(chess.variant, VARIANT_BOARDS[variant])()
        for _ in range(60):
            table = legal_move_table(pos)
            theirs = set() if board.is_variant_end() else {(m.uci(), board.san(m)) for m in board.legal_moves}
            assert {(d["uci"], d["san"]) for d in table} == theirs, board.fen()
            if not table:
                break
            row = rng.choice(table)
            assert parse_move(pos, row["san"]) == parse_move(pos, row["uci"])
            pos.push(parse_move(pos, row["san"]))
            board.push_uci(row["uci"])


ZH = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 4 4"


def test_drops(tmp_path: Path):
    pos = position_from_fen(load_game("crazyhouse"), ZH)
    drop = _one(pos, "@e6", "P@e6", "p@e6", "P@e6+")
    assert (move_to_san(pos, drop), move_to_uci(pos, drop)) == ("@e6", "P@e6")
    row = next(d for d in legal_move_table(pos) if d["uci"] == "P@e6")
    assert row["from"] is None and row["to"] == "e6"


@pytest.mark.parametrize("text, message, column", [
    ("N@e6", "White has no Knight in hand", 1),
    ("@e4", "a Pawn cannot be dropped on e4 (a White Pawn stands there)", 2),
    ("@g8", "a Pawn cannot be dropped on g8", 2),
])
def test_illegal_drops(text, message, column):
    err = _error(position_from_fen(load_game("crazyhouse"), ZH), text, IllegalMoveError)
    assert err.message == f"illegal move {text!r}: {message}"
    assert err.loc.column == column


def test_drop_errors(game):
    err = _error(position_from_fen(load_game("crazyhouse"), ZH), "Q@")
    assert not isinstance(err, IllegalMoveError) and "cannot read drop 'Q@'" in err.message
    assert "this variant has no drops" in _error(start_position(game), "N@f3", IllegalMoveError).message


# ---------------------------------------------------------------- shogi: '+' letters, optional promotion, drops

SHOGI_FEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"


@pytest.fixture(scope="module")
def shogi():
    return load_game("shogi")


def test_shogi_pieces_that_promote_to_plus_letters_keep_their_letters(shogi):
    # Every shogi piece but the king and gold may promote; all promote to '+' kinds, so none is a
    # letterless "pawn": the pawn is written P, as Fairy-Stockfish writes it.
    table = legal_move_table(start_position(shogi))
    assert {d["san"] for d in table} >= {"Pc4", "Sc2", "La2", "Rc2", "Gde2", "Ke2"}
    pos = position_from_fen(shogi, "4k4/9/9/9/9/2p6/9/9/4K2+R1[] w - - 0 1")
    sans = {d["san"]: d["uci"] for d in legal_move_table(pos)}
    assert sans["+Rh5"] == "h1h5" and sans["+Rg2"] == "h1g2" and sans["+Rh9+"] == "h1h9"
    assert _one(pos, "+Rh5", "+Rhh5", "+R1h5", "+Rh1-h5", "+Rh1h5", "h1h5")[:2] == (7, 43)
    assert "did you mean '+Rh5'?" in _error(pos, "+rh5").hint
    err = _error(pos, "Rh5", IllegalMoveError)
    assert "Sente has no Rook" in err.message


def test_shogi_optional_promotion(shogi):
    pos = start_position(shogi)
    moves_from_text(pos, "Pc4 Pg6")
    table = {d["san"]: d["uci"] for d in legal_move_table(pos)}
    # The bishop may take on h8 (in the camp) staying a bishop or promoting to a horse.
    assert table["Bxh8"] == "b2h8" and table["Bxh8=+B"] == "b2h8+"
    assert table["Bg7+"] == "b2g7" and table["Bg7=+B+"] == "b2g7+"  # the check suffix follows the promotion
    stay = _one(pos, "Bxh8", "Bh8", "b2h8", "Bb2h8", "Bxh8!", "b2xh8", "b2h8#")
    promote = _one(pos, "Bxh8=+B", "Bh8=+B", "Bxh8+B", "b2h8+", "b2h8=+B", "b2h8+b", "b2h8=+b", "b2h8++")
    assert stay[2] == 0 and promote[2] != 0 and stay[:2] == promote[:2]
    # In SAN a trailing '+' is a check; in the from-to form, the '+' promotion.
    assert _one(pos, "Bg7", "Bg7+", "b2g7") != _one(pos, "Bg7=+B", "Bg7=+B+", "b2g7+", "b2g7++")
    # A '+' after a from-to move that cannot promote is a check annotation.
    assert parse_move(pos, "c4c5+") == parse_move(pos, "Pc5")
    assert "a move to c5 does not promote" in _error(pos, "Pc5=+P", IllegalMoveError).message
    assert "choices: +B" in _error(pos, "Bxh8=+R", IllegalMoveError).message
    assert "unknown piece letter '+Q'" in _error(pos, "Bxh8=+Q").message


def test_shogi_forced_promotion_and_drops(shogi):
    pos = position_from_fen(shogi, "4k4/6P2/9/9/9/9/9/9/4K4[Pr] w - - 0 1")
    rows = {d["san"]: d for d in legal_move_table(pos)}
    # On the last rank a pawn must promote: one move, written with its promotion, read without it too.
    assert rows["Pg9=+P"]["uci"] == "g8g9+" and "Pg9" not in rows
    assert _one(pos, "Pg9=+P", "Pg9", "g8g9+", "g8g9") == parse_move(pos, "g8g9+")
    drop = _one(pos, "P@e5", "p@e5", "P@e5+")
    assert (move_to_san(pos, drop), move_to_uci(pos, drop)) == ("P@e5", "P@e5")
    assert rows["P@e5"]["from"] is None and "P@e9" not in rows  # no pawn drop on the last rank
    err = _error(pos, "R@e5", IllegalMoveError)
    assert "Sente has no Rook in hand" in err.message


def test_shogi_text_without_a_letter_gets_a_hint(shogi):
    pos = start_position(shogi)
    err = _error(pos, "c4", IllegalMoveError)
    assert "Sente has no piece without a letter" in err.message
    assert err.hint == "every piece of Shogi is written with its letter: did you mean 'Pc4'?"


def test_shogi_round_trip_and_fairy_stockfish_moves(shogi):
    """Seeded random games: SAN and UCI round trips, unique texts, UCI move sets as Fairy-Stockfish's."""
    sf = pytest.importorskip("pyffish")
    start = sf.start_fen("shogi")
    checked = promotions = 0
    for seed in range(6):
        rng = random.Random(seed)
        pos, played = position_from_fen(shogi, SHOGI_FEN), []
        for _ in range(60):
            legal = pos.legal_moves()
            table = legal_move_table(pos)
            assert len({d["san"] for d in table}) == len({d["uci"] for d in table}) == len(legal)
            by_uci = {}
            for move in legal:
                san, uci = move_to_san(pos, move, legal=legal), move_to_uci(pos, move, legal=legal)
                assert parse_move(pos, san, legal=legal) == move, (seed, san)
                assert parse_move(pos, uci) == move, (seed, uci)
                by_uci[uci] = move
                promotions += "=" in san
            assert set(by_uci) == set(sf.legal_moves("shogi", start, played)), (seed, played)
            checked += len(legal)
            if not legal:
                break
            uci = rng.choice(sorted(by_uci))
            pos.push(by_uci[uci])
            played.append(uci)
    assert checked > 5_000 and promotions > 50


# ---------------------------------------------------------------- legal=: no recomputation


def test_given_legal_moves_are_not_recomputed(game, monkeypatch):
    from interpreter.engine.position import Position

    pos = start_position(game)
    legal = pos.legal_moves()
    knight = parse_move(pos, "Nf3")
    calls = []
    original = Position.legal_moves
    monkeypatch.setattr(Position, "legal_moves", lambda self: calls.append(1) or original(self))
    assert parse_move(pos, "Nf3", legal=legal) == knight
    assert move_to_san(pos, knight, legal=legal) == "Nf3"
    assert move_to_uci(pos, knight, legal=legal) == "g1f3"
    assert calls == []
    assert (move_to_san(pos, knight), move_to_uci(pos, knight), parse_move(pos, "g1f3")) == ("Nf3", "g1f3", knight)
    assert len(calls) == 3
    calls.clear()
    legal_move_table(pos)
    assert len(calls) == 1  # once for the whole table (no move of the start position gives check)
    with pytest.raises(ValueError):
        move_to_san(pos, (12, 36, 0, None), legal=legal)


# ---------------------------------------------------------------- stacking games (Locking Chess)


@pytest.fixture(scope="module")
def locking():
    return load_game("locking")


def _forms(pos, text):
    """(SAN, from-to) of the move ``text`` names."""
    move = parse_move(pos, text)
    return move_to_san(pos, move), move_to_uci(pos, move)


def test_stacking_climbs_and_landings_end_in_a_star(locking):
    pos = start_position(locking)
    table = {d["san"]: d["uci"] for d in legal_move_table(pos)}
    assert len(table) == 40
    assert table["Rb1*"] == "a1b1*" and table["Qe1*"] == "d1e1*" and table["Nd2*"] == "b1d2*"
    assert table["Nf3"] == "g1f3" and table["e4"] == "e2e4"
    assert not any("x" in san for san in table)  # climbing captures nothing
    # A bishop on top of a pawn: landing on a piece '*', stepping down to an empty cell plain.
    pos = position_from_fen(locking, "4k3/8/8/3n4/8/5(PB)2/8/4K3 w - - 0 1")
    assert _forms(pos, "Bd5*") == ("Bd5*", "f3d5*")
    assert _forms(pos, "Bb7") == ("Bb7", "f3b7")  # over the knight, in airspace


def test_stacking_capture_and_landing_with_the_same_cells(locking):
    # An overlaid knight on its own pawn may take the bishop on f3 or land on it: two moves.
    pos = position_from_fen(locking, "4k3/8/8/8/8/5b2/8/4K1(PN)1 w - - 0 1")
    assert _forms(pos, "Nxf3") == ("Nxf3", "g1f3")
    assert _forms(pos, "Nf3*") == ("Nf3*", "g1f3*")
    assert _forms(pos, "g1f3*") == ("Nf3*", "g1f3*")
    assert parse_move(pos, "Nf3") == parse_move(pos, "Nxf3")  # no '*': the move written without it
    # Disambiguation looks only at the moves written alike: a second knight can take, not land.
    pos = position_from_fen(locking, "4k3/8/8/8/8/5b2/3N4/4K1(PN)1 w - - 0 1")
    assert {d["san"] for d in legal_move_table(pos) if d["to"] == "f3"} == {"Nf3*", "Ngxf3", "Ndxf3"}


def test_stacking_captures_of_stacks(locking):
    # Board-level knight takes the black top of f3; an overlaid pawn takes both of an enemy stack.
    pos = position_from_fen(locking, "4k3/8/8/2(nb)5/3(NP)4/5(Pb)2/8/4K1N1 w - - 0 1")
    assert _forms(pos, "Nxf3") == ("Nxf3", "g1f3")
    assert _forms(pos, "dxc5") == ("dxc5", "d4c5")
    assert _forms(pos, "d5") == ("d5", "d4d5")
    assert _forms(pos, "de5") == ("de5", "d4e5")  # an overlaid pawn stepping down diagonally names its file


def test_stacking_pawn_climb_and_promotion(locking):
    pos = position_from_fen(locking, "6R1/6P1/k7/8/8/8/P7/1N2K3 w - - 0 1")
    assert _forms(pos, "g8=Q*") == ("g8=Q*", "g7g8q*")
    assert _forms(pos, "g7g8n*") == ("g8=N*", "g7g8n*")
    pos = position_from_fen(locking, "4k3/8/8/8/8/1N6/P7/4K3 w - - 0 1")
    assert _forms(pos, "ab3*") == ("ab3*", "a2b3*")


def test_castlock(locking):
    pos = position_from_fen(locking, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert _forms(pos, "O-O") == ("O-O", "e1g1")
    assert _forms(pos, "O-O*") == ("O-O*", "e1g1*")
    assert _forms(pos, "0-0-0*") == ("O-O-O*", "e1c1*")
    assert _forms(pos, "e1g1") == ("O-O", "e1g1")
    assert _forms(pos, "e1g1*") == ("O-O*", "e1g1*")
    assert _forms(pos, "e1h1") == ("O-O", "e1g1")
    assert parse_move(pos, "O-O*")[3][0] == "castlock"
    # A castlock the opponent's overlaid bishop could take: O-O is legal, O-O* is not.
    pos = position_from_fen(locking, "4k3/8/8/2(pb)5/8/8/5P2/4K2R w K - 0 1")
    assert move_to_san(pos, parse_move(pos, "O-O")) == "O-O"
    err = _error(pos, "O-O*", IllegalMoveError)
    assert err.message.startswith("illegal move 'O-O*': castling short_lock (O-O*) needs")
    assert "must not be open to capture" in err.message


def test_sep(locking):
    pos = position_from_fen(locking, "4k3/8/8/8/1(Np)6/8/P7/4K3 w - - 0 1")
    moves_from_text(pos, "a4")
    sep = parse_move(pos, "ba3* sep")
    assert sep[3][0] == "sep"
    assert (move_to_san(pos, sep), move_to_uci(pos, sep)) == ("ba3* sep", "b4a3*")
    for text in ("b4a3*", "b4-a3 sep", "ba3*", "ba3 sep", "ba3* sep+", "ba3*+ sep", "  ba3* SEP "):
        assert parse_move(pos, text) == sep, text
    step = parse_move(pos, "ba3")
    assert step[3] == ("st", "descend", None)
    assert (move_to_san(pos, step), move_to_uci(pos, step)) == ("ba3", "b4a3")
    assert parse_move(pos, "b4a3") == step
    err = _error(pos, "b3 sep", IllegalMoveError)
    assert "it is not an overlay en passant (sep)" in err.message


def test_sep_in_move_lists(locking):
    pos = position_from_fen(locking, "4k3/8/8/8/1(Np)6/8/P7/4K3 w - - 0 1")
    played = moves_from_text(pos, "1. a4 ba3* sep 2. Kd2 Kd7 *")
    assert [m[3][0] for m in played] == ["st", "sep", "st", "st"]
    again = position_from_fen(locking, "4k3/8/8/8/1(Np)6/8/P7/4K3 w - - 0 1")
    texts = []
    for move in played:
        texts.append(move_to_san(again, move))
        again.push(move)
    assert texts == ["a4", "ba3* sep", "Kd2", "Kd7"]


def test_star_names_only_stacking_moves(locking):
    pos = start_position(locking)
    err = _error(pos, "Nf3*", IllegalMoveError)
    assert err.message == "illegal move 'Nf3*': it is not a move that climbs or lands (written with '*')"
    assert err.expected == "one of Nf3"
    assert parse_move(pos, "Rb1") == parse_move(pos, "Rb1*")  # the climb, the only move to b1
    assert parse_move(pos, "a1b1") == parse_move(pos, "a1b1*")


def test_locking_round_trip_and_unique_forms(locking):
    """Random Locking Chess games: every legal move's SAN and from-to are unique and read back."""
    import random
    seen = set()
    for seed in range(4):
        rng = random.Random(seed)
        pos = start_position(locking)
        for _ in range(60):
            legal = pos.legal_moves()
            if not legal:
                break
            table = legal_move_table(pos)
            assert len({d["san"] for d in table}) == len({d["uci"] for d in table}) == len(legal)
            for move in legal:
                san, uci = move_to_san(pos, move, legal=legal), move_to_uci(pos, move, legal=legal)
                assert parse_move(pos, san, legal=legal) == move, san
                assert parse_move(pos, uci, legal=legal) == move, uci
                seen.add("*" in san)
            pos.push(rng.choice(legal))
    assert seen == {True, False}
