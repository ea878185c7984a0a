"""Which engine runs: the mypyc-compiled modules or the pure-Python files they are compiled from.

The install (``setup.py``) compiles the modules of :data:`COMPILED`, the very
same ``.py`` files, with mypyc when it can, and writes :data:`MANIFEST` beside
this file: the modules it compiled and a checksum of each source, or why it
compiled nothing. CPython imports ``position.cpython-311-x86_64-linux-gnu.so``
in preference to the ``position.py`` beside it, so the choice is made when
:mod:`interpreter` is imported (:func:`choose`, called by its ``__init__``):

- ``RULES_DSL_PURE=1`` (any value but empty or ``0``): pure Python;
- nothing compiled (no C compiler, mypyc missing or failing when installed,
  ``RULES_DSL_PURE=1`` when built, or a source checkout never built): pure Python;
- a compiled module missing, or a source whose hash is not the one compiled
  (someone edited ``engine/x.py`` in an editable install): pure Python, with
  a one-line :class:`StaleBuildWarning` naming the file, so that old compiled
  code never runs silently.

The compiled modules call each other directly (one shared library), so they
are used all together or not at all. When pure, :class:`_SourceFinder`, first
on ``sys.meta_path``, loads each of them from its ``.py`` file. This module
imports nothing of the project: setup.py reads :data:`COMPILED` from it.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
import zlib
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path

# The modules compiled with mypyc: the whole engine (generation, legality, make/unmake, outcome,
# stacking, ...), the move closures of the compiler and the search's hot path (the node search and
# the evaluation's sums). They must pass mypy ([tool.mypy] in pyproject.toml).
COMPILED = (
    "interpreter.agents.incremental", "interpreter.agents.search",
    "interpreter.compiler.generators", "interpreter.compiler.native_game",
    "interpreter.engine.attacks", "interpreter.engine.gating", "interpreter.engine.generation",
    "interpreter.engine.legality", "interpreter.engine.moves", "interpreter.engine.neutral",
    "interpreter.engine.outcome", "interpreter.engine.perft", "interpreter.engine.position",
    "interpreter.engine.rights",
    "interpreter.engine.scoring", "interpreter.engine.stacking",
)
MANIFEST = "_build.json"   # written by setup.py: {"compiled": {module: file_hash of its .py}, "reason": str}
PURE_VARIABLE = "RULES_DSL_PURE"
ROOT = Path(__file__).resolve().parent   # the interpreter package

status = "pure Python (not decided yet)"   # what `rules --version` prints; set by choose()
compiled = False                            # True when the compiled modules are the ones imported


class StaleBuildWarning(RuntimeWarning):
    """The compiled modules do not match their sources: pure Python runs instead."""


def source_of(module: str, root: Path = ROOT) -> Path:
    """The ``.py`` file of a module of :data:`COMPILED` below ``root``, the interpreter package."""
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def file_hash(path: Path) -> str:
    """The CRC-32 of a file's bytes, as 8 hex digits. Not a cryptographic hash: it tells an edited
    source from the one compiled (an edit keeps it by a 1 in 4 billion chance), and it is cheap at
    every start, where importing hashlib (OpenSSL) alone costs more than the rest of this module."""
    return f"{zlib.crc32(path.read_bytes()):08x}"


def pure_requested(environ=os.environ) -> bool:
    """Does ``RULES_DSL_PURE`` ask for pure Python (set, and neither empty nor ``0``)?"""
    return environ.get(PURE_VARIABLE, "") not in ("", "0")


def read_manifest(root: Path = ROOT) -> dict:
    """The build record :data:`MANIFEST` below ``root``, or ``{}`` when there is none or it cannot be read."""
    try:
        manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def decide(root: Path = ROOT, environ=os.environ) -> tuple[bool, str, str | None]:
    """Whether the compiled modules below ``root`` may be imported: (compiled, status, warning).

    ``status`` says which engine runs and why; ``warning`` is set when compiled modules exist but
    must not be used (missing, or compiled from other sources)."""
    if pure_requested(environ):
        return False, f"pure Python ({PURE_VARIABLE} is set)", None
    manifest = read_manifest(root)
    hashes = manifest.get("compiled") or {}
    if not hashes:
        reason = manifest.get("reason") or "not compiled"
        built = [m for m in COMPILED if _extension_of(m, root)]
        warning = (f"rules-dsl: compiled modules ({built[0]} ...) without a record of their build "
                   f"({MANIFEST}): running pure Python; reinstall to rebuild them") if built and not manifest else None
        return False, f"pure Python ({reason})", warning
    for module in COMPILED:
        source = source_of(module, root)
        if hashes.get(module) is None or _extension_of(module, root) is None:
            return False, "pure Python (compiled build incomplete)", (
                f"rules-dsl: {module} was not compiled: running pure Python; reinstall to rebuild")
        if not source.exists() or file_hash(source) != hashes[module]:
            return False, "pure Python (compiled build older than its sources)", (
                f"rules-dsl: {source} changed since it was compiled: running pure Python; "
                f"rebuild with 'make compiled' or 'pip install -e .'")
    return True, "compiled (mypyc)", None


def choose() -> None:
    """Decide once, when :mod:`interpreter` is imported, which engine the imports below it load; when
    pure, put :class:`_SourceFinder` first on ``sys.meta_path`` and warn if compiled code was skipped."""
    global status, compiled
    compiled, status, warning = decide()
    if not compiled and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    if warning:
        warnings.warn(warning, StaleBuildWarning, stacklevel=3)


def in_use() -> bool:
    """Are the engine's modules really the compiled ones (imports :mod:`interpreter.engine.position`)?"""
    from interpreter.engine import position
    return position.__file__ is not None and position.__file__.endswith(tuple(EXTENSION_SUFFIXES))


def _extension_of(module: str, root: Path) -> Path | None:
    """The compiled file of ``module`` beside its source, or None."""
    source = source_of(module, root)
    for suffix in EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


class _SourceFinder:
    """A meta path finder that loads the modules of :data:`COMPILED` from their ``.py`` files, so that
    a compiled file beside them is not imported."""

    def find_spec(self, name: str, path=None, target=None) -> ModuleSpec | None:
        if name not in COMPILED:
            return None
        return spec_from_file_location(name, source_of(name))
