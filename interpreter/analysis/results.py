"""The run directory: its header, the results file that nothing finished is lost from, and resuming.

A run writes into one directory:

- ``run.json``: the header, written before the first game: the run's
  :class:`Parameters` (everything a game's moves depend on), the number of
  games asked for and the facts about the game that the metrics need
  (:func:`~interpreter.analysis.logs.game_facts`);
- ``results.jsonl``: one JSON object per finished game (see
  :mod:`~interpreter.analysis.logs`), appended and flushed as each game
  finishes, in the order they finish. A run that is killed keeps every
  line written; at worst the last line is cut short, and a resumed run
  drops that unfinished line before it appends;
- ``metrics.json`` and ``report.html`` (and ``figures/``), recomputed from
  the two files above at the end of every run.

``--resume`` reads the header and the results, checks that the parameters
are the run's own (a different seed or agent would mix two experiments; so
would rules or a seat's weights file edited since: the header holds their
digest and weights), and plays only the games whose numbers are not in the file yet; ``--games``
may grow (or shrink: the metrics then use the first games only).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from dsl import UsageError
from dsl.errors import Loc, clip

from .logs import line_fault

HEADER, RESULTS, METRICS, REPORT = "run.json", "results.jsonl", "metrics.json", "report.html"


@dataclass(frozen=True)
class Parameters:
    """What the games of a run depend on: with the game's number, everything that decides its moves."""

    variant: str
    mode: str | None
    options: dict
    seats: list
    seed: int
    opening_plies: int | None
    max_plies: int
    level: str | None
    clock: str | None = None    # the time control (interpreter.agents.clock), as written; None: no clock
    rules: str | None = None    # the rules' digest (interpreter.loading.rules_digest): an edited file is other rules
    weights: list | None = None  # per seat, the weights its weights=FILE gave (a dict), else None


@dataclass
class Run:
    """An open run directory: its parameters, facts, finished games (by index) and the games asked for."""

    directory: Path
    parameters: Parameters
    facts: dict
    games: int
    finished: dict[int, dict]

    @property
    def missing(self) -> list[int]:
        """The numbers of the games still to play, in order."""
        return [i for i in range(self.games) if i not in self.finished]

    def lines(self) -> list[dict]:
        """The finished games among the first :attr:`games`, by index."""
        return [self.finished[i] for i in sorted(self.finished) if i < self.games]


def open_run(directory: Path, parameters: Parameters, facts: dict, games: int, resume: bool) -> Run:
    """Create ``directory`` for a new run, or (``resume``) reopen the run there; raises UsageError
    when a new run would overwrite results, a resumed one has other parameters, or a file of the run
    (``run.json``, ``results.jsonl``, ``metrics.json``, ``report.html``) is there but is no file: all
    before the first game is played."""
    header_path, results_path = directory / HEADER, directory / RESULTS
    for name in (HEADER, RESULTS, METRICS, REPORT):
        if (directory / name).exists() and not (directory / name).is_file():
            raise UsageError(f"{directory / name} is not a file, so the run cannot write it",
                             hint="remove it, or choose another --out")
    if resume and header_path.exists():
        header = read_header(header_path)
        ours = _plain(parameters)
        # A run written before runs had clocks has no "clock": it had none. One written before runs
        # kept their rules' digest and seats' weights cannot be checked for them: it is taken at its word.
        theirs = {"clock": None, "rules": ours["rules"], "weights": ours["weights"], **header["parameters"]}
        differ = [k for k in ours if k not in ("rules", "weights") and theirs.get(k) != ours[k]]
        if differ:
            raise UsageError(f"{directory} holds a run with other parameters ({', '.join(differ)})",
                             expected=", ".join(f"{k}={theirs.get(k)!r}" for k in differ),
                             hint="resume with the run's own parameters, or write to another --out")
        _same_inputs(directory, theirs, ours)
        finished = read_results(results_path)
    else:
        if results_path.exists() and results_path.stat().st_size and not resume:
            raise UsageError(f"{directory} already holds the results of a run",
                             hint="add --resume to continue it, or choose another --out")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            why = "a file of that name is there" if directory.is_file() else err.strerror
            raise UsageError(f"cannot create the run's directory {directory}: {why}",
                             hint="choose another --out") from None
        finished = read_results(results_path) if resume else {}
        if finished:
            raise UsageError(f"{results_path} has results but {header_path} is missing",
                             hint="a run cannot be resumed without its header; choose another --out")
    run = Run(directory, parameters, facts, games, finished)
    _write_json(header_path, {"parameters": _plain(parameters), "games": games, "game": facts})
    return run


