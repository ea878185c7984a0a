"""The commands of the ``rules`` runner that use the computer players: ``bestmove`` and ``match``,
and the seats of ``play``.

A seat is ``human`` or an agent spec (:mod:`interpreter.agents.specs`):
``random``, ``greedy``, ``ai``, ``ai:alphabeta:time=2``, ``ai:mcts:nodes=20000``;
``--level easy|medium|hard`` gives the budget of a spec that names none.
"""

from __future__ import annotations

import json
import sys

from dsl import UsageError

from interpreter.agents import Budget, Forfeit, parse_agent
from interpreter.agents.clock import parse_time_control
from interpreter.agents.specs import AgentSpec
from interpreter.compiler.game import Game
from interpreter.loading.records import RecordsFile
from interpreter.notation.san import move_to_san, move_to_uci

from .common import game_of, policy_of, position_of
from .thinking import Thinking, line_text

HUMAN = "human"


def seats(game: Game, args) -> dict[int, str | AgentSpec]:
    """Army index -> ``"human"`` or an :class:`AgentSpec`, from ``--seat NAME=SPEC`` (a player of
    the mode or an army) and the ``--white`` / ``--black`` shortcuts; human by default."""
    chosen: dict[int, str | AgentSpec] = {army.index: HUMAN for army in game.armies}
    given = [("white", args.white), ("black", args.black)]
    for text in args.seat or []:
        name, sep, kind = text.partition("=")
        if not sep or not kind:
            raise UsageError(f"--seat {text!r} is not NAME=WHO", hint="e.g. --seat north=ai or --seat black=human")
        given.append((name, kind))
    for name, kind in given:
        if kind is None:
            continue
        armies = game.players.get(name) or ([game.army_index[name]] if name in game.army_index else None)
        if armies is None:
            raise UsageError(f"no player or army '{name}' in {game.name}" + (f" ({game.mode})" if game.mode else ""),
                             expected=", ".join(list(game.players) + [a.name for a in game.armies
                                                                      if a.name not in game.players]))
        who = HUMAN if kind == HUMAN else parse_agent(kind, args.level, policy_of(args))
        for army in armies:
            chosen[army] = who
    return chosen


def _budget(spec: AgentSpec, args) -> Budget:
    """The spec's budget, with ``--time``, ``--depth`` and ``--nodes`` replacing its limits when given."""
    given = {name: getattr(args, name) for name in ("time", "depth", "nodes") if getattr(args, name, None) is not None}
    if not given:
        return spec.budget
    for name, value in given.items():
        if value <= 0:
            raise UsageError(f"--{name} must be positive, not {value}")
    return Budget(**given)


def cmd_bestmove(args) -> int:
    """The computer's move in a position, with its score, line, depth, nodes and speed."""
    spec = parse_agent(args.agent, args.level, policy_of(args))   # a bad spec fails before the variant is compiled
    game = game_of(args)
    pos = position_of(game, args)
    thinking = Thinking(pos, "searching", sys.stderr) if sys.stderr.isatty() and not args.json else None
    agent = spec.make(args.seed or 0)
    try:
        info = agent.choose(pos, _budget(spec, args), on_info=thinking)
    except Forfeit as err:
        raise UsageError(f"{spec.label} found no move: {err}") from None
    finally:
        agent.close()
        if thinking is not None:
            thinking.close()
    legal = pos.legal_moves()
    move = info.move
    result = {
        "move": move_to_san(pos, move, legal=legal) if move is not None else None,
        "from_to": move_to_uci(pos, move, legal=legal) if move is not None else None,
        "score": info.score, "mate": info.mate,
        "pv": line_text(pos, info.pv).replace(" ...", "").split() if move is not None else [],
        "depth": info.depth, "seldepth": info.seldepth, "nodes": info.nodes, "nps": info.nps,
        "time": round(info.time, 3), "agent": spec.label,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    if move is None:
        print("no move: the game is over")
        return 0
    print(f"bestmove {result['move']} ({result['from_to']})")
    print(f"score {info.score_text()}  depth {info.depth}/{info.seldepth}  nodes {info.nodes:,}  "
          f"{info.nps:,} n/s  {info.time:.2f} s")
    print(f"pv {' '.join(result['pv'])}")
    return 0


def cmd_match(args) -> int:
    """Games between agents: seats alternated, on every core, with a result table and Elo."""
    from interpreter.agents.matches import match
    game_of(args)                    # bad variant, mode or options fail before anything runs
    clock = parse_time_control(args.clock) if args.clock is not None else None
    agents = args.seat or []
    if len(agents) < 2:
        raise UsageError("a match needs two agents or more", hint="e.g. --seat ai --seat random")
    for text in agents:
        if "=" in text.split(":")[0]:
            raise UsageError(f"--seat {text!r}: a match takes agents, not NAME=WHO (the seats alternate)",
                             hint="e.g. --seat ai:alphabeta:time=1 --seat random")
        if text == HUMAN:
            raise UsageError("a match is played by agents, not by a human")
        parse_agent(text, args.level, policy_of(args))
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    options = dict(text.partition("=")[::2] for text in args.option or [])
    records = RecordsFile(args.pgn)
    progress = _Progress(args.games)

    def finished(game) -> None:
        records.add(game.record)
        progress.advance(game)
    try:
        result = match(args.variant, agents, args.games, mode=args.mode, options=options, seed=args.seed or 0,
                       jobs=args.jobs, opening_plies=args.opening_plies, max_plies=args.max_plies,
                       level=args.level, on_game=finished, clock=clock, files=policy_of(args))
    finally:
        progress.close()
        records.close()
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.variant}{' ' + result.mode if result.mode else ''}: {len(result.games)} games")
        print(result.table())
        if args.pgn:
            print(f"game records saved to {args.pgn}")
    return 0


class _Progress:
    """The progress of the games on standard error: a bar (rich) on a terminal,
    else one line per finished game with the running points of each agent."""

    def __init__(self, total: int) -> None:
        self.bar = None
        self.total, self.done = total, 0
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                TextColumn("{task.description}"), console=Console(stderr=True))
            self.task = self.bar.add_task("", total=total)
            self.bar.start()
        self.points: dict[int, float] = {}

    def advance(self, game) -> None:
        for i, p in enumerate(game.points):
            if p is not None:
                self.points[i] = self.points.get(i, 0.0) + p
        score = " - ".join(f"{v:g}" for _, v in sorted(self.points.items()))
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=score)
        else:
            self.done += 1
            print(f"game {self.done}/{self.total}: {game.result} ({game.termination}); points {score}",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
