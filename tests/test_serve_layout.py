"""The page of ``rules serve`` on a phone (390x844) and a desktop (1400x900), its variant chooser, and how it starts.

Run in a real headless Chromium as tests/test_serve_browser.py runs it (its
server, browser and helpers). Sizes are measured in the page: the board's
picture, the dialogs, the controls a finger must hit (at least
:data:`TARGET` pixels tall on a phone), the hand of the player below the
board. Each test saves screenshots under ``artifacts/browser/``.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from test_serve_browser import (ARTIFACTS, _open_link, browser, click_cell, create_app, new_game,  # noqa: F401
                                screenshot, server, serving)

pytestmark = pytest.mark.xdist_group("browser")

PHONE = (390, 844)
DESKTOP = (1400, 900)
TARGET = 40
FULL_HANDS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[RBGSNLPPrbgsnlp] w - - 0 1"
"""Shogi's start with every kind of piece in both hands: the widest hands a player can hold."""
DIALOG_READY = "() => document.querySelector('#setup[open] #setup-start:not([disabled])') !== null"


def box(tab, selector: str) -> dict:
    return tab.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; }""",
                        selector)


def small_targets(tab, scope: str) -> list[str]:
    """The controls shown under ``scope`` (buttons, selects, inputs, links) less than TARGET pixels tall."""
    return tab.evaluate("""([scope, least]) => [...document.querySelectorAll(scope)].flatMap((root) =>
        [...root.querySelectorAll("button, select, input, a")].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && e.getClientRects().length && r.height < least;
        }).map((e) => `${e.localName}#${e.id}.${e.className} "${(e.textContent || e.value || "").slice(0, 30)}" `
                      + `${Math.round(e.getBoundingClientRect().height)}px`))""", [scope, TARGET])


def fits_the_width(tab) -> bool:
    """Nothing sticks out sideways: the page does not scroll horizontally."""
    return tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def dialog_fits(tab, selector: str, width: int) -> bool:
    """The dialog lies inside the screen's width, and nothing in it is wider than the dialog."""
    dialog = box(tab, selector)
    return dialog["left"] >= 0 and dialog["right"] <= width and tab.evaluate(
        "(s) => { const d = document.querySelector(s); return d.scrollWidth <= d.clientWidth; }", selector)


@contextmanager
def opened(browser, address: str, size: tuple[int, int], ready: str = DIALOG_READY, expected: str = "status of 400"):
    """A tab of a new browser context of ``size`` on ``address``, once ``ready`` holds; closed afterwards,
    when the page must not have logged an error (but ``expected`` ones: an unknown variant's 400)."""
    tab, errors = _open_link(browser, address, *size, ready=ready, expected=expected)
    yield tab
    tab.context.close()
    assert not errors, errors


@pytest.fixture
def phone(browser, server):
    with opened(browser, server, PHONE) as tab:
        yield tab


@pytest.fixture
def desktop(browser, server):
    with opened(browser, server, DESKTOP) as tab:
        yield tab


def test_on_a_phone_the_dialog_fits_and_the_chess_board_fills_the_width(phone):
    assert dialog_fits(phone, "#setup", PHONE[0])
    assert small_targets(phone, "#setup") == []
    screenshot(phone, "phone-new-game")
    new_game(phone, "chess")
    board = box(phone, "#board svg")
    assert board["width"] >= 370 and board["right"] <= PHONE[0], board
    assert fits_the_width(phone)
    assert small_targets(phone, "header, #panel") == []
    screenshot(phone, "phone-chess")
    click_cell(phone, "e2")
    assert set(phone.evaluate("() => [...document.querySelectorAll('#board .mark-target')].map(e => e.dataset.mark)")) \
        == {"e3", "e4"}


def test_on_a_phone_the_move_chooser_fits_beside_the_board(phone):
    """A promotion on the screen's edge (the a-file, the board as wide as the screen): the chooser is on it."""
    new_game(phone, "chess", {"white": "human", "black": "human"}, fen="8/P5k1/8/8/8/8/6K1/8 w - - 0 1")
    click_cell(phone, "a7")
    click_cell(phone, "a8")
    phone.wait_for_selector("#chooser:not([hidden])")
    chooser = box(phone, "#chooser")
    assert chooser["left"] >= 0 and chooser["right"] <= PHONE[0] and chooser["bottom"] <= PHONE[1], chooser
    assert phone.locator("#chooser .choice").count() == 4 and small_targets(phone, "#chooser") == []
    screenshot(phone, "phone-promotion-chooser")


