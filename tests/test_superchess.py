"""Superchess: acceptance tests SC-T1 to SC-T10, each its own test, and the
rest of the section's rules in every play mode.

Cells are named by file (a..n) and rank (1..14). Positions are built from a few pieces with
:func:`position`; pawns are written with their facing (``wP>e``), an uncommitted point pawn with
both (``wP>e>s``). The perft counts of ``tests/perft/superchess.txt`` run in ``test_perft.py``.
"""

from __future__ import annotations

import random

import pytest

from interpreter.notation.fen import to_fen
from interpreter.loading import load_game
from interpreter.notation.san import move_to_san, move_to_uci
from interpreter.notation.reading import moves_from_text, parse_move
from interpreter.engine.outcome import outcome
from interpreter.engine.position import Position
from interpreter.engine.attacks import checkers, royal_attacked, royal_cells
from interpreter.engine.legality import rule_abiding_moves
from interpreter.loading import position_from_fen, start_position

WHITE, BLACK, TAN, BROWN = range(4)
CORNERS = ([f + r for f in "abclmn" for r in ("1", "2", "13", "14")]
           + [f + r for f in "abmn" for r in ("3", "12")])
CENTRE = [f + str(r) for f in "fghi" for r in range(6, 10)]
# The start array, army by army.
SETUP = {
    "w": "R d14, N d13, K c12, B d12, Q d11, R a11, N b11, B c11, "
         "P e14, P e13, P e12, P e11, P a10, P b10, P c10, P d10, P e10",
    "b": "R k14, N k13, B k12, K l12, Q k11, B l11, N m11, R n11, "
         "P j14, P j13, P j12, P j11, P j10, P k10, P l10, P m10, P n10",
    "r": "R a4, N b4, B c4, Q d4, K c3, B d3, N d2, R d1, P a5, P b5, P c5, P d5, P e5, P e4, P e3, P e2, P e1",
    "t": "Q k4, B l4, N m4, R n4, B k3, K l3, N k2, R k1, P j5, P k5, P l5, P m5, P n5, P j4, P j3, P j2, P j1",
}
# Kings far from the action, for positions that do not place them.
KINGS = {"wK": "c12", "bK": "l12", "tK": "l3", "rK": "c3"}


@pytest.fixture(scope="module")
def game():
    return load_game("superchess")


def position(game, pieces: dict[str, str], army: str = "w", castling: str = "-") -> Position:
    """A position with ``pieces`` (cell -> symbol), the four kings on their start cells unless given
    (or given as None), ``army`` to move and the castling field ``castling``."""
    placed = dict(pieces)
    for king, cell in KINGS.items():
        if king not in placed.values() and cell not in placed:
            placed[cell] = king
    pos = Position(game)
    for cell, symbol in placed.items():
        if symbol is not None:
            pos.place(game.board.index[cell], game.symbol_code[symbol])
    pos.rehash()
    fields = to_fen(pos).split()
    fields[1], fields[2] = army, castling
    return position_from_fen(game, " ".join(fields))


def cells(game, moves, frm: str | None = None) -> list[str]:
    """The destinations of ``moves`` (those from ``frm`` only, if given)."""
    names = game.board.names
    return sorted(names[m[1]] for m in moves if m[0] >= 0 and (frm is None or names[m[0]] == frm))


def ucis(pos) -> set[str]:
    legal = pos.legal_moves()
    return {move_to_uci(pos, m, legal) for m in legal}


# ---------------------------------------------------------------- SC-T1 .. SC-T10


def test_sc_t1_board_has_148_cells(game):
    names = set(game.board.names)
    assert len(game.board) == 148
    assert len(CORNERS) == 32 and not names & set(CORNERS)
    assert len(CENTRE) == 16 and not names & set(CENTRE)
    assert names == {f + str(r) for f in "abcdefghijklmn" for r in range(1, 15)} - set(CORNERS) - set(CENTRE)


def test_sc_t2_initial_array(game):
    start = start_position(game)
    on_board = {game.board.names[c]: game.code_symbol[code].split(">")[0]
                for c, code in enumerate(start.board) if code}
    expected = {}
    for army, text in SETUP.items():
        for entry in text.split(", "):
            letter, cell = entry.split()
            expected[cell] = army + letter
    assert len(on_board) == 68 == len(expected)
    assert on_board == expected
    assert all(len(start.cells_of[a]) == 17 for a in range(4))


