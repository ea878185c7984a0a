"""Analysis of a game's positions through the JSON API of ``rules serve`` (``GET /api/games/ID/analysis``):
the reports of the search as server-sent events, scores and mates from both points of view, the
bounds (time, search slots), who may analyse a game in progress, and bad requests."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

pytest.importorskip("starlette")

from interpreter.loading import load_game, position_from_fen  # noqa: E402
from interpreter.server import analysis as analysis_module  # noqa: E402
from interpreter.server.analysis import ANALYSIS_TIME, Analysis  # noqa: E402
from interpreter.server.app import _analysis_events  # noqa: E402
from interpreter.server.sessions import SEARCHES  # noqa: E402
from tests.test_serve_api import client  # noqa: E402,F401 (the fixture)

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def create(client, **body) -> tuple[str, dict]:
    """A new game: its id and its seat tokens (the client shows none unless told)."""
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"], answer.json()["tokens"]


def events(answer) -> list[tuple[str, dict]]:
    """The (event, data) pairs of a finished event stream."""
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/event-stream")
    out = []
    for block in answer.text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((fields["event"], json.loads(fields["data"])))
    return out


def analysed(client, ident: str, query: str = "", tokens: dict | None = None) -> tuple[list[dict], dict]:
    """The reports of each depth and the final one of an analysis."""
    headers = {"X-Seat-Token": ",".join(tokens.values())} if tokens else {}
    got = events(client.get(f"/api/games/{ident}/analysis{query}", headers=headers))
    assert [kind for kind, _ in got[:-1]] == ["analysis"] * (len(got) - 1) and got[-1][0] == "done"
    assert all(not data["final"] for _, data in got[:-1]) and got[-1][1]["final"]
    return [data for _, data in got[:-1]], got[-1][1]


def test_mate_in_one_is_found_first_with_a_mate_score(client):
    ident, tokens = create(client, variant="chess", fen=MATE_IN_ONE)
    depths, done = analysed(client, ident, "?time=2", tokens)
    assert done["ply"] == 0 and done["to_move"] == "white" and done["result"] is None
    first = done["pv"][0]
    assert (first["san"], first["uci"], first["from"], first["to"], first["army"]) == ("Ra8#", "a1a8", "a1", "a8", "white")
    assert done["score"] == {"cp": None, "mate": 1, "text": "M1"} and done["first"] == done["score"]
    assert depths and [d["depth"] for d in depths] == sorted(d["depth"] for d in depths)


def test_scores_for_the_side_to_move_and_for_the_first_army(client):
    """Black to move mates at once: a win for the side to move, a loss seen from White's side; the
    mated position after it is over, with its result and no line."""
    ident, tokens = create(client, variant="chess", moves="f3 e5 g4")
    _, done = analysed(client, ident, "?ply=3&time=2", tokens)
    assert done["to_move"] == "black" and done["pv"][0]["san"] == "Qh4#" and done["pv"][0]["army"] == "black"
    assert done["score"]["mate"] == 1 and done["first"] == {"cp": None, "mate": -1, "text": "-M1"}
    client.post(f"/api/games/{ident}/moves", json={"move": "Qh4#"}, headers={"X-Seat-Token": tokens["black"]})
    depths, done = analysed(client, ident)          # the game is over: a spectator may analyse it
    assert depths == [] and done["ply"] == 4 and done["pv"] == [] and done["score"] is None
    assert done["result"]["token"] == "0-1"


def test_the_line_is_legal_in_turn_and_scores_are_pawns(client):
    ident, tokens = create(client, variant="chess", moves="e4 e5")
    _, done = analysed(client, ident, "?ply=1&time=0.5", tokens)
    assert done["to_move"] == "black" and done["depth"] >= 1 and done["nodes"] > 0
    assert [move["army"] for move in done["pv"]] == ["black", "white"] * (len(done["pv"]) // 2) + ["black"] * (len(done["pv"]) % 2)
    assert isinstance(done["score"]["cp"], int) and done["score"]["text"] == f"{done['score']['cp'] / 100:+.2f}"
    assert done["first"]["cp"] == -done["score"]["cp"]


def test_games_of_more_than_two_teams_score_for_the_side_to_move_only(client):
    game = load_game("fourplayer_ffa")
    assert len(game.teams) > 2
    ident, tokens = create(client, variant="fourplayer_ffa")
    _, done = analysed(client, ident, "?time=0.5", tokens)
    assert done["first"] is None and done["score"] is not None and done["pv"][0]["army"] == done["to_move"]


def test_analysis_is_bounded_in_time(client):
    ident, tokens = create(client, variant="chess")
    _, done = analysed(client, ident, "?time=0.3", tokens)
    assert done["time"] <= 0.3 + 0.5        # the search's own clock; it checks the time every few hundred nodes
    for bad in ("0", "-1", "nan", "inf", f"{ANALYSIS_TIME + 1:g}", "soon"):
        answer = client.get(f"/api/games/{ident}/analysis?time={bad}")
        assert answer.status_code == 400 and "time=" in answer.json()["message"], bad


def test_bad_ply_and_bad_game(client):
    ident, tokens = create(client, variant="chess", moves="e4")
    client.headers["X-Seat-Token"] = ",".join(tokens.values())
    for bad in ("2", "-1", "x", "1.5", ""):
        answer = client.get(f"/api/games/{ident}/analysis?ply={bad}")
        assert answer.status_code == 400, bad
        assert "ply" in answer.json()["message"] and "Traceback" not in answer.json()["error"]
    assert client.get(f"/api/games/{ident}/analysis?ply=2").json()["expected"] == "a ply from 0 to 1"
    answer = client.get("/api/games/nosuchgame/analysis")
    assert answer.status_code == 404 and answer.json()["kind"] == "GameNotFound"


def test_a_game_between_people_is_analysed_by_whoever_holds_every_seat(client):
    """While people play each other, only a request with every person's token may analyse (at any
    ply); a spectator or one player may once the game is over. A game against the computer may be
    analysed by anyone."""
    ident, tokens = create(client, variant="chess", moves="f3 e5 g4")
    for shown in (None, {"white": tokens["white"]}):
        answer = client.get(f"/api/games/{ident}/analysis?ply=1&time=0.2",
                            headers={"X-Seat-Token": shown["white"]} if shown else {})
        assert answer.status_code == 403 and "Black" in answer.json()["message"], answer.text
        assert answer.json()["kind"] == "Forbidden"
    analysed(client, ident, "?ply=1&time=0.2", tokens)
    client.post(f"/api/games/{ident}/moves", json={"move": "Qh4#"}, headers={"X-Seat-Token": tokens["black"]})
    analysed(client, ident, "?ply=1&time=0.2")
    computer, _ = create(client, variant="chess", seats={"black": "ai:level=easy"})
    analysed(client, computer, "?time=0.2")


def test_analysis_needs_a_free_search_slot(client, monkeypatch):
    """Analyses take the server's search slots (sessions.SEARCHES): with none free, 409."""
    monkeypatch.setattr(analysis_module, "SLOT_WAIT", 0.2)
    ident, tokens = create(client, variant="chess")
    client.headers["X-Seat-Token"] = ",".join(tokens.values())
    held = 0
    while SEARCHES.acquire(blocking=False):
        held += 1
    try:
        answer = client.get(f"/api/games/{ident}/analysis?time=0.2")
        assert answer.status_code == 409 and answer.json()["kind"] == "Busy"
    finally:
        for _ in range(held):
            SEARCHES.release()
    analysed(client, ident, "?time=0.2")


def test_the_search_stops_when_the_page_goes_away():
    """Closing the event stream (the request cancelled) or finding the client gone stops the search."""
    game = load_game("chess")
    reports: list = []
    job = Analysis(game, position_from_fen(game, "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"), 2,
                   ANALYSIS_TIME, lambda kind, payload: reports.append((kind, payload)))

    class Gone:
        async def is_disconnected(self) -> bool:
            return True

    async def read_then_leave() -> list[str]:
        queue: asyncio.Queue = asyncio.Queue()
        queue.put_nowait(("analysis", {"depth": 1}))
        stream = _analysis_events(job, queue, Gone())
        first = await stream.__anext__()
        assert not job.stop.is_set()
        return [first] + [chunk async for chunk in stream]   # nothing more comes: the client is gone

    chunks = asyncio.run(read_then_leave())
    assert len(chunks) == 1 and chunks[0].startswith("event: analysis") and job.stop.is_set()
    # A search told to stop ends long before its time.
    finished = threading.Event()
    job = Analysis(game, position_from_fen(game, "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"), 2,
                   ANALYSIS_TIME, lambda kind, payload: finished.set() if kind == "done" else None)
    job.start()
    job.stop.set()
    assert finished.wait(ANALYSIS_TIME / 2)
