"""Locking Chess: the acceptance tests LC-T1 to LC-T17 of its rules and decisions, from FEN positions.

The rules are those of the official text; where it is silent, the decisions are the
``interpretation`` lines of ``variants/locking.rules`` (shown on its page, docs/variants/locking).

A move is described here without the move notation, as (from, to, what): ``what`` is the
outcome of a stacking move (``move``, ``climb``, ``land``, ``descend``, ``capture``,
``capture-top``, ``capture-bottom``, ``capture-both``) or the special (``ep``, ``sep``,
``castle``, ``castlock``), followed by ``=`` and the promotion letter if it promotes.
A stack is written in FEN as ``(Pb)``: bottom first, here a white pawn under a black bishop.
"""

from __future__ import annotations

import random

import pytest

from interpreter.loading import load_game
from interpreter.engine.outcome import outcome
from interpreter.compiler.stacking import REMOVES
from interpreter.loading import position_from_fen, start_position


@pytest.fixture(scope="module")
def game():
    return load_game("locking")


@pytest.fixture(scope="module")
def game_m1():
    return load_game("locking_m1")


def fen_of(pieces: dict[str, str], side: str = "w", castling: str = "-", ep: str = "-") -> str:
    """A FEN from {cell: symbol}; a symbol may be a stack, '(Pb)'."""
    rows = []
    for rank in range(8, 0, -1):
        row, empty = "", 0
        for file in "abcdefgh":
            symbol = pieces.get(f"{file}{rank}")
            if symbol is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + symbol
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} {castling} {ep} 0 1"


def what(game, move) -> str:
    special = move[3]
    text = special[1] if special[0] == "st" else special[0]
    if move[2]:
        text += "=" + game.kinds[game.code_kind[move[2]]].letter
    return text


def described(pos, move) -> tuple[str, str, str]:
    names = pos.game.board.names
    return names[move[0]], names[move[1]], what(pos.game, move)


def moves_of(pos, cell: str) -> set[tuple[str, str]]:
    """(to, what) of the legal moves from ``cell``."""
    return {described(pos, m)[1:] for m in pos.legal_moves() if pos.game.board.names[m[0]] == cell}


def moves_to(pos, cell: str) -> set[tuple[str, str, str]]:
    """(from, to, what) of the legal moves that end on ``cell``."""
    return {described(pos, m) for m in pos.legal_moves() if pos.game.board.names[m[1]] == cell}


def play(pos, frm: str, to: str, kind: str):
    """Play the one legal move (frm, to, kind) and return it."""
    found = [m for m in pos.legal_moves() if described(pos, m) == (frm, to, kind)]
    assert len(found) == 1, (frm, to, kind, sorted(described(pos, m) for m in pos.legal_moves()))
    pos.push(found[0])
    return found[0]


def stack(pos, cell: str) -> tuple[str | None, str | None]:
    """(bottom, top) symbols of a cell: (None, 'P') for a lone white pawn, ('P', 'b') for a stack."""
    game = pos.game
    i = game.board.index[cell]
    top, low = pos.board[i], pos.under[i]
    return (game.code_symbol[low] if low else None), (game.code_symbol[top] if top else None)


# ---------------------------------------------------------------- LC-T1


def test_lc_t1_forty_moves_at_the_start(game):
    pos = start_position(game)
    moves = {described(pos, m) for m in pos.legal_moves()}
    assert len(moves) == len(pos.legal_moves()) == 40
    climbs = {(f, t) for f, t, w in moves if w == "climb"}
    assert climbs == {("a1", "a2"), ("a1", "b1"), ("h1", "h2"), ("h1", "g1"),
                      ("b1", "d2"), ("g1", "e2"),
                      ("c1", "b2"), ("c1", "d2"), ("f1", "e2"), ("f1", "g2"),
                      ("d1", "c1"), ("d1", "e1"), ("d1", "c2"), ("d1", "d2"), ("d1", "e2"),
                      ("e1", "d1"), ("e1", "f1"), ("e1", "d2"), ("e1", "e2"), ("e1", "f2")}
    plain = {(f, t) for f, t, w in moves if w == "move"}
    assert len(plain) == 20 and len(moves) == len(plain) + len(climbs)
    assert {t for f, t in plain if f in ("b1", "g1")} == {"a3", "c3", "f3", "h3"}