def test_sc_t3_point_pawn(game):
    start = start_position(game)
    assert cells(game, start.legal_moves(), "e10") == ["e8", "e9", "f10", "g10"]
    pos = position(game, {"e10": "wP>e>s", "g11": "bN"})
    moves_from_text(pos, "e10f10")
    assert game.code_symbol[pos.board[game.board.index["f10"]]] == "wP>e"  # committed to east
    pos = position(game, {"f10": "wP>e", "g11": "bN"})
    assert cells(game, pos.legal_moves(), "f10") == ["g10", "g11"]  # g9 is in the void
    assert "f10g10" in ucis(pos) and "f10g11" in ucis(pos)


def test_sc_t4_lines_stop_at_the_void(game):
    pos = position(game, {"e7": "wR", "e10": "wB"})
    rook = cells(game, pos.legal_moves(), "e7")
    assert "f7" not in rook and not [c for c in rook if c[0] > "e"]
    assert "f9" not in cells(game, pos.legal_moves(), "e10")


def test_sc_t5_knights_leap_over_the_void_corners(game):
    pos = position(game, {"e8": "wN"})
    assert cells(game, pos.legal_moves(), "e8") == ["c7", "c9", "d10", "d6", "f10"]
    pos = position(game, {"e9": "wN"})
    assert "g10" in cells(game, pos.legal_moves(), "e9")


def test_sc_t6_castling_swaps_king_and_rook(game):
    start = start_position(game)
    legal = start.legal_moves()
    castles = {move_to_san(start, m, legal): m for m in legal if m[3] is not None and m[3][0] == "castle"}
    assert set(castles) == {"O-O", "O-O-O"}
    start.push(castles["O-O"])
    names = {game.board.names[c]: game.code_symbol[code] for c, code in enumerate(start.board) if code}
    assert names["d14"] == "wK" and names["c12"] == "wR" and names["d13"] == "wN" and names["d12"] == "wB"
    # Not once the king or that rook has moved, nor while c12 is in check.
    pieces = {"c12": "wK", "d14": "wR", "a11": "wR", "d13": "wN", "d12": "wB"}
    assert {"c12d14", "c12a11"} <= ucis(position(game, pieces, castling="c12,d14,a11"))
    assert not {"c12d14", "c12a11"} & ucis(position(game, pieces, castling="d14,a11"))
    assert "c12d14" not in ucis(position(game, pieces, castling="c12,a11"))
    checked = position(game, {**pieces, "c5": "bR"}, castling="c12,d14,a11")
    assert checked.in_check() and not {"c12d14", "c12a11"} & ucis(checked)


def test_sc_t7_partners_are_never_captured_nor_exposed(game):
    pos = position(game, {"e7": "wR", "e4": "tN", "b7": "tP>w"})
    assert "e4" not in cells(game, pos.legal_moves(), "e7") and "b7" not in cells(game, pos.legal_moves(), "e7")
    assert all(not game.hostile[WHITE][code] for code in range(1, game.ncodes) if game.code_army[code] == TAN)
    # The white knight on g12 shields Tan's king on f12 from Black's rook on i12.
    pos = position(game, {"f12": "tK", "g12": "wN", "i12": "bR"})
    assert cells(game, pos.legal_moves(), "g12") == []


def test_sc_t8_promotion(game):
    # A white pawn going east promotes on k14 (l14 is off the board): any non-king piece of White or Tan.
    pos = position(game, {"j14": "wP>e"})
    legal = pos.legal_moves()
    promotions = sorted(move_to_san(pos, m, legal).rstrip("+") for m in legal if game.board.names[m[0]] == "j14")
    assert promotions == ["k14=B", "k14=N", "k14=Q", "k14=R", "k14=tB", "k14=tN", "k14=tQ", "k14=tR"]
    move = parse_move(pos, "j14k14=tQ")
    pos.push(move)
    assert game.code_symbol[pos.board[game.board.index["k14"]]] == "tQ"  # Tan's queen now
    # A white pawn on k10 capturing onto l9 enters a new frontier: it promotes.
    pos = position(game, {"k10": "wP>e", "l9": "bN", "j9": "rN"})
    legal = pos.legal_moves()
    assert len([m for m in legal if game.board.names[m[1]] == "l9"]) == 8
    # The move forward (l10) and a capture that stays out of a new frontier do not promote.
    assert [m[2] for m in legal if game.board.names[m[1]] == "l10"] == [0]


