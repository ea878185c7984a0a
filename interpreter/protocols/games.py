"""Which compiled games UCI and XBoard can carry, and the table of the bundled ones.

Both protocols send a position as FEN and a move as its from- and
to-squares, and both know two sides, White and Black, moving in turn. A
game fits when its board is a full rectangle of squares named ``a1``,
``b1``, ... (no hex cells, no cut corners), it has two armies taking turns
one move each, and its positions need nothing FEN cannot write: no stacks
of pieces, no pieces facing a direction. XBoard also numbers the ranks of a
ten-rank board from 0 and has no names for more ranks, so it carries at
most ten.

Run as a program (``python -m interpreter.protocols.games``, or
``make protocol-variants``) it compiles every bundled variant and writes the
table :mod:`interpreter.protocols.variants` reads at start-up.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dsl.catalogue import bundled_names
from dsl.errors import UsageError

from interpreter.compiler.board import file_letter
from interpreter.compiler.game import Game
from interpreter.loading import load_game

from .variants import PROTOCOLS, TABLE, refusal

XBOARD_MOST_RANKS = 10


def why_not_carried(game: Game, protocol: str) -> str | None:
    """Why ``protocol`` (``uci`` or ``xboard``) cannot carry ``game``, or None when it can."""
    board = game.board
    generator = game.spec.board.generator if game.spec.board is not None else None
    if generator is not None and generator.kind == "hex":
        return "its cells are hexagons, and FEN and from-to moves name the squares of a rectangle"
    if board.levels > 1:
        return f"its board has {board.levels} levels, and FEN and from-to moves name the squares of one rectangle"
    if not board.rectangular:
        return (f"its board of {len(board)} cells is not a full rectangle "
                f"({board.files} x {board.ranks} would be {board.files * board.ranks})")
    if not board.square:
        return "its board has no ranks and files of squares"
    if any(name != f"{file_letter(x)}{y + 1}" for name, (x, y) in zip(board.names, board.coords)):
        return "its cells are not named by file letter and rank number (a1, b1, ...)"
    if len(game.armies) != 2 or len(game.turn_armies) != 2 or any(len(t) != 1 for t in game.turn_armies):
        return (f"it has {len(game.armies)} armies and {len(game.turn_armies)} turns a round "
                "(the protocols know White and Black, one move each in turn)")
    if game.stacking is not None:
        return "its pieces stack, and FEN has no place for a stack"
    if game.facing_codes:
        return "its pieces face directions, and FEN has no place for a facing"
    if game.neutral_move is not None:
        return ("its moves have a second part (a neutral piece's move), which this interpreter's protocol "
                "move forms do not carry yet")
    if protocol == "xboard" and board.ranks > XBOARD_MOST_RANKS:
        return f"its board has {board.ranks} ranks, and XBoard names at most {XBOARD_MOST_RANKS}"
    return None


def pocket_size(game: Game) -> int:
    """How many kinds of piece a hand may hold (0 without drops): the width of a GUI's holdings."""
    return len({game.code_kind[code] for code, cells in enumerate(game.drop_cells) if cells is not None})


def load_for_protocol(ref: str, protocol: str) -> Game:
    """The compiled game of ``ref`` (a bundled name or a path), or :class:`UsageError` saying why
    ``protocol`` cannot carry it (and the errors of :func:`load_game` for a bad file)."""
    game = load_game(ref)
    reason = why_not_carried(game, protocol)
    if reason is not None:
        raise UsageError(refusal(game.title or game.name, protocol, reason))
    return game


def carried_table() -> dict[str, dict[str, str | None]]:
    """protocol -> bundled name -> None or the reason it is not carried, from the compiled games."""
    games = {name: load_game(name) for name in bundled_names()}
    return {protocol: {name: why_not_carried(game, protocol) for name, game in games.items()} for protocol in PROTOCOLS}


def table_text() -> str:
    """The contents of the table file: :func:`carried_table` as indented JSON."""
    return json.dumps(carried_table(), indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m interpreter.protocols.games``: write the table beside this module (``--help``
    prints the usage)."""
    argparse.ArgumentParser(prog="python -m interpreter.protocols.games",
                            description=f"Write {TABLE} beside this module: for every bundled variant, "
                                        "what UCI and XBoard carry of it or why they refuse it.").parse_args(argv)
    path = Path(__file__).with_name(TABLE)
    path.write_text(table_text(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
