"""The user's cache directory: what is slow to build and the same from run to run is kept there.

Two things are kept: the grammar's compiled parser (:func:`dsl.parser.grammar_parser`) and
compiled games (:mod:`interpreter.loading.stored`). The directory is ``$RULES_DSL_CACHE`` when
it names one; else ``rules-dsl`` in ``$XDG_CACHE_HOME``, ``~/.cache`` when that is unset (the
XDG rule). ``RULES_DSL_CACHE`` set to ``off``, ``0`` or nothing turns caching off, as the
global option ``rules --no-cache`` does for one command: nothing is then read or written.

Both caches hold pickles, which run code when read, as the ``__pycache__`` folders of Python
itself hold code: the directory is made private to the user, and it is used only when it
belongs to the user and nobody else may write to it (else nothing is cached).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

VARIABLE = "RULES_DSL_CACHE"
OFF = ("", "0", "off")   # values of RULES_DSL_CACHE that turn caching off


def cache_dir() -> Path | None:
    """The cache directory, made when missing (mode 0700); None when caching is off, when it
    cannot be made or written, or when it belongs to someone else or others may write to it."""
    configured = os.environ.get(VARIABLE)
    if configured is not None and configured.strip().lower() in OFF:
        return None
    base = Path(configured) if configured else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rules-dsl"
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = base.stat()
    except OSError:
        return None
    owner = getattr(os, "getuid", None)
    if (owner is not None and status.st_uid != owner()) or status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return base if os.access(base, os.W_OK) else None
