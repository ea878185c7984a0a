"""Where the games of a run are played: in this process, a process pool, or a Dask cluster.

Games travel in *batches*: one task of a pool or a cluster plays several
games one after the other (:func:`play_batch`) and returns their log lines.
A task costs the scheduler a little (a fraction of a millisecond for a
process pool, some milliseconds for Dask: bench/analysis_speed.py measures
it), so a task of one short game would spend much of its time on it. The batches grow
with what is measured: the first tasks hold one game each; once games have
finished, a batch holds as many games as take about
:data:`TASK_SECONDS` at the mean speed so far, and never more than a
share of what is left (so that every worker still has work at the end).
``batch`` fixes the size instead.

Each game depends only on its task (the run's parameters, its seed and its
number; see :mod:`interpreter.agents.matches`), never on which worker
plays it, in which batch or in which order: every backend gives the same
lines (but for the time each game took).

Dask (``distributed``) is optional: ``pip install 'rules-dsl[cluster]'``.
"""

from __future__ import annotations

import logging
import math
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable

from dsl import UsageError

from interpreter.agents.matches import GameTask, play_task
from .logs import game_line

TASK_SECONDS = 2.0
"""About how long one task should take once game times are known."""

INSTALL_HINT = "install it with: pip install 'rules-dsl[cluster]'"


def play_batch(tasks: list[GameTask]) -> list[dict]:
    """Play ``tasks`` (made with a :class:`~.logs.GameWatcher` observer) one after the other, in a
    worker, and return their log lines."""
    lines = []
    for task in tasks:
        started = time.perf_counter()
        result = play_task(task)
        lines.append(game_line(task, result, time.perf_counter() - started))
    return lines


class InProcess:
    """Plays each batch in this process, when it is asked for the next result."""

    workers = 1

    def __init__(self) -> None:
        self.queue: list[list[GameTask]] = []

    def submit(self, batch: list[GameTask]) -> None:
        self.queue.append(batch)

    def next_done(self) -> list[dict]:
        return play_batch(self.queue.pop(0))

    def close(self) -> None:
        self.queue.clear()


class Pool:
    """A pool of ``jobs`` worker processes on this machine."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self.executor = ProcessPoolExecutor(max_workers=jobs)
        self.pending: set = set()

    def submit(self, batch: list[GameTask]) -> None:
        self.pending.add(self.executor.submit(play_batch, batch))

    def next_done(self) -> list[dict]:
        done, _ = wait(self.pending, return_when=FIRST_COMPLETED)
        future = done.pop()
        self.pending.discard(future)
        return future.result()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class Cluster:
    """A Dask cluster: a LocalCluster of ``jobs`` worker processes started here (``address`` None),
    or the scheduler at ``address`` (``tcp://host:port``) and its workers."""

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise UsageError("--cluster and --scheduler need Dask distributed, which is not installed",
                             hint=INSTALL_HINT) from None
        self.local = None
        if address is None:
            self.local = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                                      silence_logs=logging.CRITICAL)
            self.client = Client(self.local)
        else:
            try:
                self.client = Client(address, timeout="10s")
            except (OSError, TimeoutError, ValueError) as err:
                raise UsageError(f"cannot reach the Dask scheduler at {address}: {err}",
                                 hint="start one with 'dask scheduler' and workers with 'dask worker ADDRESS'") from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self.completed = as_completed()

    def submit(self, batch: list[GameTask]) -> None:
        self.completed.add(self.client.submit(play_batch, batch, pure=False))

    def next_done(self) -> list[dict]:
        return next(self.completed).result()

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()


def run_tasks(tasks: list[GameTask], backend, on_line: Callable[[dict], None], batch: int | None = None) -> None:
    """Play ``tasks`` on ``backend`` and call ``on_line`` with each game's log line as its batch
    returns; the backend always has two batches per worker to work on."""
    queue = list(tasks)
    in_flight = 0
    played, seconds = 0, 0.0
    while queue or in_flight:
        while queue and in_flight < 2 * backend.workers:
            size = batch or batch_size(played, seconds, len(queue), backend.workers)
            backend.submit(queue[:size])
            del queue[:size]
            in_flight += 1
        lines = backend.next_done()
        in_flight -= 1
        for line in lines:
            played += 1
            seconds += line["seconds"]
            on_line(line)


def batch_size(played: int, seconds: float, left: int, workers: int) -> int:
    """Games in the next task: 1 until a game was timed, then about :data:`TASK_SECONDS` of games at
    the mean time so far, at most a share of the ``left`` games that keeps every worker busy."""
    if played == 0 or seconds <= 0:
        return 1
    wanted = math.ceil(TASK_SECONDS / (seconds / played))
    return max(1, min(wanted, left // (2 * workers)))
