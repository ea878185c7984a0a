"""The public API: the example of docs/api.md runs, its types check, and the game cache is never stale."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import interpreter
from interpreter.api import Move

ROOT = Path(__file__).resolve().parent.parent
API_DOC = ROOT / "docs" / "api.md"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_api_doc_example_runs():
    blocks = _python_blocks(API_DOC.read_text(encoding="utf-8"))
    assert blocks, "docs/api.md shows a runnable example"
    for block in blocks:
        exec(compile(block, str(API_DOC), "exec"), {})


def test_readme_example_runs():
    blocks = _python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks, "the README shows the API"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_every_public_name_is_documented_and_importable():
    text = API_DOC.read_text(encoding="utf-8")
    for name in interpreter.__all__:
        assert getattr(interpreter, name) is not None
        if not name.endswith("Error"):
            assert f"`{name}" in text or f"{name}(" in text, f"docs/api.md does not describe {name}"


def test_moves_are_named_tuples_equal_to_engine_moves():
    game = interpreter.load_game("chess")
    pos = interpreter.start_position(game)
    raw = pos.legal_moves()
    named = interpreter.legal_moves(pos)
    assert named == raw and all(isinstance(m, Move) for m in named)
    move = interpreter.parse_move(pos, "e4")
    assert (game.board.names[move.origin], game.board.names[move.target], move.kind) == ("e2", "e4", "ep_set")
    pos.push(move)
    assert interpreter.san(pos, pos.pop()) == "e4"


def test_mypy_passes_on_the_public_modules():
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is part of the test extra"
    run = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_cached_game_is_recompiled_when_an_included_file_changes(tmp_path):
    library = tmp_path / "knights.rules"
    library.write_text('piece Knight { letter N  betza "N" }\n', encoding="utf-8")
    variant = tmp_path / "mini.rules"
    variant.write_text(
        'variant mini { title "Mini" }\n'
        'include "knights.rules"\n'
        'piece King { letter K  royal  betza "K" }\n'
        'board { grid 4 x 4 }\n'
        'armies { army white "White" { letters upper  forward n }  army black "Black" { letters lower  forward s } }\n'
        'setup fen "k2n/4/4/N2K w - - 0 1"\n'
        'rules { forbid self-check  end checkmate when in_check and legal_moves == 0: loss }\n', encoding="utf-8")
    first = interpreter.load_game(variant)
    assert interpreter.load_game(variant) is first  # unchanged files: the cached game
    knight_moves = len(interpreter.legal_moves(interpreter.start_position(first)))
    library.write_text('piece Knight { letter N  betza "NW" }\n', encoding="utf-8")  # same size would not matter
    second = interpreter.load_game(variant)
    assert second is not first
    assert len(interpreter.legal_moves(interpreter.start_position(second))) > knight_moves
