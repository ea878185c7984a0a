"""The progress bar of a run: games done of the games asked for, games per second and the time left.

(``rules tune`` draws it too while it reads the games: ``label`` says what is done to them.)

Drawn with rich on standard error when that is a terminal (the agents'
``rules match`` uses rich too), nothing otherwise. Games already in the
results file of a resumed run count as done from the start; the speed and
the time left count only the games of this run.
"""

from __future__ import annotations

import sys
import time


class Progress:
    """A context manager; :meth:`advance` after each finished game."""

    def __init__(self, total: int, done: int = 0, enabled: bool | None = None, label: str = "games") -> None:
        self.total, self.done, self.label = total, done, label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.bar = None
        self.started = time.perf_counter()
        self.played = 0

    def __enter__(self) -> "Progress":
        if self.enabled and self.done < self.total:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn
            self.bar = Bar(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[speed]}"),
                           TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=False)
            self.task = self.bar.add_task("", total=self.total, completed=self.done, speed="")
            self.bar.start()
        return self

    def advance(self) -> None:
        self.played += 1
        if self.bar is not None:
            self.bar.update(self.task, advance=1, speed=f"{self.rate:.2f} games/s")

    @property
    def rate(self) -> float:
        """Games per second of this run so far."""
        elapsed = time.perf_counter() - self.started
        return self.played / elapsed if elapsed > 0 else 0.0

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