# ---------------------------------------------------------------- LC-T2


def test_lc_t2_pawn_climbs_by_advance_double_step_and_capture(game):
    kings = {"e1": "K", "h8": "k"}  # h8: out of the bishop's reach (Black, not to move, may not be in check)
    pos = position_from_fen(game, fen_of({**kings, "a2": "P", "a3": "N"}))
    assert ("a3", "climb") in moves_of(pos, "a2")
    pos = position_from_fen(game, fen_of({**kings, "a2": "P", "a4": "N"}))
    assert moves_of(pos, "a2") == {("a3", "move"), ("a4", "climb")}
    pos = position_from_fen(game, fen_of({**kings, "a2": "P", "b3": "N"}))
    assert moves_of(pos, "a2") == {("a3", "move"), ("a4", "move"), ("b3", "climb")}
    # Own pieces on a3 and a4: the double step is blocked, climbing a4 is illegal.
    pos = position_from_fen(game, fen_of({**kings, "a2": "P", "a3": "N", "a4": "B"}))
    assert moves_of(pos, "a2") == {("a3", "climb")}


# ---------------------------------------------------------------- LC-T3


def test_lc_t3_board_level_piece_cannot_climb_an_enemy(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "a1": "R", "a2": "n"}))
    assert moves_to(pos, "a2") == {("a1", "a2", "capture")}
    assert ("a2", "capture") in moves_of(pos, "a1") and not any(t == "a3" for t, _ in moves_of(pos, "a1"))


# ---------------------------------------------------------------- LC-T4


def _t4(game, **cells: str):
    pieces = {"e1": "K", "e8": "k", "d4": "(NP)"}  # a white pawn on top of a white knight
    pieces.update(cells)
    return position_from_fen(game, fen_of(pieces))


def test_lc_t4_overlaid_pawn_descends_to_empty_cells(game):
    pos = _t4(game)
    assert moves_of(pos, "d4") == {("c5", "descend"), ("d5", "descend"), ("e5", "descend")}
    play(pos, "d4", "c5", "descend")
    assert stack(pos, "c5") == (None, "P") and stack(pos, "d4") == (None, "N")


def test_lc_t4_overlaid_pawn_lands_on_single_pieces_of_either_colour(game):
    pos = _t4(game, c5="n", d5="B", e5="p")
    assert moves_of(pos, "d4") == {("c5", "land"), ("d5", "land"), ("e5", "land")}
    play(pos, "d4", "e5", "land")
    assert stack(pos, "e5") == ("p", "P") and stack(pos, "d4") == (None, "N")


def test_lc_t4_overlaid_pawn_captures_both_of_an_enemy_equal_stack(game):
    pos = _t4(game, c5="(nb)", e5="(pq)")
    assert moves_of(pos, "d4") == {("c5", "capture-both"), ("d5", "descend"), ("e5", "capture-both")}
    play(pos, "d4", "c5", "capture-both")
    assert stack(pos, "c5") == (None, "P")  # both black pieces gone, the pawn at board level


def test_lc_t4_overlaid_pawn_captures_the_enemy_top_of_an_opposite_stack(game):
    pos = _t4(game, c5="(Nb)")
    assert ("c5", "capture-top") in moves_of(pos, "d4")
    play(pos, "d4", "c5", "capture-top")
    assert stack(pos, "c5") == ("N", "P")  # the pawn now on the white knight


def test_lc_t4_overlaid_pawn_never_captures_or_lands_on_a_stack_ahead(game):
    for d5 in ("(nb)", "(Nb)", "(bN)", "(NB)"):
        pos = _t4(game, d5=d5)
        assert moves_of(pos, "d4") == {("c5", "descend"), ("e5", "descend")}, d5
    # Stacks topped by white pieces on the diagonals cannot be taken either.
    pos = _t4(game, c5="(NB)", e5="(bN)")
    assert moves_of(pos, "d4") == {("d5", "descend")}


# ---------------------------------------------------------------- LC-T5