def test_on_a_phone_a_four_army_board_fills_the_width_and_its_seats_fit(phone):
    phone.select_option("#setup-variant", "superchess")
    phone.wait_for_function("() => page.setup && page.setup.variant.name === 'superchess'")
    phone.select_option("#setup-mode", "4p")
    phone.wait_for_function("() => page.setup && page.setup.variant.mode === '4p' && "
                            "document.querySelectorAll('#setup-seats select').length === 4")
    assert dialog_fits(phone, "#setup", PHONE[0])
    assert small_targets(phone, "#setup") == []
    screenshot(phone, "phone-superchess-dialog")
    new_game(phone, "superchess", mode="4p")
    assert box(phone, "#board svg")["width"] >= 370
    assert fits_the_width(phone)
    screenshot(phone, "phone-superchess")


def own_hand(tab) -> list[dict]:
    """The boxes of the buttons of the pieces in the hand below the board."""
    return tab.evaluate("() => [...document.querySelectorAll('#hands-bottom .hand-piece')].map(b => {"
                        " const r = b.getBoundingClientRect(); return {bottom: r.bottom, right: r.right}; })")


def test_on_a_phone_the_players_hand_is_just_below_the_board(phone):
    new_game(phone, "shogi", fen=FULL_HANDS)
    board, hand = box(phone, "#board svg"), box(phone, "#hands-bottom")
    assert board["width"] >= 370
    assert 0 <= hand["top"] - board["bottom"] <= 20
    pieces = own_hand(phone)
    assert len(pieces) == 7 and all(p["right"] <= PHONE[0] for p in pieces)
    # The hands' upright pictures do not take the place of the board's turned pieces (one id, two elements).
    assert phone.evaluate("""() => [...document.querySelectorAll('#board [id]')].every(
        (e) => document.querySelectorAll(`[id="${e.id}"]`).length === 1)""")
    assert fits_the_width(phone)
    assert small_targets(phone, "header, #panel, .hands") == []
    screenshot(phone, "phone-shogi")


def test_on_a_desktop_the_board_is_large_and_the_players_hand_on_the_screen(desktop):
    new_game(desktop, "chess")
    assert box(desktop, "#board svg")["height"] >= 700
    screenshot(desktop, "desktop-chess")
    new_game(desktop, "superchess", mode="4p")
    board = box(desktop, "#board svg")
    assert board["height"] >= 700 and board["bottom"] <= DESKTOP[1], board
    screenshot(desktop, "desktop-superchess")
    new_game(desktop, "shogi", fen=FULL_HANDS)
    board, pieces = box(desktop, "#board svg"), own_hand(desktop)
    assert board["height"] >= 600, board
    assert len(pieces) == 7 and all(p["bottom"] <= DESKTOP[1] for p in pieces), pieces    # no scrolling to reach them
    assert fits_the_width(desktop)
    screenshot(desktop, "desktop-shogi")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_chooser_shows_every_variant_by_family_and_chooses_one(browser, server, size):
    with opened(browser, server, size) as tab:
        listed = tab.evaluate("() => fetch('/api/variants').then(r => r.json())")
        tab.click("#setup-browse")
        tab.wait_for_selector("#catalogue[open]")
        assert tab.locator("#catalogue h3").all_inner_texts() == listed["families"]
        cards = tab.evaluate("""() => [...document.querySelectorAll('#catalogue .variant-card')].map(card => ({
            name: card.dataset.variant, title: card.querySelector('strong').textContent,
            summary: card.querySelector('.summary').textContent, picture: card.querySelector('img').getAttribute('src'),
            rules: card.querySelector('a.rules-link').getAttribute('href')}))""")
        assert cards == [{"name": v["name"], "title": v["title"], "summary": v["summary"], "picture": v["thumbnail"],
                          "rules": v["rules"]} for v in listed["variants"]]
        current = tab.locator("#catalogue .variant-card.current")
        assert current.get_attribute("data-variant") == listed["default"]["variant"]
        tab.wait_for_function("() => { const img = document.querySelector('#catalogue .current img');"
                              " return img.complete && img.naturalWidth > 0; }")           # its thumbnail is drawn
        assert dialog_fits(tab, "#catalogue", size[0])
        if size == PHONE:
            assert small_targets(tab, "#catalogue") == []
        screenshot(tab, f"chooser-{size[0]}x{size[1]}")
        tab.fill("#catalogue-filter", "hand drop")                 # words of the summaries of the drop games
        shown = tab.evaluate("() => [...document.querySelectorAll('#catalogue .variant-card')]"
                             ".filter(c => !c.hidden).map(c => c.dataset.variant)")
        assert shown and len(shown) < len(cards)
        tab.wait_for_function("() => [...document.querySelectorAll('#catalogue .variant-card:not([hidden]) img')]"
                              ".every(img => img.complete && img.naturalWidth > 0)", timeout=60_000)
        screenshot(tab, f"chooser-filtered-{size[0]}x{size[1]}")
        tab.locator(f'#catalogue .variant-card[data-variant="{shown[-1]}"] button').click()
        tab.wait_for_function(f"() => page.setup && page.setup.variant.name === {shown[-1]!r}")
        assert tab.locator("#catalogue").get_attribute("open") is None
        assert tab.input_value("#setup-variant") == shown[-1]
        assert tab.locator("#setup-card strong").inner_text() == next(v["title"] for v in listed["variants"]
                                                                       if v["name"] == shown[-1])
        screenshot(tab, f"chooser-chosen-{size[0]}x{size[1]}")


