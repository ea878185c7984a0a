"""Load a variant: find its rules file, compile it, and check its setup as a position.

:func:`load_game` is what every front end calls: a bundled name, an alias
or a path to a ``.rules`` file, a play mode and the runner's mode options
give a compiled :class:`~interpreter.compiler.game.Game`. Compiling checks
the file's names and tables; here the setup is also read as a whole position
(side to move, castling rights, en passant), so that a setup the engine
could not start from is an error at the setup's line in the rules file.
"""

from __future__ import annotations

from pathlib import Path

from dsl import spec as S
from dsl.errors import PositionError
from dsl.loader import load_spec

from interpreter.compiler.game import Game
from interpreter.compiler.setup import setup_error

from .positions import start_position


def compile_variant(spec: S.VariantSpec, mode: str | None = None, options: dict[str, str] | None = None) -> Game:
    """Compile a Spec in one of its play modes (default: the first), with the runner's mode
    ``options``. Raises RulesSemanticError / UnsupportedError / UsageError with source locations."""
    game = Game(spec, mode, options)
    try:
        start_position(game)
    except PositionError as err:
        raise setup_error(err, game.setup.loc) from None
    return game


_CACHE: dict[tuple, Game] = {}


def load_game(ref: str | Path, mode: str | None = None, options: dict[str, str] | None = None) -> Game:
    """Load and compile a variant by bundled name, alias or path (cached per file version, mode
    and options)."""
    spec = load_spec(ref)
    key = (spec.path or str(ref), Path(spec.path).stat().st_mtime if spec.path else 0.0, mode,
           tuple(sorted((options or {}).items())))
    if key not in _CACHE:
        _CACHE[key] = compile_variant(spec, mode, options)
    return _CACHE[key]
