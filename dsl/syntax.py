"""The colouring of ``.rules`` text, as data that needs no Pygments: the grammar's keywords and
the token patterns, each with its Pygments token class.

:func:`grammar_keywords` (from :mod:`dsl.keywords`) is every quoted word of ``dsl/grammar.lark``,
so a new keyword of the language is coloured as soon as the grammar has it. :func:`token_patterns` is the ordered list
``(regular expression, short class)`` that both colourers use: :class:`dsl.lexer.RulesLexer`
(Pygments, for the documentation site) and the design page of ``rules serve``, which colours the
text in the browser as it is typed (``GET /api/syntax``). The first pattern that matches at a
position wins; the short classes are Pygments' CSS classes (``k`` keyword, ``nc`` a capitalised
name, ``n`` a name, ``m`` a number, ``s2`` a string, ``c1`` a comment, ``o`` an operator, ``p``
punctuation, ``w`` white space, ``""`` anything else). The expressions use only what Python's
``re`` and JavaScript's ``RegExp`` read alike (classes, groups, look-behind, ``\\w``, ``\\d``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .keywords import grammar_keywords

__all__ = ["grammar_keywords", "token_patterns"]


@lru_cache(maxsize=1)
def token_patterns() -> tuple[tuple[str, str], ...]:
    """The token patterns in the order they are tried (see the module docstring)."""
    # Longest first, and never inside a longer word or name (``rank`` in ``ranks``, ``all`` in ``allow``).
    keywords = "|".join(re.sub(r"([^\w])", r"\\\1", word)
                        for word in sorted(grammar_keywords(), key=lambda w: (-len(w), w)))
    return (
        (r"\s+", "w"),
        (r"#[^\n]*", "c1"),
        (r'"""[\s\S]*?"""', "s2"),
        (r'"(?:[^"\\\n]|\\.)*"', "s2"),
        (rf"(?<![\w-])(?:{keywords})(?![\w-])", "k"),
        (r"-?\d+\.\d+|-?\d+", "m"),
        (r"[A-Z][A-Za-z0-9_]*", "nc"),      # pieces and other names given capitals
        (r"[a-z_][A-Za-z0-9_]*", "n"),
        (r"==|!=|<=|>=|//|\.\.|[<>+\-*%=|]", "o"),
        (r"[{}(),:.]", "p"),
        (r"[\s\S]", ""),
    )
