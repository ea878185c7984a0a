"""The engine contract, checked on seeded random playouts of every bundled variant.

At every ply of every playout:

(a) each legal move, pushed then popped, restores the whole state exactly
    (every slot of the Position but the memos of the rights: board, hash, turn, clocks, en passant
    state, unmoved bits, cells_of, history, hands, ... and the undo stack's
    depth), and the legal moves are the same afterwards;
(b) the incremental hash and the royal pieces' cells (``royals``) equal a
    from-scratch recomputation (``pos.copy()`` then ``rehash()``, or
    ``find_royals()``), in the position and in every position one legal move
    away; ``copy()`` copies every slot;
(c) notation round-trips: every legal move's SAN and UCI parse back to the
    same move, and no two legal moves share a SAN (``interpreter.notation``);
(d) FEN round-trips: ``to_fen(position_from_fen(game, to_fen(pos))) == to_fen(pos)``,
    and the re-read position has the same legal moves and the same hash (a position
    is what its FEN says: the hash keys nothing the FEN does not write);
(e) the game ends only with a declared result: a non-None ``outcome(pos)``
    names one of the variant's ``end`` rules, and a position without legal
    moves always has an outcome;
(f) what the search reads agrees with the rules: where legality is a
    question about each move alone, the pseudo-legal moves that
    ``legality.allowed`` passes are the rule-abiding moves; where a legal
    move exists and no end rule counts the moves,
    ``outcome_with_moves`` is ``outcome`` (or asks for the moves:
    ``MovesNeeded``); and the evaluation's sums carried
    over each legal move (``Terms.after``) are the sums from scratch;
    and where the game generates captures alone (``Game.noisy_generation``),
    ``noisy_moves`` are the captures and promotions among the pseudo-legal
    moves, in their order; and where the search knows a child's check from
    the move (``Searcher.checks_known``), the side not to move is never in
    check, and a move that ``Searcher.may_check`` clears leaves the side to
    move after it out of check.

New bundled variants are picked up automatically (``dsl.bundled_names``),
each in every play mode it declares (``superchess-2p``, ``superchess-3p`` ...).
To keep the default run near a minute however many variants there are, the
default ("quick") budgets share a fixed number of plies (at most 30 games
per variant) and about ``CONTRACT_SECONDS`` (default 45) seconds of CPU
time among the variants: a test stops checking a variant when its share of
the time is spent, after at least :data:`MIN_PLIES` plies. The ``slow``
tests ("long") play a fixed, larger budget per variant, without a time
limit: ``pytest -m slow tests/test_contract.py``. The environment variable
``CONTRACT_SCALE`` multiplies the quick budgets, plies and time (e.g.
``CONTRACT_SCALE=10 pytest tests/test_contract.py -k atomic``).

A failure message gives the variant, seed, ply, FEN and the moves from the
start that led there.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from typing import Iterator

import pytest

from dsl import bundled_names, load_spec
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san, move_to_uci
from interpreter.loading import load_game
from interpreter.agents.alphabeta import AlphaBeta
from interpreter.agents.evaluation import evaluation_of
from interpreter.engine.generation import noisy_moves, pseudo_legal_moves
from interpreter.engine.attacks import royal_attacked
from interpreter.engine.legality import Guard, allowed, each_move_alone, rule_abiding_moves
from interpreter.engine.neutral import with_neutral_moves
from interpreter.engine.outcome import MovesNeeded, outcome, outcome_with_moves
from interpreter.loading import position_from_fen, start_position

VARIANTS = [(name, mode) for name in bundled_names() for mode in ([m.name for m in load_spec(name).modes] or [None])]
SCALE = float(os.environ.get("CONTRACT_SCALE", "1"))


@dataclass(frozen=True)
class Budget:
    """Up to ``games`` playouts of up to ``plies`` plies; with ``seconds``, a test stops checking
    once it has used that much CPU time (after at least :data:`MIN_PLIES` plies)."""

    games: int
    plies: int
    seed: int = 0
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.games}x{self.plies}" + (f" within {self.seconds:.2f}s" if self.seconds else "")


MIN_PLIES = 20
# CPU seconds of the default run, shared among the bundled variants.
QUICK_SECONDS = SCALE * float(os.environ.get("CONTRACT_SECONDS", "45"))


def shared(total_plies: int, plies: int, seconds: float, max_games: int = 30, min_games: int = 1) -> Budget:
    """A per-variant budget: about ``total_plies`` plies and ``seconds`` in all, shared among the variants."""
    n = max(1, len(VARIANTS))
    games = round(SCALE * total_plies / (n * plies))
    return Budget(max(min_games, min(games, round(SCALE * max_games))), plies, seconds=seconds / n)


# About 0.75 ms per chess ply for (a)+(b), 0.25 ms for (d), 10 ms for (c):
# notation calls regenerate the legal moves each time, and cost more in
# variants with many moves or without fast pin detection (xiangqi, 100 ms).
QUICK = shared(12_000, 150, 0.45 * QUICK_SECONDS, min_games=2)
FEN_QUICK = shared(12_000, 150, 0.1 * QUICK_SECONDS, min_games=2)
NOTATION_QUICK = shared(1_500, 100, 0.45 * QUICK_SECONDS)
SEARCH_QUICK = shared(6_000, 150, 0.15 * QUICK_SECONDS, min_games=2)
LONG = Budget(games=60, plies=300, seed=1000)
NOTATION_LONG = Budget(games=10, plies=200, seed=1000)

BUDGETS = [pytest.param(QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]
FEN_BUDGETS = [pytest.param(FEN_QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]
NOTATION_BUDGETS = [pytest.param(NOTATION_QUICK, id="quick"),
                    pytest.param(NOTATION_LONG, id="long", marks=pytest.mark.slow)]
SEARCH_BUDGETS = [pytest.param(SEARCH_QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]


@pytest.fixture(scope="module", params=VARIANTS, ids=[n if m is None else f"{n}-{m}" for n, m in VARIANTS])
def game(request):
    return load_game(*request.param)


# ---------------------------------------------------------------- playouts
@dataclass
class Ply:
    """One position reached in a playout (``pos`` is live: valid until the playout moves on)."""

    pos: object
    legal: list
    seed: int
    ply: int
    path: list

    def where(self, move=None) -> str:
        game = self.pos.game
        text = (f"{game.name} seed {self.seed} ply {self.ply}: {to_fen(self.pos)}\n"
                f"  from the start after: {' '.join(move_text(game, m) for m in self.path) or '-'}")
        return text + (f"\n  move {move_text(game, move)} {move}" if move is not None else "")


def move_text(game, move) -> str:
    """from-cell to-cell [=promotion], or SYMBOL@cell for a drop: for messages (not interpreter.notation)."""
    frm, to, code, _ = move
    names = game.board.names
    if frm < 0:
        return f"{game.code_symbol[code]}@{names[to]}"
    return names[frm] + names[to] + (f"={game.code_symbol[code]}" if code else "")


def is_special(move) -> bool:
    return bool(move[2]) or move[3] is not None


def special_kind(move) -> str:
    """'castle', 'ep', 'ep_set', 'drop', ... or 'promotion'."""
    return str(move[3][0]) if move[3] is not None else "promotion"


def playouts(game, budget: Budget) -> Iterator[Ply]:
    """Seeded random games; yields every position before its move is chosen.

    Half the time a special move is chosen when there is one: first a kind
    (promotion, castling, en passant, double step, drop...) at random, then
    a move of that kind, so that rare kinds are exercised often.
    Checks (e) on the way: a game stops at its first outcome. Stops early
    when the budget's CPU time is spent (the time of the caller's checks
    included, since they run while this generator is suspended).
    """
    end_names = {rule.name for rule in game.spec.rules.ends}
    if any(rule.action == "end" for rule in game.spec.rules.no_moves):
        end_names.add("no_moves")  # 'when no moves: end': a draw
    start, seen = time.process_time(), 0
    for i in range(budget.games):
        seed = budget.seed + i
        rng = random.Random(f"{game.name}/{seed}")
        pos = start_position(game)
        path: list = []
        for ply in range(budget.plies):
            legal = pos.legal_moves()
            step = Ply(pos, legal, seed, ply, path)
            result = outcome(pos)
            if result is not None:
                assert result.rule in end_names, f"undeclared end rule {result.rule!r}\n{step.where()}"
                assert result.result in ("win", "loss", "draw"), step.where()
                break
            assert legal, f"no legal moves but no outcome\n{step.where()}"
            if budget.seconds and seen >= MIN_PLIES and time.process_time() - start > budget.seconds:
                return
            seen += 1
            yield step
            kinds: dict = {}
            for m in legal:
                if is_special(m):
                    kinds.setdefault(special_kind(m), []).append(m)
            if kinds and rng.random() < 0.5:
                move = rng.choice(kinds[rng.choice(sorted(kinds))])
            else:
                move = rng.choice(legal)
            pos.push(move)
            path.append(move)


# ---------------------------------------------------------------- state
def _slots(pos) -> list[str]:
    names = []
    for cls in type(pos).__mro__:
        names += [s for s in getattr(cls, "__slots__", ()) if s not in ("game", "_undo", "_dead", "_inert", "__weakref__")]
    return names


_CONTAINERS = (list, tuple, set, frozenset, dict)


def _freeze(value):
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], _CONTAINERS):   # state lists are homogeneous
            return tuple(_freeze(v) for v in value)
        return tuple(value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def snapshot(pos) -> dict:
    """Every slot of the position (frozen), and the depth of its undo stack."""
    state = {name: _freeze(getattr(pos, name)) for name in _slots(pos)}
    state["undo depth"] = len(pos._undo)
    return state


def _differences(before: dict, after: dict) -> str:
    return ", ".join(k for k in before if before[k] != after.get(k))


def fresh_hash(pos) -> int:
    """The hash recomputed from scratch on a copy."""
    other = pos.copy()
    other.rehash()
    return other.hash


def check_royals(pos, where: str) -> None:
    """The royal cells the position keeps are those found on its board from scratch (in any order)."""
    other = pos.copy()
    other.find_royals()
    kept, found = [sorted(c) for c in pos.royals], [sorted(c) for c in other.royals]
    assert kept == found, f"royals {kept} kept, {found} on the board\n{where}"


def check_copy(pos, step: Ply) -> None:
    """``copy()`` copies every slot (the undo stack aside)."""
    mine, theirs = snapshot(pos), snapshot(pos.copy())
    mine.pop("undo depth"), theirs.pop("undo depth")
    assert mine == theirs, f"copy() does not copy {_differences(mine, theirs)}\n{step.where()}"


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize("budget", BUDGETS)
def test_make_unmake_and_hash(game, budget):
    """(a) push/pop restores everything; (b) the incremental hash is the recomputed one; (e) ends."""
    for step in playouts(game, budget):
        pos = step.pos
        before = snapshot(pos)
        check_copy(pos, step)
        assert fresh_hash(pos) == pos.hash, f"incremental hash differs from rehash()\n{step.where()}"
        check_royals(pos, step.where())
        for move in step.legal:
            pos.push(move)
            assert fresh_hash(pos) == pos.hash, \
                f"hash after push differs from rehash()\n{step.where(move)}"
            check_royals(pos, step.where(move))
            pos.pop()
            after = snapshot(pos)
            if after != before:
                pytest.fail(f"push/pop did not restore {_differences(before, after)}\n{step.where(move)}")
        again = pos.legal_moves()
        assert len(again) == len(step.legal) and set(again) == set(step.legal), \
            f"legal moves changed after push/pop of every move\n{step.where()}"


@pytest.mark.parametrize("budget", FEN_BUDGETS)
def test_fen_round_trip(game, budget):
    """(d) FEN written, read and written again is the same; the re-read position has the same moves
    and the same hash."""
    for step in playouts(game, budget):
        fen = to_fen(step.pos)
        reread = position_from_fen(game, fen)
        assert to_fen(reread) == fen, f"FEN round trip gave {to_fen(reread)}\n{step.where()}"
        assert reread.hash == step.pos.hash, f"the position read from its FEN has another hash\n{step.where()}"
        assert set(reread.legal_moves()) == set(step.legal), \
            f"the position read from its FEN has other legal moves\n{step.where()}"


@pytest.mark.parametrize("budget", NOTATION_BUDGETS)
def test_notation_round_trip(game, budget):
    """(c) every legal move's SAN and UCI parse back to that move.

    The notation functions are given the legal moves, as a caller that has them does (else each
    call generates them again: four times per move); for the first move of each position they
    generate them themselves."""
    for step in playouts(game, budget):
        pos = step.pos
        before = snapshot(pos)
        sans: dict = {}
        for i, move in enumerate(step.legal):
            legal = step.legal if i else None
            san = move_to_san(pos, move, legal)
            uci = move_to_uci(pos, move, legal)
            assert san not in sans, f"{move_text(game, sans.get(san))} and this move have the SAN {san!r}\n" \
                                    f"{step.where(move)}"
            sans[san] = move
            back = parse_move(pos, san, legal)
            assert back == move, f"SAN {san!r} parses to {back}\n{step.where(move)}"
            back = parse_move(pos, uci, legal)
            assert back == move, f"UCI {uci!r} parses to {back}\n{step.where(move)}"
        after = snapshot(pos)
        assert after == before, f"notation changed {_differences(before, after)}\n{step.where()}"


@pytest.mark.parametrize("budget", SEARCH_BUDGETS)
def test_what_the_search_reads(game, budget):
    """(f) one move's legality, the ends while a move exists, the evaluation's sums move by move."""
    terms = evaluation_of(game).terms
    alone = each_move_alone(game)
    searcher = AlphaBeta()._prepare(game)
    for step in playouts(game, budget):
        pos = step.pos
        if searcher.checks_known:
            danger = searcher.exposed(pos)
            assert not any(royal_attacked(pos, army) for army in game.turn_armies[(pos.turn + 1) % len(game.turn_armies)]), \
                f"the side not to move is in check\n{step.where()}"
        if alone:
            guard = Guard(pos)
            passed = {m for m in pseudo_legal_moves(pos, guard.attacked) if allowed(pos, m, guard)}
            if game.neutral_move is not None:    # each allowed move with every move of the neutral piece
                passed = set(with_neutral_moves(pos, sorted(passed, key=repr)))
            assert passed == set(rule_abiding_moves(pos)), \
                f"allowed() passes {len(passed)} moves, the rules {len(rule_abiding_moves(pos))}\n{step.where()}"
        if game.noisy_generation:
            expected = [m for m in pseudo_legal_moves(pos) if _noisy(pos, m)]
            assert noisy_moves(pos) == expected, f"noisy moves {noisy_moves(pos)}, expected {expected}\n{step.where()}"
        sums = terms.sums(pos)
        for move in step.legal:
            pos.push(move)
            if searcher.checks_known and not searcher.may_check(move, danger):
                assert not any(royal_attacked(pos, army) for army in pos.movers), \
                    f"a move said unable to give check gives it\n{step.where(move)}"
            carried = terms.after(pos, sums, move)
            assert carried == terms.sums(pos), f"sums carried {carried}, from scratch {terms.sums(pos)}\n{step.where(move)}"
            if terms.has_passers:     # the pawns' sums as remembered by their key, and as computed
                computed = list(carried)
                terms.pawns_into(pos, computed)
                assert computed == carried, f"pawns' sums {carried}, computed {computed}\n{step.where(move)}"
            legal = pos.legal_moves()
            if legal and not game.ends_count_moves:   # the ends one move on (a repetition, a count, ...)
                expected = outcome(pos, legal)
                try:
                    found = outcome_with_moves(pos)
                except MovesNeeded:   # a rule reads the moves themselves: the search generates them
                    found = expected
                assert (found and found.rule) == (expected and expected.rule), step.where(move)
            pos.pop()


def _noisy(pos, move) -> bool:
    """Is ``move`` a capture of an enemy piece (en passant included) or a piece's promotion?"""
    frm, to, promo, special = move
    if frm < 0:
        return False
    code = pos.board[to]
    hostile = pos.game.hostile[pos.game.code_army[pos.board[frm]]]
    return bool(promo) or bool(code and hostile[code]) or (special is not None and special[0] == "ep")


def test_playouts_are_not_vacuous(game):
    """Playouts start and play moves (a broken playout would make the tests above pass vacuously)."""
    budget = Budget(games=3, plies=60)
    games = plies = 0
    for step in playouts(game, budget):
        games += step.ply == 0
        plies += 1
    assert games == budget.games
    assert plies >= 5 * budget.games
