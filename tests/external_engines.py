"""What the tests of external engines as players share: the fake engines' seats, Fairy-Stockfish, a short game.

The fakes (``tests/data/engines/fake_uci.py``, ``fake_xboard.py``) misbehave on
purpose, by mode; Fairy-Stockfish is Debian's, skipped where it is not
installed and required under CI (``make engines`` installs it).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from interpreter.agents import Budget, parse_agent
from interpreter.agents.matches import play_game
from interpreter.agents.simple import RandomAgent
from interpreter.loading import load_game

ENGINES = Path(__file__).parent / "data" / "engines"
FAKES = {"uci": ENGINES / "fake_uci.py", "xboard": ENGINES / "fake_xboard.py"}
PROTOCOLS = tuple(FAKES)
FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


def fake_spec(protocol: str, mode: str, *words: str, options: str = ":time=0.2") -> str:
    """The seat of the fake engine of ``protocol`` in ``mode`` (``words``: its moves, and flags)."""
    return f"{protocol}:{shlex.join([sys.executable, str(FAKES[protocol]), mode, *words])}{options}"


def fairy_or_skip() -> None:
    if not os.path.exists(FAIRY):
        if os.environ.get("CI"):
            raise RuntimeError("fairy-stockfish is missing: 'make engines' installs it")
        pytest.skip("fairy-stockfish is not installed ('make engines' installs it)")


def short_game(variant: str, spec: str, plies: int = 40):
    """``(outcome, SANs, stats)`` of a game of ``plies`` at most between the engine of ``spec``
    (the first army) and a random player."""
    game = load_game(variant)
    parsed = parse_agent(spec)
    engine = parsed.make()
    try:
        return play_game(game, {game.turn_order[0]: (engine, parsed.budget),
                                game.turn_order[1]: (RandomAgent(7), Budget())}, max_plies=plies)
    finally:
        engine.close()
