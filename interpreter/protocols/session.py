"""The game a protocol plays: the variant, its start, the moves since, and the agent that searches it.

Both protocols keep the same state: a compiled game (refused with the
reason when the protocol cannot carry it, see
:mod:`~interpreter.protocols.games`), the position the game started from,
the moves played since and the position they lead to. Moves are read and
written in the protocol's :class:`~interpreter.notation.dialects.Dialect`.

The agent is made from a spec such as ``ai`` or ``ai:mcts:nodes=20000``
(:func:`interpreter.agents.make_agent`); its budget is what a search spends
when the GUI gives no limit. Searches run on a copy of the position, so the
protocol may keep reading commands while one runs; :meth:`Session.job`
wraps one in a :class:`~interpreter.protocols.loop.SearchJob`.
"""

from __future__ import annotations

import threading
from typing import Callable

from dsl.limits import SEARCH_DEPTH

from interpreter.agents import Budget, SearchInfo, make_agent, time_for_move
from interpreter.compiler.game import Game
from interpreter.engine.moves import Move
from interpreter.engine.outcome import outcome
from interpreter.engine.position import Position
from interpreter.loading import position_from_fen, start_fen, start_position
from interpreter.notation.dialects import Dialect

from .games import load_for_protocol
from .loop import SearchJob, check_agent

LONGEST = 10**9          # seconds: a search that only ``stop`` ends
LEAST_TIME = 0.01        # seconds: the least a move is given after the overhead is taken off


class Session:
    """One game between a GUI and the engine, in ``protocol`` (``uci`` or ``xboard``)."""

    def __init__(self, protocol: str, agent_spec: str = "ai") -> None:
        self.protocol = protocol
        self.chess960 = False
        self.game: Game | None = None
        self.ref: str | None = None
        self.set_agent(agent_spec)

    # ------------------------------------------------------------ the agent
    def set_agent(self, spec: str) -> None:
        """Use the agent of ``spec`` from now on (raises UsageError for a bad spec: see :func:`check_agent`)."""
        check_agent(spec)
        self.agent, self.budget = make_agent(spec)
        self.agent_spec = spec

    def new_game(self) -> None:
        """Forget what the agent learnt in earlier games, and start the game afresh."""
        self.agent.new_game()
        if self.game is not None:
            self.set_start(None)

    # ------------------------------------------------------------ variant and position
    def load(self, ref: str) -> Game:
        """Compile the variant ``ref`` for this protocol and start a game of it (the errors of
        :func:`~interpreter.protocols.games.load_for_protocol` leave the session as it was)."""
        game = load_for_protocol(ref, self.protocol)
        self.game, self.ref = game, ref
        self.set_start(None)
        return game

    @property
    def dialect(self) -> Dialect:
        assert self.game is not None
        return Dialect.of(self.game, self.protocol, self.chess960)

    def set_start(self, fen: str | None) -> None:
        """Start from ``fen`` (None: the variant's setup) with no moves played. Raises PositionError
        for a bad FEN and leaves the session as it was."""
        assert self.game is not None
        start = position_from_fen(self.game, fen) if fen else start_position(self.game)
        self.start, self.start_text = start, fen
        self.pos, self.moves, self.texts = start.copy(), [], []

    def set_position(self, fen: str | None, texts: list[str]) -> None:
        """UCI's ``position``: the start ``fen`` (None: the setup) and the moves ``texts`` from it.
        When it continues the position set last (same start, its moves first), only the new moves
        are read. Raises PositionError / MoveError at the first bad part; the moves before a bad move
        stay played."""
        if self.game is None or fen != self.start_text or texts[:len(self.texts)] != self.texts:
            self.set_start(fen)
        for text in texts[len(self.texts):]:
            self.play(text)

    def play(self, text: str) -> Move:
        """Read ``text`` as a move of the position and play it (MoveError / IllegalMoveError if it
        is not one)."""
        legal = self.pos.legal_moves()
        move = self.dialect.read(self.pos, text, legal)
        self.push(move)
        self.texts.append(text)
        return move

    def push(self, move: Move) -> None:
        self.pos.push(move)
        self.moves.append(move)

    def undo(self) -> bool:
        """Take back the last move (False when none was played)."""
        if not self.moves:
            return False
        self.pos.pop()
        self.moves.pop()
        if self.texts:
            self.texts.pop()
        return True

    def write(self, move: Move) -> str:
        """The protocol's text of ``move``, a legal move of the position."""
        return self.dialect.write(self.pos, move)

    def start_fen(self) -> str:
        assert self.game is not None
        return start_fen(self.game)

    def outcome(self):
        """How the game has ended (an :class:`~interpreter.engine.outcome.Outcome`), or None."""
        return outcome(self.pos, self.pos.legal_moves())

    # ------------------------------------------------------------ searching
    def job(self, budget: Budget, on_info: Callable[[SearchInfo, Position], None] | None, tag=None) -> SearchJob:
        """A search of the position within ``budget``; ``on_info(info, root)`` is called from the
        search thread after each iteration. The job's result is a :class:`SearchInfo` whose move is
        None only when the side to move has no legal move; when the game is already over by a rule
        (a repetition, say) but moves remain, the first of them is given, as a GUI still wants one."""
        root, agent = self.pos.copy(), self.agent
        report = None if on_info is None else (lambda info: on_info(info, root))

        def choose(stop: threading.Event) -> SearchInfo:
            info = agent.choose(root, budget, stop=stop, on_info=report)
            if info.move is None:
                legal = root.legal_moves()
                if legal:
                    info.move, info.pv = legal[0], (legal[0],)
            return info

        return SearchJob(choose, tag, root)


def move_seconds(remaining: float, increment: float, moves_to_go: int | None,
                 overhead: float) -> tuple[float, float]:
    """The most and the deserved seconds for one move from a game clock (the budget's ``time`` and
    ``soft`` of :func:`interpreter.agents.time_for_move`), each less ``overhead`` seconds for the
    answer to travel."""
    budget = time_for_move(max(0.0, remaining), max(0.0, increment), moves_to_go)
    hard = max(LEAST_TIME, (budget.time or LEAST_TIME) - overhead)
    return hard, min(hard, max(LEAST_TIME, (budget.soft or hard) - overhead))


def budget_of(time: float | None = None, nodes: int | None = None, depth: int | None = None,
              soft: float | None = None) -> Budget | None:
    """A budget of the limits given, or None when no limit is given (the agent's own budget then). A
    depth over the limit ``search_depth`` is cut to it, as engines cut ``go depth`` to their deepest
    search: a GUI asks for a deep search, not for an error. ``soft``: the time the move deserves
    within ``time`` (a game clock's), see :class:`~interpreter.agents.Budget`."""
    if time is None and nodes is None and depth is None:
        return None
    return Budget(time=time, nodes=nodes, depth=None if depth is None else min(depth, SEARCH_DEPTH.value),
                  soft=soft if time is not None and soft is not None and soft <= time else None)


INFINITE = Budget(time=LONGEST)
"""The budget of a search that only ``stop`` ends."""
