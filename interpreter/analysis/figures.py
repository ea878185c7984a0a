"""The report's figures, as SVG text: charts drawn with matplotlib, heat maps on the variant's own board.

matplotlib (not Vega-Lite through Altair): its SVG is complete in itself,
so the report is one HTML file that needs no script, no network and no
browser to be drawn (a Vega-Lite chart is a JSON spec that a JavaScript
runtime renders in the browser, and rendering it to a static image needs a
further package); the same SVG goes into the documentation unchanged.
matplotlib is imported only here, through its object API (``Figure``, no
pyplot: no global state, no GUI backend), and its output is made
deterministic (no date, fixed ids).

- :func:`win_rates`: wins, draws and losses per seat, with 95% intervals;
- :func:`lengths`: the histogram of game lengths in plies, by how games ended;
- :func:`branching`: the branching factor over the game, per seat (mean and quartiles);
- :func:`heat_map`: a count per cell, coloured on the board as
  :func:`~interpreter.drawing.render.render_svg` draws it (any board shape),
  with a colour scale.
"""

from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape

from interpreter.drawing.render import Diagram, render_svg

WIDTH, HEIGHT = 6.4, 3.4          # inches (at 72 points each in the SVG)
OUTCOME_COLOURS = {"win": "#2f7d4f", "draw": "#9aa3ad", "loss": "#b5473a"}
HEAT_MAP = "YlOrRd"
BRANCHING_SHARE = 0.1
"""The branching curve stops where fewer than this share of the games are still going."""


def _figure():
    import matplotlib
    from matplotlib.figure import Figure
    matplotlib.rcParams["svg.hashsalt"] = "rules-dsl"
    matplotlib.rcParams["font.family"] = "DejaVu Sans"
    figure = Figure(figsize=(WIDTH, HEIGHT), layout="constrained")
    return figure, figure.add_subplot()


def _svg(figure) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    return text[text.index("<svg"):]   # no XML prologue: the SVG goes inside HTML


def _name(metrics: dict) -> str:
    return metrics["variant"] + (f" ({metrics['mode']})" if metrics.get("mode") else "")


