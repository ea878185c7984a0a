"""``rules tune``: the evaluation taken apart into its terms, Texel's fit, the positions it fits to,
and the command end to end (a few games of a small board with the greedy agent, a few seconds).

The fit is checked on synthetic positions whose results come from a known weight vector: it must
find that vector again. No assertion is timed.
"""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import numpy as np
import pytest

from dsl import UsageError
from interpreter.agents import texel
from interpreter.agents.base import MATE, SearchInfo
from interpreter.agents.evaluation import Evaluation
from interpreter.agents.terms import NAMES, Terms, coefficients
from interpreter.analysis import execution, samples as samples_module
from interpreter.analysis.results import read_results
from interpreter.analysis.samples import collect
from interpreter.analysis.teacher import Teacher, label
from interpreter.analysis.tuning import records_in
from interpreter.cli.main import main
from interpreter.loading import load_game, start_fen, start_position
from interpreter.loading.records import game_record, read_record, read_records, won_teams
from interpreter.notation.san import move_to_san
from interpreter.notation.terms import captures

from external_engines import FAIRY, fairy_or_skip, fake_spec

TRUE = {"material": 1.3, "mobility": 0.6, "promotion": 2.0, "zone": 0.8, "hand": 1.5, "royal": 1.0, "checks": 1.4,
        "safety": 0.7, "passed": 1.2, "activity": 0.9, "structure": 1.1, "shelter": 0.8,
        "threats": 1.2, "pair": 0.8}
W = len(NAMES)   # the number of weights
SMALL = ["gardner", "--seat", "greedy", "--max-plies", "80", "--jobs", "1"]


def _random_positions(game, seed: int, plies: int = 80):
    """The positions of a random game of ``game`` (each a copy), the start included."""
    rng = random.Random(seed)
    pos = start_position(game)
    seen = [pos.copy()]
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        pos.push(rng.choice(legal))
        seen.append(pos.copy())
    return seen


@pytest.mark.parametrize("variant, mode", [("chess", None), ("crazyhouse", None), ("locking", None),
                                           ("superchess", "4p"), ("kingofthehill", None), ("antichess", None)])
def test_the_terms_put_together_give_the_evaluation_up_to_its_rounding(variant, mode):
    """Linear in every weight, but hand x material: what the weights multiply, recombined, is the
    evaluation itself, within half a centipawn per piece and weighted term."""
    game = load_game(variant, mode)
    terms = Terms(game)
    rng = random.Random(7)
    for seed in range(3):
        weights = {name: rng.uniform(0, 3) for name in NAMES}
        evaluation = Evaluation(game, weights)
        for pos in _random_positions(game, seed):
            team = game.team_of[pos.army]
            recombined = sum(c * t for c, t in zip(coefficients(weights), terms.of(pos, team)))
            pieces = sum(len(cells) for cells in pos.cells_of) + len(pos.stacked) + sum(pos.hands)
            assert abs(recombined - evaluation.relative(pos, team)) <= 1 + pieces * (1 + sum(weights.values()))


def test_the_hand_term_is_weighed_by_hand_and_material():
    game = load_game("crazyhouse")
    terms = Terms(game)
    pos = next(p for p in _random_positions(game, 3, 200) if any(p.hands) and not terms.of(p, 0)[4] == 0)
    hand = NAMES.index("hand")
    base = dict.fromkeys(NAMES, 1.0)
    doubled = Evaluation(game, {**base, "material": 2.0}).relative(pos, 0) - Evaluation(game, base).relative(pos, 0)
    assert doubled == pytest.approx(terms.of(pos, 0)[NAMES.index("material")] + terms.of(pos, 0)[hand], abs=40)


SPREADS = (300, 80, 40, 60, 150, 100, 90, 50, 70, 60, 80, 80, 40, 20)
"""The standard deviation of each synthetic term, in the order of NAMES (centipawns)."""


def _synthetic(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.normal(0, sd, n) for sd in SPREADS])


def test_the_fit_finds_known_weights_again():
    terms = _synthetic(5000)
    true = np.array([TRUE[name] for name in NAMES])
    k = 0.006
    exact = texel.sigmoid(k * terms @ texel.coefficient_vector(true))
    weights, _ = texel.fit_weights(terms, exact, k, np.ones(W), np.ones(W, dtype=bool), ridge=0.0)
    assert weights == pytest.approx(true, abs=1e-3)
    weights, _ = texel.fit_weights(terms, exact, k, np.ones(W), np.ones(W, dtype=bool))   # with the pull
    assert weights == pytest.approx(true, abs=0.02)


