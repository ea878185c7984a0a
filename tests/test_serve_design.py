"""The design page of ``rules serve`` (``/design``) in a real headless Chromium.

A bundled variant's text is loaded into the editor, a keyword is broken by typing (the error is
underlined on its line and listed with its message), fixed again, a piece is taken out of the
setup (the board loses it), the text is saved as a file and loaded back, "Play it" starts a game of the text, and a reload keeps the draft.
A text with a warning has it underlined in its own style (wavy amber) at its place, with its message.
The server and the browser are those of :mod:`tests.test_serve_browser`; the screenshots go to
``artifacts/browser/`` (1400x900 and 390x844).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_serve_browser import ARTIFACTS, browser, server  # noqa: F401 (fixtures)

VARIANT = "chess"
TEXT = (Path(__file__).resolve().parent.parent / "variants" / f"{VARIANT}.rules").read_text(encoding="utf-8")


@pytest.fixture(params=[(1400, 900), (390, 844)], ids=["wide", "phone"])
def design(request, browser, server):  # noqa: F811 (fixtures)
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    tab.goto(server + "design")
    tab.wait_for_function("() => document.querySelector('#design-start').options.length > 1")
    yield tab, f"{width}x{height}"
    context.close()
    assert not errors, errors


def _checked(tab) -> None:
    tab.wait_for_function("() => / no errors/.test(document.querySelector('#design-status').textContent)")


def _type_at(tab, start: int, end: int, keys: str) -> None:
    """Select characters ``start``..``end`` of the text and type ``keys`` over them (Delete for none)."""
    tab.evaluate("([s, e]) => { const t = document.querySelector('#editor-text'); t.focus(); t.setSelectionRange(s, e); }",
                 [start, end])
    if keys:
        tab.keyboard.type(keys)
    else:
        tab.keyboard.press("Delete")


def _pieces(tab) -> int:
    return tab.evaluate("() => (document.querySelector('#design-board').dataset.svg.match(/<use /g) || []).length")


def test_design_underlines_errors_and_redraws_the_board(design):
    tab, size = design
    tab.select_option("#design-start", VARIANT)
    tab.wait_for_function("t => document.querySelector('#editor-text').value === t", arg=TEXT)
    _checked(tab)
    assert tab.evaluate("() => document.querySelectorAll('#editor-colours .k').length") > 10   # coloured
    before = _pieces(tab)

    # Break the keyword "board": the error is underlined on its line, and listed with its message.
    at = re.search(r"^board\b", TEXT, re.M).start()
    line = TEXT.count("\n", 0, at) + 1
    _type_at(tab, at + 1, at + 2, "")
    tab.wait_for_selector("#editor-colours .error")
    underlined = tab.evaluate("""() => {
        const mark = document.querySelector('#editor-colours .error'); let before = '';
        for (const node of document.querySelector('#editor-colours').childNodes) {
            if (node === mark) break; before += node.textContent; }
        return {line: before.split('\\n').length, text: mark.textContent, title: mark.title}; }""")
    assert underlined["line"] == line and underlined["text"] == "bard"
    box = tab.locator("#editor-colours .error").bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)   # hovering shows the message
    assert tab.evaluate("() => document.querySelector('#editor-text').title") == underlined["title"]
    listed = tab.locator("#problems li.error").first.text_content()
    assert f":{line}:1: " in listed and underlined["title"] in listed
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"design-error-{size}.png"))

    # Clicking the message puts the cursor on the error.
    tab.locator("#problems li.error").first.click()
    assert tab.evaluate("() => document.querySelector('#editor-text').selectionStart") == at

    # Fixed: no error; then the white queen leaves the setup and the board loses a piece.
    _type_at(tab, at + 1, at + 1, "o")
    _checked(tab)
    assert tab.locator("#editor-colours .error").count() == 0
    fen = TEXT.index("RNBQKBNR")
    _type_at(tab, fen + 3, fen + 4, "1")
    tab.wait_for_function("n => (document.querySelector('#design-board').dataset.svg.match(/<use /g) || []).length === n",
                          arg=before - 1)
    tab.screenshot(path=str(ARTIFACTS / f"design-{size}.png"), full_page=True)

    # Save downloads the text under its variant's name; Load file reads a file back into the editor.
    with tab.expect_download() as saving:
        tab.click("#design-save")
    saved = Path(saving.value.path()).read_text(encoding="utf-8")
    assert saving.value.suggested_filename == f"{VARIANT}.rules" and "RNB1KBNR" in saved and saved != TEXT
    tab.set_input_files("#design-file", files=[{"name": "mine.rules", "mimeType": "text/plain",
                                                 "buffer": saved.encode("utf-8")}])
    _checked(tab)
    assert tab.evaluate("() => document.querySelector('#editor-text').value") == saved

    # The draft survives a reload.
    tab.reload()
    tab.wait_for_function("() => document.querySelector('#editor-text').value.includes('RNB1KBNR')")
    _checked(tab)

    # Play it: the main page starts a game of this text, with no queen on d1.
    tab.click("#design-play")
    tab.wait_for_function("() => typeof page !== 'undefined' && page.game && page.game.variant")
    assert tab.evaluate("() => page.rules").count("RNB1KBNR") == 1
    assert tab.evaluate("() => page.game.fen").startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR")
    tab.screenshot(path=str(ARTIFACTS / f"design-played-{size}.png"))


def test_design_underlines_each_warning_in_its_own_style(design):
    """A text with a warning (an end rule's title that reads as a clause): the rule's name is
    underlined as a warning, not as an error, with the message as its tooltip, and listed."""
    tab, size = design
    text = TEXT + 'rules {\n  end lost "the king was lost" when royals == 0: loss\n}\n'
    line = text.count("\n", 0, text.index("end lost")) + 1
    _checked(tab)   # the default variant's text is in (it would replace ours if it came later)
    tab.evaluate("t => { const area = document.querySelector('#editor-text'); area.value = t;"
                 " area.dispatchEvent(new Event('input')); }", text)
    tab.wait_for_function("() => / no errors, 1 warning($|,)/.test(document.querySelector('#design-status').textContent)")
    underlined = tab.evaluate("""() => {
        const mark = document.querySelector('#editor-colours .warning'); let before = '';
        for (const node of document.querySelector('#editor-colours').childNodes) {
            if (node === mark) break; before += node.textContent; }
        return {line: before.split('\\n').length, text: mark.textContent, title: mark.title,
                style: getComputedStyle(mark).textDecorationStyle}; }""")
    assert underlined["line"] == line and underlined["text"] == "lost" and underlined["style"] == "wavy"
    assert "reads as a clause" in underlined["title"] and "hint: " in underlined["title"]
    assert tab.locator("#editor-colours .error").count() == 0
    tab.evaluate("() => { const t = document.querySelector('#editor-text'); t.scrollTop = 1e6;"
                 " t.dispatchEvent(new Event('scroll')); }")   # the end of the text, where the warning is
    box = tab.locator("#editor-colours .warning").bounding_box()
    tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)   # hovering shows the message
    assert tab.evaluate("() => document.querySelector('#editor-text').title") == underlined["title"]
    listed = tab.locator("#problems li.warning").first.text_content()
    assert f"<{VARIANT}.rules>:{line}:7: warning: the title of end rule 'lost' reads as a clause" in listed
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / ("design-warning.png" if size == "1400x900" else f"design-warning-{size}.png")))
