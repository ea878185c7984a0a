"""The compiled fast path: setuptools reads the project from pyproject.toml; this file only adds the
engine's modules compiled with mypyc, from the very same .py files (interpreter/native.py lists them).

Compiling is optional. With ``RULES_DSL_PURE=1`` set when building, without mypyc, when mypyc
rejects the code or when there is no working C compiler, nothing is compiled, one line says why,
and the install is pure Python (but ``RULES_DSL_PURE=1`` in an editable install leaves the
modules compiled earlier beside the sources: they run while their sources are unchanged).
Either way ``interpreter/_build.json`` records the outcome: a checksum of each compiled source
(how interpreter.native refuses a compiled module older than its source), or the reason nothing
was compiled (what ``rules --version`` shows, since pip hides a build's output).

Why setup.py and mypycify rather than a PEP 517 hook of our own: mypycify is mypyc's documented
way in, it hands setuptools ordinary extensions (so ``pip install .``, ``pip install -e .`` and
wheels all work as for any C extension), and the fallback is a build_ext subclass. mypy is in
[build-system] requires, so every install can compile without a step of its own.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
native = runpy.run_path(str(HERE / "interpreter" / "native.py"))
SOURCES = {module: native["source_of"](module, HERE / "interpreter") for module in native["COMPILED"]}


def say(text: str) -> None:
    """One line on the build's output (pip shows it with -v; make and setup.py always)."""
    print(f"rules-dsl: {text}", file=sys.stderr, flush=True)


def compiled_extensions() -> tuple[list[Extension], str]:
    """The mypyc extensions to build and '', or no extension and why (mypy runs here: only when
    build_ext does, not when pip merely asks for the metadata)."""
    if native["pure_requested"](os.environ):
        return [], f"{native['PURE_VARIABLE']} was set when it was built"
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [], "mypyc was not installed when it was built"
    try:
        return mypycify([str(path.relative_to(HERE)) for path in SOURCES.values()],
                        opt_level="3", group_name="interpreter.compiled"), ""
    except (Exception, SystemExit) as error:   # mypy's errors end in SystemExit
        return [], f"mypyc failed ({_first_line(error)})"


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def write_manifest(directory: Path, compiled: bool, reason: str) -> None:
    """interpreter/_build.json below ``directory``: the compiled sources' hashes, or the reason."""
    record = {"compiled": {m: native["file_hash"](p) for m, p in SOURCES.items()} if compiled else {},
              "reason": reason}
    target = directory / "interpreter" / native["MANIFEST"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _compiled_record(directory: Path) -> bool:
    """Does ``directory``'s manifest record compiled modules?"""
    return bool(native["read_manifest"](directory / "interpreter").get("compiled"))


# Stands for the compiled modules until build_ext runs (so that setuptools runs it at all).
PLACEHOLDER = Extension("interpreter.compiled__mypyc", sources=[])


class OptionalBuildExt(build_ext):
    """build_ext that compiles the engine with mypyc, or falls back to pure Python: when mypyc is
    missing or fails, and when the C compiler fails (none, no Python headers), the modules built so
    far are removed and the install goes on. Either way it writes the manifest and says one line."""

    reason = ""
    fresh = False

    def finalize_options(self) -> None:
        modules = self.distribution.ext_modules
        if modules == [PLACEHOLDER]:
            if (self.inplace or self.editable_mode) and native["decide"](HERE / "interpreter", {})[0]:
                # Beside the sources, compiled from exactly these sources: nothing to do.
                modules[:], OptionalBuildExt.fresh = [], True
            else:
                modules[:], OptionalBuildExt.reason = compiled_extensions()
        super().finalize_options()

    def run(self) -> None:
        inplace = self.inplace or self.editable_mode   # an editable install: beside the sources
        directory = HERE if inplace else Path(self.build_lib)
        if self.fresh:
            return say("the compiled modules beside the sources are up to date")
        if self.reason:
            if inplace and native["pure_requested"](os.environ) and _compiled_record(HERE):
                # The build switch compiles nothing now; the modules compiled earlier beside the
                # sources stay, used only as long as their sources are the ones they were built from.
                return say(f"not compiled ({self.reason}); the earlier compiled build stays in place")
            return self._pure(directory, self.reason)
        try:
            super().run()
        except Exception as error:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
                if inplace:
                    (HERE / self.get_ext_filename(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            return self._pure(directory, f"the C compiler failed ({_first_line(error)})")
        write_manifest(directory, True, "")
        say(f"compiled {len(SOURCES)} modules with mypyc")

    def _pure(self, directory: Path, reason: str) -> None:
        write_manifest(directory, False, reason)
        say(f"installing pure Python: {reason}")

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


setup(ext_modules=[PLACEHOLDER], cmdclass={"build_ext": OptionalBuildExt})
