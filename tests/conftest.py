"""What holds for the whole suite: it never writes into the user's own folders.

The user's data folder (``XDG_DATA_HOME``: where ``rules serve`` keeps its games database when no
``--db`` is given, as platformdirs names it) and cache folder (``XDG_CACHE_HOME``: the compiled
grammar and games, see :mod:`dsl.caching`; ``RULES_DSL_CACHE`` is unset so that it is used) are
fresh temporary folders for the run, removed at its end; the commands that tests start inherit them.
"""

from __future__ import annotations

import os
import shutil
import tempfile


def pytest_configure(config) -> None:
    config._rules_data_home = tempfile.mkdtemp(prefix="rules-dsl-test-data-")
    config._rules_cache_home = tempfile.mkdtemp(prefix="rules-dsl-test-cache-")
    os.environ["XDG_DATA_HOME"] = config._rules_data_home
    os.environ["XDG_CACHE_HOME"] = config._rules_cache_home
    os.environ.pop("RULES_DSL_CACHE", None)


def pytest_unconfigure(config) -> None:
    shutil.rmtree(getattr(config, "_rules_data_home", ""), ignore_errors=True)
    shutil.rmtree(getattr(config, "_rules_cache_home", ""), ignore_errors=True)
