"""The hop options ``hurdle`` and ``takes``: what a hopper may jump over and what it may capture.

The test game is ``tests/data/variants/janggi_cannons.rules`` (xiangqi whose cannons are Janggi's:
``betza "pR": hurdle not Cannon, takes not Cannon``). Every consumer of hop moves must agree:

- move generation (a cannon screened by a cannon neither moves nor captures past it, and never
  captures a cannon), checked in hand-made positions and, along seeded random games, against an
  independent generator written here over the board's coordinates;
- check detection and pins, read from the reverse attack tables: the legal moves along the games
  are those a brute force finds by generating every enemy move after each move (no tables);
- the static exchange, which asks the tables who attacks a given piece (``victim``);
- the contract's invariants (tests/test_contract.py) on the test game;
- the export to Fairy-Stockfish, whose ``janggiCannon`` is exactly this hopper: perft through
  pyffish equals ours from the start and from positions of seeded games; other limits are refused.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl import RulesSemanticError, load_spec_text
from interpreter.engine.attacks import checkers, generated_attack, in_check, table_attackers
from interpreter.engine.generation import pseudo_legal_moves
from interpreter.engine.perft import perft
from interpreter.interchange.fsf_export import NotExportable, fsf_section
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen

try:
    import test_contract as contract
    from fsf_perft import fsf_perft
except ImportError:  # tests/ imported as a package
    from tests import test_contract as contract
    from tests.fsf_perft import fsf_perft

VARIANT = Path(__file__).parent / "data" / "variants" / "janggi_cannons.rules"


@pytest.fixture(scope="module")
def game():
    return load_game(VARIANT)


def targets(pos, cell: str) -> set[str]:
    """The destinations of the pseudo-legal moves of the piece on ``cell``."""
    g = pos.game
    frm = g.board.index[cell]
    return {g.board.names[m[1]] for m in pseudo_legal_moves(pos) if m[0] == frm}


def legal_from(pos, cell: str) -> set[str]:
    g = pos.game
    frm = g.board.index[cell]
    return {g.board.names[m[1]] for m in pos.legal_moves() if m[0] == frm}


# ---------------------------------------------------------------- move generation
@pytest.mark.parametrize("rank, expected", [
    ("C1c2p3", set()),                     # the only hurdle on the rank is a cannon
    ("C1p2c3", {"d5", "e5"}),              # over the soldier, but the cannon beyond is not captured
    ("C1p2r3", {"d5", "e5", "f5"}),        # over the soldier, capturing the chariot
    ("C1p1C4", {"d5"}),                    # stopped by its own cannon
])
def test_generation_obeys_hurdle_and_takes(game, rank, expected):
    pos = position_from_fen(game, f"3k5/9/9/9/9/{rank}/9/9/9/4K4 w - - 0 1")
    assert targets(pos, "a5") == expected


# ---------------------------------------------------------------- check, pins, screens
def test_a_cannon_screened_by_a_cannon_gives_no_check(game):
    screened = position_from_fen(game, "4k4/9/9/4c4/9/4C4/9/9/9/3K5 b - - 0 1")
    assert not in_check(screened) and checkers(screened) == []
    over_soldier = position_from_fen(game, "4k4/9/9/4p4/9/4C4/9/9/9/3K5 b - - 0 1")
    assert in_check(over_soldier) and checkers(over_soldier) == [game.board.index["e5"]]


def test_capturing_a_cannon_hurdle_may_expose_the_general(game):
    """The white cannon on e8 screens the general from the one on e5; a black chariot that takes it
    becomes a hurdle, so that capture is illegal; the general's step to e9 stays behind the cannon."""
    pos = position_from_fen(game, "4k4/9/r3C4/9/9/4C4/9/9/9/3K5 b - - 0 1")
    assert not in_check(pos)
    assert "e8" in targets(pos, "a8") and "e8" not in legal_from(pos, "a8")
    assert "e9" in legal_from(pos, "e10")


