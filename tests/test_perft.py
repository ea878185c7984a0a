"""Perft against published and independently computed counts, for every bundled variant.

Records come from every file of ``tests/data/perft/`` (verbatim copies of
shared/perft, so a clean clone needs nothing else): the Chess Programming
Wiki's table, python-chess's perft files, Fairy-Stockfish's ``perft.sh``
and the reference counts; and from every file of ``tests/perft/``: counts
computed here for variants no published file covers (``locking.txt``:
Locking Chess, checked against an independent move generator). A record is collected when its variant name
resolves to a bundled variant, by name or by alias (``3check``,
``giveaway`` ...); records of variants that are not bundled are not
collected, so bundling a variant (with the right aliases) is all it takes
to test it against these files. Each record runs bulk perft from its
position (``startpos``: the variant's start position) and checks the
count, and that make/unmake left the position as it was.

A record that counts what an earlier one counts (the same variant, position
and depth, and the same count; a FEN whose move counters are the default
``0 1`` is the same position as one that leaves them out) is not collected
again: several files copy the same lines. Records with different counts
for the same position are both collected, so that one of them fails.

Records with more than :data:`SLOW_NODES` nodes are marked ``slow``
(deselected by default; run them with ``pytest -m slow``), and so are the
records of :data:`SLOW_RECORDS`, slow per node, whose variant the default
run checks with shallower counts (of the same position, or Fairy-Stockfish's). Of those,
records above ``PERFT_MAX_NODES`` (environment variable, default 20
million: about a minute each) are skipped with a reason, since the deepest
published counts would take hours to years in pure Python; set e.g.
``PERFT_MAX_NODES=200000000 pytest -m slow tests/test_perft.py`` to run
more of them.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache

import pytest

try:
    from perft_files import PerftRecord, load_perft_files, perft_file_paths
except ImportError:  # tests/ imported as a package
    from tests.perft_files import PerftRecord, load_perft_files, perft_file_paths

from dsl import VariantNotFound, bundled_names, find_variant
from interpreter.notation.fen import to_fen
from interpreter.loading import load_game
from interpreter.engine.perft import perft
from interpreter.loading import position_from_fen, start_position

FILES = tuple(perft_file_paths())
SLOW_NODES = 1_000_000             # above this: marked slow
MAX_NODES = int(os.environ.get("PERFT_MAX_NODES", "20000000"))  # above this: skipped

# Records marked slow although they have fewer than SLOW_NODES nodes (they take 15-30 s), each with the records
# of the default run that check its variant in its place, to depth 3 at least: shallower counts of the same
# position, or counts of Fairy-Stockfish (tests/perft/fsf-computed.txt, recounted with pyffish by
# test_differential.py).
SLOW_RECORDS = {
    "racingkings:near-discovered-check-d4": ("near-discovered-check",),  # 15-21 s; its depths 1-3 stay
}

# Record variant names that cannot be names in the language (a name has no '-'),
# with the bundled variant they mean.
RECORD_NAMES = {"ai-wok": "aiwok"}

_ORTHODOX_CASTLING = re.compile(r"^(-|K?Q?k?q?)$")


def is_chess960(record: PerftRecord) -> bool:
    """Does the record need Chess960 castling (X-FEN / Shredder-FEN rights or a chess960 section)?"""
    return record.variant == "chess960" or not _ORTHODOX_CASTLING.match(record.castling)


@lru_cache(maxsize=None)
def bundled_variant(name: str) -> str | None:
    """The bundled variant a record's variant name (or alias) names, or None."""
    try:
        path = find_variant(RECORD_NAMES.get(name, name))
    except VariantNotFound:
        return None
    return path.stem if path.stem in bundled_names() else None


def position_key(variant: str, record: PerftRecord) -> tuple[str, str, int]:
    """What ``record`` counts in the bundled ``variant``: the variant, the position (the FEN's fields, without
    move counters that are the default ``0 1``) and the depth."""
    fields = record.fen.split()
    if len(fields) == 6 and fields[4:] == ["0", "1"]:
        fields = fields[:4]
    return variant, " ".join(fields), record.depth


def _params():
    params, seen, counts = [], set(), {}
    for r in load_perft_files(*FILES):
        name, _, mode = r.variant.partition("@")  # 'superchess@2p': the variant in a play mode
        variant = bundled_variant(name)
        if variant is None:
            continue
        if mode:
            variant = f"{variant}@{mode}"
        key = position_key(variant, r)
        if counts.get(key) == r.nodes:
            continue  # an earlier record has counted this already
        counts.setdefault(key, r.nodes)
        test_id = f"{variant}:{r.id}-d{r.depth}"
        if test_id in seen:
            test_id = f"{r.path.stem}-{test_id}"
        seen.add(test_id)
        marks = []
        if r.nodes > SLOW_NODES or test_id in SLOW_RECORDS:
            marks.append(pytest.mark.slow)
        if r.nodes > MAX_NODES:
            marks.append(pytest.mark.skip(reason=f"{r.nodes} nodes, above PERFT_MAX_NODES={MAX_NODES}"))
        params.append(pytest.param(variant, r, id=test_id, marks=marks))
    return params


