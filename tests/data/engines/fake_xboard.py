"""An XBoard (CECP v2) engine that misbehaves on purpose, for tests/test_external_engine.py and test_xboard_engine.py.

    python fake_xboard.py MODE [MOVE...] [-noping] [-nosetboard] [-nousermove] [-nonps] [-notime] [-nodone]
                          [-log=PATH]

It answers ``protover 2`` with ``feature done=0``, its features (``myname="Fake
XBoard"``, ``variants="normal,shogi"``, ``san=1``, ``ping``, ``setboard``,
``usermove``, ``nps`` and ``time`` as the flags leave them, an option ``Skill``) and
``feature done=1`` (with ``-nodone``, neither ``done``); ``ping N`` with ``pong N``; with ``-nonps``, ``nps`` with
an ``Error``. To each ``go``, by MODE: ``moves`` plays the MOVEs given (an
illegal one among them, say), one per ``go``, in turn, after a line of
thinking output (``1 12 0 1<tab>MOVE``, or ``3 100002 ...``, a mate in 2,
for the mode ``mate``); ``slow`` takes the first MOVE as seconds to sleep
before each answer, then plays the other MOVEs as ``moves`` does; ``hang``
never answers; ``exit`` exits with status 3,
after writing a line to stderr; ``resign`` resigns; ``claim`` claims a draw;
``usererror`` answers ``tellusererror``. In the mode ``refuse`` it answers
every move it is given with ``Illegal move``. With ``-log=PATH`` every
command it reads is appended to PATH.
"""

import sys
import time

words = [w for w in sys.argv[1:] if not w.startswith("-")]
flags = {w for w in sys.argv[1:] if w.startswith("-")}
log = next((open(w[5:], "a", encoding="utf-8") for w in flags if w.startswith("-log=")), None)
mode, moves = words[0], words[1:]
delay = float(moves.pop(0)) if mode == "slow" else 0.0
played = 0


def say(line: str) -> None:
    print(line, flush=True)


for line in sys.stdin:
    line = line.strip()
    if log is not None:
        print(line, file=log, flush=True)
    command, _, rest = line.partition(" ")
    if command == "protover":
        if "-nodone" not in flags:
            say("feature done=0")
        say(f'feature myname="Fake XBoard" variants="normal,shogi" san=1 ping={int("-noping" not in flags)} '
            f'setboard={int("-nosetboard" not in flags)} usermove={int("-nousermove" not in flags)} '
            f'nps={int("-nonps" not in flags)} time={int("-notime" not in flags)}')
        say('feature option="Skill -spin 10 0 20"')
        if "-nodone" not in flags:
            say("feature done=1")
    elif command == "ping":
        say(f"pong {rest}")
    elif command == "nps" and "-nonps" in flags:
        say("Error (unknown command): nps")
    elif command == "usermove" and mode == "refuse":
        say(f"Illegal move: {rest}")
    elif command == "go":
        if mode == "hang":
            continue
        if mode == "exit":
            print("fake engine: giving up", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "resign":
            say("resign")
        elif mode == "claim":
            say("1/2-1/2 {Draw by repetition}")
        elif mode == "usererror":
            say("tellusererror Illegal position: no king")
        else:
            time.sleep(delay)
            move = moves[played % len(moves)]
            played += 1
            say(f"{'3 100002' if mode == 'mate' else '1 12'} 0 1\t{move}")
            say(f"move {move}")
    elif command == "quit":
        break
