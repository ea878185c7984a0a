"""The argument parser of the ``rules`` command: every subcommand, its options and its help.

Building the parser imports nothing but argparse, so ``rules --help`` and
every ``--help`` answer at once; each subcommand names the function that
runs it (``module:function``), which :mod:`interpreter.cli.main` imports
only when the command runs.
"""

from __future__ import annotations

import argparse

from dsl.errors import UsageError


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as UsageError (exit 2, no traceback)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message, hint=f"run '{self.prog} --help' for the usage")


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="VARIANT", help="a bundled variant name (see 'rules list') or a path to a .rules file")
    p.add_argument("--include-dir", metavar="DIR", action="append",
                   help="a directory whose rules files extends and include may read, besides the bundled ones "
                        "and the directory of VARIANT (may be repeated)")


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

    p = sub.add_parser("list", help="list the bundled variants", description="List the bundled variants with their titles.")
    p.set_defaults(command_function="interpreter.cli.listing:cmd_list")

    p = sub.add_parser("check", help="validate a rules file", description='Parse, validate and compile a rules file in every play mode; print a summary, notes and warnings.')
    _add_variant(p)
    p.set_defaults(command_function="interpreter.cli.commands:cmd_check")

    p = sub.add_parser("perft", help="count the leaves of the legal move tree", description='Count move-tree leaves; with --divide, per first move.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--depth", "-d", type=int, required=True, metavar="N", help="plies to search")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--json", action="store_true", help='print {"nodes": N, "seconds": S}')
    p.set_defaults(command_function="interpreter.cli.commands:cmd_perft")

    p = sub.add_parser("moves", help="list the legal moves of a position", description='List the legal moves of a position.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--json", action="store_true", help='print {"moves": [{"san", "uci", "from", "to"}, ...]}')
    p.set_defaults(command_function="interpreter.cli.commands:cmd_moves")

    p = sub.add_parser("play", help="play a game in the terminal", description='Play a game in the terminal.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--white", choices=["human", "random"], help="who plays White (default: human)")
    p.add_argument("--black", choices=["human", "random"], help="who plays Black (default: human)")
    p.add_argument("--seat", metavar="NAME=KIND", action="append",
                   help="who plays a player of the mode or an army: human or random, e.g. --seat north=random "
                        "(may be repeated; default: human)")
    p.add_argument("--seed", type=int, help="seed for the random player")
    p.add_argument("--pgn", metavar="FILE", help="save the game record to FILE when the game ends")
    p.set_defaults(command_function="interpreter.cli.commands:cmd_play")

    p = sub.add_parser("render", help="draw a position as SVG", description='Draw a position as SVG: the setup, or --fen / --moves, with optional highlights and arrows.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--highlight", metavar="CELLS", help='cells to highlight, e.g. "e4,d5"')
    p.add_argument("--arrows", metavar="ARROWS", help='arrows to draw, e.g. "e2e4,g1f3" (or e2-e4)')
    p.add_argument("--cell-names", action="store_true", help="write each cell's name inside it")
    p.add_argument("-o", "--output", metavar="FILE", help="the SVG file to write (default: standard output)")
    p.set_defaults(command_function="interpreter.cli.pictures:cmd_render")

    p = sub.add_parser("doc", help="write the rule documentation of a variant", description='Write the rule documentation of a variant: a Markdown or HTML page with SVG figures.')
    _add_variant(p)
    p.add_argument("-o", "--output", metavar="DIR", help="the directory to write (default: the variant's name)")
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    p.set_defaults(command_function="interpreter.cli.pictures:cmd_doc")
    return parser
