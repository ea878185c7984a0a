"""The page of ``rules serve`` in a real headless Chromium, played by clicking only.

The server runs in this process (uvicorn on a free port of 127.0.0.1, in a
thread); the browser is Debian's ``chromium`` driven by Playwright for
Python (Playwright's own browser download is not used: ``make browser``
installs the system package). Moves are made by mouse clicks on the cells
of the board's SVG (a point inside each cell's polygon, found in the page),
and by clicks on the move chooser; the dialog's selects and text fields are
filled as a person would. Each test saves a screenshot under
``artifacts/browser/`` (not in git) for people to look at.

Without chromium the tests are skipped, except in CI (``CI`` set), where a
missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from interpreter.cli.main import main  # noqa: E402
from interpreter.loading import load_game  # noqa: E402
from interpreter.server.app import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "browser"

# One worker under pytest -n drives the browser: one server and one chromium for every test here.
pytestmark = pytest.mark.xdist_group("browser")

if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError("chromium is missing: 'make browser' installs it")
    pytest.skip("chromium is not installed ('make browser' installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def server():
    """The application on a free local port, served by uvicorn in a thread."""
    with serving(create_app(pace=0.05)) as address:
        yield address


@contextmanager
def serving(app):
    """``app`` on a free local port of 127.0.0.1, served by uvicorn in a thread: its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    live = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=live.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not live.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.started
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    live.should_exit = True
    thread.join(timeout=10)
    app.state.store.close()
    sock.close()


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    # A 400 answer is bad input the page shows (a broken rules file); anything else is a fault.
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and "status of 400" not in msg.text
           else None)
    tab.goto(server)
    tab.wait_for_selector("#setup[open] #setup-start:not([disabled])")
    yield tab
    context.close()
    assert not errors, errors


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def new_game(page, variant: str, seats: dict[str, str] | None = None, mode: str | None = None, fen: str = "") -> None:
    """Fill the new-game dialog (variant, mode, seats, FEN) and start."""
    if not page.locator("#setup").get_attribute("open") is not None:
        page.click("#new-game")
    _select_and_wait(page, "#setup-variant", variant)
    if mode is not None:
        _select_and_wait(page, "#setup-mode", mode)
    for seat, kind in (seats or {}).items():
        page.select_option(f'#setup-seats select[name="{seat}"]', kind)
    page.fill("#setup-fen", fen)
    page.click("#setup-start")
    # A large game is compiled on the server's thread while computer seats of the last game may still
    # search there: on a loaded machine (two test workers on two cores) that has taken over 30 s.
    page.wait_for_selector("#setup", state="hidden", timeout=90_000)
    page.wait_for_function("() => page.game && page.game.variant.name === %r" % load_game(variant).name)


def _select_and_wait(page, selector: str, value: str) -> None:
    page.select_option(selector, value)
    page.wait_for_function("() => page.setup && document.querySelector('#setup-start').disabled === false")


def click_cell(page, name: str) -> None:
    """A mouse click on the cell as a person sees it (see :func:`cell_point`)."""
    page.mouse.click(*cell_point(page, name))


def drag(page, frm: str, to: str) -> None:
    """A piece dragged with the mouse from one cell to another."""
    before = page.evaluate("() => page.game.version")
    page.mouse.move(*cell_point(page, frm))
    page.mouse.down()
    x, y = cell_point(page, to)
    page.mouse.move(x, y, steps=8)
    page.mouse.up()
    page.wait_for_function(f"() => page.game.version > {before}")


def cell_point(page, name: str) -> tuple[float, float]:
    """The point of a cell nearest its bounding box's centre where the cell itself is on top (the
    centre is not always inside: Rocket Chess's chevrons have a smaller cell in their notch)."""
    return page.evaluate("""(name) => {
        const cell = document.querySelector(`#board [data-cell="${name}"]`);
        const box = cell.getBoundingClientRect();
        const points = [];
        for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
            const x = box.left + box.width * i / 24, y = box.top + box.height * j / 24;
            points.push([Math.hypot(i - 12, j - 12), x, y]);
        }
        points.sort((a, b) => a[0] - b[0]);
        for (const [, x, y] of points) {
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest("[data-cell]") === cell) return [x, y];
        }
        throw new Error("no point of " + name + " can be clicked");
    }""", name)


