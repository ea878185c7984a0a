"""Differential test: our legal moves against Fairy-Stockfish's, through ``pyffish``.

For every bundled variant that Fairy-Stockfish also knows (:data:`FSF_NAMES`,
else a name or alias of the variant that pyffish lists), seeded random games
are played with our engine. At every :attr:`Budget.every`-th position the
SET of legal moves, in UCI form (``interpreter.notation``), is compared with
``pyffish.legal_moves(fsf_name, our_fen, [])``. A mismatch fails with the
variant, seed, ply, FEN, the moves from the start and the moves only one
side has, so it can be replayed in either engine.

Where Fairy-Stockfish writes the cells a grid lacks as walls (``*`` in its
start FEN: Omicron's 12x10 grid without its outer ring), the FEN it is given
has them too (:func:`fsf_perft.fsf_fen`); our reader skips them.

Variants that only Fairy-Stockfish's variants.ini defines (:data:`FROM_INI`)
are compared the same way once that file is loaded into pyffish, and skipped
with the reason where it is absent.

The start positions are compared too: Fairy-Stockfish's start FEN, read by
our engine in its dialect, must be our setup (placement, side to move,
castling rights, holdings), so a variant whose setup differs from
Fairy-Stockfish's fails loudly instead of silently testing another game.

Positions where our engine has ended the game are not compared (the game
stops there). Where Fairy-Stockfish has ended it, ``pyffish.legal_moves``
returns no move, so a game end that only Fairy-Stockfish sees (a king on the
hill, a variant's own win condition) shows up as a mismatch; the message then
says what ``pyffish.is_immediate_game_end`` and ``pyffish.game_result`` say.
(``is_immediate_game_end`` is not called on every position: each pyffish
call costs a few milliseconds.)

The default run plays :data:`QUICK` games per variant (the whole file in well
under a minute); ``pytest -m slow tests/test_differential.py`` plays
:data:`LONG` ones. The number of positions compared per variant is printed
at the end of the session (``-s`` or the terminal summary) and written to
``$DIFFERENTIAL_COUNTS`` (a JSON file) when that variable is set.

Needs the ``test`` extra (``pip install -e '.[test]'``): without ``pyffish``
the tests are skipped.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import dataclass

import pytest

sf = pytest.importorskip("pyffish")

from dsl import bundled_names, load_spec  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402
from interpreter.notation.san import move_to_uci  # noqa: E402
from interpreter.loading import load_game  # noqa: E402
from interpreter.engine.outcome import outcome  # noqa: E402
from interpreter.loading import position_from_fen, start_position

try:
    from fsf_perft import NO_CORPUS, fsf_fen, fsf_perft, load_corpus
    from perft_files import OWN_DIR, load_perft_files
except ImportError:  # tests/ imported as a package
    from tests.fsf_perft import NO_CORPUS, fsf_fen, fsf_perft, load_corpus
    from tests.perft_files import OWN_DIR, load_perft_files


# Our bundled name -> Fairy-Stockfish's name, where they differ or where an
# alias would be ambiguous. Variants not listed are looked up by their own
# name, then by their aliases, among pyffish.variants().
FSF_NAMES: dict[str, str] = {
    "chess": "chess",
    "threecheck": "3check",
    "kingofthehill": "kingofthehill",
    "racingkings": "racingkings",
    "chess960": "fischerandom",
    "aiwok": "ai-wok",          # a name in the language cannot contain '-'
}


# Bundled variants that only Fairy-Stockfish's variants.ini defines (pyffish has them once that file is
# loaded, fsf_perft.load_corpus): compared under the same name by test_ini_variant_*, skipped with the
# reason when the file is absent. Their perft lines in tests/perft/fsf-computed.txt check our engine
# without it (test_perft.py).
FROM_INI: list[str] = ["orda", "empire", "shinobi", "synochess"]


def needs_ini(name: str) -> None:
    """Make pyffish know ``name`` when only variants.ini defines it (:data:`FROM_INI`); skip if it cannot."""
    if name in FROM_INI and not load_corpus(sf):
        pytest.skip(NO_CORPUS)


# Variants whose FENs Fairy-Stockfish may read otherwise than it means them: it is asked for the legal moves
# after the moves from its start position instead (our start is checked to be its start).
FROM_START: dict[str, str] = {
    "seirawan": "a gate letter on a rook's file is read as a castling right when the king has moved "
                "(Fairy-Stockfish writes such FENs itself)",
    "shouse": "as seirawan",
}


@dataclass(frozen=True)
class Budget:
    games: int
    plies: int
    every: int        # compare every n-th position of a game
    seed: int = 0

    def __str__(self) -> str:
        return f"{self.games}x{self.plies}/{self.every}"


QUICK = Budget(games=4, plies=80, every=2)
LONG = Budget(games=20, plies=200, every=2, seed=10_000)
BUDGETS = [pytest.param(QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]


def fsf_name(name: str) -> str | None:
    """Fairy-Stockfish's name for our bundled variant ``name``, or None if it does not know it
    (a variant of :data:`FROM_INI` only once the corpus is loaded)."""
    known = set(sf.variants())
    if name in FSF_NAMES:
        return FSF_NAMES[name] if FSF_NAMES[name] in known else None
    if name in known:
        return name
    spec = load_spec(name)
    return next((alias for alias in spec.aliases if alias in known), None)


def _pairs() -> list:
    pairs = []
    for name in bundled_names():
        fsf = fsf_name(name)
        if fsf is not None and name not in FROM_INI:
            pairs.append(pytest.param(name, fsf, id=name))
    return pairs


PAIRS = _pairs()

# variant -> positions compared, for the summary printed at the end of the module.
COMPARED: Counter = Counter()


@pytest.fixture(scope="module", autouse=True)
def report_counts(request):
    """Print the positions compared per variant when the module is done (and save them as JSON)."""
    yield
    if not COMPARED:
        return
    lines = [f"  {name:16} {COMPARED[name]:7} positions"
             + (f" ({FSF_ERRORS[name]} Fairy-Stockfish move(s) set aside, see fsf_errors)" if FSF_ERRORS[name] else "")
             for name in sorted(COMPARED)]
    text = "differential test against Fairy-Stockfish: positions compared per variant\n" + "\n".join(lines)
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():   # teardown output is captured otherwise
            reporter.write_line("")
            for line in text.splitlines():
                reporter.write_line(line)
    else:
        print(text)
    path = os.environ.get("DIFFERENTIAL_COUNTS")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(dict(COMPARED), out, indent=1, sort_keys=True)


# Fairy-Stockfish variants whose UCI castling moves are "king takes own rook"
# (e1h1, as UCI_Chess960 writes them) rather than the king's origin and
# destination (e1g1), which our from-to notation writes when it is unique.
KING_TAKES_ROOK = {"fischerandom", "caparandom"}


# Fairy-Stockfish variants with shogi's rule that a pawn drop may not give
# checkmate (uchifuzume). pyffish 0.0.90 sometimes allows such a drop: the
# position after it is checkmate by its own account (it gives check and
# leaves no legal move), e.g. in shogi after P@e6 from
# 1ng2+Bgkl/3l1+PP2/r3s2+Pn/1ppp1p2p/P1P1K1pp1/3PP1+sR+b/1P1SG4/4G3L/+lN3P1N1[PSp] b.
# Such moves are Fairy-Stockfish's error, not ours: they are set aside
# (and counted in the summary) instead of failing the test. The value is the
# letter of the variant's shogi pawn (Tori shogi's swallow: S@a6 in
# kr1+F~1+S~1/1SP1P1C/sCSs1+s~l/s2ssSP/Ss1fs1R/LC2+s~S1/1P3K1[Sc] w).
PAWN_DROP_MATE_ILLEGAL = {"shogi": "P", "minishogi": "P", "euroshogi": "P", "judkins": "P", "gorogoro": "P",
                          "torishogi": "S"}
FSF_ERRORS: Counter = Counter()


def fsf_errors(fsf: str, fen: str, only_theirs: set[str]) -> set[str]:
    """The moves among ``only_theirs`` that break Fairy-Stockfish's own rules (see above)."""
    if fsf not in PAWN_DROP_MATE_ILLEGAL:
        return set()
    return {m for m in only_theirs
            if m.startswith(PAWN_DROP_MATE_ILLEGAL[fsf] + "@") and sf.gives_check(fsf, fen, [m])
            and not sf.legal_moves(fsf, fen, [m])}


