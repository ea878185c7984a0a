"""Syntax highlighting of ``.rules`` files: a Pygments lexer, and the grammar's keywords.

:class:`RulesLexer` is registered with Pygments by the entry point
``pygments.lexers: rules`` (see ``pyproject.toml``), so any tool that
highlights with Pygments (the documentation site, ``pygmentize -l
rules``) colours code blocks tagged ``rules`` and files named
``*.rules``. Its keywords are not a list kept by hand: they are every
quoted word of ``dsl/grammar.lark`` (:func:`grammar_keywords`), so a new
keyword of the language is highlighted as soon as the grammar has it.

Pygments is needed only to build the site: this module imports it, and
nothing else in the package imports this module.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

_REGEX = re.compile(r"/(?:[^/\\\n]|\\.)+/[imslux]*")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


@lru_cache(maxsize=1)
def grammar_keywords() -> frozenset[str]:
    """The keywords of the language: the quoted words of the grammar (keywords and the values of
    keyword terminals such as ``capture-both``), without its regular expressions and comments."""
    found = set()
    text = resources.files("dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.lstrip().startswith("//"):
            continue
        for literal in _QUOTED.findall(_REGEX.sub(" ", line)):
            if re.search(r"[A-Za-z]", literal):
                found.add(literal)
    return frozenset(found)


class RulesLexer(RegexLexer):
    """Pygments lexer for the ``.rules`` language of rules-dsl."""

    name = "Rules"
    aliases = ["rules"]
    filenames = ["*.rules"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"""(?:.|\n)*?"""', String.Double),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            # Longest first, and never inside a longer word or name (``rank`` in ``ranks``, ``all`` in ``allow``).
            (words(sorted(grammar_keywords(), key=lambda w: (-len(w), w)), prefix=r"(?<![\w-])",
                   suffix=r"(?![\w-])"), Keyword),
            (r"-?\d+\.\d+|-?\d+", Number),
            (r"[A-Z][A-Za-z0-9_]*", Name.Class),      # pieces and other names given capitals
            (r"[a-z_][A-Za-z0-9_]*", Name),
            (r"==|!=|<=|>=|//|\.\.|[<>+\-*%=|]", Operator),
            (r"[{}(),:.]", Punctuation),
            (r".", Text),
        ],
    }
