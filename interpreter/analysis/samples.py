"""The positions ``rules tune`` fits to: quiet positions of finished games, each with its game's result.

A game comes as its record (PGN style, :mod:`interpreter.loading.records`:
a line of ``results.jsonl``, or a record of a file that ``rules match
--pgn`` or ``rules play --pgn`` wrote). Its moves are played from the
record's start (its ``FEN`` tag, else the setup), and these positions are
kept, as Texel's method takes them:

- not those of the first :data:`SKIPPED_ROUNDS` rounds of the turn order
  (8 plies of chess): self-play games open with random moves;
- only *quiet* ones: the side to move is not in check, the move before it
  captured nothing, and the move played from it neither captures nor
  promotes. In the middle of an exchange the static evaluation is off by
  what the exchange is about to decide, which is no fault of its weights;
- not the last position (the game is over there).

Each is labelled with the result for the team of the army to move: 1 when
that team won, 0 when another team won, 1/2 for a draw, a win every team
shares, or a game stopped at its ply cap (adjudicated a draw). The result
is the end the moves reach by the rules, else what the record's tags say
(a resignation, an adjudication: :func:`~interpreter.loading.records.won_teams`);
a game whose result the record does not give (``*``, unfinished) gives no
position. With a teacher (:mod:`.teacher`), each is labelled instead with
the result the teacher's score predicts, and unfinished games count too.
A record of another variant or mode is an error.

The positions' terms (:class:`~interpreter.agents.terms.Terms`) are what
the fit reads; at most :data:`MAX_POSITIONS` positions are kept, from the
first games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dsl import UsageError
from dsl.errors import RulesError, clip

from interpreter.agents.terms import Terms
from interpreter.engine.outcome import outcome
from interpreter.loading import position_from_fen, start_position
from interpreter.loading.records import Record, won_teams
from interpreter.notation.reading import moves_from_text
from interpreter.notation.terms import captures, is_drop

from .teacher import Teacher

SKIPPED_ROUNDS = 4
"""Rounds of the turn order at the start of each game whose positions are left out."""
MAX_POSITIONS = 200_000
"""The most positions kept (those of later games are left out)."""


@dataclass
class Samples:
    """Positions by game: ``terms`` (per position, the terms in the order of
    :data:`~interpreter.agents.terms.NAMES`), ``results`` (1, 1/2 or 0 for the side to move's team) and
    ``games`` (the number of the game each comes from, counting the games read from 0); ``read``
    counts the games read, ``unfinished`` those without a result."""

    terms: list[list[float]] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    read: int = 0
    unfinished: int = 0

    @property
    def full(self) -> bool:
        return len(self.results) >= MAX_POSITIONS


def collect(game, records: list[tuple[str, Record]], teacher: Teacher | None = None,
            on_game: Callable[[], None] | None = None) -> Samples:
    """The quiet positions of ``records`` (games of ``game``, each with the name an error calls it
    by, such as ``games.pgn, game 3``), labelled by their games' results or by ``teacher``;
    ``on_game`` is called after each game. A record that cannot be played (another variant or
    mode, a bad FEN, an illegal move) is a RulesError that names it."""
    samples = Samples()
    terms = Terms(game)
    for name, record in records:
        if samples.full:
            break
        _collect_one(game, terms, name, record, samples, teacher)
        samples.read += 1
        if on_game is not None:
            on_game()
    return samples


def _collect_one(game, terms: Terms, name: str, record: Record, samples: Samples, teacher: Teacher | None) -> None:
    tags = record.tags
    for tag, own in (("Variant", game.name), ("Mode", game.mode or "")):
        if tags.get(tag, own) != own:
            raise UsageError(f"{name} is a game of the {tag.lower()} '{clip(tags[tag], 40)}', not '{own}'",
                             hint="tune a variant on games of it")
    try:
        pos = position_from_fen(game, tags["FEN"]) if "FEN" in tags else start_position(game)
        moves = moves_from_text(pos, " ".join(record.movetext.split()))   # one line: an error shows it
    except RulesError as err:
        err.message = f"{name}: {err.message}"
        raise
    ended = outcome(pos)
    won = {game.team_of[a] for a in ended.winners} if ended is not None else won_teams(game, tags)
    if won is None:
        samples.unfinished += 1
        if teacher is None:
            return
    if teacher is not None:
        teacher.new_game()
    for _ in moves:
        pos.pop()
    skipped = SKIPPED_ROUNDS * len(game.turn_order)
    captured = False
    for ply, move in enumerate(moves):
        capture = captures(pos, move)
        promotion = bool(move[2]) and not is_drop(move)
        if ply >= skipped and not (captured or capture or promotion) and not pos.in_check() and not samples.full:
            team = game.team_of[pos.army]
            samples.terms.append(terms.of(pos, team))
            samples.results.append(_result(team, won, len(game.teams)) if teacher is None
                                   else teacher.label(pos, f"{name}, ply {ply + 1}"))
            samples.games.append(samples.read)
        captured = capture
        pos.push(move)


def _result(team: int, won: set[int], teams: int) -> float:
    """``team``'s result when the teams ``won`` won: 1 alone, 0 when others did without it, 1/2 for a
    draw or a shared win."""
    if not won or len(won) == teams:
        return 0.5
    if team not in won:
        return 0.0
    return 1.0 if len(won) == 1 else 0.5