def test_a_cannon_that_screens_nothing_is_still_pinned(game):
    """Black's cannon on e9 is no hurdle, but were it to leave, the soldier on e8 would be: it may not
    leave the file (its hops over the advisor on d9), only move along it, over the soldier."""
    pos = position_from_fen(game, "4k4/3ac4/4p4/9/9/4C4/9/9/9/3K5 b - - 0 1")
    assert not in_check(pos)
    assert targets(pos, "e9") == {"a9", "b9", "c9", "e7", "e6"} and legal_from(pos, "e9") == {"e7", "e6"}


def test_the_tables_ask_about_the_piece_to_be_taken(game):
    """A black cannon on e8, over a soldier on e7, attacks a chariot on e5 but not a cannon there
    (``victim``, as the static exchange asks)."""
    g = game
    index = g.board.index
    black = g.army_index["black"]
    for occupant, attacked in (("R", True), ("C", False)):
        pos = position_from_fen(g, f"4k4/9/4c4/4p4/9/4{occupant}4/9/9/9/3K5 w - - 0 1")
        found = table_attackers(pos.board, index["e5"], g.attackers[black], 0)
        assert (found == [index["e8"]]) is attacked
    pos = position_from_fen(g, "4k4/9/4c4/4p4/9/9/9/9/9/3K5 w - - 0 1")
    for symbol, attacked in (("R", True), ("C", False)):
        found = table_attackers(pos.board, index["e5"], g.attackers[black], 0, False, g.symbol_code[symbol])
        assert bool(found) is attacked


# ---------------------------------------------------------------- along seeded games
def reference_cannon_moves(pos) -> set[tuple[int, int]]:
    """The moves of the side to move's cannons, found here from the cells' coordinates alone: along
    each orthogonal line, jump the first piece unless it is a cannon, then every empty cell up to
    the next piece, which is taken if it is an enemy piece and not a cannon."""
    g = pos.game
    at = {tuple(xy): c for c, xy in enumerate(g.board.coords)}
    cannon = g.kind_index["Cannon"]
    found = set()
    for frm in range(g.n):
        code = pos.board[frm]
        if not code or g.code_kind[code] != cannon or g.code_army[code] != pos.army:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y = g.board.coords[frm]
            jumped = False
            while (x + dx, y + dy) in at:
                x, y = x + dx, y + dy
                q = pos.board[at[x, y]]
                if not jumped:
                    if q and g.code_kind[q] == cannon:
                        break
                    jumped = bool(q)
                    continue
                if not q:
                    found.add((frm, at[x, y]))
                    continue
                if g.code_army[q] != pos.army and g.code_kind[q] != cannon:
                    found.add((frm, at[x, y]))
                break
    return found


def brute_legal(pos) -> set:
    """The pseudo-legal moves after which no enemy move captures the general (no attack tables)."""
    keep = set()
    for m in pseudo_legal_moves(pos):
        pos.push(m)
        general = next(c for c in pos.cells_of[1 - pos.army] if pos.game.is_royal[pos.board[c]])
        if not any(reply[1] == general for reply in pseudo_legal_moves(pos)):
            keep.add(m)
        pos.pop()
    return keep


def seeded_positions(game, label: str, games: int, plies: int):
    """The positions of ``games`` random games seeded by ``label`` (``plies`` plies at most, each
    game), each with its legal moves (the next move is chosen after the caller looked)."""
    for seed in range(games):
        rng = random.Random(f"{label}/{seed}")
        pos = start_position(game)
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal:
                break
            yield pos, legal
            pos.push(rng.choice(legal))


def test_along_seeded_games(game):
    cannon = game.kind_index["Cannon"]
    positions = 0
    for pos, legal in seeded_positions(game, "hurdles", 6, 70):
        ours = {(m[0], m[1]) for m in pseudo_legal_moves(pos) if game.code_kind[pos.board[m[0]]] == cannon}
        assert ours == reference_cannon_moves(pos), to_fen(pos)
        assert set(legal) == brute_legal(pos), to_fen(pos)
        positions += 1
    assert positions > 300


def test_contract_invariants(game):
    budget = contract.Budget(games=3, plies=80, seed=28)
    contract.test_make_unmake_and_hash(game, budget)
    contract.test_fen_round_trip(game, budget)
    contract.test_notation_round_trip(game, contract.Budget(games=1, plies=40, seed=28))
    contract.test_what_the_search_reads(game, budget)


