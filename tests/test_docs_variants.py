"""docs/variants is the generated documentation of every bundled variant, and it is up to date.

The documentation is regenerated in memory (as :func:`interpreter.documentation.pages.all_variant_files`
makes it, each variant's pages once per test process: :mod:`variant_pages`) and compared byte for byte with the files under ``docs/variants``: a
changed rules file, a new variant or a change to the generator that was
not followed by ``make docs-variants`` fails here. The generator is
deterministic (no dates, no timings), which the first test checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl import bundled_names
from interpreter.cli.main import main
from interpreter.documentation.pages import PLAY_URL, all_variant_files, index_page
from variant_pages import PAGES, variant_pages

pytestmark = pytest.mark.xdist_group(PAGES)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "variants"


def _files(names: list[str]) -> dict[str, str]:
    """What :func:`all_variant_files` makes of ``names``, with each variant's pages taken from
    :func:`variant_pages` (made once per test process)."""
    return {"index.md": index_page(names),
            **{f"{name}/{file}": text for name in names for file, text in variant_pages(name).items()}}


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return _files(sorted(bundled_names()))


def test_the_group_holds_under_xdist(request):
    """Under ``pytest -n N --dist loadgroup`` this module's tests carry their xdist group, so they run in one
    worker with tests/test_rulebook.py and the pages are made once (pytest 9.2 lost it: pyproject.toml)."""
    if not request.config.getoption("loadgroup", default=False):
        pytest.skip("not run by a pytest-xdist worker with --dist loadgroup")
    assert request.node.nodeid.endswith("@" + PAGES), request.node.nodeid


def test_generation_is_deterministic():
    """A second generation (all_variant_files, afresh) equals the first (variant_pages, kept)."""
    assert all_variant_files(["chess"]) == _files(["chess"])


def test_docs_variants_is_up_to_date(generated):
    on_disk = {p.relative_to(DOCS).as_posix(): p for p in DOCS.rglob("*") if p.is_file()}
    missing = sorted(set(generated) - set(on_disk))
    extra = sorted(set(on_disk) - set(generated))
    stale = sorted(name for name in set(generated) & set(on_disk)
                   if on_disk[name].read_bytes() != generated[name].encode("utf-8"))
    assert not (missing or extra or stale), (
        "docs/variants is stale; run 'make docs-variants'.\n"
        f"missing: {missing[:10]}\nnot generated any more: {extra[:10]}\nchanged: {stale[:10]}")


def test_every_page_links_only_files_it_has(generated):
    import re
    for name, text in generated.items():
        if not name.endswith("index.md"):
            continue
        folder = name.rpartition("/")[0]
        for target in re.findall(r"\]\(([^)]+)\)", text):
            if target.startswith(PLAY_URL):   # the page of 'rules serve' (the test below)
                continue
            path = f"{folder}/{target}" if folder else target
            assert path in generated, f"{name} links {target}, which is not generated"


def test_every_bundled_page_links_to_the_page_that_plays_it(generated):
    """Each rule page ends its opening with "play this", the page of 'rules serve' on that variant."""
    for name in bundled_names():
        page = generated[f"{name}/index.md"]
        assert f"[play this]({PLAY_URL}?variant={name})" in page.split("\n## ", 1)[0], name


def test_a_file_that_is_not_bundled_has_no_play_link(tmp_path, capsys):
    """The server plays bundled variants by name only: a page of a file elsewhere does not link to it."""
    (tmp_path / "mine.rules").write_text('variant mine { title "Mine" }\nextends chess\n', encoding="utf-8")
    assert main(["doc", str(tmp_path / "mine.rules"), "-o", str(tmp_path / "out")]) == 0
    assert "play this" not in (tmp_path / "out" / "index.md").read_text(encoding="utf-8")


def test_doc_command_writes_markdown_and_html(tmp_path, capsys):
    assert main(["doc", "chess", "-o", str(tmp_path / "md")]) == 0
    assert (tmp_path / "md" / "index.md").read_text(encoding="utf-8").startswith("# Chess\n")
    assert main(["doc", "chess", "-o", str(tmp_path / "html"), "--format", "html"]) == 0
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<img src="setup.svg"' in page
    assert "<code>O-O</code>" in page
    assert {p.name for p in (tmp_path / "md").glob("*.svg")} == {p.name for p in (tmp_path / "html").glob("*.svg")}


def test_doc_command_bad_input_exits_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["doc", "chess", "-o", str(blocker)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert main(["doc", "chess", "--format", "pdf"]) == 2
