"""The generated documentation of a bundled variant, computed once per test process.

:func:`interpreter.documentation.pages.variant_files` draws every piece's
movement diagrams, finds the examples and counts perft to depth 3: about a
second per variant, a minute for all of them. tests/test_docs_variants.py
(the pages on disk are up to date) and tests/test_rulebook.py (the pages
read as a rulebook) check the same pages, so both take them from here. The
answer is read-only (a mapping proxy), so no test can change what another
one reads. The two modules are one ``xdist_group`` (``PAGES``), so that under
``pytest -n`` they run in one worker and the pages are made once.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from interpreter.documentation.pages import variant_files
from interpreter.loading import load_game

PAGES = "variant-pages"  # the xdist_group of the modules that read these pages


@lru_cache(maxsize=None)
def variant_pages(name: str) -> Mapping[str, str]:
    """``variant_files(load_game(name))``: ``{file name: text}`` of the bundled variant ``name``, the page first."""
    return MappingProxyType(variant_files(load_game(name)))