# ---------------------------------------------------------------- Fairy-Stockfish
def test_perft_agrees_with_fairy_stockfish(game):
    sf = pytest.importorskip("pyffish")
    section = fsf_section(game, "rulesdsl-janggi-cannons")
    assert "janggiCannon = c" in section.splitlines()
    sf.load_variant_config(section)
    fens = [to_fen(start_position(game))]
    for seed in range(3):
        rng = random.Random(f"hurdles/fsf/{seed}")
        pos = start_position(game)
        for ply in range(40):
            if ply in (12, 24, 39):
                fens.append(to_fen(pos))
            legal = pos.legal_moves()
            if not legal:
                break
            pos.push(rng.choice(legal))
    for fen in fens:
        pos = position_from_fen(game, fen)
        assert perft(pos, 2) == fsf_perft(sf, "rulesdsl-janggi-cannons", fen, 2), fen


def _variant(cannon: str) -> str:
    return VARIANT.read_text().replace('betza "pR": hurdle not Cannon, takes not Cannon', cannon)


@pytest.mark.parametrize("cannon, refused", [
    ('betza "pR": hurdle enemy', "a hopper limited in what it may jump over (Cannon)"),
    ('betza "pR": takes not Cannon', "a hopper limited in what it may capture (Cannon)"),
    ('betza "pR": hurdle not Chariot, takes not Chariot', "a hopper limited in what it may jump over (Cannon)"),
])
def test_export_refuses_other_limits(cannon, refused):
    game = compile_variant(load_spec_text(_variant(cannon), str(VARIANT)))
    with pytest.raises(NotExportable) as caught:
        fsf_section(game)
    assert refused in str(caught.value)


def test_a_plain_hopper_is_no_janggi_cannon():
    game = compile_variant(load_spec_text(_variant('betza "pR"'), str(VARIANT)))
    section = fsf_section(game).splitlines()
    assert "janggiCannon = c" not in section and any(line.endswith("= c:pR") for line in section)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("cannon, message, at", [
    ('betza "R": hurdle not Cannon', "'hurdle' is an option of hopping moves", "not Cannon"),
    ('move hop orth: quiet, takes not Cannon', "'takes' limits captures", "not Cannon"),
    ('betza "pR": hurdle not Canon', "unknown piece 'Canon'", "Canon"),
])
def test_errors_point_at_the_option(cannon, message, at):
    with pytest.raises(RulesSemanticError) as caught:
        compile_variant(load_spec_text(_variant(cannon), str(VARIANT)))
    text = str(caught.value)
    line = _variant(cannon).splitlines().index(f"  {cannon}") + 1
    column = f"  {cannon}".index(at) + 1
    assert message in text and f"janggi_cannons.rules:{line}:{column}:" in text and "^" in text


# ---------------------------------------------------------------- grasshoppers
def test_grasshoppers_attack_and_pin_by_the_tables():
    """A grasshopper (``gQ``) lands right behind its hurdle: its attacks are chains whose first cell
    must hold the hurdle. Along seeded games of Grasshopper chess, every cell is attacked by the
    tables exactly when a generated move takes a piece there, and the legal moves (pins and
    screens read from the tables) are the moves after which no reply takes the king."""
    game = load_game("grasshopper")
    assert not any(game.slow_attackers) and all(game.pin_safe)
    asked = positions = 0
    for pos, legal in seeded_positions(game, "grasshopper", 4, 60):
        for army in range(2):
            for cell in range(game.n):
                assert bool(table_attackers(pos.board, cell, game.attackers[army], pos.privileges, True)) \
                    == generated_attack(pos, cell, army), (to_fen(pos), army, game.board.names[cell])
                asked += 1
        kept = set()
        for m in pseudo_legal_moves(pos):
            if m[3] is None or m[3][0] != "castle":     # (castling's own rules aside)
                pos.push(m)
                king = next(c for c in pos.cells_of[1 - pos.army] if game.is_royal[pos.board[c]])
                if not generated_attack(pos, king, pos.army):
                    kept.add(m)
                pos.pop()
        assert {m for m in legal if m[3] is None or m[3][0] != "castle"} == kept, to_fen(pos)
        positions += 1
    assert positions > 150 and asked > 10_000