def test_k_is_fitted_first_from_the_start_weights():
    terms = _synthetic(5000, seed=2)
    scores = terms @ np.ones(W)
    assert texel.fit_scale(scores, texel.sigmoid(0.004 * scores)) == pytest.approx(0.004, rel=1e-4)


def test_from_won_and_lost_games_the_fit_finds_the_weights_up_to_the_scale_k_fixes():
    """Results drawn as games are (1 or 0, with the known probabilities): K is fitted with the start
    weights, so only K times the weights is determined; a silent term keeps its start weight."""
    rng = np.random.default_rng(3)
    terms = _synthetic(100000, seed=4)
    terms[:, NAMES.index("zone")] = 0.0
    true = np.array([TRUE[name] for name in NAMES])
    results = (rng.random(len(terms)) < texel.sigmoid(0.005 * terms @ texel.coefficient_vector(true))).astype(float)
    found = texel.fit(terms[:60000], results[:60000], dict.fromkeys(NAMES, 1.0),
                      held_out_terms=terms[60000:], held_out_results=results[60000:])
    assert found.fixed == ("zone",) and found.weights["zone"] == 1.0
    fitted = found.k * texel.coefficient_vector(np.array([found.weights[name] for name in NAMES]))
    expected = 0.005 * texel.coefficient_vector(true)
    for name, got, want, spread in zip(NAMES, fitted, expected, SPREADS):
        if name != "zone":   # a term of less spread is fitted less closely (pair's 20: within a fifth)
            assert got == pytest.approx(want, rel=0.12 if spread >= 50 else 0.2), name
    assert found.error < found.error_start and found.held_out_error < found.held_out_start


def test_each_weight_gets_an_interval_from_resampling_the_games_narrower_with_more_games():
    rng = np.random.default_rng(5)
    terms = _synthetic(8000, seed=6)
    terms[:, NAMES.index("royal")] = 0.0
    games = np.repeat(np.arange(200), 40)
    true = np.array([TRUE[name] for name in NAMES])
    results = (rng.random(len(terms)) < texel.sigmoid(0.005 * terms @ texel.coefficient_vector(true))).astype(float)
    start = dict.fromkeys(NAMES, 1.0)
    many = texel.fit(terms, results, start, games=games)
    few = texel.fit(terms[:2000], results[:2000], start, games=games[:2000])
    for name in NAMES:
        low, high = many.intervals[name]
        assert low <= many.weights[name] <= high
    assert many.intervals["royal"] == (1.0, 1.0)             # not fitted
    width = {name: fit.intervals["mobility"][1] - fit.intervals["mobility"][0] for name, fit in
             (("many", many), ("few", few))}
    assert 0 < width["many"] < width["few"]
    assert texel.fit(terms, results, start).intervals is None      # without the games, no interval


@pytest.mark.parametrize("results, message", [
    (np.ones(10), "only 10 positions"),
    (np.full(100, 0.5), "every position is of a game its side to move drawn"),
    (None, "won every game"),
])
def test_what_cannot_be_fitted_is_refused(results, message):
    terms = _synthetic(len(results) if results is not None else 200)
    if results is None:             # the side ahead always won: K runs to its end
        results = (terms @ np.ones(W) > 0).astype(float)
    with pytest.raises(UsageError, match=message):
        texel.fit(terms, results, dict.fromkeys(NAMES, 1.0))


def test_a_records_file_is_split_into_its_games_and_their_results_read():
    game = load_game("chess")
    text = ('[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n[Event "b"]\n[Result "1/2-1/2"]\n\n1. d4 1/2-1/2\n\n'
            '[Event "c"]\n[Result "*"]\n\n1. c4 *\n')
    records = read_records(text, "games.pgn")
    assert [r.tags["Event"] for r in records] == ["a", "b", "c"]
    assert [won_teams(game, r.tags) for r in records] == [{0}, set(), None]
    superchess = load_game("superchess", "4p")
    assert won_teams(superchess, {"Result": "*", "Winners": "White, Tan"}) == {0}
    assert won_teams(superchess, {"Result": "*", "Winners": "White, Nobody"}) is None


