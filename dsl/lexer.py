"""Syntax highlighting of ``.rules`` files: a Pygments lexer.

:class:`RulesLexer` is registered with Pygments by the entry point
``pygments.lexers: rules`` (see ``pyproject.toml``), so any tool that
highlights with Pygments (the documentation site, ``pygmentize -l
rules``) colours code blocks tagged ``rules`` and files named
``*.rules``. Its keywords are not a list kept by hand: they are every
quoted word of ``dsl/grammar.lark`` (:func:`dsl.keywords.grammar_keywords`,
the source of the editors' TextMate grammar too), so a new keyword of the
language is highlighted as soon as the grammar has it.

Pygments is needed only to build the site: this module imports it, and
nothing else in the package imports this module.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from .keywords import grammar_keywords


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