def test_a_rule_page_from_the_chooser_plays_its_variant_with_play_this(browser, server):
    with opened(browser, server, PHONE) as tab:
        link = tab.locator('#setup-card a.rules-link')
        with tab.context.expect_page() as opening:
            link.click()
        rules = opening.value
        rules.wait_for_load_state()
        chosen = tab.evaluate("() => page.variants.find(v => v.name === page.defaultVariant.variant)")
        assert rules.title() == chosen["title"]
        assert rules.locator("img").first.evaluate("img => img.complete && img.naturalWidth > 0")
        screenshot(rules, "rule-page")
        rules.click("text=play this")
        rules.wait_for_function("() => typeof page !== 'undefined' && page.game !== null")
        assert rules.evaluate("() => page.game.variant.name") == chosen["name"]
        assert rules.locator("#setup").get_attribute("open") is None        # no dialog: the board
        assert rules.evaluate("() => page.game.seats.map(s => s.kind)")[0] == "human"
        assert "variant=" not in rules.url


def test_play_this_of_an_unknown_variant_says_so_and_asks(browser, server):
    with opened(browser, server + "?variant=nosuch", PHONE) as tab:
        assert "nosuch" in tab.inner_text("#notice")
        assert tab.locator("#setup").get_attribute("open") is not None       # the dialog asks instead


def test_cancelling_the_first_dialog_leaves_the_default_variants_board(phone):
    phone.click("#setup-cancel")
    phone.wait_for_function("() => page.game !== null")
    assert phone.evaluate("() => page.game.variant.name") == phone.evaluate("() => page.defaultVariant.variant")
    assert phone.evaluate("() => page.game.seats.map(s => s.kind)") == ["human", "ai:level=easy"]
    assert box(phone, "#board svg")["width"] >= 370
    screenshot(phone, "phone-cancelled")


def test_a_variant_named_on_the_command_line_opens_on_its_board(browser):
    """``rules serve VARIANT`` (the app's ``named`` default): a game of it, you against the computer, no dialog."""
    with serving(create_app(pace=0.05, default={"variant": "shogi", "mode": None, "named": True})) as address:
        with opened(browser, address, PHONE, ready="() => page.game !== null") as tab:
            assert tab.evaluate("() => page.game.variant.name") == "shogi"
            assert tab.locator("#setup").get_attribute("open") is None
            seats = tab.evaluate("() => page.game.seats.map(s => s.kind)")
            assert seats[0] == "human" and all(kind.startswith("ai") for kind in seats[1:])
            screenshot(tab, "named-variant-phone")
            tab.click("#new-game")
            tab.wait_for_function(DIALOG_READY)
            assert tab.input_value("#setup-variant") == "shogi"
