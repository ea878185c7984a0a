"""The compiled fast path (interpreter/native.py, setup.py): which engine runs, and never a stale one.

The choice itself is tested on a small tree of stand-in files; the real build in subprocesses: the
compiled modules are the ones imported when they were built from these sources (always in CI, where
the build must not fall back), pure Python under RULES_DSL_PURE=1, both count the same perft, and a
copy of the package whose source was edited after compiling runs pure Python with a warning.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from interpreter import native
from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = EXTENSION_SUFFIXES[0]
# Prints which file each compiled module came from and two perft counts (start, Kiwipete).
PROBE = """
import json, sys
import interpreter
from interpreter import native
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.engine.perft import perft
game = load_game("chess")
kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
counts = [perft(start_position(game), 3), perft(position_from_fen(game, kiwipete), 2, False)]
files = [sys.modules[m].__file__ for m in native.COMPILED if m in sys.modules]
print(json.dumps({"status": native.status, "in_use": native.in_use(), "files": files, "counts": counts}))
"""


def _tree(tmp_path: Path, compiled: bool = True, manifest: dict | None = None) -> Path:
    """A stand-in interpreter package: a source per compiled module, a compiled file beside each
    (when ``compiled``) and the manifest of their build (``manifest``: another record)."""
    root = tmp_path / "interpreter"
    hashes = {}
    for module in native.COMPILED:
        source = native.source_of(module, root)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {module}\n", encoding="utf-8")
        hashes[module] = native.file_hash(source)
        if compiled:
            source.with_name(source.stem + SUFFIX).write_bytes(b"")
    record = manifest if manifest is not None else {"compiled": hashes if compiled else {}, "reason": ""}
    (root / native.MANIFEST).write_text(json.dumps(record), encoding="utf-8")
    return root


def test_a_fresh_compiled_build_is_chosen(tmp_path):
    assert native.decide(_tree(tmp_path), {}) == (True, "compiled (mypyc)", None)


@pytest.mark.parametrize("value, pure", [("1", True), ("yes", True), ("0", False), ("", False)])
def test_rules_dsl_pure_chooses_pure_python(tmp_path, value, pure):
    compiled, status, warning = native.decide(_tree(tmp_path), {"RULES_DSL_PURE": value})
    assert (compiled, warning) == (not pure, None)
    assert ("RULES_DSL_PURE is set" in status) == pure


def test_a_source_edited_after_compiling_means_pure_python_and_a_warning(tmp_path):
    root = _tree(tmp_path)
    edited = native.source_of("interpreter.engine.legality", root)
    edited.write_text(edited.read_text(encoding="utf-8") + "x = 1\n", encoding="utf-8")
    compiled, status, warning = native.decide(root, {})
    assert not compiled and "older than its sources" in status
    assert str(edited) in warning and "rebuild" in warning and "\n" not in warning


def test_a_missing_compiled_module_means_pure_python_for_all(tmp_path):
    root = _tree(tmp_path)
    source = native.source_of("interpreter.engine.stacking", root)
    source.with_name(source.stem + SUFFIX).unlink()
    compiled, status, warning = native.decide(root, {})
    assert not compiled and "incomplete" in status and "interpreter.engine.stacking" in warning


def test_compiled_files_without_a_record_are_not_used(tmp_path):
    root = _tree(tmp_path)
    (root / native.MANIFEST).unlink()
    compiled, status, warning = native.decide(root, {})
    assert not compiled and warning and native.MANIFEST in warning


def test_a_pure_build_says_why(tmp_path):
    root = _tree(tmp_path, compiled=False, manifest={"compiled": {}, "reason": "mypyc failed (2)"})
    assert native.decide(root, {}) == (False, "pure Python (mypyc failed (2))", None)
    (root / native.MANIFEST).unlink()   # a source checkout never built
    assert native.decide(root, {}) == (False, "pure Python (not compiled)", None)


def _probe(cwd: Path, pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "RULES_DSL_PURE"}
    if pure:
        env["RULES_DSL_PURE"] = "1"
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    return {**json.loads(run.stdout), "stderr": run.stderr}


def _built() -> bool:
    """Was this tree's engine compiled from its present sources (what the run-time check decides)?"""
    return native.decide(native.ROOT, {})[0]


def test_the_compiled_build_is_in_use_when_built_and_pure_python_when_asked():
    if os.environ.get("CI"):
        assert _built(), f"CI builds the compiled engine, but: {native.decide(native.ROOT, {})[1]}"
    compiled, pure = _probe(ROOT, pure=False), _probe(ROOT, pure=True)
    assert compiled["in_use"] == _built()
    if _built():
        assert compiled["files"] and all(f.endswith(SUFFIX) for f in compiled["files"])
    assert not pure["in_use"] and pure["files"] and all(f.endswith(".py") for f in pure["files"])
    assert compiled["counts"] == pure["counts"] == [8902, 2039]
    assert native.compiled == (_built() and not native.pure_requested())


def test_an_edited_copy_of_a_compiled_build_runs_pure_python(tmp_path):
    if not _built():
        pytest.skip("the engine is not compiled here")
    shutil.copytree(ROOT / "dsl", tmp_path / "dsl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "variants", tmp_path / "dsl" / "variants")   # installed as dsl.variants
    shutil.copytree(ROOT / "interpreter", tmp_path / "interpreter", ignore=shutil.ignore_patterns("__pycache__"))
    assert _probe(tmp_path, pure=False)["in_use"]   # the copy is a compiled build as long as it is unchanged
    perft_py = tmp_path / "interpreter" / "engine" / "perft.py"
    perft_py.write_text(perft_py.read_text(encoding="utf-8") + "\n# edited after compiling\n", encoding="utf-8")
    stale = _probe(tmp_path, pure=False)
    assert not stale["in_use"] and all(f.startswith(str(tmp_path)) and f.endswith(".py") for f in stale["files"])
    assert "StaleBuildWarning" in stale["stderr"] and str(perft_py) in stale["stderr"]
    assert stale["counts"] == [8902, 2039]


def test_version_and_perft_json_say_which_engine_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip().endswith(f"engine: {native.status}")
    assert main(["perft", "chess", "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["compiled"] == native.in_use() == native.compiled


def _source_copy(tmp_path: Path) -> Path:
    """The project's files, without any build, virtual environment or cache."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "site", "__pycache__", "*.so", native.MANIFEST, "*.egg-info", "artifacts"))
    return tree


@pytest.mark.slow
@pytest.mark.parametrize("breakage, reason", [("no compiler", "the C compiler failed"),
                                              ("a type error", "mypyc failed")])
def test_a_build_that_cannot_compile_installs_pure_python(tmp_path, breakage, reason):
    pytest.importorskip("mypyc")
    tree = _source_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "RULES_DSL_PURE"}
    if breakage == "no compiler":
        env["CC"] = str(tmp_path / "no-such-cc")
    else:
        perft_py = tree / "interpreter" / "engine" / "perft.py"
        perft_py.write_text(perft_py.read_text(encoding="utf-8") + '\nBROKEN: int = "a str"\n', encoding="utf-8")
    run = subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    assert f"rules-dsl: installing pure Python: {reason}" in run.stderr
    assert not list((tree / "interpreter").rglob("*" + SUFFIX))
    record = json.loads((tree / "interpreter" / native.MANIFEST).read_text(encoding="utf-8"))
    assert record["compiled"] == {} and record["reason"].startswith(reason)
    probe = _probe(tree, pure=False)
    assert not probe["in_use"] and reason in probe["status"] and probe["counts"] == [8902, 2039]
