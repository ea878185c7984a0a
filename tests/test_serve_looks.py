"""How the page of ``rules serve`` shows and asks for what a game's rules say, in headless Chromium.

The server, the browser and the helpers are those of ``test_serve_browser.py``
(one server and one chromium per module; moves made by mouse clicks on the
cells' polygons). Covered here: a move in two parts (a neutral piece placed
after the move) asked for as a second click on the board, the promotion
chooser kept off the board, pieces of one size on a board of cells of
different shapes, clicks near the edge of a chevron cell, the legend of the
pieces, teams and army colours as the rules name them. Each test saves a
screenshot under ``artifacts/browser/``.
"""

from __future__ import annotations

import colorsys

import pytest

pytest.importorskip("playwright.sync_api")

from test_serve_browser import (  # noqa: E402,F401  (fixtures: browser, server, page)
    ARTIFACTS, _chevrons, _open_link, browser, click_cell, marked, new_game, page, screenshot, server)

from interpreter.loading import load_game  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")


def _second_cells(page, frm: str, to: str) -> list[str]:
    """The cells the page's legal moves from ``frm`` to ``to`` put their second part on."""
    return page.evaluate(f"() => page.game.legal.filter(m => m.from === {frm!r} && m.to === {to!r}).map(m => m.second)")


def _play_in_two_clicks_and_a_place(page, frm: str, to: str, place: str) -> None:
    before = page.evaluate("() => page.game.version")
    click_cell(page, frm)
    click_cell(page, to)
    assert page.is_hidden("#chooser")                       # no list of buttons: the cells light up
    assert sorted(marked(page, "second")) == sorted(set(_second_cells(page, frm, to)))
    click_cell(page, place)
    page.wait_for_function(f"() => page.game.version > {before}")


def test_the_duck_is_placed_by_a_click_on_the_board(page):
    new_game(page, "duck", {"white": "human", "black": "human"})
    click_cell(page, "g1")
    click_cell(page, "f3")
    page.wait_for_timeout(100)
    assert page.is_hidden("#chooser") and page.locator("#chooser .choice").count() == 0
    lit = marked(page, "second")
    assert len(lit) == len(_second_cells(page, "g1", "f3")) == 32     # the empty cells but f3 (31), and g1, which the knight left
    assert "f3" not in lit and "g1" in lit and sorted(marked(page, "selected")) == ["f3", "g1"]
    knight = page.evaluate("""() => { const r = board.pieces.get('g1')[0].getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; }""")
    f3 = page.evaluate("() => board.cellRect('f3').toJSON()")
    assert f3["left"] < knight[0] < f3["right"] and f3["top"] < knight[1] < f3["bottom"]   # shown where it goes
    screenshot(page, "duck-cells-lit")
    san = page.evaluate("() => page.game.legal.find(m => m.from === 'g1' && m.to === 'f3' && m.second === 'e5').san")
    before = page.evaluate("() => page.game.version")
    click_cell(page, "e5")
    page.wait_for_function(f"() => page.game.version > {before}")
    assert page.locator("#moves .move").all_inner_texts() == [san]
    assert page.evaluate("() => page.game.fen").split()[0].split("/")[3] == "4*3"      # the duck on e5
    assert marked(page, "second") == []

    # A click on a cell that is not lit takes the move back: nothing is played, nothing stays marked.
    click_cell(page, "d7")
    click_cell(page, "d5")
    assert "e5" not in marked(page, "second")               # the duck must move on
    click_cell(page, "e5")
    assert marked(page, "second") == [] and marked(page, "selected") == []
    assert page.evaluate("() => page.game.moves.length") == 1
    _play_in_two_clicks_and_a_place(page, "d7", "d5", "c3")
    assert page.evaluate("() => page.game.moves.length") == 2
    assert "*" in page.evaluate("() => page.game.fen").split()[0].split("/")[5]     # on the sixth rank: c3
    screenshot(page, "duck-two-moves")