def our_uci_moves(pos, fsf: str, legal: list) -> set[str]:
    """Our legal moves (``legal``, those of ``pos``) in UCI form, castling written as Fairy-Stockfish
    writes it for ``fsf``."""
    moves = {move_to_uci(pos, move, legal) for move in legal}
    if fsf in KING_TAKES_ROOK:
        names = pos.game.board.names
        for move in legal:
            if move[3] is not None and move[3][0] == "castle":
                moves.discard(move_to_uci(pos, move, legal))
                moves.add(names[move[0]] + names[move[3][1]])
    return moves


def _head(fen: str) -> list[str]:
    """Placement, side to move and castling rights of a FEN."""
    return fen.split()[:3]


def _special(move) -> str | None:
    """The kind of a special move (promotion, castling, en passant, double step), else None. A pass is
    none: where one may pass at will (Janggi) it is always there, and two in a row end the game."""
    if move[2]:
        return "promotion"
    return str(move[3][0]) if move[3] is not None and move[3][0] != "pass" else None


def choose(rng: random.Random, legal: list):
    """A random move; half the time a special one when there is one, so rare kinds come up often."""
    kinds: dict[str, list] = {}
    for move in legal:
        kind = _special(move)
        if kind is not None:
            kinds.setdefault(kind, []).append(move)
    if kinds and rng.random() < 0.5:
        return rng.choice(kinds[rng.choice(sorted(kinds))])
    return rng.choice(legal)


