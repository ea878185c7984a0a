"""``report.html``: one self-contained page of a run's metrics, tables and figures.

Everything is inside the file: the figures are SVG documents embedded as
``data:`` images (each keeps its own ids, and nothing is fetched), and the
page has no script. The figures are also written one per file into
``figures/`` beside it (win_rates.svg, lengths.svg, branching.svg,
moves.svg, captures.svg), for a document that wants to show one of them.
The page is computed from the metrics and the results file only, so it can
be redrawn at any time (``rules analyze ... --resume`` with nothing left to
play does just that).
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from dsl import UsageError

from . import figures
from .metrics import OVERALL, SHARES
from .results import REPORT, Run

FIGURES = "figures"

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.muted { color: #666; font-size: 0.85em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.85em; }
.maps { display: flex; flex-wrap: wrap; gap: 1.5em; } .maps img { max-width: 28em; width: 100%; }
"""


def write_report(run: Run, game, metrics: dict) -> Path:
    """Write ``report.html`` and ``figures/*.svg`` into the run's directory; returns the page's path."""
    lines = run.lines()
    pictures = {
        "win_rates": ("Wins, draws and losses per seat, with their 95% intervals.", figures.win_rates(metrics)),
        "lengths": ("Plies per game, by how the games ended (dashed: the median).", figures.lengths(metrics, lines)),
        "branching": ("Legal moves per position over the game, for each seat on its turns: the mean, and the "
                      "middle half of the games.",
                      figures.branching(metrics)),
        "moves": ("Where moves went: moves per destination cell, over every game.",
                  figures.heat_map(game, metrics["heat"]["moves"], "moves ending on each cell")),
        "captures": ("Where captures happened: captures per cell, over every game.",
                     figures.heat_map(game, metrics["heat"]["captures"], "captures on each cell")),
    }
    folder = run.directory / FIGURES
    try:
        folder.mkdir(exist_ok=True)
        for name, (_, svg) in pictures.items():
            (folder / f"{name}.svg").write_text(svg, encoding="utf-8")
        path = run.directory / REPORT
        path.write_text(page(run, metrics, pictures), encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write the report in {run.directory}: {err.strerror}") from None
    return path


def page(run: Run, metrics: dict, pictures: dict[str, tuple[str, str]]) -> str:
    """The HTML text of the report."""
    p = run.parameters
    title = f"{metrics['variant']}{' (' + metrics['mode'] + ')' if metrics['mode'] else ''}"
    options = ", ".join(f"{k}={v}" for k, v in sorted(p.options.items()))
    done = f"{metrics['games']} games" + (f" of {run.games} asked for" if metrics["games"] < run.games else "")
    head = [f"<h1>Self-play analysis: {escape(title)}</h1>",
            f'<p>{escape(done)}; {escape(_agents(p.seats))}; seed {p.seed}; '
            f"opening {'two rounds of' if p.opening_plies is None else p.opening_plies} random plies; "
            f"a draw after {p.max_plies} plies{'; options ' + escape(options) if options else ''}.</p>"]
    body = head + ["<h2>Overall</h2>", _overall(metrics),
                   "<h2>Seats</h2>", _sides(metrics["seats"], "seat")]
    if any(len(team["players"]) > 1 for team in metrics["teams"]):
        body += ["<h2>Teams</h2>", _sides(metrics["teams"], "team")]
    body += ["<h2>How games end</h2>", _endings(metrics), "<h2>Figures</h2>"]
    for name in ("win_rates", "lengths", "branching"):
        body.append(_figure(*pictures[name], name))
    body.append('<div class="maps">' + "".join(_figure(*pictures[name], name) for name in ("moves", "captures"))
                + "</div>")
    body.append('<p class="muted">Made by <code>rules analyze</code>. Intervals are 95%: Wilson\'s for rates, '
                "the normal one for means, a bootstrap over games for balance.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Analysis: {escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _agents(seats: list[str]) -> str:
    if len(seats) == 1:
        return f"{seats[0]} on every seat (self-play)"
    return f"agents {', '.join(seats)} (the teams rotate among them from game to game)"


def number(value: float | None, share: bool) -> str:
    """A metric's value for people: a percentage for a share, three digits otherwise, "-" for none."""
    if value is None:
        return "-"
    if share:
        return f"{100 * value:.1f}%"
    return f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"


def interval(estimate: dict, share: bool) -> str:
    """``[low, high]`` of an estimate, or nothing when it has no interval."""
    if estimate.get("low") is None:
        return ""
    return f"[{number(estimate['low'], share)}, {number(estimate['high'], share)}]"


def _overall(metrics: dict) -> str:
    rows = ["<tr><th>metric</th><th>value</th><th>95% interval</th><th>games</th><th>what it measures</th></tr>"]
    for key, (name, meaning) in OVERALL.items():
        estimate = metrics["overall"][key]
        share = key in SHARES
        extra = ""
        if key == "duration" and estimate.get("median") is not None:
            extra = f" (median {estimate['median']:g}, {estimate['min']}&ndash;{estimate['max']})"
        rows.append(f"<tr><td>{escape(name)}</td><td class=\"n\">{number(estimate['value'], share)}</td>"
                    f"<td class=\"n\">{interval(estimate, share)}</td><td class=\"n\">{estimate['n']}</td>"
                    f"<td>{escape(meaning)}{extra}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _sides(sides: list[dict], kind: str) -> str:
    rows = [f"<tr><th>{kind}</th><th>agents (games)</th><th>W</th><th>D</th><th>L</th><th>win rate</th>"
            "<th>score</th><th>branching</th><th>decision moves</th><th>captures / game</th>"
            + ("<th>leads alone</th>" if kind == "team" else "") + "</tr>"]
    for side in sides:
        name = side.get("player") or " + ".join(side["players"])
        agents = ", ".join(f"{escape(a)} ({k})" for a, k in side["agents"].items())
        cells = [f"{number(side['win_rate']['value'], True)} "
                 f"<span class=\"muted\">{interval(side['win_rate'], True)}</span>",
                 f"{number(side['score']['value'], False)} <span class=\"muted\">{interval(side['score'], False)}</span>",
                 number(side["branching_factor"]["value"], False), number(side["decision_moves"]["value"], True),
                 number(side["captures_per_game"]["value"], False)]
        if kind == "team":
            cells.append(number(side["leading"]["value"], True))
        rows.append(f"<tr><td>{escape(name)}</td><td>{agents}</td><td class=\"n\">{side['wins']}</td>"
                    f"<td class=\"n\">{side['draws']}</td><td class=\"n\">{side['losses']}</td>"
                    + "".join(f'<td class="n">{c}</td>' for c in cells) + "</tr>")
    return "<table>" + "".join(rows) + "</table>"


def _endings(metrics: dict) -> str:
    parts = []
    for key, label in (("endings", "end rule"), ("terminations", "result")):
        rows = [f"<tr><th>{label}</th><th>games</th><th>share</th><th>95% interval</th></tr>"]
        for row in metrics[key]:
            rows.append(f"<tr><td>{escape(str(row['end' if key == 'endings' else 'text']))}</td>"
                        f"<td class=\"n\">{row['count']}</td><td class=\"n\">{number(row['rate']['value'], True)}</td>"
                        f"<td class=\"n\">{interval(row['rate'], True)}</td></tr>")
        parts.append("<table>" + "".join(rows) + "</table>")
    return "\n".join(parts)


def _figure(caption: str, svg: str, name: str) -> str:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<figure id="figure-{name}"><img alt="{escape(caption)}" src="data:image/svg+xml;base64,{data}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")
