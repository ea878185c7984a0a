"""What holds for the whole suite: it never writes into the user's own folders.

The user's data folder (``XDG_DATA_HOME``: where ``rules serve`` keeps its games database when no
``--db`` is given, as platformdirs names it) is a fresh temporary folder for the run, removed at its
end; the commands that tests start inherit it.
"""

from __future__ import annotations

import os
import shutil
import tempfile


def pytest_configure(config) -> None:
    config._rules_data_home = tempfile.mkdtemp(prefix="rules-dsl-test-data-")
    os.environ["XDG_DATA_HOME"] = config._rules_data_home


def pytest_unconfigure(config) -> None:
    shutil.rmtree(getattr(config, "_rules_data_home", ""), ignore_errors=True)
