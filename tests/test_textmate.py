"""The editors' TextMate grammar (editors/vscode/syntaxes/rules.tmLanguage.json) against its sources.

The committed grammar must be the one :mod:`dsl.textmate` generates from ``dsl/grammar.lark``
(``make textmate`` rewrites it). Every bundled and standard file is then tokenised with it, by
the small TextMate tokenizer below (line by line, ``match`` and ``begin``/``end`` rules,
``include`` of the repository, ``captures``: what the grammar uses), and compared with the
Pygments lexer of the documentation site: the same words are keywords, the same text comments
and strings. The tokenizer compiles the grammar's Oniguruma expressions with Python's ``re``,
which the generator's restrictions (see its docstring) make possible.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pygments.token import Comment, Keyword, String

from dsl import textmate
from dsl.catalogue import bundled_dir, std_dir
from dsl.keywords import grammar_keywords
from dsl.lexer import RulesLexer

ROOT = Path(__file__).parents[1]
EDITOR = ROOT / "editors" / "vscode"
FILES = sorted(bundled_dir().glob("*.rules")) + sorted(std_dir().glob("*.rules"))


def _rules(grammar: dict, patterns: list[dict]) -> list[dict]:
    """The rules of a pattern list, includes of the repository replaced by what they name."""
    found = []
    for rule in patterns:
        if "include" in rule:
            found += _rules(grammar, [grammar["repository"][rule["include"].removeprefix("#")]])
        elif "match" in rule or "begin" in rule:
            found.append(rule)
        else:
            found += _rules(grammar, rule["patterns"])
    return found


def tokenize(text: str, grammar: dict) -> list[tuple[int, int, tuple[str, ...]]]:
    """The scoped spans of ``text``: (start, end, scopes from outermost to innermost), offsets in the
    text; text no rule matches has no span. A begin/end region goes on over the following lines."""
    spans: list[tuple[int, int, tuple[str, ...]]] = []
    top = _rules(grammar, grammar["patterns"])
    stack: list[dict] = []          # the begin/end regions open, innermost last
    opened: list[int] = []          # where each of them began
    offset = 0
    for line in text.split("\n"):
        pos = 0
        while pos <= len(line):
            region = stack[-1] if stack else None
            scopes = tuple(r["name"] for r in stack if "name" in r)
            candidates = [(region, re.compile(region["end"]))] if region else []
            candidates += [(rule, re.compile(rule.get("match") or rule["begin"]))
                           for rule in (_rules(grammar, region.get("patterns", [])) if region else top)]
            best = None
            for rule, regex in candidates:
                found = regex.search(line, pos)
                if found and (best is None or found.start() < best[1].start()):
                    best = (rule, found)
            if best is None:
                break
            rule, found = best
            start, end = found.span()
            if rule is region:                          # the region ends: it covers all it held
                spans.append((opened.pop(), offset + end, scopes))
                stack.pop()
            elif "begin" in rule:                       # a region opens
                stack.append(rule)
                opened.append(offset + start)
            else:
                own = scopes + ((rule["name"],) if "name" in rule else ())
                spans.append((offset + start, offset + end, own))
                for group, capture in rule.get("captures", {}).items():
                    if found.group(int(group)) is not None:
                        spans.append((offset + found.start(int(group)), offset + found.end(int(group)),
                                      own + (capture["name"],)))
            pos = end if end > pos else pos + 1
        offset += len(line) + 1
    while stack:                                        # a region the text leaves open
        spans.append((opened.pop(), len(text), tuple(r["name"] for r in stack if "name" in r)))
        stack.pop()
    return spans


def stacks(spans, start: int, end: int) -> set[tuple[str, ...]]:
    """The scopes of each character of text[start:end], outermost first (() where none covers it)."""
    found = set()
    for index in range(start, end):
        covering = [s for s in spans if s[0] <= index < s[1] and s[2]]
        narrowest = min(covering, key=lambda s: (s[1] - s[0], -len(s[2])), default=None)
        found.add(narrowest[2] if narrowest else ())
    return found


def innermost(spans, start: int, end: int) -> set[str | None]:
    """The innermost scope of each character of text[start:end] (None where none covers it)."""
    return {stack[-1] if stack else None for stack in stacks(spans, start, end)}


def scopes_of(text: str, grammar: dict):
    """A function from a piece of ``text`` (its first occurrence) to the innermost scopes of its characters."""
    spans = tokenize(text, grammar)

    def scope(piece: str) -> set[str | None]:
        start = text.index(piece)
        return innermost(spans, start, start + len(piece))
    return scope


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads((EDITOR / "syntaxes" / "rules.tmLanguage.json").read_text(encoding="utf-8"))


def test_the_committed_grammar_is_the_generated_one(grammar):
    assert grammar == textmate.grammar(), \
        "editors/vscode/syntaxes/rules.tmLanguage.json is stale; run 'make textmate'"


def test_every_keyword_of_the_grammar_is_a_keyword_of_the_textmate_grammar(grammar):
    for word in grammar_keywords():
        assert scopes_of(f"( {word} )", grammar)(word) == {textmate.keyword_scope(word)}, word


def test_the_kinds_of_keyword_are_told_apart(grammar):
    text = 'piece Pawn {\n  move step forward: if not in_check and rank == 2\n}\nrules { forbid self-check }\n'
    scope = scopes_of(text, grammar)
    assert scope("piece") == {"keyword.declaration.rules"}
    assert scope("Pawn") == {"entity.name.type.piece.rules"}
    assert scope("not") == scope("and") == {"keyword.operator.word.rules"}
    assert scope("self-check") == {"constant.language.rules"}
    assert scope("step") == scope("forbid") == {"keyword.other.rules"}
    assert scope("in_check") == {None}                                  # a predicate's name, not 'in'
    assert scope("==") == {"keyword.operator.rules"}
    assert scope("2") == {"constant.numeric.rules"}


def test_names_directions_and_betza_strings_are_recognised(grammar):
    text = ('variant mine {\n}\nextends chess\narmies {\n  army white "White" { forward north }\n}\n'
            'board { zone camp: a1 }\npiece Rook {\n  betza "R"\n  move ride east|west\n}\n')
    scope = scopes_of(text, grammar)
    assert scope("mine") == scope("chess") == {"entity.name.namespace.variant.rules"}
    assert scope("white") == {"entity.name.type.army.rules"}
    assert scope("camp") == {"variable.other.constant.zone.rules"}
    assert scope('"R"') == {"string.regexp.betza.rules"}
    assert scope("north") == scope("east|west") == {"support.constant.direction.rules"}
    assert scope('"White"') == {"string.quoted.double.rules"}


def test_a_keyword_in_a_name_place_stays_a_keyword(grammar):
    scope = scopes_of("board { zone promotion: rank 8 }", grammar)
    assert scope("promotion") == {textmate.keyword_scope("promotion")}


def test_a_triple_quoted_string_spans_lines(grammar):
    text = 'variant v {\n  description """one\n# not a comment\n"""\n}\n'
    start = text.index('"""')
    end = text.rindex('"""') + 3
    assert innermost(tokenize(text, grammar), start, end) == {"string.quoted.triple.rules"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_textmate_and_pygments_agree_on_keywords_comments_and_strings(grammar, path):
    """Each token the lexer calls a keyword, a comment or a string has the same kind of scope; and each
    word the TextMate grammar calls a keyword (or a language constant) the lexer calls a keyword."""
    text = path.read_text(encoding="utf-8")
    spans = tokenize(text, grammar)
    # A keyword's own scope is the innermost one; a comment's or string's may hold punctuation or escapes.
    kinds = {Keyword: ("keyword.", "constant.language."), Comment: ("comment.",), String: ("string.",)}
    lexed = list(RulesLexer().get_tokens_unprocessed(text))
    for start, token, value in lexed:
        for kind, prefixes in kinds.items():
            if token in kind:
                scopes = stacks(spans, start, start + len(value))
                where = (lambda stack: stack[-1:]) if kind is Keyword else (lambda stack: stack)
                assert all(any(s.startswith(prefixes) for s in where(stack)) for stack in scopes), \
                    f"{path.name}:{text.count(chr(10), 0, start) + 1}: {value!r} is {token} but {scopes}"
    keywords = {(start, start + len(value)) for start, token, value in lexed if token in Keyword}
    for start, end, scopes in spans:
        if scopes and scopes[-1].startswith(("keyword.", "constant.language.")) and text[start:end].isalpha():
            assert (start, end) in keywords, f"{path.name}: {text[start:end]!r} is {scopes[-1]}"


def test_the_language_configuration_comments_as_the_grammar_does():
    config = json.loads((EDITOR / "language-configuration.json").read_text(encoding="utf-8"))
    grammar_text = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    comment = re.search(r"^COMMENT: /(.)", grammar_text, re.M).group(1)
    assert config["comments"]["lineComment"] == comment
    assert ["{", "}"] in config["brackets"] and ["(", ")"] in config["brackets"]


def test_the_extension_contributes_the_grammar_and_starts_the_server():
    package = json.loads((EDITOR / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    (contributed,) = package["contributes"]["grammars"]
    assert language["extensions"] == [".rules"]
    assert (EDITOR / contributed["path"]).resolve() == (EDITOR / "syntaxes" / "rules.tmLanguage.json").resolve()
    assert contributed["scopeName"] == textmate.grammar()["scopeName"]
    assert (EDITOR / language["configuration"]).is_file()
    settings = package["contributes"]["configuration"]["properties"]
    assert settings["rulesDsl.command"]["default"] == "rules"
    assert "lsp" in settings["rulesDsl.args"]["default"]
    assert (EDITOR / package["main"]).is_file()