def play_by_clicks(page, frm: str, to: str) -> None:
    before = page.evaluate("() => page.game.version")
    click_cell(page, frm)
    click_cell(page, to)
    page.wait_for_function(f"() => page.game.version > {before}")


def marked(page, kind: str) -> list[str]:
    return page.evaluate(f"() => [...document.querySelectorAll('#board .mark-{kind}')].map(e => e.dataset.mark)")


def test_fools_mate(page):
    new_game(page, "chess", {"white": "human", "black": "human"})
    click_cell(page, "f2")
    assert sorted(marked(page, "target")) == ["f3", "f4"] and marked(page, "selected") == ["f2"]
    click_cell(page, "f3")
    page.wait_for_function("() => page.game.moves.length === 1")
    play_by_clicks(page, "e7", "e5")
    drag(page, "g2", "g4")                                        # a piece may be dragged too
    play_by_clicks(page, "d8", "h4")
    assert page.inner_text("#status") == "Black wins by checkmate."
    assert [m.strip() for m in page.locator("#moves .move").all_inner_texts()] == ["f3", "e5", "g4", "Qh4#"]
    assert marked(page, "check") == ["e1"] and sorted(marked(page, "last")) == ["d8", "h4"]
    screenshot(page, "fools-mate")
    # The move list shows earlier positions: after 2.g4 the queen is still on d8.
    page.locator("#moves .move").nth(2).click()
    page.wait_for_selector("#viewing:not([hidden])")
    assert "after White's g4" in page.inner_text("#viewing-text")
    assert sorted(marked(page, "last")) == ["g2", "g4"]
    screenshot(page, "fools-mate-earlier")


def test_promotion_through_the_chooser(page):
    new_game(page, "chess", {"white": "human", "black": "human"}, fen="8/P5k1/8/8/8/8/6K1/8 w - - 0 1")
    click_cell(page, "a7")
    click_cell(page, "a8")
    page.wait_for_selector("#chooser:not([hidden])")
    choices = page.locator("#chooser .choice .words").all_inner_texts()
    assert sorted(choices) == ["become Bishop", "become Knight", "become Queen", "become Rook"]
    assert page.locator("#chooser .choice svg").count() == 4      # a picture of each piece
    screenshot(page, "promotion-chooser")
    page.locator("#chooser .choice", has_text="become Knight").click()
    page.wait_for_function("() => page.game.moves.length === 1")
    assert page.locator("#moves .move").all_inner_texts() == ["a8=N"]
    assert page.evaluate("() => page.game.fen").startswith("N7/")
    screenshot(page, "promotion-played")


def test_locking_climb_shows_both_pieces(page):
    new_game(page, "locking", {"white": "human", "black": "human"})
    play_by_clicks(page, "e1", "e2")
    assert page.locator("#moves .move").all_inner_texts() == ["Ke2*"]
    # Both pieces of the stack are drawn on e2: the pawn below, the king on top.
    drawn = page.evaluate("""() => board.pieces.get('e2').flatMap(
        g => [...g.querySelectorAll('use')].map(u => u.getAttribute('xlink:href')))""")
    assert sorted(drawn) == ["#piece-0-king", "#piece-0-pawn"]
    assert page.evaluate("() => board.pieces.has('e1')") is False
    screenshot(page, "locking-climb")


