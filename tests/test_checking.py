"""The one check of ``rules check`` (:func:`interpreter.loading.checking.check_game`), which the
command, the language server and ``rules serve`` share: every play mode compiled, the board's notes
and the lints of the default mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.errors import RulesError
from dsl.loader import load_spec_text

from interpreter.loading import compile_variant
from interpreter.loading.checking import check_game
from interpreter.loading.lints import lints

VARIANTS = Path(__file__).resolve().parent.parent / "variants"


def _spec(name: str, old: str = "", new: str = ""):
    return load_spec_text((VARIANTS / f"{name}.rules").read_text(encoding="utf-8").replace(old, new), "<test>")


def test_every_mode_is_compiled_in_the_files_order():
    game = compile_variant(_spec("superchess"))
    checked = check_game(game)
    assert [m.mode for m in checked.modes] == [m.name for m in game.spec.modes] == ["4p", "3p", "2p"]
    assert checked.modes[0] is game and checked.game is game
    assert checked.notes == tuple(game.board.diagnostics()) and checked.lints == tuple(lints(game))


def test_the_callers_compiler_is_used_for_the_other_modes():
    game = compile_variant(_spec("superchess"))
    asked: list[str] = []
    check_game(game, lambda mode: asked.append(mode) or compile_variant(game.spec, mode))
    assert asked == ["3p", "2p"]


def test_a_mode_that_does_not_compile_is_the_error():
    spec = _spec("superchess", "player dark: black, brown", "player dark: black, nobody")
    game = compile_variant(spec)   # the default mode compiles
    with pytest.raises(RulesError, match="unknown army or team 'nobody'"):
        check_game(game)


def test_a_variant_without_modes_has_none():
    checked = check_game(compile_variant(_spec("chess")))
    assert checked.modes == () and checked.lints == ()