def test_lc_t5_locked_piece_has_no_moves_and_gives_no_check(game):
    # A white rook locked under a black knight on the open e-file: no check, no rook move.
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "e1": "(Rn)"}, side="b"))
    assert not pos.in_check()
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "e1": "(Rn)"}, side="w"))
    assert moves_of(pos, "e1") == set()
    assert outcome(pos) is None  # the locked rook is material
    # Locked under its own bishop: only the bishop moves, and the rook still gives no check.
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "e1": "(RB)"}, side="b"))
    assert not pos.in_check()
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "e1": "(RB)"}, side="w"))
    assert moves_of(pos, "e1") and all(t not in ("e2", "e5", "e7") for t, _ in moves_of(pos, "e1"))
    assert {t for t, _ in moves_of(pos, "e1")} == {"d2", "c3", "b4", "a5", "f2", "g3", "h4"}


def test_lc_t5_locked_pawn_and_knight_give_no_check(game):
    # A white knight locked under a black pawn would otherwise check e8 from f6.
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "f6": "(Np)"}, side="b"))
    assert not pos.in_check()
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "f6": "N"}, side="b"))
    assert pos.in_check()


# ---------------------------------------------------------------- LC-T6

STACKED_FENS = [
    "r1b1k2r/pp(pq)(pb)pppp/2n2n2/8/3(PB)4/2(NP)2N2/PPP2PPP/R1BQK2R w KQkq - 0 1",
    "4k3/8/2(nb)(Nb)(bN)(NB)2/3(NP)(pk)3/2(Pq)1(Bn)3/8/8/4K3 b - - 0 1",  # f6 attacks e5: Black to move
    "4k3/1(pq)6/2(Pb)5/3(NR)4/4(pN)3/5(Bp)2/6N1/4K3 w - - 0 1",
    "r3k2r/8/3(PN)(Np)3/2(nq)2(pb)2/8/8/8/R3K2R b KQkq - 0 1",
]


def _piece_count(pos) -> int:
    return sum(1 for c in pos.board if c) + sum(1 for c in pos.stacked if pos.under[c])


def _check_stacks(pos) -> None:
    """Every move onto a 2-stack is one of the listed captures; stacks have a top; pieces are conserved."""
    game = pos.game
    before = _piece_count(pos)
    for move in pos.legal_moves():
        frm, to, _, special = move
        if pos.under[to] and special[0] != "castlock":
            assert special[0] == "st" and special[1] in ("capture-top", "capture-bottom", "capture-both"), \
                described(pos, move)
        removed = len(REMOVES[special[1]]) if special[0] == "st" else (1 if special[0] == "ep" else 0)
        pos.push(move)
        assert all(pos.board[c] for c in pos.stacked), described(pos, move)      # no stack without a top
        assert all(pos.under[c] for c in pos.stacked)
        assert all(bool(pos.under[c]) == (c in pos.stacked) for c in range(game.n))
        assert _piece_count(pos) == before - removed, described(pos, move)
        pos.pop()


def test_lc_t6_only_captures_reach_a_two_stack_and_height_stays_two(game):
    for fen in STACKED_FENS:
        _check_stacks(position_from_fen(game, fen))


def test_lc_t6_random_games_keep_stacks_of_two(game):
    stacked = 0
    for seed in range(6):
        rng = random.Random(seed)
        pos = start_position(game)
        for _ in range(60):
            legal = pos.legal_moves()
            if not legal or outcome(pos, legal) is not None:
                break
            _check_stacks(pos)
            stacked += bool(pos.stacked)
            pos.push(rng.choice(legal))
    assert stacked > 100


# ---------------------------------------------------------------- LC-T7


def test_lc_t7_board_level_knight_captures_the_enemy_top(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "g1": "N", "f3": "(Pb)"}))
    assert moves_to(pos, "f3") == {("g1", "f3", "capture-top")}
    play(pos, "g1", "f3", "capture-top")
    assert stack(pos, "f3") == ("P", "N")  # the white pawn is still locked, under the knight


def test_lc_t7_board_level_bishop_and_queen_cannot_capture_the_enemy_top(game):
    # A bishop on d1 and a queen on f1 with clear lines to f3 (e2 and f2 empty).
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "g1": "N", "d1": "B", "f1": "Q", "f3": "(Pb)"}))
    assert moves_to(pos, "f3") == {("g1", "f3", "capture-top")}
    assert ("e2", "move") in moves_of(pos, "d1") and ("f2", "move") in moves_of(pos, "f1")


# ---------------------------------------------------------------- LC-T8