@pytest.mark.parametrize("variant,record", _params())
def test_perft(variant: str, record: PerftRecord):
    name, _, mode = variant.partition("@")
    game = load_game(name, mode or None)
    pos = start_position(game) if record.fen == "startpos" else position_from_fen(game, record.fen)
    fen_before, hash_before = to_fen(pos), pos.hash
    board_before, history_before = list(pos.board), list(pos.history)
    nodes = perft(pos, record.depth)
    assert nodes == record.nodes, f"{record} ({variant}): got {nodes}, expected {record.nodes}"
    assert to_fen(pos) == fen_before, f"{record}: make/unmake changed the position"
    assert pos.hash == hash_before, f"{record}: make/unmake changed the hash"
    assert pos.board == board_before and pos.history == history_before, f"{record}: make/unmake changed the state"


def test_data_files_parse():
    """The bundled data files are well formed and hold the records this test relies on."""
    records = load_perft_files(*FILES)
    names = {p.name for p in FILES}
    assert {"cpw-perft-results.txt", "pychess-tricky.txt", "fsf-variant.txt", "reference-counts.txt",
            "locking.txt"} <= names
    assert len(records) > 350
    ids = {r.id for r in records}
    assert {"pos1-startpos", "pos2-kiwipete", "pos5", "pos6", "align-ep-pinned", "capablanca-start"} <= ids
    assert {"start", "castlock", "sep-and-ep", "opposite-stacks-m1"} <= {r.id for r in records
                                                                          if r.variant.startswith("locking")}
    assert all(r.depth >= 1 and r.nodes >= 0 for r in records)   # 0: a game over before the last ply
    assert any(is_chess960(r) for r in records)


def test_variant_names_resolve():
    """Record variant names resolve through bundled names and aliases; unknown ones are left out."""
    assert bundled_variant("chess") == "chess"
    assert bundled_variant("no-such-variant") is None
    collected = {p.values[0] for p in _params()}
    assert {"chess", "locking", "locking_m1"} <= collected


def test_slow_records_are_checked_in_their_place():
    """Each record of SLOW_RECORDS is collected (and slow), and the records named in its place run by default,
    in the same variant, to depth 3 at least."""
    params = {p.id: p for p in _params()}
    for test_id, ids in SLOW_RECORDS.items():
        assert test_id in params and pytest.mark.slow.mark in [m.mark for m in params[test_id].marks], test_id
        variant = params[test_id].values[0]
        default = [p.values[1] for p in params.values() if not p.marks and p.values[0] == variant]
        for record_id in ids:
            assert max((r.depth for r in default if r.id == record_id), default=0) >= 3, f"{test_id}: {record_id}"


def test_repeated_records_are_collected_once():
    """A record that counts what an earlier one counts is not collected again; the same FEN with and without
    the default move counters is one position."""
    keys = [position_key(*p.values) for p in _params()]
    assert len(keys) == len(set(keys)), "two records give different counts for one position and depth"
    records = [r for r in load_perft_files(*FILES) if r.variant == "atomic" and r.depth == 4 and r.nodes == 714499]
    assert len(records) == 2 and records[0].fen.split()[4:] != records[1].fen.split()[4:]
    assert len({position_key("atomic", r) for r in records}) == 1


def test_full_perft_counts_as_bulk(capsys):
    """``rules perft --full`` makes and unmakes every leaf and counts what bulk counting counts; ``--json``
    reports nodes, seconds and the mode either way (also per first move, with ``--divide``)."""
    from interpreter.cli.main import main

    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    reports = {}
    for extra in ([], ["--full"], ["--full", "--divide"]):
        assert main(["perft", "chess", "--fen", kiwipete, "--depth", "2", "--json", *extra]) == 0
        reports[" ".join(extra)] = json.loads(capsys.readouterr().out)
    assert [r["nodes"] for r in reports.values()] == [2039, 2039, 2039]
    assert [r["full"] for r in reports.values()] == [False, True, True]
    assert all(r["seconds"] >= 0 for r in reports.values())
    assert sum(reports["--full --divide"]["divide"].values()) == 2039 and len(reports["--full --divide"]["divide"]) == 48
