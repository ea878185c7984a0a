"""The variant chooser's data (GET /api/variants), the thumbnails and the rule pages that ``rules serve`` serves.

Everything is compared with what the bundled files say (their spec's family,
title and description, the start position drawn), and hostile names get a
JSON 404, never a file of the server.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from dsl import bundled_names, load_spec  # noqa: E402
from interpreter.documentation.site import families  # noqa: E402
from interpreter.server.app import create_app  # noqa: E402
from interpreter.server.catalogue import summary  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def listed(client) -> dict:
    return client.get("/api/variants").json()


def test_every_variant_is_listed_once_family_by_family(listed):
    grouped = families()
    assert listed["families"] == [family for family, _ in grouped]
    assert [v["name"] for v in listed["variants"]] == [name for _, members in grouped for _, name in members]
    assert sorted(v["name"] for v in listed["variants"]) == sorted(bundled_names())
    for variant in listed["variants"]:
        spec = load_spec(variant["name"])
        assert variant["title"] == spec.title and variant["aliases"] == list(spec.aliases)
        assert variant["family"] == spec.family
        assert variant["summary"] and spec.description.startswith(variant["summary"])
        assert "\n" not in variant["summary"] and variant["summary"][-1] in ".!?"
        assert variant["thumbnail"] == f"/api/variants/{variant['name']}/thumbnail.svg"
        assert variant["rules"] == f"/rules/{variant['name']}/"
    assert listed["default"] == {"variant": "chess", "mode": None, "named": False}


def test_a_summary_is_the_first_sentence():
    assert summary("One board. Two armies.") == "One board."
    assert summary("Who wins? Nobody.") == "Who wins?"
    assert summary("A 10x8 board (e.g. Capablanca's); no queens.") == "A 10x8 board (e.g. Capablanca's); no queens."
    assert summary(None) == "" and summary("") == ""


def test_a_thumbnail_is_the_start_position(client, listed):
    for variant in listed["variants"][:3] + [v for v in listed["variants"] if v["name"] == "chess"]:
        answer = client.get(variant["thumbnail"])
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
        assert answer.headers["cache-control"] == "max-age=3600"
        root = ET.fromstring(answer.text)                    # well-formed SVG
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.find("{http://www.w3.org/2000/svg}title").text == variant["title"]
    chess = client.get("/api/variants/chess/thumbnail.svg").text
    assert len(re.findall(r"<use ", chess)) == 32            # the 32 pieces of the start


@pytest.mark.parametrize("name", ["nosuch", "standard", "%2E%2E", "%2E%2E%2Fpyproject.toml", "chess.rules",
                                  "%3Cscript%3E", "a" * 500, "%00", "C%3A%5Cwindows"])
def test_hostile_names_are_404(client, name):
    for path in (f"/api/variants/{name}/thumbnail.svg", f"/rules/{name}/", f"/rules/{name}/setup.svg"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"] == "application/json"          # never read as a page
        assert answer.json()["kind"] in ("NoSuchPage", "HTTPError")


@pytest.mark.parametrize("file", ["nosuch.svg", "..%2F..%2Fpyproject.toml", "index.md", "%2Fetc%2Fpasswd"])
def test_a_rule_page_serves_its_own_files_only(client, file):
    answer = client.get(f"/rules/chess/{file}")
    assert answer.status_code == 404 and answer.headers["content-type"] == "application/json"


def test_a_rule_page_links_to_its_pictures_and_plays_its_variant(client, listed):
    for variant in listed["variants"][:2] + [v for v in listed["variants"] if v["name"] == "shogi"]:
        answer = client.get(variant["rules"])
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
        page = answer.text
        assert f'<a href="/?variant={variant["name"]}">play this</a>' in page
        pictures = re.findall(r'<img src="([^"]+)"', page)
        assert "setup.svg" in pictures
        for picture in set(pictures):
            shown = client.get(variant["rules"] + picture)
            assert shown.status_code == 200 and shown.headers["content-type"] == "image/svg+xml", picture
    assert client.get("/rules/chess", follow_redirects=False).headers["location"].endswith("/rules/chess/")
