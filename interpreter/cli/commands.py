"""The commands of the ``rules`` runner that check, count and play a variant.

``check``, ``perft``, ``moves`` and ``play``;
each ``cmd_*`` takes the parsed arguments (see :mod:`interpreter.cli.arguments`)
and returns the exit status. Options shared by commands: ``VARIANT`` is a
bundled name, an alias or a path to a ``.rules`` file; ``--fen`` starts from
a position instead of the variant's setup; ``--moves "e4 e5 Nf3"`` then
plays moves (SAN or from-to) first, like UCI's ``position ... moves ...``.
"""

from __future__ import annotations

import json
import time

from interpreter import native
from interpreter.engine.perft import divide, perft
from interpreter.loading.checking import check_game
from interpreter.notation.san import legal_move_table, move_to_uci

from .common import game_of, position_of


def cmd_check(args) -> int:
    """Parse, validate and compile a rules file in every play mode; print a summary, the notes
    on its board and its warnings (:func:`interpreter.loading.checking.check_game`)."""
    checked = check_game(game_of(args), lambda mode: game_of(args, mode))
    print(f"ok  {checked.game.summary()}")
    for played in checked.modes:
        players = ", ".join(f"{name} ({'+'.join(played.armies[a].name for a in armies)})"
                            for name, armies in played.players.items())
        print(f"ok  mode {played.mode}: {players}")
    for note in checked.notes:
        print(f"note: {note}")
    for lint in checked.lints:
        print(lint.render())
    return 0


def cmd_perft(args) -> int:
    """Count move-tree leaves; with --divide, per first move; with --full, every leaf move is made
    and unmade (to time make/unmake), else the last ply is only counted (bulk counting)."""
    game = game_of(args)
    pos = position_of(game, args)
    bulk = not args.full
    started = time.perf_counter()
    if args.divide:
        legal = pos.legal_moves()
        rows = ([(move_to_uci(pos, m, legal=legal), n) for m, n in divide(pos, args.depth, bulk)]
                if args.depth > 0 else [])
        nodes = sum(n for _, n in rows) if args.depth > 0 else 1
    else:
        rows, nodes = [], perft(pos, args.depth, bulk)
    seconds = time.perf_counter() - started
    if args.json:
        result = {"nodes": nodes, "seconds": round(seconds, 6), "full": args.full, "compiled": native.in_use()}
        if args.divide:
            result["divide"] = dict(rows)
        print(json.dumps(result))
        return 0
    for text, n in sorted(rows):
        print(f"{text}: {n}")
    if rows:
        print()
    rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
    print(f"nodes {nodes}  ({seconds:.3f} s{rate})")
    return 0


def cmd_moves(args) -> int:
    """List the legal moves of a position."""
    game = game_of(args)
    pos = position_of(game, args)
    table = legal_move_table(pos)
    if args.json:
        print(json.dumps({"moves": table}))
    else:
        print(" ".join(row["san"] for row in table) if table else "(no legal moves)")
    return 0


def cmd_play(args) -> int:
    """Play a game in the terminal."""
    from interpreter.agents.clock import parse_time_control   # the agents: for this command only
    from .computer import seats
    from .play import play
    clock = parse_time_control(args.clock) if args.clock is not None else None
    game = game_of(args)
    pos = position_of(game, args)
    return play(game, pos, seats(game, args), seed=args.seed, record_path=args.pgn, max_plies=args.max_plies,
                clock=clock, ponder=args.ponder)

