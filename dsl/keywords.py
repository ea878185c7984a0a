"""The keywords of the ``.rules`` language, read from ``dsl/grammar.lark``, and their kinds.

Every highlighter of the language takes its words from here, so that none of them keeps a list
by hand and none can drift from the grammar: the Pygments lexer (:mod:`dsl.lexer`, the
documentation site) and the TextMate grammar of the editors (:mod:`dsl.textmate`,
``editors/vscode/syntaxes/rules.tmLanguage.json``).

- :func:`grammar_keywords`: every quoted word of the grammar, keywords and the values of
  keyword terminals alike (``piece``, ``when``, ``capture-both``, ``self-check``).
- :func:`declaration_keywords`: the words that open a top-level declaration (``piece``,
  ``rules``, ``forget``).
- :func:`operator_keywords`: the words of the expression language (``and``, ``or``, ``not``).
- :func:`value_keywords`: the words that are only ever values of a named terminal, a closed
  choice such as a game result (``win``, ``loss``) or a legality rule (``self-check``); a word
  that is also a keyword somewhere else (``capture``, ``draw``) is not among them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

_REGEX = re.compile(r"/(?:[^/\\\n]|\\.)+/[imslux]*")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_RULE = re.compile(r"^[?!]?(_?[a-z][a-z0-9_]*)\s*:(.*)$")
_TERMINAL = re.compile(r"^([A-Z][A-Z0-9_]*)(?:\.\d+)?\s*:(.*)$")


def _grammar_lines() -> list[str]:
    """The grammar's lines without comments and regular expressions (whose quotes are no words)."""
    text = resources.files("dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return [_REGEX.sub(" ", line) for line in text.splitlines() if not line.lstrip().startswith("//")]


def _words(text: str) -> list[str]:
    return [literal for literal in _QUOTED.findall(text) if re.search(r"[A-Za-z]", literal)]


@lru_cache(maxsize=1)
def _definitions() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The grammar's rules and terminals, each name to the lines of its alternatives (a
    definition goes on over the following lines that start with whitespace)."""
    rules: dict[str, list[str]] = {}
    terminals: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in _grammar_lines():
        if line[:1].isspace() and current is not None:
            current.extend(part for part in line.split("|") if part.strip())
            continue
        current = None
        if (match := _RULE.match(line)):
            current = rules.setdefault(match.group(1), [])
        elif (match := _TERMINAL.match(line)):
            current = terminals.setdefault(match.group(1), [])
        if current is not None:
            current.extend(part for part in match.group(2).split("|") if part.strip())
    return rules, terminals


@lru_cache(maxsize=1)
def grammar_keywords() -> frozenset[str]:
    """The keywords of the language: the quoted words of the grammar (keywords and the values of
    keyword terminals such as ``capture-both``), without its regular expressions and comments."""
    return frozenset(word for line in _grammar_lines() for word in _words(line))


@lru_cache(maxsize=1)
def declaration_keywords() -> frozenset[str]:
    """The first word of each alternative of the rules a top-level declaration (``_decl``) is made of."""
    rules, _ = _definitions()
    found = set()
    for alternative in rules["_decl"]:
        for line in rules[alternative.strip()]:
            words = _words(line)
            if words and line.strip().startswith('"'):
                found.add(words[0])
    return frozenset(found)


@lru_cache(maxsize=1)
def operator_keywords() -> frozenset[str]:
    """The words of the rules an expression (``expr``) is made of, down to its atoms."""
    rules, _ = _definitions()
    seen, todo = set(), ["expr"]
    while todo:
        name = todo.pop()
        if name in seen or name not in rules:
            continue
        seen.add(name)
        for line in rules[name]:
            todo.extend(re.findall(r"(?<![\w\"])_?[a-z][a-z0-9_]*(?![\w\"])", line.split("->")[0]))
    return frozenset(word for name in seen for line in rules[name] for word in _words(line))


@lru_cache(maxsize=1)
def value_keywords() -> frozenset[str]:
    """The words of named terminals (``RESULT: "win" | "loss" ...``) that no rule uses as a keyword."""
    rules, terminals = _definitions()
    in_rules = {word for lines in rules.values() for line in lines for word in _words(line)}
    in_terminals = {word for lines in terminals.values() for line in lines for word in _words(line)}
    return frozenset(in_terminals - in_rules)
