"""Computer players for every game the language describes, and games between them.

The interface (:mod:`.base`) is one call::

    from interpreter.agents import Budget, make_agent
    agent, budget = make_agent("ai:alphabeta:time=2")
    info = agent.choose(pos, budget, stop=event, on_info=callback)
    pos.push(info.move)

- ``pos`` is any position; the agent searches a copy and leaves it alone.
- ``budget`` (:class:`Budget`) bounds the search by ``time`` (seconds),
  ``nodes`` and ``depth`` (plies); the first limit reached ends it.
- ``stop`` (a :class:`threading.Event`), when set from another thread,
  ends the search at once with the best move found so far: a browser
  server abandons a search this way, a UCI ``stop`` likewise.
- ``on_info`` is called with a :class:`SearchInfo` after each completed
  iteration (each depth of alpha-beta, every 256 MCTS playouts): depth,
  seldepth, score (centipawns, or :attr:`SearchInfo.mate` plies),
  nodes, nps, time and the principal variation -- a UCI ``info`` line, or
  a thinking display.
- The result is a :class:`SearchInfo` too, with ``move`` set (None only
  when the game is over). Scores are for the side to move.
- For a node or depth budget (no time), a search is deterministic for the
  agent's seed: a game can be replayed move by move.

:func:`time_for_move` turns a clock (UCI's ``wtime``/``btime``,
``winc``/``binc``, ``movestogo``) into a time budget.

The agents: ``random``, ``greedy`` (:mod:`.simple`), ``alphabeta``
(:mod:`.alphabeta`: team search for two teams, paranoid for more) and
``mcts`` (:mod:`.mcts`), and ``uci:COMMAND`` (:mod:`.external`), an
external engine's process as a player; the searches are all on the generic evaluation of
:mod:`.evaluation`, which a rules file may tune with an ``ai`` block
(whose weights :mod:`.texel` fits to games, on the terms of :mod:`.terms`).
Specs in text (``ai:mcts:nodes=20000``, levels easy/medium/hard) are read
by :mod:`.specs`; :func:`match` (:mod:`.matches`) plays games between agents
on every core and tabulates them with Elo estimates (:mod:`.stats`).
"""

from __future__ import annotations

from .base import MATE, Agent, Budget, Forfeit, SearchInfo
from .clock import time_for_move
from .matches import MatchResult, match
from .specs import LEVELS, AgentSpec, parse_agent


def make_agent(text: str, seed: int = 0, level: str | None = None) -> tuple[Agent, Budget]:
    """An agent and its budget from a spec such as ``ai:alphabeta:time=2`` (see :mod:`.specs`)."""
    spec = parse_agent(text, level)
    return spec.make(seed), spec.budget


__all__ = ["MATE", "Agent", "AgentSpec", "Budget", "Forfeit", "LEVELS", "MatchResult", "SearchInfo", "make_agent", "match", "parse_agent",
           "time_for_move"]