def test_a_promotion_with_a_second_part_asks_the_cell_then_the_piece(page):
    """Moves that differ by their second cell and by their promotion: the cell is clicked on the
    board, then the chooser offers the pieces (each move of the strip with that second cell)."""
    new_game(page, "duck", {"white": "human", "black": "human"}, fen="8/P5k1/8/8/8/8/6K1/8 w - - 0 1")
    click_cell(page, "a7")
    click_cell(page, "a8")
    assert page.is_hidden("#chooser") and "e4" in marked(page, "second")
    click_cell(page, "e4")
    page.wait_for_selector("#chooser:not([hidden])")
    choices = page.evaluate("() => [...document.querySelectorAll('#chooser .choice')].map(b => b.dataset.uci)")
    expected = page.evaluate("() => page.game.legal.filter(m => m.from === 'a7' && m.second === 'e4').map(m => m.uci)")
    assert sorted(choices) == sorted(expected) and len(choices) == 4
    assert marked(page, "second") == [] and marked(page, "selected") == ["a7"]
    screenshot(page, "duck-promotion-chooser")
    page.locator("#chooser .choice[title^='become Rook']").click()
    page.wait_for_function("() => page.game.moves.length === 1")
    assert page.evaluate("() => page.game.fen").split()[0].split("/")[0] == "R7"
    assert page.evaluate("() => page.game.fen").split()[0].split("/")[4] == "4*3"


def _overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("fen, frm, to, name", [
    ("8/P5k1/8/8/8/8/6K1/8 w - - 0 1", "a7", "a8", "white"),
    ("8/6k1/8/8/8/8/5Kp1/8 b - - 0 1", "g2", "g1", "black"),
])
def test_the_promotion_chooser_hides_no_cell(page, fen, frm, to, name):
    new_game(page, "chess", {"white": "human", "black": "human"}, fen=fen)
    click_cell(page, frm)
    click_cell(page, to)
    page.wait_for_selector("#chooser:not([hidden])")
    chooser = page.locator("#chooser").bounding_box()
    cells = page.evaluate("""() => [...board.cells.entries()].map(([name, cell]) => {
        const r = cell.getBoundingClientRect(); return {name, x: r.x, y: r.y, width: r.width, height: r.height}; })""")
    assert len(cells) == 64
    assert [cell["name"] for cell in cells if _overlap(chooser, cell)] == []
    assert page.locator("#chooser .choice svg").count() == 4          # still a picture of each piece
    assert chooser["x"] >= 0 and chooser["y"] >= 0 and chooser["x"] + chooser["width"] <= 1280 \
        and chooser["y"] + chooser["height"] <= 900                   # all of it on the screen
    target = next(cell for cell in cells if cell["name"] == to)
    middle = target["x"] + target["width"] / 2
    assert chooser["x"] <= middle <= chooser["x"] + chooser["width"]   # over the promotion square's file
    screenshot(page, f"promotion-chooser-off-the-board-{name}")
    page.locator("#chooser .choice[title^='become Knight']").click()
    page.wait_for_function("() => page.game.moves.length === 1")
    assert page.evaluate("() => page.game.moves.map(m => m.san)") == [f"{to}=N"]


def test_rocket_pieces_are_one_size_and_explained_by_the_legend(page):
    game = load_game("rocket")
    new_game(page, "rocket", {"white": "human", "black": "human"})
    sizes = page.evaluate("""() => [...document.querySelectorAll('#board g.piece use')].map(use => {
        const box = use.getBoundingClientRect();
        return [use.getAttribute('xlink:href'), use.transform.baseVal.consolidate().matrix.a, box.width, box.height];
    })""")
    assert len(sizes) == 32
    assert len({round(scale, 6) for _, scale, _, _ in sizes}) == 1           # one scale for every piece
    by_piece: dict[str, set[tuple[int, int]]] = {}
    for href, _, width, height in sizes:
        by_piece.setdefault(href, set()).add((round(width), round(height)))
    assert all(len(boxes) == 1 for boxes in by_piece.values()), by_piece
    king, pawn = by_piece["#piece-0-king"].pop(), by_piece["#piece-0-pawn"].pop()
    assert king[1] >= 18 and pawn[1] >= 18, (king, pawn)                     # not shrunk to the narrowest cells
    # The discs lettered S and Z are explained: the legend, open, names them and says how they move.
    assert page.evaluate("() => document.querySelector('#legend').open") is True
    for name, letter in (("Astra", "S"), ("Zip", "Z")):
        row = page.locator(f'.legend-piece[data-piece="{name}"]')
        assert row.locator(".legend-name").inner_text() == f"{name} ({letter})"
        description = next(kind.spec.description for kind in game.kinds if kind.name == name)
        assert description and description in row.inner_text()
        assert row.locator("svg").count() == 1
    page.locator("#legend").scroll_into_view_if_needed()
    screenshot(page, "rocket-one-size-and-legend")


