"""Games between agents: :func:`match` plays them (on every core), :func:`play_game` plays one.

Seats. The players of the play mode (``game.players``) are grouped by
team; each agent of the match plays whole teams, and the teams rotate
among the agents from game to game: in game ``i`` team ``j`` is played by
agent ``(i + j) % k`` (k agents). With two agents and two teams every pair
of games is one game with each agent on each side.

Openings. Each game starts with ``opening_plies`` random moves (default:
two rounds of the turn order), the same for the games of one rotation, so
that deterministic agents do not repeat one game and both agents meet the
same openings. A game that reaches ``max_plies`` (the opening included) is a
draw by adjudication (:func:`~interpreter.engine.outcome.ply_cap`): ``1/2-1/2``,
its termination and its record's ``Termination`` tag say so.

Clocks. Without a clock every move gets its seat's budget. With one (a
:class:`~.clock.TimeControl`, ``--clock 60+1``) each player of the mode has a
game clock (:class:`~.clock.GameClock`), which runs while its agent thinks
(measured around :meth:`~.base.Agent.choose`; the opening's random moves are
played before the clocks start): an agent that searches here gets
:func:`~.clock.time_for_move` of its clock as its budget, an external engine
the clocks themselves (UCI's ``wtime``/``btime``, XBoard's ``level`` and
``time``/``otim``), and a player whose move oversteps its clock by more than
:data:`~.clock.TIME_GRACE` loses on time
(:func:`~interpreter.engine.outcome.time_forfeit_outcome`). The record then has
a ``TimeControl`` tag and each move the clock left after it (``{[%clk 0:00:59.12]}``).

Results. An agent scores 1 for a game that one of its teams won and no team
of another agent did, 0 when only other agents' teams won, 1/2 otherwise.
Everything is reproducible from ``seed`` and the game index, except what a
time budget makes depend on the machine.

Tasks. :func:`match_tasks` describes games as picklable :class:`GameTask`
values and :func:`play_task` plays one, in any process: a front end that
runs games elsewhere (a cluster) or skips some (a resumed run) uses these
two. A task may carry an ``observer``: a picklable factory called as
``observer(game, pos)`` at the start of the game, whose ``ply(pos, legal,
move)`` sees every position before its move (the opening's included) and
whose ``finish(pos, outcome)`` returns what goes into :attr:`GameResult.log`.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable, Iterator

from dsl import UsageError
from dsl.errors import clip
from dsl.files import FilePolicy
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.engine.outcome import Outcome, forfeit_outcome, outcome, ply_cap
from interpreter.loading import load_game, rules_digest, start_fen, start_position
from interpreter.loading.records import game_record, result_token
from interpreter.notation.san import move_to_san

from .base import Agent, Budget, Forfeit, SearchInfo
from .clock import GameClock, TimeControl
from .sides import Sides
from .specs import AgentSpec, parse_agent
from .stats import EloEstimate, estimate


@dataclass
class MoveStats:
    """What one agent spent over its moves of a game (forced moves aside)."""

    moves: int = 0
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0

    def add(self, other: "MoveStats") -> None:
        self.moves += other.moves
        self.nodes += other.nodes
        self.seconds += other.seconds
        self.depth += other.depth

    @property
    def nps(self) -> int:
        return round(self.nodes / self.seconds) if self.seconds > 0 else 0

    @property
    def mean_depth(self) -> float:
        return self.depth / self.moves if self.moves else 0.0


@dataclass
class GameResult:
    """One finished game of a match: who played which players, the points of each agent
    (by index in the match's list), how it ended and its record."""

    index: int
    players: dict[str, int]            # player of the mode -> agent index
    points: list[float | None]         # per agent; None when the agent did not play this game
    result: str                        # PGN's result, as loading.records.result_token writes it
    termination: str
    plies: int
    record: str
    stats: list[MoveStats] = field(default_factory=list)
    log: object = None                 # what the task's observer returned (None without one)
    clocks: dict[str, float] | None = None   # with a clock: player -> seconds left at the end (before a move that lost on time)


@dataclass
class Standing:
    """One agent's results over a match."""

    label: str
    games: int = 0
    score: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    stats: MoveStats = field(default_factory=MoveStats)
    elo: EloEstimate | None = None     # against the others' mean, from its points per game


@dataclass
class MatchResult:
    variant: str
    mode: str | None
    games: list[GameResult]
    standings: list[Standing]

    def table(self) -> str:
        """The result table: one row per agent (the first column as wide as the longest label)."""
        width = max([28, *(len(s.label) for s in self.standings)])
        rows = [f"{'agent':<{width}} {'games':>5} {'score':>7} {'%':>6} {'W':>4} {'D':>4} {'L':>4}  "
                f"{'Elo [95%]':<18} {'depth':>5} {'nps':>7}"]
        for s in self.standings:
            pct = 100 * s.score / s.games if s.games else 0.0
            rows.append(f"{s.label:<{width}} {s.games:>5} {s.score:>7.1f} {pct:>5.1f}% {s.wins:>4} {s.draws:>4} "
                        f"{s.losses:>4}  {str(s.elo or '-'):<18} {s.stats.mean_depth:>5.1f} {s.stats.nps:>7}")
        return "\n".join(rows)

    def to_json(self) -> dict:
        return {
            "variant": self.variant, "mode": self.mode, "games": len(self.games),
            "standings": [{
                "agent": s.label, "games": s.games, "score": s.score, "wins": s.wins, "draws": s.draws,
                "losses": s.losses, "elo": None if s.elo is None else round(s.elo.difference, 1),
                "elo_low": None if s.elo is None else round(s.elo.low, 1),
                "elo_high": None if s.elo is None else round(s.elo.high, 1),
                "mean_depth": round(s.stats.mean_depth, 2), "nps": s.stats.nps,
            } for s in self.standings],
            "results": [{"index": g.index, "players": g.players, "points": g.points, "result": g.result,
                         "termination": g.termination, "plies": g.plies, "clocks": g.clocks} for g in self.games],
        }


def team_players(game) -> list[list[str]]:
    """The players of the mode grouped by team, in the order their teams first move."""
    sides = Sides(game)
    groups: dict[int, list[str]] = {}
    for team in dict.fromkeys(sides.turn_team):
        groups[team] = []
    for name, armies in game.players.items():
        groups.setdefault(sides.team_of[armies[0]], []).append(name)
    return [players for players in groups.values() if players]


def timed_choice(agent: Agent, pos, budget: Budget, clock: GameClock | None = None,
                 on_info=None) -> tuple[SearchInfo | None, Outcome | None]:
    """Ask ``agent`` for its move in ``pos`` within ``budget``: ``(info, None)``, or ``(None, outcome)``
    when the player to move lost instead: it forfeited (:class:`~.base.Forfeit`), or, with ``clock``,
    its answer overstepped its clock (:meth:`~.clock.GameClock.punch`; that comes first). The agent
    gets ready untimed (:meth:`~.base.Agent.ready`); with a clock, the budget is the clock's for the
    army to move (``budget``'s nodes and depth kept, see :meth:`~.clock.GameClock.budget`) and the
    answer is charged to it. ``on_info`` goes to :meth:`~.base.Agent.choose`."""
    try:
        agent.ready(pos)
    except Forfeit as err:
        return None, forfeit_outcome(pos, str(err))
    if clock is not None:
        budget = clock.budget(pos.army, budget)
    started = time.perf_counter()
    try:
        info = agent.choose(pos, budget, on_info=on_info)
    except Forfeit as err:
        late = clock.late(pos, time.perf_counter() - started) if clock is not None else None
        return None, late or forfeit_outcome(pos, str(err))
    late = clock.punch(pos, time.perf_counter() - started) if clock is not None else None
    return (None, late) if late is not None else (info, None)


def play_game(game, players: dict[int, tuple[Agent, Budget]], pos=None, max_plies: int = DEFAULT_MAX_PLIES,
              on_move: Callable[[object, list, tuple, object], None] | None = None, clock: GameClock | None = None):
    """Play from ``pos`` (the start) with an agent and budget per army until the game ends or
    ``max_plies`` moves were played; a forced move (the only legal one) is played without asking.
    Returns ``(outcome, SANs, stats per army)``, the outcome None when the game reached ``max_plies``
    (a caller adjudicates it with :func:`~interpreter.engine.outcome.ply_cap`); ``on_move(pos, legal, move, info)`` is
    called before each move is made (``info`` is None for a forced move). A player that forfeits (an
    external engine's illegal move, exit or silence: :class:`~.base.Forfeit`) loses the game then.
    ``clock``: the game clocks, which run from the first move played here (see :func:`timed_choice`;
    a forced move takes no time off them)."""
    pos = pos if pos is not None else start_position(game)
    sans: list[str] = []
    stats = {army: MoveStats() for army in players}
    result = None
    for _ in range(max_plies):
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None:
            break
        agent, budget = players[pos.army]
        if len(legal) == 1:
            move, info = legal[0], None
            if clock is not None:
                clock.punch(pos, 0.0)
        else:
            info, lost = timed_choice(agent, pos, budget, clock)
            if lost is not None:
                return lost, sans, stats
            assert info is not None
            move = info.move
            spent = stats[pos.army]
            spent.moves += 1
            spent.nodes += info.nodes
            spent.seconds += info.time
            spent.depth += info.depth
        if on_move is not None:
            on_move(pos, legal, move, info)
        sans.append(move_to_san(pos, move, legal=legal))
        pos.push(move)
    else:
        result = outcome(pos)
    return result, sans, stats


@dataclass(frozen=True)
class GameTask:
    """Game ``index`` of a match, everything a worker process needs to play it (picklable)."""

    variant: str
    mode: str | None
    options: tuple
    specs: tuple[AgentSpec, ...]
    index: int
    seed: int
    opening_plies: int | None
    max_plies: int
    observer: Callable | None = None   # observer(game, pos) -> an object with ply() and finish()
    clock: TimeControl | None = None   # the game clocks (None: every move gets its seat's budget)
    rules: str | None = None   # the rules' digest when the match began (loading.rules_digest); None: unchecked


def open_game(pos, rng: random.Random, plies: int | None, on_ply: Callable | None = None) -> list[str]:
    """Play ``plies`` random moves drawn from ``rng`` (None: two rounds of the turn order) from ``pos``,
    fewer if the game ends first, and return their SANs; ``on_ply(pos, legal, move)`` sees each
    position before its move."""
    sans = []
    for _ in range(len(pos.game.turn_order) * 2 if plies is None else plies):
        legal = pos.legal_moves()
        if not legal or outcome(pos, legal) is not None:
            break
        move = rng.choice(legal)
        if on_ply is not None:
            on_ply(pos, legal, move)
        sans.append(move_to_san(pos, move, legal=legal))
        pos.push(move)
    return sans


def play_task(task: GameTask) -> GameResult:
    """Play game ``task.index`` of a match (in a worker process, or in this one). A UsageError when
    the variant's rules are no longer those the match began with (its file, or what it extends or
    includes, edited since): the game is not played."""
    game = load_game(task.variant, task.mode, dict(task.options))
    if task.rules is not None and rules_digest(game.spec) != task.rules:
        raise UsageError(f"the rules of {clip(task.variant)} changed while the games were played: game "
                         f"{task.index + 1} found other rules than the games before it, so no more games are played",
                         hint="restore the file and add --resume (rules analyze, rules tune), or start again")
    groups = team_players(game)
    k = len(task.specs)
    seats = {name: (j + task.index) % k for j, group in enumerate(groups) for name in group}
    rng = random.Random(f"{task.seed}/opening/{task.index // k}")
    pos = start_position(game)
    watcher = task.observer(game, pos) if task.observer is not None else None
    sans = open_game(pos, rng, task.opening_plies, watcher.ply if watcher is not None else None)
    clock = GameClock(task.clock, game) if task.clock is not None else None
    agents = [spec.make(seed=hash((task.seed, task.index, i)) & 0xFFFFFFFF) for i, spec in enumerate(task.specs)]
    by_army = {army: (agents[seats[name]], task.specs[seats[name]].budget)
               for name, armies in game.players.items() for army in armies}
    on_move = None if watcher is None else lambda p, legal, move, info: watcher.ply(p, legal, move)
    try:
        result, played, stats = play_game(game, by_army, pos, task.max_plies - len(sans), on_move, clock)
    finally:
        for agent in agents:
            agent.close()
    sans += played
    sides = Sides(game)
    won = sides.winner_teams(result.winners) if result is not None else set()
    teams: list[set[int]] = [set() for _ in range(k)]
    agent_stats = [MoveStats() for _ in range(k)]
    for name, armies in game.players.items():
        teams[seats[name]].update(sides.team_of[a] for a in armies)
        for army in armies:
            agent_stats[seats[name]].add(stats[army])
    points: list[float | None] = [_points(teams, i, won) if teams[i] else None for i in range(k)]
    labels = {game.armies[a].name: task.specs[seats[name]].label for name, armies in game.players.items()
              for a in armies}
    ended = result if result is not None else ply_cap(pos, task.max_plies)
    record = match_record(game, sans, ended, labels, {"Event": "rules match", "Round": str(task.index + 1)}, clock)
    return GameResult(task.index, seats, points, result_token(game, ended), ended.describe(game), len(sans), record,
                      agent_stats, watcher.finish(pos, result) if watcher is not None else None,
                      None if clock is None else {name: round(left, 3) for name, left in clock.left.items()})


def match_record(game, sans: list[str], ended: Outcome, players: dict[str, str], tags: dict[str, str],
                 clock: GameClock | None = None) -> str:
    """The record of a game played from the start of ``game`` through ``sans`` (a random opening, then
    :func:`play_game`'s moves) that ended with ``ended``, with ``players`` (army name -> label) and
    ``tags``; with ``clock``, its ``TimeControl`` tag and, after each of the last ``len(clock.after)``
    moves (those the clock timed), the time left on the mover's clock."""
    if clock is not None:
        tags = {**tags, "TimeControl": str(clock.control)}
    timed = None if clock is None else [None] * (len(sans) - len(clock.after)) + clock.after
    return game_record(game, start_fen(game), sans, ended, players, tags, clocks=timed)


def _points(teams: list[set[int]], agent: int, won: set[int]) -> float:
    """1 when only ``agent``'s teams won, 0 when only others' did, 1/2 for a draw or a shared win."""
    if not won:
        return 0.5
    mine = bool(teams[agent] & won)
    others = any(t & won for i, t in enumerate(teams) if i != agent)
    return 1.0 if mine and not others else 0.0 if others and not mine else 0.5


def match_tasks(variant: str, agents: list[str | AgentSpec], indices, mode: str | None = None,
                options: dict[str, str] | None = None, seed: int = 0, opening_plies: int | None = None,
                max_plies: int = DEFAULT_MAX_PLIES, level: str | None = None,
                observer: Callable | None = None, clock: TimeControl | None = None,
                files: FilePolicy | None = None) -> list[GameTask]:
    """The tasks of the games numbered ``indices`` of a match (see :func:`match`); bad agent specs
    and variant names fail here, before any worker starts. ``agents``: specs as text, or parsed
    (then ``level`` and ``files`` do not apply to them). ``files``: the policy by which an agent's
    ``weights=FILE`` is read (None: refused; see :func:`~.specs.parse_agent`). Each task carries
    the digest of the rules read here, and a worker that finds other rules refuses its game."""
    specs = tuple(a if isinstance(a, AgentSpec) else parse_agent(a, level, files) for a in agents)
    digest = rules_digest(load_game(variant, mode, options).spec)
    frozen = tuple(sorted((options or {}).items()))
    return [GameTask(str(variant), mode, frozen, specs, i, seed, opening_plies, max_plies, observer, clock, digest)
            for i in indices]


def match_games(variant: str, agents: list[str], games: int, mode: str | None = None,
                options: dict[str, str] | None = None, seed: int = 0, jobs: int | None = None,
                opening_plies: int | None = None, max_plies: int = DEFAULT_MAX_PLIES,
                level: str | None = None, clock: TimeControl | None = None,
                files: FilePolicy | None = None) -> Iterator[GameResult]:
    """Play the games of a match and yield each as it finishes (see :func:`match`)."""
    tasks = match_tasks(variant, agents, range(games), mode, options, seed, opening_plies, max_plies, level,
                        clock=clock, files=files)
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or games == 1:
        for task in tasks:
            yield play_task(task)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, games)) as pool:
        for future in as_completed([pool.submit(play_task, task) for task in tasks]):
            yield future.result()


