"""Game records of team and multi-army games: the result every writer gives them, and reading them back.

Every writer (``rules play``, ``rules match``, ``rules analyze``, ``rules serve``) writes a game's
record with :func:`interpreter.loading.records.game_record`. These tests end team games (Superchess
in its 4-, 3- and 2-player modes from positions a move before the end; four-player chess, Teams
and Free-for-all, played out by seeded agents), check the ``Result``, ``Winners``, ``Mode`` and
``Termination`` tags each writer gives them, and replay every record to the same end.
"""

from __future__ import annotations

import io
import json

import pytest

from dsl.errors import UsageError

from interpreter.agents.matches import GameResult, match_tasks, play_task
from interpreter.analysis.results import read_results
from interpreter.analysis.runs import analyze
from interpreter.cli.main import main
from interpreter.cli.play import play
from interpreter.engine.outcome import Outcome, outcome
from interpreter.loading import load_game, position_from_fen, start_fen, start_position
from interpreter.loading.records import RecordsFile, game_record, read_record, result_token, winners_tag
from interpreter.notation.reading import moves_from_text

# Superchess a move before the end. Light wins: Brown's king is gone, White's queen mates Black's
# king (Ql11), which is removed as Black's move. Dark wins: Tan's king is gone, Brown's queen mates
# White's king (Qc11). In 2-player play Brown moves in dark's turn, which FEN names 'b'.
LIGHT_MATES = "8/8/wK,9/13,bK/wR,13/7,wQ,2/10/bN,9/10/14/14/9,tK/8/8 w - - 0 1"
DARK_MATES = "8/8/9,bK/wK,13/13,bR/2,rQ,7/10/10/10/14/14/rK,9/8/8 r - - 0 1"
DARK_MATES_2P = DARK_MATES.replace(" r ", " b ")
SUPERCHESS_ENDS = [
    ("4p", LIGHT_MATES, "Ql11", "1-0", "White, Tan"),
    ("4p", DARK_MATES, "Qc11", "0-1", "Black, Brown"),
    ("3p", DARK_MATES, "Qc11", "0-1", "Black, Brown"),
    ("2p", LIGHT_MATES, "Ql11", "1-0", "White, Tan"),
    ("2p", DARK_MATES_2P, "Qc11", "0-1", "Black, Brown"),
]


def replayed(text: str) -> tuple[dict[str, str], Outcome | None]:
    """The tags of the record ``text``, and the outcome of its moves played again on the game and
    the start that its Variant, Mode and FEN tags name; checks that the movetext ends with the
    Result tag and that the outcome gives the record's Result, Termination and Winners."""
    record = read_record(text)
    tags = record.tags
    game = load_game(tags["Variant"], tags.get("Mode"))
    pos = position_from_fen(game, tags["FEN"]) if "FEN" in tags else start_position(game)
    moves_from_text(pos, record.movetext)
    result = outcome(pos)
    assert record.movetext.split()[-1] == tags["Result"] == result_token(game, result)
    assert tags.get("Termination") == (result.describe(game) if result is not None else None)
    assert tags.get("Winners", "") == (winners_tag(game, result) if result is not None else "")
    return tags, result


def test_the_result_is_the_first_teams_for_two_teams_and_a_star_for_a_win_among_more():
    def token(variant: str, winners: tuple[int, ...], mode: str | None = None) -> tuple[str, str]:
        game = load_game(variant, mode)
        result = Outcome("rule", "a rule", "win" if winners else "draw", 0, winners)
        return result_token(game, result), winners_tag(game, result)

    assert result_token(load_game("chess"), None) == "*"
    assert token("chess", (0,)) == ("1-0", "White") and token("chess", (1,)) == ("0-1", "Black")
    assert token("chess", ()) == ("1/2-1/2", "") and token("chess", (0, 1)) == ("1/2-1/2", "")
    for mode in ("4p", "3p", "2p"):
        assert token("superchess", (0, 2), mode) == ("1-0", "White, Tan")
        assert token("superchess", (3, 1), mode) == ("0-1", "Black, Brown")
        assert token("superchess", (2,), mode) == ("1-0", "White, Tan")    # a partner's win is the team's
    assert token("fourplayer_teams", (0, 2)) == ("1-0", "Red, Yellow")
    assert token("fourplayer_teams", (1, 3)) == ("0-1", "Blue, Green")
    assert token("fourplayer_ffa", (2,)) == ("*", "Yellow")
    assert token("fourplayer_ffa", (1, 2)) == ("*", "Blue, Yellow")            # equal top scores
    assert token("fourplayer_ffa", ()) == token("fourplayer_ffa", (0, 1, 2, 3)) == ("1/2-1/2", "")


