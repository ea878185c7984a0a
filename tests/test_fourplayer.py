"""Four-player chess (chess.com's Teams and Free-for-all): points, armies out of the game, scoring ends.

The move counts from the start are checked against a counter written here
from the rules in words, independent of the engine: Fairy-Stockfish knows no
four-player chess. The counter knows the board (14x14 without its 3x3
corners), the array, the turn order Red, Blue, Yellow, Green, how each piece
moves (pawns forward for their army, two steps from their starting line, and
diagonally forward to capture; no en passant), that kings are never captured
and that a move may not leave the mover's own king attacked by an enemy
(Teams: the two armies not across the board). It leaves out castling and
promotion, and needs neither for three plies: every castling needs the
cells between king and rook empty, and three of them stand there, of which one
army moves at most one in three plies; a pawn needs at least six steps to
reach its promotion line, and makes at most two. No army is out of the game
within three plies either (every army has twenty moves or more at the start).
"""

from __future__ import annotations

import pytest

from dsl.errors import IllegalMoveError
from interpreter.engine.perft import perft
from interpreter.engine.outcome import outcome
from interpreter.engine.scoring import OUT, RESIGNED
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san

FORWARD = {"r": (0, 1), "b": (1, 0), "y": (0, -1), "g": (-1, 0)}
ORDER = "rbyg"
ARRAY = {"r": ("d1 k1", "e1 j1", "f1 i1", "g1", "h1", "d2 e2 f2 g2 h2 i2 j2 k2"),
         "b": ("a4 a11", "a5 a10", "a6 a9", "a8", "a7", "b4 b5 b6 b7 b8 b9 b10 b11"),
         "y": ("d14 k14", "e14 j14", "f14 i14", "h14", "g14", "d13 e13 f13 g13 h13 i13 j13 k13"),
         "g": ("n4 n11", "n5 n10", "n6 n9", "n7", "n8", "m4 m5 m6 m7 m8 m9 m10 m11")}
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def on_board(f: int, r: int) -> bool:
    """A cell of the 14x14 grid outside the four 3x3 corners (files and ranks from 0)."""
    return 0 <= f < 14 and 0 <= r < 14 and not ((f < 3 or f > 10) and (r < 3 or r > 10))


