"""Fairy-Stockfish's variants.ini read as sections of settings, each with its place in the file.

The file is treated as hostile input: it is read only up to :data:`MAX_BYTES`,
a line longer than :data:`MAX_LINE` characters, more than
:data:`MAX_SECTIONS` sections or more than :data:`MAX_SETTINGS` settings in
one section is a :class:`~dsl.errors.LimitError`, and anything that is not a
comment (``#`` or ``;`` first), a blank line, a section header
``[name]`` / ``[name:parent]`` or a ``key = value`` line inside a section is
a :class:`~dsl.errors.RulesSyntaxError` at ``file:line:col``. A section
named twice is an error at its second header. Within a section a key set
twice keeps its last value, as Fairy-Stockfish reads it. A parent named in the file must come before
its child (so that no chain of parents loops).

Names are not trusted either: a section name is kept as written (at most
:data:`MAX_NAME` characters of ``[A-Za-z0-9_.+-]``); whoever turns it into a
file name must escape it (:func:`interpreter.interchange.fsf_import.file_stem`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dsl.errors import LimitError, Loc, RulesSyntaxError, UsageError, clip

MAX_BYTES = 2_000_000
"""The largest variants.ini read (Fairy-Stockfish's own is about 100 kB)."""
MAX_LINE = 4_096
MAX_SECTIONS = 1_000
MAX_SETTINGS = 400
MAX_NAME = 64

_HEADER = re.compile(r"\[([A-Za-z0-9_.+-]{1,%d})(?::([A-Za-z0-9_.+-]{1,%d}))?\]$" % (MAX_NAME, MAX_NAME))
_SETTING = re.compile(r"([A-Za-z][A-Za-z0-9]{0,63})\s*=\s*(.*)$")


@dataclass(frozen=True)
class Setting:
    """One ``key = value`` line: the value with surrounding blanks stripped, and where it stands."""

    key: str
    value: str
    loc: Loc


@dataclass
class Section:
    """One ``[name:parent]`` section: its settings by key (the last line of a key wins) and its lines.

    ``parent`` is None for a section that inherits nothing (Fairy-Stockfish's
    template: chess rules without pieces). ``lines`` is the section's text
    from its header to the line before the next header, as written.
    """

    name: str
    parent: str | None
    loc: Loc
    settings: dict[str, Setting] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The section as it stands in the file (for handing to Fairy-Stockfish itself)."""
        return "\n".join(self.lines) + "\n"


def read_ini_file(path: str | Path) -> list[Section]:
    """The sections of the variants.ini at ``path``; a missing, unreadable, oversized or
    non-UTF-8 file is a clean error naming it."""
    label = str(path)
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as err:
        raise UsageError(f"cannot read {clip(label)}: {err.strerror or err}") from None
    if len(data) > MAX_BYTES:
        raise LimitError(f"{clip(label)} is larger than {MAX_BYTES:,} bytes", None,
                         expected="a variants.ini of Fairy-Stockfish's size")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise RulesSyntaxError("the file is not UTF-8 text", Loc(label, line, 1)) from None
    return read_ini(text, label)


def read_ini(text: str, label: str = "<variants.ini>") -> list[Section]:
    """The sections of a variants.ini text, in file order (see the module docstring for the rules)."""
    sections: list[Section] = []
    seen: dict[str, Section] = {}
    current: Section | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        if len(raw) > MAX_LINE:
            raise LimitError(f"line {number} has {len(raw):,} characters", Loc(label, number, MAX_LINE + 1, None, text),
                             expected=f"at most {MAX_LINE:,} characters a line")
        line = raw.strip()
        column = len(raw) - len(raw.lstrip()) + 1
        loc = Loc(label, number, column, column + max(len(line), 1), text)
        if line.startswith("["):
            match = _HEADER.match(line)
            if match is None:
                raise RulesSyntaxError(f"malformed section header {clip(line)!r}", loc,
                                       expected=f"[name] or [name:parent], names of at most {MAX_NAME} characters "
                                                "among letters, digits and _ . + -")
            name, parent = match.group(1), match.group(2)
            if name in seen:
                raise RulesSyntaxError(f"section [{name}] is defined twice (first at line {seen[name].loc.line})", loc)
            if len(sections) >= MAX_SECTIONS:
                raise LimitError(f"more than {MAX_SECTIONS:,} sections", loc)
            current = Section(name, parent, loc)
            sections.append(current)
            seen[name] = current
        if current is not None:
            current.lines.append(raw)
        if not line or line[0] in "#;[":
            continue
        match = _SETTING.match(line)
        if match is None:
            raise RulesSyntaxError(f"not a setting: {clip(line)!r}", loc, expected="key = value, a comment or [section]")
        if current is None:
            raise RulesSyntaxError(f"setting {match.group(1)!r} before the first [section]", loc,
                                   expected="a [section] header first")
        key, value = match.group(1), match.group(2).strip()
        if key not in current.settings and len(current.settings) >= MAX_SETTINGS:
            raise LimitError(f"section [{current.name}] has more than {MAX_SETTINGS} settings", loc)
        value_column = column + match.start(2)
        current.settings[key] = Setting(key, value, Loc(label, number, value_column, value_column + max(len(value), 1), text))
    for index, section in enumerate(sections):
        parent = seen.get(section.parent) if section.parent is not None else None
        if parent is not None and sections.index(parent) >= index:
            raise RulesSyntaxError(f"section [{section.name}] inherits from [{parent.name}], which is not defined "
                                   "before it", section.loc, expected="a parent section earlier in the file (or a "
                                                                      "built-in variant's name)")
    return sections
