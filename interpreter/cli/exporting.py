"""``rules export fsf``: a variant as a section of Fairy-Stockfish's variants.ini
(:mod:`interpreter.interchange.fsf_export`)."""

from __future__ import annotations

from interpreter.interchange.fsf_export import fsf_section

from .common import game_of, write_text


def cmd_export_fsf(args) -> int:
    """Write the variant's variants.ini section to ``--output`` (default: standard output), named
    ``--name`` (default: the variant's name). A variant Fairy-Stockfish cannot express is refused with
    every construct in the way (a UsageError: exit status 2)."""
    write_text(args.output, fsf_section(game_of(args), args.name))
    return 0
