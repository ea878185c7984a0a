"""``rules analyze`` end to end: the run directory, the same games on every backend, resuming a
killed run, the report and its heat maps, and bad input.

Games are short (random or greedy agents, a few dozen plies) so that the
whole file runs in well under a minute.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dsl import UsageError
from interpreter.analysis import execution, figures
from interpreter.analysis.results import read_results
from interpreter.analysis.runs import analyze
from interpreter.cli.main import main
from interpreter.loading import load_game

SHORT = ["chess", "--games", "6", "--seat", "random", "--max-plies", "30", "--seed", "4"]


def _games(directory: Path) -> dict[int, dict]:
    """The results of a run by index, without what depends on the machine and the day."""
    out = {}
    for index, line in read_results(directory / "results.jsonl").items():
        line = dict(line)
        line.pop("seconds")
        line["record"] = "\n".join(r for r in line["record"].splitlines() if not r.startswith("[Date "))
        out[index] = line
    return out


def test_a_run_writes_results_metrics_and_a_self_contained_report(tmp_path, capsys):
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "6 games" in printed and "balance" in printed and "report.html" in printed
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 6 and sorted(json.loads(x)["index"] for x in lines) == list(range(6))
    game = json.loads(lines[0])
    assert len(game["branching"]) == len(game["to"]) == len(game["movers"]) == game["plies"]
    assert len(game["evaluation"]) == game["plies"] + 1 and game["branching"][0] == 20
    capped = [g for g in map(json.loads, lines) if g["end"] is None]     # the ply cap ended them: a draw
    assert capped and all(g["result"] == "1/2-1/2" and g["plies"] == 30 and g["winners"] == [] and
                          g["termination"] == "draw by adjudication at the cap of 30 plies" for g in capped)
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["games"] == 6 and [s["player"] for s in metrics["seats"]] == ["white", "black"]
    assert sum(e["count"] for e in metrics["endings"]) == 6
    html = (tmp_path / "report.html").read_text()
    assert html.count('src="data:image/svg+xml;base64,') == 5
    assert "http://" not in html.replace("http://www.w3.org/", "") and "https://" not in html and "<script" not in html
    for name in ("win_rates", "lengths", "branching", "moves", "captures"):
        assert (tmp_path / "figures" / f"{name}.svg").read_text().lstrip().startswith("<svg")


def test_the_same_seed_gives_the_same_games_in_process_in_a_pool_and_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    common = dict(mode=None, seed=9, max_plies=40, opening_plies=2, progress=False)
    one = analyze("chess", ["greedy", "random"], 6, tmp_path / "one", jobs=1, **common)
    pool = analyze("chess", ["greedy", "random"], 6, tmp_path / "pool", jobs=2, **common)
    dask = analyze("chess", ["greedy", "random"], 6, tmp_path / "dask", jobs=2, cluster=True, batch=2, **common)
    assert (one.workers, pool.workers, dask.workers) == (1, 2, 2)
    assert _games(tmp_path / "one") == _games(tmp_path / "pool") == _games(tmp_path / "dask")
    assert one.metrics == dask.metrics
    analyze("chess", ["greedy", "random"], 6, tmp_path / "other", jobs=1, **{**common, "seed": 10})
    assert _games(tmp_path / "other") != _games(tmp_path / "one")


def test_resume_plays_only_the_missing_games_and_a_grown_run_equals_a_whole_one(tmp_path, capsys):
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path / "part"), "--games", "3"]) == 0
    before = (tmp_path / "part" / "results.jsonl").read_text()
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path / "part"), "--resume"]) == 0
    assert "3 played now, 3 kept" in capsys.readouterr().out
    assert (tmp_path / "part" / "results.jsonl").read_text().startswith(before)
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path / "whole")]) == 0
    assert _games(tmp_path / "part") == _games(tmp_path / "whole")
    # Nothing left to play: the metrics and the report are recomputed from the results alone.
    (tmp_path / "part" / "metrics.json").unlink()
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path / "part"), "--resume"]) == 0
    assert json.loads((tmp_path / "part" / "metrics.json").read_text())["games"] == 6


def test_a_killed_run_keeps_its_finished_games_and_resumes_without_replaying_them(tmp_path):
    out = tmp_path / "killed"
    argv = [sys.executable, "-m", "interpreter.cli", "analyze", "chess", "--games", "40", "--seat", "random",
            "--max-plies", "60", "--jobs", "2", "--batch", "1", "--out", str(out)]
    run = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not results.exists() or results.read_text().count("\n") < 4):
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    kept = read_results(results)
    assert 4 <= len(kept) < 40, "the run was killed before it finished"
    with open(results, "a") as cut:          # a line the kill cut short is dropped, not misread
        cut.write('{"index": 39, "seats": {"wh')
    first_lines = {i: line["record"] for i, line in read_results(results).items()}
    assert main(argv[3:-4] + ["--jobs", "1", "--resume", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in results.read_text().splitlines()]
    assert sorted(line["index"] for line in lines) == list(range(40))     # each game once
    assert {line["index"]: line["record"] for line in lines[:len(first_lines)]} == first_lines


def test_resume_refuses_other_parameters_and_a_new_run_refuses_to_overwrite(tmp_path, capsys):
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), "--games", "2"]) == 0
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), "--games", "2"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["analyze", *SHORT[:-1], "5", "--jobs", "1", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "other parameters (seed)" in err and "seed=4" in err


def test_resume_refuses_edited_rules_or_weights_but_not_a_new_comment(tmp_path, capsys):
    """A run is of one game and one set of players: an edit that changes a move (here a weight of
    the ai block, the evaluation's) refuses --resume; one that changes nothing the games depend on
    (a comment) does not."""
    rules, weights = tmp_path / "mine.rules", tmp_path / "weights.rules"
    rules.write_text("variant mine {}\nextends chess\nai {\n  weight pair 1.5\n}\n")
    weights.write_text("variant w {}\nextends chess\nai {\n  weight mobility 0.5\n}\n")
    argv = ["analyze", str(rules), "--games", "2", "--seat", f"ai:nodes=50:weights={weights}", "--seat", "greedy",
            "--max-plies", "8", "--jobs", "1", "--out", str(tmp_path / "run")]
    assert main(argv) == 0
    header = json.loads((tmp_path / "run" / "run.json").read_text())["parameters"]
    assert len(header["rules"]) == 32 and header["weights"][0]["mobility"] == 0.5 and header["weights"][1] is None
    rules.write_text(rules.read_text() + "# a comment changes no game\n")
    assert main([*argv, "--games", "3", "--resume"]) == 0
    weights.write_text(weights.read_text().replace("0.5", "0.25"))
    capsys.readouterr()
    assert main([*argv, "--games", "4", "--resume"]) == 2
    err = capsys.readouterr().err
    assert "seat 1" in err and "other weights" in err and "mobility 0.5 (the file now gives 0.25)" in err
    weights.write_text(weights.read_text().replace("0.25", "0.5"))
    rules.write_text(rules.read_text().replace("1.5", "2"))
    assert main([*argv, "--games", "4", "--resume"]) == 2
    assert "a run of other rules" in capsys.readouterr().err
    assert len(read_results(tmp_path / "run" / "results.jsonl")) == 3      # nothing was played by other rules


def test_a_run_from_before_the_rules_digest_resumes_unchecked(tmp_path):
    argv = ["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), "--games", "2"]
    assert main(argv) == 0
    header = json.loads((tmp_path / "run.json").read_text())
    for name in ("rules", "weights"):
        del header["parameters"][name]
    (tmp_path / "run.json").write_text(json.dumps(header))
    assert main([*argv[:-1], "3", "--resume"]) == 0


@pytest.mark.parametrize("field, value, said", [("rules", 7, "a run of other rules"),
                                                ("weights", 5, "seat 1"), ("weights", [[1]], "seat 1")])
def test_an_edited_header_is_refused_without_a_traceback(field, value, said, tmp_path, capsys):
    weights = tmp_path / "w.rules"
    weights.write_text("variant w {}\nextends chess\n")
    argv = ["analyze", "chess", "--seat", f"ai:nodes=20:weights={weights}", "--seat", "random", "--games", "2",
            "--max-plies", "10", "--jobs", "1", "--out", str(tmp_path / "run")]
    assert main(argv) == 0
    header = json.loads((tmp_path / "run" / "run.json").read_text())
    header["parameters"][field] = value
    (tmp_path / "run" / "run.json").write_text(json.dumps(header))
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_file_edited_while_the_games_are_played_stops_them(tmp_path, monkeypatch):
    """Each game checks the rules it loads against those the run began with: the games of two sets
    of rules in one run would mix their metrics."""
    from interpreter.agents import matches
    rules = tmp_path / "mine.rules"
    rules.write_text("variant mine {}\nextends chess\n")
    load, played = matches.load_game, []

    def edit_after_two(*args, **kwargs):
        played.append(1)
        if len(played) == 3:
            rules.write_text("variant mine {}\nextends chess\nai {\n  weight pair 3\n}\n")
        return load(*args, **kwargs)
    monkeypatch.setattr(matches, "load_game", edit_after_two)
    with pytest.raises(UsageError, match="changed while the games were played: game 2 found other rules"):
        analyze(str(rules), ["random"], 5, tmp_path / "run", max_plies=6, jobs=1, progress=False)
    assert sorted(read_results(tmp_path / "run" / "results.jsonl")) == [0]


@pytest.mark.parametrize("resume", [[], ["--resume"]])
@pytest.mark.parametrize("name", ["results.jsonl", "run.json", "metrics.json", "report.html"])
def test_a_file_of_the_run_that_is_a_directory_is_refused_before_any_game(name, resume, tmp_path, capsys):
    (tmp_path / name).mkdir()
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), *resume]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / name} is not a file" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]          # nothing was played or written


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_an_output_directory_that_is_a_file_is_refused(resume, tmp_path, capsys):
    (tmp_path / "run").write_text("not a directory")
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path / "run"), *resume]) == 2
    assert "a file of that name is there" in capsys.readouterr().err


@pytest.mark.parametrize("line, fault", [
    ("{not json", "not JSON"),
    ("[" * 100_000, "not JSON"),                          # too deep for Python's json: not a RecursionError
    ("null", "not a JSON object"),
    ('{"index": 5}', "no 'seats'"),
    ("INDEX:x", "'index' is a string, not a whole number"),
    ("INDEX:true", "'index' is true or false, not a whole number"),
    ("INDEX:[1]", "'index' is an array, not a whole number"),
    ("INDEX:-1", "'index' is negative"),
    ("END:3", "'end' is a whole number, not a string or null"),
])
def test_a_results_line_that_no_run_wrote_is_a_located_error_and_changes_nothing(line, fault, tmp_path, capsys):
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), "--games", "2"]) == 0
    results = tmp_path / "results.jsonl"
    if line.startswith(("INDEX:", "END:")):                # a line of the run with one field changed
        name, _, value = line.partition(":")
        game = json.loads(results.read_text().splitlines()[0])
        game[name.lower()] = json.loads(value) if value != "x" else value
        line = json.dumps(game)
    text = results.read_text() + line + "\n" + '{"index": 5, "cut sh'
    results.write_text(text)
    capsys.readouterr()
    assert main(["analyze", *SHORT, "--jobs", "1", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{results}:3:1: not a line of a results file: {fault}") and "Traceback" not in err
    assert results.read_text() == text                    # not even the unfinished last line was cut


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--games", "2", "--seat", "human"], "takes agents"),
    (["--games", "2", "--seat", "white=random"], "takes agents"),
    (["--games", "2", "--seat", "clever"], "unknown agent"),
    (["--games", "2", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs cannot be used with --scheduler"),
    (["--games", "2", "--cluster", "local", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with"),
])
def test_bad_arguments_exit_2_with_a_message(argv, message, tmp_path, capsys):
    assert main(["analyze", "chess", *argv, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_without_dask_the_cluster_options_say_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)      # import distributed fails
    with pytest.raises(Exception) as caught:
        execution.Cluster(2)
    assert "rules-dsl[cluster]" in caught.value.render()


def test_batches_grow_with_the_measured_game_time_and_leave_work_for_every_worker():
    assert execution.batch_size(0, 0.0, 100, 2) == 1
    assert execution.batch_size(10, 1.0, 1000, 2) == 20        # 0.1 s a game: 2 s of games
    assert execution.batch_size(10, 1.0, 20, 2) == 5           # a quarter of what is left per worker pair
    assert execution.batch_size(2, 20.0, 100, 2) == 1          # slow games: one a task


@pytest.mark.parametrize("variant, mode", [("superchess", "4p"), ("rocket", None), ("glinski", None), ("mccooey", None)])
def test_heat_maps_are_drawn_on_the_variants_own_board(variant, mode):
    game = load_game(variant, mode)
    counts = {name: i for i, name in enumerate(game.board.names)}
    svg = figures.heat_map(game, counts, "moves")
    assert svg.count('class="heat"') == game.n              # every cell of the diamond, the rocket, the hexes
    assert f'id="heat-{game.board.names[0]}"' in svg and "linearGradient" in svg


def test_a_team_game_reports_its_teams(tmp_path):
    result = analyze("superchess", ["random"], 2, tmp_path, mode="4p", max_plies=16, jobs=1, progress=False)
    teams = result.metrics["teams"]
    assert [t["players"] for t in teams] == [["south", "north"], ["west", "east"]]
    assert "<h2>Teams</h2>" in (tmp_path / "report.html").read_text()


def test_scheduler_sends_the_games_to_a_running_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster:
        remote = analyze("chess", ["random"], 4, tmp_path / "remote", max_plies=20, seed=3, progress=False,
                         scheduler=cluster.scheduler_address)
    analyze("chess", ["random"], 4, tmp_path / "here", max_plies=20, seed=3, progress=False, jobs=1)
    assert remote.workers == 2
    assert _games(tmp_path / "remote") == _games(tmp_path / "here")
