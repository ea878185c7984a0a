"""What the hostile-input fuzzers share (issue 12): the guard every input runs under, and the profiles.

Every input runs under a memory cap (:data:`MEMORY` more address space than
the process already uses) and a watchdog (:data:`WATCHDOG` seconds) that
catch a runaway input; both are bounds far above what any input needs, not
timings. :func:`guarded` turns anything but a clean :class:`RulesError`
(a traceback, the cap, the watchdog) into a test failure that shows the
input. :data:`QUICK` runs a modest number of examples, the same ones every
run, so that the suite stays fast; :data:`MANY` (for ``-m slow``) many,
with fresh random data.
"""

from __future__ import annotations

import resource
import signal
from contextlib import contextmanager
from typing import Callable

import pytest
from hypothesis import HealthCheck, settings

from dsl import RulesError

MEMORY = 1 << 30
WATCHDOG = 60

QUICK = settings(max_examples=20, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MANY = settings(QUICK, max_examples=1500, derandomize=False)


class Overrun(Exception):
    """The watchdog fired: an input took longer than any input may."""


@contextmanager
def bounded(seconds: float = WATCHDOG, memory: int = MEMORY):
    """Run the block with at most ``memory`` more bytes of address space and a ``seconds`` watchdog."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    cap = used + memory if hard == resource.RLIM_INFINITY else min(used + memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))

    def fire(signum, frame):
        raise Overrun(f"an input ran for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def guarded(run: Callable[[], object], shown: str) -> None:
    """Call ``run`` under :func:`bounded`; a RulesError is a clean answer (its message must render),
    anything else fails the test with ``shown`` (the input)."""
    try:
        with bounded():
            try:
                run()
            except RulesError as err:
                err.render()
    except MemoryError:
        pytest.fail(f"an input used more than {MEMORY >> 20} MB more memory\n--- input ---\n{shown[:4000]}")
    except Overrun as err:
        pytest.fail(f"{err}\n--- input ---\n{shown[:4000]}")
    except Exception as err:  # the failure message carries the input
        pytest.fail(f"{type(err).__name__}: {err}\n--- input ---\n{shown[:4000]}")
