"""The traditional notations a game declares (``notation wxf`` / ``notation shogi``): published examples,
every legal move written apart from the others, inheritance and the errors of a game that cannot have one."""

from __future__ import annotations

import random

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san
from interpreter.notation.shogi_notation import move_to_japanese, move_to_western
from interpreter.notation.traditional import notations, traditional_texts
from interpreter.notation.wxf import move_to_wxf


@pytest.fixture(scope="module")
def xiangqi():
    return load_game("xiangqi")


@pytest.fixture(scope="module")
def shogi():
    return load_game("shogi")


def wxf_of(game, fen: str, moves: list[str]) -> list[str]:
    """The WXF of each from-to move, each made in ``fen`` (not one after the other)."""
    pos = position_from_fen(game, fen)
    return [move_to_wxf(pos, parse_move(pos, m)) for m in moves]


def played(game, moves: list[str], write, fen: str | None = None) -> list[str]:
    """``write(pos, move, previous)`` of each move, played one after the other from the start (or ``fen``)."""
    pos = start_position(game) if fen is None else position_from_fen(game, fen)
    texts, previous = [], None
    for text in moves:
        move = parse_move(pos, text)
        texts.append(write(pos, move, previous))
        pos.push(move)
        previous = move
    return texts


# ------------------------------------------------------------------ WXF


def test_wxf_examples_of_the_start_position_for_either_side(xiangqi):
    """Jouni Tolonen, "The Chinese notation" (Xiangqi for everybody, MSO World, 2000, after the WXF standard):
    "each example is a valid move for either Red or Black" in the start position: H2+3 E7+5 A6+5 C2=3
    (WXF writes '.' for '='), C2+7 (the cannon takes the horse), P7+1 C2-1 K5+1."""
    expected = ["H2+3", "E7+5", "A6+5", "C2.3", "C2+7", "P7+1", "C2-1", "K5+1"]
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    red = ["h1g3", "c1e3", "d1e2", "h3g3", "h3h10", "c4c5", "h3h2", "e1e2"]
    black = ["b10c8", "g10e8", "f10e9", "b8c8", "b8b1", "g7g6", "b8b9", "e10e9"]   # the same, from Black's right
    assert wxf_of(xiangqi, start + " w - - 0 1", red) == expected
    assert wxf_of(xiangqi, start + " b - - 0 1", black) == expected


def test_wxf_of_the_screen_horses_opening(xiangqi):
    """The central cannon against the screen horses (中炮对屏风马: 炮二平五 马8进7 马二进三 车9平8),
    in WXF as xqinenglish.com's introduction to the notation writes it: C2.5 H8+7 H2+3 R9.8."""
    assert played(xiangqi, ["h3e3", "h10g8", "h1g3", "i10h10"], lambda pos, m, _: move_to_wxf(pos, m)) == [
        "C2.5", "H8+7", "H2+3", "R9.8"]


# The WXF's official page (wxf.org, "Official xiangqi piece names and notation", Tandem Positions): Red's pawns on
# its file 3 (g) traverse to file 4 (f); Red's file 7 is c, its file 6 d.
TANDEMS = [
    ("3k5/9/6P2/6P2/6P2/9/9/9/9/4K4", ["g8f8", "g7f7", "g6f6"], ["P+.4", "P3.4", "P-.4"]),
    ("3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4", ["g9f9", "g8f8", "g7f7", "g6f6"], ["++.4", "P+.4", "P-.4", "--.4"]),
    ("3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4", ["g10f10", "g9f9", "g8f8", "g7f7", "g6f6"],
     ["++.4", "P+.4", "P3.4", "P-.4", "--.4"]),
    ("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4", ["g8f8", "g7f7", "g6f6", "c7d7", "c6d6"],
     ["3+.4", "33.4", "3-.4", "7+.6", "7-.6"]),
]


@pytest.mark.parametrize("board, moves, expected", TANDEMS)
def test_wxf_tandem_pawns_as_the_federation_writes_them(xiangqi, board, moves, expected):
    """Three, four and five pawns on a file, and tandems on two files (wxf.org's examples, in their order)."""
    assert wxf_of(xiangqi, board + " w - - 0 1", moves) == expected


def test_wxf_tandem_pieces_front_and_rear_from_each_side(xiangqi):
    """wxf.org: "The digit denoting the file position of the tandem pieces is replaced by + for front piece,
    and - for rear piece. Example: R+.3, C--1." Red's chariots on its file 1 (i); Black's cannons on its
    file 2 (b), whose front one is the lower."""
    assert wxf_of(xiangqi, "3k5/9/9/9/8R/9/9/8R/9/4K4 w - - 0 1", ["i6g6", "i3i4"]) == ["R+.3", "R-+1"]
    assert wxf_of(xiangqi, "3k5/9/1c7/9/9/1c7/9/9/9/4K4 b - - 0 1", ["b8b9", "b5b4"]) == ["C--1", "C++1"]


