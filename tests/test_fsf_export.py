"""``rules export fsf``: every bundled variant (and play mode) either exports to a variants.ini
section that Fairy-Stockfish plays as the same game, or is refused with the constructs it lacks.

The proof that an export means the same game: the section is loaded into
Fairy-Stockfish through ``pyffish.load_variant_config`` (under a name of its
own: Fairy-Stockfish keeps the variants it knows), and perft, counted by
Fairy-Stockfish over ``pyffish.legal_moves`` (:func:`fsf_perft.fsf_perft`),
must equal ours (:func:`interpreter.engine.perft.perft`) from the start
position and from positions along seeded random games of ours
(:func:`fsf_perft.sample_positions`) at depth 2; ``-m slow`` adds depth 3
and more positions.

:func:`agreement_table` prints the table of the results (``python
tests/test_fsf_export.py``): which variants export, which agree, which are
refused and why.

Needs the ``test`` extra (pyffish): without it the tests are skipped.
"""

from __future__ import annotations

import sys
from functools import cache

import pytest

sf = pytest.importorskip("pyffish")

from dsl import load_spec  # noqa: E402
from dsl.catalogue import bundled_headers  # noqa: E402
from interpreter.engine.perft import perft  # noqa: E402
from interpreter.interchange.fsf_export import NotExportable, fsf_section, walled_fen  # noqa: E402
from interpreter.loading import load_game, position_from_fen, start_position  # noqa: E402

try:
    from fsf_perft import fsf_perft, sample_positions
except ImportError:  # tests/ imported as a package
    from tests.fsf_perft import fsf_perft, sample_positions


def _games() -> list[tuple[str, str | None]]:
    """(variant, mode) for every bundled variant and each of its play modes."""
    found = []
    for header in bundled_headers():
        modes = [m.name for m in load_spec(header.name).modes]
        found += [(header.name, mode) for mode in modes or [None]]
    return found


GAMES = _games()
IDS = [name if mode is None else f"{name}-{mode}" for name, mode in GAMES]


@cache
def exported(name: str, mode: str | None) -> tuple[str, str] | NotExportable:
    """(Fairy-Stockfish's name, the section) of a bundled variant, loaded into pyffish once; or the refusal."""
    fsf = "rulesdsl-" + (name if mode is None else f"{name}-{mode}")
    try:
        text = fsf_section(load_game(name, mode), fsf)
    except NotExportable as refusal:
        return refusal
    sf.load_variant_config(text)
    assert fsf in sf.variants(), f"Fairy-Stockfish did not load the section:\n{text}"
    assert f"startFen = {sf.start_fen(fsf)}\n" in text, "Fairy-Stockfish read another start position"
    return fsf, text


def positions(name: str, mode: str | None, plies: tuple[int, ...], seeds: range) -> list[str]:
    """Our FENs, as Fairy-Stockfish reads them, of the start (and other starting arrays of a shuffled
    setup) and of positions along seeded random games."""
    game = load_game(name, mode)
    fens = [walled_fen(start_position(game))]
    if game.spec.setup.shuffles:   # a few other starting arrays too
        fens += [walled_fen(start_position(game, array)) for array in (1, 100, 500)]
    for seed in seeds:
        fens += [f for f in sample_positions(name, plies, seed, walled=True) if f not in fens]
    return fens


WIDE = 150
"""Positions with more legal moves than this (Duck chess: a move and a duck's square) are compared at
depth 1 where the others are compared at depth 2 (pyffish costs milliseconds a call)."""


def disagreements(name: str, mode: str | None, depth: int, plies: tuple[int, ...] = (16, 32),
                  seeds: range = range(1)) -> list[str]:
    """The positions where Fairy-Stockfish's perft of the exported section differs from ours (at
    ``depth``, one less in positions with more than :data:`WIDE` legal moves)."""
    result = exported(name, mode)
    assert not isinstance(result, NotExportable)
    fsf, _ = result
    game = load_game(name, mode)
    found = []
    for fen in positions(name, mode, plies, seeds):
        pos = position_from_fen(game, fen)
        deep = depth - (len(pos.legal_moves()) > WIDE)
        ours = perft(pos, deep)
        theirs = fsf_perft(sf, fsf, fen, deep)
        if ours != theirs:
            found.append(f"{fen} depth {deep}: ours {ours}, Fairy-Stockfish {theirs}")
    return found


@pytest.mark.parametrize("name,mode", GAMES, ids=IDS)
def test_export_means_the_same_game(name, mode):
    """An exported variant has Fairy-Stockfish's perft at depth 2; a refused one names its constructs."""
    result = exported(name, mode)
    if isinstance(result, NotExportable):
        assert result.constructs and all(c.what for c in result.constructs)
        text = str(result)
        assert all(c.what in text and (c.loc is None or str(c.loc.line) in text) for c in result.constructs), \
            "the message lists every construct, with its line"
        return
    assert disagreements(name, mode, 2) == []


@pytest.mark.slow
@pytest.mark.parametrize("name,mode", GAMES, ids=IDS)
def test_export_deeper(name, mode):
    """Depth 3 from the start and from positions of two more random games."""
    if isinstance(exported(name, mode), NotExportable):
        pytest.skip("refused")
    assert disagreements(name, mode, 3, plies=(24,), seeds=range(1, 3)) == []


def test_orthodox_chess_section():
    """Chess exports with its pawn, castling and end rules as settings, and no parent."""
    text = fsf_section(load_game("chess"), "orthodox-copy")
    lines = text.splitlines()
    assert lines[0] == "[orthodox-copy]"
    for line in ("pawn = p", "king = k", "doubleStepRegionWhite = *2", "castlingKingsideFile = g",
                 "checkmateValue = loss", "stalemateValue = draw", "nMoveRule = 50",
                 "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"):
        assert line in lines


def test_refusal_lists_every_construct():
    """Locking Chess is refused for its stacks and for each of its mates Fairy-Stockfish has no rule for,
    all in one message, each with its place in the rules file."""
    with pytest.raises(NotExportable) as caught:
        fsf_section(load_game("locking"))
    whats = [c.what for c in caught.value.constructs]
    assert "stacks" in whats
    assert sum("lock_mate" in w for w in whats) >= 2
    assert all(c.loc is not None for c in caught.value.constructs if "end rule" in c.what)


def agreement_table() -> str:
    """The table of every bundled variant and mode: exported and agreeing, exported and disagreeing
    (with the first position), or refused (with its constructs)."""
    rows, agree, differ, refused = [], 0, 0, 0
    for (name, mode), label in zip(GAMES, IDS):
        result = exported(name, mode)
        if isinstance(result, NotExportable):
            refused += 1
            rows.append(f"| {label} | refused | {'; '.join(c.what for c in result.constructs)} |")
            continue
        found = disagreements(name, mode, 2)
        agree += not found
        differ += bool(found)
        rows.append(f"| {label} | {'agrees' if not found else 'DIFFERS'} | {found[0] if found else ''} |")
    head = (f"{len(GAMES)} games: {agree + differ} export ({agree} agree, {differ} differ), {refused} refused\n\n"
            "| variant | result | details |\n|---|---|---|")
    return head + "\n" + "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(agreement_table() + "\n")