def test_superchess_with_three_computer_seats(page):
    # West, who moves after the person, searches for its time (medium: about half a second), so
    # that the page shows it thinking; an easy search of two plies may end before a frame is drawn.
    new_game(page, "superchess", {"south": "human", "west": "ai:level=medium", "north": "ai:level=easy",
                                  "east": "ai:level=easy"}, mode="4p")
    assert page.evaluate("() => page.game.variant.armies.length") == 4
    assert page.is_visible("#bottom-label")
    for round_ in range(10):
        page.wait_for_function("() => humanToMove() || page.game.result", timeout=60_000)
        if page.evaluate("() => page.game.result"):
            break
        move = page.evaluate("() => page.game.legal.find(m => m.from && m.to)")
        if round_ == 3:
            # Seen by an observer in the page: on a loaded machine the three computer moves may all be
            # over before this process asks the browser again.
            page.evaluate("""() => { window.sawThinking = false;
                new MutationObserver(() => { window.sawThinking ||= !$('thinking').hidden; })
                    .observe($('thinking'), {attributes: true}); }""")
        play_by_clicks(page, move["from"], move["to"])
        if page.is_visible("#chooser"):
            page.locator("#chooser .choice").first.click()
        if round_ == 3:
            page.wait_for_function("() => window.sawThinking", timeout=30_000)
            if page.is_visible("#thinking"):
                screenshot(page, "superchess-thinking")
    page.wait_for_function("() => humanToMove() || page.game.result", timeout=60_000)
    moves = page.evaluate("() => page.game.moves")
    assert len(moves) >= 40 or page.evaluate("() => page.game.result")
    assert {m["army"] for m in moves} == {"white", "black", "tan", "brown"}
    screenshot(page, "superchess-ten-moves")
    page.select_option("#bottom", "tan")     # tan's pieces to the bottom: the picture turns a half
    assert page.evaluate("() => page.rotation") == page.evaluate("() => page.game.variant.rotations.tan")
    screenshot(page, "superchess-tan-at-the-bottom")


def _chevrons(game) -> set[str]:
    """Cells whose polygon is not convex (Rocket Chess's six-sided cluster cells)."""
    out = set()
    for cell, polygon in enumerate(game.board.polygons):
        turns = set()
        for i in range(len(polygon)):
            (x0, y0), (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % len(polygon)], polygon[(i + 2) % len(polygon)]
            cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
            if abs(cross) > 1e-9:
                turns.add(cross > 0)
        if len(turns) > 1:
            out.add(game.board.names[cell])
    return out


def test_rocket_move_on_a_chevron_cell(page):
    chevrons = _chevrons(load_game("rocket"))
    new_game(page, "rocket", {"white": "human", "black": "human"})
    legal = page.evaluate("() => page.game.legal")
    move = next(m for m in legal if m["from"] in chevrons and m["to"] in chevrons)
    play_by_clicks(page, move["from"], move["to"])
    assert page.locator("#moves .move").all_inner_texts() == [move["san"]]
    assert sorted(marked(page, "last")) == sorted([move["from"], move["to"]])
    screenshot(page, "rocket-chevron-move")


BROKEN = (Path(__file__).resolve().parent / "fixtures" / "broken_promotion.rules").read_text(encoding="utf-8")


