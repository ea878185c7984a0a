"""Syntax highlighting of ``.rules`` files: a Pygments lexer.

:class:`RulesLexer` is registered with Pygments by the entry point
``pygments.lexers: rules`` (see ``pyproject.toml``), so any tool that
highlights with Pygments (the documentation site, ``pygmentize -l
rules``) colours code blocks tagged ``rules`` and files named
``*.rules``. Its patterns are :mod:`dsl.syntax`'s and its keywords every quoted word of
``dsl/grammar.lark`` (:func:`dsl.keywords.grammar_keywords`, the source of the editors'
TextMate grammar too): the same that the design page of ``rules serve`` colours with in the
browser, so a new keyword of the language is highlighted everywhere as soon as the grammar has it.

Pygments is needed only to build the site: this module imports it, and
nothing else in the package imports this module.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from dsl.syntax import grammar_keywords, token_patterns

__all__ = ["RulesLexer", "grammar_keywords"]

_TOKENS = {"w": Whitespace, "c1": Comment.Single, "s2": String.Double, "k": Keyword, "m": Number,
           "nc": Name.Class, "n": Name, "o": Operator, "p": Punctuation, "": Text}


class RulesLexer(RegexLexer):
    """Pygments lexer for the ``.rules`` language of rules-dsl."""

    name = "Rules"
    aliases = ["rules"]
    filenames = ["*.rules"]

    tokens = {"root": [(pattern, _TOKENS[short]) for pattern, short in token_patterns()]}
