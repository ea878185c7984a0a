"""The ``rules`` command: one runner for every variant.

The parser (:mod:`interpreter.cli.arguments`) is built from argparse alone;
the module that runs the chosen subcommand is imported only then, so
``rules --help`` does not load the language's parser, the Spec models or
networkx. Bad input (a rules file, a position, a move, an argument) is
reported as ``file:line:col: message`` with the source line and a caret,
and the command exits 2; no traceback is shown for it.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Sequence

from dsl import caching
from dsl.errors import RulesError

from .arguments import build_parser

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rules`` command; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.no_cache:   # for this process and those it starts
            os.environ[caching.VARIABLE] = "off"
        module, _, function = args.command_function.partition(":")
        return getattr(import_module(module), function)(args)
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
