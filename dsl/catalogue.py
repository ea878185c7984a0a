"""The bundled variants and the standard library: where they are, their names, titles and aliases.

Listing the bundled variants (``rules list``) and resolving an alias must
not cost a parse of every file, so the title and the aliases of a bundled
variant are read here from its ``variant`` block with a scan of its tokens
(comments, strings, words), without the grammar. Every bundled file
declares both in its own ``variant`` block; a test checks that the scan
agrees with the parsed Spec for each of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .strings import unquote

RULES_SUFFIX = ".rules"

_TOKEN = re.compile(r'#[^\n]*|"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_][A-Za-z0-9_-]*|\S')


def bundled_dir() -> Path:
    """The directory of the bundled variants.

    Installed, they are the package data ``dsl.variants``; run from a source
    checkout (where ``dsl`` is imported from the tree itself) they are the
    top-level ``variants/`` directory.
    """
    installed = Path(__file__).resolve().parent / "variants"
    return installed if installed.is_dir() else Path(__file__).resolve().parent.parent / "variants"


def std_dir() -> Path:
    """The directory of the standard library of reusable rules files."""
    return Path(__file__).resolve().parent / "std"


def bundled_names() -> list[str]:
    """The names of all bundled variants, sorted."""
    return sorted(p.stem for p in bundled_dir().glob(f"*{RULES_SUFFIX}"))


@dataclass(frozen=True)
class Header:
    """What a bundled file's ``variant`` block says of it: its title (None if it has none) and aliases."""

    name: str
    title: str | None
    aliases: tuple[str, ...]


def read_header(text: str, name: str) -> Header:
    """The title and aliases in the first ``variant NAME { ... }`` block of ``text``."""
    tokens = [t for t in _TOKEN.findall(text) if not t.startswith("#")]
    title, aliases = None, []
    for i, token in enumerate(tokens):
        if token == "variant" and i + 2 < len(tokens) and tokens[i + 2] == "{":
            j = i + 3
            while j < len(tokens) and tokens[j] != "}":
                if tokens[j] == "title" and j + 1 < len(tokens) and tokens[j + 1].startswith('"'):
                    title = unquote(tokens[j + 1])
                elif tokens[j] == "alias":
                    j += 1
                    aliases.append(tokens[j])
                    while j + 2 < len(tokens) and tokens[j + 1] == ",":
                        j += 2
                        aliases.append(tokens[j])
                j += 1
            break
    return Header(name, title, tuple(aliases))


@lru_cache(maxsize=1)
def bundled_headers() -> tuple[Header, ...]:
    """The header of every bundled variant, in name order."""
    return tuple(read_header((bundled_dir() / f"{name}{RULES_SUFFIX}").read_text(encoding="utf-8"), name)
                 for name in bundled_names())


def bundled_aliases() -> dict[str, str]:
    """Alias -> bundled name (the first variant to claim an alias keeps it)."""
    table: dict[str, str] = {}
    for header in bundled_headers():
        for alias in header.aliases:
            table.setdefault(alias, header.name)
    return table
