"""Analysis of a position of a game: the computer's evaluation and best line, deeper and deeper.

The search is the computer players' own (:mod:`interpreter.agents`): the
alpha-beta agent of the strongest level (:data:`STRONGEST`), for at most
:data:`ANALYSIS_TIME` seconds, the server's limit. It runs on a thread of
its own and reports every finished depth; :class:`Analysis` hands those
reports to the request that asked, which streams them to the page. Each
analysis holds one slot of :data:`ANALYSES` (so that analyses never take
every search slot from the games' computer players) and one of the server's
:data:`~.sessions.SEARCHES`; with no free slot within :data:`SLOT_WAIT`
seconds it is refused as :class:`Busy`. Setting its ``stop`` event (the
page went away) ends the search at once.

Who may analyse (:func:`refuse_if_contested`): anyone who may read the
game, spectators included, no seat token needed, except while the game is
*contested*: not over, with people at two or more seats, and the request
does not show the token of every one of them. The engine's best line in
any earlier position runs into the present, so every ply is refused then,
not only the current one. A game against the computer, a game of computers,
a game one page plays on one screen (it holds every seat) and a game that
is over may be analysed at any ply.

Scores (:func:`analysis_view`) are for the side to move, and, in games of
two teams, for the team of the first army too (``first``): the page's
evaluation bar. A forced end is counted in ``mate`` plies.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import replace
from typing import Callable

from dsl.errors import UsageError

from interpreter.agents import Budget, SearchInfo, parse_agent
from interpreter.compiler.game import Game
from interpreter.engine.outcome import outcome
from interpreter.engine.position import Position
from interpreter.notation.san import from_to_text, san_text
from interpreter.notation.terms import inner

from .access import Forbidden
from .sessions import SEARCHES, Conflict, Session
from .views import result_view

log = logging.getLogger(__name__)

ANALYSIS_TIME = 4.0
"""The most seconds one analysis searches (and how long it searches unless asked for less)."""
SLOT_WAIT = 2.0
"""Seconds an analysis waits for a free search slot before it is refused as busy."""
ANALYSES = threading.BoundedSemaphore(max(1, (os.cpu_count() or 2) // 2))
"""Analyses running at once, over all games: at most half of the search slots."""
STRONGEST = "ai:level=hard"
"""The computer player whose search analyses (its time per move replaced by the analysis time)."""


class Busy(Conflict):
    """No search slot came free for an analysis in time; the server answers 409."""


def refuse_if_contested(session: Session, held: frozenset[str]) -> None:
    """Raise Forbidden (403) when the game may not be analysed now by a request showing the tokens
    of ``held`` (see the module docstring); call it under the session's lock."""
    if session.result() is not None:
        return
    people = [seat for seat in session.seats if seat.human]
    if len(people) < 2 or all(seat.name in held for seat in people):
        return
    missing = " and ".join(seat.title(session.game) for seat in people if seat.name not in held)
    raise Forbidden(f"analysing a game that people are still playing needs the seat token of every player; "
                    f"not shown: {missing}",
                    hint="anyone may analyse it once it is over (a game against the computer at any time)")


def seconds_of(text: str | None) -> float:
    """The analysis time a request asks for (``?time=S``): :data:`ANALYSIS_TIME` when not given;
    UsageError unless it is a number of seconds above 0 and at most :data:`ANALYSIS_TIME`."""
    if text is None:
        return ANALYSIS_TIME
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"time={text!r} is not a number of seconds") from None
    if not 0 < value <= ANALYSIS_TIME:
        raise UsageError(f"time={text!r} is not an analysis time of this server",
                         expected=f"seconds above 0 and at most {ANALYSIS_TIME:g}")
    return value


