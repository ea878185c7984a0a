"""The ``rules`` commands that draw: ``render`` (a position as SVG) and ``doc`` (the rule pages)."""

from __future__ import annotations

from pathlib import Path

from dsl import UsageError

from interpreter.documentation.pages import variant_files, write_files
from interpreter.drawing.render import arrows_from_text, cells_from_text, diagram_of, render_svg
from interpreter.loading import load_game

from .common import game_of, position_of, write_text


def cmd_render(args) -> int:
    """Draw a position as SVG: the setup, or --fen / --moves, with optional highlights and arrows."""
    game = game_of(args)
    pos = position_of(game, args)
    highlights = cells_from_text(game, args.highlight) if args.highlight else []
    arrows = arrows_from_text(game, args.arrows) if args.arrows else []
    svg = render_svg(game, diagram_of(pos, highlights, arrows), cell_names=args.cell_names, title=game.title)
    write_text(args.output, svg)
    return 0


def cmd_doc(args) -> int:
    """Write the rule documentation of a variant: a Markdown or HTML page with SVG figures."""
    game = load_game(args.variant)
    out = Path(args.output or game.name)
    try:
        written = write_files(variant_files(game, args.format), out)
    except OSError as err:
        raise UsageError(f"cannot write to {out}: {err.strerror}") from None
    print(f"wrote {len(written)} files to {out}")
    return 0