def test_a_click_near_a_chevron_cells_edge_selects_that_cell(page):
    """A point inside a chevron (a non-convex cell of Rocket Chess) close to its side, where the
    outline of the neighbour drawn over it is the topmost element: the click selects the chevron."""
    chevrons = sorted(_chevrons(load_game("rocket")))
    new_game(page, "rocket", {"white": "human", "black": "human"})
    movable = page.evaluate("() => [...new Set(page.game.legal.map(m => m.from))]")
    found = page.evaluate("""([cells]) => {
        for (const name of cells) {
            const cell = board.cells.get(name);
            const screen = cell.getScreenCTM(), back = screen.inverse();
            const points = cell.points;
            for (let i = 0; i < points.numberOfItems; i++) {
                const a = points.getItem(i), b = points.getItem((i + 1) % points.numberOfItems);
                for (let t = 0.2; t < 0.85; t += 0.1) for (let inward = 0.2; inward < 1.6; inward += 0.2) {
                    const p = new DOMPoint(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t).matrixTransform(screen);
                    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1], [0.7, 0.7], [-0.7, 0.7], [0.7, -0.7], [-0.7, -0.7]]) {
                        const x = p.x + dx * inward, y = p.y + dy * inward;
                        if (!cell.isPointInFill(new DOMPoint(x, y).matrixTransform(back))) continue;
                        const top = document.elementFromPoint(x, y);
                        const hit = top && top.closest('[data-cell]');
                        if (hit && hit !== cell) return {name, x, y, neighbour: hit.dataset.cell};
                    }
                }
            }
        }
        return null;
    }""", [[c for c in chevrons if c in movable]])
    assert found, "no point of a chevron under a neighbour's outline"
    page.mouse.click(found["x"], found["y"])
    assert page.evaluate("() => page.selected") == found["name"], found
    assert marked(page, "selected") == [found["name"]]
    screenshot(page, "rocket-chevron-edge-click")


def _hue_and_lightness(colour: str) -> tuple[float, float]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    r, g, b = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    hue, lightness, _ = colorsys.rgb_to_hls(r, g, b)
    return hue * 360, lightness


def _rgb(css: str) -> str:
    """``rgb(r, g, b)`` as ``#rrggbb``."""
    r, g, b = (int(part) for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_superchess_names_your_partner_and_draws_brown_brown(page, browser):
    new_game(page, "superchess", {"south": "human", "west": "human", "north": "human", "east": "human"}, mode="4p")
    assert page.inner_text("#teams") == "Teams: White and Tan against Black and Brown."
    link = page.locator('.share-row[data-link="seat-south"] input').input_value()
    south, errors = _open_link(browser, link)
    south.wait_for_selector("#teams:not([hidden])")
    assert south.inner_text("#you") == "You play White."
    assert south.inner_text("#teams") == "You and Tan play together against Black and Brown."
    # Each army's swatch has the colour its pieces are drawn in; Brown's is a brown, not a red.
    drawn = south.evaluate("""() => Object.fromEntries(page.game.variant.armies.map((army, i) => [army.name,
        document.querySelector(`#board defs #piece-${i}-king [fill]`).getAttribute('fill')]))""")
    swatches = south.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#panel .swatch')].map(
        s => [s.dataset.army, getComputedStyle(s).backgroundColor]))""")
    assert {army: _rgb(colour) for army, colour in swatches.items()} == {army: c.lower() for army, c in drawn.items()}
    hue, lightness = _hue_and_lightness(drawn["brown"])
    assert 18 <= hue <= 45 and lightness < 0.45, (drawn["brown"], hue, lightness)     # brown: orange hue, dark
    assert _hue_and_lightness(drawn["tan"])[1] > 0.5                                    # tan is light
    screenshot(south, "superchess-partner")
    south.locator("#panel").screenshot(path=str(ARTIFACTS / "superchess-partner-panel.png"))
    south.context.close()
    assert not errors


@pytest.mark.parametrize("variant, first, second", [("shogi", "Sente", "Gote"), ("xiangqi", "Red", "Black")])
def test_armies_are_named_as_the_game_names_them(page, variant, first, second):
    new_game(page, variant, {"white": "human", "black": "human"})
    assert page.inner_text("#status") == f"{first} to move"
    assert [label.strip() for label in page.locator("#seats label .armies").all_inner_texts()] == [first, second]
    game = load_game(variant)
    colours = page.evaluate("() => page.game.variant.armies.map(a => a.colour)")
    assert colours == [army.colour or colours[i] for i, army in enumerate(game.spec.armies)]
    move = page.evaluate("() => page.game.legal.find(m => m.from && m.to && !m.label)")
    click_cell(page, move["from"])
    click_cell(page, move["to"])
    page.wait_for_function("() => page.game.moves.length === 1")
    assert page.inner_text("#status") == f"{second} to move"
    screenshot(page, f"army-names-{variant}")
