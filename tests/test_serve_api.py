"""The JSON API of ``rules serve`` through Starlette's test client: the whole flow, every error, the caps.

Errors are compared with what the command line prints for the same input
(``rules check``, ``rules moves``, ``rules play``), so that the page shows
the very message a user of the terminal gets.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.cli.main import main  # noqa: E402
from interpreter.cli.play import play  # noqa: E402
from interpreter.drawing.render import army_colours  # noqa: E402
from interpreter.engine.attacks import royal_cells  # noqa: E402
from interpreter.engine.position import Position  # noqa: E402
from interpreter.loading import load_game, position_from_fen, start_position  # noqa: E402
from interpreter.notation.fen import to_fen  # noqa: E402
from interpreter.notation.reading import moves_from_text  # noqa: E402
from interpreter.notation.san import legal_move_table  # noqa: E402
from interpreter.server.app import MOST_BODY_BYTES, create_app  # noqa: E402
from interpreter.server.store import GameStore  # noqa: E402

BROKEN = (Path(__file__).resolve().parent / "fixtures" / "broken_promotion.rules").read_text(encoding="utf-8")


@pytest.fixture
def client():
    with TestClient(create_app()) as test_client:
        yield test_client
        test_client.app.state.store.close()


def create(client, **body) -> dict:
    """A new game; the client holds every seat's token from now on, as the page that creates a game does."""
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.json()
    client.headers["X-Seat-Token"] = ",".join(answer.json()["tokens"].values())
    return answer.json()


