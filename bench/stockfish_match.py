"""Our alpha-beta agent against Stockfish at its weakest, in orthodox chess (not part of CI).

Run from the repository root (python-chess, the ``test`` extra, drives the engine; Stockfish
is the Debian package ``stockfish``: ``apt-get install stockfish``)::

    .venv/bin/python bench/stockfish_match.py                      # 20 games, 1 s a move each
    .venv/bin/python bench/stockfish_match.py --games 40 --agent ai:alphabeta:time=2 --pgn sf.pgn

Stockfish plays with ``UCI_LimitStrength`` on and ``UCI_Elo`` at its minimum (1350 for
Stockfish 15.1) unless ``--elo`` says otherwise, one thread, ``--sf-time`` seconds a move.
Colours alternate; each pair of games starts from the same ``--opening-plies`` random moves.
The games are judged by our rules file of chess (mate, stalemate, threefold repetition, the
fifty-move rule, insufficient material), and a game still running after ``--max-plies`` is a
draw. The script prints each game, the score and the Elo estimate: Stockfish's ``UCI_Elo``
plus the Elo difference of our score, with its 95% interval (``interpreter.agents.stats``).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys

import chess
import chess.engine

from dsl.errors import UsageError

from interpreter.agents import make_agent
from interpreter.agents.stats import estimate
from interpreter.engine.outcome import outcome
from interpreter.loading import load_game, start_fen, start_position
from interpreter.loading.records import RecordsFile, game_record
from interpreter.notation.reading import parse_move
from interpreter.notation.san import move_to_san, move_to_uci


def play_one(index: int, args, engine: chess.engine.SimpleEngine) -> tuple[float, str]:
    """Game ``index``: our points (1, 1/2, 0) and its record. We are White in even games."""
    game = load_game("chess")
    pos = start_position(game)
    board = chess.Board()
    agent, budget = make_agent(args.agent, seed=args.seed + index)
    ours = 0 if index % 2 == 0 else 1
    rng = random.Random(f"{args.seed}/{index // 2}")
    sans, result = [], None
    for ply in range(args.max_plies):
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None:
            break
        if ply < args.opening_plies:
            move = rng.choice(legal)
        elif pos.army == ours:
            move = agent.choose(pos, budget).move
        else:
            reply = engine.play(board, chess.engine.Limit(time=args.sf_time))
            move = parse_move(pos, reply.move.uci(), legal=legal)
        board.push(chess.Move.from_uci(move_to_uci(pos, move, legal=legal)))
        sans.append(move_to_san(pos, move, legal=legal))
        pos.push(move)
    points = 0.5 if result is None or not result.winners else (1.0 if ours in result.winners else 0.0)
    names = {"white": "rules-dsl " + args.agent, "black": f"Stockfish UCI_Elo {args.elo}"}
    if ours == 1:
        names = {"white": names["black"], "black": names["white"]}
    record = game_record(game, start_fen(game), sans, result, names,
                         {"Event": "rules-dsl against Stockfish", "Round": str(index + 1)})
    return points, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agent", default="ai:alphabeta:time=1", help="our agent (default ai:alphabeta:time=1)")
    parser.add_argument("--elo", type=int, default=None, help="Stockfish's UCI_Elo (default: its minimum)")
    parser.add_argument("--sf-time", type=float, default=1.0, help="Stockfish's seconds a move (default 1)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pgn", help="write the game records to this file (each as its game ends)")
    args = parser.parse_args(argv)
    try:
        records = RecordsFile(args.pgn)    # an unwritable path fails before any game
    except UsageError as err:
        parser.error(str(err))
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        option = engine.options["UCI_Elo"]
        args.elo = option.min if args.elo is None else args.elo
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": args.elo, "Threads": 1})
        print(f"{engine.id.get('name')} at UCI_Elo {args.elo}, {args.sf_time} s a move; us: {args.agent}")
        points: list[float] = []
        for i in range(args.games):
            p, record = play_one(i, args, engine)
            points.append(p)
            records.add(record)
            last = record.strip().split()[-1]
            print(f"game {i + 1:>3}: we play {'White' if i % 2 == 0 else 'Black'}, {last}, "
                  f"our points {p}  (total {sum(points)}/{len(points)})", flush=True)
    finally:
        engine.quit()
        records.close()
    est = estimate(points)
    wins, losses = points.count(1.0), points.count(0.0)
    print(f"score {sum(points)}/{len(points)} ({100 * est.score:.1f}%): +{wins} ={len(points) - wins - losses} "
          f"-{losses}; Elo difference {est}; estimate {args.elo + est.difference:.0f} "
          f"[{args.elo + est.low:.0f}, {args.elo + est.high:.0f}] on Stockfish's UCI_Elo scale")
    return 0


if __name__ == "__main__":
    sys.exit(main())
