"""Analysis mode of the ``rules serve`` page in a real headless Chromium (see test_serve_browser.py,
whose server, browser and page it shares): the evaluation bar, the best line's arrows on square,
xiangqi and hex boards, stepping through the game, and "Play from here"."""

from __future__ import annotations

import pytest

from tests.test_serve_browser import browser, new_game, page, screenshot, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.xdist_group("browser")

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def analyse(page) -> dict:
    """Turn analysis on (if it is off) and wait for the last report of the position shown."""
    if page.get_attribute("#analyse", "aria-pressed") != "true":
        page.click("#analyse")
    page.wait_for_function("() => analysis.report && analysis.report.final && !analysis.running", timeout=20_000)
    page.wait_for_timeout(400)     # the bar's move to its new height
    return page.evaluate("() => analysis.report")


def arrows(page) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in page.evaluate("() => [...document.querySelectorAll('#board .arrows .arrow')]"
                                                  ".map(a => [a.dataset.from, a.dataset.to])")]


def test_analysis_of_a_chess_position_and_play_from_here(page):
    new_game(page, "chess", {"white": "human", "black": "human"}, fen=MATE_IN_ONE)
    report = analyse(page)
    assert report["pv"][0]["san"] == "Ra8#" and report["first"]["mate"] == 1
    assert page.is_visible("#eval-bar") and page.inner_text("#eval-text") == "M1"
    height = page.evaluate("() => parseFloat(document.querySelector('#eval-fill').style.height)")
    assert height == 100.0                      # White mates: the bar is all White's
    assert arrows(page)[0] == ("a1", "a8")
    assert page.locator("#analysis-line li").first.inner_text() == "Ra8#"
    screenshot(page, "analysis-mate-in-one")
    # Moves played, then stepping back with the buttons and the keys: the arrows follow the position.
    before = page.evaluate("() => page.game.version")
    page.evaluate("() => act('POST', `/api/games/${page.game.id}/moves`, {move: 'Kf1'})")
    page.wait_for_function(f"() => page.game.version > {before}")
    report = analyse(page)
    assert report["ply"] == 1 and report["to_move"] == "black"
    page.click("#step-back")
    page.wait_for_function("() => page.viewing && page.viewing.ply === 0 && analysis.report && analysis.report.ply === 0"
                           " && analysis.report.final")
    assert arrows(page)[0] == ("a1", "a8")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !page.viewing && analysis.report && analysis.report.ply === 1 && analysis.report.final")
    page.click("#step-start")
    page.wait_for_function("() => page.viewing && page.viewing.ply === 0")
    viewed = page.evaluate("() => page.viewing.fen")
    # Play from here: the new-game dialog, filled with the variant, the seats and the position shown.
    page.click("#play-from-here")
    page.wait_for_selector("#setup[open] #setup-start:not([disabled])")
    assert page.input_value("#setup-fen") == viewed and page.input_value("#setup-variant") == "chess"
    assert page.input_value('#setup-seats select[name="black"]') == "human"
    old = page.evaluate("() => page.game.id")
    page.click("#setup-start")
    page.wait_for_selector("#setup", state="hidden")
    page.wait_for_function(f"() => page.game && page.game.id !== {old!r}")
    assert page.evaluate("() => page.game.start_fen") == viewed and page.evaluate("() => page.game.ply") == 0
    analyse(page)
    assert arrows(page)[0] == ("a1", "a8")
    screenshot(page, "analysis-play-from-here")


def test_analysis_arrows_on_other_boards(page):
    """Arrows join cells' centres on a xiangqi board of points, on a hex board (turned for Black)
    and on a board of four armies; each arrow starts and ends inside its cells. The bar shows the
    first army's share in games of two teams, the side to move's in a game of four."""
    for variant, turned in (("xiangqi", False), ("glinski", True), ("fourplayer_ffa", False)):
        new_game(page, variant, {"white": "human", "black": "human"} if turned else None)
        report = analyse(page)
        if turned:
            page.click("#flip")     # the same analysis, drawn again on the turned board
            page.wait_for_function("() => document.querySelector('#board .arrows .arrow')")
        drawn = arrows(page)
        assert drawn and drawn[0] == (report["pv"][0]["from"], report["pv"][0]["to"])
        inside = page.evaluate("""() => [...document.querySelectorAll('#board .arrows .arrow')].map((arrow) => {
            const line = arrow.querySelector('line');
            if (!line) return true;
            const at = (x, y, name) => document.querySelector(`#board [data-cell="${name}"]`)
                .isPointInFill(new DOMPoint(x, y));
            const [tx, ty] = arrow.querySelector('polygon').getAttribute('points').split(' ')[0].split(',');
            return at(+line.getAttribute('x1'), +line.getAttribute('y1'), arrow.dataset.from) && at(+tx, +ty, arrow.dataset.to);
        })""")
        assert all(inside)
        assert page.evaluate("() => document.querySelector('#eval-bar').classList.contains('mover')") == \
            (report["first"] is None) == (variant == "fourplayer_ffa")
        screenshot(page, f"analysis-{variant}")
