"""What the match scripts share: one game refereed by our rules, team points, and the line-speaking child
process of :mod:`interpreter.agents.process` (re-exported: ``LineProcess``, ``EngineFailure``).

Used by ``bench/agent_vs_agent.py`` (everything), ``bench/fsf_match.py`` (team points, the search
statistics: it plays through ``rules match``'s own game loop) and
``bench/hostile_attacks.py`` (the child process); scripts import it as ``bench.common`` after
putting the repository root on ``sys.path`` (see any of them).
Only the project's stable interfaces are used here: loading, positions, the outcome and the
from-to and SAN notations.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from typing import Callable

from interpreter.agents.process import EngineFailure, LineProcess  # noqa: F401  (re-exported to the scripts)
from interpreter.engine.outcome import outcome, ply_cap
from interpreter.loading import start_position
from interpreter.notation.san import move_to_san, move_to_uci


class Unscored(Exception):
    """A game that cannot be judged: a move our rules cannot read, a player that gave up or failed."""


@dataclass
class Played:
    """One game: how it ended (None when it could not be judged), the moves in from-to form and in
    SAN, and why it was left unscored."""

    result: object | None
    texts: list[str] = field(default_factory=list)
    sans: list[str] = field(default_factory=list)
    unscored: str | None = None

    @property
    def plies(self) -> int:
        return len(self.texts)


Chooser = Callable[[object, list, list], object]
"""``choose(pos, legal, texts)``: the move to play in ``pos`` (``legal``: its legal moves,
``texts``: the moves played so far, in from-to form, the opening's included). Raises
:class:`Unscored` to give the game up."""


def play_out(game, choose: Chooser, rng: random.Random, opening_plies: int, max_plies: int) -> Played:
    """Play a game of ``game`` from its start: ``opening_plies`` random moves, then ``choose``'s,
    judged by our rules; a game that reaches ``max_plies`` is drawn by adjudication. An only legal
    move is played without asking."""
    pos = start_position(game)
    played = Played(None)
    for ply in range(max_plies + 1):
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None or ply == max_plies:
            played.result = result or ply_cap(pos, max_plies)
            break
        try:
            move = rng.choice(legal) if ply < opening_plies else legal[0] if len(legal) == 1 else choose(pos, legal, played.texts)
        except (Unscored, EngineFailure) as err:
            played.unscored = str(err)
            break
        played.texts.append(move_to_uci(pos, move, legal=legal))
        played.sans.append(move_to_san(pos, move, legal=legal))
        pos.push(move)
    return played


def team_points(result, armies: set[int]) -> float:
    """The points (1, 1/2, 0) of the player of ``armies`` for a game that ended with ``result``: a win
    when only its armies (with their partners, who share the result) are among the winners, a loss
    when none is, a half point for a draw or a shared win."""
    winners = set(result.winners)
    if not winners:
        return 0.5
    mine = bool(winners & armies)
    return 1.0 if mine and not winners - armies else 0.0 if not mine else 0.5


def agent_stats(depths: list[int], nps: list[int]) -> str:
    """``depth D, N n/s``: the medians of a player's completed depths and nodes per second."""
    if not depths:
        return "no searches"
    return f"median depth {statistics.median(depths):g}, {statistics.median(nps):,.0f} n/s"
