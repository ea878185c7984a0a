"""``rules analyze``: self-play metrics of a variant, on this machine or a Dask cluster.

The arguments are declared in :mod:`interpreter.cli.arguments` (imported
by nothing heavy); this module runs them through :func:`.runs.analyze` and
prints a summary: the games, the speed, the main metrics and where the
files are.
"""

from __future__ import annotations

from pathlib import Path

from dsl import UsageError
from dsl.loader import DEFAULT_POLICY

from interpreter.agents import parse_agent
from interpreter.agents.clock import parse_time_control
from interpreter.loading import mode_options

from .metrics import OVERALL, SHARES
from .report import interval, number
from .results import METRICS, REPORT, RESULTS
from .runs import Analysis, Interrupted, analyze

DEFAULT_SEAT = "greedy"
SUMMARY = ("balance", "completion", "drawishness", "timeouts", "first_seat_advantage", "duration",
           "branching_factor", "decision_moves", "board_coverage", "lead_change", "decisiveness")


def cmd_analyze(args) -> int:
    """Play the run's games (or those still missing with --resume), then print the summary."""
    seats = args.seat or [DEFAULT_SEAT]
    clock = parse_time_control(args.clock) if args.clock is not None else None
    for text in seats:
        if "=" in text.split(":")[0] or text == "human":
            raise UsageError(f"--seat {text!r}: an analysis takes agents (the teams rotate among them)",
                             hint="e.g. --seat greedy, or --seat ai:alphabeta:depth=2 --seat random")
        parse_agent(text, args.level, DEFAULT_POLICY)
    for name in ("games", "jobs", "batch"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1, not {value}")
    if args.opening_plies is not None and args.opening_plies < 0:
        raise UsageError(f"--opening-plies must be at least 0, not {args.opening_plies}")
    out = Path(args.out or f"analysis-{Path(args.variant).stem}{'-' + args.mode if args.mode else ''}")
    try:
        result = analyze(args.variant, seats, args.games, out, mode=args.mode, options=mode_options(args.option),
                         seed=args.seed or 0, opening_plies=args.opening_plies, max_plies=args.max_plies,
                         level=args.level, jobs=args.jobs, cluster=args.cluster == "local", scheduler=args.scheduler,
                         resume=args.resume, batch=args.batch, clock=clock,
                         files=DEFAULT_POLICY)
    except Interrupted as stop:
        kept = stop.analysis.played + stop.analysis.kept
        print(f"interrupted: {kept} games kept in {out / RESULTS}; the same command with --resume plays the rest")
        return 130
    print(summary(result))
    return 0


def summary(result: Analysis) -> str:
    """The lines printed at the end of a run."""
    m = result.metrics
    title = f"{m['variant']}{' ' + m['mode'] if m['mode'] else ''}"
    lines = [f"{title}: {m['games']} games ({result.played} played now, {result.kept} kept from before)"]
    if result.played:
        rate = result.played / result.seconds if result.seconds > 0 else 0.0
        workers = f"{result.workers} worker{'s' if result.workers != 1 else ''}"
        lines[0] += f" in {result.seconds:.1f} s, {rate:.2f} games/s on {workers}"
        if result.startup >= 0.1:
            lines[0] += f" (started in {result.startup:.1f} s)"
    for key in SUMMARY:
        estimate = m["overall"][key]
        lines.append(f"  {OVERALL[key][0]:<22} {number(estimate['value'], key in SHARES):>8}  "
                     f"{interval(estimate, key in SHARES)}")
    for seat in m["seats"]:
        lines.append(f"  {seat['player']:<22} wins {number(seat['win_rate']['value'], True):>7}  "
                     f"score {number(seat['score']['value'], False)}")
    lines.append(f"wrote {result.directory / REPORT}, {METRICS} and {RESULTS}")
    return "\n".join(lines)
