"""The self-play metrics of a run, computed from its game logs alone (see :mod:`.logs`).

After Ludii's evaluation metrics (Browne's and Stephenson's), adapted to
games of seats and teams. Each game is one log line; ``facts`` says who
the players are, how they make teams, who moves first and how many cells
the board has. Definitions (docs/analysis.md says the same for designers):

Outcomes, per game. A team *wins* a game when it is among the winners and
no other team is; it *loses* when another team wins and it does not; any
other end is a *draw* for it (no winner, or a shared win). A seat (a
player of the mode) has its team's result.

- **balance**: ``1 - max |w_a - w_b|`` over pairs of seats, ``w`` a seat's
  win rate (Ludii's Balance); 1 when every seat wins as often.
- **completion**: the share of games that some team won.
- **drawishness**: the share of games that an end rule drew.
- **timeouts**: the share of games adjudicated a draw at the ply limit
  (neither complete nor drawn).
- **first-seat advantage**: the first seat's mean points (a draw, or a
  shared win, is 1/2; Ludii's AdvantageP1); 0.5 is no advantage.
- **duration**: plies per game.
- **branching factor**: legal moves per position, the mean per game, then
  over games; *over the game*, its mean at each ply among the games still
  going (with the quartiles and the seat that moves there).
- **decision moves**: the share of a game's positions with more than one
  legal move.
- **board coverage**: the share of the board's cells that held a piece at
  some point of a game.
- **lead change**: the leader of a position is the team with the highest
  evaluation (several when tied); the share of a game's moves after which
  the leaders differ from before.
- **decisiveness** (games some team won): the share of the game played
  before a winning team's evaluation first exceeds the best any other team
  reached in the whole game (Ludii's DecisivenessMoves); 1 when it never
  does before the end: the game was decided by its last moves only.
  Evaluations are relative: a team's score minus the mean of the others'.

Per seat and team also: wins, draws, losses and their rates, the score,
the branching factor and decision moves of its own turns, captures per
game and (teams) the share of positions it leads alone. Endings count
games per end rule, and per result in words.
"""

from __future__ import annotations

import statistics
from collections import Counter

from . import intervals
from .intervals import Estimate

ADJUDICATED = "the ply limit"
"""What the endings call a game that no end rule ended."""

OVERALL = {
    "balance": ("balance", "1 minus the largest gap between two seats' win rates (1: every seat wins as often)"),
    "completion": ("completion", "games that a team won"),
    "drawishness": ("drawishness", "games that an end rule drew"),
    "timeouts": ("timeouts", "games adjudicated a draw at the ply limit"),
    "first_seat_advantage": ("first-seat advantage", "the first seat's points per game, a draw 1/2 (0.5: none)"),
    "duration": ("duration", "plies per game"),
    "branching_factor": ("branching factor", "legal moves per position"),
    "decision_moves": ("decision moves", "positions with more than one legal move"),
    "board_coverage": ("board coverage", "cells that held a piece at some point of a game"),
    "lead_change": ("lead change", "moves after which the leading team (by evaluation) changed"),
    "decisiveness": ("decisiveness", "share of a won game played before the winner was ahead of anything "
                                     "the others ever reached (lower: decided earlier)"),
}
"""The overall metrics in the order reports show them: key -> (name, what it measures)."""

SHARES = {"completion", "drawishness", "timeouts", "decision_moves", "board_coverage", "lead_change", "decisiveness"}
"""The overall metrics that are shares of games, positions or cells (shown as percentages)."""


def team_results(facts: dict, line: dict) -> list[float]:
    """Per team (in ``facts["teams"]`` order): 1 a win, 0 a loss, 1/2 a draw or shared win."""
    won = {t for t, group in enumerate(facts["teams"]) if set(group) & set(line["winners"])}
    if not won:
        return [0.5] * len(facts["teams"])
    if len(won) > 1:
        return [0.5 if t in won else 0.0 for t in range(len(facts["teams"]))]
    return [1.0 if t in won else 0.0 for t in range(len(facts["teams"]))]


