"""A UCI engine that misbehaves on purpose, for tests/test_external_engine.py.

    python fake_uci.py MODE [MOVE...] [-log=PATH]

It answers the handshake (``uci``: an ``id name``, a ``UCI_Variant`` combo
offering chess, ``uciok``; ``isready``: ``readyok``) and then, to each
``go``, by MODE: ``moves`` plays the MOVEs given (an illegal one among
them, say), one per ``go``, in turn; ``slow`` takes the first MOVE as
seconds to sleep before each answer, then plays the other MOVEs as
``moves`` does; ``none`` answers ``bestmove (none)``; ``hang`` never
answers; ``exit`` exits with status 3, after writing a line to stderr.
With ``-log=PATH`` every command it reads is appended to PATH.
"""

import sys
import time

args = [w for w in sys.argv[1:] if not w.startswith("-")]
flags = {w for w in sys.argv[1:] if w.startswith("-")}
log = next((open(w[5:], "a", encoding="utf-8") for w in flags if w.startswith("-log=")), None)
mode, moves = args[0], args[1:]
delay = float(moves.pop(0)) if mode == "slow" else 0.0
played = 0
for line in sys.stdin:
    if log is not None:
        print(line.strip(), file=log, flush=True)
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
        else:
            print(f"bestmove {moves[played % len(moves)]}", flush=True)
            played += 1
    elif words[0] == "quit":
        break