def error(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert set(data) == {"error", "message", "kind", "location", "expected", "hint"}
    assert "Traceback" not in data["error"]
    return data["error"]


def cli_error(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    return capsys.readouterr().err.strip()


def wait_for_move(client, ident: str, plies: int) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{ident}?wait=5").json()
        if len(state["moves"]) >= plies and state["thinking"] is None:
            return state
    raise AssertionError("the computer did not move")


# ------------------------------------------------------------------ the flow


def test_variants_and_check(client):
    listed = client.get("/api/variants").json()
    names = {v["name"]: v["title"] for v in listed["variants"]}
    assert names["chess"] == "Chess" and "superchess" in names and listed["default"]["variant"] == "chess"
    checked = client.post("/api/check", json={"variant": "superchess", "mode": "3p", "options": {"solo": "light"}}).json()
    seats = {s["name"]: s["armies"] for s in checked["seats"]}
    game = load_game("superchess", "3p", {"solo": "light"})
    assert seats == {name: [game.armies[a].name for a in armies] for name, armies in game.players.items()}
    assert checked["variant"]["modes"][1]["options"] == {"solo": "dark"}
    assert checked["warnings"] == [] and checked["notes"] == []


def test_check_answers_the_warnings_of_rules_check(client):
    """Pasted rules that nothing can end get the warning the terminal prints, located in the text."""
    checked = client.post("/api/check", json={"rules": ENDLESS}).json()
    assert len(checked["warnings"]) == 1 and "warning: a game can go on forever" in checked["warnings"][0]


def test_the_whole_flow_of_a_game(client):
    state = create(client, variant="chess", seats={"white": "human", "black": "human"})
    ident = state["id"]
    assert state["fen"] == to_fen(start_position(load_game("chess"))) and state["to_move"] == ["white"]
    assert [m["uci"] for m in state["legal"]] == [m["uci"] for m in legal_move_table(start_position(load_game("chess")))]
    client.post(f"/api/games/{ident}/moves", json={"move": "e4"})                  # SAN
    state = client.post(f"/api/games/{ident}/moves", json={"move": "e7e5"}).json()  # from-to
    pos = start_position(load_game("chess"))
    moves_from_text(pos, "e4 e5")
    assert state["fen"] == to_fen(pos) and state["last"] == {"from": "e7", "to": "e5"}
    assert [m["san"] for m in state["moves"]] == ["e4", "e5"] and state["ply"] == 2
    assert {m["san"] for m in state["legal"]} == {m["san"] for m in legal_move_table(pos)}
    assert 'data-cell="e4"' in state["svg"] and state["result"] is None
    assert '[Variant "chess"]' in state["record"] and "1. e4 e5 *" in state["record"]
    earlier = client.get(f"/api/games/{ident}/positions/1").json()
    assert earlier["san"] == "e4" and earlier["last"] == {"from": "e2", "to": "e4"} and " b " in earlier["fen"]
    assert client.get(f"/api/games/{ident}/record").text == state["record"]
    state = client.post(f"/api/games/{ident}/undo", json={"plies": 1}).json()
    assert [m["san"] for m in state["moves"]] == ["e4"]
    state = client.post(f"/api/games/{ident}/undo", json={}).json()   # both seats human: one ply
    assert state["moves"] == [] and state["to_move"] == ["white"]
    # The computer answers a person's move by itself; undo takes both back.
    state = client.put(f"/api/games/{ident}/seats", json={"seats": {"black": "ai:depth=1"}}).json()
    assert [s["kind"] for s in state["seats"]] == ["human", "ai:depth=1"]
    client.post(f"/api/games/{ident}/moves", json={"move": "d4"})
    state = wait_for_move(client, ident, 2)
    assert state["moves"][1]["army"] == "black"
    state = client.post(f"/api/games/{ident}/undo", json={}).json()
    assert state["moves"] == []
    # 'Computer, move' for the person's seat.
    client.post(f"/api/games/{ident}/computer", json={"agent": "random"})
    state = wait_for_move(client, ident, 2)
    assert [m["army"] for m in state["moves"]] == ["white", "black"]
    assert client.delete(f"/api/games/{ident}").json() == {"abandoned": ident}
    assert client.get(f"/api/games/{ident}").status_code == 404


def test_plies_carry_the_games_traditional_notation_and_records_keep_san(client):
    """A game that declares a notation lists it in its variant, and each ply has its text in it, written
    from the position before the ply (Japanese 同 from the ply before that); a game without has none."""
    state = create(client, variant="xiangqi", moves="h3e3 h10g8")
    assert state["variant"]["notations"] == [{"name": "wxf", "title": "WXF"}]
    state = client.post(f"/api/games/{state['id']}/moves", json={"move": "Nh1g3"}).json()
    assert [(m["san"], m["notation"]) for m in state["moves"]] == [
        ("Che3", {"wxf": "C2.5"}), ("Ng8", {"wxf": "H8+7"}), ("Ng3", {"wxf": "H2+3"})]
    assert "1. Che3 Ng8 2. Ng3 *" in state["record"]
    state = create(client, variant="shogi", moves="Pc4 Pg6 Bxh8=+B Sxh8")
    assert [n["name"] for n in state["variant"]["notations"]] == ["western", "japanese"]
    assert [m["notation"]["japanese"] for m in state["moves"]] == ["▲７六歩", "△３四歩", "▲２二角成", "△同銀"]
    assert [m["notation"]["western"] for m in state["moves"]] == ["P-7f", "P-3d", "Bx2b+", "Sx2b"]
    state = create(client, variant="chess", moves="e4")
    assert state["variant"]["notations"] == [] and state["moves"][0]["notation"] == {}


def test_a_game_to_its_end_and_its_record_loaded_again(client):
    ident = create(client, variant="chess", moves="f3 e5 g4")["id"]
    state = client.post(f"/api/games/{ident}/moves", json={"move": "Qh4"}).json()
    assert state["result"] == {"rule": "checkmate", "title": "checkmate", "text": "Black wins by checkmate",
                               "winners": ["black"], "token": "0-1"}
    assert state["legal"] == [] and state["check"] == ["e1"]
    assert "Conflict" == client.post(f"/api/games/{ident}/moves", json={"move": "a3"}).json()["kind"]
    again = create(client, record=state["record"])
    assert again["fen"] == state["fen"] and [m["san"] for m in again["moves"]] == ["f3", "e5", "g4", "Qh4#"]
    assert again["result"]["text"] == "Black wins by checkmate"


def test_several_readings_of_one_pair_of_cells_have_labels_and_pictures(client):
    state = create(client, variant="chess", fen="8/P5k1/8/8/8/8/6K1/8 w - - 0 1")
    promotions = [m for m in state["legal"] if m["from"] == "a7"]
    assert sorted(m["label"] for m in promotions) == ["become Bishop", "become Knight", "become Queen", "become Rook"]
    assert all(m["picture"].startswith("<svg") for m in promotions)
    assert all("label" not in m for m in state["legal"] if m["from"] == "g2")


def test_a_move_with_a_second_part_names_its_cell(client):
    """Duck chess: each move carries the cell the duck goes to as ``second``, and its label reads its
    first part (the page asks for the second part on the board)."""
    state = create(client, variant="duck")
    knight = [m for m in state["legal"] if m["from"] == "g1" and m["to"] == "f3"]
    assert {m["special"] for m in knight} == {"then"} and all(m["label"] == "move" for m in knight)
    empty = [f"{file}{rank}" for rank in "3456" for file in "abcdefgh"]
    assert sorted(m["second"] for m in knight) == sorted([cell for cell in empty if cell != "f3"] + ["g1"])
    assert all(m["san"].endswith("," + m["second"]) for m in knight)
    assert all("second" not in m for m in create(client, variant="chess")["legal"])


def test_the_variant_names_its_armies_colours_and_pieces(client):
    variant = create(client, variant="rocket")["variant"]
    game = load_game("rocket")
    assert [a["colour"] for a in variant["armies"]] == army_colours(game)
    pieces = {p["name"]: p for p in variant["pieces"]}
    assert set(pieces) == {kind.name for kind in game.kinds}
    assert all(pieces[kind.name]["description"] == kind.spec.description for kind in game.kinds)
    lettered = {name for name, p in pieces.items() if p["lettered"]}     # pieces without a picture of their own
    assert {"Astra", "Zip"} <= lettered and not lettered & {"King", "Queen", "Rook", "Bishop", "Knight", "Pawn"}
    assert all(p["picture"].startswith("<svg") for p in pieces.values())


def test_rules_text_is_compiled_from_the_text(client):
    text = 'variant mine {\n  title "Mine"\n}\nextends chess\nsetup fen "4k3/8/8/8/8/8/8/4K2R w K - 0 1"\n'
    state = create(client, rules=text)
    assert state["variant"]["name"] == "mine" and state["fen"].startswith("4k3/")
    assert "O-O" in {m["san"] for m in state["legal"]}


def test_a_forced_move_is_played_by_the_server(client):
    game = load_game("superchess", "4p")
    start = start_position(game)
    kings = {game.code_symbol[start.board[c]]: c for a in range(4) for c in royal_cells(start, a)}
    pos = Position(game)
    placed = {kings["wK"]: "wK", kings["tK"]: "tK", kings["rK"]: "rK", game.board.index["n11"]: "bK",
              game.board.index["l11"]: "wQ", game.board.index["a10"]: "wR", game.board.index["a7"]: "bN"}
    for cell, symbol in placed.items():
        pos.place(cell, game.symbol_code[symbol])
    pos.rehash()
    fields = to_fen(pos).split()
    fields[1], fields[2] = "b", "-"
    fen = " ".join(fields)
    assert position_from_fen(game, fen).legal_moves()[0][3][0] == "remove"
    state = create(client, variant="superchess", mode="4p", fen=fen)
    assert state["moves"] == [{"san": "remove", "army": "black", "forced": True, "notation": {}}]
    assert state["to_move"] == ["tan"]


# ------------------------------------------------------------------ every error


def test_errors_say_what_the_command_line_says(client, capsys, tmp_path):
    assert error(client.post("/api/games", json={"variant": "chesss"}), 400) == cli_error(capsys, "moves", "chesss")
    fen = "8/8/8/8/8/8/8/8 w - - 0 1"
    assert error(client.post("/api/games", json={"variant": "chess", "fen": fen}), 400) == \
        cli_error(capsys, "moves", "chess", "--fen", fen)
    assert error(client.post("/api/games", json={"variant": "chess", "mode": "4p"}), 400) == \
        cli_error(capsys, "moves", "chess", "--mode", "4p")
    assert error(client.post("/api/games", json={"variant": "superchess", "mode": "3p", "options": {"solo": "blue"}}),
                 400) == cli_error(capsys, "moves", "superchess", "--mode", "3p", "--option", "solo=blue")
    path = tmp_path / "broken.rules"
    path.write_text(BROKEN, encoding="utf-8")
    expected = cli_error(capsys, "check", str(path)).replace(str(path), "<pasted>")
    assert error(client.post("/api/check", json={"rules": BROKEN}), 400) == expected
    assert error(client.post("/api/games", json={"rules": BROKEN, "name": "C:\\games\\broken.rules"}), 400) == \
        expected.replace("<pasted>", "<broken.rules>")
    # An illegal and an unreadable move: what 'rules play' prints for them.
    ident = create(client, variant="chess")["id"]
    for text in ("e5", "zz9", "Qh5"):
        out = io.StringIO()
        game = load_game("chess")
        play(game, start_position(game), {0: "human", 1: "human"}, stdin=io.StringIO(text + "\nquit\n"), stdout=out)
        shown = out.getvalue().split("> ", 1)[1].split("\n\n")[0]     # what follows the prompt
        assert error(client.post(f"/api/games/{ident}/moves", json={"move": text}), 400) == shown


def test_rules_text_may_read_bundled_files_only(client, tmp_path):
    secret = tmp_path / "secret.rules"
    secret.write_text('variant secret {\n  title "S"\n}\nextends chess\n', encoding="utf-8")
    for ref in (str(secret), "../../etc/passwd"):
        text = f'variant x {{\n  title "X"\n}}\nextends chess\ninclude "{ref}"\n'
        data = client.post("/api/games", json={"rules": text}).json()
        assert data["kind"] == "FileRefused" and "may not be read" in data["message"]
    # A variant is a bundled name only, never a path.
    assert client.post("/api/games", json={"variant": str(secret)}).json()["kind"] == "VariantNotFound"


@pytest.mark.parametrize("body, message", [
    ({}, "no variant given"),
    ({"variant": "chess", "rules": "x"}, "not both"),
    ({"variant": 3}, "'variant' must be a string"),
    ({"variant": "chess", "options": []}, "'options' must be an object"),
    ({"variant": "chess", "seats": {"blak": "human"}}, "no seat 'blak'"),
    ({"variant": "chess", "seats": {"black": "ai:level=hardest"}}, "unknown level 'hardest'"),
    ({"variant": "chess", "seats": {"black": "ai:time=3600"}}, "more than this server allows"),
    ({"variant": "chess", "seats": {"black": "ai:weights=/etc/passwd"}}, "this agent may not read a file"),
    ({"variant": "chess", "seats": {"black": 2}}, "must be given as a string"),
    ({"record": '[Variant "chess"]\n1. e4 (1. d4) *'}, "a variation"),
    ({"record": '[Variant chess]\n1. e4'}, "cannot read this tag"),
    ({"record": '1. e4 e5'}, "no Variant tag"),
    ({"variant": "shogi", "record": '[Variant "chess"]\n1. e4'}, "of the variant 'chess', not of 'shogi'"),
    ({"variant": "chess", "moves": "e4 e4"}, "move 2 ('e4')"),
])
def test_bad_requests_are_400(client, body, message):
    assert message in error(client.post("/api/games", json=body), 400)


def test_bad_requests_of_a_game(client):
    ident = create(client, variant="chess")["id"]
    hint = error(client.get("/api/games/nosuchgame"), 404)
    assert "no game 'nosuchgame'" in hint
    assert "no game" in error(client.post("/api/games/nosuchgame/moves", json={"move": "e4"}), 404)
    assert "no move given" in error(client.post(f"/api/games/{ident}/moves", json={}), 400)
    assert "no move to take back" in error(client.post(f"/api/games/{ident}/undo", json={}), 409)
    assert "'plies' must be a whole number" in error(client.post(f"/api/games/{ident}/undo", json={"plies": 0}), 400)
    assert "no position after ply 5" in error(client.get(f"/api/games/{ident}/positions/5"), 400)
    assert "not a ply number" in error(client.get(f"/api/games/{ident}/positions/x"), 400)
    assert "not a number of seconds" in error(client.get(f"/api/games/{ident}?wait=soon"), 400)
    assert "not JSON" in error(client.post("/api/games", content=b'{"variant": }'), 400)
    assert "must be a JSON object" in error(client.post("/api/games", content=b'["chess"]'), 400)
    assert "not UTF-8" in error(client.post("/api/games", content=b'\xff\xfe'), 400)
    assert "not valid Unicode" in error(client.post("/api/games", content=b'{"variant": "chess", "fen": "\\ud800"}'), 400)
    assert "not a finite number" in error(client.post("/api/games", json={"variant": "chess",
                                                                          "seats": {"black": "ai:time=nan"}}), 400)
    assert "larger than" in error(client.post("/api/games", content=b" " * (MOST_BODY_BYTES + 1)), 413)
    assert "not allowed" in error(client.delete("/api/variants"), 405)
    assert "no such page" in error(client.get("/api/nothing"), 404)


@pytest.mark.parametrize("raw", [b"[" * 100_000, b'{"a":' * 100_000, b"[" * 5_000 + b"]" * 5_000,
                                 b'{"variant": "chess", "seats": ' + b'{"a":' * 5_000 + b"1" + b"}" * 5_001])
def test_deeply_nested_json_is_a_400_at_every_endpoint_that_reads_a_body(client, raw):
    ident = create(client, variant="chess")["id"]
    for method, path in (("POST", "/api/games"), ("POST", "/api/check"), ("POST", f"/api/games/{ident}/moves"),
                         ("POST", f"/api/games/{ident}/undo"), ("POST", f"/api/games/{ident}/computer"),
                         ("PUT", f"/api/games/{ident}/seats")):
        answer = client.request(method, path, content=raw, headers={"content-type": "application/json"})
        assert "nests arrays or objects too deeply" in error(answer, 400), path
    assert client.get(f"/api/games/{ident}").json()["moves"] == []


def test_a_thinking_computer_blocks_moves_and_is_abandoned(client):
    state = create(client, variant="chess", seats={"white": "ai:time=20"})
    ident = state["id"]
    assert state["thinking"] is not None and state["thinking"]["army"] == "white"
    assert "thinking" in error(client.post(f"/api/games/{ident}/moves", json={"move": "e4"}), 409)
    assert "thinking" in error(client.post(f"/api/games/{ident}/computer", json={}), 409)
    session = client.app.state.store.get(ident)
    thinking = session.thinking
    client.delete(f"/api/games/{ident}")
    assert thinking.stop.is_set() and session.thinking is None
    time.sleep(0.5)
    assert session.plies == []             # the abandoned search played nothing


# ------------------------------------------------------------------ the caps


def test_the_number_of_games_is_capped():
    with TestClient(create_app(GameStore(max_games=3))) as test_client:
        idents = [create(test_client, variant="chess")["id"] for _ in range(3)]
        test_client.get(f"/api/games/{idents[0]}")              # the first is visited: the second is oldest now
        newest = create(test_client, variant="chess")["id"]
        assert test_client.get(f"/api/games/{idents[1]}").status_code == 404
        for ident in (idents[0], idents[2], newest):
            assert test_client.get(f"/api/games/{ident}").status_code == 200
        assert len(test_client.app.state.store) == 3


ENDLESS = (Path(__file__).resolve().parent / "fixtures" / "endless.rules").read_text(encoding="utf-8")


def test_a_game_of_computers_that_nothing_ends_stops_at_the_ply_cap_with_a_result():
    with TestClient(create_app(max_plies=30)) as test_client:
        ident = create(test_client, rules=ENDLESS, seats={"white": "random", "black": "random"})["id"]
        state = wait_for_move(test_client, ident, 30)
        assert len(state["moves"]) == 30 and state["legal"]            # moves are left: no rule ended it
        assert state["result"] == {"rule": "max-plies", "title": "adjudication at the cap of 30 plies",
                                   "text": "draw by adjudication at the cap of 30 plies", "winners": [],
                                   "token": "1/2-1/2"}
        assert '[Termination "draw by adjudication at the cap of 30 plies"]' in state["record"]
        assert state["record"].rstrip().endswith("1/2-1/2")
        time.sleep(0.3)
        assert len(test_client.get(f"/api/games/{ident}").json()["moves"]) == 30   # nothing more is played
        for path, body in (("moves", {"move": "Wa2"}), ("computer", {})):
            assert "the game is over: draw by adjudication" in error(
                test_client.post(f"/api/games/{ident}/{path}", json=body), 409)
        test_client.app.state.store.close()


def test_the_ply_cap_counts_peoples_moves_and_a_loaded_record():
    with TestClient(create_app(max_plies=2)) as test_client:
        ident = create(test_client, rules=ENDLESS)["id"]
        for move in ("Wa2", "Wc2"):
            state = test_client.post(f"/api/games/{ident}/moves", json={"move": move}).json()
        assert state["result"]["rule"] == "max-plies"
        assert "the game is over" in error(test_client.post(f"/api/games/{ident}/moves", json={"move": "Wa3"}), 409)
        state = test_client.post(f"/api/games/{ident}/undo", json={"plies": 1}).json()
        assert state["result"] is None and len(state["moves"]) == 1         # taken back: the game goes on
        loaded = create(test_client, rules=ENDLESS, moves="Wa2 Wc2 Wa3")
        assert loaded["result"]["text"] == "draw by adjudication at the cap of 2 plies"
        test_client.app.state.store.close()


def test_games_left_alone_are_dropped():
    now = [0.0]
    store = GameStore(max_idle=60, clock=lambda: now[0])
    with TestClient(create_app(store)) as test_client:
        kept = create(test_client, variant="chess")["id"]
        dropped = create(test_client, variant="chess", seats={"black": "ai:time=20"}, moves="e4")["id"]
        session = store.get(dropped)
        thinking = session.thinking
        now[0] = 50
        assert test_client.get(f"/api/games/{kept}").status_code == 200
        now[0] = 100
        assert test_client.get(f"/api/games/{kept}").status_code == 200
        answer = test_client.get(f"/api/games/{dropped}")
        assert answer.status_code == 404 and "kept in memory" in answer.json()["hint"]
        assert thinking.stop.is_set() and session.closed


# ------------------------------------------------------------------ the command


def test_rules_serve_prints_its_address_and_serves():
    import json
    import subprocess
    import sys
    import urllib.error
    import urllib.request
    server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "locking", "--port", "0",
                               "--max-plies", "3", "--db", ":memory:"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("rules serve: open http://127.0.0.1:")
        url = line.split()[3]
        with urllib.request.urlopen(url + "api/variants", timeout=30) as answer:
            assert json.load(answer)["default"] == {"variant": "locking", "mode": None, "named": True}
        with urllib.request.urlopen(url, timeout=30) as answer:
            assert b'<script src="/static/app.js">' in answer.read()
        created = urllib.request.Request(url + "api/games", data=b'{"variant": "chess", "moves": "e4 e5 Nf3"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(created, timeout=30) as answer:   # --max-plies 3 is the server's ply cap
            assert json.load(answer)["result"]["text"] == "draw by adjudication at the cap of 3 plies"
        # Another site's DNS name pointed at 127.0.0.1 is refused.
        request = urllib.request.Request(url + "api/variants", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        # The port is taken now: a second server says so and exits 2.
        port = url.rsplit(":", 1)[1].strip("/")
        second = subprocess.run([sys.executable, "-m", "interpreter.cli", "serve", "--port", port, "--db", ":memory:"],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and f"cannot listen on 127.0.0.1:{port}: the port is in use" in second.stderr
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize("argv, message", [
    (["serve", "chesss"], "unknown variant 'chesss'"),
    (["serve", "chess", "--mode", "4p"], "chess has no play modes"),
    (["serve", "--port", "70000"], "--port 70000 is not a port number"),
    (["serve", "--max-games", "0"], "--max-games 0 is out of range"),
    (["serve", "--max-plies", "0"], "argument --max-plies: must be at least 1, not 0"),
    (["serve", "--max-plies", "9" * 30], "more than the limit of 20,000"),
    (["serve", "--public-url", "ftp://example.org/"], "--public-url 'ftp://example.org/' is not an http(s) address"),
    (["serve", "--db", "/proc/no-such-dir/games.sqlite3"], "cannot use it as the games' database"),
])
def test_rules_serve_bad_arguments_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