def test_the_positions_are_quiet_late_enough_and_labelled_for_the_side_to_move(monkeypatch):
    """Every position kept is past the first four rounds, not in check, not after or before a capture,
    and labelled with the game's result for the side to move."""
    game = load_game("chess")
    kept = []

    class Watched(Terms):
        def of(self, pos, team):
            kept.append(((pos.fullmove - 1) * 2 + pos.turn, pos.in_check(), team))   # the ply, in chess
            return super().of(pos, team)

    monkeypatch.setattr(samples_module, "Terms", Watched)
    text, capturing = _random_record(game, 5, "0-1")
    found = collect(game, [("test game", read_record(text))])
    assert found.read == 1 and len(found.results) == len(kept) > 10
    for (ply, in_check, team), result in zip(kept, found.results):
        assert ply >= 8 and not in_check and ply not in capturing and ply - 1 not in capturing
        assert result == (1.0 if team == 1 else 0.0)


def _random_record(game, seed: int, result: str, plies: int = 120) -> tuple[str, set[int]]:
    """The record of a game of random moves from the start (at most ``plies``), its Result tag
    ``result``; and the plies (counted from 0) whose moves capture."""
    rng = random.Random(seed)
    pos = start_position(game)
    sans, capturing = [], set()
    while len(sans) < plies and pos.legal_moves():
        move = rng.choice(pos.legal_moves())
        if captures(pos, move):
            capturing.add(len(sans))
        sans.append(move_to_san(pos, move))
        pos.push(move)
    return game_record(game, start_fen(game), sans, None).replace('[Result "*"]', f'[Result "{result}"]'), capturing


def test_a_teachers_score_is_the_result_it_predicts_on_the_elo_scale():
    assert label(SearchInfo(None, score=0)) == 0.5
    assert label(SearchInfo(None, score=400)) == pytest.approx(10 / 11)
    assert label(SearchInfo(None, score=-400)) == pytest.approx(1 / 11)
    assert label(SearchInfo(None, score=MATE - 3)) == 1.0
    assert label(SearchInfo(None, score=-(MATE - 2))) == 0.0


def test_a_teacher_labels_each_position_with_its_own_score_and_unfinished_games_count(monkeypatch):
    """With a teacher, a position's label is what the teacher's search of it (on the teacher's budget)
    predicts for the side to move, not the game's result, which an unfinished game does not have."""
    game = load_game("chess")
    text, _ = _random_record(game, 5, "*")
    teacher = Teacher("ai:alphabeta:depth=1", game)
    searched = []
    choose = teacher.agent.choose

    def watched(pos, budget=None, *rest):
        info = choose(pos, budget, *rest)
        searched.append((budget, info))
        return info

    monkeypatch.setattr(teacher.agent, "choose", watched)
    found = collect(game, [("g", read_record(text))], teacher)
    assert found.unfinished == 1 and len(found.results) == len(searched) > 10
    assert found.results == [label(info) for _, info in searched]
    assert all(budget.depth == 1 for budget, _ in searched)
    assert len(set(found.results)) > 5                    # one label per position, not one per game


def test_a_teacher_may_search_with_a_files_weights():
    """--teacher is an agent of the command line: its weights=FILE is read (here a bundled name)."""
    teacher = Teacher("ai:alphabeta:depth=1:weights=kingofthehill", load_game("chess"))
    assert teacher.agent.weights["zone"] == load_game("kingofthehill").spec.ai.weights["zone"] != 1.0


def test_tune_with_an_engine_as_teacher_says_so_in_the_file(tmp_path, capsys):
    fairy_or_skip()
    game = load_game("chess")
    records = tmp_path / "games.pgn"
    records.write_text("\n".join(_random_record(game, seed, "*", 100)[0] for seed in range(4)))
    out = tmp_path / "taught.rules"
    teacher = f"uci:{FAIRY}:depth=4"
    assert main(["tune", "chess", "--from", str(records), "--teacher", teacher, "--out", str(out)]) == 0
    assert f"of 4 games, labelled by {teacher}" in capsys.readouterr().out
    assert f"# the result the score of {teacher} predicts." in out.read_text()
    assert set(load_game(str(out)).spec.ai.weights) == set(NAMES)


