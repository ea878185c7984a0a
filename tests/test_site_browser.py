"""The built documentation site in a browser: search answers, the families open, `.rules` is coloured.

Slow (``-m slow``): it builds the site with ``mkdocs build --strict`` into a
temporary folder, serves it over HTTP and drives Debian's ``chromium`` with
Playwright, as a reader would: typing a query shows results; opening a family
in the navigation shows its variants, the first one too, and a click opens
that variant's page; the code blocks of the language reference have keyword
spans in a colour of their own; no page links a file the site does not have.
Skipped without mkdocs, Playwright or chromium.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
pytest.importorskip("mkdocs")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]  # one worker builds the site and drives chromium
if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed ('make browser' installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
                   cwd=ROOT, check=True)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield out, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def page(site):
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page, site[1], errors
        browser.close()


def test_search_shows_results(page):
    page, base, errors = page
    page.goto(base + "/index.html")
    page.fill(".md-search__input", "superchess")
    page.wait_for_selector(".md-search-result__item", timeout=20000)
    assert "Superchess" in page.locator(".md-search-result__item").first.inner_text()
    assert not errors


def test_a_family_opens_and_lists_every_one_of_its_variants(page):
    page, base, _ = page
    page.goto(base + "/variants/index.html")
    nav = page.locator("nav.md-nav--primary")
    nav.locator("label.md-nav__link", has_text="Seed games").first.click()
    for title in ("Locking Chess", "Rocket Chess", "Superchess"):
        assert nav.locator("a.md-nav__link", has_text=title).first.is_visible(), title
    nav.locator("a.md-nav__link", has_text="Superchess").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/variants/superchess/index.html")
    assert page.locator("h1").first.inner_text().startswith("Superchess")


def test_rules_blocks_are_highlighted(page):
    page, base, _ = page
    page.goto(base + "/language.html")
    keywords = page.locator("div.highlight span.k")
    assert keywords.count() > 100
    colours = page.evaluate("() => [getComputedStyle(document.querySelector('div.highlight span.k')).color,"
                            " getComputedStyle(document.querySelector('div.highlight code')).color]")
    assert colours[0] != colours[1]


def test_no_link_to_a_missing_file(site):
    out, _ = site
    broken = []
    for html in out.rglob("*.html"):
        for ref in re.findall(r'(?:href|src)="([^"#?]+)', html.read_text(encoding="utf-8", errors="replace")):
            if re.match(r"^[a-z]+:", ref) or ref.startswith("//"):
                continue
            ref = urllib.parse.unquote(ref)
            target = out / ref.lstrip("/") if ref.startswith("/") else html.parent / ref
            if not target.resolve().exists():
                broken.append(f"{html.relative_to(out)} -> {ref}")
    assert not broken, broken[:10]