def _same_inputs(directory: Path, theirs: dict, ours: dict) -> None:
    """Refuse to resume a run whose rules, or a seat's weights file, say something else than when
    its games were played: the new games would be of another game, or another player. The other
    parameters are the run's own (the same seats among them)."""
    if theirs["rules"] != ours["rules"]:
        raise UsageError(f"{directory} holds a run of other rules: {clip(str(ours['variant']))} has changed "
                         "since its games were played (a piece, the setup, an end rule or a weight)",
                         hint="restore the rules to resume the run, or write the new rules' run to another --out")
    before = theirs["weights"] if isinstance(theirs["weights"], list) else []   # a header may be edited
    for seat, now in enumerate(ours["weights"], 1):
        was = before[seat - 1] if seat <= len(before) else None
        if was != now:
            was, now = was if isinstance(was, dict) else {}, now or {}
            changed = [name for name in sorted({*was, *now}) if was.get(name) != now.get(name)]
            raise UsageError(f"{directory} holds a run in which seat {seat} ({clip(str(ours['seats'][seat - 1]))}) "
                             "played with other weights: its weights file has changed since",
                             expected=", ".join(f"{name} {was.get(name, 'none')} (the file now gives "
                                                f"{now.get(name, 'none')})" for name in changed),
                             hint="restore the weights file to resume the run, or write to another --out")


def read_results(path: Path) -> dict[int, dict]:
    """The games of a results file by index. An unfinished last line (one without its line break: a
    killed run) is cut off the file, and its game is played again. A line before it that is not JSON,
    or not a game's line (:func:`~interpreter.analysis.logs.line_fault`: another file, a line edited
    or cut short), is bad input: a UsageError located at that line, and nothing is changed. So is a
    file that cannot be read or cut (a directory, no permission)."""
    if not path.exists():
        return {}
    try:
        data = path.read_bytes()
        end = data.rfind(b"\n") + 1
        games = _games(path, data[:end].decode("utf-8", errors="replace"))
        if end < len(data):
            with open(path, "r+b") as out:
                out.truncate(end)
    except OSError as err:
        raise UsageError(f"cannot read the results of the run, {path}: {err.strerror}",
                         hint="give --out the directory of a run, or a new one") from None
    return games


def _games(path: Path, text: str) -> dict[int, dict]:
    """The games of a results file's complete lines ``text`` by index, the first line of an index
    winning; each line is checked (see :func:`read_results`)."""
    games: dict[int, dict] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            fault = line_fault(game)
        except (ValueError, RecursionError):  # RecursionError: arrays or objects nested too deeply
            fault = "not JSON"
        if fault is not None:
            raise UsageError(f"not a line of a results file: {fault}", Loc(str(path), number, 1, None, clip(line, 200)),
                             expected="one JSON object per line, as a run writes it (docs/analysis.md, 'The files')")
        games.setdefault(game["index"], game)
    return games


class ResultsWriter:
    """Appends one line per finished game to ``results.jsonl``, flushed at once."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.file = open(run.directory / RESULTS, "a", encoding="utf-8")

    def add(self, line: dict) -> None:
        self.file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.file.flush()
        self.run.finished.setdefault(line["index"], line)

    def close(self) -> None:
        self.file.close()


def write_metrics(run: Run, metrics: dict) -> Path:
    path = run.directory / METRICS
    _write_json(path, metrics)
    return path


def read_header(path: Path) -> dict:
    """The header of a run (its ``run.json`` at ``path``): a dict with ``parameters``; a UsageError
    for a file that cannot be read or is not a run's header. Its values are as the file gives them."""
    try:
        header = json.loads(path.read_text(encoding="utf-8"))
        header["parameters"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise UsageError(f"{path} is not the header of a run", hint="choose another --out") from None
    return header


def _plain(parameters: Parameters) -> dict:
    """The parameters as JSON gives them back (tuples as lists)."""
    return json.loads(json.dumps(asdict(parameters)))


def _write_json(path: Path, value) -> None:
    """Write ``value`` to ``path`` whole or not at all (a temporary file renamed over it)."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None
