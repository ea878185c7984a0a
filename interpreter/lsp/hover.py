"""Hover: the English of the rule pages for the name under the cursor, and a piece's moves drawn.

A piece gets what its section of the rule page says (its description, else its moves in English,
and what being royal or neutral means), its letter and value, and its movement diagrams as SVG
images in data URIs (a client that shows images in hovers draws them; others show the title). An
end rule gets its sentence; a zone, its cells; a name or function of the end conditions, what it
means. Nothing for other words.
"""

from __future__ import annotations

import base64

from dsl import spec as S
from interpreter.compiler.end_rules import END_CALLS, END_NAMES
from interpreter.compiler.game import Game
from interpreter.documentation.english import English
from interpreter.documentation.pages import movement_figure, piece_paragraphs
from interpreter.drawing.diagrams import movement_diagrams

from .places import word_at


def hover_text(spec: S.VariantSpec, game: Game | None, text: str, offset: int) -> str | None:
    """The Markdown shown for the word at ``offset``; ``game`` (None when the text does not compile)
    is needed for the diagrams only."""
    word = word_at(text, offset)
    if word is None:
        return None
    name = word[0]
    english = English(spec)
    if name in spec.pieces:
        return _piece(english, spec.pieces[name], game)
    ends = {rule.name: rule for rule in spec.rules.ends}
    if name in ends:
        return f"**end rule {name}**\n\n{english.render(ends[name])}"
    if name in spec.board.zones:
        return f"**zone {name}**\n\n{english.render(spec.board.zones[name])}"
    if name in END_CALLS:
        return f"**{END_CALLS[name].split(':', 1)[0]}**\n\n{END_CALLS[name].split(': ', 1)[1]}"
    if name in END_NAMES:
        return f"**{name}**\n\n{END_NAMES[name]}"
    return None


def _piece(english: English, piece: S.PieceSpec, game: Game | None) -> str:
    letter = piece.letter or piece.name[0].upper()
    head = f"**{piece.name}** (letter `{letter}`" + (f", value {piece.value:g})" if piece.value is not None else ")")
    parts = [head] + [p for p in piece_paragraphs(english, piece) if p]
    kinds = {kind.name: kind.index for kind in game.kinds} if game is not None else {}
    if piece.name in kinds and not piece.neutral:
        for diagram in movement_diagrams(game, kinds[piece.name]):
            title, svg = movement_figure(game, diagram)
            data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
            parts.append(f"![{title}](data:image/svg+xml;base64,{data})")
    return "\n\n".join(parts)
