"""The ``rules`` command: one runner for every variant.

Subcommands share option names: ``VARIANT`` is a bundled name (``rules
list``), an alias or a path to a ``.rules`` file; ``--fen`` starts from a
position instead of the variant's setup; ``--moves "e4 e5 Nf3"`` then plays
moves (SAN or from-to) first, like UCI's ``position ... moves ...``.

Bad input (a rules file, a position, a move, an argument) is reported as
``file:line:col: message`` with the source line and a caret, and the
command exits 2; no traceback is shown for it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence

from dsl import RulesError, UsageError, bundled_names, load_spec

from interpreter.compiler.game import Game
from interpreter.loading import load_game
from interpreter.engine.position import Position
from interpreter.loading import position_from_fen, start_position

EXIT_OK, EXIT_BAD_INPUT = 0, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as UsageError (exit 2, no traceback)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message, hint=f"run '{self.prog} --help' for the usage")


def _game(args) -> Game:
    """The variant of ``args``, compiled in its ``--mode`` with its ``--option`` settings."""
    options = {}
    for text in getattr(args, "option", None) or []:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise UsageError(f"--option {text!r} is not NAME=VALUE", hint="e.g. --option solo=light")
        options[name] = value
    return load_game(args.variant, getattr(args, "mode", None), options)


def _start(game: Game, args) -> Position:
    if getattr(args, "fen", None) and getattr(args, "array", None) is not None:
        raise UsageError("--fen and --array cannot be used together")
    pos = position_from_fen(game, args.fen) if getattr(args, "fen", None) else start_position(game, getattr(args, "array", None))
    if getattr(args, "moves", None):
        from interpreter.notation.notation import moves_from_text
        moves_from_text(pos, args.moves)
    return pos


# ---------------------------------------------------------------- commands


def cmd_list(args) -> int:
    """List the bundled variants with their titles."""
    for name in bundled_names():
        spec = load_spec(name)
        aliases = f" (also: {', '.join(spec.aliases)})" if spec.aliases else ""
        print(f"{name:<16} {spec.title}{aliases}")
    return EXIT_OK


def cmd_check(args) -> int:
    """Parse, validate and compile a rules file; print a one-line summary."""
    game = load_game(args.variant)
    print(f"ok  {game.summary()}")
    for note in game.board.diagnostics():
        print(f"note: {note}")
    return EXIT_OK


def cmd_perft(args) -> int:
    """Count move-tree leaves; with --divide, per first move."""
    from interpreter.notation.notation import move_to_uci
    from interpreter.engine.perft import divide, perft
    game = _game(args)
    pos = _start(game, args)
    if args.depth < 0:
        raise UsageError(f"--depth must be at least 0, not {args.depth}")
    started = time.perf_counter()
    if args.divide:
        legal = pos.legal_moves()
        rows = [(move_to_uci(pos, m, legal=legal), n) for m, n in divide(pos, args.depth)] if args.depth > 0 else []
        nodes = sum(n for _, n in rows) if args.depth > 0 else 1
    else:
        rows, nodes = [], perft(pos, args.depth)
    seconds = time.perf_counter() - started
    if args.json:
        result = {"nodes": nodes, "seconds": round(seconds, 6)}
        if args.divide:
            result["divide"] = dict(rows)
        print(json.dumps(result))
        return EXIT_OK
    for text, n in sorted(rows):
        print(f"{text}: {n}")
    if rows:
        print()
    rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
    print(f"nodes {nodes}  ({seconds:.3f} s{rate})")
    return EXIT_OK


def cmd_moves(args) -> int:
    """List the legal moves of a position."""
    from interpreter.notation.notation import legal_move_table
    game = _game(args)
    pos = _start(game, args)
    table = legal_move_table(pos)
    if args.json:
        print(json.dumps({"moves": table}))
    else:
        print(" ".join(row["san"] for row in table) if table else "(no legal moves)")
    return EXIT_OK


def cmd_play(args) -> int:
    """Play a game in the terminal."""
    from .play import play
    game = _game(args)
    pos = _start(game, args)
    return play(game, pos, _seats(game, args), seed=args.seed, record_path=args.pgn)


def _seats(game: Game, args) -> dict[int, str]:
    """Army index -> 'human' or 'random', from ``--seat NAME=KIND`` (a player of the mode or an
    army) and the ``--white`` / ``--black`` shortcuts; human by default."""
    seats = {army.index: "human" for army in game.armies}
    given = [("white", args.white), ("black", args.black)]
    for text in args.seat or []:
        name, _, kind = text.partition("=")
        given.append((name, kind))
    for name, kind in given:
        if kind is None:
            continue
        if kind not in ("human", "random"):
            raise UsageError(f"seat {name}={kind}: a seat is 'human' or 'random'")
        armies = game.players.get(name) or ([game.army_index[name]] if name in game.army_index else None)
        if armies is None:
            raise UsageError(f"no player or army '{name}' in {game.name}" + (f" ({game.mode})" if game.mode else ""),
                             expected=", ".join(list(game.players) + [a.name for a in game.armies
                                                                      if a.name not in game.players]))
        for army in armies:
            seats[army] = kind
    return seats


def cmd_render(args) -> int:
    """Draw a position as SVG: the setup, or --fen / --moves, with optional highlights and arrows."""
    from interpreter.drawing.render import arrows_from_text, cells_from_text, diagram_of, render_svg
    game = _game(args)
    pos = _start(game, args)
    highlights = cells_from_text(game, args.highlight) if args.highlight else []
    arrows = arrows_from_text(game, args.arrows) if args.arrows else []
    svg = render_svg(game, diagram_of(pos, highlights, arrows), cell_names=args.cell_names, title=game.title)
    _write_text(args.output, svg)
    return EXIT_OK


def cmd_doc(args) -> int:
    """Write the rule documentation of a variant: a Markdown or HTML page with SVG figures."""
    from pathlib import Path
    from interpreter.documentation.pages import variant_files, write_files
    game = load_game(args.variant)
    out = Path(args.output or game.name)
    try:
        written = write_files(variant_files(game, args.format), out)
    except OSError as err:
        raise UsageError(f"cannot write to {out}: {err.strerror}") from None
    print(f"wrote {len(written)} files to {out}")
    return EXIT_OK


def _write_text(path: str | None, text: str) -> None:
    """Write ``text`` to ``path``, or to standard output when ``path`` is None or '-'."""
    if path in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None


# ---------------------------------------------------------------- parser


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="VARIANT", help="a bundled variant name (see 'rules list') or a path to a .rules file")


def _add_position(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fen", metavar="FEN", help="start from this position instead of the variant's setup")
    p.add_argument("--moves", metavar="MOVES", help='moves to play first, e.g. "e4 e5 Nf3" or "e2e4 e7e5"')
    p.add_argument("--array", metavar="N", type=int,
                   help="start from starting array N of a variant with shuffled setups (chess960: 0-959)")
    p.add_argument("--mode", metavar="MODE", help="the play mode of a variant that has several (superchess: 2p, 3p, 4p)")
    p.add_argument("--option", metavar="NAME=VALUE", action="append",
                   help="a setting of the mode, e.g. --option solo=light (superchess 3p); may be repeated")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rules", description="Run, test and document chess-family games written in the .rules language.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("list", help="list the bundled variants", description=cmd_list.__doc__)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", help="validate a rules file", description=cmd_check.__doc__)
    _add_variant(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("perft", help="count the leaves of the legal move tree", description=cmd_perft.__doc__)
    _add_variant(p)
    _add_position(p)
    p.add_argument("--depth", "-d", type=int, required=True, metavar="N", help="plies to search")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--json", action="store_true", help='print {"nodes": N, "seconds": S}')
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("moves", help="list the legal moves of a position", description=cmd_moves.__doc__)
    _add_variant(p)
    _add_position(p)
    p.add_argument("--json", action="store_true", help='print {"moves": [{"san", "uci", "from", "to"}, ...]}')
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("play", help="play a game in the terminal", description=cmd_play.__doc__)
    _add_variant(p)
    _add_position(p)
    p.add_argument("--white", choices=["human", "random"], help="who plays White (default: human)")
    p.add_argument("--black", choices=["human", "random"], help="who plays Black (default: human)")
    p.add_argument("--seat", metavar="NAME=KIND", action="append",
                   help="who plays a player of the mode or an army: human or random, e.g. --seat north=random "
                        "(may be repeated; default: human)")
    p.add_argument("--seed", type=int, help="seed for the random player")
    p.add_argument("--pgn", metavar="FILE", help="save the game record to FILE when the game ends")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("render", help="draw a position as SVG", description=cmd_render.__doc__)
    _add_variant(p)
    _add_position(p)
    p.add_argument("--highlight", metavar="CELLS", help='cells to highlight, e.g. "e4,d5"')
    p.add_argument("--arrows", metavar="ARROWS", help='arrows to draw, e.g. "e2e4,g1f3" (or e2-e4)')
    p.add_argument("--cell-names", action="store_true", help="write each cell's name inside it")
    p.add_argument("-o", "--output", metavar="FILE", help="the SVG file to write (default: standard output)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("doc", help="write the rule documentation of a variant", description=cmd_doc.__doc__)
    _add_variant(p)
    p.add_argument("-o", "--output", metavar="DIR", help="the directory to write (default: the variant's name)")
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    p.set_defaults(func=cmd_doc)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rules`` command; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
