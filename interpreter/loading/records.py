"""PGN-style game records with a ``Variant`` tag.

The record follows PGN's export format where it can: a tag section
(``Event``, ``Site``, ``Date``, ``Round``, ``White``, ``Black``, ``Result``,
plus ``Variant`` and, for a game that did not start from the setup,
``SetUp "1"`` and ``FEN``), then the movetext in the variant's SAN-like
notation with move numbers, ending with the result.
"""

from __future__ import annotations

import datetime

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
    fullmove = int(start_fen.split()[5]) if len(start_fen.split()) > 5 else 1
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
