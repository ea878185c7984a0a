"""The tutorial's example is true: docs/tutorial.md and docs/examples/archchess.rules.

The tutorial builds a variant in steps and then shows the whole file; this
test checks that every ```rules block of the tutorial parses, that the whole
file shown is docs/examples/archchess.rules, that the file compiles, that
the outputs the tutorial prints (``rules check``, the error for a misspelt
piece, perft at depths 1 and 2) are what the interpreter prints, and that
``rules doc`` writes the number of files the tutorial says.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsl import parse_text
from interpreter.cli.main import main
from interpreter.loading import load_game
from interpreter.engine.perft import perft
from interpreter.loading import start_position

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "docs" / "examples" / "archchess.rules"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", TUTORIAL, re.S | re.M)


def _output_of(command: str) -> str:
    """The lines the tutorial shows after ``$ COMMAND``, up to the next command or the end of the block."""
    for block in _blocks("text"):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line == f"$ {command}":
                rest = []
                for following in lines[i + 1:]:
                    if following.startswith("$ "):
                        break
                    rest.append(following)
                return "\n".join(rest)
    raise AssertionError(f"the tutorial shows no '$ {command}'")


@pytest.mark.parametrize("block", _blocks("rules"), ids=lambda b: b.splitlines()[0][:40])
def test_every_rules_block_parses(block):
    parse_text(block, "<tutorial>")


def test_the_whole_file_is_the_example_file():
    assert _blocks("rules")[-1] == EXAMPLE.read_text(encoding="utf-8")


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    (tmp_path / "archchess.rules").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_prints_what_the_tutorial_shows(in_tmp, capsys):
    assert main(["check", "archchess.rules"]) == 0
    assert capsys.readouterr().out.strip() == _output_of("rules check archchess.rules")


def test_the_misspelt_piece_error_is_the_one_shown(in_tmp, capsys):
    text = (in_tmp / "archchess.rules").read_text(encoding="utf-8")
    (in_tmp / "archchess.rules").write_text(text.replace("to Archbishop, Rook", "to Archbishp, Rook"), encoding="utf-8")
    assert main(["check", "archchess.rules"]) == 2
    shown = next(b for b in _blocks("text") if "unknown piece 'Archbishp'" in b)
    assert capsys.readouterr().err.strip() == shown.strip()


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_counts_are_the_ones_shown(depth):
    shown = _output_of(f"rules perft archchess.rules --depth {depth}")
    expected = int(re.match(r"nodes (\d+)", shown).group(1))
    assert perft(start_position(load_game(EXAMPLE)), depth) == expected


def test_doc_writes_the_files_the_tutorial_says(in_tmp, capsys):
    assert main(["doc", "archchess.rules", "-o", "archchess"]) == 0
    assert capsys.readouterr().out.strip() == _output_of("rules doc archchess.rules -o archchess")
