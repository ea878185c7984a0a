"""What ``rules check`` reports about an editor's buffer, as the protocol's diagnostics.

:func:`check_text` does the check of ``rules check`` on a text that need not be saved: the text is
read as the file it is in (its ``extends`` and ``include`` resolved against the file's directory and
the bundled files) and checked by :func:`interpreter.loading.checking.check_game`: compiled in every
play mode, its board's notes read, linted.
The first error stops it, as it stops the command; a text that compiles gets its warnings and the
notes on its board. Each diagnostic carries the location and the words the command prints (the
source line and caret left out: the editor underlines the range instead). A problem found in
another file (an included file's own error or warning) is shown at the top of the buffer with
that file's location in front of its message.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dsl import spec as S
from dsl.errors import Loc, RulesError
from dsl.loader import load_spec_text
from lsprotocol import types as T

from interpreter.compiler.game import Game
from interpreter.loading import compile_variant
from interpreter.loading.checking import check_game

from .places import range_of

SOURCE = "rules"
CHECKED_TEXTS = 32
"""How many checked texts are kept (by their text and file): reopening a file, undoing an edit or
asking for completions again costs nothing."""


@dataclass(frozen=True)
class Checked:
    """The outcome of checking one text: its diagnostics, and the Spec and compiled game when it
    compiles (``spec`` alone when only compiling failed; neither for a text that does not load)."""

    diagnostics: tuple[T.Diagnostic, ...]
    spec: S.VariantSpec | None = None
    game: Game | None = None


@lru_cache(maxsize=CHECKED_TEXTS)
def check_text(text: str, path: str) -> Checked:
    """Check ``text`` as the file ``path`` (a label in angle brackets: a buffer with no file)."""
    spec = None
    try:
        spec = load_spec_text(text, path)
        checked = check_game(compile_variant(spec))
    except RulesError as err:
        words = [err.message] + [f"{label}: {value}" for label, value in (("expected", err.expected),
                                                                          ("hint", err.hint)) if value]
        return Checked((_diagnostic("\n".join(words), err.loc, path, T.DiagnosticSeverity.Error),), spec)
    found = [_diagnostic(note, None, path, T.DiagnosticSeverity.Information) for note in checked.notes]
    found += [_diagnostic(lint.message + (f" (hint: {lint.hint})" if lint.hint else ""), lint.loc, path,
                          T.DiagnosticSeverity.Warning) for lint in checked.lints]
    return Checked(tuple(found), spec, checked.game)


def _diagnostic(message: str, loc: Loc | None, path: str, severity: T.DiagnosticSeverity) -> T.Diagnostic:
    if loc is not None and loc.path == path:
        where = range_of(loc)
    else:
        where = T.Range(T.Position(0, 0), T.Position(0, 0))
        message = f"{loc}: {message}" if loc is not None else message
    return T.Diagnostic(range=where, message=message, severity=severity, source=SOURCE)
