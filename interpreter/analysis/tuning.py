"""``rules tune``: the evaluation's weights fitted to games, and the rules file that carries them.

The games are self-play games kept in a run directory as ``rules analyze``
keeps them (:func:`.runs.play_run`: ``results.jsonl``, one line per
finished game with its record, so an interrupted run is resumed), or the
records of a file that ``rules match --pgn`` or ``rules play --pgn`` wrote,
or a run directory of ``rules analyze`` (:func:`records_in`). Their quiet
positions (:mod:`.samples`) are split by game: every :data:`HOLD_OUT`-th
game (the 5th, 10th, ...) is held out, the others fitted
(:func:`interpreter.agents.texel.fit`), so the error on the held-out games
tells whether the fit learnt the game or the sample.

:func:`tuned_rules` writes the result as a rules file that ``extends`` the
variant and holds an ``ai`` block of the fitted weights, with comments
saying where they come from.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dsl import UsageError
from dsl.errors import clip

from interpreter.agents.terms import NAMES
from interpreter.agents.texel import BOUNDS, Fit, fit
from interpreter.loading.records import Record, read_record, read_records

from .results import RESULTS, read_results
from .samples import Samples, collect
from .teacher import Teacher

HOLD_OUT = 5
"""Every HOLD_OUT-th game read is held out of the fit (with fewer games, none is)."""
MAX_RECORDS_BYTES = 256 * 1024 * 1024
"""The largest records file ``--from`` reads."""
COMMENT = 200
"""The most characters of a path or a spec written into the tuned file's comments."""


@dataclass
class Tuned:
    """What :func:`tune` found: the positions (:class:`~.samples.Samples`), the :class:`Fit`, and the
    spec of the teacher that labelled the positions (None: their games' results did)."""

    samples: Samples
    fit: Fit
    teacher: str | None = None


def tune(game, records: list[tuple[str, Record]], teacher: Teacher | None = None,
         on_game: Callable[[], None] | None = None) -> Tuned:
    """Fit the weights of ``game``'s evaluation to the quiet positions of ``records`` (named games, see
    :func:`.samples.collect`), labelled by their results or by ``teacher``, from the weights its rules
    file gives (1 where it gives none); ``on_game`` is called after each game read. A UsageError when
    nothing can be fitted (see :func:`interpreter.agents.texel.fit`)."""
    samples = collect(game, records, teacher, on_game)
    if not samples.results:
        counted = samples.read if teacher else samples.read - samples.unfinished
        without = f" (and {samples.unfinished} without a result)" if samples.unfinished and not teacher else ""
        raise UsageError(f"no quiet position in {counted} {'' if teacher else 'finished '}"
                         f"game{'s' if counted != 1 else ''}{without}",
                         hint="play more games (--games), or longer ones")
    terms = np.array(samples.terms, dtype=float)
    results = np.array(samples.results, dtype=float)
    games = np.array(samples.games)
    held = (games % HOLD_OUT == HOLD_OUT - 1) if samples.read >= HOLD_OUT else np.zeros(len(results), dtype=bool)
    start = {name: float(game.spec.ai.weights.get(name, 1.0)) for name in NAMES}
    return Tuned(samples, fit(terms[~held], results[~held], start, games[~held], terms[held], results[held]),
                 teacher.spec.label if teacher else None)


def records_in(path: Path) -> list[tuple[str, Record]]:
    """The games of ``--from``: the records of a run directory (its ``results.jsonl``: of ``rules
    analyze`` or ``rules tune``), or of a file of PGN-style records; each named for errors. What
    cannot be read is a UsageError (or a RulesError located in the record)."""
    if path.is_dir():
        lines = read_results(path / RESULTS)
        if not lines:
            raise UsageError(f"{clip(str(path))} holds no results of a run", hint=f"a run directory has a {RESULTS}")
        return run_records(path, [lines[index] for index in sorted(lines)])
    try:
        if path.stat().st_size > MAX_RECORDS_BYTES:
            raise UsageError(f"{clip(str(path))} is larger than {MAX_RECORDS_BYTES // 2 ** 20} MB",
                             hint="give the games in a smaller file")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "not UTF-8 text"
        raise UsageError(f"cannot read the records {clip(str(path))}: {reason.lower()}",
                         expected="a file of game records (rules match --pgn) or a run directory") from None
    label = str(path)
    return [(f"{label}, game {number}", record) for number, record in enumerate(read_records(text, label), 1)]


