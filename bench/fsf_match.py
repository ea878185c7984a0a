"""Our alpha-beta agent against Fairy-Stockfish at its weakest, in shogi, xiangqi and crazyhouse (not part of CI).

Run from the repository root (Fairy-Stockfish is the Debian package ``fairy-stockfish``:
``apt-get install fairy-stockfish``, ``/usr/games/fairy-stockfish``)::

    .venv/bin/python bench/fsf_match.py                                 # 10 games a level and variant, 1 s a move
    .venv/bin/python bench/fsf_match.py --variants shogi --skill -20 0 --games 2 --time 0.5
    .venv/bin/python bench/fsf_match.py --skill --elo 1350 --nodes 20000 --pgn fsf.pgn

Fairy-Stockfish is driven over UCI by this script (python-chess has no shogi or xiangqi
board): ``UCI_Variant`` picks the variant, one thread, and each *level* is either a ``Skill
Level`` (``--skill``; Fairy-Stockfish 11.1 goes from -20, its weakest, to 20) or
``UCI_LimitStrength`` with a ``UCI_Elo`` (``--elo``; 1350 to 2850 there, Stockfish's scale for
chess, not calibrated for variants). Both sides get the
same budget a move: ``--time`` seconds (``go movetime``) or ``--nodes`` (``go nodes``, which
counts different things in the two engines). Colours alternate; each pair of games starts from
the same ``--opening-plies`` random moves; a game still running after ``--max-plies`` is a draw.

Every game is judged by our rules file of the variant. Fairy-Stockfish is told the game as
``position startpos moves ...`` in our from-to notation (``move_to_uci``), and its answer is read
by our parser (``parse_move``): both write files from ``a`` and ranks from 1 (xiangqi's go to
10: ``a10a9``), drops as ``P@e5`` and shogi's promotion as a trailing ``+``, as ``rules uci``
does. Before each of its moves the script also asks Fairy-Stockfish for its FEN (``d``) and
compares it with ours (placement, pieces in hand in any order, side to move; shogi's promoted
pieces, ``+B`` there and ``+B~`` here, are the same): a move it did not take from us shows up
at once. A move our parser cannot read, a position that differs, or no move where our rules go
on stops that game as unscored, with the details. The script prints every game, then the score
per level and variant and per level, with the Elo difference and its 95% interval
(``interpreter.agents.stats``): positive when our agent is the stronger.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # bench.common, when run as a script

from dsl.errors import MoveError, RulesError  # noqa: E402

from bench.common import LineProcess, Unscored, agent_stats, play_out, team_points, write_records  # noqa: E402
from bench.engine_match import report  # noqa: E402
from interpreter import native  # noqa: E402
from interpreter.agents import Budget, parse_agent  # noqa: E402
from interpreter.loading import load_game, start_fen  # noqa: E402
from interpreter.loading.records import game_record  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402
from interpreter.notation.reading import parse_move  # noqa: E402

VARIANTS = ["shogi", "xiangqi", "crazyhouse"]
WAIT = 60.0   # seconds Fairy-Stockfish may take beyond its budget before the game is given up


@dataclass(frozen=True)
class Level:
    """A strength of Fairy-Stockfish: ``Skill Level`` N, or ``UCI_Elo`` N with ``UCI_LimitStrength``."""

    option: str
    value: int

    def __str__(self) -> str:
        return f"skill {self.value}" if self.option == "Skill Level" else f"UCI_Elo {self.value}"


def position_key(fen: str) -> tuple[str, str, str]:
    """What two FEN writers must agree on: placement, pieces in hand (sorted) and side to move.
    A promoted piece written with a ``+`` letter and ``~`` (ours, ``+B~``) is the same as without it."""
    fields = fen.split()
    placement = re.sub(r"(\+[A-Za-z])~", r"\1", fields[0])
    board, _, hand = placement.partition("[")
    return board, "".join(sorted(hand.rstrip("]"))), fields[1]


class FairyStockfish:
    """Fairy-Stockfish over UCI: its options, a variant and level, its move in a game."""

    def __init__(self, path: str) -> None:
        self.process = LineProcess([path], "Fairy-Stockfish")
        self.process.send("uci")
        lines = self.process.expect(lambda line: line == "uciok", WAIT)
        self.name = next((line[8:] for line in lines if line.startswith("id name ")), path)
        self.depths: list[int] = []   # the depth of each search it reported
        self.options: dict[str, list[str]] = {}
        for line in lines:
            match = re.match(r"option name (.+?) type (\S+)(.*)", line)
            if match:
                self.options[match.group(1)] = match.group(3).split()

    def option_range(self, name: str) -> tuple[int, int] | None:
        words = self.options.get(name)
        if words is None or "min" not in words:
            return None
        return int(words[words.index("min") + 1]), int(words[words.index("max") + 1])

    def variants(self) -> list[str]:
        words = self.options.get("UCI_Variant", [])
        return [words[i + 1] for i, w in enumerate(words) if w == "var"]

    def setup(self, variant: str, level: Level) -> None:
        for name, value in (("UCI_Variant", variant), ("Threads", 1), ("Hash", 16),
                            ("UCI_LimitStrength", "true" if level.option == "UCI_Elo" else "false"),
                            (level.option, level.value)):
            self.process.send(f"setoption name {name} value {value}")
        self.ready()

    def ready(self) -> None:
        self.process.send("isready")
        self.process.expect(lambda line: line == "readyok", WAIT)

    def new_game(self) -> None:
        self.process.send("ucinewgame")
        self.ready()

    def play(self, texts: list[str], go: str, wait: float) -> tuple[str | None, str]:
        """Its move after ``texts`` from the start (None: ``bestmove (none)``) and its FEN of the position;
        the depth it reported goes to :attr:`depths`."""
        self.process.send("position startpos" + (" moves " + " ".join(texts) if texts else ""))
        self.process.send("d")
        lines = self.process.expect(lambda line: line.startswith("Checkers:"), WAIT)
        fen = next((line[5:] for line in lines if line.startswith("Fen: ")), "")
        self.process.send(go)
        lines = self.process.expect(lambda line: line.startswith("bestmove"), wait)
        answer = lines[-1].split()
        depths = [int(m.group(1)) for m in (re.match(r"info depth (\d+)", line) for line in lines) if m]
        self.depths.append(depths[-1] if depths else 0)
        return (answer[1] if len(answer) > 1 and answer[1] != "(none)" else None), fen

    def close(self) -> None:
        self.process.close()


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


def play_game(index: int, variant: str, game, level: Level, fsf: FairyStockfish, args, tally: Tally):
    """Game ``index`` at ``level``: adds our points (or the reason it is unscored) to ``tally``;
    returns the game (:class:`bench.common.Played`) and which army we played."""
    ours = index % 2
    agent = parse_agent(args.agent).make(args.seed + index)
    budget = Budget(nodes=args.nodes) if args.nodes else Budget(time=args.time)
    go = f"go nodes {args.nodes}" if args.nodes else f"go movetime {round(args.time * 1000)}"
    fsf.new_game()

    def choose(pos, legal, texts):
        if pos.army == ours:
            info = agent.choose(pos, budget)
            tally.depths.append(info.depth)
            tally.nps.append(info.nps)
            if info.move is None:
                raise Unscored("our agent returned no move")
            return info.move
        text, fen = fsf.play(texts, go, (args.time or 10.0) + WAIT)
        if args.fen_check and position_key(fen) != position_key(to_fen(pos)):
            raise Unscored(f"Fairy-Stockfish's position differs from ours after {' '.join(texts[-4:]) or 'no move'}: "
                           f"it has {fen}, we have {to_fen(pos)}")
        if text is None:
            raise Unscored(f"Fairy-Stockfish answered bestmove (none) where our rules go on: {to_fen(pos)}")
        try:
            return parse_move(pos, text, legal=legal)
        except MoveError as err:
            raise Unscored(f"our parser cannot read Fairy-Stockfish's move {text!r} in {to_fen(pos)}: "
                           f"{str(err).splitlines()[0]}") from None

    rng = random.Random(f"{args.seed}/{variant}/{index // 2}")
    played = play_out(game, choose, rng, args.opening_plies, args.max_plies)
    if played.unscored:
        tally.unscored.append(played.unscored)
    else:
        tally.points.append(team_points(played.result, {ours}))
    return played, ours


def run(args) -> tuple[list[tuple[Level, str, Tally]], list[str]]:
    fsf = FairyStockfish(args.fairy_stockfish)
    rows, records = [], []
    try:
        levels = [Level("Skill Level", n) for n in args.skill] + [Level("UCI_Elo", n) for n in args.elo]
        for level in levels:
            span = fsf.option_range(level.option)
            if span is None or not span[0] <= level.value <= span[1]:
                raise SystemExit(f"{fsf.name} offers no {level.option} {level.value} (its range: {span})")
        missing = [v for v in args.variants if v not in fsf.variants()]
        if missing:
            raise SystemExit(f"{fsf.name} does not play {', '.join(missing)}")
        budget = f"{args.nodes} nodes" if args.nodes else f"{args.time:g} s"
        print(f"{fsf.name} against {args.agent}, {budget} a move each; engine: {native.status}", flush=True)
        for level in levels:
            for variant in args.variants:
                game = load_game(variant)
                fsf.setup(variant, level)
                tally = Tally()
                rows.append((level, variant, tally))
                for i in range(args.games):
                    fsf.depths = tally.theirs
                    played, ours = play_game(i, variant, game, level, fsf, args, tally)
                    side = game.armies[ours].title
                    if played.unscored:
                        verdict = f"UNSCORED after {played.plies} plies: {played.unscored}"
                    else:
                        verdict = (f"{played.result.describe(game)}, {played.plies} plies, our points "
                                   f"{tally.points[-1]} (total {sum(tally.points)}/{len(tally.points)})")
                        names = {game.armies[ours].name: args.agent, game.armies[1 - ours].name: f"{fsf.name} {level}"}
                        records.append(game_record(game, start_fen(game), played.sans, played.result, names,
                                                   {"Event": f"rules-dsl against Fairy-Stockfish, {level}",
                                                    "Round": str(i + 1)}))
                    print(f"{variant} {level} game {i + 1:>3}: we play {side}: {verdict}", flush=True)
    finally:
        fsf.close()
    return rows, records


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
    parser.add_argument("--agent", default="ai:alphabeta", help="our agent (its budget is replaced by --time or --nodes)")
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
    except RulesError as err:
        parser.error(str(err))
    rows, records = run(args)
    summary(rows)
    write_records(args.pgn, records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