def test_lc_t8_overlaid_knight_captures_a_free_piece(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "g1": "(PN)", "f3": "b"}))
    # Capture and landing are two distinct moves (an interpretation of locking.rules).
    assert moves_to(pos, "f3") == {("g1", "f3", "capture"), ("g1", "f3", "land")}
    play(pos, "g1", "f3", "capture")
    assert stack(pos, "f3") == (None, "N") and stack(pos, "g1") == (None, "P")


def test_lc_t8_overlaid_bishop_lands_but_cannot_capture(game):
    pos = position_from_fen(game, fen_of({"a1": "K", "e8": "k", "g1": "(PB)", "d4": "n"}))
    assert moves_to(pos, "d4") == {("g1", "d4", "land")}
    play(pos, "g1", "d4", "land")
    assert stack(pos, "d4") == ("n", "B") and stack(pos, "g1") == (None, "P")


# ---------------------------------------------------------------- LC-T9


def _t9(game, under: str):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "a2": "P", "b4": f"({under}p)"}))
    play(pos, "a2", "a4", "move")
    return pos


@pytest.mark.parametrize("under", ["n", "N"])
def test_lc_t9_sep(game, under):
    pos = _t9(game, under)
    assert ("a3", "sep") in moves_of(pos, "b4")
    assert ("a3", "descend") in moves_of(pos, "b4")  # the plain step down is another move
    assert not any(w == "ep" for _, w in moves_of(pos, "b4"))
    play(pos, "b4", "a3", "sep")
    assert stack(pos, "a3") == ("P", "p")
    assert stack(pos, "a4") == (None, None)
    assert stack(pos, "b4") == (None, under)  # freed


def test_lc_t9_sep_is_lost_if_not_taken_at_once(game):
    pos = _t9(game, "n")
    play(pos, "e8", "d8", "move")
    play(pos, "e1", "d1", "move")
    assert moves_of(pos, "b4") == {("b3", "descend"), ("a3", "descend"), ("c3", "descend")}


def test_lc_t9_sep_kept_when_the_freed_piece_shields_the_king(game):
    """After sep the piece freed on b4 still stands between the rook on b1 and the king on b8, so sep is
    legal; the en passant right must not be dropped as if b4 were left empty."""
    pos = position_from_fen(game, fen_of({"h1": "K", "b8": "k", "b1": "R", "a2": "P", "b4": "(np)"}))
    play(pos, "a2", "a4", "move")
    assert ("a3", "sep") in moves_of(pos, "b4")


# ---------------------------------------------------------------- LC-T10


def test_lc_t10_en_passant_by_a_free_pawn(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "a2": "P", "b4": "p"}))
    play(pos, "a2", "a4", "move")
    assert ("a3", "ep") in moves_of(pos, "b4")
    play(pos, "b4", "a3", "ep")
    assert stack(pos, "a3") == (None, "p") and stack(pos, "a4") == (None, None)


@pytest.mark.parametrize("b4", ["(pN)", "(pb)", "(Np)", "(np)"])
def test_lc_t10_no_en_passant_for_a_locked_or_overlaid_pawn(game, b4):
    pos = position_from_fen(game, fen_of({"e1": "K", "e8": "k", "a2": "P", "b4": b4}))
    play(pos, "a2", "a4", "move")
    assert not any(w == "ep" for _, _, w in (described(pos, m) for m in pos.legal_moves()))


# ---------------------------------------------------------------- LC-T11


def test_lc_t11_castling_and_castlock(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "e8": "k"}, castling="K"))
    moves = moves_of(pos, "e1")
    assert ("g1", "castle") in moves and ("g1", "castlock") in moves
    play(pos, "e1", "g1", "castlock")
    assert stack(pos, "g1") == ("K", "R") and stack(pos, "h1") == (None, None) and stack(pos, "e1") == (None, None)
    pos.pop()
    play(pos, "e1", "g1", "castle")
    assert stack(pos, "g1") == (None, "K") and stack(pos, "f1") == (None, "R")


def test_lc_t11_long_castlock(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "a1": "R", "e8": "k"}, castling="Q"))
    assert {("c1", "castle"), ("c1", "castlock")} <= moves_of(pos, "e1")
    play(pos, "e1", "c1", "castlock")
    assert stack(pos, "c1") == ("K", "R")


def test_lc_t11_neither_when_g1_is_attacked(game):
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "e8": "k", "g8": "r"}, castling="K"))
    assert not {w for _, w in moves_of(pos, "e1")} & {"castle", "castlock"}


