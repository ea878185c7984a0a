"""Building or reading a compiled game without Python's cyclic garbage collector.

Compiling a game, or reading a stored one, makes hundreds of thousands of tuples
and lists that live as long as the game: each batch of them starts a collection
that finds nothing to free, and a whole build spends a quarter of its time in
them (a read, half). :func:`collection_paused` turns the collector off for such
a block (what is freed by reference counting is still freed at once), and back
on when the last of the blocks running in any thread ends, if it was on when the
first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_blocks = 0          # blocks running now, in every thread
_resume = False      # whether the collector was on when the first of them began


@contextmanager
def collection_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off (see the module's docstring)."""
    global _blocks, _resume
    with _lock:
        if _blocks == 0:
            _resume = gc.isenabled()
            gc.disable()
        _blocks += 1
    try:
        yield
    finally:
        with _lock:
            _blocks -= 1
            if _blocks == 0 and _resume:
                gc.enable()
