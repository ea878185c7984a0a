"""The game controls of the ``rules serve`` page in headless Chromium: a clock chosen in the new-game
dialog and ticking, a premove played when its turn comes, the move sound and its mute switch,
resigning with the button, a draw offered on one machine and accepted on another.

It shares the server, the browser and the helpers of :mod:`test_serve_browser` (skipped with it
when there is no chromium); screenshots go to ``artifacts/browser/``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from test_serve_browser import (  # noqa: E402, F401
    _open_link, browser, cell_point, page, play_by_clicks, screenshot, server)

pytestmark = pytest.mark.xdist_group("browser")


def start_with_clock(page, minutes: str, increment: str, seats: dict[str, str]) -> None:
    """A game of chess from the dialog, with one time control for every seat."""
    page.select_option("#setup-variant", "chess")
    page.wait_for_function("() => page.setup && !document.querySelector('#setup-start').disabled")
    for seat, kind in seats.items():
        page.select_option(f'#setup-seats select[name="{seat}"]', kind)
    page.select_option("#setup-clock-kind", "same")
    page.fill('.clock-control[data-seat=""] .clock-base', minutes)
    page.fill('.clock-control[data-seat=""] .clock-increment', increment)
    screenshot(page, "controls-dialog-clock")
    page.click("#setup-start")
    page.wait_for_selector("#setup", state="hidden")
    page.wait_for_function("() => page.game && page.game.clock")


def clock_text(page, seat: str) -> str:
    return page.inner_text(f'#clocks .clock[data-seat="{seat}"] .clock-time')


def seconds(text: str) -> int:
    minutes, _, rest = text.partition(":")
    return int(minutes) * 60 + int(float(rest))


def test_clocks_tick_a_premove_is_played_and_the_button_resigns(page):
    start_with_clock(page, "0.5", "2", {"white": "human", "black": "ai:level=hard"})
    assert clock_text(page, "white") == "0:30" and clock_text(page, "black") == "0:30"
    play_by_clicks(page, "e2", "e4")
    page.wait_for_function("() => page.game.thinking")
    # While the computer thinks for Black, White drags a knight: a premove, shown, not yet played.
    page.mouse.move(*cell_point(page, "g1"))
    page.mouse.down()
    page.mouse.move(*cell_point(page, "f3"), steps=8)
    page.mouse.up()
    premoved = page.evaluate("() => [...document.querySelectorAll('#board .mark-premove')].map(e => e.dataset.mark)")
    assert page.evaluate("() => page.game.ply") == 1 and sorted(premoved) == ["f3", "g1"]
    assert page.inner_text("#premove").startswith("Premove g1–f3")
    assert page.locator('#clocks .clock[data-seat="black"]').get_attribute("class") == "clock running"
    screenshot(page, "controls-premove-and-clock")
    page.wait_for_function("() => page.game.ply === 3", timeout=30000)   # Black answered; the premove went
    assert page.evaluate("() => page.game.moves[2].san") == "Nf3"
    assert page.evaluate("() => document.querySelector('#mute').dataset.played") == "move"
    assert clock_text(page, "white") in ("0:33", "0:34")   # 30 s, twice the increment, the premove's instant
    assert page.is_hidden("#premove")
    page.click("#resign")
    assert page.inner_text("#resign") == "Really resign?"
    assert page.evaluate("() => page.game.result") is None
    page.click("#resign")
    page.wait_for_function("() => page.game.result")
    assert page.inner_text("#status") == "Black wins by resignation."   # the person, not the computer to move
    assert page.is_hidden("#resign")
    assert "running" not in page.locator('#clocks .clock[data-seat="black"]').get_attribute("class")   # stopped
    screenshot(page, "controls-resigned")


def test_the_mute_switch_is_remembered(page):
    start_with_clock(page, "5", "0", {"white": "human", "black": "human"})
    page.click("#mute")
    assert page.inner_text("#mute") == "Sound off"
    play_by_clicks(page, "e2", "e4")
    assert page.evaluate("() => document.querySelector('#mute').dataset.played") is None   # nothing heard
    before = seconds(clock_text(page, "black"))
    page.wait_for_timeout(1500)
    assert 299 - 3 <= seconds(clock_text(page, "black")) <= before - 1   # it ticks on the page between two states
    assert clock_text(page, "white") == "5:00"
    page.reload()
    page.wait_for_function("() => page.game && page.game.clock")
    assert page.inner_text("#mute") == "Sound off" and page.get_attribute("#mute", "aria-pressed") == "true"
    assert clock_text(page, "black").startswith("4:5")      # the server's time, not the page's
    page.click("#mute")
    play_by_clicks(page, "d7", "d5")
    play_by_clicks(page, "e4", "d5")
    assert page.evaluate("() => document.querySelector('#mute').dataset.played") == "capture"
    screenshot(page, "controls-capture-sound")


def test_a_draw_offered_on_one_machine_is_accepted_on_another(page, browser):
    page.select_option("#setup-variant", "chess")
    page.wait_for_function("() => page.setup && !document.querySelector('#setup-start').disabled")
    page.select_option('#setup-seats select[name="black"]', "human")
    page.select_option("#setup-clock-kind", "seats")
    page.fill('.clock-control[data-seat="white"] .clock-base', "1")
    page.fill('.clock-control[data-seat="black"] .clock-base', "2")
    page.fill('.clock-control[data-seat="black"] .clock-increment', "1")
    screenshot(page, "controls-dialog-per-seat")
    page.click("#setup-start")
    page.wait_for_function("() => page.game && page.game.clock")
    assert clock_text(page, "white") == "1:00" and clock_text(page, "black") == "2:00"
    links = {row.get_attribute("data-link"): row.locator("input").input_value() for row in page.locator(".share-row").all()}
    white, white_errors = _open_link(browser, links["seat-white"])
    black, black_errors = _open_link(browser, links["seat-black"])
    for tab in (white, black):
        tab.wait_for_function("() => live.source && live.source.readyState === EventSource.OPEN")
    play_by_clicks(white, "e2", "e4")
    white.click("#draw-offer")
    black.wait_for_function("() => !document.querySelector('#draw-offers').hidden")
    assert black.inner_text("#draw-offers-text") == "White offers a draw."
    assert white.is_hidden("#draw-accept") and white.inner_text("#draw-decline") == "Withdraw"
    screenshot(black, "controls-draw-offered")
    black.click("#draw-accept")
    for tab in (white, black, page):
        tab.wait_for_function("() => page.game.result")
        assert tab.inner_text("#status") == "Draw by agreement."
        assert tab.is_disabled("#undo")
    screenshot(white, "controls-draw-agreed")
    for tab in (white, black):
        tab.context.close()
    assert not white_errors + black_errors


def test_the_flag_falls_on_the_page_while_nobody_acts(page):
    start_with_clock(page, "0.04", "0", {"white": "human", "black": "human"})   # 2.4 seconds
    play_by_clicks(page, "e2", "e4")
    page.wait_for_function("() => page.game.result", timeout=15000)   # told by the server's event stream
    assert page.inner_text("#status") == "White wins by time forfeit: Black's time ran out."
    assert clock_text(page, "black") == "0:00.0" and page.is_disabled("#undo")
    assert "low" in page.locator('#clocks .clock[data-seat="black"]').get_attribute("class")
    screenshot(page, "controls-flag-fall")