def compute(facts: dict, lines: list[dict]) -> dict:
    """Every metric of the games ``lines`` as a JSON-ready dict (see the module docstring)."""
    players, teams = facts["players"], facts["teams"]
    team_of = {p: t for t, group in enumerate(teams) for p in group}
    results = [team_results(facts, line) for line in lines]
    seat_points = {p: [r[team_of[p]] for r in results] for p in players}
    n = len(lines)
    overall = {
        "balance": balance(players, seat_points).to_json(),
        "completion": intervals.rate(sum(1 for line in lines if line["winners"]), n).to_json(),
        "drawishness": intervals.rate(sum(1 for line in lines if not line["winners"] and line["end"]), n).to_json(),
        "timeouts": intervals.rate(sum(1 for line in lines if line["end"] is None), n).to_json(),
        "first_seat_advantage": intervals.score(seat_points[facts["first"]]).to_json(),
        "duration": _distribution([line["plies"] for line in lines]),
        "branching_factor": intervals.mean([statistics.fmean(line["branching"])
                                            for line in lines if line["branching"]]).to_json(),
        "decision_moves": intervals.mean([decision_share(line["branching"]) for line in lines if line["branching"]],
                                         share=True).to_json(),
        "board_coverage": intervals.mean([line["coverage"] / facts["cells"] for line in lines], share=True).to_json(),
        "lead_change": intervals.mean([lead_change(line["evaluation"]) for line in lines if line["plies"]],
                                      share=True).to_json(),
        "decisiveness": intervals.mean([decisiveness(line["evaluation"], _winning_teams(teams, line))
                                        for line in lines if line["winners"] and line["plies"]], share=True).to_json(),
    }
    return {
        "variant": facts["name"], "mode": facts.get("mode"), "games": n,
        "overall": overall,
        "seats": [{"player": p, **_side([p], lines, seat_points[p], players)} for p in players],
        "teams": [_team(t, group, lines, results, players) for t, group in enumerate(teams)],
        "endings": _counted([line["end"] or ADJUDICATED for line in lines], n, "end"),
        "terminations": _counted([line["termination"] for line in lines], n, "text"),
        "branching_by_ply": branching_by_ply(lines, players),
        "heat": heat(facts["cell_names"], lines),
    }


def balance(players: list[str], seat_points: dict[str, list[float]]) -> Estimate:
    """1 minus the largest difference between two seats' win rates, with a bootstrap interval."""
    outcomes = list(zip(*(seat_points[p] for p in players)))

    def statistic(counts: Counter) -> float:
        total = sum(counts.values())
        wins = [sum(c for outcome, c in counts.items() if outcome[i] == 1.0) / total for i in range(len(players))]
        return 1.0 - (max(wins) - min(wins))

    return intervals.bootstrap(outcomes, statistic)


def decision_share(branching: list[int]) -> float:
    """The share of positions with more than one legal move."""
    return sum(1 for b in branching if b > 1) / len(branching)


def leaders(scores: list[float]) -> frozenset[int]:
    """The teams with the highest score (all of them when tied)."""
    best = max(scores)
    return frozenset(t for t, s in enumerate(scores) if s == best)


def lead_change(evaluation: list[list[float]]) -> float:
    """The share of moves after which the leading teams differ from before (``evaluation`` has one
    row of team scores per position: before each move, and the final one)."""
    moves = len(evaluation) - 1
    if moves < 1:
        return 0.0
    changes = sum(1 for a, b in zip(evaluation, evaluation[1:]) if leaders(a) != leaders(b))
    return changes / moves


def relative(scores: list[float]) -> list[float]:
    """Each team's score minus the mean of the other teams' (the score itself for one team)."""
    k, total = len(scores), sum(scores)
    if k < 2:
        return list(scores)
    return [s - (total - s) / (k - 1) for s in scores]


