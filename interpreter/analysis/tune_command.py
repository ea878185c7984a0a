"""``rules tune``: fit the evaluation's weights of a variant to self-play games (or given records).

The arguments are declared in :mod:`interpreter.cli.arguments`; this
module checks them (before any game is played), plays the games into the
run directory beside the tuned file (``chess-tuned.games/`` for
``chess-tuned.rules``: ``run.json`` and ``results.jsonl`` as ``rules
analyze`` writes them, so ``--resume`` continues an interrupted run), or
reads ``--from``, labels their positions by a ``--teacher`` when one is
given (:mod:`.teacher`), fits (:mod:`.tuning`), prints the weights beside the start
weights with the error before and after, and writes the tuned rules file.
That file is never overwritten: an existing ``--out`` is refused before
anything is played.
"""

from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path

from dsl import UsageError
from dsl import limits as L
from dsl.errors import RulesError, clip
from dsl.loader import DEFAULT_POLICY

from interpreter.agents import parse_agent
from interpreter.agents.specs import SEARCHES, names_budget
from interpreter.agents.terms import NAMES
from interpreter.loading import load_game, mode_options
from interpreter.loading.records import Record

from .progress import Progress
from .results import HEADER, RESULTS, read_header
from .runs import play_run
from .teacher import Teacher
from .tuning import (Tuned, at_upper_bound, default_out, extends_line, interval, number, records_in, run_records, tune,
                     tuned_rules, write_new)

DEFAULT_SEAT = "ai:alphabeta:nodes=1000"
DEFAULT_GAMES = 100
MAX_GAMES = 10_000
MEASURE_GAMES = 200
"""The games of the match the closing line suggests: enough to tell about 50 Elo from none."""
PLAY_OPTIONS = ("games", "seat", "seed", "jobs", "cluster", "scheduler", "level", "opening_plies", "max_plies", "resume")
"""The options of the games played, which --from (games given) refuses."""


def cmd_tune(args) -> int:
    """Check the arguments, play the run's games (or read --from), fit, print and write the tuned file."""
    game = load_game(args.variant, args.mode, mode_options(args.option))
    out = Path(args.out) if args.out else default_out(args.variant, game)
    if out.suffix != ".rules":
        raise UsageError(f"--out {clip(str(out))!r} is not a .rules file", expected="a path ending in .rules",
                         hint="the tuned weights are written as a rules file that extends the variant")
    if out.exists() or out.is_symlink():
        raise UsageError(f"{clip(str(out))} exists, and rules tune never overwrites a file",
                         hint="remove it or choose another --out (with --resume, the games played so far "
                              f"stay in {_run_directory(out)})")
    teacher = Teacher(args.teacher, game) if args.teacher is not None else None
    if args.records is not None:
        given = [f"--{name.replace('_', '-')}" for name in PLAY_OPTIONS if getattr(args, name) not in (None, False)]
        if given:
            raise UsageError(f"--from reads games, so {', '.join(given)} cannot be used with it",
                             hint="leave out --from to play the games")
        records = records_in(Path(args.records))
        source = f"{len(records):,} games of {args.records}"
    else:
        records, source = _play(args, game, out)
        if records is None:
            return 130
    try:
        with Progress(len(records), label="games labelled" if teacher else "games read") as bar:
            tuned = tune(game, records, teacher, bar.advance)
    except KeyboardInterrupt:
        again = "the same command with --resume" if args.records is None else "the same command"
        print(f"interrupted before the fit: nothing written; the games are kept ({again} reads them again)")
        return 130
    finally:
        if teacher is not None:
            teacher.close()
    print(summary(tuned))
    text = tuned_rules(args.variant, game, tuned, out, source)
    why = write_new(out, text)
    if why is not None:
        print(f"cannot write {clip(str(out))}: {why}; here it is instead:", file=sys.stderr)
        sys.stdout.write(text)
        return 0
    _, outside = extends_line(args.variant, out)
    load = f"rules play {out}" + (f" --include-dir {Path(args.variant).resolve().parent}" if outside else "")
    print(f"wrote {out}: {load} plays with these weights, and\n  {measure_line(args, out, outside, records)}\n"
          f"measures them against the start weights (the fit predicts; games tell whether it plays better)")
    return 0


def measure_line(args, out: Path, outside: bool, records: list[tuple[str, Record]]) -> str:
    """The ``rules match`` command that plays the weights of ``out`` against the start weights, both
    with the search (and budget) that played the games: after ``--from``, the first seat of the run
    directory it names, or the one agent that played both sides of every record (:func:`_records_seat`);
    the default seat's after other records, or games of an agent without an evaluation (``greedy``).
    ``outside``: ``out`` extends a variant in another folder, which the match must be allowed to read."""
    seat, level = (args.seat or [DEFAULT_SEAT])[0], args.level
    if args.records is not None:
        seat, level = _run_seat(Path(args.records)) or (_records_seat(records) or DEFAULT_SEAT, None)
    if parse_agent(seat, level, DEFAULT_POLICY).kind not in SEARCHES:
        seat, level = DEFAULT_SEAT, None
    words = ["rules", "match", args.variant, *(["--mode", args.mode] if args.mode else []),
             *(word for text in args.option or [] for word in ("--option", text)),
             "--seat", f"{seat}:weights={out}", "--seat", seat, "--games", str(MEASURE_GAMES),
             *(["--level", level] if level else []),
             *(["--include-dir", str(Path(args.variant).resolve().parent)] if outside else [])]
    return shlex.join(words)