def test_game_record_writes_the_mode_and_the_winners_of_a_game_of_more_than_two_armies():
    game = load_game("superchess", "4p")
    result = Outcome("both_kings_lost", "capturing both enemy kings", "win", 2, (2, 0))
    tags = read_record(game_record(game, LIGHT_MATES, ["Ql11+", "remove"], result)).tags
    assert (tags["Result"], tags["Mode"], tags["Winners"]) == ("1-0", "4p", "White, Tan")
    assert tags["Termination"] == "Tan and White win by capturing both enemy kings"
    assert list(tags)[-2:] == ["Termination", "Winners"]
    unfinished = read_record(game_record(game, LIGHT_MATES, ["Ql11+"], None)).tags
    assert unfinished["Result"] == "*" and "Winners" not in unfinished and "Termination" not in unfinished
    chess = read_record(game_record(load_game("chess"), start_fen(load_game("chess")), ["f3", "e5", "g4", "Qh4#"],
                                    Outcome("checkmate", "checkmate", "loss", 0, (1,)))).tags
    assert chess["Result"] == "0-1" and "Winners" not in chess and "Mode" not in chess


@pytest.mark.parametrize("mode, fen, move, result, winners", SUPERCHESS_ENDS)
def test_rules_play_records_the_winning_team(mode, fen, move, result, winners, tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.pgn"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{move}\n"))
    assert main(["play", "superchess", "--mode", mode, "--fen", fen, "--pgn", str(path)]) == 0
    assert "Game over" in capsys.readouterr().out
    tags, end = replayed(path.read_text())
    assert (tags["Result"], tags["Winners"], tags["Mode"], tags["FEN"]) == (result, winners, mode, fen)
    assert end is not None and end.rule == "both_kings_lost"
    # White's move opens a round; a move of the last side of a round (Brown, or dark with two
    # players) is '1...', and the next round, where the mated king is removed, is numbered 2.
    numbered = ["1.", move, "remove"] if fen.split()[1] == "w" else ["1...", move, "2.", "remove"]
    assert [w.rstrip("+") for w in read_record(path.read_text()).movetext.split()] == [*numbered, result]


@pytest.mark.parametrize("mode, fen, move, result, winners", SUPERCHESS_ENDS[:2] + SUPERCHESS_ENDS[-1:])
def test_the_servers_record_of_a_team_game_loads_again_to_the_same_result(mode, fen, move, result, winners):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.server.app import create_app

    with TestClient(create_app()) as client:
        try:
            answer = client.post("/api/games", json={"variant": "superchess", "mode": mode, "fen": fen, "moves": move})
            state = answer.json()
            assert answer.status_code == 201, state
            assert state["result"]["token"] == result
            record = client.get(f"/api/games/{state['id']}/record").text
            assert record == state["record"]
            tags, _ = replayed(record)
            assert (tags["Result"], tags["Winners"], tags["Mode"]) == (result, winners, mode)
            again = client.post("/api/games", json={"record": record}).json()
            assert again["result"] == state["result"] and again["fen"] == state["fen"]
        finally:
            client.app.state.store.close()


def first_won(variant: str, mode: str | None, seeds: list[int]) -> GameResult:
    """The first game between a greedy and a random agent, of games 0 and 1 of a match with each of
    ``seeds`` in turn, that a team won (the first seed is the one that gives it today; the others
    keep the test meaningful if the games change)."""
    for seed in seeds:
        for task in match_tasks(variant, ["greedy", "random"], [0, 1], mode=mode, seed=seed):
            played = play_task(task)
            if not played.termination.startswith(("adjudicated", "draw")):
                return played
    pytest.fail(f"no game of {variant} was won with the seeds {seeds}")


@pytest.mark.parametrize("variant, mode, seeds, sides", [
    ("superchess", "4p", [5, 0, 1, 2], {"1-0": "White, Tan", "0-1": "Black, Brown"}),
    ("superchess", "2p", [0, 7, 3], {"1-0": "White, Tan", "0-1": "Black, Brown"}),
    ("fourplayer_teams", None, [1, 0, 2], {"1-0": "Red, Yellow", "0-1": "Blue, Green"}),
    ("fourplayer_ffa", None, [5, 6, 7], None),
])
def test_a_match_game_won_by_a_team_or_an_army_records_its_winners(variant, mode, seeds, sides):
    """``sides``: the Winners tag of each two-team result (None: a free-for-all, whose win is ``*``)."""
    played = first_won(variant, mode, seeds)
    tags, end = replayed(played.record)
    assert tags["Result"] == played.result and tags["Termination"] == played.termination
    assert tags.get("Mode") == mode and end is not None and end.winners
    if sides is not None:
        assert tags["Winners"] == sides[tags["Result"]]
    else:
        assert tags["Result"] == "*" and tags["Winners"]
        assert all(f"{name} " in tags["Termination"] for name in tags["Winners"].split(", "))


