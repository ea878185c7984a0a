"""What the commands of ``rules`` share: the variant and position their arguments name, and output files."""

from __future__ import annotations

import sys

from dsl import UsageError

from interpreter.compiler.game import Game
from interpreter.engine.position import Position
from interpreter.loading import load_game, mode_options, position_from_fen, start_position
from interpreter.notation.reading import moves_from_text


def game_of(args) -> Game:
    """The variant of ``args``, compiled in its ``--mode`` with its ``--option`` settings."""
    return load_game(args.variant, getattr(args, "mode", None), mode_options(getattr(args, "option", None)))


def position_of(game: Game, args) -> Position:
    """The position of ``--fen`` or ``--array`` (default: the start), after the ``--moves``."""
    if getattr(args, "fen", None) and getattr(args, "array", None) is not None:
        raise UsageError("--fen and --array cannot be used together")
    pos = position_from_fen(game, args.fen) if getattr(args, "fen", None) else start_position(game, getattr(args, "array", None))
    if getattr(args, "moves", None):
        moves_from_text(pos, args.moves)
    return pos


def write_text(path: str | None, text: str) -> None:
    """Write ``text`` to ``path``, or to standard output when ``path`` is None or '-'."""
    if path in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None
