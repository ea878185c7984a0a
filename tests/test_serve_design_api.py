"""The design page's API (``POST /api/design``, ``GET /api/syntax``, ``GET /api/variants/NAME/source.rules``)
through Starlette's test client: a text's board and rule page, its errors located, hostile texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.loading import load_game, start_position  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402
from interpreter.server import designing  # noqa: E402
from interpreter.server.app import MOST_BODY_BYTES, create_app  # noqa: E402
from tests.test_boards import LINE  # noqa: E402 (a board with notes)

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
NAME = "chess"
TEXT = (VARIANTS / f"{NAME}.rules").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client
        test_client.app.state.store.close()


def designed(client, text: str, name: str | None = None) -> dict:
    answer = client.post("/api/design", json={"rules": text, "name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_bundled_text_has_its_board_and_rule_page(client):
    answer = client.get(f"/api/variants/{NAME}/source.rules")
    assert answer.status_code == 200 and answer.text == TEXT
    design = designed(client, TEXT, f"{NAME}.rules")
    game = load_game(NAME)
    assert design["errors"] == [] and design["label"] == f"<{NAME}.rules>" and design["title"] == game.title
    board = to_fen(start_position(game)).split()[0]
    assert design["svg"].startswith("<svg") and design["svg"].count("<use ") == sum(c.isalpha() for c in board)
    page = design["page"]
    assert f"<h1>{game.title}</h1>" in page and "<script" not in page
    # Its pictures are in the page (data: addresses), none left to fetch from a file.
    assert "data:image/svg+xml;base64," in page and not re.search(r'src="(?!data:)', page)


def test_a_text_that_extends_a_bundled_file_is_designed_as_it_is(client):
    path = next(p for p in sorted(VARIANTS.glob("*.rules")) if re.search(r"^extends ", p.read_text(encoding="utf-8"), re.M))
    text = client.get(f"/api/variants/{path.stem}/source.rules").text
    assert text == path.read_text(encoding="utf-8")
    design = designed(client, text)
    assert design["errors"] == [] and design["title"] == load_game(path.stem).title and design["svg"]


def test_a_syntax_error_is_located(client):
    at = re.search(r"^board\b", TEXT, re.M).start()
    line = TEXT.count("\n", 0, at) + 1
    design = designed(client, TEXT[:at] + "bord" + TEXT[at + 5:])
    assert design["svg"] is None and design["page"] is None and design["label"] == "<pasted>"
    (error,) = design["errors"]
    assert error["location"] == {"path": "<pasted>", "line": line, "column": 1, "end_column": 5}
    assert "board" in error["hint"]


def test_a_bad_setup_is_located_on_its_line(client):
    at = TEXT.index("RNBQKBNR")
    line = TEXT.count("\n", 0, at) + 1
    (error,) = designed(client, TEXT[:at] + "RNBQKBNZ" + TEXT[at + 8:])["errors"]
    assert error["location"]["line"] == line and error["location"]["path"] == "<pasted>"


def test_everything_from_the_text_is_escaped(client):
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    text = TEXT.replace('title "Chess"', f'title "{hostile.replace(chr(34), chr(39))}"', 1)
    text = text.replace('"White"', '"<b onclick=alert(3)>White</b>"', 1)
    text = re.sub(r'description "[^"]*"', 'description "</p><script>alert(4)</script>"', text, count=1)
    design = designed(client, text, '<script>.rules')
    assert design["errors"] == [], design["errors"]
    assert design["label"] == "<script.rules>"   # a file name keeps letters, digits, _ . - and spaces only
    assert design["title"] == hostile.replace(chr(34), chr(39))   # JSON: the page shows it as text
    for output in (design["svg"], design["page"]):
        assert "<script" not in output and "<img src=x" not in output and "<b onclick" not in output
    assert "&lt;script&gt;alert(1)" in design["svg"] and "&lt;script&gt;alert(4)" in design["page"]


@pytest.mark.parametrize("text", [
    "variant x {" * 20_000,                                   # deep nesting
    "variant v { title \"" + "x" * 200_000 + "\" }",          # over the language's file size, under the body limit
    "\x00\ud7ff" * 1000,                                       # not a rules text at all
])
def test_hostile_texts_are_errors_not_failures(client, text):
    (error,) = designed(client, text)["errors"]
    assert error["message"] and error["kind"] != "InternalError"


def test_bad_requests_are_4xx(client):
    assert client.post("/api/design", json={}).status_code == 400
    assert client.post("/api/design", json={"rules": 3}).status_code == 400
    assert client.post("/api/design", content=b"x" * (MOST_BODY_BYTES + 1)).status_code == 413
    assert client.get("/api/variants/nonesuch/source.rules").status_code == 404
    assert client.get("/api/variants/..%2Fpyproject/source.rules").status_code == 404


def test_a_busy_server_refuses_with_409(client, monkeypatch):
    monkeypatch.setattr(designing, "MOST_DESIGN_WAIT", 0.01)
    held = [designing.DESIGNING.acquire(timeout=1) for _ in range(2)]
    try:
        answer = client.post("/api/design", json={"rules": TEXT})
    finally:
        for taken in held:
            if taken:
                designing.DESIGNING.release()
    assert answer.status_code == 409 and "busy" in answer.json()["message"]


def test_the_syntax_colours_as_the_site_does(client):
    syntax = client.get("/api/syntax").json()
    assert "board" in syntax["keywords"]
    patterns = [(re.compile(p), cls) for p, cls in syntax["patterns"]]

    def first(text: str) -> str:
        return next(cls for pattern, cls in patterns if pattern.match(text))

    assert [first(t) for t in ("board {", "boards", "King", "# note", '"x"', "12")] == ["k", "n", "nc", "c1", "s2", "m"]


def test_a_warning_is_located_and_the_other_modes_are_checked(client):
    # A title that reads as a clause: the warning of 'rules check', at the end rule's line.
    text = TEXT + 'rules {\n  end lost "the king was lost" when royals == 0: loss\n}\n'
    line = text.count("\n", 0, text.index("end lost")) + 1
    design = designed(client, text)
    assert design["errors"] == [] and design["notes"] == []
    (warning,) = design["warnings"]
    assert warning["location"]["path"] == "<pasted>" and warning["location"]["line"] == line
    assert (warning["location"]["column"], warning["location"]["end_column"]) == (7, 11)   # the rule's name
    assert "reads as a clause" in warning["message"] and warning["hint"]
    assert warning["warning"].startswith(f"<pasted>:{line}:7: warning: ")
    # Every play mode is compiled, as 'rules check' compiles them: an error in a mode that is not
    # the default one is the text's error.
    modes = (VARIANTS / "superchess.rules").read_text(encoding="utf-8")
    assert designed(client, modes)["errors"] == []
    broken = modes.replace("player dark: black, brown", "player dark: black, nobody")
    (error,) = designed(client, broken)["errors"]
    assert "unknown army or team 'nobody'" in error["message"]
    assert error["location"]["line"] == broken.count("\n", 0, broken.index("mode 2p")) + 1


def test_the_boards_notes_are_answered(client):
    text = ('variant notes { title "Notes" }\n' + LINE + "board { cell p5 at (8, 8) }\n"
            "setup { white King at p1  black King at p4 }\n")
    design = designed(client, text)
    assert design["errors"] == [] and design["notes"][0] == "cells with no step to or from them: p5"
