"""Run any game written in the .rules language: the public Python API.

::

    import interpreter

    game = interpreter.load_game("chess")             # bundled name, alias or path; mode=, options=
    pos = interpreter.start_position(game)            # or interpreter.position_from_fen(game, fen)
    for move in interpreter.legal_moves(pos)[:3]:
        print(interpreter.san(pos, move), interpreter.from_to(pos, move))
    pos.push(interpreter.parse_move(pos, "e4"))
    print(interpreter.fen(pos), interpreter.outcome(pos))
    pos.pop()
    assert interpreter.perft(pos, 3) == 8902

See ``docs/api.md``. Names are imported on first use, so ``import
interpreter`` is cheap; the packages below it hold the stages of the
pipeline: :mod:`interpreter.compiler`, :mod:`interpreter.engine`,
:mod:`interpreter.notation`, :mod:`interpreter.loading`,
:mod:`interpreter.drawing`, :mod:`interpreter.documentation` and the front
ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import native

native.choose()   # the compiled engine, or pure Python (RULES_DSL_PURE=1, not built, or stale): see native.py

if TYPE_CHECKING:
    from dsl.errors import IllegalMoveError, MoveError, PositionError, RulesError, RulesSemanticError, UsageError

    from .api import Move, fen, from_to, legal_moves, outcome, parse_move, perft, san
    from .compiler.game import Game
    from .engine.outcome import Outcome
    from .engine.position import Position
    from .loading import compile_variant, load_game, position_from_fen, start_position, starting_arrays

_LAZY = {
    "Move": "interpreter.api", "fen": "interpreter.api", "from_to": "interpreter.api",
    "legal_moves": "interpreter.api", "outcome": "interpreter.api", "parse_move": "interpreter.api",
    "perft": "interpreter.api", "san": "interpreter.api",
    "Game": "interpreter.compiler.game", "Outcome": "interpreter.engine.outcome",
    "Position": "interpreter.engine.position",
    "compile_variant": "interpreter.loading", "load_game": "interpreter.loading",
    "position_from_fen": "interpreter.loading", "start_position": "interpreter.loading",
    "starting_arrays": "interpreter.loading",
    "RulesError": "dsl.errors", "RulesSemanticError": "dsl.errors", "PositionError": "dsl.errors",
    "MoveError": "dsl.errors", "IllegalMoveError": "dsl.errors", "UsageError": "dsl.errors",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