def decisiveness(evaluation: list[list[float]], winners: set[int]) -> float:
    """The share of the game before a winning team's relative score first exceeds the best relative
    score any other team reached in the game; 1.0 when that never happens."""
    rows = [relative(scores) for scores in evaluation]
    moves = len(rows) - 1
    others = [s for row in rows for t, s in enumerate(row) if t not in winners]
    if moves < 1 or not others:
        return 1.0
    threshold = max(others)
    for i, row in enumerate(rows):
        if any(row[t] > threshold for t in winners):
            return min(i, moves) / moves
    return 1.0


def branching_by_ply(lines: list[dict], players: list[str]) -> list[dict]:
    """Per ply: the mean branching factor over the games that reached it, its quartiles, the number
    of games and the seat that moved there most often (the turn order fixes it in most games)."""
    out = []
    longest = max((len(line["branching"]) for line in lines), default=0)
    for ply in range(longest):
        reached = [line for line in lines if len(line["branching"]) > ply]
        values = sorted(line["branching"][ply] for line in reached)
        quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        mover = Counter(line["movers"][ply] for line in reached).most_common(1)[0][0]
        out.append({"ply": ply, "mean": round(statistics.fmean(values), 3), "q1": quartiles[0], "q3": quartiles[2],
                    "games": len(values), "seat": players[mover] if 0 <= mover < len(players) else None})
    return out


def heat(cell_names: list[str], lines: list[dict]) -> dict:
    """Moves per destination cell and captures per cell, summed over the games (cells by name)."""
    moves, captured = Counter(), Counter()
    for line in lines:
        to = line["to"]
        moves.update(c for c in to if c >= 0)
        captured.update(to[ply] for ply in line["captures"] if to[ply] >= 0)
    return {"moves": {cell_names[c]: k for c, k in sorted(moves.items())},
            "captures": {cell_names[c]: k for c, k in sorted(captured.items())}}


def _winning_teams(teams: list[list[str]], line: dict) -> set[int]:
    return {t for t, group in enumerate(teams) if set(group) & set(line["winners"])}


def _distribution(values: list[int]) -> dict:
    summary = intervals.mean(values).to_json()
    if values:
        summary.update(median=statistics.median(values), min=min(values), max=max(values))
    return summary


def _counted(labels: list[str], n: int, key: str) -> list[dict]:
    """Each distinct label with its count and rate, the most frequent first."""
    return [{key: label, "count": count, "rate": intervals.rate(count, n).to_json()}
            for label, count in sorted(Counter(labels).items(), key=lambda kv: (-kv[1], kv[0]))]


def _record(points: list[float]) -> dict:
    n = len(points)
    wins, losses = points.count(1.0), points.count(0.0)
    draws = n - wins - losses
    return {"games": n, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": intervals.rate(wins, n).to_json(), "draw_rate": intervals.rate(draws, n).to_json(),
            "loss_rate": intervals.rate(losses, n).to_json(), "score": intervals.score(points).to_json()}


def _side(names: list[str], lines: list[dict], points: list[float], players: list[str]) -> dict:
    """The record of the players ``names`` (one seat, or a team) and what they did on their turns."""
    mine = {players.index(p) for p in names}
    branching, captures_per_game = [], []
    for line in lines:
        branching += [b for b, mover in zip(line["branching"], line["movers"]) if mover in mine]
        captures_per_game.append(sum(1 for ply in line["captures"] if line["movers"][ply] in mine))
    agents = Counter(line["seats"].get(name, "?") for line in lines for name in names)
    return {**_record(points),
            "branching_factor": intervals.mean(branching).to_json(),
            "decision_moves": intervals.rate(sum(1 for b in branching if b > 1), len(branching)).to_json(),
            "captures_per_game": intervals.mean(captures_per_game).to_json(),
            "agents": dict(sorted(agents.items()))}


def _team(t: int, group: list[str], lines: list[dict], results: list[list[float]], players: list[str]) -> dict:
    leading = [sum(1 for row in line["evaluation"] if leaders(row) == {t}) / len(line["evaluation"])
               for line in lines if line["evaluation"]]
    return {"players": group, **_side(group, lines, [r[t] for r in results], players),
            "leading": intervals.mean(leading, share=True).to_json()}
