"""Compiled games stored on disk (interpreter.loading.stored): served only whole and current.

A stored game plays as the freshly compiled one; a damaged entry (bytes flipped, cut short,
another key's) is detected, deleted and rebuilt, never served; a file edited between two runs,
or a file it extends, gives the new game; two processes writing one entry at once leave a whole
entry; ``--no-cache`` and ``RULES_DSL_CACHE=off`` write nothing. No timings here: bench/startup.py
measures cold and warm starts.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from dsl import caching
from dsl.loader import load_spec
from interpreter.engine.perft import perft
from interpreter.loading import compile_variant, games, load_game, start_position, stored
from interpreter.loading.collection import collection_paused

CHESS_START_MOVES = 20


def _chess_key() -> str:
    """The key of orthodox chess's entry (its first play mode, no options, the default file policy)."""
    return games.storage_key(Path(load_spec("chess").path).resolve())


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A fresh cache directory for this test, and an empty in-memory cache (as in a new process)."""
    directory = tmp_path / "cache"
    monkeypatch.setenv(caching.VARIABLE, str(directory))
    monkeypatch.setattr(games, "_CACHE", {})
    return directory


def _entries(directory: Path) -> list[Path]:
    return sorted((directory / "games").glob("*.game")) if (directory / "games").is_dir() else []


def _new_process_load(ref, mode=None):
    """load_game as a new process would run it: nothing in memory, the disk cache as it is."""
    games._CACHE.clear()
    return load_game(ref, mode)


def _variant(folder: Path, base_text: str) -> Path:
    """A variant that extends a file of its folder (``base.rules``, holding ``base_text``) and adds a
    drop with a condition (a closure that a stored game makes again)."""
    (folder / "base.rules").write_text(base_text, encoding="utf-8")
    path = folder / "dropper.rules"
    path.write_text('variant dropper { title "Dropper" }\nextends "base.rules"\n'
                    "drops {\n  captures to hand\n  drop Knight: if not in_check or count(Bishop) == 0\n}\n",
                    encoding="utf-8")
    return path


BASE = 'variant base { title "Base" }\nextends chess\n'


@pytest.mark.parametrize("ref, mode, depth", [
    ("chess", None, 3),
    ("crazyhouse", None, 2),      # extends chess; drops
    ("locking", None, 2),         # stacking, with an interaction's condition
    ("sittuyin", None, 2),        # a promotion in place with an 'if'
    ("superchess", "2p", 2),      # four armies, a play mode
])
def test_a_stored_game_plays_as_the_fresh_one(cache, ref, mode, depth):
    fresh = compile_variant(load_spec(ref), mode)
    first = load_game(ref, mode)                  # compiled, and stored
    assert len(_entries(cache)) == 1
    served = _new_process_load(ref, mode)         # read from the disk
    assert served is not first
    assert served.spec == fresh.spec
    assert served.mode == fresh.mode
    # The attributes that the compiled build keeps in the Game's slots (compiler/native_game.py),
    # outside its __dict__, are stored and read back too.
    for name in ("n", "code_army", "is_royal", "hostile", "castler", "castle_rook_codes", "gate_codes", "stacking"):
        assert getattr(served, name) == getattr(fresh, name), name
    assert perft(start_position(served), depth, True) == perft(start_position(fresh), depth, True)


def test_a_stored_drop_condition_and_extended_file(cache, tmp_path):
    path = _variant(tmp_path, BASE)
    fresh = compile_variant(load_spec(str(path)))
    load_game(str(path))
    served = _new_process_load(str(path))
    assert served is not fresh and served.spec == fresh.spec
    assert any(served.drop_conditions)
    pos, ref = start_position(served), start_position(fresh)
    assert perft(pos, 2, True) == perft(ref, 2, True)


@pytest.mark.parametrize("damage", ["flip a byte of the game", "flip a byte of the header", "cut short",
                                    "empty", "another key's entry"])
def test_a_damaged_entry_is_detected_deleted_and_rebuilt(cache, damage):
    load_game("chess")
    [entry] = _entries(cache)
    data = bytearray(entry.read_bytes())
    if damage == "flip a byte of the game":
        data[-100] ^= 0xFF
    elif damage == "flip a byte of the header":
        data[len(stored.MAGIC) + 40] ^= 0x01
    elif damage == "cut short":
        data = data[:len(data) // 2]
    elif damage == "empty":
        data = bytearray()
    else:
        load_game("crazyhouse")
        other = next(e for e in _entries(cache) if e != entry)
        data = bytearray(other.read_bytes())
    entry.write_bytes(bytes(data))
    assert stored.read(_chess_key()) is None      # never served
    assert not entry.exists()                    # deleted
    game = _new_process_load("chess")            # rebuilt, and stored again
    assert len(start_position(game).legal_moves()) == CHESS_START_MOVES
    rebuilt = entry.read_bytes()
    assert rebuilt != bytes(data)
    assert stored.read(_chess_key()) is not None
    assert _new_process_load("chess").spec == game.spec


def test_a_file_edited_between_two_runs_is_compiled_afresh(cache, tmp_path):
    path = _variant(tmp_path, BASE)
    assert load_game(str(path)).title == "Dropper"
    path.write_text(path.read_text(encoding="utf-8").replace('"Dropper"', '"Dropper edited"'), encoding="utf-8")
    assert _new_process_load(str(path)).title == "Dropper edited"
    # ... and the entry was replaced: a third run reads the edited game
    assert _new_process_load(str(path)).title == "Dropper edited"
    assert len(_entries(cache)) == 1


def test_an_extended_file_edited_between_two_runs_is_compiled_afresh(cache, tmp_path):
    path = _variant(tmp_path, BASE)
    before = _new_process_load(str(path))
    (tmp_path / "base.rules").write_text(BASE + "forget castle long\n", encoding="utf-8")
    after = _new_process_load(str(path))
    assert len(after.castle_rules) == len(before.castle_rules) - 1
    assert after.spec == load_spec(str(path))


def test_a_game_of_another_code_stamp_is_not_read(cache, monkeypatch):
    load_game("chess")
    monkeypatch.setattr(stored, "_stamp", "another version of the interpreter")
    games._CACHE.clear()
    load_game("chess")
    assert len(_entries(cache)) == 2


def _write_many(directory: str, times: int) -> None:
    os.environ[caching.VARIABLE] = directory
    games._CACHE.clear()
    game = load_game("chess")
    for _ in range(times):
        stored.write(_chess_key(), stored.fingerprint(game.spec.sources), game)


def test_two_processes_writing_one_entry_at_once_leave_a_whole_entry(cache):
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    writers = [context.Process(target=_write_many, args=(str(cache), 15)) for _ in range(3)]
    for writer in writers:
        writer.start()
    seen = 0
    while any(w.is_alive() for w in writers):
        found = stored.read(_chess_key())   # a reader meanwhile sees a whole entry or none
        if found is not None:
            seen += 1
            assert found[1].name == "chess"
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    [entry] = _entries(cache)
    assert [p.name for p in (cache / "games").iterdir()] == [entry.name]   # no temporary file left
    found = stored.read(_chess_key())
    assert found is not None and len(start_position(found[1]).legal_moves()) == CHESS_START_MOVES


def test_the_least_recently_used_entries_go_beyond_the_size_limit(cache, monkeypatch):
    for name in ("chess", "crazyhouse", "kingofthehill"):
        load_game(name)
    sizes = {entry: entry.stat().st_size for entry in _entries(cache)}
    oldest = stored._entry(_chess_key())
    os.utime(oldest, (1, 1))   # chess's entry is the least recently used
    monkeypatch.setattr(stored, "MAX_BYTES", sum(sizes.values()) - sizes[oldest])
    game = load_game("kingofthehill")
    stored.write(games.storage_key(Path(game.spec.path).resolve()), stored.fingerprint(game.spec.sources), game)
    assert sorted(_entries(cache)) == sorted(entry for entry in sizes if entry != oldest)


def test_a_cache_folder_others_may_write_to_is_not_used(cache):
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o777)
    assert caching.cache_dir() is None
    load_game("chess")
    assert not (cache / "games").exists()


def _rules(env: dict[str, str], *argv: str) -> str:
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", *argv], capture_output=True, text=True,
                         timeout=300, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_no_cache_and_off_write_nothing(tmp_path):
    directory = tmp_path / "cache"
    _rules({caching.VARIABLE: str(directory)}, "--no-cache", "moves", "chess", "--json")
    assert not directory.exists()
    home = tmp_path / "home"
    _rules({caching.VARIABLE: "off", "XDG_CACHE_HOME": str(home)}, "moves", "chess", "--json")
    assert not home.exists()
    _rules({caching.VARIABLE: str(directory)}, "moves", "chess", "--json")   # the control: this one stores
    assert len(_entries(directory)) == 1


def test_the_command_line_serves_an_edited_file_afresh(tmp_path):
    env = {caching.VARIABLE: str(tmp_path / "cache")}
    path = _variant(tmp_path, BASE)
    argv = ("moves", str(path), "--fen", "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1")
    assert "O-O-O" in _rules(env, *argv).split()
    (tmp_path / "base.rules").write_text(BASE + "forget castle long\n", encoding="utf-8")
    after = _rules(env, *argv)
    assert "O-O-O" not in after.split() and "O-O" in after.split()
    assert after == _rules(env, *argv) == _rules({caching.VARIABLE: "off"}, *argv)


def test_the_collector_is_paused_while_games_are_built_and_on_again_after():
    inside, go = threading.Event(), threading.Event()

    def other_block() -> None:
        with collection_paused():
            inside.set()
            go.wait(10)

    assert gc.isenabled()
    thread = threading.Thread(target=other_block)
    with collection_paused():
        thread.start()
        inside.wait(10)
        assert not gc.isenabled()
    assert not gc.isenabled()    # the other thread's block still runs
    go.set()
    thread.join()
    assert gc.isenabled()
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()   # off before: left off
    finally:
        gc.enable()