def play_and_compare(name: str, fsf: str, budget: Budget) -> int:
    """Play ``budget`` random games of ``name``; compare move sets; return the positions compared."""
    game = load_game(name)
    walled = "*" in sf.start_fen(fsf)     # Fairy-Stockfish writes the cells a grid lacks as walls
    compared = 0
    for i in range(budget.games):
        seed = budget.seed + i
        rng = random.Random(f"{name}/{seed}")
        pos = start_position(game)
        path: list[str] = []
        for ply in range(budget.plies):
            if outcome(pos) is not None:
                break
            legal = pos.legal_moves()
            if not legal:
                break
            if ply % budget.every == 0:
                fen = fsf_fen(pos, walled)
                where = (f"{name} (Fairy-Stockfish '{fsf}') seed {seed} ply {ply}\n  FEN   {fen}\n"
                         f"  moves from the start: {' '.join(path) or '-'}")
                ours = our_uci_moves(pos, fsf, legal)
                theirs = set(sf.legal_moves(fsf, sf.start_fen(fsf), path) if name in FROM_START
                             else sf.legal_moves(fsf, fen, []))
                if ours != theirs:
                    errors = fsf_errors(fsf, fen, theirs - ours)
                    FSF_ERRORS[name] += len(errors)
                    theirs -= errors
                if ours != theirs:
                    ended = ""
                    if not theirs:
                        ended = (f"\n  Fairy-Stockfish: is_immediate_game_end {sf.is_immediate_game_end(fsf, fen, [])}, "
                                 f"game_result {sf.game_result(fsf, fen, [])}")
                    pytest.fail(f"legal moves differ: {where}\n"
                                f"  only ours:              {' '.join(sorted(ours - theirs)) or '-'}\n"
                                f"  only Fairy-Stockfish's: {' '.join(sorted(theirs - ours)) or '-'}{ended}")
                compared += 1
                COMPARED[name] += 1
            move = choose(rng, legal)
            path.append(move_to_uci(pos, move, legal))
            pos.push(move)
    return compared


@pytest.mark.parametrize("name,fsf", PAIRS)
def test_start_position(name, fsf):
    """Our setup is Fairy-Stockfish's start position, read in its FEN dialect (counters aside)."""
    game = load_game(name)
    ours, theirs = to_fen(start_position(game)), to_fen(position_from_fen(game, sf.start_fen(fsf)))
    assert _head(ours) == _head(theirs), f"{name}: ours {ours}, Fairy-Stockfish {sf.start_fen(fsf)} (read: {theirs})"


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name,fsf", PAIRS)
def test_legal_moves_agree(name, fsf, budget):
    """Random games: at sampled positions both engines have the same set of legal moves."""
    assert play_and_compare(name, fsf, budget) > 0


@pytest.mark.parametrize("name", FROM_INI)
def test_ini_variant_start_position(name):
    """As test_start_position, for the variants only variants.ini defines."""
    needs_ini(name)
    test_start_position(name, name)


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", FROM_INI)
def test_ini_variant_legal_moves_agree(name, budget):
    """As test_legal_moves_agree, for the variants only variants.ini defines."""
    needs_ini(name)
    assert play_and_compare(name, name, budget) > 0


def test_some_variants_are_compared():
    """The mapping finds Fairy-Stockfish names for the bundled variants it knows (at least chess)."""
    assert ("chess", "chess") in [tuple(p.values) for p in PAIRS]


# The shallow records of the perft lines counted with pyffish (tests/perft/fsf-computed.txt, made by
# tests/fsf_perft.py): recounted here, so that the file stays Fairy-Stockfish's numbers.
FSF_COMPUTED = [r for r in load_perft_files(OWN_DIR / "fsf-computed.txt") if r.depth <= 2]


@pytest.mark.parametrize("record", FSF_COMPUTED, ids=lambda r: f"{r.id}-d{r.depth}")
def test_computed_perft_lines_are_fairy_stockfish_counts(record):
    needs_ini(record.variant)
    fsf = fsf_name(record.variant)
    assert fsf is not None, f"{record.variant}: not a variant Fairy-Stockfish knows"
    assert fsf_perft(sf, fsf, record.fen, record.depth) == record.nodes, str(record)
