"""The architecture holds: the layers of the import-linter contract, and no import cycle at all.

The contract in pyproject.toml orders the pipeline's packages (front ends,
documentation, drawing and loading, notation, engine, compiler, dsl): a
module imports only from the layers below its own. Within a package,
modules may import each other, but never in a cycle: the check below finds
every strongly connected set of modules in the import graph (imports under
``TYPE_CHECKING`` left out, as they do not run).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_import_linter_contract_is_kept():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert lint, "import-linter is part of the test extra"
    run = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def _cycles(graph, modules: set[str]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph.find_modules_directly_imported_by(node) & modules:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.find_modules_directly_imported_by(node):
                found.append(sorted(component))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycles():
    graph = grimp.build_graph("dsl", "interpreter", exclude_type_checking_imports=True)
    modules = {m for m in graph.modules if m.split(".")[0] in ("dsl", "interpreter")}
    # A package's __init__ may re-export its modules; the modules importing their own package's
    # __init__ for a name is the cycle to catch, so packages stay in the graph.
    assert _cycles(graph, modules) == []
