"""The error hierarchy of rules-dsl.

Every error a user can cause is a :class:`RulesError`. Errors that point
into a text (a ``.rules`` file, a FEN string, a move, a command-line
argument) carry a :class:`Loc` and render as::

    variants/foo.rules:12:9: unknown piece 'Quen'
       12 |   promotes in zone promotion to Quen, Rook
          |                                 ^^^^
    expected: one of the declared pieces (King, Queen, Rook, ...)
    hint: did you mean 'Queen'?

The command-line runner prints :meth:`RulesError.render` and exits 2; a
Python traceback is only ever shown for a bug in the program itself.

Hierarchy::

    RulesError
    +-- RulesSyntaxError      the text does not match the grammar
    +-- RulesSemanticError    it parses, but means something impossible
    +-- VariantNotFound       no bundled variant or file of that name
    |   +-- FileRefused       a file the file policy does not let the loader read
    +-- LimitError            a declared limit (dsl/limits.py) is exceeded
    +-- PositionError         a bad position string (FEN and its dialects)
    +-- MoveError             a move that cannot be read ...
    |   +-- IllegalMoveError  ... or that is not legal in the position
    +-- UsageError            a bad command-line argument
    +-- UnsupportedError      a construct the interpreter cannot run yet
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Loc:
    """A span in a text: 1-based line and column, end column exclusive.

    ``path`` names the text ("<fen>" or "<move>" for strings that did not
    come from a file); ``text`` is the whole text, kept so that the error
    can show the offending line without reading the file again.
    """

    path: str
    line: int
    column: int
    end_column: int | None = None
    text: str | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    @classmethod
    def in_string(cls, label: str, text: str, start: int, end: int | None = None) -> "Loc":
        """The span ``text[start:end]`` of a one-line string such as a FEN."""
        return cls(label, 1, start + 1, (end if end is not None else start + 1) + 1, text)


def clip(text: str, most: int = 60) -> str:
    """``text`` for an error message: at most ``most`` characters (then ``...`` and its
    length), with control characters shown as escapes."""
    shown = text if len(text) <= most else f"{text[:most]}... ({len(text):,} characters)"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)


SUGGESTED_CHARS = 64
"""Names longer than this get no suggestion."""


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt ``name``, or None if none is close (or ``name`` is
    longer than any sensible name: comparing it would only cost time)."""
    if len(name) > SUGGESTED_CHARS:
        return None
    pool = list(dict.fromkeys(candidates))
    matches = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in pool}
        matches = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
        matches = [lowered[m] for m in matches]
    return matches[0] if matches else None


class RulesError(Exception):
    """Base class of every error caused by input rather than by a bug."""

    def __init__(
        self,
        message: str,
        loc: Loc | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.expected = expected
        self.hint = hint

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """The full multi-line message: location, source line, caret, hints.

        A source line longer than :data:`SHOWN_LINE` characters is shown as a
        window around the caret (with ``...`` where it is cut), so that an
        error in a file of one huge line stays readable.
        """
        head = f"{self.loc}: {self.message}" if self.loc else self.message
        lines = [head]
        if self.loc is not None and self.loc.text is not None:
            source_lines = self.loc.text.splitlines() or [""]
            index = min(max(self.loc.line, 1), len(source_lines)) - 1
            source = source_lines[index].expandtabs(1)
            start = max(self.loc.column, 1)
            end = self.loc.end_column if self.loc.end_column and self.loc.end_column > start else start + 1
            source, start, end = _window(source, start, end)
            gutter = f"{self.loc.line:>5} | "
            lines.append(gutter + source)
            lines.append(" " * (len(gutter) - 2) + "| " + " " * (start - 1) + "^" * (end - start))
        if self.expected:
            lines.append(f"expected: {self.expected}")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


SHOWN_LINE = 120
"""The most characters of a source line an error shows."""


def _window(source: str, start: int, end: int) -> tuple[str, int, int]:
    """``source`` cut to about :data:`SHOWN_LINE` characters around columns ``start``..``end``
    (1-based, end exclusive), with the columns moved to match; a short line is kept whole."""
    if len(source) <= SHOWN_LINE:
        return source, start, end
    end = min(end, start + SHOWN_LINE // 2)
    first = max(start - SHOWN_LINE // 3, 1)
    last = min(first + SHOWN_LINE, len(source) + 1)
    prefix = "..." if first > 1 else ""
    suffix = "..." if last <= len(source) else ""
    shift = first - 1 - len(prefix)
    return prefix + source[first - 1:last - 1] + suffix, start - shift, end - shift


class RulesSyntaxError(RulesError):
    """The text of a rules file does not match the grammar."""


class RulesSemanticError(RulesError):
    """A rules file parses but names something that does not exist or cannot be."""


class VariantNotFound(RulesError):
    """No bundled variant, standard library file or file of that name."""


class FileRefused(VariantNotFound):
    """A file that ``extends`` or ``include`` names but the file policy does not allow.

    Its message names the path only: nothing of the file is read or shown.
    """


class LimitError(RulesError):
    """A declared limit of :mod:`dsl.limits` is exceeded; ``limit`` is its name."""

    def __init__(self, message: str, loc: Loc | None = None, expected: str | None = None,
                 hint: str | None = None, limit: str = "") -> None:
        super().__init__(message, loc, expected, hint)
        self.limit = limit


class PositionError(RulesError):
    """A position string (FEN or one of its dialects) that cannot be read."""


class MoveError(RulesError):
    """A move string that cannot be read in the position."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not legal in the position."""


class UsageError(RulesError):
    """A bad command-line argument."""


class UnsupportedError(RulesError):
    """A construct that parses and validates but that this interpreter cannot run yet."""


def inherited_error(err: RulesError, via: dict[str, Loc]) -> RulesError:
    """``err`` moved to the line of the variant's own file that inherited the declaration it is about.

    An inherited declaration that no longer fits (chess's ``KQkq`` once
    castling is forgotten, its setup under three armies) is wrong because of
    the file being loaded, not because of the file it comes from: the error is
    reported at that file's ``extends`` or ``include`` line (``via`` maps each
    inherited file, resolved, to that line), and its message names where the
    inherited declaration is. An error that is not located in an inherited
    file is returned as it is.
    """
    from pathlib import Path

    if err.loc is None or err.loc.text is None:
        return err
    try:
        line = via.get(str(Path(err.loc.path).resolve()))
    except (OSError, ValueError):
        line = None
    if line is None:
        return err
    where = f"{Path(err.loc.path).name}:{err.loc.line}"
    moved = type(err).__new__(type(err))
    RulesError.__init__(moved, f"{err.message} (in the declaration inherited from {where})", line,
                        expected=err.expected, hint=err.hint or "declare it again in this file to fit this variant")
    for name, value in vars(err).items():
        if name not in vars(moved):
            setattr(moved, name, value)
    return moved


def unknown_name(kind: str, name: str, candidates: Iterable[str], loc: Loc | None) -> RulesSemanticError:
    """The standard error for a name that is not declared, with a suggestion."""
    pool = sorted(set(candidates))
    guess = suggest(name, pool)
    shown = ", ".join(pool[:12]) + (", ..." if len(pool) > 12 else "")
    return RulesSemanticError(
        f"unknown {kind} '{name}'",
        loc,
        expected=f"one of the declared {kind}s ({shown})" if pool else f"a declared {kind} (none is declared)",
        hint=f"did you mean '{guess}'?" if guess else None,
    )
