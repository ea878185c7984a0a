"""Rocket Chess: the 248-cell board, acceptance tests RC-T1 to RC-T9, the per-piece direction
counts the text gives (the board and its readings are the interpretations of rocket.rules),
and the start perft of ``tests/perft/rocket.txt``.

Cells are named by file (a..o) and rank (1..31); on an empty board the tables of the compiled
game are the moves, so several tests read them directly.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter.notation.fen import to_fen
from interpreter.loading import load_game
from interpreter.engine.outcome import outcome
from interpreter.engine.perft import perft
from interpreter.engine.position import Position
from interpreter.engine.generation import pseudo_legal_moves
from interpreter.loading import position_from_fen, start_fen, start_position

PERFT_FILE = Path(__file__).resolve().parent / "perft" / "rocket.txt"
INTERIOR = {"L": "e13", "I": "e14", "U": "e15", "O": "e16"}


@pytest.fixture(scope="module")
def game():
    return load_game("rocket")


def cells(game, *names: str) -> list[int]:
    return [game.board.index[n] for n in names]


def names(game, indices) -> list[str]:
    return sorted((game.board.names[i] for i in indices), key=lambda n: (n[0], int(n[1:])))


def position(game, pieces: dict[str, str], turn: str = "w") -> Position:
    """A position with the given pieces (cell -> symbol); kings on o1 / a1 unless given. Kings keep
    their once-per-game step, as at the start."""
    pieces = dict(pieces)
    symbols = set(pieces.values())
    if "K" not in symbols:
        pieces.setdefault("o1", "K")
    if "k" not in symbols:
        pieces.setdefault("a1", "k")
    pos = Position(game)
    for cell, symbol in pieces.items():
        pos.place(game.board.index[cell], game.symbol_code[symbol])
        if game.privileged[game.symbol_code[symbol]]:
            pos.privileges |= 1 << game.board.index[cell]
    pos.rehash()
    return position_from_fen(game, to_fen(pos).replace(" w ", f" {turn} "))


def targets(game, pieces: dict[str, str], cell: str, turn: str | None = None, legal: bool = False) -> list[str]:
    """The cells the piece on ``cell`` may move to (pseudo-legal unless ``legal``)."""
    turn = turn or ("w" if pieces[cell].isupper() else "b")
    pos = position(game, pieces, turn)
    start = game.board.index[cell]
    moves = pos.legal_moves() if legal else pseudo_legal_moves(pos)
    return names(game, {m[1] for m in moves if m[0] == start})


def ray(game, cell: str, label: str) -> list[str]:
    """The cells of the ``label`` line from ``cell`` on an empty board (the label followed cell by cell)."""
    steps, out, at = game.board.steps[label], [], game.board.index[cell]
    while steps[at] >= 0:
        at = steps[at]
        out.append(game.board.names[at])
    return out


def neighbours(game, cell: str, *families: str) -> list[str]:
    board, at = game.board, game.board.index[cell]
    return names(game, {board.steps[label][at] for f in families for label in board.families[f]
                        if board.steps[label][at] >= 0})


def lines(game, symbol: str, cell: str, keep=lambda atom: True, anywhere: bool = False) -> int:
    """The number of directions of a piece on ``cell`` of an empty board: its distinct maximal paths.

    Every move is a path of cells (the cells passed, then the destination); a path that is the
    start of a longer one is part of that direction. Leapers have one path per target, riders one
    per line (two lines that share their first cells and then part are two directions). With
    ``anywhere``, moves limited to some start cells (``from``) count as if made from ``cell``.
    """
    code, at = game.symbol_code[symbol], game.board.index[cell]
    paths = set()
    for atom in game.atoms[code]:
        if (atom.from_cells is not None and at not in atom.from_cells and not anywhere) or not keep(atom):
            continue
        if atom.kind == "leap":
            paths |= {tuple(between) + (to,) for to, between in atom.leaps[at]}
        else:
            paths |= {tuple(r[:k + 1]) for r in atom.rays[at] for k in range(len(r))}
    return sum(1 for p in paths if not any(len(q) > len(p) and q[:len(p)] == p for q in paths))


# ---------------------------------------------------------------- RC-T1 .. RC-T9


def test_rc_t1_cells_types_and_file_lengths(game):
    board = game.board
    assert len(board) == 248
    assert Counter(a["type"] for a in board.attributes) == {"L": 64, "I": 64, "U": 64, "O": 56}
    lengths = [sum(1 for a in board.attributes if a["file"] == f) for f in range(1, 16)]
    assert lengths == [31, 28, 27, 24, 23, 20, 19, 16, 15, 12, 11, 8, 7, 4, 3]
    assert all(a["rank"] <= lengths[a["file"] - 1] for a in board.attributes)
    assert "a31" in board.index and "b29" not in board.index and "o3" in board.index and "o4" not in board.index


def test_rc_t2_bishop_coverage(game):
    board = game.board
    bishop = game.symbol_code["B"]
    reach = {to for atom in game.atoms[bishop] for row in atom.rays for r in row for to in r}
    assert len(reach) == 190
    outside = {board.names[c] for c in range(len(board)) if c not in reach}
    assert outside == {n for n, a in zip(board.names, board.attributes) if a["type"] == "O"} | {"a30", "a31"}
    # A single bishop from a1 reaches all 190 cells in several moves.
    seen, frontier = {board.index["a1"]}, [board.index["a1"]]
    while frontier:
        frontier = [to for frm in frontier for atom in game.atoms[bishop] for r in atom.rays[frm] for to in r
                    if to not in seen and not seen.add(to)]
    assert seen == reach


def test_rc_t3_rook_lines_from_e13(game):
    assert ray(game, "e13", "UR") == [f"e{r}" for r in range(14, 24)]
    assert ray(game, "e13", "UL") == "e14 e15 d16 c17 c18 c19 b20 a21 a22 a23".split()
    assert ray(game, "e13", "DR") == "f12 g11 g10 g9 h8 i7 i6 i5 j4 k3 k2 k1".split()
    assert ray(game, "e13", "DL") == [f"e{r}" for r in range(12, 0, -1)]
    assert ray(game, "e13", "E") == "f13 g13 h13 i13".split()
    assert ray(game, "e13", "W") == "d13 c13 b13 a13".split()
    expected = set("e14 e15 e16 e17 e18 e19 e20 e21 e22 e23 d16 c17 c18 c19 b20 a21 a22 a23 "
                   "f12 g11 g10 g9 h8 i7 i6 i5 j4 k3 k2 k1 e12 e11 e10 e9 e8 e7 e6 e5 e4 e3 e2 e1 "
                   "f13 g13 h13 i13 d13 c13 b13 a13".split())
    assert set(targets(game, {"e13": "R", "h1": "K", "o3": "k"}, "e13")) == expected


def test_rc_t3_bishop_lines_from_e14(game):
    assert ray(game, "e14", "NE") == "f15 e17 f18 g19".split()
    assert ray(game, "e14", "NW") == "d15 c17 b18 a19".split()
    assert ray(game, "e14", "SE") == "f13 g11 h10 i9 j7 k6 l5 m3 n2 o1".split()
    assert ray(game, "e14", "SW") == "d13 e11 d10 c9 d7 c6 b5 c3 b2 a1".split()
    assert ray(game, "e14", "IE") == "f14 g14 h14 i14".split()
    assert ray(game, "e14", "IW") == "d14 c14 b14 a14".split()


@pytest.mark.parametrize("cell, expected", [
    ("e13", "c14 c16 d12 f10 f16 g12 g14"),
    ("e14", "c13 c15 d17 f11 g13 g15"),
    ("e16", "c17 c19 d13 d15 f17 f19 g13 g15"),
])
def test_rc_t3_knight(game, cell, expected):
    assert targets(game, {cell: "N"}, cell) == names(game, cells(game, *expected.split()))


@pytest.mark.parametrize("cell, expected", [
    ("e13", "b13 c15 d16 e10 e16 g10 g15 h13"),
    ("e16", "b17 c15 c16 d19 e13 e19 f13 g16 g17 h15"),
])
def test_rc_t3_astra(game, cell, expected):
    assert targets(game, {cell: "S"}, cell) == names(game, cells(game, *expected.split()))


@pytest.mark.parametrize("cell, orth, diag", [
    ("e13", "e14 d13 f13 f12 e12", "d14 f14 d15 f15 f11"),
    ("e14", "e15 e13", "d14 f14 d15 f15 d13 f13"),
    ("e15", "e14 d15 f15 e16 d16", "d14 f14 d13 f13 d17"),
    ("e16", "e15 f15 d17 e17", "d16 f16"),
])
def test_rc_t3_king_neighbours(game, cell, orth, diag):
    assert neighbours(game, cell, "orth") == names(game, cells(game, *orth.split()))
    # The corner between two clusters side by side is a family of its own (the once-per-game step).
    assert neighbours(game, cell, "diag", "cc") == names(game, cells(game, *diag.split()))
    assert targets(game, {cell: "K", "a1": "k"}, cell) == sorted(
        set(orth.split()) | set(diag.split()), key=lambda n: (n[0], int(n[1:])))


def test_rc_t4_king_cluster_step_once_per_game(game):
    assert set(targets(game, {"e15": "K"}, "e15")) >= {"d13", "f13"}
    pos = position(game, {"e15": "K"})
    e15, d13 = cells(game, "e15", "d13")
    pos.push(next(m for m in pos.legal_moves() if m[:2] == (e15, d13)))
    pos.push(next(m for m in pos.legal_moves()))                      # Black replies
    d13_moves = {m[1] for m in pos.legal_moves() if m[0] == d13}
    assert game.board.index["f15"] not in d13_moves and len(d13_moves) == 8


def test_rc_t5_cockpit(game):
    assert neighbours(game, "a31", "orth", "diag", "cc") == ["a30"]
    assert targets(game, {"a31": "K"}, "a31") == ["a30"]
    pos = position(game, {"a30": "K", "o1": "k"})
    a30, a31 = cells(game, "a30", "a31")
    move = next(m for m in pos.legal_moves() if m[:2] == (a30, a31))
    pos.push(move)
    result = outcome(pos)
    assert result is not None and result.rule == "cockpit" and result.winners == (game.army_index["white"],)
    assert pos.legal_moves() == []
    # Not into check: a black Astra on a28 leaps to a31 (the third cell of its rook line).
    assert "a31" not in targets(game, {"a30": "K", "a28": "s", "o1": "k"}, "a30", legal=True)


def test_rc_t6_knight_near_the_cockpit(game):
    assert "a30" in targets(game, {"b27": "N"}, "b27")
    assert targets(game, {"a30": "N"}, "a30") == ["b27"]
    assert "b26" in targets(game, {"a29": "N"}, "a29")
    assert "a29" in targets(game, {"b26": "N"}, "b26")
    assert targets(game, {"a31": "N"}, "a31") == []
    knight = game.symbol_code["N"]
    a31 = game.board.index["a31"]
    assert not any(to == a31 for atom in game.atoms[knight] for row in atom.leaps for to, _ in row)


@pytest.mark.parametrize("cell", ["a30", "a31"])
def test_rc_t7_aanca_immobile_in_the_nose(game, cell):
    assert targets(game, {cell: "M"}, cell, legal=True) == []


BLACK_START_MOVES = {
    "a3": "c1 d3", "a7": "a10 c5 d7",
    "a6": "c5 c7", "a8": "b9 b11 c5 c7",
    "b1": "c1 d1", "b3": "c3 d3", "b4": "c2 c3 d3", "b5": "c4 c5 d3 d5", "b7": "c7 d7",
    "b8": "b9 b10 c6 c7 c9 d7",
}


def test_rc_t8_start_position_moves(game):
    pos = position_from_fen(game, start_fen(game).replace(" w ", " b "))
    moves: dict[str, list[str]] = {}
    for frm, to, *_ in pseudo_legal_moves(pos):
        moves.setdefault(game.board.names[frm], []).append(game.board.names[to])
    # K a1, R a2, B a5 and the pawns on b2 and b6 have none; under this file's reading the Zip
    # on a4 has none either (its outer-square moves start with a5 or b3, both occupied).
    assert {c: sorted(m) for c, m in moves.items()} == {c: sorted(m.split()) for c, m in BLACK_START_MOVES.items()}
    assert sum(len(m) for m in moves.values()) == 30
    # White mirrors Black: x -> 14 - x on cluster rows and inner squares, 13 - x on outer squares.
    assert len(pseudo_legal_moves(start_position(game))) == 30


def test_rc_t9_promotion_by_rank(game):
    def choices(pieces, cell, to):
        turn = "w" if pieces[cell].isupper() else "b"
        pos = position(game, pieces, turn)
        frm, dest = cells(game, cell, to)
        return sorted(game.kinds[game.code_kind[m[2]]].letter if m[2] else "-"
                      for m in pos.legal_moves() if m[:2] == (frm, dest))

    assert choices({"b10": "P", "a10": "n"}, "b10", "a10") == sorted("NSBZR")
    assert choices({"b20": "P", "a20": "n"}, "b20", "a20") == ["A"]
    assert choices({"b26": "P", "a26": "n"}, "b26", "a26") == ["M"]
    assert choices({"h15": "p"}, "h15", "h16") == ["A"]
    assert choices({"m6": "p"}, "m6", "m7") == sorted("NSBZR")


# ---------------------------------------------------------------- section 3.2's table

# piece: directions on an interior L, I, U, O cell (the King with its once-per-game step, as at
# the start: 10 on cluster cells, 8 once spent; Zip and Aanca as this file reads them, see the
# variant's interpretations).
DIRECTIONS = {
    "R": (6, 4, 6, 4), "B": (4, 6, 4, 0), "N": (7, 6, 7, 8), "S": (8, 6, 8, 10),
    "K": (10, 8, 10, 6), "A": (11, 12, 11, 10), "Z": (5, 4, 5, 4), "M": (8, 10, 8, 6),
}


@pytest.mark.parametrize("symbol", sorted(DIRECTIONS))
def test_directions_per_cell_type(game, symbol):
    for army_symbol in (symbol, symbol.lower()):
        assert tuple(lines(game, army_symbol, c) for c in INTERIOR.values()) == DIRECTIONS[symbol]


@pytest.mark.parametrize("symbol", ["P", "p"])
def test_pawn_directions_per_cell_type(game, symbol):
    cells_ = INTERIOR.values()
    # Moves, double steps (made from the starting cells; counted as if the pawn stood unmoved
    # on each cell) and attacks.
    single = lambda a: a.quiet and a.from_cells is None  # noqa: E731
    double = lambda a: a.quiet and a.from_cells is not None  # noqa: E731
    assert tuple(lines(game, symbol, c, single) for c in cells_) == (3, 2, 3, 2)
    assert tuple(lines(game, symbol, c, double, anywhere=True) for c in cells_) == (3, 2, 3, 4)
    assert tuple(lines(game, symbol, c, lambda a: a.capture) for c in cells_) == (2, 3, 2, 1)


def test_pawns_head_for_the_opposite_side(game):
    # Black forward: UR, DR, E; White: UL, DL, W (on L cells; double steps from the start).
    assert targets(game, {"e13": "p"}, "e13") == ["e14", "f12", "f13"]
    assert targets(game, {"e13": "P"}, "e13") == ["d13", "e12", "e14"]


def test_cells_are_drawn_as_the_rocket(game):
    board = game.board
    area = lambda p: abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(p, p[1:] + p[:1]))) / 2  # noqa: E731
    assert all(abs(area(p) - 0.5) < 1e-9 for p in board.polygons)
    assert [len(board.polygons[board.index[c]]) for c in INTERIOR.values()] == [6, 4, 6, 4]
    assert board.centres[board.index["a1"]] == pytest.approx((0, -0.5))       # L of cluster (0, 0)
    assert board.centres[board.index["a4"]] == pytest.approx((0.5, 1))        # O(0, 0)
    assert board.centres[board.index["a31"]] == pytest.approx((7, 14.5))      # U of the nose cluster (7, 7)


# ---------------------------------------------------------------- perft

def perft_records() -> list[tuple[str, int, int]]:
    records = []
    for line in PERFT_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            variant, fen, depth, nodes = line.split(";")
            records.append((fen, int(depth), int(nodes)))
    return records


@pytest.mark.parametrize("fen, depth, nodes", [r for r in perft_records() if r[1] <= 3])
def test_perft(game, fen, depth, nodes):
    assert perft(position_from_fen(game, fen), depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("fen, depth, nodes", [r for r in perft_records() if r[1] > 3])
def test_perft_deep(game, fen, depth, nodes):
    assert perft(position_from_fen(game, fen), depth) == nodes


# ---------------------------------------------------------------- playouts

def test_playouts_reach_promotions_and_a_cockpit_win(game):
    """Seeded playouts: one pushing pawns reaches promotions (on the three rank ranges' edge
    cells), one racing both kings to a31 ends with a cockpit win; push and pop restore the FEN."""
    import random
    from collections import deque

    board = game.board
    pawns = {game.symbol_code["P"], game.symbol_code["p"]}
    kings = {game.symbol_code["K"], game.symbol_code["k"]}
    a31 = board.index["a31"]
    labels = [label for family in ("orth", "diag") for label in board.families[family]]
    distance, queue = {a31: 0}, deque([a31])
    while queue:
        cell = queue.popleft()
        for label in labels:
            for src, dst in enumerate(board.steps[label]):
                if dst == cell and src not in distance:
                    distance[src] = distance[cell] + 1
                    queue.append(src)

    def pawns_first(pos, legal, rng):
        promoting = [m for m in legal if m[2]]
        pushes = [m for m in legal if pos.board[m[0]] in pawns]
        return rng.choice(promoting or (pushes if pushes and rng.random() < 0.7 else legal))

    def kings_race(pos, legal, rng):
        gain = {m: distance[m[0]] - distance[m[1]] for m in legal if pos.board[m[0]] in kings}
        best = [m for m, g in gain.items() if g > 0 and g == max(gain.values())]
        return rng.choice(best or legal)

    def play(policy, plies, seed=0):
        rng, pos, promoted = random.Random(seed), start_position(game), []
        for _ in range(plies):
            legal = pos.legal_moves()
            result = outcome(pos, legal)
            if result:
                return result, promoted
            move = policy(pos, legal, rng)
            before = to_fen(pos)
            pos.push(move)
            pos.pop()
            assert to_fen(pos) == before
            if move[2]:
                promoted.append(game.kinds[game.code_kind[move[2]]].letter)
            pos.push(move)
        return None, promoted

    promotions = [play(pawns_first, 300, seed)[1] for seed in range(4)]
    assert any(promotions) and all(set(p) <= set("NSBZRAM") for p in promotions)
    results = [play(kings_race, 300, seed)[0] for seed in range(4)]
    assert any(r is not None and r.rule == "cockpit" for r in results)


# ---------------------------------------------------------------- the constructs on small boards

SMALL = """
board {{
  ragged lengths 3, 4, 5, 4, 3
  set type = even on where rank % 2 == 0
  set type = odd on where rank % 2 == 1 and file + 0 * rank >= 1
  {board}
}}
armies {{ army white {{ letters upper }} army black {{ letters lower }} }}
piece King {{ letter K royal move step orth }}
{pieces}
setup {{ white King at a1  black King at e3 }}
"""


def small(board: str = "", pieces: str = ""):
    from dsl import load_spec_text
    from interpreter.loading import compile_variant
    return compile_variant(load_spec_text(SMALL.format(board=board, pieces=pieces)))


def test_ragged_board_and_where():
    game = small()
    board = game.board
    assert len(board) == 19 and board.files == 5 and board.ranks == 5
    assert "a4" not in board.index and "c5" in board.index
    assert sum(a["type"] == "even" for a in board.attributes) == 8
    assert board.polygons[board.index["b2"]] == [(1, 1), (2, 1), (2, 2), (1, 2)]   # unit squares by default


def test_direction_tables_later_rows_win_and_replace_built_in_families():
    game = small("""directions orth {
      all: up (0, 1), down (0, -1)
      type even: up (1, 1)
    }""", "piece Climber { letter C move ride up }")
    board = game.board
    assert set(board.families["orth"]) == {"up", "down"} and "n" not in board.steps
    assert [board.names[c] for c in _ray_cells(board, "a1", "up")] == ["a2", "b3", "b4", "c5"]
    climber = game.symbol_code["C"]
    assert {board.names[c] for a in game.atoms[climber] for r in a.rays[board.index["a1"]] for c in r} == {
        "a2", "b3", "b4", "c5"}


def _ray_cells(board, cell, label):
    out, at = [], board.index[cell]
    while board.steps[label][at] >= 0:
        at = board.steps[label][at]
        out.append(at)
    return out


def test_static_conditions_filter_tables():
    game = small("", """piece Hopper { letter H move step all: if to.type == "even" and from.file < to.file }
