"""A self-play run from start to report: :func:`analyze` (its games alone: :func:`play_run`).

The games are the games of a match (:func:`interpreter.agents.matches.match_tasks`):
the teams of the mode rotate among the agents given (one agent: pure
self-play), each game opens with random plies drawn from the seed, and
game ``i`` is the same whoever plays it. What :func:`analyze` adds: a run
directory that loses nothing (:mod:`.results`), an observer that logs
every position (:mod:`.logs`), execution on this machine or on a Dask
cluster (:mod:`.execution`), then the metrics (:mod:`.metrics`) and the
report (:mod:`.report`), always recomputed from the results file.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from dsl import UsageError
from dsl.files import FilePolicy
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.agents.clock import TimeControl
from interpreter.agents.matches import match_tasks
from interpreter.agents.specs import parse_agent
from interpreter.compiler.game import Game
from interpreter.loading import load_game, rules_digest

from . import metrics as metrics_module
from .execution import Cluster, InProcess, Pool, run_tasks
from .logs import GameWatcher, game_facts
from .progress import Progress
from .report import write_report
from .results import Parameters, ResultsWriter, Run, open_run, write_metrics


@dataclass
class Analysis:
    """What a run did: its directory, the games played now and kept from before, the seconds spent
    playing (``startup``: starting the workers, before that), the workers, the metrics and the
    report's path."""

    directory: Path
    played: int
    kept: int
    seconds: float
    startup: float
    workers: int
    metrics: dict
    report: Path


def analyze(variant: str, seats: list[str], games: int, out: Path, mode: str | None = None,
            options: dict[str, str] | None = None, seed: int = 0, opening_plies: int | None = None,
            max_plies: int = DEFAULT_MAX_PLIES, level: str | None = None, jobs: int | None = None,
            cluster: bool = False, scheduler: str | None = None, resume: bool = False, batch: int | None = None,
            progress: bool | None = None, clock: TimeControl | None = None,
            files: FilePolicy | None = None) -> Analysis:
    """Play the games of the run in ``out`` that are not played yet, then write its metrics and report.

    ``seats``: agent specs (``random``, ``greedy``, ``ai:alphabeta:depth=2`` ...). ``jobs``: worker
    processes (default: every core; 1 plays in this process); ``cluster`` starts a Dask LocalCluster
    of ``jobs`` workers, ``scheduler`` uses a running Dask scheduler. ``batch`` fixes the games per
    task (default: adaptive, see :mod:`.execution`). ``progress``: draw the bar (default: when
    standard error is a terminal). ``clock``: a game clock for every player (see
    :mod:`interpreter.agents.matches`; None: each move gets its seat's budget). ``files``: the policy by
    which a seat's ``weights=FILE`` is read (None: refused). A KeyboardInterrupt stops the run; every
    finished game stays in the results file, and the metrics and report are still written from them.
    """
    played = play_run(variant, seats, games, out, mode, options, seed, opening_plies, max_plies, level, jobs,
                      cluster, scheduler, resume, batch, progress, clock, files)
    run = played.run
    metrics = metrics_module.compute(run.facts, run.lines())
    write_metrics(run, metrics)
    report = write_report(run, played.game, metrics)
    analysis = Analysis(run.directory, len(run.lines()) - played.kept, played.kept, played.seconds, played.startup,
                        played.workers, metrics, report)
    if played.interrupted is not None:
        raise Interrupted(analysis) from played.interrupted
    return analysis


@dataclass
class Played:
    """The games of a run directory after :func:`play_run`: the compiled game, the open
    :class:`~.results.Run`, the games it ``kept`` from before, the seconds spent playing
    (``startup``: starting the workers, before that), the workers, and the KeyboardInterrupt that
    stopped it early (None when every game was played)."""

    game: Game
    run: Run
    kept: int
    seconds: float
    startup: float
    workers: int
    interrupted: KeyboardInterrupt | None


def play_run(variant: str, seats: list[str], games: int, out: Path, mode: str | None = None,
             options: dict[str, str] | None = None, seed: int = 0, opening_plies: int | None = None,
             max_plies: int = DEFAULT_MAX_PLIES, level: str | None = None, jobs: int | None = None,
             cluster: bool = False, scheduler: str | None = None, resume: bool = False, batch: int | None = None,
             progress: bool | None = None, clock: TimeControl | None = None,
             files: FilePolicy | None = None) -> Played:
    """Open the run in ``out`` (see :func:`~.results.open_run`) and play its games that are not in its
    results yet, with a progress bar; the arguments are :func:`analyze`'s. A KeyboardInterrupt stops
    the games: every finished one is in the results file, and :attr:`Played.interrupted` holds it."""
    if jobs is not None and scheduler is not None:
        raise UsageError("--jobs cannot be used with --scheduler: the workers are the cluster's",
                         hint="start as many Dask workers as you want, or use --cluster local --jobs J")
    game = load_game(variant, mode, options)
    path = Path(variant)
    if path.suffix == ".rules" or path.is_file():
        variant = str(path.resolve())       # workers elsewhere (another directory, a cluster) find it too
    specs = [parse_agent(text, level, files) for text in seats]    # a weights file is read here, once
    parameters = Parameters(variant, mode, dict(options or {}), list(seats), seed, opening_plies, max_plies, level,
                            None if clock is None else str(clock), rules_digest(game.spec),
                            [dict(spec.weights) or None for spec in specs])
    run = open_run(Path(out), parameters, game_facts(game), games, resume)
    kept = len(run.lines())
    tasks = match_tasks(variant, specs, run.missing, mode, options, seed, opening_plies, max_plies, level,
                        observer=GameWatcher, clock=clock, files=files)
    started = ready = time.perf_counter()
    workers = 0
    interrupted = None
    if tasks:
        backend = _backend(len(tasks), jobs, cluster, scheduler)
        workers = backend.workers
        ready = time.perf_counter()
        writer = ResultsWriter(run)
        try:
            with Progress(games, kept, progress) as bar:
                def keep(line: dict) -> None:
                    writer.add(line)
                    bar.advance()
                run_tasks(tasks, backend, keep, batch)
        except KeyboardInterrupt as stop:
            interrupted = stop
        finally:
            backend.close()
            writer.close()
    return Played(game, run, kept, time.perf_counter() - ready, ready - started, workers, interrupted)


class Interrupted(KeyboardInterrupt):
    """The run was interrupted; :attr:`analysis` says what it kept (the report is written)."""

    def __init__(self, analysis: Analysis) -> None:
        super().__init__("interrupted")
        self.analysis = analysis


def _backend(tasks: int, jobs: int | None, cluster: bool, scheduler: str | None):
    if scheduler is not None:
        return Cluster(address=scheduler)
    if cluster:
        return Cluster(jobs or os.cpu_count() or 1)
    jobs = min(jobs or os.cpu_count() or 1, tasks)
    return InProcess() if jobs == 1 else Pool(jobs)