def _mated_black(game):
    """Black to move, its king on n11 mated by a white queen on l11 and a rook on a10; a black
    knight on a7 can still move."""
    return position(game, {"n11": "bK", "l11": "wQ", "a10": "wR", "a7": "bN"}, "b")


def test_sc_t9_a_mated_king_is_removed_and_its_army_plays_on(game):
    pos = _mated_black(game)
    fen = to_fen(pos)
    assert pos.in_check()
    moves = pos.legal_moves()
    assert len(moves) == 1 and moves[0][3][0] == "remove" and game.board.names[moves[0][0]] == "n11"
    pos.push(moves[0])
    assert not royal_cells(pos, BLACK) and outcome(pos) is None
    for _ in range(3):  # Tan, Brown, White
        pos.push(pos.legal_moves()[0])
    assert pos.army == BLACK and cells(game, pos.legal_moves(), "a7")  # the knight still moves
    for _ in range(4):
        pos.pop()
    assert to_fen(pos) == fen


def test_sc_t10_the_game_ends_when_a_team_has_lost_both_kings(game):
    # Brown's king is gone; Black's is mated: removing it ends the game, light wins.
    pos = position(game, {"n11": "bK", "l11": "wQ", "a10": "wR", "a7": "bN", "c3": None}, "b")
    assert outcome(pos) is None
    pos.push(pos.legal_moves()[0])
    result = outcome(pos)
    assert result is not None and result.rule == "both_kings_lost"
    assert set(result.winners) == {WHITE, TAN}


# ---------------------------------------------------------------- the rest of section 2


def test_fen_names_facings_and_round_trips(game):
    fen = to_fen(start_position(game))
    assert fen.startswith("wR,wP>e,4,bP>w,bR/") and ",wP>e>s,4,bP>w>s," in fen
    assert fen.split()[1:] == ["w", "d1,k1,c3,l3,a4,n4,a11,n11,c12,l12,d14,k14", "-", "0", "1"]
    assert to_fen(position_from_fen(game, fen)) == fen
    # A pawn written without a facing faces its army's forward direction: north here.
    assert game.code_facing[game.symbol_code["wP"]] == ("n",)


def test_en_passant_only_by_the_next_army_and_only_an_enemy(game):
    pos = position(game, {"e12": "wP>e", "g11": "bP>w", "e11": "rP>n"})
    moves_from_text(pos, "e12g12")
    assert "g11f12" in ucis(pos)  # Black moves next: it may take en passant
    moves_from_text(pos, "l12k11")
    moves_from_text(pos, "l3k2")
    assert pos.army == BROWN and "e11f12" not in ucis(pos)  # Brown comes too late


def test_kings_are_never_captured(game):
    pos = position(game, {"e7": "wR", "e4": "rK", "c3": None})
    assert "e4" not in cells(game, pos.legal_moves(), "e7")


def test_a_partners_king_in_check_need_not_be_relieved(game):
    # Tan's king on f12 is in check from a black rook on i12; White may play on elsewhere.
    pos = position(game, {"f12": "tK", "i12": "bR", "e7": "wR"})
    assert cells(game, pos.legal_moves(), "e7")


def test_an_army_without_moves_passes(game):
    # A lone brown king on d1, not in check, with white rooks on e8 and h2 covering e1, e2 and d2.
    pos = position(game, {"d1": "rK", "e8": "wR", "h2": "wR"}, "r")
    moves = pos.legal_moves()
    assert pos.army == BROWN and not pos.in_check()
    assert len(moves) == 1 and moves[0][3] == ("pass",)
    legal = pos.legal_moves()
    assert move_to_san(pos, moves[0], legal) and parse_move(pos, move_to_uci(pos, moves[0], legal)) == moves[0]


def test_modes(game):
    two, three, four = (load_game("superchess", m) for m in ("2p", "3p", "4p"))
    assert four.turn_armies == [(WHITE,), (BLACK,), (TAN,), (BROWN,)]
    assert three.turn_armies == four.turn_armies and three.players["solo"] == [BLACK, BROWN]
    assert load_game("superchess", "3p", {"solo": "light"}).players["solo"] == [WHITE, TAN]
    assert two.turn_armies == [(WHITE, TAN), (BLACK, BROWN)] and two.turn_order == [WHITE, BLACK]
    assert game.mode == "4p"