class Analysis:
    """The analysis of ``pos`` (the position after ``ply`` plies) for ``seconds``, on a thread of its
    own once :meth:`start` is called. ``send(kind, payload)`` is called from that thread: first
    ``("started", None)`` or ``("busy", Busy)``, then ``("analysis", VIEW)`` after every depth, and
    last ``("done", VIEW)`` (``final`` true) or ``("failed", message)`` for a bug in the search. A
    position where the game is over gives its ``done`` at once, with its ``result``."""

    def __init__(self, game: Game, pos: Position, ply: int, seconds: float,
                 send: Callable[[str, object], None]) -> None:
        self.game, self.pos, self.ply, self.seconds, self.send = game, pos, ply, seconds, send
        self.stop = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True, name=f"analysis-{self.game.name}").start()

    def _run(self) -> None:
        deadline = time.monotonic() + SLOT_WAIT
        if not ANALYSES.acquire(timeout=SLOT_WAIT):
            self.send("busy", _busy())
            return
        try:
            while not SEARCHES.acquire(timeout=0.1):
                if self.stop.is_set() or time.monotonic() > deadline:
                    self.send("busy", _busy())
                    return
            try:
                self.send("started", None)
                self.send("done", self._search())
            except Exception as err:  # a bug in the search: said to the page rather than hanging it
                log.exception("analysis failed")
                self.send("failed", f"the analysis failed: {type(err).__name__}: {err}")
            finally:
                SEARCHES.release()
        finally:
            ANALYSES.release()

    def _search(self) -> dict:
        ended = outcome(self.pos)
        if ended is not None:
            return {**analysis_view(self.game, self.pos, self.ply, None, final=True),
                    "result": result_view(self.game, ended)}
        agent = parse_agent(STRONGEST).make()
        budget = Budget(time=self.seconds, soft=self.seconds)
        depths: list[SearchInfo] = []

        def report(found: SearchInfo) -> None:
            depths.append(found)
            self.send("analysis", analysis_view(self.game, self.pos, self.ply, found, final=False))

        info = agent.choose(self.pos, budget, stop=self.stop, on_info=report)
        if depths and depths[-1].move == info.move:   # an unfinished depth that kept the move gives no line
            info = replace(depths[-1], nodes=info.nodes, seldepth=info.seldepth, time=info.time)
        return analysis_view(self.game, self.pos, self.ply, info, final=True)


def _busy() -> Busy:
    return Busy("the server is busy with other searches and cannot analyse now",
                hint="try again in a few seconds")


def analysis_view(game: Game, pos: Position, ply: int, info: SearchInfo | None, final: bool) -> dict:
    """What the search ``info`` found in ``pos`` (after ``ply`` plies), as the API answers it:
    ``to_move`` (the army), ``score`` for the side to move and ``first`` for the first army's team
    (:func:`score_view`; ``first`` is null in games of more than two teams), ``depth``,
    ``seldepth``, ``nodes``, ``time`` and ``pv`` (:func:`line_view`); ``final`` is true for the
    last report. ``info`` None (the game is over there): no score, no line, ``result`` null."""
    view = {"ply": ply, "final": final, "to_move": game.armies[pos.army].name, "result": None,
            "depth": 0, "seldepth": 0, "nodes": 0, "time": 0.0, "score": None, "first": None, "pv": []}
    if info is None:
        return view
    sign = 1 if game.team_of[pos.army] == game.team_of[0] else -1
    return {**view, "depth": info.depth, "seldepth": info.seldepth, "nodes": info.nodes, "time": round(info.time, 3),
            "score": score_view(game, info.score),
            "first": score_view(game, sign * info.score) if len(game.teams) == 2 else None,
            "pv": line_view(game, pos, info.pv)}


def score_view(game: Game, score: int) -> dict:
    """A search's ``score`` (:class:`~interpreter.agents.SearchInfo`'s): ``cp`` (centipawns, null
    for a forced end), ``mate`` (plies to a forced end, positive for a win, else null) and ``text``:
    ``+1.25`` in pawns, or ``M3`` / ``-M3``, the moves of the side that wins as chess players count
    them (plies in a game of more than two armies: ``M5 plies``)."""
    found = SearchInfo(None, score)
    if found.mate is None:
        return {"cp": score, "mate": None, "text": f"{score / 100:+.2f}"}
    plies = abs(found.mate)
    count = f"{(plies + 1) // 2}" if len(game.armies) == 2 else f"{plies} plies"
    return {"cp": None, "mate": found.mate, "text": f"{'' if found.mate > 0 else '-'}M{count}"}


def line_view(game: Game, pos: Position, line: tuple) -> list[dict]:
    """The moves of ``line`` from ``pos``, each ``{"san", "uci", "from", "to", "army"}`` (cell names,
    null for a drop's origin or a pass), as far as they are legal in turn."""
    names = game.board.names
    pos = pos.copy()
    out = []
    for move in line:
        legal = pos.legal_moves()
        if move not in legal:
            break
        plain, plain_legal = inner(move), [inner(m) for m in legal]
        out.append({"san": san_text(pos, plain, plain_legal), "uci": from_to_text(pos, plain, plain_legal),
                    "from": names[move[0]] if move[0] >= 0 else None, "to": names[move[1]] if move[1] >= 0 else None,
                    "army": game.armies[pos.army].name})
        pos.push(move)
    return out
