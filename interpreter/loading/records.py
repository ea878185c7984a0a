"""PGN-style game records with a ``Variant`` tag: writing them, and reading them back.

The record follows PGN's export format where it can: a tag section
(``Event``, ``Site``, ``Date``, ``Round``, one tag per army with its player
(``White``, ``Black``; ``Red``, ``Blue``, ``Yellow``, ``Green`` ...),
``Result``, plus ``Variant``, ``Mode`` for a game of several play modes,
and, for a game that did not start from the setup, ``SetUp "1"`` and
``FEN``; then ``Termination`` and ``Winners`` for a game that ended), then
the movetext in the variant's SAN-like notation with move numbers, ending
with the result. :func:`read_record` splits a record into its tags and its
moves (the moves are read against a position by
:func:`interpreter.notation.reading.moves_from_text`).

Results. PGN knows four results, ``1-0``, ``0-1``, ``1/2-1/2`` and ``*``,
for two sides; here a side is a team (partners share their results; an
army without partners is a team of its own). :func:`result_token` writes:

- ``1-0`` when the team of the army that moves first in the game's turn
  order (White, Superchess's light team, four-player chess's Red and
  Yellow) won, and ``0-1`` when the other team did, in games of two teams;
- ``1/2-1/2`` for a draw: no army won, or every team did (equal top scores);
- ``*`` for a game that has not ended (or was given up unfinished), and for
  a won game of more than two teams (four-player Free-for-all), where no
  two-sided result is true: the ``Winners`` tag says who won.

A game of more than two armies that someone won gets the tag ``Winners``:
the titles of the armies of the winning teams, in the order the armies are
declared, separated by ``, `` (``[Winners "White, Tan"]``); with two teams it
says which side ``1-0`` is. ``Termination`` says who won in words, with the
rule that ended the game and, in games that score, every army's score
(``Yellow wins by fifty-move rule (scores: Red 4, Blue 72, Yellow 23, Green
73)``). Chess.com's four-player records write the Teams result the same way
(``1-0`` when Red and Yellow win); their Free-for-all ``Result`` holds the
points of each army instead, which PGN readers cannot read.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from dsl.errors import Loc, RulesError, UsageError

from interpreter.compiler.game import Game
from interpreter.engine.outcome import Outcome

from .positions import start_fen as setup_fen


def winning_teams(game: Game, result: Outcome) -> set[int]:
    """The teams (indices into ``game.teams``) that won the game that ended with ``result``: those of
    its winners, a win of one army being a win of its partners."""
    return {game.team_of[army] for army in result.winners}


def result_token(game: Game, result: Outcome | None) -> str:
    """PGN's result of a game that ended with ``result`` (None: not ended): ``1-0`` when the team of
    the first army of the turn order won, ``0-1`` when the other of two teams did, ``1/2-1/2`` when no
    team or every team won, and ``*`` for an unfinished game or one of more than two teams that some
    of them won (see the module docstring)."""
    if result is None:
        return "*"
    won = winning_teams(game, result)
    if not won or len(won) == len(game.teams):
        return "1/2-1/2"
    if len(game.teams) == 2:
        return "1-0" if game.team_of[game.turn_order[0]] in won else "0-1"
    return "*"


def winners_tag(game: Game, result: Outcome) -> str:
    """The value of the ``Winners`` tag: the titles of the armies of the winning teams, in the order
    the armies are declared, separated by ``, `` (empty for a draw)."""
    won = winning_teams(game, result)
    if len(won) == len(game.teams):
        return ""
    return ", ".join(army.title for army in game.armies if game.team_of[army.index] in won)


def _tag_value(value: str) -> str:
    """A tag value as PGN writes it: ``\\`` and ``"`` escaped, on one line (titles come from a
    rules file and may hold anything)."""
    return " ".join(str(value).replace("\\", "\\\\").replace('"', '\\"').split())


def game_record(game: Game, start_fen: str, sans: list[str], result: Outcome | None,
                players: dict[str, str] | None = None, extra_tags: dict[str, str] | None = None,
                clocks: list[float | None] | None = None) -> str:
    """The record of a game that started at ``start_fen`` and went through ``sans``; ``players``
    names the player of each army (by army name); ``extra_tags`` replace tags of the same name
    (``Event``, ``Round`` ...) and add the others at the end. ``clocks``: per move, the seconds left
    on the mover's game clock after it (None, or a list shorter than ``sans``: nothing for that
    move), written after the move as the comment ``{[%clk 0:00:59.12]}`` that chess sites and
    python-chess read; a move after a comment gets its number again (``1... e5``), as PGN writes it."""
    token = result_token(game, result)
    tags = {
        "Event": "Casual game", "Site": "rules-dsl", "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": "-",
    }
    for army in game.armies:
        tags[army.title] = (players or {}).get(army.name, "?")
    tags["Result"] = token
    tags["Variant"] = game.name
    if game.mode:
        tags["Mode"] = game.mode
    if start_fen != setup_fen(game):
        tags["SetUp"] = "1"
        tags["FEN"] = start_fen
    if result is not None:
        tags["Termination"] = result.describe(game)
        winners = winners_tag(game, result) if len(game.armies) > 2 else ""
        if winners:
            tags["Winners"] = winners
    tags.update(extra_tags or {})
    lines = [f'[{key} "{_tag_value(value)}"]' for key, value in tags.items()]
    per_round = len(game.turn_order)
    fields = start_fen.split()  # the side to move second; the fullmove number last (after the clock, counts, scores)
    turn_symbols = [game.armies[army].symbol for army in game.turn_order]
    first_turn = turn_symbols.index(fields[1]) if len(fields) > 1 and fields[1] in turn_symbols else 0
    fullmove = int(fields[-1]) if len(fields) > 5 and fields[-1].isdigit() else 1
    words = []
    shown = list(clocks or [])[:len(sans)]
    shown += [None] * (len(sans) - len(shown))
    for i, (san, left) in enumerate(zip(sans, shown)):
        ply = i + first_turn
        if ply % per_round == 0:
            words.append(f"{fullmove + ply // per_round}.")
        elif i == 0 or shown[i - 1] is not None:
            words.append(f"{fullmove + ply // per_round}...")
        words.append(san)
        if left is not None:
            words.append(clock_comment(left))
    words.append(token)
    text, line = [], ""
    for word in words:
        if len(line) + len(word) + 1 > 79:
            text.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n"


def clock_comment(seconds: float) -> str:
    """The comment ``{[%clk H:MM:SS.ss]}`` of a clock that shows ``seconds`` (0 for less), one word
    (a line of the record is never broken inside it)."""
    hundredths = round(max(0.0, seconds) * 100)
    minutes, rest = divmod(hundredths, 6000)
    return f"{{[%clk {minutes // 60}:{minutes % 60:02d}:{rest // 100:02d}.{rest % 100:02d}]}}"


@dataclass(frozen=True)
class Record:
    """A game record read back: its ``tags`` (name -> value, in order) and its ``movetext`` (moves,
    move numbers and the result, with comments and annotation glyphs removed)."""

    tags: dict[str, str]
    movetext: str


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def read_record(text: str, label: str = "<record>") -> Record:
    """The tags and the movetext of the PGN-style record ``text`` (``label`` names it in errors).

    Tag lines are ``[Name "value"]`` (``\\"`` and ``\\\\`` escaped) before the moves;
    comments (``{...}``, ``;`` to the end of the line) and annotation glyphs (``$1``) are
    dropped; lines starting with ``%`` are skipped, as PGN allows. A tag line that cannot be
    read, a comment that is not closed and a variation in parentheses (which is not the line
    of moves played) are RulesErrors pointing into ``text``.
    """
    tags: dict[str, str] = {}
    kept: list[str] = []
    in_comment: Loc | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("%") and in_comment is None:
            continue
        if stripped.startswith("[") and not any(k.strip() for k in kept) and in_comment is None:
            match = _TAG.fullmatch(stripped)
            if match is None:
                column = line.index("[") + 1
                raise RulesError("cannot read this tag of the game record", Loc(label, number, column, len(line) + 1, text),
                                 expected='a tag line such as [Variant "chess"]')
            tags[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
            continue
        out, column = [], 0
        while column < len(line):
            char = line[column]
            if in_comment is not None:
                if char == "}":
                    in_comment = None
            elif char == "{":
                in_comment = Loc(label, number, column + 1, None, text)
            elif char == ";":
                break
            elif char == "$" and column + 1 < len(line) and line[column + 1].isdigit():
                while column + 1 < len(line) and line[column + 1].isdigit():
                    column += 1
            elif char in "()":
                raise RulesError("the game record has a variation", Loc(label, number, column + 1, None, text),
                                 expected="tags, then the moves played with move numbers and the result",
                                 hint="remove the variations: only the line of moves played is read")
            else:
                out.append(char)
                column += 1
                continue
            out.append(" ")
            column += 1
        kept.append("".join(out))
    if in_comment is not None:
        raise RulesError("the game record has a comment that is not closed", in_comment, expected="'}' to close it")
    return Record(tags, "\n".join(kept))


def read_records(text: str, label: str = "<records>") -> list[Record]:
    """The records of ``text``, a file of one or more records as ``rules match --pgn`` writes them
    (each record's tags, then its moves; blank lines between them). A record starts at a tag line
    that follows moves (or at the first line); each is read by :func:`read_record` under the label
    ``"LABEL, game N"`` (N from 1), so that an error names the record, and its line numbers count
    from the record's first line. A file without moves is no record; an empty file has none."""
    records: list[Record] = []
    chunk: list[str] = []
    moves_seen = False

    def close() -> None:
        if any(line.strip() for line in chunk):
            records.append(read_record("\n".join(chunk), f"{label}, game {len(records) + 1}"))

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and moves_seen:
            close()
            chunk, moves_seen = [], False
        chunk.append(line)
        if stripped and not stripped.startswith(("[", "%")):
            moves_seen = True
    close()
    return records


def won_teams(game: Game, tags: dict[str, str]) -> set[int] | None:
    """The teams (indices into ``game.teams``) that won the game as the tags of its record say: the
    armies the ``Winners`` tag names by title, else the ``Result`` tag (``1-0`` the team of the first
    army of the turn order, ``0-1`` the other of two teams, ``1/2-1/2`` none). None when the tags do
    not say (``*``, no ``Result``, a title or result the game does not have)."""
    if tags.get("Winners"):
        titles = {army.title: army.index for army in game.armies}
        names = tags["Winners"].split(", ")
        if not all(name in titles for name in names):
            return None
        return {game.team_of[titles[name]] for name in names}
    result = tags.get("Result")
    if result == "1/2-1/2":
        return set()
    if result in ("1-0", "0-1") and len(game.teams) == 2:
        first = game.team_of[game.turn_order[0]]
        return {first} if result == "1-0" else {1 - first}
    return None


class RecordsFile:
    """A file of game records written game by game, each flushed as it is added: a match or a
    benchmark that is interrupted keeps every game that finished.

    The file is opened (and emptied) at once, so a path that cannot be written fails with a
    :class:`~dsl.errors.UsageError` before the first game rather than after hours of play.
    Records are separated by a line break (a record of :func:`game_record` ends with its own,
    so an empty line parts them). ``path`` None: no file, nothing counted. A context manager:
    leaving it closes the file.
    """

    def __init__(self, path: str | None) -> None:
        self.out = None
        self.count = 0
        if path:
            try:
                self.out = open(path, "w", encoding="utf-8")
            except OSError as err:
                raise UsageError(f"cannot write {path}: {err.strerror}") from None

    def add(self, record: str) -> None:
        """Append one game's record and flush it."""
        if self.out is not None:
            self.out.write(("\n" if self.count else "") + record)
            self.out.flush()
            self.count += 1

    def close(self) -> None:
        if self.out is not None:
            self.out.close()
            self.out = None

    def __enter__(self) -> RecordsFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