def cell(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def start() -> dict:
    board = {}
    for army, rows in ARRAY.items():
        for kind, cells in zip("RNBQKP", rows):
            for name in cells.split():
                board[cell(name)] = (army, kind)
    return board


def enemies(a: str, b: str, teams: bool) -> bool:
    return a != b and not (teams and ORDER.index(a) % 2 == ORDER.index(b) % 2)


def attacks(board: dict, frm: tuple[int, int], to: tuple[int, int]) -> bool:
    """Does the piece on ``frm`` attack ``to`` (a capture there, were an enemy on it)?"""
    army, kind = board[frm]
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if kind == "P":
        fx, fy = FORWARD[army]
        return (dx, dy) in ((fx + fy, fy + fx), (fx - fy, fy - fx))   # the two forward diagonals
    if kind == "N":
        return (dx, dy) in KNIGHT
    if kind == "K":
        return max(abs(dx), abs(dy)) == 1
    dirs = {"R": ORTH, "B": DIAG, "Q": ORTH + DIAG}[kind]
    for sx, sy in dirs:
        f, r = frm[0] + sx, frm[1] + sy
        while on_board(f, r):
            if (f, r) == to:
                return True
            if (f, r) in board:
                break
            f, r = f + sx, r + sy
    return False


def moves(board: dict, army: str, teams: bool) -> list[tuple]:
    found = []
    for frm, (owner, kind) in list(board.items()):
        if owner != army:
            continue
        targets = []
        if kind == "P":
            fx, fy = FORWARD[army]
            one = (frm[0] + fx, frm[1] + fy)
            if on_board(*one) and one not in board:
                targets.append(one)
                two = (one[0] + fx, one[1] + fy)
                home = {"r": frm[1] == 1, "b": frm[0] == 1, "y": frm[1] == 12, "g": frm[0] == 12}[army]
                if home and on_board(*two) and two not in board:
                    targets.append(two)
            for side in ((fx + fy, fy + fx), (fx - fy, fy - fx)):
                to = (frm[0] + side[0], frm[1] + side[1])
                if to in board and enemies(army, board[to][0], teams):
                    targets.append(to)
        else:
            for f in range(14):
                for r in range(14):
                    if on_board(f, r) and (f, r) != frm and attacks(board, frm, (f, r)):
                        if (f, r) not in board or enemies(army, board[(f, r)][0], teams):
                            targets.append((f, r))
        for to in targets:
            if to in board and board[to][1] == "K":
                continue   # kings are never captured
            after = dict(board)
            after[to] = after.pop(frm)
            king = next(c for c, p in after.items() if p == (army, "K"))
            if not any(enemies(army, p[0], teams) and attacks(after, c, king) for c, p in after.items()):
                found.append(after)
    return found


def count(board: dict, depth: int, turn: int, teams: bool) -> int:
    if depth == 0:
        return 1
    return sum(count(after, depth - 1, turn + 1, teams) for after in moves(board, ORDER[turn % 4], teams))


@pytest.mark.parametrize("variant,teams", [("fourplayer_ffa", False), ("fourplayer_teams", True)])
def test_counts_from_the_start_match_the_counter(variant, teams):
    pos = start_position(load_game(variant))
    expected = [count(start(), depth, 0, teams) for depth in (1, 2, 3)]
    assert expected[0] == 20
    assert [perft(pos, depth) for depth in (1, 2, 3)] == expected


def fen(pieces: str, side: str, scores: str | None = None) -> str:
    """A FEN of the 4PC board from 'rK@h1 bK@a7 ...' (cells listed by rank from 14 down)."""
    at = {}
    for item in pieces.split():
        symbol, name = item.split("@")
        at[name] = symbol
    rows = []
    for rank in range(14, 0, -1):
        row, empty = [], 0
        for f in range(14):
            if not on_board(f, rank - 1):
                continue
            name = f"{chr(ord('a') + f)}{rank}"
            if name in at:
                if empty:
                    row.append(str(empty))
                row.append(at[name])
                empty = 0
            else:
                empty += 1
        if empty:
            row.append(str(empty))
        rows.append(",".join(row))
    return "/".join(rows) + f" {side} - -" + (f" {scores}" if scores else "") + " 0 1"


KINGS = "rK@h1 bK@a7 yK@g14 gK@n8"


def play(pos, *sans: str) -> None:
    for san in sans:
        pos.push(parse_move(pos, san))


def test_teams_a_mate_with_the_partner_wins_for_the_team():
    game = load_game("fourplayer_teams")
    # Red's rook mates Blue's king on a7 along the a-file; Yellow's bishop on e11 takes b8.
    pos = position_from_fen(game, fen(f"{KINGS} rR@d4 bP@b6 bP@b7 yB@e11", "r"))
    assert outcome(pos) is None
    play(pos, "Ra4")
    result = outcome(pos)
    assert result is not None and result.rule == "checkmate"
    assert {game.armies[a].name for a in result.winners} == {"red", "yellow"}
    # Without the partner's bishop, the king escapes to b8: no mate.
    pos = position_from_fen(game, fen(f"{KINGS} rR@d4 bP@b6 bP@b7", "r"))
    play(pos, "Ra4")
    assert outcome(pos) is None and "Kb8" in {move_to_san(pos, m) for m in pos.legal_moves()}


def test_ffa_a_mate_puts_the_army_out_and_scores_for_the_mating_army():
    game = load_game("fourplayer_ffa")
    pos = position_from_fen(game, fen(f"{KINGS} rR@d4 bP@b6 bP@b7 bP@b8", "r"))
    play(pos, "Ra4")
    assert pos.legal_moves() == [(-1, -1, 0, OUT)]
    assert move_to_san(pos, pos.legal_moves()[0]) == "out"
    play(pos, "out")
    red, blue, yellow = (game.armies.index(a) for a in game.armies if a.name in ("red", "blue", "yellow"))
    assert pos.scores[red] == 20 and pos.out == 1 << blue
    assert pos.army == yellow             # Blue's turns are skipped from now on
    assert " 20,0x,0,0 " in to_fen(pos)
    assert position_from_fen(game, to_fen(pos)).hash == pos.hash
    pos.pop()
    assert pos.scores[red] == 0 and pos.out == 0 and pos.army == blue


def test_ffa_dead_pieces_block_attack_nothing_and_score_nothing():
    game = load_game("fourplayer_ffa")
    red = next(a.index for a in game.armies if a.name == "red")
    # Blue is out: its rook on h4 neither checks Red's king on h1 nor lets Yellow's rook on h10
    # through; Red may take it, for no points; after Red, Yellow moves (Blue is skipped).
    pos = position_from_fen(game, fen(f"{KINGS} bR@h4 yR@h10 rR@e4", "r", "0,0x,0,0"))
    assert not pos.in_check()
    sans = {move_to_san(pos, m) for m in pos.legal_moves()}
    assert {"Kh2", "Kg2", "Rxh4"} <= sans   # h2 is not attacked through the dead rook
    play(pos, "Rxh4")
    assert pos.scores[red] == 0 and game.armies[pos.army].name == "yellow"
    # Without Blue out, the same rook checks, and taking it scores 5.
    pos = position_from_fen(game, fen(f"{KINGS} bR@h4 yR@h10 rR@e4", "r"))
    assert pos.in_check()
    play(pos, "Rxh4")
    assert pos.scores[red] == 5 and game.armies[pos.army].name == "blue"


def test_ffa_a_lead_of_more_than_20_with_two_left_ends_the_game_by_score():
    game = load_game("fourplayer_ffa")
    red = next(a.index for a in game.armies if a.name == "red")
    pos = position_from_fen(game, fen(f"{KINGS} rR@d4 yQ@d10", "r", "17,30x,5,0x"))
    assert outcome(pos) is None
    play(pos, "Rxd10")   # 17 + 9 = 26, 21 ahead of Yellow but behind Blue, out with 30
    assert outcome(pos) is None
    pos = position_from_fen(game, fen(f"{KINGS} rR@d4 yQ@d10", "r", "17,3x,5,0x"))
    play(pos, "Rxd10")   # 26: more than 20 ahead of every other score
    result = outcome(pos)
    assert result is not None and result.rule == "lead" and result.winners == (red,)
    assert result.scores == (26, 3, 5, 0) and "Red 26" in result.describe(game)


def test_ffa_resigning_puts_the_army_out_without_points():
    """'when resigning: eliminate': in 'rules play', Red's resignation is its move; Blue is to move,
    Red is out with no points for anyone, and its castling rights, which it can never use, are gone
    from the FEN; in Teams resigning ends the game."""
    import io
    from interpreter.cli.play import play as run
    texts = {}
    for variant in ("fourplayer_ffa", "fourplayer_teams"):
        game = load_game(variant)
        out = io.StringIO()
        run(game, start_position(game), {a.index: "human" for a in game.armies},
            stdin=io.StringIO("resign\nfen\n"), stdout=out)
        texts[variant] = out.getvalue()
    assert "Red resigns: its pieces stay on the board, inert." in texts["fourplayer_ffa"]
    assert " b a4,n4,a7,n8,a11,n11,d14,g14,k14 - 0x,0,0,0 1 1" in texts["fourplayer_ffa"]
    assert "Red resigns." in texts["fourplayer_teams"] and "inert" not in texts["fourplayer_teams"]
    game = load_game("fourplayer_ffa")
    pos = start_position(game)
    pos.push((-1, -1, 0, RESIGNED))
    assert pos.out == 1 and pos.scores == (0, 0, 0, 0) and game.armies[pos.army].name == "blue"


def test_scores_field_errors_are_located():
    from dsl import RulesError
    game = load_game("fourplayer_ffa")
    with pytest.raises(RulesError, match="3 scores for 4 armies"):
        position_from_fen(game, fen(KINGS, "r", "0,0,0"))
    with pytest.raises(RulesError, match="out of the game"):
        position_from_fen(game, fen(KINGS, "r", "0x,0,0,0"))


def test_the_evaluation_counts_points_and_nothing_for_an_army_out():
    from interpreter.agents.evaluation import evaluation_of
    game = load_game("fourplayer_ffa")
    evaluation = evaluation_of(game)
    level = evaluation.army_scores(position_from_fen(game, fen(f"{KINGS} bR@h4", "r", "0,0,0,0")))
    ahead = evaluation.army_scores(position_from_fen(game, fen(f"{KINGS} bR@h4", "r", "20,0,0,0")))
    out = evaluation.army_scores(position_from_fen(game, fen(f"{KINGS} bR@h4", "r", "0,3x,0,0")))
    assert ahead[0] > level[0] and ahead[1:] == level[1:]
    assert out[1] < level[1] and out[1] == 3 * (ahead[0] - level[0]) // 20


@pytest.mark.parametrize("variant, resigning", [("fourplayer_ffa", "inert"), ("superchess", "king leaves")])
def test_a_resignation_the_game_survives_is_in_the_record_and_reads_back(tmp_path, variant, resigning):
    """A resignation after which the others play on is written 'resign' in the record of 'rules play'
    and read back as the same move, so replaying the record (as 'rules serve' does) reaches the
    same position, with the later moves by the right armies. Where resigning ends the game, the
    record has the result (1-0) and the word is refused as a move, with the hint to write it."""
    import io
    from dsl.errors import IllegalMoveError
    from interpreter.cli.play import play as run
    from interpreter.loading.records import read_record
    from interpreter.notation.reading import moves_from_text
    game = load_game(variant)
    pos = start_position(game)
    first = move_to_san(pos, pos.legal_moves()[0])
    record = tmp_path / "game.pgn"
    out = io.StringIO()
    run(game, pos, {a.index: "human" for a in game.armies}, record_path=str(record),
        stdin=io.StringIO(f"{first}\nresign\nmoves\nfen\nquit\n"), stdout=out)
    shown = out.getvalue()
    assert resigning in shown
    # The FEN after a prompt ('Tan to move> ...'); not the line that names the record's path.
    after = [line for line in shown.splitlines() if "> " in line and line.count("/") > 5][-1].split("> ")[-1]
    text = record.read_text()
    assert " resign " in f" {read_record(text).movetext} ".replace("\n", " ")
    replayed = start_position(game)
    moves_from_text(replayed, read_record(text).movetext)
    assert to_fen(replayed) == after.strip()
    assert read_record(text).movetext.split()[0] == "1."   # not '0.': the fullmove is the FEN's last field
    chess = load_game("chess")
    out = io.StringIO()
    run(chess, start_position(chess), {0: "human", 1: "human"}, record_path=str(record),
        stdin=io.StringIO("e4\nresign\n"), stdout=out)
    assert "Game over: White wins by resignation." in out.getvalue()
    assert read_record(record.read_text()).tags["Result"] == "1-0"
    with pytest.raises(IllegalMoveError, match="resigning here ends the game") as err:
        parse_move(start_position(chess), "resign")
    assert "0-1" in (err.value.hint or "")


# Green to move with its king on n8 and an unmoved rook on n11: its short castling is legal. Every
# army's castling rules are written O-O and O-O-O alike.
GREEN_CASTLES = ("1,yN,1,yK,yQ,yB,1,yR/yR,yB,yP,yP,yN,yP,yP,yP/yP,yP,6/3,bP,3,yP,3,gN,gP,gR/bR,bP,10,gP,1/"
                 "bB,bP,10,gP,1/bQ,bP,2,bN,6,gP,1,gK/bK,bP,10,gP,gQ/bB,bP,8,gB,gN,gP,gB/1,bP,2,bN,5,gP,3/"
                 "bR,bP,4,rP,5,gP,gR/2,rP,3,rP,rN/rP,rP,2,rP,rP,1,rP/rR,rN,rB,rQ,rK,rB,1,rR g "
                 "d1,h1,k1,a4,n4,a7,n8,n11,g14,k14 - 2 6")


def test_a_castling_written_like_other_armies_castlings_reads_back():
    game = load_game("fourplayer_teams")
    pos = position_from_fen(game, GREEN_CASTLES)
    castles = [m for m in pos.legal_moves() if m[3] is not None and m[3][0] == "castle"]
    assert castles, "Green can castle here"
    for move in castles:
        assert parse_move(pos, move_to_san(pos, move)) == move
    # Where no army's O-O is legal, the reason given is the mover's rule's.
    pos = start_position(game)
    for army in range(4):
        with pytest.raises(IllegalMoveError, match=f"castling {game.armies[army].name}_short"):
            parse_move(pos, "O-O")
        pos.push(pos.legal_moves()[0])
