"""Game clocks, resignation and draw offers of ``rules serve``, through its JSON API (Starlette's test client).

The server keeps the time: tiny base times show a flag fall within a test,
and the state read after it proves the session's timer (a GET decides
nothing by itself). Every request shows its own tokens (the ``X-Seat-Token``
header of a request replaces the client's, which holds every seat's), as
the pages of people playing each other would.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.server.access import HEADER  # noqa: E402
from interpreter.server.app import create_app  # noqa: E402
from interpreter.server.database import SCHEMA_VERSION, Database  # noqa: E402
from interpreter.server.store import GameStore  # noqa: E402
from test_serve_api import client, create  # noqa: E402, F401  (the client holds every token; requests here show their own)


@contextmanager
def server_on(path: str) -> Iterator[TestClient]:
    """A server whose games are kept in the database file ``path``, stopped (its database closed) at
    the end of the block, as a server is stopped before another starts on the same file."""
    with TestClient(create_app(GameStore(database=Database(path)))) as test_client:
        yield test_client
        test_client.app.state.store.close()


def as_seat(game: dict, *seats: str) -> dict:
    """The header of a page that holds the tokens of ``seats``."""
    return {HEADER: ",".join(game["tokens"][seat] for seat in seats)}


def post(client, game: dict, path: str, body: dict, *seats: str, status: int = 200) -> dict:
    answer = client.post(f"/api/games/{game['id']}/{path}", json=body, headers=as_seat(game, *seats))
    assert answer.status_code == status, answer.json()
    return answer.json()


def wait_for(client, game: dict, done, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game['id']}?wait=1").json()
        if done(state):
            return state
        time.sleep(0.05)
    raise AssertionError("the game did not get there")


# ------------------------------------------------------------------ clocks


def test_a_game_without_a_clock_has_none(client):
    game = create(client, variant="chess")
    assert game["clock"] is None and game["draw_offers"] == []


@pytest.mark.parametrize("clock, message", [
    ("5+3", "'clock' must be an object"),
    ({"base": 0}, "the base must be above 0"),
    ({"base": 60, "increment": -1}, "the increment at least 0"),
    ({"base": "60"}, "'base' must be a number of seconds"),
    ({"base": True}, "'base' must be a number of seconds"),
    ({"base": 60, "delay": 2}, "must be an object of 'base' and 'increment'"),
    ({"white": {"base": 60}}, "no time control for black"),
    ({"white": {"base": 60}, "black": {"base": 60}, "red": {"base": 1}}, "no seat 'red'"),
])
def test_bad_clocks_are_400(client, clock, message):
    answer = client.post("/api/games", json={"variant": "chess", "clock": clock})
    assert answer.status_code == 400 and message in answer.json()["message"], answer.json()


def test_clocks_start_with_the_first_move_and_gain_the_increment(client):
    game = create(client, variant="chess", clock={"base": 60, "increment": 5})
    assert game["clock"]["left"] == {"white": 60000, "black": 60000} and game["clock"]["running"] is None
    state = post(client, game, "moves", {"move": "e4"}, "white")
    assert state["clock"]["left"]["white"] == 65000   # the first move costs nothing, and earns the increment
    assert state["clock"]["running"] == "black"
    time.sleep(0.3)
    state = post(client, game, "moves", {"move": "e5"}, "black")
    black = state["clock"]["left"]["black"]
    assert 60000 + 5000 - 2000 < black <= 60000 + 5000 - 300   # charged the time it thought, then the increment
    assert state["clock"]["running"] == "white"
    assert '[TimeControl "60+5"]' in state["record"]


def test_a_page_that_connects_later_sees_the_time_left_then(client):
    """The live channels share one state text per version, but not while a clock runs: a page that
    connects a while after the last move sees the clock that ran meanwhile, not the time of the move."""
    game = create(client, variant="chess", clock={"base": 60})
    post(client, game, "moves", {"move": "e4"}, "white")
    time.sleep(0.4)
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as first:
        early = first.receive_json()["state"]["clock"]["left"]["black"]
    time.sleep(0.4)
    with client.websocket_connect(f"/api/games/{game['id']}/socket") as later:
        late = later.receive_json()["state"]["clock"]["left"]["black"]
    assert early <= 60000 - 300 and late <= early - 300


def test_each_seat_may_have_its_own_control(client):
    game = create(client, variant="chess", clock={"white": {"base": 300}, "black": {"base": 60, "increment": 2}})
    assert game["clock"]["controls"] == {"white": {"base": 300, "increment": 0}, "black": {"base": 60, "increment": 2}}
    assert game["clock"]["left"] == {"white": 300000, "black": 60000}
    assert "TimeControl" not in game["record"]   # PGN's tag says one control for both


def test_the_flag_falls_with_nobody_asking_and_ends_the_game(client):
    game = create(client, variant="chess", clock={"base": 0.4})
    post(client, game, "moves", {"move": "e4"}, "white")
    time.sleep(0.8)
    state = client.get(f"/api/games/{game['id']}").json()   # reading decides nothing: the timer did
    assert state["result"]["text"] == "White wins by time forfeit: Black's time ran out"
    assert state["result"]["token"] == "1-0" and state["clock"]["left"]["black"] == 0
    assert state["clock"]["running"] is None
    assert '[Termination "White wins by time forfeit: Black\'s time ran out"]' in state["record"]
    refused = post(client, game, "moves", {"move": "e5"}, "black", status=409)
    assert "the game is over" in refused["message"]
    assert "over for good" in post(client, game, "undo", {}, "white", "black", status=409)["message"]


def test_the_computer_plays_on_its_clock(client):
    game = create(client, variant="chess", clock={"base": 3}, seats={"black": "ai"})
    post(client, game, "moves", {"move": "e4"}, "white")
    state = wait_for(client, game, lambda s: len(s["moves"]) == 2 and s["thinking"] is None)
    assert state["result"] is None
    assert 0 < state["clock"]["left"]["black"] < 3000   # it took time, and less than it had
    assert state["clock"]["running"] == "white"


# ------------------------------------------------------------------ resigning


def test_a_seat_resigns_at_any_time_with_its_token(client):
    game = create(client, variant="chess", moves="e4")
    post(client, game, "resign", {}, status=403)             # a spectator resigns for nobody
    refused = post(client, game, "resign", {"seat": "white"}, "black", status=403)
    assert "needs the seat token of White" in refused["message"]
    assert not client.get(f"/api/games/{game['id']}").json()["decided"]
    state = post(client, game, "resign", {}, "white")        # White resigns while Black is to move
    assert state["result"]["text"] == "Black wins by resignation" and state["result"]["token"] == "0-1"
    assert state["decided"]
    assert '[Result "0-1"]' in state["record"]
    assert "the game is over" in post(client, game, "resign", {}, "black", status=409)["message"]


def test_a_page_holding_every_seat_resigns_for_the_side_to_move(client):
    game = create(client, variant="chess", moves="e4")
    state = post(client, game, "resign", {}, "white", "black")
    assert state["result"]["text"] == "White wins by resignation"


def test_a_page_holding_every_seat_against_the_computer_resigns_for_the_person(client):
    game = create(client, variant="chess", moves="e4", seats={"black": "ai:level=easy"})
    state = post(client, game, "resign", {}, "white", "black")   # Black, the computer, is to move
    assert state["result"]["text"] == "Black wins by resignation"


def test_where_the_rules_play_on_a_resignation_is_the_seats_move_and_is_kept(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    with server_on(path) as first:
        game = create(first, variant="fourplayer_ffa")
        seats = [seat["name"] for seat in game["seats"]]
        refused = post(first, game, "resign", {}, seats[1], status=409)   # not its turn
        assert "resign when it is your turn" in refused["hint"]
        state = post(first, game, "resign", {}, seats[0])
        assert state["result"] is None and len(state["moves"]) == 1   # it played its move; the others go on
        played = [m["san"] for m in state["moves"]]
    with server_on(path) as second:
        state = second.get(f"/api/games/{game['id']}").json()
        assert [m["san"] for m in state["moves"]] == played and state["result"] is None


# ------------------------------------------------------------------ draws


def test_a_draw_offered_and_accepted(client):
    game = create(client, variant="chess", moves="e4")
    post(client, game, "draw", {"action": "offer", "seat": "white"}, "black", status=403)
    state = post(client, game, "draw", {"action": "offer"}, "black")
    assert state["draw_offers"] == ["black"] and state["result"] is None
    assert "your own" in post(client, game, "draw", {"action": "accept"}, "black", status=409)["message"]
    post(client, game, "draw", {"action": "accept"}, status=403)   # a spectator agrees to nothing
    state = post(client, game, "draw", {"action": "accept"}, "white")
    assert state["result"]["text"] == "draw by agreement" and state["result"]["token"] == "1/2-1/2"
    assert '[Result "1/2-1/2"]' in state["record"] and state["draw_offers"] == []


def test_a_draw_declined_by_a_word_or_by_a_move(client):
    game = create(client, variant="chess", moves="e4")
    assert "no draw is offered" in post(client, game, "draw", {"action": "accept"}, "white", status=409)["message"]
    post(client, game, "draw", {"action": "offer"}, "white")
    assert post(client, game, "draw", {"action": "decline"}, "black")["draw_offers"] == []
    post(client, game, "draw", {"action": "offer"}, "black")
    state = post(client, game, "moves", {"move": "e5"}, "black")   # the offerer's move keeps the offer
    assert state["draw_offers"] == ["black"]
    state = post(client, game, "moves", {"move": "Nf3"}, "white")  # the other side plays on: declined
    assert state["draw_offers"] == [] and state["result"] is None
    assert "offer, accept or decline" in post(client, game, "draw", {"action": "maybe"}, "white", status=400)["message"]
    refused = post(client, game, "resign", {"seat": "x" * 10_000}, "white", status=400)["message"]
    assert refused.startswith("no seat 'xxx") and len(refused) < 100


def test_with_more_than_two_seats_every_seat_must_agree(client):
    game = create(client, variant="fourplayer_ffa")
    seats = [seat["name"] for seat in game["seats"]]
    post(client, game, "draw", {"action": "offer", "seat": seats[2]}, seats[2])
    state = post(client, game, "draw", {"action": "accept"}, seats[0], seats[1])
    assert state["draw_offers"] == sorted(seats[:3]) and state["result"] is None
    assert post(client, game, "draw", {"action": "accept"}, seats[3])["result"]["text"].startswith("draw by agreement")


def test_the_computer_takes_no_draw_offer(client):
    game = create(client, variant="chess", seats={"black": "ai:level=easy"})
    refused = post(client, game, "draw", {"action": "offer"}, "white", status=409)
    assert "the computer does not take draw offers" in refused["message"]


def test_a_draw_offer_ends_when_its_seat_is_given_to_the_computer(client):
    game = create(client, variant="chess", moves="e4")
    assert post(client, game, "draw", {"action": "offer"}, "black")["draw_offers"] == ["black"]
    answer = client.put(f"/api/games/{game['id']}/seats", json={"seats": {"white": "ai:level=easy"}},
                        headers=as_seat(game, "white"))
    assert answer.status_code == 200 and answer.json()["draw_offers"] == []


# ------------------------------------------------------------------ kept in the database


def test_clocks_and_results_survive_a_restart_and_downtime_is_not_charged(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    with server_on(path) as first:
        timed = create(first, variant="chess", clock={"base": 60, "increment": 1})
        post(first, timed, "moves", {"move": "e4"}, "white")
        time.sleep(0.2)
        left = post(first, timed, "moves", {"move": "e5"}, "black")["clock"]["left"]
        resigned = create(first, variant="chess", moves="d4")
        post(first, resigned, "resign", {}, "black")
    time.sleep(1.0)   # the server is down
    with server_on(path) as second:
        state = second.get(f"/api/games/{timed['id']}").json()
        assert state["clock"]["running"] == "white" and state["clock"]["left"]["black"] == left["black"]
        assert abs(state["clock"]["left"]["white"] - left["white"]) < 500   # as written with Black's move
        state = post(second, timed, "moves", {"move": "Nf3"}, "white")
        assert state["clock"]["left"]["white"] > left["white"]   # about 61 s: the second of downtime is not charged
        state = second.get(f"/api/games/{resigned['id']}").json()
        assert state["result"]["text"] == "White wins by resignation"
        assert "over for good" in post(second, resigned, "undo", {}, "white", "black", status=409)["message"]


def test_draw_offers_survive_a_restart_until_a_move_or_a_word_clears_them(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    with server_on(path) as first:
        offered = create(first, variant="chess", moves="e4")
        post(first, offered, "draw", {"action": "offer"}, "black")
        declined = create(first, variant="chess", moves="e4")
        post(first, declined, "draw", {"action": "offer"}, "white")
        post(first, declined, "moves", {"move": "e5"}, "black")   # Black plays on: declined
    with server_on(path) as second:
        assert second.get(f"/api/games/{offered['id']}").json()["draw_offers"] == ["black"]
        assert second.get(f"/api/games/{declined['id']}").json()["draw_offers"] == []
        assert post(second, offered, "draw", {"action": "decline"}, "white")["draw_offers"] == []
        post(second, offered, "draw", {"action": "offer"}, "white")
    with server_on(path) as third:
        assert third.get(f"/api/games/{offered['id']}").json()["draw_offers"] == ["white"]
        state = post(third, offered, "draw", {"action": "accept"}, "black")
        assert state["result"]["text"] == "draw by agreement" and state["draw_offers"] == []
    with server_on(path) as fourth:
        state = fourth.get(f"/api/games/{offered['id']}").json()
        assert state["result"]["text"] == "draw by agreement" and state["draw_offers"] == [] and state["decided"]


def test_a_move_taken_back_stays_taken_back_after_a_restart(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    with server_on(path) as first:
        game = create(first, variant="chess", moves="e4 e5")
        post(first, game, "draw", {"action": "offer"}, "white")
        assert post(first, game, "undo", {"plies": 1}, "white", "black")["draw_offers"] == []
    with server_on(path) as second:
        state = second.get(f"/api/games/{game['id']}").json()
        assert [m["san"] for m in state["moves"]] == ["e4"] and state["draw_offers"] == []


@pytest.mark.parametrize("old, added", [(1, ["clock", "decision", "offers"]), (2, ["offers"])])
def test_a_database_of_an_older_schema_version_is_brought_to_the_current_one(tmp_path, old, added):
    """The old file is a file of now without the columns added since."""
    path = str(tmp_path / "games.sqlite3")
    with server_on(path) as first:
        game = create(first, variant="chess", moves="e4 e5")
    db = sqlite3.connect(path)
    for column in added:
        db.execute(f"ALTER TABLE games DROP COLUMN {column}")
    db.execute("UPDATE schema SET version = ?", (old,))
    db.commit()
    db.close()
    with server_on(path) as second:
        state = second.get(f"/api/games/{game['id']}").json()
        assert [m["san"] for m in state["moves"]] == ["e4", "e5"] and state["clock"] is None
        assert state["draw_offers"] == []
        assert post(second, game, "draw", {"action": "offer"}, "white")["draw_offers"] == ["white"]
    with server_on(path) as third:
        assert third.get(f"/api/games/{game['id']}").json()["draw_offers"] == ["white"]
        assert post(third, game, "resign", {}, "white")["result"]["text"] == "Black wins by resignation"
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema").fetchall() == [(SCHEMA_VERSION,)] == [(3,)]
    db.close()


def test_a_draw_offer_the_database_cannot_keep_is_refused_and_not_shown(tmp_path):
    database = Database(str(tmp_path / "games.sqlite3"))
    with TestClient(create_app(GameStore(database=database))) as test_client:
        game = create(test_client, variant="chess", moves="e4")
        database._db.close()   # as a full disk would fail the write
        answer = test_client.post(f"/api/games/{game['id']}/draw", json={"action": "offer"},
                                  headers=as_seat(game, "black"))
        assert answer.status_code == 503 and answer.json()["kind"] == "StorageFailed"
        state = test_client.get(f"/api/games/{game['id']}").json()
        assert state["draw_offers"] == [] and "could not be stored" in state["failure"]
        test_client.app.state.store.close()