def _run_seat(path: Path) -> tuple[str, str | None] | None:
    """The first seat and the level of the run directory ``path`` when its header names a search
    that reads no file (None otherwise: records, or a header that cannot be read or says something else)."""
    try:
        parameters = read_header(path / HEADER)["parameters"] if (path / HEADER).is_file() else None
    except UsageError:
        return None
    if not isinstance(parameters, dict):
        return None
    seats, level = parameters.get("seats"), parameters.get("level")
    if not (isinstance(seats, list) and seats and isinstance(seats[0], str)) or not (level is None or isinstance(level, str)):
        return None
    return (seats[0], level) if _search(seats[0], level) else None


def _records_seat(records: list[tuple[str, Record]]) -> str | None:
    """The agent that played White and Black in every one of ``records`` (self-play, as ``rules match
    --pgn`` and a run write them), when it is a search that names its budget and reads no file;
    None otherwise (people, two agents, records without those tags). A --level given beside a
    spec that names a budget is not in the record either: the spec is taken as written."""
    players = {record.tags.get(side) for _, record in records for side in ("White", "Black")}
    seat = players.pop() if len(players) == 1 else None    # None too where the tags are missing
    if seat is None:
        return None
    # A bare "ai" was played at a --level that the record does not keep: only a spec that names its budget says it.
    return seat if names_budget(seat) and _search(seat, None) else None


def _search(seat: str, level: str | None) -> bool:
    """Is ``seat`` (at ``level``) a search that reads no file? False for text that is no agent this
    version knows."""
    try:
        return parse_agent(seat, level, None).kind in SEARCHES
    except RulesError:
        return False


def _play(args, game, out: Path):
    """Play the games of the run beside ``out`` not played yet; their named records and a description
    of them, or (None, "") when interrupted."""
    seats = args.seat or [DEFAULT_SEAT]
    for text in seats:
        if "=" in text.split(":")[0] or text == "human":
            raise UsageError(f"--seat {text!r}: tuning takes agents (the teams rotate among them)",
                             hint=f"e.g. --seat {DEFAULT_SEAT}")
        parse_agent(text, args.level, DEFAULT_POLICY)
    games = DEFAULT_GAMES if args.games is None else args.games
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--games must be between 1 and {MAX_GAMES:,}, not {games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.opening_plies is not None and args.opening_plies < 0:
        raise UsageError(f"--opening-plies must be at least 0, not {args.opening_plies}")
    max_plies = L.DEFAULT_MAX_PLIES if args.max_plies is None else args.max_plies
    if max_plies > L.MOVES.value:
        raise UsageError(f"--max-plies {max_plies} is more than a record can be read back with "
                         f"({L.MOVES.value:,} moves)", expected=f"at most {L.MOVES.value:,}")
    directory = _run_directory(out)
    played = play_run(args.variant, seats, games, directory, args.mode, mode_options(args.option), args.seed or 0,
                      args.opening_plies, max_plies, args.level, args.jobs, cluster=args.cluster == "local",
                      scheduler=args.scheduler, resume=args.resume, files=DEFAULT_POLICY)
    run = played.run
    lines = run.lines()
    if played.interrupted is not None:
        print(f"interrupted: {len(lines)} games kept in {directory / RESULTS}; the same command with --resume "
              f"plays the rest")
        return None, ""
    now = len(lines) - played.kept
    spent = f" in {played.seconds:.0f} s" if now else ""
    print(f"{game.name}{' ' + game.mode if game.mode else ''}: {len(lines)} games ({now} played now{spent}, "
          f"{played.kept} kept from before) in {directory}")
    source = f"{len(lines):,} self-play games ({', '.join(seats)}, seed {args.seed or 0})"
    return run_records(directory, lines), source


def _run_directory(out: Path) -> Path:
    """The run directory of the games of the tuned file ``out``: ``chess-tuned.games`` beside
    ``chess-tuned.rules``."""
    return out.with_suffix(".games")


def summary(tuned: Tuned) -> str:
    """The lines printed after the fit: the positions, K, each weight beside its start (with its 95%
    interval by resampling the games), the errors, and a warning when the held-out games' error did
    not fall (no such fit has won its match: bench/README.md)."""
    f, samples = tuned.fit, tuned.samples
    held = f" ({f.held_out_positions:,} of held-out games)" if f.held_out_positions else ""
    games = (f"{samples.read} games{held}, labelled by {tuned.teacher}" if tuned.teacher else
             f"{samples.read - samples.unfinished} finished games{held}")
    lines = [f"{f.positions + f.held_out_positions:,} quiet positions of {games}; fitted in {f.iterations} iterations",
             f"K = {f.k:.5f} per centipawn: a pawn ahead predicts a score of {_pawn(f.k):.3f}",
             f"  {'weight':<10} {'start':>6} {'tuned':>6}  {'95% (games resampled)' if f.intervals else ''}"]
    for name in NAMES:
        note = (" not fitted: its term is zero in almost every position" if name in f.fixed
                else f" {interval(f.intervals[name])}" if f.intervals else "")
        if at_upper_bound(f, name):
            note += " (the fit's upper bound: the games ask for more)"
        lines.append(f"  {name:<10} {number(f.start[name]):>6} {number(f.weights[name]):>6} {note}".rstrip())
    lines.append(f"mean squared error: {f.error_start:.4f} with the start weights, {f.error:.4f} tuned")
    if f.held_out_start is not None:
        lines.append(f"  on the held-out games: {f.held_out_start:.4f} with the start weights, "
                     f"{f.held_out_error:.4f} tuned")
        if f.held_out_error >= f.held_out_start:
            lines.append("  no better on the held-out games: the fit learnt its own positions, not the game, "
                         "and is unlikely to play better")
    return "\n".join(lines)


def _pawn(k: float) -> float:
    """The score predicted for a lead of 100 centipawns at ``k``."""
    return 1 / (1 + math.exp(-100 * k))