def test_a_teacher_that_fails_is_a_usage_error_that_says_where(tmp_path, capsys):
    records = tmp_path / "games.pgn"
    records.write_text(_random_record(load_game("chess"), 1, "1-0")[0])
    out = tmp_path / "taught.rules"
    teacher = fake_spec("uci", "exit", options=":depth=2")
    assert main(["tune", "chess", "--from", str(records), "--teacher", teacher, "--out", str(out)]) == 2
    assert f"failed at {records}, game 1, ply " in capsys.readouterr().err
    assert not out.exists()


def test_a_game_without_a_result_gives_no_position():
    game = load_game("chess")
    found = collect(game, [("g", read_record('[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6 *'))])
    assert found.unfinished == 1 and not found.results


def test_tune_writes_a_rules_file_that_loads_with_the_tuned_weights(tmp_path, capsys, monkeypatch):
    out = tmp_path / "gardner-tuned.rules"
    assert main(["tune", *SMALL, "--games", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "mean squared error" in printed and "start  tuned" in printed
    text = out.read_text()
    assert "extends gardner" in text and text.count("weight ") == len(NAMES)
    weights = load_game(str(out)).spec.ai.weights
    assert set(weights) == set(NAMES)
    assert weights["zone"] == 1.0                        # gardner has no goal zone: not fitted
    assert weights != dict.fromkeys(NAMES, 1.0)
    assert len(read_results(tmp_path / "gardner-tuned.games" / "results.jsonl")) == 4
    # the same games, read back from the run directory, give the same weights (and, allowed to
    # resample so few games, intervals)
    monkeypatch.setattr(texel, "MIN_GAMES", 2)
    again = tmp_path / "again.rules"
    assert main(["tune", "gardner", "--from", str(tmp_path / "gardner-tuned.games"), "--out", str(again)]) == 0
    assert "95% (games resampled)" in capsys.readouterr().out
    assert load_game(str(again)).spec.ai.weights == weights
    assert "# 95% intervals by resampling the games: material " in again.read_text()


@pytest.mark.parametrize("seat, measured", [("ai:depth=1", "ai:depth=1"),
                                            ("greedy", "ai:alphabeta:nodes=1000")])   # no search: the default's
def test_the_closing_line_measures_the_tuned_weights_against_the_start(tmp_path, capsys, seat, measured):
    """The command that rules tune prints last plays the tuned weights against the start weights,
    with the search that played the games (the default one after games of an agent that weighs nothing)."""
    out = tmp_path / "gardner-tuned.rules"
    assert main(["tune", "gardner", "--seat", seat, "--max-plies", "40", "--jobs", "1", "--games", "4",
                 "--out", str(out)]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("rules match"))
    words = shlex.split(line)
    assert words[words.index("--seat") + 1] == f"{measured}:weights={out}"
    words[words.index("--games") + 1] = "2"
    assert main([*words[1:], "--jobs", "1"]) == 0
    table = capsys.readouterr().out
    assert f"{measured}:weights={out}" in table and "Elo" in table


def test_after_from_a_run_the_closing_line_measures_with_the_runs_search(tmp_path, capsys):
    """A fit from the games a run kept is measured as that run's games were played: with its first
    seat and level; where its header cannot say, with the seat its records name."""
    run = tmp_path / "gardner-tuned.games"
    assert main(["tune", "gardner", "--seat", "ai:depth=1", "--level", "easy", "--max-plies", "40", "--jobs", "1",
                 "--games", "4", "--out", str(tmp_path / "gardner-tuned.rules")]) == 0

    def seat_after_from(name: str) -> list[str]:
        capsys.readouterr()
        assert main(["tune", "gardner", "--from", str(run), "--out", str(tmp_path / name)]) == 0
        line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("rules match"))
        words = shlex.split(line)
        return [words[words.index("--seat") + 3], *words[words.index("--games") + 2:]]
    assert seat_after_from("a.rules") == ["ai:depth=1", "--level", "easy"]
    header = json.loads((run / "run.json").read_text())
    header["parameters"]["seats"] = [7]
    (run / "run.json").write_text(json.dumps(header))
    assert seat_after_from("b.rules") == ["ai:depth=1"]     # the records still name it (not the level)
    (run / "run.json").write_text("{not json")
    assert seat_after_from("c.rules") == ["ai:depth=1"]


@pytest.mark.parametrize("white, black, measured", [
    ("ai:depth=1", "ai:depth=1", "ai:depth=1"),                      # self-play records name the search
    ("ai:depth=1", "ai:depth=2", "ai:alphabeta:nodes=1000"),         # two agents: which one?
    ("ai", "ai", "ai:alphabeta:nodes=1000"),                         # played at a level the record does not keep
    ("greedy:time=1", "greedy:time=1", "ai:alphabeta:nodes=1000"),   # no evaluation
    ("Ann", "Ann", "ai:alphabeta:nodes=1000")])                      # not an agent
def test_after_from_records_the_closing_line_measures_with_their_one_search(white, black, measured, tmp_path, capsys):
    records = tmp_path / "games.pgn"
    assert main(["match", "gardner", "--seat", "ai:depth=1", "--seat", "ai:depth=1", "--games", "4", "--max-plies",
                 "40", "--jobs", "1", "--pgn", str(records)]) == 0
    text = records.read_text().replace('[White "ai:depth=1"]', f'[White "{white}"]')
    records.write_text(text.replace('[Black "ai:depth=1"]', f'[Black "{black}"]'))
    assert main(["tune", "gardner", "--from", str(records), "--out", str(tmp_path / "t.rules")]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("rules match"))
    words = shlex.split(line)
    assert words[words.index("--seat") + 3] == measured


def test_the_games_of_a_fit_are_the_same_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    common = ["--max-plies", "30", "--games", "4", "--seat", "ai:depth=1"]
    assert main(["tune", "gardner", *common, "--jobs", "1", "--out", str(tmp_path / "here.rules")]) == 0
    assert main(["tune", "gardner", *common, "--cluster", "local", "--jobs", "2",
                 "--out", str(tmp_path / "dask.rules")]) == 0
    here, dask = (read_results(tmp_path / f"{name}.games" / "results.jsonl") for name in ("here", "dask"))
    assert {i: line["record"].split("\n\n")[1] for i, line in here.items()} == \
           {i: line["record"].split("\n\n")[1] for i, line in dask.items()}
    weights = [(tmp_path / name).read_text().split("extends")[1] for name in ("here.rules", "dask.rules")]
    assert weights[0] == weights[1]


def test_a_variant_given_by_its_path_is_extended_by_its_path(tmp_path, capsys):
    variant = tmp_path / "rules" / "mini.rules"
    variant.parent.mkdir()
    variant.write_text("extends gardner\n")
    assert main(["tune", str(variant), *SMALL[1:], "--games", "4"]) == 0
    tuned = variant.with_name("mini-tuned.rules")
    assert 'extends "mini.rules"' in tuned.read_text()
    assert load_game(str(tuned)).spec.ai.weights


def test_the_closing_line_lets_the_match_read_a_variant_in_another_folder(tmp_path, capsys):
    variant = tmp_path / "rules" / "mini.rules"
    variant.parent.mkdir()
    variant.write_text("extends gardner\n")
    out = tmp_path / "fits" / "mini-fit.rules"
    out.parent.mkdir()
    assert main(["tune", str(variant), "--seat", "ai:depth=1", *SMALL[3:], "--games", "4", "--out", str(out)]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("rules match"))
    words = shlex.split(line)
    assert words[words.index("--include-dir") + 1] == str(variant.parent.resolve())
    words[words.index("--games") + 1] = "2"
    assert main([*words[1:], "--jobs", "1"]) == 0


def test_an_existing_file_is_never_overwritten(tmp_path, capsys):
    out = tmp_path / "mine.rules"
    out.write_text("# my own file\n")
    assert main(["tune", *SMALL, "--games", "4", "--out", str(out)]) == 2
    assert "never overwrites" in capsys.readouterr().err
    assert out.read_text() == "# my own file\n"
    assert not (tmp_path / "mine.games").exists()          # refused before any game


def test_resume_plays_only_the_games_not_played_yet(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t.rules"
    played = execution.play_batch
    calls = []

    def interrupted(tasks):
        calls.append(len(tasks))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return played(tasks)

    monkeypatch.setattr(execution, "play_batch", interrupted)
    assert main(["tune", *SMALL, "--games", "5", "--out", str(out)]) == 130
    assert "the same command with --resume plays the rest" in capsys.readouterr().out
    kept = read_results(tmp_path / "t.games" / "results.jsonl")
    assert 1 <= len(kept) < 5 and not out.exists()
    monkeypatch.setattr(execution, "play_batch", played)
    assert main(["tune", *SMALL, "--games", "5", "--out", str(out)]) == 2      # not without --resume
    assert "--resume" in capsys.readouterr().err
    assert main(["tune", *SMALL, "--games", "5", "--out", str(out), "--resume"]) == 0
    assert f"({5 - len(kept)} played now" in capsys.readouterr().out
    lines = read_results(tmp_path / "t.games" / "results.jsonl")
    assert sorted(lines) == list(range(5))
    assert all(lines[i]["record"] == kept[i]["record"] for i in kept)


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be between 1 and 10,000"),
    (["--games", "10001"], "--games must be between 1 and 10,000"),
    (["--seat", "human"], "tuning takes agents"),
    (["--seat", "ai:bogus"], "'ai:' is followed by a search"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--max-plies", "2001"], "more than a record can be read back"),
    (["--out", "weights.txt"], "is not a .rules file"),
    (["--from", "missing.pgn"], "cannot read the records"),
    (["--from", "x.pgn", "--games", "3"], "--from reads games, so --games cannot be used with it"),
    (["--from", "x.pgn", "--cluster", "local"], "so --cluster cannot be used with it"),
    (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs cannot be used with --scheduler"),
    (["--from", "x.pgn", "--resume"], "so --resume cannot"),
    (["--mode", "9p"], "mode"),
    (["--teacher", "random"], "a random agent gives no score to learn from"),
    (["--teacher", "ai:level=1200"], "a level in Elo plays with noise"),
    (["--teacher", "uci:"], "an engine seat needs a command"),
])
def test_bad_arguments_exit_2_with_a_message(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["tune", "chess", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_teacher_is_refused_in_a_game_of_more_than_two_teams(tmp_path, capsys):
    out = tmp_path / "ffa.rules"
    assert main(["tune", "fourplayer_ffa", "--teacher", "ai:alphabeta:depth=1", "--out", str(out)]) == 2
    assert "fourplayer_ffa has 4 teams" in capsys.readouterr().err
    assert not out.with_suffix(".games").exists()          # refused before any game


def test_records_of_another_variant_are_refused_with_their_name(tmp_path, capsys):
    records = tmp_path / "games.pgn"
    records.write_text('[Variant "chess"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    assert main(["tune", "shogi", "--from", str(records), "--out", str(tmp_path / "s.rules")]) == 2
    assert f"{records}, game 1 is a game of the variant 'chess', not 'shogi'" in capsys.readouterr().err
    assert len(records_in(records)) == 1


def test_the_summary_marks_a_weight_at_the_upper_bound_and_a_fit_no_better_on_held_out_games():
    from interpreter.analysis.samples import Samples
    from interpreter.analysis.tune_command import summary
    from interpreter.analysis.tuning import Tuned, tuned_rules
    ones = {name: 1.0 for name in NAMES}
    fit = texel.Fit(0.005, ones, {**ones, "zone": texel.BOUNDS[1], "pair": 2.0}, ("royal",), None,
                    0.2, 0.19, None, None, 100, 0, 3)
    lines = {line.split()[0]: line for line in summary(Tuned(Samples(read=4), fit)).splitlines()[3:-1]}
    assert lines["zone"].endswith("10  (the fit's upper bound: the games ask for more)")
    assert "bound" not in lines["pair"] and "bound" not in lines["royal"]
    assert "no better on the held-out games" not in summary(Tuned(Samples(read=4), fit))
    for held_out in ((0.07, 0.0706), (0.07, 0.07)):
        worse = texel.Fit(0.005, ones, ones, (), None, 0.2, 0.19, *held_out, 100, 25, 3)
        assert summary(Tuned(Samples(read=5), worse)).endswith(
            "  no better on the held-out games: the fit learnt its own positions, not the game, and is unlikely "
            "to play better")
    better = texel.Fit(0.005, ones, ones, (), None, 0.2, 0.19, 0.07, 0.069, 100, 25, 3)
    assert "no better" not in summary(Tuned(Samples(read=5), better))
    text = tuned_rules("racingkings", load_game("racingkings"), Tuned(Samples(read=4), fit), Path("rk.rules"), "4 games")
    assert "  weight zone      10      # start 1, the fit's upper bound\n" in text
    assert "  weight pair      2       # start 1\n" in text