def run_records(directory: Path, lines: list[dict]) -> list[tuple[str, Record]]:
    """The records of the results ``lines`` of the run in ``directory``, each named by the run's
    results file and the game's number; a line without a record is a UsageError."""
    records = []
    for line in lines:
        name = f"{directory / RESULTS}, game {line['index']}"
        if not isinstance(line.get("record"), str):
            raise UsageError(f"{name} has no game record", hint="a run of rules analyze or rules tune keeps one")
        records.append((name, read_record(line["record"], name)))
    return records


def default_out(variant: str, game) -> Path:
    """Where the tuned file goes when ``--out`` is not given: ``NAME-tuned.rules`` beside a variant
    named by its path, in the current directory for a bundled one."""
    path = Path(variant)
    if is_path(variant):
        return path.with_name(f"{path.stem}-tuned.rules")
    return Path(f"{game.name}-tuned.rules")


def is_path(variant: str) -> bool:
    """Does ``variant`` name a rules file by its path (rather than a bundled variant by name)?"""
    path = Path(variant)
    return path.suffix == ".rules" or path.is_file()


def extends_line(variant: str, out: Path) -> tuple[str, bool]:
    """The ``extends`` line of the tuned file ``out`` for ``variant``, and whether loading it needs
    ``--include-dir`` (a variant outside the tuned file's directory)."""
    if not is_path(variant):
        return f"extends {variant}", False
    relative = Path(os.path.relpath(Path(variant).resolve(), out.resolve().parent)).as_posix()
    quoted = relative.replace("\\", "\\\\").replace('"', '\\"')
    return f'extends "{quoted}"', relative.startswith("../")


def tuned_rules(variant: str, game, tuned: Tuned, out: Path, source: str) -> str:
    """The text of the tuned rules file ``out``: comments on the fit, ``extends`` the variant, and the
    ``ai`` block of every weight (each with its start value). ``source`` says which games: "200
    self-play games (ai:alphabeta:nodes=1000, seed 0)"; it and the teacher's spec are clipped to
    :data:`COMMENT` characters, control characters escaped, so that each stays on its comment line."""
    f = tuned.fit
    lines = [f"# Evaluation weights of {game.name} fitted by 'rules tune' (Texel's method, docs/agents.md) to",
             f"# {f.positions:,} quiet positions of {clip(source, COMMENT)}, each labelled by",
             f"# the result the score of {clip(tuned.teacher, COMMENT)} predicts." if tuned.teacher
             else "# its game's result.",
             f"# Mean squared error of the predicted results: {f.error_start:.4f} with the start weights, "
             f"{f.error:.4f} tuned;"]
    if f.held_out_start is not None:
        lines.append(f"# on {f.held_out_positions:,} positions of held-out games: {f.held_out_start:.4f}, "
                     f"{f.held_out_error:.4f}.")
    if f.intervals is not None:
        lines.append("# 95% intervals by resampling the games: " + ", ".join(
            f"{name} {interval(f.intervals[name])}" for name in NAMES if name not in f.fixed) + ".")
    if f.fixed:
        lines.append(f"# Not fitted (their terms are zero in almost every position): {', '.join(f.fixed)}.")
    if game.mode:
        lines.append(f"# Fitted in mode {game.mode}; the weights apply to every mode.")
    line, _ = extends_line(variant, out)
    lines += [line, "", "ai {"]
    for name in NAMES:
        note = ("not fitted" if name in f.fixed else f"start {number(f.start[name])}"
                + (", the fit's upper bound" if at_upper_bound(f, name) else ""))
        lines.append(f"  weight {name:<9} {number(f.weights[name]):<6}  # {note}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def at_upper_bound(fit: Fit, name: str) -> bool:
    """Did the fitted weight ``name`` stop at the fit's upper bound (:data:`~interpreter.agents.texel.BOUNDS`)?
    Its games would have had it higher."""
    return name not in fit.fixed and fit.weights[name] >= BOUNDS[1]


def number(value: float) -> str:
    """A weight as the file writes it: three decimals at most, no trailing zeros."""
    return f"{round(value, 3):g}"


def interval(ends: tuple[float, float]) -> str:
    """A weight's interval as printed: ``0.82-1.16``."""
    return f"{number(ends[0])}-{number(ends[1])}"


def write_new(path: Path, text: str) -> str | None:
    """Write ``text`` to ``path``, which must not exist (it is never overwritten). None when it is
    written, else why not (it appeared meanwhile, a directory is missing, no permission): the caller
    then prints the text instead, so that nothing is lost."""
    try:
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(text)
        return None
    except FileExistsError:
        return "it exists, and rules tune never overwrites a file"
    except OSError as err:
        return (err.strerror or str(err)).lower()

