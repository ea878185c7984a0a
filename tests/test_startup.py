"""Start-up: help and listing commands import neither pydantic, networkx nor lark.

Every command pays for the modules it imports before it parses its
arguments; the heavy ones (the Spec models, the board graph, the grammar)
are imported only by the commands that load a variant. Timings are
measured by bench/startup.py, never here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from interpreter.cli.arguments import build_parser

HEAVY = ("pydantic", "networkx", "lark")
PROBE = """
import sys
from interpreter.cli.main import main
try:
    main({argv!r})
except SystemExit:
    pass
print([m for m in {heavy!r} if m in sys.modules])
"""




def _commands() -> list[str]:
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(actions[0].choices)


@pytest.mark.parametrize("argv", [["--help"], ["list"]] + [[name, "--help"] for name in _commands()])
def test_light_commands_import_no_heavy_module(argv):
    run = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]", f"rules {' '.join(argv)} imported {run.stdout.splitlines()[-1]}"


def test_a_real_command_does_import_them():
    """The probe itself works: loading a variant does need the heavy modules."""
    run = subprocess.run([sys.executable, "-c", PROBE.format(argv=["moves", "chess"], heavy=HEAVY)],
                         capture_output=True, text=True, timeout=120)
    assert "pydantic" in run.stdout.strip().splitlines()[-1]


def test_a_stored_game_is_served_without_the_grammar_or_the_board_graph(tmp_path):
    """With the game already stored (interpreter.loading.stored), listing its moves parses no rules
    file (lark) and builds no graph (networkx): only the Spec's models (pydantic) are imported."""
    env = {**os.environ, "RULES_DSL_CACHE": str(tmp_path)}
    probe = PROBE.format(argv=["moves", "chess", "--json"], heavy=HEAVY)
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[-1].stderr
    assert runs[0].stdout.strip().splitlines()[-1] == "['pydantic', 'lark']"   # compiled, then stored
    assert runs[1].stdout.strip().splitlines()[-1] == "['pydantic']"
