"""The language reference is the contract: its examples must be true.

Every fenced code block tagged ```rules in ``docs/language.md`` is parsed
with :func:`dsl.parse_text`; a block that fails is reported with its line
number in the document. Blocks that start with ``# sketch:`` (the appendix)
are also merged with :func:`dsl.load_spec_text`, so that their ``extends``,
``include`` and ``forget`` lines resolve. Two coverage tests keep the
reference complete as the grammar grows: every rule of ``dsl/grammar.lark``
and every keyword of it must occur in at least one example. A last test
keeps the documented grammar free of LALR conflicts, which Lark would
otherwise resolve silently.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lark.exceptions import LarkError

from dsl import RulesError, load_spec_text, parse_text
from dsl.lexer import grammar_keywords
from dsl.parser import grammar_parser

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "dsl" / "grammar.lark"
OPEN_FENCE = re.compile(r"^```rules\s*$")
SKETCH = "# sketch:"


def rules_blocks(text: str) -> list[tuple[int, str]]:
    """``(line, body)`` of every ```rules block; ``line`` is the 1-based line of the opening fence."""
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if OPEN_FENCE.match(lines[i]):
            start = i + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if end == len(lines):
                raise AssertionError(f"docs/language.md:{i + 1}: the rules block is never closed")
            blocks.append((i + 1, "\n".join(lines[start:end]) + "\n"))
            i = end
        i += 1
    return blocks


BLOCKS = rules_blocks(DOC.read_text(encoding="utf-8"))


def _failure(line: int, err: RulesError) -> str:
    """A message that points into the document, not only into the block."""
    where = f"docs/language.md:{line}"
    if err.loc is not None:
        where = f"docs/language.md:{line + err.loc.line}:{err.loc.column}"
    return f"the rules block that starts at line {line} fails ({where}):\n{err.render()}"


def test_the_reference_has_examples():
    assert len(BLOCKS) >= 30, f"only {len(BLOCKS)} rules blocks found in {DOC}"


@pytest.mark.parametrize("line, body", BLOCKS, ids=[f"line-{line}" for line, _ in BLOCKS])
def test_example_parses(line: int, body: str):
    try:
        parse_text(body, f"docs/language.md (block at line {line})")
        message = None
    except RulesError as err:
        message = _failure(line, err)
    if message:
        pytest.fail(message, pytrace=False)


SKETCHES = [(line, body) for line, body in BLOCKS if body.lstrip().startswith(SKETCH)]


def test_the_appendix_has_the_three_seed_games():
    names = {body.lstrip().splitlines()[0][len(SKETCH):].strip() for _, body in SKETCHES}
    assert {"locking.rules", "superchess.rules", "rocket.rules"} <= names


@pytest.mark.parametrize("line, body", SKETCHES, ids=[f"line-{line}" for line, _ in SKETCHES])
def test_sketch_loads(line: int, body: str):
    try:
        spec = load_spec_text(body, str(DOC))
        message = None
    except RulesError as err:
        message = _failure(line, err)
    if message:
        pytest.fail(message, pytrace=False)
    assert spec.pieces, f"the sketch at line {line} declares no piece"


def _rule_names_used() -> set[str]:
    parser = grammar_parser()
    used: set[str] = set()
    for _, body in BLOCKS:
        try:
            tree = parser.parse(body)
        except LarkError:  # reported by test_example_parses
            continue
        for tree in tree.iter_subtrees():
            used.add(str(tree.data))
    return used


def test_every_grammar_rule_has_an_example():
    """Each named rule or alias of the grammar appears in the parse tree of some example."""
    expected = set()
    for rule in grammar_parser().rules:
        name = str(rule.alias or rule.origin.name)
        if name.startswith("_") or (rule.options.expand1 and not rule.alias):
            continue
        expected.add(name)
    missing = sorted(expected - _rule_names_used())
    assert not missing, f"grammar rules without an example in docs/language.md: {', '.join(missing)}"


def test_every_keyword_has_an_example():
    text = "\n".join(body for _, body in BLOCKS)
    missing = sorted(w for w in grammar_keywords()
                     if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text))
    assert not missing, f"keywords without an example in docs/language.md: {', '.join(missing)}"


def test_the_grammar_is_conflict_free(caplog):
    """LALR conflicts are resolved silently by Lark (shift wins); the grammar must have none."""
    import logging

    from lark import Lark, logger

    logger.addHandler(caplog.handler)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", debug=True)
    finally:
        logger.setLevel(level)
        logger.removeHandler(caplog.handler)
    conflicts = [r.getMessage() for r in caplog.records if "conflict" in r.getMessage().lower()]
    assert not conflicts, "\n".join(conflicts)