piece Slider { letter S move ride orth: if to.rank != 3 }""")
    board = game.board
    hopper = game.symbol_code["H"]
    reach = {board.names[to] for a in game.atoms[hopper] for to, _ in a.leaps[board.index["b3"]]}
    assert reach == {"c2", "c4"}
    # A ride keeps passing the cells where it may not stop.
    slider = game.symbol_code["S"]
    rows = [(board.names[to], tuple(board.names[c] for c in between))
            for a in game.atoms[slider] for to, between in a.leaps[board.index["c1"]]]
    assert ("c4", ("c2", "c3")) in rows and not any(to == "c3" for to, _ in rows)


def test_drawing_position_and_shape():
    game = small("""position (2 * file, rank + file % 2) on all
    shape on type even: (0, 0), (1, 0), (0, 1)""")
    board = game.board
    assert board.polygons[board.index["a1"]] == [(2, 2), (3, 2), (3, 3), (2, 3)]   # moved with its position
    assert board.polygons[board.index["b2"]] == [(4, 2), (5, 2), (4, 3)]


@pytest.mark.parametrize("board, pieces, message", [
    ("directions one { all: x (1, 0) }\n directions two { all: x (0, 1) }", "", "already belongs to family"),
    ("set hue = 1 on where colour + 1 > 0", "", "mixes text and numbers"),
    ("zone z: where typo == 1", "", "unknown name 'typo'"),
    ("", "piece Q { letter Q move ride orth: if in_check }", "depends on the position"),
])
def test_errors(board, pieces, message):
    from dsl import RulesError
    with pytest.raises(RulesError, match=message):
        small(board, pieces)
