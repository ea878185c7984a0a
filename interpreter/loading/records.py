"""PGN-style game records with a ``Variant`` tag: writing them, and reading them back.

The record follows PGN's export format where it can: a tag section
(``Event``, ``Site``, ``Date``, ``Round``, ``White``, ``Black``, ``Result``,
plus ``Variant`` and, for a game that did not start from the setup,
``SetUp "1"`` and ``FEN``), then the movetext in the variant's SAN-like
notation with move numbers, ending with the result. :func:`read_record`
splits a record into its tags and its moves (the moves are read against a
position by :func:`interpreter.notation.reading.moves_from_text`).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from dsl.errors import Loc, RulesError

from interpreter.compiler.game import Game
from interpreter.engine.outcome import Outcome

from .positions import start_fen as setup_fen


def result_token(game: Game, result: Outcome | None) -> str:
    """PGN's result: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` for an unfinished game."""
    if result is None:
        return "*"
    if not result.winners:
        return "1/2-1/2"
    if len(game.armies) == 2:
        return "1-0" if result.winners == (0,) else "0-1"
    return "*"


def _tag_value(value: str) -> str:
    """A tag value as PGN writes it: ``\\`` and ``"`` escaped, on one line (titles come from a
    rules file and may hold anything)."""
    return " ".join(str(value).replace("\\", "\\\\").replace('"', '\\"').split())


def game_record(game: Game, start_fen: str, sans: list[str], result: Outcome | None,
                players: dict[str, str] | None = None, extra_tags: dict[str, str] | None = None) -> str:
    """The record of a game that started at ``start_fen`` and went through ``sans``; ``players``
    names the player of each army (by army name); ``extra_tags`` replace tags of the same name
    (``Event``, ``Round`` ...) and add the others at the end."""
    token = result_token(game, result)
    tags = {
        "Event": "Casual game", "Site": "rules-dsl", "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": "-",
    }
    for army in game.armies:
        tags[army.title] = (players or {}).get(army.name, "?")
    tags["Result"] = token
    tags["Variant"] = game.name
    if start_fen != setup_fen(game):
        tags["SetUp"] = "1"
        tags["FEN"] = start_fen
    if result is not None:
        tags["Termination"] = result.describe(game)
    tags.update(extra_tags or {})
    lines = [f'[{key} "{_tag_value(value)}"]' for key, value in tags.items()]
    per_round = len(game.turn_order)
    first_turn = int(start_fen.split()[1] != game.armies[game.turn_order[0]].symbol) if len(start_fen.split()) > 1 else 0
    fields = start_fen.split()  # the fullmove number is last, after the clock (and any counts or scores)
    fullmove = int(fields[-1]) if len(fields) > 5 and fields[-1].isdigit() else 1
    words = []
    for i, san in enumerate(sans):
        ply = i + first_turn
        if ply % per_round == 0:
            words.append(f"{fullmove + ply // per_round}.")
        elif i == 0:
            words.append(f"{fullmove}...")
        words.append(san)
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
