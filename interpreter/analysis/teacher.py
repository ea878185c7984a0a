"""A teacher for ``rules tune --teacher``: positions labelled by a stronger search's score, not by their games' results.

Texel's method labels each quiet position with its game's result, the same
for every position of a game however it went: from a few hundred games of
a weak agent that is a faint signal (docs/agents.md: 200 self-play games
of chess hardly move the weights). A teacher is a deeper search, or a
stronger engine, that scores each position; the label is the result that
score predicts for the side to move, on the Elo scale's logistic (the
score read as an Elo difference, :func:`interpreter.agents.stats.expected`)::

    1 / (1 + 10 ** (-score / 400))        # 100 centipawns ahead: 0.640

and 1 or 0 where the teacher finds a forced win or loss. The fit is then
Texel's method on the teacher's evaluations: K is fitted as before (it says
how our centipawns compare with the teacher's), and a game without a result
gives positions too. The labels are the teacher's, so the fitted weights
are worth what its scores are (a fixed depth is the usual budget: the same
labels on every machine).

A teacher is an agent that searches and scores (:data:`KINDS`): the
alpha-beta agent (``ai:alphabeta:depth=6``: for any game, a deeper look
than the agent that will play with the weights) or an external engine
(``uci:/usr/games/stockfish:depth=12``, ``uci:/usr/games/fairy-stockfish``
for the variants it knows), never with a noisy ``level=ELO``. Only games
of two teams are taught: a score for the side to move is a result for its
team against the other one.
"""

from __future__ import annotations

from dsl import UsageError
from dsl.errors import clip
from dsl.loader import DEFAULT_POLICY

from interpreter.agents import parse_agent
from interpreter.agents.base import Forfeit, SearchInfo
from interpreter.agents.stats import expected

KINDS = ("alphabeta", "uci", "xboard")
"""The agents that can teach: searches that report a score for the side to move."""


def label(info: SearchInfo) -> float:
    """The expected result for the side to move of a teacher's search ``info``: 1 or 0 for a forced
    win or loss, else the logistic of its score (see the module's docstring)."""
    if info.mate is not None:
        return 1.0 if info.mate > 0 else 0.0
    return expected(info.score)


class Teacher:
    """The agent of a ``--teacher`` spec, checked before anything is played (:meth:`__init__` raises a
    UsageError for an agent that cannot teach, or a game of more than two teams); :meth:`label`
    scores positions of one game after another (:meth:`new_game` between games), :meth:`close`
    stops an engine."""

    def __init__(self, text: str, game) -> None:
        self.spec = parse_agent(text, files=DEFAULT_POLICY)
        if self.spec.kind not in KINDS:
            raise UsageError(f"--teacher {clip(text, 60)!r}: a {self.spec.kind} agent gives no score to learn from",
                             expected="ai:alphabeta:depth=N, or an engine (uci:COMMAND, xboard:COMMAND)")
        if self.spec.elo is not None:
            raise UsageError(f"--teacher {clip(text, 60)!r}: a level in Elo plays with noise, which would be learnt",
                             hint="give the teacher a depth or nodes budget: ai:alphabeta:depth=6")
        if len(game.teams) != 2:
            raise UsageError(f"--teacher: {game.name} has {len(game.teams)} teams, and a teacher's score is for one "
                             "side against the other", hint="tune a game of more teams on its games' results")
        self.agent = self.spec.make()

    def new_game(self) -> None:
        self.agent.new_game()

    def label(self, pos, where: str) -> float:
        """The label of ``pos`` (see :func:`label`); ``where`` names the position in an error (a game
        and a ply). An engine that fails (exits, hangs, answers an illegal move) is a UsageError."""
        try:
            return label(self.agent.choose(pos, self.spec.budget))
        except Forfeit as err:
            raise UsageError(f"the teacher {clip(self.spec.label, 60)} failed at {where}: {err}",
                             hint="check the engine's command and that it plays this variant") from None

    def close(self) -> None:
        self.agent.close()
