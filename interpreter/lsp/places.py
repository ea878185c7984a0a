"""Between the language's source locations and the protocol's: file URIs, 0-based ranges, words.

A :class:`~dsl.errors.Loc` is 1-based with an exclusive end column on its line; a protocol range
is 0-based. Columns are counted in characters (the protocol counts UTF-16 units: they differ only
for characters outside the Basic Multilingual Plane, which a rules file has in strings at most).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from dsl.errors import Loc
from lsprotocol import types as T

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def path_of(uri: str) -> str:
    """The file a ``file:`` URI names, or a label in angle brackets for any other URI (an unsaved
    buffer): such a text may name bundled files only in its ``extends`` and ``include``."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return f"<{Path(unquote(parsed.path)).name or 'untitled'}>"
    return str(Path(unquote(parsed.path)).resolve())


def uri_of(path: str) -> str:
    """The ``file:`` URI of a file's path."""
    return Path(path).resolve().as_uri()


def range_of(loc: Loc) -> T.Range:
    """The range of a located span (one character where its end is not known)."""
    line, start = loc.line - 1, loc.column - 1
    end = loc.end_column - 1 if loc.end_column and loc.end_column > loc.column else start + 1
    return T.Range(T.Position(line, max(start, 0)), T.Position(line, max(end, 0)))


def offset_of(text: str, position: T.Position) -> int:
    """The index in ``text`` of a 0-based line and character (clamped to the text)."""
    lines = text.split("\n")
    line = min(position.line, len(lines) - 1)
    return sum(len(t) + 1 for t in lines[:line]) + min(position.character, len(lines[line]))


def word_at(text: str, offset: int) -> tuple[str, int] | None:
    """The name the cursor at ``offset`` is on or just after, and where it starts; None elsewhere."""
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    match = WORD.match(text, start)
    return (match.group(), start) if match and match.end() >= offset else None
