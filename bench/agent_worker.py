"""One agent of ``bench/agent_vs_agent.py``, in its own process, speaking a tiny line protocol.

Started by that script as ``python bench/agent_worker.py --variant NAME [--mode MODE] --agent
SPEC [--time S | --nodes N]`` with ``PYTHONPATH`` set to the tree whose agent it runs (this
file imports nothing of the tree it lies in: the ``interpreter`` and ``dsl`` packages come
from that path, so one file serves every commit). Only long-standing interfaces are used:
``load_game``, ``position_from_fen``, ``parse_agent``, ``Budget``, ``agent.choose``,
``parse_move`` and ``move_to_uci``.

After loading the variant it says ``ready PATH ENGINE`` (the directory of the ``interpreter``
package it imported, and pure Python or compiled). Then, a line each:

- ``newgame SEED``: a new agent with that seed; answers ``ok``;
- ``position FEN [moves M1 M2 ...]``: the position (the moves in from-to form, played from
  ``FEN``; a line that extends the previous one only plays the new moves); answers ``ok``;
- ``go``: answers ``bestmove MOVE depth D nodes N time T`` (``bestmove (none)`` when there is no
  move), the move in from-to form;
- ``quit``.

A command that fails is answered with ``error MESSAGE`` (one line), and the worker goes on.
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--agent", default="ai:alphabeta")
    parser.add_argument("--time", type=float, default=None, help="seconds a move (replaces the spec's budget)")
    parser.add_argument("--nodes", type=int, default=None, help="nodes a move (replaces the spec's budget)")
    args = parser.parse_args(argv)

    import interpreter
    from interpreter.agents import Budget, parse_agent
    from interpreter.loading import load_game, position_from_fen
    from interpreter.notation.reading import parse_move
    from interpreter.notation.san import move_to_uci

    try:
        from interpreter import native
        engine = native.status
    except ImportError:
        engine = "pure Python (no interpreter.native)"
    game = load_game(args.variant, args.mode)
    spec = parse_agent(args.agent)
    budget = Budget(time=args.time) if args.time else Budget(nodes=args.nodes) if args.nodes else spec.budget
    agent = spec.make(0)
    start, played, pos = None, [], None
    print(f"ready {os.path.dirname(interpreter.__file__)} {engine}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                break
            if words[0] == "newgame":
                agent = spec.make(int(words[1]))
                agent.new_game()
                answer = "ok"
            elif words[0] == "position":
                fen, _, moves = line.strip()[len("position "):].partition(" moves ")
                texts = moves.split()
                if pos is None or fen != start or texts[:len(played)] != played:
                    start, played, pos = fen, [], position_from_fen(game, fen)
                for text in texts[len(played):]:
                    pos.push(parse_move(pos, text))
                    played.append(text)
                answer = "ok"
            elif words[0] == "go":
                info = agent.choose(pos, budget)
                move = "(none)" if info.move is None else move_to_uci(pos, info.move)
                answer = f"bestmove {move} depth {info.depth} nodes {info.nodes} time {info.time:.3f}"
            else:
                answer = f"error unknown command {words[0]!r}"
        except Exception as err:  # noqa: BLE001 -- any failure is an answer, the referee decides
            start, played, pos = None, [], None
            answer = "error " + " ".join(f"{type(err).__name__}: {err}".split())
        print(answer, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
