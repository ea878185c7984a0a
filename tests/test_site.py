"""The documentation site: the .rules lexer, its registration, the navigation by family, links.

``make docs`` builds the site strictly (CI runs it); these tests check what
the build takes for granted: Pygments finds :class:`dsl.lexer.RulesLexer`
by the entry point, the lexer's keywords are the grammar's, every
```rules block of docs/ and every bundled file lexes without an error token
and comes out highlighted through the site's Markdown extensions, the
navigation lists every variant once under its family, and no page, nor the
README, links a file that is not in the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pygments import lex
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword

from dsl import bundled_names
from dsl.lexer import RulesLexer, grammar_keywords
from interpreter.documentation.site import FAMILY_ORDER, families, variants_nav

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```rules\s*\n(.*?)^```", re.S | re.M)


def _rules_blocks() -> list[tuple[str, str]]:
    return [(page.relative_to(ROOT).as_posix(), body) for page in sorted(DOCS.rglob("*.md"))
            for body in BLOCK.findall(page.read_text(encoding="utf-8"))]


def test_pygments_finds_the_lexer_by_entry_point():
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("chess.rules"), RulesLexer)


def test_the_keywords_are_the_grammars():
    grammar = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    words = grammar_keywords()
    assert {"variant", "piece", "betza", "capture-both", "self-check", "diagram", "family"} <= words
    assert all(f'"{w}"' in grammar for w in words)
    assert "NAME" not in words and not any(w.startswith("/") for w in words)


def test_every_keyword_is_lexed_as_a_keyword():
    for word in grammar_keywords():
        assert (Keyword, word) in list(lex(f"x {word} y", RulesLexer())), word
    text = "\n".join(body for _, body in _rules_blocks())
    in_docs = {value for token, value in lex(text, RulesLexer()) if token in Keyword}
    assert len(in_docs) > 0.9 * len(grammar_keywords())      # nearly all are in use in the reference


def test_allow_is_not_all():
    tokens = [(t, v) for t, v in lex("set kind = allow on all", RulesLexer()) if v.strip()]
    assert (Keyword, "all") in tokens and not any(t in Keyword and v == "allow" for t, v in tokens)


@pytest.mark.parametrize("source", ["docs", *bundled_names()])
def test_rules_lex_without_errors(source):
    if source == "docs":
        texts = [body for _, body in _rules_blocks()]
    else:
        texts = [(ROOT / "variants" / f"{source}.rules").read_text(encoding="utf-8")]
    for text in texts:
        errors = [v for t, v in lex(text, RulesLexer()) if t in Error]
        assert not errors, f"{source}: error tokens {errors[:5]}"


def test_rules_blocks_come_out_highlighted_on_the_site():
    """Through the Markdown extensions of mkdocs.yml, as the site renders them."""
    import markdown
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python", "python"))
    extensions = [next(iter(e)) if isinstance(e, dict) else e for e in config["markdown_extensions"]]
    assert "pymdownx.highlight" in extensions and "pymdownx.superfences" in extensions
    md = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences"])
    for page, body in _rules_blocks():
        html = md.reset().convert(f"```rules\n{body}```\n")
        assert 'class="k"' in html, f"a rules block of {page} is not highlighted"


def test_the_navigation_lists_every_variant_once_by_family():
    nav = variants_nav()
    pages = [page for section in nav[1:] for members in section.values() for entry in members
             for page in entry.values()]
    assert nav[0] == "variants/index.md"
    assert sorted(pages) == sorted(f"variants/{name}/index.md" for name in bundled_names())
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = {family for section in nav[1:] for family in section}  # every family of a bundled variant
    assert set(FAMILY_ORDER) <= in_nav, "FAMILY_ORDER names a family no variant has"
    assert [f for f, _ in families()][:len(FAMILY_ORDER)] == list(FAMILY_ORDER)
    # Every variant page is an index.md: with mkdocs-material's navigation.indexes the first variant of
    # each family would become the family's heading link and vanish from the family's list.
    assert "navigation.indexes" not in config["theme"].get("features", [])


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in DOCS.glob("*.md"))])
def test_links_point_into_the_repository(page):
    path = ROOT / page
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.exists(), f"{page} links {target}, which is not in the repository"


def test_nothing_refers_to_a_document_outside_the_repository():
    """The seed games' decisions are stated in the rules files and their pages, not in a design file."""
    import subprocess
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    citing = [f for f in files if (ROOT / f).is_file() and "GAMES.md" in (ROOT / f).read_text(encoding="utf-8",
                                                                                               errors="replace")]
    assert set(citing) <= {"tests/test_site.py"}, f"these files cite a file outside the repository: {citing}"
