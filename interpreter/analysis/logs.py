"""What one self-play game leaves behind: the observer that writes its log, and the log's JSON line.

A run keeps one JSON object per finished game in ``results.jsonl`` (see
:mod:`.results`); every metric and figure is computed from these lines
alone, with the facts about the game that the run's header keeps (see
:func:`game_facts`). A line holds:

- ``index`` (the game's number in the run) and ``seats`` (player of the
  mode -> the agent that played it);
- ``winners``: the players of the winning team(s), empty for a draw;
  ``end``: the title of the end rule that ended the game (``checkmate``),
  None when the game was adjudicated a draw at the ply limit;
  ``termination``: how it ended in words (``White wins by checkmate``);
  ``result``: the PGN result token;
- ``plies``, and per ply (the position before each move, the random
  opening included): ``movers`` (index of the player to move, in the
  order of :func:`game_facts`' ``players``), ``branching`` (legal moves),
  ``to`` (the cell the move goes to; -1 for a pass or a removal) and
  ``captures`` (the plies whose move captured, as the notation decides:
  a stacking move captures when it removes a piece);
- ``evaluation``: per position (the ``plies`` positions before a move and
  the final one), every team's score by the agents' generic evaluation
  (:meth:`~interpreter.agents.evaluation.Evaluation.team_scores`,
  centipawns, teams in the order of ``teams``);
- ``coverage``: how many cells of the board held a piece at some point;
- ``seconds`` (wall time of the game) and ``record`` (the game record, PGN
  style). These two depend on where and when the game was played (the
  record's ``Date`` tag); everything else only on the run's parameters, the
  seed and the index.
"""

from __future__ import annotations

from interpreter.agents.evaluation import evaluation_of
from interpreter.agents.matches import GameResult, GameTask, team_players
from interpreter.notation.terms import captures as is_capture

FIELDS: dict[str, tuple[type, ...]] = {
    "index": (int,), "seats": (dict,), "winners": (list,), "end": (str, type(None)), "termination": (str,),
    "plies": (int,), "movers": (list,), "branching": (list,), "to": (list,), "captures": (list,),
    "evaluation": (list,), "coverage": (int,),
}
"""The fields of a line that the metrics read, and the JSON types they have (true and false are no number)."""
JSON_TYPES = {dict: "an object", list: "an array", str: "a string", int: "a whole number", float: "a number",
              bool: "true or false", type(None): "null"}
"""What JSON calls the values of each Python type that json.loads gives."""


def line_fault(line: object) -> str | None:
    """What makes ``line`` (a JSON value read back from a results file) no line of a run, or None when it has
    every field of :data:`FIELDS` with its type and an ``index`` of 0 or more. What is inside the lists is
    not looked at: a line is checked against what a run could have left (another file, another program's
    lines, a line cut short), not against every way of forging one."""
    if not isinstance(line, dict):
        return "not a JSON object"
    for name, kinds in FIELDS.items():
        if name not in line:
            return f"no '{name}'"
        if isinstance(line[name], bool) or not isinstance(line[name], kinds):
            return f"'{name}' is {JSON_TYPES[type(line[name])]}, not {' or '.join(JSON_TYPES[k] for k in kinds)}"
    if line["index"] < 0:
        return "'index' is negative"
    return None


def game_facts(game) -> dict:
    """What the metrics need to know about the game besides the logs: its ``name``, ``players``
    (of the mode, in the game's order), ``teams`` (players grouped by team, the team that moves
    first first), ``first`` (the player that moves first), the board's ``cells`` (count) and
    ``cell_names``."""
    players = list(game.players)
    first_army = game.turn_armies[0][0]
    return {
        "name": game.name,
        "mode": game.mode,
        "players": players,
        "teams": team_players(game),
        "first": next(p for p, armies in game.players.items() if first_army in armies),
        "cells": game.n,
        "cell_names": list(game.board.names),
    }


class GameWatcher:
    """The observer of one game (see :class:`~interpreter.agents.matches.GameTask`): it keeps the
    per-ply facts of the log while the game is played, in the worker that plays it."""

    def __init__(self, game, pos) -> None:
        self.evaluation = evaluation_of(game)
        self.player_of = {army: i for i, armies in enumerate(game.players.values()) for army in armies}
        # Evaluation.team_scores numbers teams as Sides does; the log orders them as team_players.
        team_of = self.evaluation.sides.team_of
        self.team_order = [team_of[game.players[group[0]][0]] for group in team_players(game)]
        self.movers: list[int] = []
        self.branching: list[int] = []
        self.to: list[int] = []
        self.captures: list[int] = []
        self.scores: list[list[int]] = []
        self.covered: set[int] = set()

    def _see(self, pos) -> None:
        for cells in pos.cells_of:
            self.covered.update(cells)
        totals = self.evaluation.team_scores(pos)
        self.scores.append([totals[team] for team in self.team_order])

    def ply(self, pos, legal: list, move: tuple) -> None:
        """The position before ``move`` (one of ``legal``)."""
        self._see(pos)
        if is_capture(pos, move):
            self.captures.append(len(self.branching))
        self.movers.append(self.player_of.get(pos.army, -1))
        self.branching.append(len(legal))
        self.to.append(move[1] if move[1] is not None and move[1] >= 0 else -1)

    def finish(self, pos, result) -> dict:
        """The log of the game that ended in ``pos`` with ``result`` (an Outcome, or None when the
        ply limit adjudicated it)."""
        self._see(pos)
        game = pos.game
        won = set(result.winners) if result is not None else set()
        return {
            "winners": [name for name, armies in game.players.items() if won & set(armies)],
            "end": result.title if result is not None else None,
            "movers": self.movers, "branching": self.branching, "to": self.to, "captures": self.captures,
            "evaluation": self.scores, "coverage": len(self.covered),
        }


def game_line(task: GameTask, result: GameResult, seconds: float) -> dict:
    """The ``results.jsonl`` object of a game played from ``task`` with a :class:`GameWatcher`."""
    labels = [spec.label for spec in task.specs]
    log = dict(result.log)
    return {
        "index": result.index,
        "seats": {player: labels[agent] for player, agent in result.players.items()},
        "winners": log.pop("winners"),
        "end": log.pop("end"),
        "termination": result.termination,
        "result": result.result,
        "plies": result.plies,
        **log,
        "seconds": round(seconds, 4),
        "record": result.record,
    }
