"""The check of ``rules check``, in one place: every play mode compiled, the board's notes, the lints.

:func:`check_game` is what the command, the language server (:mod:`interpreter.lsp.diagnostics`)
and the design page of ``rules serve`` report, so that the three say the same things about a file.
It starts from the game of the default mode, compiled by the caller (each caller compiles through
its own cache), and compiles every other play mode with the caller's ``compile_mode`` (so that
those games are cached as the caller's are). The first mode that does not compile stops it: its
RulesError propagates, as it stops the command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from interpreter.compiler.game import Game

from .games import compile_variant
from .lints import Lint, lints


@dataclass(frozen=True)
class GameCheck:
    """What ``rules check`` finds in a game that compiles.

    ``game`` is the default mode's game; ``modes`` the game of every play mode of the file, in the
    file's order (the default mode's is ``game`` itself; empty for a file that declares no mode);
    ``notes`` the board's notes (no location: they are about the whole board); ``lints`` the
    warnings (:mod:`.lints`), each located where the file allows it.
    """

    game: Game
    modes: tuple[Game, ...]
    notes: tuple[str, ...]
    lints: tuple[Lint, ...]


def check_game(game: Game, compile_mode: Callable[[str], Game] | None = None) -> GameCheck:
    """Check ``game`` as ``rules check`` does: compile each of its other play modes with
    ``compile_mode`` (a mode's name to its game; default: :func:`.games.compile_variant` of the
    game's spec, without mode options), read its board's notes, lint it. RulesError from the first
    mode that does not compile."""
    compile_mode = compile_mode or (lambda name: compile_variant(game.spec, name))
    modes = tuple(game if mode.name == game.mode else compile_mode(mode.name) for mode in game.spec.modes)
    return GameCheck(game, modes, tuple(game.board.diagnostics()), tuple(lints(game)))
