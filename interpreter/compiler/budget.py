"""How much work a rules file may make the compiler do.

The size of the compiled tables follows from the file (board size, ranges,
paths, zigzags, kinds of piece, armies), so compiling counts what it builds
against :data:`~dsl.limits.TABLE_ENTRIES` as it goes and stops with a
:class:`~dsl.errors.LimitError` as soon as the budget is spent, before the
work it would cost is done; :data:`~dsl.limits.COMPILE_SECONDS` is a last
resort against anything the count misses. The error points at the pattern
being compiled (:func:`located`), or at the variant.

The budget of the compile in progress is held in a context variable: the
functions that build tables call :func:`spend` without passing it around,
and outside a compile (a test calling a table builder directly) nothing is
counted.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from dsl import limits as L
from dsl.errors import Loc


class CompileBudget:
    """The table entries spent by one compile, its deadline, and where it is compiling now."""

    def __init__(self, loc: Loc | None) -> None:
        self.used = 0
        self.loc = loc
        self.deadline = time.monotonic() + L.COMPILE_SECONDS.value

    def spend(self, amount: int) -> None:
        self.used += amount
        if self.used > L.TABLE_ENTRIES.value:
            raise L.TABLE_ENTRIES.error(f"compiling this variant needs more than {L.TABLE_ENTRIES.value:,} "
                                        "table entries", self.loc)
        if time.monotonic() > self.deadline:
            raise L.COMPILE_SECONDS.error(f"compiling this variant takes more than {L.COMPILE_SECONDS.value} "
                                          "seconds", self.loc)


_CURRENT: ContextVar[CompileBudget | None] = ContextVar("compile_budget", default=None)


@contextmanager
def compiling(loc: Loc | None) -> Iterator[CompileBudget]:
    """A fresh budget for the compile of one variant (``loc``: where its errors point by default)."""
    budget = CompileBudget(loc)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


@contextmanager
def located(loc: Loc | None) -> Iterator[None]:
    """Point a budget error raised inside the block at ``loc`` (the pattern being compiled)."""
    budget = _CURRENT.get()
    if budget is None or loc is None:
        yield
        return
    outer, budget.loc = budget.loc, loc
    try:
        yield
    finally:
        budget.loc = outer


def spend(amount: int) -> None:
    """Count ``amount`` table entries against the compile in progress (none: nothing is counted)."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.spend(amount)