def win_rates(metrics: dict) -> str:
    """Grouped bars: each seat's win, draw and loss rates with their 95% intervals."""
    figure, axes = _figure()
    seats = metrics["seats"]
    width = 0.26
    for k, kind in enumerate(("win", "draw", "loss")):
        rates = [seat[f"{kind}_rate"] for seat in seats]
        xs = [i + (k - 1) * width for i in range(len(seats))]
        values = [r["value"] or 0.0 for r in rates]
        errors = [[v - (r["low"] if r["low"] is not None else v) for v, r in zip(values, rates)],
                  [(r["high"] if r["high"] is not None else v) - v for v, r in zip(values, rates)]]
        axes.bar(xs, values, width, yerr=errors, capsize=3, color=OUTCOME_COLOURS[kind], label={"win": "wins", "draw": "draws", "loss": "losses"}[kind],
                 error_kw={"elinewidth": 1, "ecolor": "#222222"})
    axes.set_xticks(range(len(seats)), [seat["player"] for seat in seats])
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games")
    axes.set_title(f"{_name(metrics)}: results per seat ({metrics['games']} games, 95% intervals)", fontsize=10)
    axes.legend(frameon=False, ncols=3, loc="upper center", fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    return _svg(figure)


def lengths(metrics: dict, lines: list[dict]) -> str:
    """Histogram of plies per game, stacked by ending: a win of each seat, a draw, the ply limit."""
    figure, axes = _figure()
    groups: dict[str, list[int]] = {}
    for line in lines:
        if line["end"] is None:
            label = "ply limit"
        elif line["winners"]:
            label = " & ".join(line["winners"]) + " won"
        else:
            label = "drawn"
        groups.setdefault(label, []).append(line["plies"])
    seats = [seat["player"] for seat in metrics["seats"]]
    wins = sorted((g for g in groups if g not in ("drawn", "ply limit")),
                  key=lambda g: [seats.index(p) if p in seats else len(seats) for p in g[:-len(" won")].split(" & ")])
    order = wins + [g for g in ("drawn", "ply limit") if g in groups]
    palette = ["#2f7d4f", "#3b6ea8", "#c58b2b", "#7a4fa0", "#2a9d9d", "#a84a7a"]
    colours = [OUTCOME_COLOURS["draw"] if g == "drawn" else "#5b5b5b" if g == "ply limit" else palette[i % len(palette)]
               for i, g in enumerate(order)]
    longest = max((line["plies"] for line in lines), default=1)
    bins = min(40, max(5, longest // 5))
    axes.hist([groups[g] for g in order], bins=bins, range=(0, max(longest, 1)), stacked=True, color=colours,
              label=order)
    median = metrics["overall"]["duration"].get("median")
    if median is not None:
        axes.axvline(median, color="#222222", linestyle="--", linewidth=1)
        axes.text(median, axes.get_ylim()[1] * 0.95, f" median {median:g}", fontsize=8, va="top")
    axes.set_xlabel("plies")
    axes.set_ylabel("games")
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.set_title(f"{_name(metrics)}: game length", fontsize=10)
    axes.legend(frameon=False, fontsize=8)
    return _svg(figure)


def branching(metrics: dict) -> str:
    """Mean legal moves per ply, one line per seat (through the plies it moves) with its quartiles,
    as long as enough games are still going."""
    figure, axes = _figure()
    enough = max(2, BRANCHING_SHARE * metrics["games"])
    rows = [row for row in metrics["branching_by_ply"] if row["games"] >= enough] or metrics["branching_by_ply"][:1]
    seats = [seat["player"] for seat in metrics["seats"]]
    palette = ["#1f4e8c", "#b5473a", "#2f7d4f", "#c58b2b", "#7a4fa0", "#2a9d9d"]
    for i, seat in enumerate(seats):
        mine = [row for row in rows if row["seat"] == seat]
        if not mine:
            continue
        plies = [row["ply"] for row in mine]
        colour = palette[i % len(palette)]
        axes.fill_between(plies, [row["q1"] for row in mine], [row["q3"] for row in mine], color=colour, alpha=0.15,
                          linewidth=0)
        axes.plot(plies, [row["mean"] for row in mine], color=colour, linewidth=1.5, label=f"{seat} to move")
    axes.set_xlabel("ply")
    axes.set_ylabel("legal moves")
    axes.set_ylim(bottom=0)
    share = round(100 * BRANCHING_SHARE)
    axes.set_title(f"{_name(metrics)}: branching factor (while {share}% of the games or more go on)", fontsize=10)
    axes.legend(frameon=False, fontsize=8, title="mean and quartiles", title_fontsize=8)
    axes.grid(alpha=0.3)
    return _svg(figure)


def heat_map(game, counts: dict[str, int], title: str) -> str:
    """The board of ``game`` with each cell coloured by its count (cells by name; a cell not named
    counts 0), on a scale from the least count of a cell to the greatest."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex
    scale = colormaps[HEAT_MAP]
    index = game.board.index
    values = [counts.get(name, 0) for name in index]
    low, top = min(values), max(values)
    span = top - low
    heat = {cell: to_hex(scale((counts.get(name, 0) - low) / span if span else 0.0)) for name, cell in index.items()}
    board = render_svg(game, Diagram(heat=heat), title=title)
    width, height = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', board).groups())
    stops = "".join(f'<stop offset="{k / 10:g}" stop-color="{to_hex(scale(k / 10))}"/>' for k in range(11))
    size = max(1.0, width / 500)     # the scale grows with the board, so that it reads alike when both are shrunk
    bar_w, bar_h, top_y = width * 0.5, 12 * size, height + 14 * size
    left = (width - bar_w) / 2
    font = f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{11 * size:g}" fill="#333333"'
    legend = (f'<defs><linearGradient id="heat-scale">{stops}</linearGradient></defs>'
              f'<rect x="{left:g}" y="{top_y:g}" width="{bar_w:g}" height="{bar_h:g}" fill="url(#heat-scale)" '
              f'stroke="#888888" stroke-width="0.5"/>'
              f'<text x="{left - 6 * size:g}" y="{top_y + 10 * size:g}" text-anchor="end" {font}>{low:,}</text>'
              f'<text x="{left + bar_w + 6 * size:g}" y="{top_y + 10 * size:g}" {font}>{top:,}</text>'
              f'<text x="{width / 2:g}" y="{top_y + bar_h + 15 * size:g}" text-anchor="middle" {font}>'
              f'{escape(title)}</text>')
    total_h = top_y + bar_h + 24 * size
    inner = board[board.index("<svg"):]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width:g}" height="{total_h:g}" viewBox="0 0 {width:g} {total_h:g}">'
            f'<rect width="{width:g}" height="{total_h:g}" fill="#ffffff"/>{inner}{legend}</svg>\n')
