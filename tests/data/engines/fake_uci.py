"""A UCI engine that misbehaves on purpose, for tests/test_external_engine.py.

    python fake_uci.py MODE [MOVE...]

It answers the handshake (``uci``: an ``id name``, a ``UCI_Variant`` combo
offering chess, ``uciok``; ``isready``: ``readyok``) and then, to each
``go``, by MODE: ``moves`` plays the MOVEs given, one per ``go``, in turn;
``slow`` takes the first MOVE as seconds to sleep before each answer, then
plays the other MOVEs as ``moves`` does; ``illegal`` answers MOVE[0] (meant
to be illegal); ``none`` answers ``bestmove (none)``; ``hang`` never
answers; ``exit`` exits with status 3, after writing a line to stderr.
With the environment variable ``FAKE_UCI_LOG`` set, every line it receives
is appended to that file.
"""

import os
import sys
import time

mode, moves = sys.argv[1], sys.argv[2:]
delay = float(moves.pop(0)) if mode == "slow" else 0.0
log = os.environ.get("FAKE_UCI_LOG")
played = 0
for line in sys.stdin:
    if log:
        with open(log, "a", encoding="utf-8") as out:
            out.write(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake", flush=True)
        print("option name UCI_Variant type combo default chess var chess var shogi", flush=True)
        print("option name Skill Level type spin default 20 min -20 max 20", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if mode == "hang":
            continue
        if mode == "exit":
            print("fake engine: giving up", file=sys.stderr, flush=True)
            sys.exit(3)
        time.sleep(delay)
        print("info depth 1 score cp 12 nodes 1 pv " + (moves[0] if moves else "a1a1"), flush=True)
        if mode == "none":
            print("bestmove (none)", flush=True)
        elif mode == "illegal":
            print(f"bestmove {moves[0]}", flush=True)
        else:
            print(f"bestmove {moves[played % len(moves)]}", flush=True)
            played += 1
    elif words[0] == "quit":
        break