def test_two_players_move_either_army_of_their_team():
    two = load_game("superchess", "2p")
    start = start_position(two)
    legal = start.legal_moves()
    movers = {two.code_army[start.board[m[0]]] for m in legal}
    assert movers == {WHITE, TAN} and len(legal) == 52
    # Both armies may castle the same way: the army's symbol tells them apart.
    sans = {move_to_san(start, m, legal) for m in legal}
    assert {"wO-O", "tO-O", "wO-O-O", "tO-O-O"} <= sans
    assert parse_move(start, "tO-O") != parse_move(start, "wO-O")
    moves_from_text(start, "e10e8")
    assert {two.code_army[start.board[m[0]]] for m in start.legal_moves()} == {BLACK, BROWN}


def test_two_players_no_move_may_leave_either_king_in_check():
    two = load_game("superchess", "2p")
    # The white knight on g12 shields Tan's king on f12: in 2-player play it is the player's own king.
    pos = position(two, {"f12": "tK", "g12": "wN", "i12": "bR"})
    assert cells(two, pos.legal_moves(), "g12") == []


def test_two_players_double_check_saves_one_king():
    """Both kings in check and no move saves both: a move saves one, the other is removed with it."""
    two = load_game("superchess", "2p")
    # White's king on c12 is checked by a black rook on c5, Tan's on l3 by a brown rook on l9; the
    # white queen on f4 can block either line (on c7 or l4) but not both, and a king can only step
    # out of its own check.
    pos = position(two, {"c5": "bR", "l9": "rR", "f4": "wQ"}, "w")
    assert pos.in_check(WHITE) and pos.in_check(TAN)
    legal = pos.legal_moves()
    assert legal and all(m[3][0] == "rescue" for m in legal)
    fen, h = to_fen(pos), pos.hash
    move = next(m for m in legal if two.board.names[m[1]] in ("c4", "c6", "c7", "c8", "c9", "c10", "c11"))
    san = move_to_san(pos, move, legal)
    assert parse_move(pos, san, legal) == move
    pos.push(move)
    assert royal_cells(pos, WHITE) and not royal_cells(pos, TAN)  # Tan's king was removed with the move
    pos.pop()
    assert to_fen(pos) == fen and pos.hash == h


def test_two_players_stalemate_is_a_draw():
    two = load_game("superchess", "2p")
    # Light has only its kings, on d14 and n11, walled in without being in check: rooks on e5 and
    # i13 guard e13, e14 and d13; rooks on a10 and m5 guard n10, m10 and m11.
    pos = position(two, {"d14": "wK", "n11": "tK", "e5": "bR", "i13": "bR", "a10": "rR", "m5": "rR",
                         "h1": "bK", "a7": "rK"}, "w")
    if pos.legal_moves():
        pytest.fail(f"expected no legal moves, got {sorted(ucis(pos))}")
    result = outcome(pos)
    assert result is not None and result.result == "draw" and result.rule == "no_moves"


def test_four_players_a_team_with_both_armies_stalemated_draws(game):
    # Light's kings on d14 and n11 are walled in without being in check (as in the 2-player test).
    pieces = {"d14": "wK", "n11": "tK", "e5": "bR", "i13": "bR", "a10": "rR", "m5": "rR", "h1": "bK", "a7": "rK"}
    pos = position(game, pieces, "w")
    assert pos.legal_moves() == [(-1, -1, 0, ("pass",))]
    result = outcome(pos)
    assert result is not None and result.rule == "team_stalemate" and result.result == "draw"
    # With a tan knight that can move, White only passes.
    pos = position(game, {**pieces, "k2": "tN"}, "w")
    assert outcome(pos) is None and pos.legal_moves() == [(-1, -1, 0, ("pass",))]


def test_only_kings_left_is_a_draw(game):
    pos = position(game, {"c3": None, "a7": "rK", "e7": "wR"})
    assert outcome(pos) is None
    pos = position(game, {"c3": None, "a7": "rK"})
    result = outcome(pos)
    assert result is not None and result.rule == "only_kings" and not pos.legal_moves()


