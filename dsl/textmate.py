"""The TextMate grammar of ``.rules`` files: the colours of VS Code, GitHub's Linguist and most editors.

:func:`grammar` builds the grammar (scope ``source.rules``) from the same words as the Pygments
lexer of the documentation site, the quoted words of ``dsl/grammar.lark`` (:mod:`dsl.keywords`),
so that the two highlighters and the grammar cannot drift: a new keyword is coloured everywhere
once ``python -m dsl.textmate`` (``make textmate``) has rewritten
``editors/vscode/syntaxes/rules.tmLanguage.json``; ``tests/test_textmate.py`` fails while the
committed file differs from :func:`grammar`, and tokenises every bundled and standard file with it
to compare with the lexer.

Scopes: comments (``comment.line.number-sign``), strings (``string.quoted.double``, and the
Betza strings of ``betza "fmW"`` as ``string.regexp.betza``), numbers, four kinds of keyword
(``keyword.declaration`` opens a top-level declaration, ``keyword.operator.word`` is ``and``,
``or``, ``not``, ``constant.language`` is a word that is only ever a value such as ``win`` or
``self-check``, ``keyword.other`` is any other), the names declared after ``variant``, ``piece``,
``army`` and ``zone``, and the variant named after ``extends`` and ``include`` (a keyword used as
a name stays a keyword, as in the lexer), directions after ``step``, ``ride``, ``hop``, ``zigzag``,
``along`` and ``forward``, capitalised names (pieces, as the lexer's ``Name.Class``), operators and
punctuation. The language has no boolean literals:
conditions are names of predicates (``in_check``), so none is coloured as one.

Every regular expression is written for both engines that read it: Oniguruma (the editors) and
Python's ``re`` (the test's tokenizer): no possessive quantifiers or atomic groups, no ``\\G``,
``\\h`` or ``\\A``, lookbehinds of fixed width only, and no pattern spans a line (TextMate matches
line by line; a triple-quoted string is a ``begin``/``end`` region).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .keywords import declaration_keywords, grammar_keywords, operator_keywords, value_keywords

# Where the generated grammar lives in the repository (the editors/ folder is not installed).
TARGET = Path("editors") / "vscode" / "syntaxes" / "rules.tmLanguage.json"

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BEFORE = r"(?<![\w-])"           # a word starts here: not inside a longer word or hyphenated name
_AFTER = r"(?![\w-])"
# The declarations whose next word is a name they declare or refer to, and its scope.
_NAMED = {"variant": "entity.name.namespace.variant.rules", "extends": "entity.name.namespace.variant.rules",
          "include": "entity.name.namespace.variant.rules", "piece": "entity.name.type.piece.rules",
          "army": "entity.name.type.army.rules", "zone": "variable.other.constant.zone.rules"}
# The words after which a direction (or directions joined by |) is named.
_DIRECTED = ("step", "ride", "hop", "zigzag", "along", "forward")


def keyword_scope(word: str) -> str:
    """The scope of a keyword of the grammar (see the module's docstring for the four kinds)."""
    if word in declaration_keywords():
        return "keyword.declaration.rules"
    if word in operator_keywords():
        return "keyword.operator.word.rules"
    if word in value_keywords():
        return "constant.language.rules"
    return "keyword.other.rules"


def _alternation(words) -> str:
    """A regular expression for any of ``words``, longest first so that none stops at a shorter one."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


def _not_keyword() -> str:
    """A lookahead refusing a keyword where a name is expected: a keyword stays a keyword, as in the lexer."""
    return f"(?!(?:{_alternation(grammar_keywords())}){_AFTER})"


def _keywords(scope: str) -> dict:
    words = [w for w in grammar_keywords() if keyword_scope(w) == scope]
    return {"name": scope, "match": f"{_BEFORE}(?:{_alternation(words)}){_AFTER}"}


def _named(word: str, scope: str) -> dict:
    return {"match": f"{_BEFORE}({word})\\s+({_not_keyword()}{_NAME})",
            "captures": {"1": {"name": keyword_scope(word)}, "2": {"name": scope}}}


def grammar() -> dict:
    """The TextMate grammar of the language, as the JSON object VS Code reads."""
    name = f"{_not_keyword()}{_NAME}"
    directions = {
        "match": f"{_BEFORE}({_alternation(_DIRECTED)})\\s+({name}(?:\\s*\\|\\s*{name})*){_AFTER}",
        "captures": {"1": {"name": "keyword.other.rules"}, "2": {"name": "support.constant.direction.rules"}},
    }
    escape = {"name": "constant.character.escape.rules", "match": r"\\."}
    repository = {
        "comment": {"name": "comment.line.number-sign.rules", "match": "(#).*$",
                    "captures": {"1": {"name": "punctuation.definition.comment.rules"}}},
        "string-triple": {"name": "string.quoted.triple.rules", "begin": '"""', "end": '"""'},
        "betza": {"match": f'{_BEFORE}(betza)\\s+("(?:[^"\\\\]|\\\\.)*")',
                  "captures": {"1": {"name": keyword_scope("betza")},
                               "2": {"name": "string.regexp.betza.rules"}}},
        "string": {"name": "string.quoted.double.rules", "begin": '"', "end": '"', "patterns": [escape]},
        "declared-name": {"patterns": [_named(word, scope) for word, scope in _NAMED.items()]},
        "direction": directions,
        "keyword": {"patterns": [_keywords(scope) for scope in (
            "keyword.declaration.rules", "keyword.operator.word.rules", "constant.language.rules",
            "keyword.other.rules")]},
        "number": {"name": "constant.numeric.rules", "match": r"(?<![\w-])-?\d+(?:\.\d+)?(?!\w)"},
        "capitalised-name": {"name": "entity.name.type.rules", "match": f"{_BEFORE}[A-Z][A-Za-z0-9_]*"},
        "operator": {"name": "keyword.operator.rules", "match": r"==|!=|<=|>=|//|\.\.|[<>+\-*/%=|]"},
        "punctuation": {"patterns": [
            {"name": "punctuation.section.block.rules", "match": "[{}]"},
            {"name": "punctuation.section.parens.rules", "match": "[()]"},
            {"name": "punctuation.separator.rules", "match": "[,:.]"},
        ]},
    }
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Rules",
        "scopeName": "source.rules",
        "fileTypes": ["rules"],
        "comment": "Generated by 'python -m dsl.textmate' from dsl/grammar.lark; do not edit by hand.",
        "patterns": [{"include": f"#{key}"} for key in repository],
        "repository": repository,
    }


def text() -> str:
    """The grammar as the committed file holds it."""
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> None:
    """Write the grammar to the path given (by default :data:`TARGET`, from the repository's root)."""
    path = Path(argv[0]) if argv else TARGET
    path.write_text(text(), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