# ------------------------------------------------------------------ shogi


def both(pos, move, previous) -> tuple[str, str]:
    return move_to_western(pos, move), move_to_japanese(pos, move, previous=previous)


def test_shogi_the_bishop_exchange_in_both_notations(shogi):
    """The opening of textbooks, in Hodges' notation and Japanese (Wikipedia, "Shogi notation": 'P-7f',
    '同' for a recapture on the square just moved to, a promotion '+' / '成'): 1. P-7f P-3d 2. Bx2b+ Sx2b
    3. B*5e, ▲７六歩 △３四歩 ▲２二角成 △同銀 ▲５五角 (no 打: no bishop on the board could go there)."""
    assert played(shogi, ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5"], both) == [
        ("P-7f", "▲７六歩"), ("P-3d", "△３四歩"), ("Bx2b+", "▲２二角成"), ("Sx2b", "△同銀"), ("B*5e", "▲５五角")]


def test_shogi_origins_and_relative_words_for_three_golds(shogi):
    """Wikipedia, "Shogi notation": three golds of Black can go to 7h: G7g-7h, G6h-7h, G7i-7h in Western,
    and in Japanese by their movement, ７八金引 (from 7g, back), ７八金寄 (from 6h, sideways),
    ７八金上 (from 7i, up). The squares 7g, 6h, 7i are c3, d2, c1."""
    fen = "4k4/9/9/9/9/9/2G6/3G5/2G1K4[] w - - 0 1"
    pos = position_from_fen(shogi, fen)
    moves = [parse_move(pos, m) for m in ("c3c2", "d2c2", "c1c2")]
    assert [both(pos, m, None) for m in moves] == [("G7g-7h", "▲７八金引"), ("G6h-7h", "▲７八金寄"),
                                                   ("G7i-7h", "▲７八金上")]


def test_shogi_right_left_straight_and_for_gote_its_own_right(shogi):
    """The start position's golds to 5h: ５八金右 (from 4i) and ５八金左 (from 6i), the standard names; a
    gold straight up is 直 beside one coming diagonally (右). Gote's right is the board's left: its golds from
    6a and 4a to 5b are ５二金右 and ５二金左."""
    start = start_position(shogi)
    assert [move_to_japanese(start, parse_move(start, m)) for m in ("f1e2", "d1e2")] == ["▲５八金右", "▲５八金左"]
    pos = position_from_fen(shogi, "4k4/9/9/9/9/9/9/9/3KGG3[] w - - 0 1")
    assert [move_to_japanese(pos, parse_move(pos, m)) for m in ("e1e2", "f1e2")] == ["▲５八金直", "▲５八金右"]
    gote = start_position(shogi)
    gote.push(parse_move(gote, "c3c4"))
    assert [move_to_japanese(gote, parse_move(gote, m)) for m in ("d9e8", "f9e8")] == ["△５二金右", "△５二金左"]


def test_shogi_promotion_declined_and_drops_that_need_saying(shogi):
    """Wikipedia, "Shogi notation": S-21+ is ２一銀成 and S-21= ２一銀不成 (a promotion that could be made
    and is not); a drop is written 打 only when a piece of the kind on the board could go there too."""
    pos = position_from_fen(shogi, "4k4/7S1/9/9/9/9/9/9/4K4[Ss] w - - 0 1")
    promote, stay = parse_move(pos, "h8h9+"), parse_move(pos, "h8h9")
    assert both(pos, promote, None) == ("S-2a+", "▲２一銀成")
    assert both(pos, stay, None) == ("S-2a=", "▲２一銀不成")
    drop, far = parse_move(pos, "S@i9"), parse_move(pos, "S@a5")
    assert both(pos, drop, None) == ("S*1a", "▲１一銀打")   # the silver on 2b could go to 1a
    assert both(pos, far, None) == ("S*9e", "▲９五銀")


def test_shogi_promoted_pieces_by_their_notation_glyph(shogi):
    """A promoted silver is drawn 全 but written 成銀 (its ``notation glyph``); a tokin is と, its glyph."""
    pos = position_from_fen(shogi, "4k4/9/9/9/4+S4/4+P4/9/9/4K4[] w - - 0 1")
    assert both(pos, parse_move(pos, "e5e6"), None) == ("+S-5d", "▲５四成銀")
    assert both(pos, parse_move(pos, "e4d5"), None) == ("+P-6e", "▲６五と")


# ------------------------------------------------------------------ every move its own text