def test_random_playouts_reach_a_team_win_after_removals(game):
    """Playouts that prefer mates, checks and captures (over sorted moves, so that the games do not
    depend on the order moves are generated in): kings are removed, their armies move on, and a
    team wins. Up to 20 games, until both have been seen (the fourth game, seed 3, today)."""
    values = [0] + [game.kinds[game.code_kind[c]].value or 0 for c in range(1, game.ncodes)]
    results = []
    removals_then_moves = 0
    for seed in range(20):
        if removals_then_moves and "both_kings_lost" in results:
            break
        rng = random.Random(seed)
        pos = start_position(game)
        removed = set()
        for _ in range(3000):
            legal = sorted(pos.legal_moves(), key=repr)
            result = outcome(pos, legal)
            if result is not None:
                results.append(result.rule)
                break
            if pos.army in removed and any(m[3] is None for m in legal):
                removals_then_moves += 1
            move = _greedy(pos, legal, values, rng)
            if move[3] is not None and move[3][0] == "remove":
                removed.add(pos.army)
            pos.push(move)
    assert removals_then_moves > 0 and "both_kings_lost" in results, results


def _greedy(pos, legal, values, rng):
    """A move that mates the next army if there is one; else a check (nine times in ten); else the
    most valuable capture (three times in ten); else any move."""
    game = pos.game
    checks, mates = [], []
    for m in legal:
        if m[3] is None:
            mover = game.code_army[pos.board[m[0]]]
            pos.push(m)
            if any(royal_attacked(pos, e) for e in game.enemies[mover]):
                checks.append(m)
                if pos.in_check() and not rule_abiding_moves(pos):
                    mates.append(m)
            pos.pop()
    captures = [m for m in legal if m[3] is None and pos.board[m[1]]]
    if mates:
        return rng.choice(mates)
    if checks and rng.random() < 0.9:
        return rng.choice(checks)
    if captures and rng.random() < 0.3:
        best = max(values[pos.board[m[1]]] for m in captures)
        return rng.choice([m for m in captures if values[pos.board[m[1]]] == best])
    return rng.choice(legal)


def test_the_language_reference_shows_the_bundled_file():
    """Appendix B of docs/language.md is variants/superchess.rules itself."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "language.md").read_text(encoding="utf-8")
    appendix = doc[doc.index("## Appendix B: Superchess"):doc.index("## Appendix C")]
    block = appendix[appendix.index("```rules\n") + len("```rules\n"):appendix.rindex("```")]
    bundled = (root / "variants" / "superchess.rules").read_text(encoding="utf-8")
    assert block.split("\n", 1)[1].strip() == bundled.split("\n", 2)[2].strip()


def test_checkers_sees_threats_to_kings_that_cannot_be_captured(game):
    pos = position(game, {"n11": "bK", "l11": "wQ", "a10": "wR", "a7": "bN"}, "b")
    assert [game.board.names[c] for c in checkers(pos)] == ["l11"]


def test_a_check_by_the_partner_army_is_written():
    """In the two-player game a turn moves either army of the team: a move of Tan's knight that
    checks Brown's king is written with '+', as one of White's would be."""
    game = load_game("superchess", "2p")
    pos = position_from_fen(game, "wK,wN,wP>e,1,bP>w,bN,bR,1/1,wP>e,4,bP>w,1/wR,wB,3,wP>e,2,bB,bR/wR,1,wB,4,"
                                  "wP>e,bQ,2,bB,bN,bK/1,wQ,5,bP>w,2,bP>s,3/wN,6,bP>s,2/wP>s,1,wP>s,wP>s,wP>s,3,"
                                  "bP>s,1/2,wP>s,1,rP>n,3,bP>s,1/rN,rP>n,4,tP>n,tP>n,2/rP>n,2,rP>n,5,tP>w>n,tQ,2,"
                                  "tP>n/rR,rQ,rN,2,rP>e,2,tP>w,tN,3,tR/2,rR,1,tB,tP>w,tB,3/1,rB,rP>e,2,rB,2/"
                                  "2,rK,1,rP>e,tP>w,tN,tK w - - 4 45")
    move = parse_move(pos, "Nh2")
    assert game.armies[game.code_army[pos.board[move[0]]]].name != "white"
    assert move_to_san(pos, move) == "Nh2+"
    pos.push(move)
    assert pos.in_check()