def test_lc_t11_castlock_needs_a_stack_safe_from_overlaid_pieces(game):
    # A black bishop on top of a black pawn on c5 sees g1 over the single pawn on f2 (airspace): it cannot
    # take a lone king on g1, so O-O stays legal, but it could take the king-and-rook stack of castlock.
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "e8": "k", "f2": "P", "c5": "(pb)"}, castling="K"))
    moves = moves_of(pos, "e1")
    assert ("g1", "castle") in moves and ("g1", "castlock") not in moves


def test_lc_t11_rights_kept_while_locked(game):
    # The queen climbs onto the unmoved king: it cannot castle while locked, and may again once freed.
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "d1": "Q", "e8": "k"}, castling="K"))
    play(pos, "d1", "e1", "climb")
    play(pos, "e8", "d8", "move")
    assert not {w for _, w in moves_of(pos, "e1")} & {"castle", "castlock"}
    play(pos, "e1", "d1", "descend")
    play(pos, "d8", "e8", "move")
    assert {("g1", "castle"), ("g1", "castlock")} <= moves_of(pos, "e1")
    # The same with the rook locked under a queen on h1.
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "h2": "Q", "e8": "k"}, castling="K"))
    play(pos, "h2", "h1", "climb")
    play(pos, "e8", "d8", "move")
    assert not {w for _, w in moves_of(pos, "e1")} & {"castle", "castlock"}
    play(pos, "h1", "h3", "descend")
    play(pos, "d8", "e8", "move")
    assert {("g1", "castle"), ("g1", "castlock")} <= moves_of(pos, "e1")


def test_lc_t11_no_castling_by_a_rook_standing_on_the_locked_rook(game):
    # The a2 rook climbs onto the unmoved a1 rook: the locked rook keeps its right but cannot castle, and
    # the rook on top has moved.
    pos = position_from_fen(game, fen_of({"e1": "K", "a1": "R", "a2": "R", "e8": "k"}, castling="Q"))
    play(pos, "a2", "a1", "climb")
    play(pos, "e8", "d8", "move")
    assert not {w for _, w in moves_of(pos, "e1")} & {"castle", "castlock"}


@pytest.mark.parametrize("locker", ["d1e1", "h2h1"])
def test_lc_t11_fen_keeps_the_rights_of_a_locked_king_or_rook(game, locker):
    from interpreter.notation.fen import to_fen
    pos = position_from_fen(game, fen_of({"e1": "K", "h1": "R", "d1": "Q", "h2": "Q", "e8": "k"}, castling="K"))
    play(pos, locker[:2], locker[2:], "climb")
    fen = to_fen(pos)
    assert fen.split()[2] == "K"
    again = position_from_fen(game, fen)
    assert again.unmoved == pos.unmoved and again.hash == pos.hash


# ---------------------------------------------------------------- LC-T12


def test_lc_t12_free_king_may_approach_a_refugee_king_with_check(game):
    pos = position_from_fen(game, fen_of({"e6": "(pk)", "e4": "K"}))
    assert not pos.in_check() and outcome(pos) is None
    assert {("d5", "move"), ("e5", "move"), ("f5", "move")} <= moves_of(pos, "e4")
    for cell in ("d5", "e5", "f5"):
        play(pos, "e4", cell, "move")
        assert pos.in_check(), cell
        pos.pop()


# ---------------------------------------------------------------- LC-T13


def _t13(game):
    return position_from_fen(game, fen_of({"a1": "(PR)", "a8": "n", "h1": "K", "h8": "k"}))


def test_lc_t13_airspace_model_m3(game):
    up = {(t, w) for t, w in moves_of(_t13(game), "a1") if t[0] == "a"}
    assert up == {("a2", "descend"), ("a3", "descend"), ("a4", "descend"), ("a5", "descend"),
                  ("a6", "descend"), ("a7", "descend"), ("a8", "land")}


def test_lc_t13_model_m1(game_m1):
    up = {(t, w) for t, w in moves_of(_t13(game_m1), "a1") if t[0] == "a"}
    assert up == {("a2", "descend")}


# ---------------------------------------------------------------- LC-T14


