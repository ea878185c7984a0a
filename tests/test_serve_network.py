"""Games between people on different machines: seat tokens, games kept in SQLite, live updates.

The tokens and the database go through Starlette's test client; a real
``rules serve`` process is killed with SIGKILL mid-game and started again on
the same file; the server-sent events are read with httpx from uvicorn on a
free port.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.server.app import create_app  # noqa: E402
from interpreter.server.database import SCHEMA_VERSION, Database  # noqa: E402
from interpreter.server.store import GameStore  # noqa: E402

HEADER = "X-Seat-Token"


@pytest.fixture
def client():
    with TestClient(create_app()) as test_client:
        yield test_client
        test_client.app.state.store.close()


def refused(answer, seat: str) -> dict:
    """The 403 answer of a request without the token of ``seat``, as JSON with no traceback."""
    assert answer.status_code == 403, answer.text
    data = answer.json()
    assert data["kind"] == "Forbidden" and f"seat token of {seat}" in data["message"]
    assert "Traceback" not in data["error"]
    return data


# ------------------------------------------------------------------ seats and their tokens


def test_creating_a_game_gives_a_link_per_seat_and_a_spectator_link(client):
    created = client.post("/api/games", json={"variant": "chess"}).json()
    ident, tokens, links = created["id"], created["tokens"], created["links"]
    assert set(tokens) == {"white", "black"} and tokens["white"] != tokens["black"]
    assert all(len(token) >= 22 for token in tokens.values())   # 16 random bytes
    assert links["spectator"] == f"http://testserver/#game={ident}"
    assert links["seats"]["black"] == f"http://testserver/#game={ident}&seat={tokens['black']}"
    assert "tokens" not in client.get(f"/api/games/{ident}").json()   # the state shows no token
    assert tokens["white"] not in client.get(f"/api/games/{ident}").text


def test_a_move_needs_the_token_of_the_seat_to_move(client):
    created = client.post("/api/games", json={"variant": "chess"}).json()
    ident, white, black = created["id"], created["tokens"]["white"], created["tokens"]["black"]
    moves = f"/api/games/{ident}/moves"
    refused(client.post(moves, json={"move": "e4"}), "White")                        # no token
    refused(client.post(moves, json={"move": "e4"}, headers={HEADER: black}), "White")   # the other seat's
    refused(client.post(moves, json={"move": "e4"}, headers={HEADER: "x" * 22}), "White")
    refused(client.post(moves, json={"move": "e4"}, headers={HEADER: white[:-1]}), "White")
    assert client.post(moves, json={"move": "e4"}, headers={HEADER: white}).json()["ply"] == 1
    refused(client.post(moves, json={"move": "e5"}, headers={HEADER: white}), "Black")
    refused(client.post(f"/api/games/{ident}/computer", json={}, headers={HEADER: white}), "Black")
    assert client.post(moves, json={"move": "e5"}, headers={HEADER: f"{white},{black}"}).json()["ply"] == 2
    # A spectator reads everything but changes nothing.
    state = client.get(f"/api/games/{ident}").json()
    assert [m["san"] for m in state["moves"]] == ["e4", "e5"]
    assert client.get(f"/api/games/{ident}/positions/1").status_code == 200
    assert client.get(f"/api/games/{ident}/record").status_code == 200
    refused(client.put(f"/api/games/{ident}/seats", json={"seats": {"black": "random"}}, headers={HEADER: white}),
            "Black")
    assert client.put(f"/api/games/{ident}/seats", json={"seats": {"white": "human"}},
                      headers={HEADER: white}).status_code == 200
    assert "every seat" in client.delete(f"/api/games/{ident}", headers={HEADER: white}).json()["message"]
    assert client.delete(f"/api/games/{ident}", headers={HEADER: f"{black},{white}"}).status_code == 200


def test_a_player_takes_back_their_own_move_until_the_other_answers(client):
    created = client.post("/api/games", json={"variant": "chess", "moves": "e4"}).json()
    ident, white, black = created["id"], created["tokens"]["white"], created["tokens"]["black"]
    undo = f"/api/games/{ident}/undo"
    refused(client.post(undo, json={}, headers={HEADER: black}), "White")   # Black has no move to take back
    assert client.post(undo, json={}, headers={HEADER: white}).json()["ply"] == 0
    client.post(f"/api/games/{ident}/moves", json={"move": "d4"}, headers={HEADER: white})
    client.post(f"/api/games/{ident}/moves", json={"move": "d5"}, headers={HEADER: black})
    refused(client.post(undo, json={}, headers={HEADER: white}), "Black")   # Black has answered
    refused(client.post(undo, json={"plies": 2}, headers={HEADER: black}), "White")
    assert client.post(undo, json={}, headers={HEADER: black}).json()["ply"] == 1


@pytest.mark.parametrize("header", ["a," * 40, "x" * 5000, "\u00e9t\u00e9", ","])
def test_hostile_token_headers_are_refused_without_a_traceback(client, header):
    ident = client.post("/api/games", json={"variant": "chess"}).json()["id"]
    answer = client.post(f"/api/games/{ident}/moves", json={"move": "e4"},
                         headers={HEADER: header.encode("utf-8")})
    assert answer.status_code == 403 and "Traceback" not in answer.text


def test_the_links_of_a_seat_and_public_url():
    with TestClient(create_app(public_url="https://chess.example.org/play/")) as test_client:
        created = test_client.post("/api/games", json={"variant": "chess"}).json()
        ident, black = created["id"], created["tokens"]["black"]
        assert created["links"]["spectator"] == f"https://chess.example.org/play/#game={ident}"
        shared = test_client.get(f"/api/games/{ident}/links", headers={HEADER: black}).json()
        assert shared == {"spectator": f"https://chess.example.org/play/#game={ident}", "held": ["black"],
                          "seats": {"black": f"https://chess.example.org/play/#game={ident}&seat={black}"}}
        assert test_client.get(f"/api/games/{ident}/links").json()["seats"] == {}
        test_client.app.state.store.close()


# ------------------------------------------------------------------ games kept in SQLite


def test_a_database_keeps_games_plies_seats_and_tokens(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(GameStore(database=Database(path)))) as first:
        created = first.post("/api/games", json={"variant": "chess", "moves": "e4 e5 Nf3"}).json()
        ident, tokens = created["id"], created["tokens"]
        first.headers[HEADER] = ",".join(tokens.values())
        first.post(f"/api/games/{ident}/moves", json={"move": "Nc6"})
        first.post(f"/api/games/{ident}/undo", json={"plies": 2})
        first.post(f"/api/games/{ident}/moves", json={"move": "Bc4"})
        version = first.put(f"/api/games/{ident}/seats", json={"seats": {"black": "ai:level=easy:depth=1"}}).json()["version"]
        rules = "variant tiny {\n  title \"Tiny\"\n}\n\nextends chess\n"
        pasted = first.post("/api/games", json={"rules": rules, "moves": "d4"}).json()
        gone = first.post("/api/games", json={"variant": "chess"}).json()
        first.delete(f"/api/games/{gone['id']}", headers={HEADER: ",".join(gone["tokens"].values())})
        time.sleep(0.5)   # the computer may answer Bc4
        first.app.state.store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("SELECT version FROM schema").fetchall() == [(SCHEMA_VERSION,)]
    stored = dict(db.execute("SELECT id, rules FROM games").fetchall())
    assert stored == {ident: None, pasted["id"]: rules}   # the text, not a path; the abandoned game is gone
    db.close()
    with TestClient(create_app(GameStore(database=Database(path)))) as second:
        state = second.get(f"/api/games/{ident}?wait=5").json()
        assert [m["san"] for m in state["moves"]][:3] == ["e4", "e5", "Bc4"]   # Nf3 Nc6 were taken back
        assert state["version"] > version   # a page that saw the game before takes it as newer
        assert state["seats"][1]["kind"] == "ai:level=easy:depth=1"
        assert second.get(f"/api/games/{pasted['id']}").json()["variant"]["title"] == "Tiny"
        refused(second.post(f"/api/games/{ident}/undo", json={}, headers={HEADER: "nope"}), "White")
        assert second.post(f"/api/games/{ident}/undo", json={"plies": 1},
                           headers={HEADER: ",".join(tokens.values())}).status_code == 200
        assert second.get(f"/api/games/{gone['id']}").status_code == 404
        second.app.state.store.close()


def test_a_restored_game_writes_its_plies_traditional_notation_again(tmp_path):
    """The database keeps SAN only; a game read back writes each ply's Japanese and Western forms again,
    同 included (it needs the ply before)."""
    path = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(GameStore(database=Database(path)))) as first:
        ident = first.post("/api/games", json={"variant": "shogi", "moves": "Pc4 Pg6 Bxh8=+B Sxh8"}).json()["id"]
        before = first.get(f"/api/games/{ident}").json()["moves"]
        first.app.state.store.close()
    with TestClient(create_app(GameStore(database=Database(path)))) as second:
        after = second.get(f"/api/games/{ident}").json()["moves"]
        second.app.state.store.close()
    assert after == before and after[3]["notation"] == {"western": "Sx2b", "japanese": "△同銀"}


def test_a_database_of_another_schema_version_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    Database(str(path)).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE schema SET version = 99")
    db.commit()
    db.close()
    with pytest.raises(Exception, match="schema version 99"):
        Database(str(path))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(port: int, db: str) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port), "--db", db],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout.readline().startswith(f"rules serve: open http://127.0.0.1:{port}/")
    return server


def test_a_server_killed_with_sigkill_mid_game_keeps_every_move_and_offer(tmp_path):
    import httpx2 as httpx
    port, db = _free_port(), str(tmp_path / "games.sqlite3")
    url = f"http://127.0.0.1:{port}/api/games"
    sans = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5"]
    server = _serve(port, db)
    try:
        created = httpx.post(url, json={"variant": "chess"}, timeout=30).json()
        ident, tokens = created["id"], created["tokens"]
        for ply, san in enumerate(sans):
            seat = "white" if ply % 2 == 0 else "black"
            answer = httpx.post(f"{url}/{ident}/moves", json={"move": san}, headers={HEADER: tokens[seat]}, timeout=30)
            assert answer.status_code == 200 and answer.json()["ply"] == ply + 1
        answer = httpx.post(f"{url}/{ident}/draw", json={"action": "offer"}, headers={HEADER: tokens["black"]},
                            timeout=30)
        assert answer.json()["draw_offers"] == ["black"]
        seen = answer.json()["version"]
    finally:
        os.kill(server.pid, signal.SIGKILL)   # no shutdown: what was acknowledged must be on disk
        server.wait(timeout=30)
    assert server.returncode == -signal.SIGKILL
    server = _serve(port, db)
    try:
        assert "1 kept now" in server.stdout.readline()
        state = httpx.get(f"{url}/{ident}", timeout=30).json()
        assert [m["san"] for m in state["moves"]] == sans   # all 12 plies
        assert state["draw_offers"] == ["black"]   # and Black's draw offer
        assert state["version"] > seen
        answer = httpx.post(f"{url}/{ident}/moves", json={"move": "Nb3"}, headers={HEADER: tokens["white"]}, timeout=30)
        assert answer.json()["ply"] == 13
        assert httpx.post(f"{url}/{ident}/moves", json={"move": "Be7"}, headers={HEADER: tokens["white"]},
                          timeout=30).status_code == 403
    finally:
        server.terminate()
        server.wait(timeout=30)


# ------------------------------------------------------------------ live updates


@pytest.fixture
def live_server():
    """The application on a free local port, served by uvicorn in a thread: its address."""
    import uvicorn
    app = create_app()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    app.state.store.close()
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


def _events(lines, count: int) -> list[dict]:
    """The next ``count`` events of a text/event-stream, each {"id", "event", "data"}; comments skipped."""
    events, event = [], {}
    for line in lines:
        if line == "":
            if event:
                events.append(event)
                event = {}
                if len(events) == count:
                    return events
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            event[key] = value
    raise AssertionError("the stream ended")


def test_server_sent_events_push_each_new_state_and_resume(live_server):
    import httpx2 as httpx
    created = httpx.post(f"{live_server}/api/games", json={"variant": "chess"}).json()
    ident, white = created["id"], created["tokens"]["white"]
    with httpx.stream("GET", f"{live_server}/api/games/{ident}/events", timeout=30) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        (first,) = _events(lines, 1)
        assert first["event"] == "state" and json.loads(first["data"])["ply"] == 0
        httpx.post(f"{live_server}/api/games/{ident}/moves", json={"move": "e4"}, headers={HEADER: white})
        (second,) = _events(lines, 1)
        state = json.loads(second["data"])
        assert state["moves"][-1]["san"] == "e4" and second["id"] == str(state["version"])
    # Reconnecting with the last id seen: nothing is sent again until the next change.
    with httpx.stream("GET", f"{live_server}/api/games/{ident}/events", headers={"Last-Event-ID": second["id"]},
                      timeout=30) as stream:
        lines = stream.iter_lines()
        httpx.post(f"{live_server}/api/games/{ident}/moves", json={"move": "e5"},
                   headers={HEADER: created["tokens"]["black"]})
        (third,) = _events(lines, 1)
        assert [m["san"] for m in json.loads(third["data"])["moves"]] == ["e4", "e5"]
    # Reconnecting with an older id: the current state at once.
    with httpx.stream("GET", f"{live_server}/api/games/{ident}/events", headers={"Last-Event-ID": first["id"]},
                      timeout=30) as stream:
        (now,) = _events(stream.iter_lines(), 1)
        assert json.loads(now["data"])["ply"] == 2
    assert httpx.get(f"{live_server}/api/games/nope/events").status_code == 404


def test_a_move_the_database_cannot_keep_is_refused_and_taken_back(tmp_path):
    """A write that fails (here: the connection is gone, as a full disk would fail it) is a 503,
    and the move is not shown as played."""
    database = Database(str(tmp_path / "games.sqlite3"))
    with TestClient(create_app(GameStore(database=database))) as test_client:
        created = test_client.post("/api/games", json={"variant": "chess", "moves": "e4"}).json()
        ident, black = created["id"], created["tokens"]["black"]
        database._db.close()
        answer = test_client.post(f"/api/games/{ident}/moves", json={"move": "e5"}, headers={HEADER: black})
        assert answer.status_code == 503 and answer.json()["kind"] == "StorageFailed"
        assert "could not be stored" in answer.json()["message"] and "Traceback" not in answer.text
        state = test_client.get(f"/api/games/{ident}").json()
        assert [m["san"] for m in state["moves"]] == ["e4"] and "could not be stored" in state["failure"]
        test_client.app.state.store.close()


def test_event_streams_of_one_game_are_capped(live_server, monkeypatch):
    import httpx2 as httpx

    from interpreter.server import app as app_module
    monkeypatch.setattr(app_module, "MOST_WATCHERS", 1)
    ident = httpx.post(f"{live_server}/api/games", json={"variant": "chess"}).json()["id"]
    with httpx.stream("GET", f"{live_server}/api/games/{ident}/events", timeout=30) as stream:
        lines = stream.iter_lines()   # kept: a dropped line iterator closes the stream
        _events(lines, 1)
        second = httpx.get(f"{live_server}/api/games/{ident}/events", timeout=30)
        assert second.status_code == 409 and "watched by 1 pages already" in second.json()["message"]