def test_pasted_broken_rules_show_the_error_of_rules_check(page, tmp_path, capsys):
    path = tmp_path / "broken.rules"
    path.write_text(BROKEN, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    expected = capsys.readouterr().err.strip().replace(str(path), "<pasted>")
    page.select_option("#setup-variant", "__rules__")
    page.fill("#setup-rules-text", BROKEN)
    page.click("#setup-check")
    page.wait_for_selector("#setup-error:not([hidden])")
    assert page.inner_text("#setup-error").strip() == expected
    assert page.is_disabled("#setup-start")
    screenshot(page, "broken-rules")


ENDLESS = (Path(__file__).resolve().parent / "fixtures" / "endless.rules").read_text(encoding="utf-8")


def test_pasted_rules_show_the_warnings_of_rules_check(page):
    """Rules that compile but that nothing can end: the game can start, and the warning that
    'rules check' prints is shown under the rules."""
    page.select_option("#setup-variant", "__rules__")
    page.fill("#setup-rules-text", ENDLESS)
    page.click("#setup-check")
    page.wait_for_selector("#setup-warnings:not([hidden])")
    assert "warning: a game can go on forever" in page.inner_text("#setup-warnings")
    assert page.is_hidden("#setup-error") and not page.is_disabled("#setup-start")
    screenshot(page, "rules-warnings")


def test_a_piece_in_hand_is_dropped(page):
    new_game(page, "crazyhouse", {"white": "human", "black": "human"},
             fen="rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3")
    assert page.locator(".hands .hand").count() == 2
    page.locator('.hand[data-army="white"] .hand-piece').click()
    targets = marked(page, "target")
    assert "e6" in targets and "d8" not in targets          # a pawn is not dropped on the last rank
    san = page.evaluate("() => page.game.legal.find(m => m.special === 'drop' && m.to === 'e6').san")
    before = page.evaluate("() => page.game.version")
    click_cell(page, "e6")
    page.wait_for_function(f"() => page.game.version > {before}")
    assert page.locator("#moves .move").all_inner_texts() == [san]
    assert page.locator('.hand[data-army="white"] .hand-piece').count() == 0
    screenshot(page, "crazyhouse-drop")


def _open_link(browser, link: str, width: int = 1400, height: int = 900, ready: str = "() => page.game !== null",
               expected: str = "status of 403"):
    """A new browser context (another person's machine, as far as the server can tell) on ``link``, once
    ``ready`` holds in it: its tab, and the list its page errors go to (but the console's ``expected`` ones)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and expected not in msg.text
           else None)
    tab.goto(link)
    tab.wait_for_function(ready)
    return tab, errors


def test_two_people_on_two_machines_and_a_spectator(page, browser):
    """The creator's page shows a link per seat and a spectator link; White and Black open theirs in
    two browser contexts and play fool's mate, each clicking only on their own turn; a third context
    with the spectator link sees every move live (server-sent events) and can move nothing."""
    new_game(page, "chess", {"white": "human", "black": "human"})
    shared = {row.get_attribute("data-link"): row.locator("input").input_value()
              for row in page.locator(".share-row").all()}
    assert set(shared) == {"seat-white", "seat-black", "spectator"}
    ident = page.evaluate("() => page.game.id")
    assert shared["spectator"].endswith(f"/#game={ident}") and "&seat=" in shared["seat-black"]
    assert "seat=" not in page.url          # the creator's tokens are not in its address
    screenshot(page, "network-creator")
    white, white_errors = _open_link(browser, shared["seat-white"])
    black, black_errors = _open_link(browser, shared["seat-black"])
    watcher, watcher_errors = _open_link(browser, shared["spectator"])
    assert white.inner_text("#you") == "You play White." and black.inner_text("#you") == "You play Black."
    assert watcher.inner_text("#you") == "You are watching this game."
    assert black.evaluate("() => page.rotation") == 180        # Black sees its own pieces at the bottom
    assert [r.get_attribute("data-link") for r in black.locator(".share-row").all()] == ["seat-black", "spectator"]
    assert black.is_disabled('#seats select >> nth=0') and not black.is_disabled('#seats select >> nth=1')
    for tab in (white, black, watcher):
        tab.wait_for_function("() => live.source && live.source.readyState === EventSource.OPEN")

    click_cell(black, "e7")                 # not Black's turn: nothing is selected
    assert black.evaluate("() => page.selected") is None
    click_cell(watcher, "e2")
    assert watcher.evaluate("() => page.selected") is None
    for ply, (tab, frm, to) in enumerate([(white, "f2", "f3"), (black, "e7", "e5"), (white, "g2", "g4"),
                                          (black, "d8", "h4")], 1):
        tab.wait_for_function(f"() => page.game.ply === {ply - 1} && humanToMove()")
        play_by_clicks(tab, frm, to)
        for other in (white, black, watcher):
            other.wait_for_function(f"() => page.game.ply === {ply}")
    assert white.is_disabled("#undo") and not black.is_disabled("#undo")   # Black answered White's last move
    for tab in (white, black, watcher):
        assert tab.inner_text("#status") == "Black wins by checkmate."
        assert [m.strip() for m in tab.locator("#moves .move").all_inner_texts()] == ["f3", "e5", "g4", "Qh4#"]

    # White's token does not play Black's seat, nor the spectator link any seat (403 with a JSON error).
    answers = white.evaluate("""async () => {
        const undo = await fetch(`/api/games/${page.game.id}/undo`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-Seat-Token": page.tokens.join(",")}, body: "{}"});
        const none = await fetch(`/api/games/${page.game.id}/undo`, {method: "POST", body: "{}"});
        return [undo.status, (await undo.json()).message, none.status];
    }""")
    assert answers == [403, "taking back Qh4# needs the seat token of Black", 403]
    screenshot(white, "network-white")
    screenshot(watcher, "network-spectator")
    for tab in (white, black, watcher):
        tab.context.close()
    assert not white_errors + black_errors + watcher_errors


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
def test_the_page_of_a_seat_link_shows_its_links(page, browser, width, height):
    new_game(page, "chess", {"white": "human", "black": "human"})
    link = page.locator('.share-row[data-link="seat-black"] input').input_value()
    black, errors = _open_link(browser, link, width, height)
    black.wait_for_selector(".share-row")
    assert black.inner_text("#you") == "You play Black."
    box = black.locator("#share").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width     # the links fit the screen
    black.locator("#share").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    black.screenshot(path=str(ARTIFACTS / f"seat-link-{width}x{height}.png"), full_page=True)
    black.context.close()
    assert not errors


def test_a_page_follows_its_game_across_a_server_killed_and_restarted(browser, tmp_path):
    """A spectator's page stays on the game while ``rules serve`` is killed with SIGKILL and started
    again on the same database and port: a move made after the restart reaches it."""
    import signal
    import subprocess
    import sys

    import httpx2 as httpx
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port), "--db", str(tmp_path / "games.db")]

    def start() -> subprocess.Popen:
        server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert server.stdout.readline().startswith("rules serve: open")
        return server

    server = start()
    try:
        created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"variant": "chess", "moves": "e4"}).json()
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        tab = context.new_page()
        tab.goto(created["links"]["spectator"])
        tab.wait_for_function("() => page.game && page.game.ply === 1 && live.source.readyState === EventSource.OPEN")
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        server = start()
        answer = httpx.post(f"http://127.0.0.1:{port}/api/games/{created['id']}/moves", json={"move": "e5"},
                            headers={"X-Seat-Token": created["tokens"]["black"]})
        assert answer.status_code == 200
        tab.wait_for_function("() => page.game.ply === 2", timeout=30_000)
        assert [m.strip() for m in tab.locator("#moves .move").all_inner_texts()] == ["e4", "e5"]
        tab.wait_for_function("() => live.source.readyState === EventSource.OPEN", timeout=30_000)   # live again
        context.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_xiangqi_is_played_on_points(page):
    """Xiangqi's board as its rules file draws it: lines through the points (none across the river but
    at the sides), the river, both palaces' diagonals; marks are discs on the points, and a click on a
    point (where lines cross) reaches its cell."""
    new_game(page, "xiangqi", {"white": "human", "black": "human"})
    assert page.evaluate("() => page.game.variant.drawing") == {
        "points": True, "plain": False, "facing": False, "river": "楚 河          漢 界", "diagonals": 4}
    counts = page.evaluate("""() => ({
        lines: document.querySelectorAll('#board .grid-lines line').length,
        diagonals: document.querySelectorAll('#board line.diagonal').length,
        river: document.querySelectorAll('#board .river .river-text').length,
        cells: document.querySelectorAll('#board [data-cell]').length})""")
    assert counts == {"lines": 9 * 9 - 7 + 10 * 8, "diagonals": 4, "river": 1, "cells": 90}
    glyphs = page.evaluate("() => [...document.querySelectorAll('#board defs text')].map(t => t.textContent)")
    assert {"帥", "將", "俥", "車"} <= set(glyphs)              # the pieces' faces, per army
    # The exact point of h3, where two lines cross, is a click on the cell h3 (the cannon).
    hit = page.evaluate("""() => {
        const box = document.querySelector('#board [data-cell="h3"]').getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit.closest('[data-cell]') && hit.closest('[data-cell]').dataset.cell;
    }""")
    assert hit == "h3"
    click_cell(page, "h3")
    assert page.evaluate("() => [...document.querySelectorAll('#board .mark-selected')].map(e => e.localName)") == [
        "circle"]
    assert "e3" in marked(page, "target")
    screenshot(page, "xiangqi-selected")
    click_cell(page, "e3")
    page.wait_for_function("() => page.game.moves.length === 1")
    play_by_clicks(page, "h8", "e8")
    assert sorted(marked(page, "last")) == ["e8", "h8"]
    screenshot(page, "xiangqi")


def test_shogi_pieces_face_their_army_and_turn_with_the_board(page):
    """Shogi draws Gote's pieces upside down; flipped, the board turns them with it, so that Gote at
    the bottom sees its own pieces upright (and Sente's upside down), while the labels stay upright."""
    new_game(page, "shogi", {"white": "human", "black": "human"})
    assert page.evaluate("() => page.game.variant.drawing.facing") is True
    page.click("#flip")
    page.wait_for_function("() => page.rotation === 180")
    turned = page.evaluate("""() => ({
        pieces: [...document.querySelectorAll('#board g.piece')].filter(g => g.getAttribute('transform')).length,
        labels: [...document.querySelectorAll('#board .turn text.coord')].filter(
            t => (t.parentNode.getAttribute('transform') || '').startsWith('rotate(-180')).length})""")
    assert turned == {"pieces": 0, "labels": 18}
    screenshot(page, "shogi-flipped")


def test_the_move_list_switches_to_the_games_traditional_notation(page):
    """A game whose rules declare a notation offers it beside SAN above the move list; the choice
    rewrites the list (Japanese ▲/△, 同 for a recapture; WXF) and is remembered per variant."""
    new_game(page, "shogi", {"white": "human", "black": "human"})
    for frm, to in (("c3", "c4"), ("g7", "g6"), ("c4", "c5"), ("a7", "a6"), ("c5", "c6"), ("c7", "c6")):
        play_by_clicks(page, frm, to)
    options = page.locator("#notation option").all_inner_texts()
    assert options == ["SAN", "Western", "Japanese"] and page.input_value("#notation") == "san"
    assert page.locator("#moves .move").all_inner_texts()[-1] == "Pxc6"
    page.select_option("#notation", "japanese")
    assert page.locator("#moves .move").all_inner_texts() == ["▲７六歩", "△３四歩", "▲７五歩", "△９四歩", "▲７四歩", "△同歩"]
    screenshot(page, "notation-japanese")
    page.locator("#moves .move").nth(1).click()                 # an earlier position is named the same way
    page.wait_for_selector("#viewing:not([hidden])")
    assert "after Gote's △３四歩" in page.inner_text("#viewing-text")
    page.click("#back-to-game")
    page.select_option("#notation", "western")
    assert page.locator("#moves .move").all_inner_texts() == ["P-7f", "P-3d", "P-7e", "P-9d", "P-7d", "Px7d"]
    page.select_option("#notation", "japanese")
    new_game(page, "xiangqi", {"white": "human", "black": "human"})
    play_by_clicks(page, "h3", "e3")
    assert page.locator("#notation option").all_inner_texts() == ["SAN", "WXF"]
    assert page.input_value("#notation") == "san"
    page.select_option("#notation", "wxf")
    play_by_clicks(page, "h10", "g8")
    assert page.locator("#moves .move").all_inner_texts() == ["C2.5", "H8+7"]
    screenshot(page, "notation-wxf")
    new_game(page, "shogi", {"white": "human", "black": "human"})
    assert page.input_value("#notation") == "japanese"          # remembered for shogi
    play_by_clicks(page, "c3", "c4")
    assert page.locator("#moves .move").all_inner_texts() == ["▲７六歩"]
    new_game(page, "chess", {"white": "human", "black": "human"})
    assert page.locator("#notation").is_hidden()