@pytest.mark.parametrize("name", ["xiangqi", "minixiangqi", "shogi", "minishogi"])
def test_every_legal_move_has_a_text_of_its_own_in_each_notation(name):
    """Along seeded random games, the legal moves of each position are written apart in each of the game's
    notations, and none of them falls back to SAN (every move of these games has a traditional form)."""
    game = load_game(name)
    keys = [key for key, _ in notations(game)]
    assert keys
    rng = random.Random(name)
    checked = 0
    for _ in range(2):
        pos, previous = start_position(game), None
        for _ply in range(30):
            legal = pos.legal_moves()
            if not legal:
                break
            texts = [traditional_texts(pos, m, legal, previous) for m in legal]
            for key in keys:
                written = [t[key] for t in texts]
                assert len(set(written)) == len(legal), (key, pos, sorted(written))
                assert not {move_to_san(pos, m, legal) for m in legal} & set(written)
            checked += len(legal)
            previous = rng.choice(legal)
            pos.push(previous)
    assert checked > 200


# ------------------------------------------------------------------ the declaration


def test_a_move_written_alike_with_another_is_written_in_san():
    """Manchu chess's Banner moves as a chariot, a cannon and a horse: from b3, its horse's move to c5 and its
    cannon's capture on b10 would both be M8+7 in WXF, so a game that declared it gets both in SAN."""
    game = compile_variant(load_spec_text("variant banner_wxf { notation wxf }\nextends manchu\n"))
    pos = position_from_fen(game, "rnbakabnr/9/1c1c5/p1p1p1p1p/9/9/P1P1P1P1P/1M7/9/2BAKAB2 w - - 2 2")
    legal = pos.legal_moves()
    assert [move_to_wxf(pos, parse_move(pos, m), legal) for m in ("b3c5", "b3b10", "b3b8")] == ["Mc5", "Mxb10", "M8+5"]


def test_the_declaration_is_inherited_and_may_be_dropped():
    assert [key for key, _ in notations(load_game("minishogi"))] == ["western", "japanese"]
    assert [key for key, _ in notations(load_game("minixiangqi"))] == ["wxf"]
    assert notations(load_game("chess")) == ()
    assert notations(load_game("manchu")) == ()   # it extends xiangqi and says 'notation san'
    plain = compile_variant(load_spec_text('variant plain_xiangqi { notation san }\nextends xiangqi\n'))
    assert notations(plain) == ()
    pos = start_position(plain)
    assert traditional_texts(pos, parse_move(pos, "h3e3"), pos.legal_moves()) == {}
    horse = compile_variant(load_spec_text("extends xiangqi\npiece Horse { letter N  notation letter M  betza \"nN\" }\n"))
    pos = start_position(horse)
    assert move_to_wxf(pos, parse_move(pos, "h1g3")) == "M2+3"   # a piece declared again says its own letter


def test_a_game_the_notation_cannot_number_is_refused_at_the_notation_line():
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text("variant tall {\n  notation shogi\n}\nextends xiangqi\n"))
    assert err.value.loc.line == 2 and "at most 9 files and 9 ranks" in err.value.message
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text("variant wide {\n  notation wxf\n}\nextends capablanca\n"))
    assert "9 files" in err.value.message
    with pytest.raises(RulesSemanticError) as err:
        compile_variant(load_spec_text("extends xiangqi\npiece Horse { letter N  notation letter \"7\"  betza \"nN\" }\n"))
    assert "notation letter" in err.value.message
    assert (err.value.loc.line, err.value.loc.column) == (2, 41)   # at the letter, not the piece


# The Japan Shogi Association's examples of the words that tell pieces apart, gathered in one position as the
# KI2 writer test of the C# shogi library of yaneurao's MyShogi repository has them (Sente to move); each
# origin (from-to), with what it is written for a move to the common square.
JSA_POSITION = "k+p3+B3/+p+p1G4+B/3GGG3/9/4+R3+R/9/1+P4S1S/+P1+P6/+P+P+PNKNSS1[] w - - 0 1"
JSA_WORDS = [
    ("a1b2", "８八と左上"), ("b1b2", "８八と直"), ("c1b2", "８八と右上"), ("a2b2", "８八と左寄"), ("c2b2", "８八と右寄"),
    ("b3b2", "８八と引"), ("d1e3", "５七桂左"), ("f1e3", "５七桂右"), ("g1h2", "２八銀左上"), ("h1h2", "２八銀直"),
    ("g3h2", "２八銀左引"), ("i3h2", "２八銀右"), ("e5g5", "３五龍左"), ("i5g5", "３五龍右"), ("d7e8", "５二金左上"),
    ("d8e8", "５二金寄"), ("e7e8", "５二金直"), ("f7e8", "５二金右"), ("f9h7", "２三馬左"), ("i8h7", "２三馬右"),
]


def test_shogi_relative_words_of_the_association(shogi):
    pos = position_from_fen(shogi, JSA_POSITION)
    legal = pos.legal_moves()
    assert [move_to_japanese(pos, parse_move(pos, m), legal) for m, _ in JSA_WORDS] == ["▲" + w for _, w in JSA_WORDS]