def test_lc_t14_lockout_is_a_draw(game):
    pos = position_from_fen(game, fen_of({"h8": "(kR)", "a1": "K"}, side="b"))
    assert not pos.in_check() and pos.legal_moves() == []
    result = outcome(pos)
    assert result is not None and result.rule == "lockout" and result.result == "draw"


# ---------------------------------------------------------------- LC-T15


def test_lc_t15_pawn_promotes_on_climbing(game):
    pos = position_from_fen(game, fen_of({"g8": "R", "g7": "P", "e1": "K", "a6": "k"}))
    assert {w for t, w in moves_of(pos, "g7") if t == "g8"} == {"climb=Q", "climb=R", "climb=B", "climb=N"}
    play(pos, "g7", "g8", "climb=Q")
    assert stack(pos, "g8") == ("R", "Q")


def test_lc_t15_overlaid_pawn_promotes_on_landing(game):
    # Also for a pawn landing on a piece of either colour, and when a free pawn captures on the last rank
    # an enemy piece locked under a white top piece (it promotes there, locked under that piece).
    pos = position_from_fen(game, fen_of({"g7": "(NP)", "f8": "n", "h8": "(rB)", "a1": "K", "c6": "k"}))
    moves = moves_of(pos, "g7")
    assert {"land=Q", "land=R", "land=B", "land=N"} == {w for t, w in moves if t == "f8"}
    assert {"descend=Q", "descend=R", "descend=B", "descend=N"} == {w for t, w in moves if t == "g8"}
    assert not any(t == "h8" for t, _ in moves)  # a white-topped stack
    pos = position_from_fen(game, fen_of({"g7": "P", "h8": "(rB)", "a1": "K", "c6": "k"}))
    assert {w for t, w in moves_of(pos, "g7") if t == "h8"} == {"capture-bottom=" + p for p in "QRBN"}
    play(pos, "g7", "h8", "capture-bottom=Q")
    assert stack(pos, "h8") == ("Q", "B")


# ---------------------------------------------------------------- LC-T16, LC-T17


def test_lc_t16_king_imprisoned_under_its_own_piece_is_checked_by_a_board_level_bishop(game):
    pos = position_from_fen(game, fen_of({"g7": "(kn)", "a1": "B", "e1": "K"}, side="b"))
    assert pos.in_check()
    # Without the bishop's clear diagonal, no check.
    pos = position_from_fen(game, fen_of({"g7": "(kn)", "a1": "B", "d4": "P", "e1": "K"}, side="b"))
    assert not pos.in_check()


def test_lc_t17_king_imprisoned_under_an_enemy_piece(game):
    # A white board-level bishop with a clear diagonal gives check (it could take the locked king).
    pos = position_from_fen(game, fen_of({"g7": "(kN)", "a1": "B", "e1": "K"}, side="b"))
    assert pos.in_check()
    # A white overlaid bishop on that diagonal does not: its own piece is on top of g7.
    pos = position_from_fen(game, fen_of({"g7": "(kN)", "a1": "(PB)", "e1": "K"}, side="b"))
    assert not pos.in_check()
    result = outcome(pos)
    assert result is not None and result.rule == "lockout"


# ---------------------------------------------------------------- endings (the mates and draws of the rules)


def _ending(game, pieces, side="b"):
    pos = position_from_fen(game, fen_of(pieces, side=side))
    result = outcome(pos)
    return result and (result.rule, result.result)


def test_royal_mate(game):
    # The black king on its own pawn, a free white king beside it; the knight guards g7 (a landing there).
    assert _ending(game, {"h8": "(pk)", "g7": "K", "f5": "N"}) == ("royal_mate", "loss")


def test_deadlock_only_when_the_refugee_kings_only_move_allows_mate(game):
    # Black's only move is Kg8 (stepping down from its pawn), after which Rb8 mates: a draw.
    assert _ending(game, {"h8": "(pk)", "a7": "R", "b1": "R", "g1": "K"}) == ("deadlock", "draw")
    # Without the b1 rook no mate follows: the game goes on.
    assert _ending(game, {"h8": "(pk)", "a7": "R", "g1": "K"}) is None


def test_royal_lock_mate_with_king_and_bishop(game):
    # The bishop left the white king it stood on to land on the black king beside it: mate, not a draw.
    assert _ending(game, {"d2": "(kB)", "e1": "K"}) == ("royal_lock_mate", "loss")