def test_the_same_team_game_through_play_and_the_server_gets_the_matchs_result(tmp_path):
    """A match game of four-player Teams played again move by move in ``rules play`` (forced moves
    are played by the runner) and sent to the server: the same result, winners and moves."""
    played = first_won("fourplayer_teams", None, [1, 0, 2])
    game = load_game("fourplayer_teams")
    movetext = read_record(played.record).movetext
    typed = [w for w in movetext.split() if not w[0].isdigit() and w not in ("pass", "remove", "out", played.result)]
    path = tmp_path / "again.pgn"
    out = io.StringIO()
    play(game, start_position(game), {a.index: "human" for a in game.armies}, record_path=str(path),
         stdin=io.StringIO("\n".join(typed) + "\n"), stdout=out)
    tags, _ = replayed(path.read_text())
    assert read_record(path.read_text()).movetext.split() == movetext.split()
    assert (tags["Result"], tags["Termination"]) == (played.result, played.termination)
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.server.app import create_app

    with TestClient(create_app()) as client:
        try:
            state = client.post("/api/games", json={"variant": "fourplayer_teams", "moves": movetext}).json()
            assert state["result"]["token"] == played.result and state["result"]["text"] == played.termination
            assert replayed(state["record"])[0]["Winners"] == tags["Winners"]
        finally:
            client.app.state.store.close()


def test_rules_match_pgn_and_rules_analyze_record_the_teams_wins_as_the_metrics_count_them(tmp_path, capsys):
    """Games 0 and 1 of seed 1 in four-player Teams (today Red and Yellow win the first, Blue and
    Green the second): the records saved by ``rules match --pgn``, the results file of ``rules
    analyze`` and its metrics agree on who won."""
    path = tmp_path / "games.pgn"
    assert main(["match", "fourplayer_teams", "--seat", "greedy", "--seat", "random", "--games", "2",
                 "--seed", "1", "--jobs", "1", "--pgn", str(path)]) == 0
    capsys.readouterr()
    saved = [replayed("[Event" + text)[0] for text in path.read_text().split("[Event")[1:]]
    assert len(saved) == 2
    teams = {"1-0": ["red", "yellow"], "0-1": ["blue", "green"], "1/2-1/2": [], "*": []}
    for tags in saved:
        assert tags.get("Winners", "") == ", ".join(p.title() for p in teams[tags["Result"]])
    analyze("fourplayer_teams", ["greedy", "random"], 2, tmp_path / "run", seed=1, jobs=1, progress=False)
    lines = read_results(tmp_path / "run" / "results.jsonl")
    tokens = [lines[i]["result"] for i in range(2)]
    assert tokens == [tags["Result"] for tags in saved]
    for i in range(2):
        assert replayed(lines[i]["record"])[0]["Result"] == tokens[i]
        assert sorted(lines[i]["winners"]) == teams[tokens[i]]
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    wins = {tuple(team["players"]): team["wins"] for team in metrics["teams"]}
    assert wins == {("red", "yellow"): tokens.count("1-0"), ("blue", "green"): tokens.count("0-1")}
    assert metrics["overall"]["completion"]["value"] == sum(t in ("1-0", "0-1") for t in tokens) / 2


def test_records_file_keeps_each_game_as_it_ends(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text("an earlier run\n")
    with RecordsFile(str(path)) as records:
        assert path.read_text() == ""                                # emptied when the run starts
        records.add('[Round "1"]\n\n1. e4 *\n')
        assert path.read_text() == '[Round "1"]\n\n1. e4 *\n'         # on disk before the run ends
        records.add('[Round "2"]\n\n1. d4 *\n')
    assert path.read_text() == '[Round "1"]\n\n1. e4 *\n\n[Round "2"]\n\n1. d4 *\n'
    assert records.count == 2 and records.out is None
    with pytest.raises(UsageError, match="cannot write"):
        RecordsFile(str(tmp_path / "missing" / "games.pgn"))
    nowhere = RecordsFile(None)
    nowhere.add("a record")
    assert nowhere.count == 0
