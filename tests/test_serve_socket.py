"""The WebSocket of ``rules serve`` (``/api/games/ID/socket``, interpreter/server/live.py) through
Starlette's test client: the state at once and after every change, moves with their acks, the same
refusals as the HTTP API, the caps; and a short run of the load bench against a real server."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from contextlib import aclosing
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: E402

from interpreter.agents import SearchInfo  # noqa: E402
from interpreter.server import app as app_module  # noqa: E402
from interpreter.server import live  # noqa: E402
from interpreter.server.app import create_app  # noqa: E402
from interpreter.server.creating import new_session  # noqa: E402
from interpreter.server.database import Database  # noqa: E402
from interpreter.server.sessions import Thinking  # noqa: E402
from interpreter.server.store import GameStore  # noqa: E402
from interpreter.server.views import state_view  # noqa: E402
from test_serve_api import client  # noqa: E402, F401  (a test client of a fresh application)

ROOT = Path(__file__).resolve().parent.parent


def new_game(client, **body) -> dict:
    answer = client.post("/api/games", json={"variant": "chess", **body})
    assert answer.status_code == 201, answer.json()
    return answer.json()


def until(socket, kind: str) -> dict:
    """The next message of ``kind`` (states and answers may come in either order)."""
    for _ in range(20):
        message = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def refused(socket) -> tuple[dict, int]:
    """The error a socket is refused with, and the code it is closed with."""
    error = socket.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    return error, closed.value.code


def test_state_at_once_moves_acked_and_broadcast(client):
    game = new_game(client)
    path = f"/api/games/{game['id']}/socket"
    with client.websocket_connect(path) as white, client.websocket_connect(path) as watcher:
        first = white.receive_json()
        assert first["type"] == "state" and first["state"] == client.get(f"/api/games/{game['id']}").json()
        assert watcher.receive_json()["state"]["ply"] == 0
        white.send_json({"tokens": game["tokens"]["white"]})
        assert white.receive_json() == {"type": "held", "held": ["white"]}
        white.send_json({"move": "e2e4", "id": "m1"})
        ack = until(white, "ack")
        seen = watcher.receive_json()["state"]
        assert ack == {"type": "ack", "id": "m1", "ply": 1, "san": "e4", "version": first["state"]["version"] + 1}
        assert seen["version"] == ack["version"] and seen["ply"] == 1 and seen["to_move"] == ["black"]
        assert [m["san"] for m in seen["moves"]] == ["e4"]
        assert seen == client.get(f"/api/games/{game['id']}").json()


def test_refusals_are_the_http_apis(client):
    game = new_game(client)
    black = {"X-Seat-Token": game["tokens"]["black"]}
    url = f"/api/games/{game['id']}"
    with client.websocket_connect(f"{url}/socket") as socket:
        socket.receive_json()
        socket.send_json({"move": "e4", "id": 1})   # no token at all
        nobody = socket.receive_json()
        socket.send_json({"tokens": game["tokens"]["black"]})
        assert socket.receive_json()["held"] == ["black"]
        socket.send_json({"move": "e4", "id": 2})   # Black's token, White to move
        wrong = socket.receive_json()
        http = client.post(f"{url}/moves", json={"move": "e4"}, headers=black)
        assert http.status_code == 403
        assert wrong == {"type": "error", "id": 2, "status": 403, **http.json()}
        assert nobody["status"] == 403 and nobody["message"] == "a move needs the seat token of White"
        socket.send_json({"tokens": game["tokens"]["white"]})
        socket.receive_json()
        socket.send_json({"move": "e5", "id": 3})
        illegal = socket.receive_json()
        http = client.post(f"{url}/moves", json={"move": "e5"}, headers={"X-Seat-Token": game["tokens"]["white"]})
        assert http.status_code == 400 and illegal == {"type": "error", "id": 3, "status": 400, **http.json()}
        assert "illegal move 'e5'" in illegal["error"]


def test_game_over_is_409(client):
    game = new_game(client, moves="f3 e5 g4 Qh4#")
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
        assert socket.receive_json()["state"]["result"]["rule"]
        socket.send_json({"tokens": ",".join(game["tokens"].values())})
        socket.receive_json()
        socket.send_json({"move": "a3", "id": 7})
        over = socket.receive_json()
        assert over["status"] == 409 and over["kind"] == "Conflict" and over["message"].startswith("the game is over")


@pytest.mark.parametrize("message, words", [
    ("not json", "the message is not JSON"),
    ("[1, 2]", "the message must be a JSON object"),
    ("{}", "a message must be a move or seat tokens"),
    ('{"move": 4}', "'move' must be a string"),
    ('{"move": "e4", "id": [1]}', "'id' must be a string of at most 64 characters or a whole number"),
    ('{"move": "e4", "id": true}', "'id' must be"),
    ('{"tokens": ["a"]}', "'tokens' must be a string"),
    ('{"tokens": "a", "move": "e4"}', "a message is a move or seat tokens, not both"),
    ("[" * 4_000, "the message nests arrays or objects too deeply"),
], ids=["not-json", "array", "empty", "move-number", "id-array", "id-bool", "tokens-array", "both", "deep"])
def test_malformed_messages_are_400_and_the_socket_stays(client, message, words):
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
        socket.receive_json()
        socket.send_text(message)
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == 400 and words in error["message"]
        assert "Traceback" not in error["error"]
        socket.send_text(json.dumps({"tokens": game["tokens"]["white"]}))
        socket.receive_json()
        socket.send_text(json.dumps({"move": "d4", "id": 1}))
        assert until(socket, "ack")["san"] == "d4"


def test_binary_and_oversized_messages(client):
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
        socket.receive_json()
        socket.send_bytes(b'{"move": "e4"}')
        assert socket.receive_json()["message"] == "the message is binary"
        socket.send_text(json.dumps({"move": "e4", "id": "x" * live.MOST_MESSAGE_BYTES}))
        error, code = refused(socket)
    assert error["status"] == 413 and "larger than 4,096 bytes" in error["message"] and code == 4413


def test_unknown_game_and_the_caps(client, monkeypatch):
    with client.websocket_connect("/api/games/nosuchgame/socket") as socket:
        error, code = refused(socket)
    assert error["status"] == 404 and error["kind"] == "GameNotFound" and code == 4404
    game = new_game(client)
    path = f"/api/games/{game['id']}/socket"
    monkeypatch.setattr(live, "MOST_PER_GAME", 1)
    with client.websocket_connect(path) as first:
        first.receive_json()
        with client.websocket_connect(path) as second:
            error, code = refused(second)
        assert error["status"] == 409 and code == 4409
        assert error["message"] == "this game has 1 WebSockets open already"
        monkeypatch.setattr(live, "MOST_PER_GAME", 32)
        monkeypatch.setattr(live, "MOST_SOCKETS", 1)
        with client.websocket_connect(path) as third:
            error, code = refused(third)
        assert error["message"] == "this server has 1 WebSockets open already" and code == 4409


def test_a_page_of_another_site_is_refused():
    with TestClient(create_app(public_url="https://chess.example.org/")) as client:
        game = new_game(client)
        path = f"/api/games/{game['id']}/socket"
        with client.websocket_connect(path, headers={"origin": "http://evil.example"}) as socket:
            error, code = refused(socket)
        assert error["status"] == 403 and "http://evil.example may not open" in error["message"] and code == 4403
        for origin in ("http://testserver", "https://chess.example.org"):
            with client.websocket_connect(path, headers={"origin": origin}) as socket:
                assert socket.receive_json()["type"] == "state"
        client.app.state.store.close()


def test_an_abandoned_game_closes_its_sockets(client):
    game = new_game(client)
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
        socket.receive_json()
        tokens = ",".join(game["tokens"].values())
        assert client.delete(f"/api/games/{game['id']}", headers={"X-Seat-Token": tokens}).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(3):
                socket.receive_json()
    assert closed.value.code == 1001


def test_an_idle_socket_is_closed(monkeypatch):
    monkeypatch.setattr(app_module, "HEARTBEAT", 0.05)
    monkeypatch.setattr(live, "MOST_IDLE", 0.2)
    with TestClient(create_app()) as client:
        game = new_game(client)
        with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
            socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        client.app.state.store.close()
    assert closed.value.code == 1001 and closed.value.reason == "nothing happened for 0.2 seconds"


def test_an_answer_on_its_way_when_the_game_leaves_is_dropped_not_a_traceback():
    """The race the load run once met: the client's move is being played (in a worker thread) when the
    game leaves and the states' task closes the socket. The answer is dropped, the socket closed once,
    and the socket's service ends as if the client had left, with nothing for the server's log."""
    session = new_session({"variant": "chess"}, pace=0.0)
    sent, gone = [], threading.Event()

    class Store:   # the move waits in its thread until the game has left
        def get(self, ident: str):
            gone.wait(10)
            return session

    async def receive() -> dict:   # the client connects and sends a move, then waits
        if not sent:
            return {"type": "websocket.connect"}
        if len(sent) == 1:
            return {"type": "websocket.receive", "text": json.dumps({"move": "e2e4", "id": 1})}
        await asyncio.sleep(10)
        return {"type": "websocket.disconnect"}

    async def send(message: dict) -> None:
        sent.append(json.loads(message["text"])["type"] if "text" in message else message["type"])
        if message["type"] == "websocket.close":
            gone.set()

    def answer(err):
        return 409, {"message": str(err)}

    async def serve() -> None:
        socket = WebSocket({"type": "websocket", "path": "/", "headers": []}, receive, send)
        await socket.accept()
        session.close()   # the game leaves: its states' task sends the state, then closes
        await live.GameSockets(Store(), answer, lambda body: body["move"], 0.05)._serve(
            live._Channel(socket), session, "gone")

    asyncio.run(asyncio.wait_for(serve(), 10))
    assert sent == ["websocket.accept", "state", "websocket.close"]


def test_a_state_sent_as_the_client_leaves_ends_the_socket_quietly():
    """The race the load run met next: the client's close reaches the answering task's receive, and
    before that task goes on the states' task sends a state, which uvicorn refuses with a RuntimeError
    (its connection saw the close). The socket's service ends as if the client had left, with nothing
    for the server's log."""
    session = new_session({"variant": "chess"}, pace=0.0)
    left, refused = asyncio.Event(), asyncio.Event()

    class Store:
        def get(self, ident: str):
            return session

    async def receive() -> dict:   # the client connects, then its close arrives, while a state goes out
        if not left.is_set():
            left.set()
            return {"type": "websocket.connect"}
        await refused.wait()
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict) -> None:
        if message["type"] == "websocket.send":
            refused.set()
            raise RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close' "
                               "or response already completed.")   # uvicorn's words

    async def serve() -> None:
        socket = WebSocket({"type": "websocket", "path": "/", "headers": []}, receive, send)
        await socket.accept()
        await live.GameSockets(Store(), lambda err: (409, {}), lambda body: body["move"], 0.05)._serve(
            live._Channel(socket), session, "gone")

    asyncio.run(asyncio.wait_for(serve(), 10))
    assert refused.is_set()