def match(variant: str, agents: list[str], games: int, mode: str | None = None,
          options: dict[str, str] | None = None, seed: int = 0, jobs: int | None = None,
          opening_plies: int | None = None, max_plies: int = DEFAULT_MAX_PLIES, level: str | None = None,
          on_game: Callable[[GameResult], None] | None = None, clock: TimeControl | None = None,
          files: FilePolicy | None = None) -> MatchResult:
    """Play ``games`` games of ``variant`` between ``agents`` (agent specs, see
    :mod:`interpreter.agents.specs`) on ``jobs`` processes (default: every core), and tabulate
    them. ``on_game`` is called with each game as it finishes (for a progress bar); ``clock``: the
    game clocks of every game (None: each move gets its seat's budget); ``files``: the policy by
    which an agent's ``weights=FILE`` is read (None: refused)."""
    results = []
    for result in match_games(variant, agents, games, mode, options, seed, jobs, opening_plies, max_plies, level,
                              clock, files):
        results.append(result)
        if on_game is not None:
            on_game(result)
    results.sort(key=lambda g: g.index)
    game = load_game(variant, mode, options)
    return MatchResult(game.name, game.mode, results, standings(agents, results))


def standings(labels: list[str], results: list[GameResult]) -> list[Standing]:
    """Per agent: games, points, wins, draws, losses, spending and the Elo estimate."""
    table = [Standing(label) for label in labels]
    for i, row in enumerate(table):
        points = [g.points[i] for g in results if g.points[i] is not None]
        row.games = len(points)
        row.score = sum(points)
        row.wins = sum(1 for p in points if p == 1.0)
        row.losses = sum(1 for p in points if p == 0.0)
        row.draws = row.games - row.wins - row.losses
        for g in results:
            if g.points[i] is not None:
                row.stats.add(g.stats[i])
        row.elo = estimate(points)
    return table
