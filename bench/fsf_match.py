"""Our alpha-beta agent against Fairy-Stockfish at its weakest, in shogi, xiangqi and crazyhouse (not part of CI).

Run from the repository root (Fairy-Stockfish is the Debian package ``fairy-stockfish``:
``apt-get install fairy-stockfish``, ``/usr/games/fairy-stockfish``)::

    .venv/bin/python bench/fsf_match.py                                 # 10 games a level and variant, 1 s a move
    .venv/bin/python bench/fsf_match.py --variants shogi --skill -20 0 --games 2 --time 0.5
    .venv/bin/python bench/fsf_match.py --skill --elo 1350 --nodes 20000 --pgn fsf.pgn
    .venv/bin/python bench/fsf_match.py --variants chess shogi --skill 0 --clock 60+1   # a game clock

Fairy-Stockfish plays as the external-engine player of ``rules match``, the seat
``uci:/usr/games/fairy-stockfish:...`` (:class:`~interpreter.agents.external.UciEngine`): the
variant is the engine's by UciEngine's own choice (its ``UCI_Variant`` name, else a variants.ini
section through ``VariantPath``, checked by perft before the first game), one thread, a hash of
16 MB, and each *level* is either a ``Skill Level`` (``--skill``; Fairy-Stockfish 11.1 goes from
-20, its weakest, to 20) or ``UCI_LimitStrength`` with a ``UCI_Elo`` (``--elo``; 1350 to 2850
there, Stockfish's scale for chess, not calibrated for variants). The games are played by the
game loop of ``rules match`` (:func:`~interpreter.agents.matches.play_game`), after a random
opening (:func:`~interpreter.agents.matches.open_game`). Both sides get the same budget a move:
``--time`` seconds (``go movetime``) or ``--nodes`` (``go nodes``, which counts different things
in the two engines); or ``--clock`` gives both a game clock (``BASE+INC`` in seconds, see
:mod:`interpreter.agents.clock`): Fairy-Stockfish is told both clocks (``go wtime btime winc
binc``), our agent gets a share of its own, and a side that oversteps its clock loses on time.
Colours alternate; each pair of games starts from the same ``--opening-plies`` random moves; a
game still running after ``--max-plies`` is a draw.

Every game is judged by our rules file of the variant. UciEngine tells Fairy-Stockfish the game
as ``position startpos moves ...`` in our from-to notation and reads its answer by our rules; an
illegal move, no move where our rules go on, an exit or silence is a forfeit, which this script
leaves *unscored* with the reason (it shows a disagreement between the two programs' rules, not
a strength). Before each of its moves, before its clock runs, the script also asks
Fairy-Stockfish for its FEN (``d``, :meth:`~interpreter.agents.external.UciEngine.reported_fen`)
and compares it with ours (placement, pieces in hand in any order, side to move; shogi's promoted
pieces, ``+B`` there and ``+B~`` here, are the same): a position that differs is unscored too. The
script prints every game, then the score per level and variant and per level, with the Elo
difference and its 95% interval (``interpreter.agents.stats``): positive when our agent is the
stronger.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import shutil
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench.common, when run as a script

from dsl.errors import RulesError, UsageError  # noqa: E402

from bench.common import agent_stats, team_points  # noqa: E402
from bench.engine_match import report  # noqa: E402
from interpreter import native  # noqa: E402
from interpreter.agents import Budget, Forfeit, parse_agent  # noqa: E402
from interpreter.agents.clock import GameClock, TimeControl, parse_time_control  # noqa: E402
from interpreter.agents.external import UciEngine  # noqa: E402
from interpreter.agents.matches import match_record, open_game, play_game  # noqa: E402
from interpreter.engine.outcome import FORFEIT, ply_cap  # noqa: E402
from interpreter.loading import load_game, start_position  # noqa: E402
from interpreter.loading.records import RecordsFile  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402

VARIANTS = ["shogi", "xiangqi", "crazyhouse"]


@dataclass(frozen=True)
class Level:
    """A strength of Fairy-Stockfish: ``Skill Level`` N, or ``UCI_Elo`` N with ``UCI_LimitStrength``."""

    option: str
    value: int

    def __str__(self) -> str:
        return f"skill {self.value}" if self.option == "Skill Level" else f"UCI_Elo {self.value}"

    def engine_options(self) -> tuple[tuple[str, str], ...]:
        """The UCI options of this level, and one thread and a 16 MB hash (the seat's ``NAME=VALUE``)."""
        limit = "true" if self.option == "UCI_Elo" else "false"
        return (("Threads", "1"), ("Hash", "16"), ("UCI_LimitStrength", limit), (self.option, str(self.value)))


def position_key(fen: str) -> tuple[str, str, str]:
    """What two FEN writers must agree on: placement, pieces in hand (sorted) and side to move.
    A promoted piece written with a ``+`` letter and ``~`` (ours, ``+B~``) is the same as without it."""
    fields = fen.split()
    placement = re.sub(r"(\+[A-Za-z])~", r"\1", fields[0])
    board, _, hand = placement.partition("[")
    return board, "".join(sorted(hand.rstrip("]"))), fields[1]


class CheckedEngine(UciEngine):
    """Fairy-Stockfish as a player whose FEN is compared with ours before each of its moves, when it
    gets ready (before its clock runs): a position that differs is a :class:`Forfeit`, which the
    script leaves unscored. ``check`` False skips the comparison."""

    def __init__(self, path: str, level: Level, check: bool) -> None:
        super().__init__(shlex.quote(path), level.engine_options())
        self.check = check

    def ready(self, pos) -> None:
        super().ready(pos)
        if self.check:
            theirs = self.reported_fen(pos)
            if position_key(theirs) != position_key(to_fen(pos)):
                raise Forfeit(f"Fairy-Stockfish's position differs from ours: it has {theirs}, we have {to_fen(pos)}")


def option_range(engine: UciEngine, name: str) -> tuple[int, int] | None:
    """The ``min`` and ``max`` of the engine's spin option ``name`` (None if it has no such option)."""
    words = engine.offered.get(name, "").split()
    if "min" not in words or "max" not in words:
        return None
    return int(words[words.index("min") + 1]), int(words[words.index("max") + 1])


@dataclass
class Tally:
    """The games of one level in one variant (or all variants): our points, unscored games, our searches."""

    points: list[float] = field(default_factory=list)
    unscored: list[str] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    nps: list[int] = field(default_factory=list)
    theirs: list[int] = field(default_factory=list)   # Fairy-Stockfish's depths

    def add(self, other: "Tally") -> None:
        self.points += other.points
        self.unscored += other.unscored
        self.depths += other.depths
        self.nps += other.nps
        self.theirs += other.theirs


def play_one(index: int, variant: str, game, level: Level, engine: CheckedEngine, args, tally: Tally):
    """Game ``index`` at ``level``: adds our points (or the reason it is unscored) to ``tally``;
    returns how it ended, its plies and its record (None for a forfeit: unscored)."""
    ours = index % 2
    agent = parse_agent(args.agent).make(args.seed + index)
    budget = Budget(nodes=args.nodes) if args.nodes else Budget(time=args.time)
    engine.new_game()
    pos = start_position(game)
    sans = open_game(pos, random.Random(f"{args.seed}/{variant}/{index // 2}"), args.opening_plies)
    clock = GameClock(args.clock, game) if args.clock is not None else None

    def searched(pos, legal, move, info) -> None:
        if info is not None:
            if pos.army == ours:
                tally.depths.append(info.depth)
                tally.nps.append(info.nps)
            else:
                tally.theirs.append(info.depth)

    players = {ours: (agent, budget), 1 - ours: (engine, budget)}
    result, played, _ = play_game(game, players, pos, args.max_plies - len(sans), searched, clock)
    ended = result if result is not None else ply_cap(pos, args.max_plies)
    plies = len(sans) + len(played)
    if ended.rule == FORFEIT:
        tally.unscored.append(ended.title)
        return ended, plies, None
    tally.points.append(team_points(ended, {ours}))
    names = {game.armies[ours].name: args.agent, game.armies[1 - ours].name: f"{engine.engine_name} {level}"}
    record = match_record(game, sans + played, ended, names,
                          {"Event": f"rules-dsl against Fairy-Stockfish, {level}", "Round": str(index + 1)}, clock)
    return ended, plies, record


def run(args, games: dict, records: RecordsFile) -> list[tuple[Level, str, Tally]]:
    """Play every level against our agent in each of ``games`` (variant name -> compiled game): the
    score table's rows; each scored game's record is added to ``records``. Each level is a process
    of Fairy-Stockfish, set up for every variant (and checked) before the first game."""
    levels = [Level("Skill Level", n) for n in args.skill] + [Level("UCI_Elo", n) for n in args.elo]
    engines = [CheckedEngine(args.fairy_stockfish, level, args.fen_check) for level in levels]
    rows: list[tuple[Level, str, Tally]] = []
    try:
        for level, engine in zip(levels, engines):
            engine.handshake()
            span = option_range(engine, level.option)
            if span is None or not span[0] <= level.value <= span[1]:
                raise SystemExit(f"{engine.engine_name} offers no {level.option} {level.value} (its range: {span})")
            for game in games.values():   # the variant is set up (and a VariantPath section checked) here
                engine.ready(start_position(game))
        name = engines[0].engine_name
        budget = (f"clock {args.clock}" if args.clock else f"{args.nodes} nodes a move" if args.nodes
                  else f"{args.time:g} s a move")
        print(f"{name} against {args.agent}, {budget} each; engine: {native.status}", flush=True)
        for level, engine in zip(levels, engines):
            for variant, game in games.items():
                tally = Tally()
                rows.append((level, variant, tally))
                for i in range(args.games):
                    ended, plies, record = play_one(i, variant, game, level, engine, args, tally)
                    side = game.armies[i % 2].title
                    if record is None:
                        verdict = f"UNSCORED after {plies} plies: {ended.title}"
                    else:
                        records.add(record)
                        verdict = (f"{ended.describe(game)}, {plies} plies, our points "
                                   f"{tally.points[-1]} (total {sum(tally.points)}/{len(tally.points)})")
                    print(f"{variant} {level} game {i + 1:>3}: we play {side}: {verdict}", flush=True)
    except (RulesError, Forfeit) as err:
        raise SystemExit(f"{args.fairy_stockfish}: {err}") from None
    finally:
        for engine in engines:
            engine.close()
    return rows


def summary(rows: list[tuple[Level, str, Tally]]) -> None:
    by_level: dict[Level, Tally] = {}
    for level, variant, tally in rows:
        by_level.setdefault(level, Tally()).add(tally)
        label = f"{variant} against {level}"
        if tally.points:
            report(tally.points, f"{label}, our score")
        if tally.unscored:
            print(f"{label}: {len(tally.unscored)} unscored", flush=True)
        theirs = f"median depth {statistics.median(tally.theirs):g}" if tally.theirs else "no searches"
        print(f"  ours: {agent_stats(tally.depths, tally.nps)}; Fairy-Stockfish: {theirs}")
    for level, tally in by_level.items():
        if len(rows) == len(by_level):   # one variant: its lines above say it all
            break
        if tally.points:
            report(tally.points, f"all variants against {level}, our score")
        if tally.unscored:
            print(f"all variants against {level}: {len(tally.unscored)} unscored games")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", default=VARIANTS, help="variants (default: shogi xiangqi crazyhouse)")
    parser.add_argument("--skill", nargs="*", type=int, default=[-20, -10, 0, 5],
                        help="Skill Levels to play, each a level (default -20 -10 0 5; none with a bare --skill)")
    parser.add_argument("--elo", nargs="*", type=int, default=[], help="UCI_Elo values to play, each a level")
    parser.add_argument("--games", type=int, default=10, help="games per level and variant (default 10)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move for both sides (default 1)")
    parser.add_argument("--nodes", type=int, default=None, help="nodes a move for both sides instead of --time")
    parser.add_argument("--clock", type=_clock, default=None, metavar="TC",
                        help="a game clock for both sides instead of --time, in seconds: BASE+INC (60+1), BASE "
                             "or MOVES/BASE[+INC]; --nodes still caps each move")
    parser.add_argument("--agent", default="ai:alphabeta",
                        help="our agent (its budget is replaced by --time, --nodes or --clock)")
    parser.add_argument("--fairy-stockfish", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    parser.add_argument("--no-fen-check", dest="fen_check", action="store_false",
                        help="do not compare Fairy-Stockfish's FEN with ours before its moves")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pgn", help="write the scored games' records to this file")
    args = parser.parse_args(argv)
    if args.time <= 0 or (args.nodes is not None and args.nodes <= 0) or args.games <= 0:
        parser.error("--time, --nodes and --games must be positive")
    if not args.skill and not args.elo:
        parser.error("no level: give --skill or --elo values")
    try:
        parse_agent(args.agent)
        games = {variant: load_game(variant) for variant in args.variants}
    except RulesError as err:
        parser.error(str(err).splitlines()[0])
    try:
        records = RecordsFile(args.pgn)    # an unwritable path fails before any game
    except UsageError as err:
        parser.error(str(err))
    with records:
        rows = run(args, games, records)
    summary(rows)
    return 0


def _clock(text: str) -> TimeControl:
    """``--clock``: a time control, or argparse's usage error with the reason."""
    try:
        return parse_time_control(text)
    except RulesError as err:
        raise argparse.ArgumentTypeError(str(err).splitlines()[0]) from None


if __name__ == "__main__":
    sys.exit(main())