def test_a_move_is_stored_before_its_ack(tmp_path):
    database = Database(str(tmp_path / "games.sqlite3"))
    with TestClient(create_app(GameStore(database=database))) as client:
        game = new_game(client)
        with client.websocket_connect(f"/api/games/{game['id']}/socket") as socket:
            socket.receive_json()
            socket.send_json({"tokens": game["tokens"]["white"]})
            socket.receive_json()
            socket.send_json({"move": "g1f3", "id": 1})
            until(socket, "ack")
            assert database.game(game["id"]).plies == [("Nf3", False)]
        client.app.state.store.close()
    database.close()


def test_a_short_load_run_loses_and_duplicates_nothing(tmp_path):
    sys.path.insert(0, str(ROOT))
    from bench import serve_load

    report = serve_load.run(games=2, seconds=2, seed=1, db=str(tmp_path / "load.sqlite3"))
    assert report.moves > 4 and report.errors == {}
    assert report.lost == 0 and report.duplicated == 0 and report.unanswered == 0
    assert len(report.ack_ms) == report.moves and report.memory["before"] <= report.memory["peak"]
    assert report.server_log == [], "the server's log:\n" + "\n".join(report.server_log)


# ------------------------------------------------------------------ the state text the session keeps


def _counting(session):
    """A maker of the session's state text that counts how often it is made."""
    made = []

    def make() -> str:
        made.append(session.version)
        return json.dumps(state_view(session, "ident"))
    return make, made


