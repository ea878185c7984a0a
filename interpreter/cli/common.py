"""What the commands of ``rules`` share: the variant and position their arguments name, and output files."""

from __future__ import annotations

import gc
import os
import sys
from typing import TextIO

from dsl import UsageError
from dsl.errors import clip
from dsl.files import FilePolicy

from interpreter.compiler.game import Game
from interpreter.engine.position import Position
from interpreter.loading import load_game, mode_options, position_from_fen, start_position
from interpreter.notation.reading import moves_from_text


def policy_of(args) -> FilePolicy:
    """The file policy of ``--include-dir``: the bundled files, the variant's own directory and
    the directories named (each must be an existing directory)."""
    directories = getattr(args, "include_dir", None) or []
    for directory in directories:
        if not os.path.isdir(directory):
            raise UsageError(f"--include-dir {clip(directory)!r} is not a directory",
                             expected="a directory that extends and include may read rules files from")
    return FilePolicy(directories=tuple(directories))


def game_of(args, mode: str | None = None) -> Game:
    """The variant of ``args``, compiled in its ``--mode`` (or ``mode``) with its ``--option``
    settings, reading files as ``--include-dir`` allows.

    Everything alive then is moved out of the garbage collector's sight (``gc.freeze``): a
    command's game lives as long as its process, and the collections that would otherwise walk
    the hundreds of thousands of objects just compiled or read (and the full one as Python exits)
    cost a quarter of a command's time (``rules moves chess``, ``rules check`` of Rocket, cold or
    warm). A long-running process that loads games again and again (the server) does not come
    here."""
    game = load_game(args.variant, mode or getattr(args, "mode", None), mode_options(getattr(args, "option", None)),
                     policy_of(args))
    gc.freeze()
    return game


def position_of(game: Game, args) -> Position:
    """The position of ``--fen`` or ``--array`` (default: the start), after the ``--moves``.
    An empty ``--fen`` or ``--moves`` is an error, not the same as leaving it out."""
    fen, moves = getattr(args, "fen", None), getattr(args, "moves", None)
    if fen is not None and getattr(args, "array", None) is not None:
        raise UsageError("--fen and --array cannot be used together")
    pos = position_from_fen(game, fen) if fen is not None else start_position(game, getattr(args, "array", None))
    if moves is not None:
        if not moves.strip():
            raise UsageError("--moves is empty", expected='moves such as "e4 e5 Nf3"', hint="or leave out --moves")
        moves_from_text(pos, moves)
    return pos


def write_text(path: str | None, text: str) -> None:
    """Write ``text`` to ``path``, or to standard output when ``path`` is None or '-'. A file that
    cannot be written is a UsageError (the command can simply be run again)."""
    if path in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except (OSError, ValueError) as err:
        raise UsageError(f"cannot write {clip(str(path))}: {_reason(err)}") from None


def keep_text(path: str, text: str, what: str, out: TextIO | None = None) -> bool:
    """Write ``text`` (``what``: e.g. "the game record") to ``path``; if that fails, print it to
    ``out`` (default: standard output) instead and say why on standard error, so that nothing is
    lost. Returns whether the file was written."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return True
    except (OSError, ValueError) as err:
        print(f"cannot write {what} to {clip(str(path))}: {_reason(err)}; here it is instead:", file=sys.stderr)
        out = out or sys.stdout
        out.write(text)
        out.flush()
        return False


def _reason(err: Exception) -> str:
    return (err.strerror if isinstance(err, OSError) and err.strerror else str(err)).lower()