def test_the_state_text_is_made_once_per_change_for_every_follower():
    session = new_session({"variant": "chess"}, pace=0.0)
    make, made = _counting(session)
    with session.lock:
        first = session.state_text(make)
        assert session.state_text(make) is first and len(made) == 1   # a second follower: the same text
    session.play("e4", frozenset(session.tokens))
    with session.lock:
        assert json.loads(session.state_text(make))["ply"] == 1 and len(made) == 2
        session.failure = "the computer failed"   # a change without a new version drops it too
        assert json.loads(session.state_text(make))["failure"] == "the computer failed" and len(made) == 3
    session.close()


def test_a_state_with_a_running_clock_is_made_fresh_each_time():
    session = new_session({"variant": "chess", "clock": {"base": 60}}, pace=0.0)
    make, made = _counting(session)
    with session.lock:
        session.state_text(make)
        session.state_text(make)
        assert len(made) == 1   # the clock waits for the first move: nothing runs yet
    session.play("e4", frozenset(session.tokens))
    with session.lock:
        early = json.loads(session.state_text(make))["clock"]["left"]["black"]
    time.sleep(0.3)
    with session.lock:
        late = json.loads(session.state_text(make))["clock"]["left"]["black"]
    assert late <= early - 250 and len(made) == 3
    session.close()


def test_what_a_search_reports_reaches_a_follower():
    """A report of the search (its depth and score) changes no version; a follower sees it at its next
    heartbeat."""
    session = new_session({"variant": "chess"}, pace=0.0)

    async def follow() -> list[dict]:
        states = []
        async with aclosing(live.state_changes(session, "ident", None, heartbeat=0.05)) as changes:
            async for change in changes:
                if change is None:
                    continue
                states.append(json.loads(change[1]))
                with session.lock:
                    if len(states) == 1:   # the search starts ...
                        session.thinking = thinking = Thinking(session.version, 0, time.monotonic())
                    elif len(states) == 2:   # ... and reports a depth
                        session._report(thinking, SearchInfo(move=None, score=42, depth=3, nodes=1000))
                    else:
                        return states
        return states

    states = asyncio.run(asyncio.wait_for(follow(), 10))
    assert states[0]["thinking"] is None
    assert states[1]["thinking"] == {"army": "white", "depth": 0, "score": None, "nodes": 0}
    assert states[2]["thinking"]["depth"] == 3 and states[2]["thinking"]["nodes"] == 1000
    assert states[2]["thinking"]["score"] and states[2]["version"] == states[0]["version"]
    session.close()
