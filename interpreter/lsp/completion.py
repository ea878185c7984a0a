"""Completion: the words that may stand at the cursor.

The keywords are the grammar's own: the text up to the word being typed is run through the parser,
and every keyword it would accept next is offered (:func:`dsl.parser.expected_after`). Where a name
may stand (or where the text before the cursor no longer parses, as it often does while typing),
the variant's declared names are offered: pieces and their letters, zones, armies, end rules,
direction families and directions, and the names and functions of the end conditions. Inside a
call of such a function only what its argument takes is offered (zones for ``royal_in(``, pieces
for ``count(``). ``spec`` is the last Spec the buffer compiled to (None before it first did: then
only keywords and the condition language are offered).
"""

from __future__ import annotations

import re

from dsl import spec as S
from dsl.parser import expected_after
from lsprotocol import types as T

from interpreter.compiler.end_rules import CALL_ARGUMENTS, END_CALLS, END_NAMES
from interpreter.compiler.game import Game

from .symbols import declared

CALL = re.compile(r"\b([a-z_]+)\(([^()]*)$")
ITEM_KINDS = {"piece": T.CompletionItemKind.Class, "letter": T.CompletionItemKind.Constant,
              "zone": T.CompletionItemKind.Module, "army": T.CompletionItemKind.Struct,
              "end rule": T.CompletionItemKind.Event, "directions": T.CompletionItemKind.Enum,
              "direction": T.CompletionItemKind.EnumMember}


def completions(spec: S.VariantSpec | None, game: Game | None, text: str, offset: int) -> list[T.CompletionItem]:
    """The completion items at ``offset`` in ``text``."""
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    before = text[:start]
    call = CALL.search(before)
    if call and call.group(1) in CALL_ARGUMENTS:
        takes = [t.strip() for t in CALL_ARGUMENTS[call.group(1)].split(",")]
        index = call.group(2).count(",")
        wanted = (takes[index] if index < len(takes) else takes[-1]).rstrip("s")
        return [item for item in _names(spec, game) if _argument_kind(item) == wanted]
    expected = expected_after(before)
    items = [T.CompletionItem(label=word, kind=T.CompletionItemKind.Keyword)
             for word in (expected[0] if expected is not None else [])]
    if expected is None or "NAME" in expected[1]:
        items += _names(spec, game)
        items += [T.CompletionItem(label=name, kind=T.CompletionItemKind.Variable, detail="condition name",
                                   documentation=meaning) for name, meaning in END_NAMES.items()]
        items += [T.CompletionItem(label=name, kind=T.CompletionItemKind.Function, detail=meaning.split(":", 1)[0],
                                   documentation=meaning.split(": ", 1)[1]) for name, meaning in END_CALLS.items()]
    return items


def _names(spec: S.VariantSpec | None, game: Game | None) -> list[T.CompletionItem]:
    """The names the variant declares, with the pieces' letters and the board's directions."""
    if spec is None:
        return []
    items = [T.CompletionItem(label=d.name, kind=ITEM_KINDS[d.kind], detail=d.detail) for d in declared(spec)]
    items += [T.CompletionItem(label=p.letter or p.name[0].upper(), kind=ITEM_KINDS["letter"],
                               detail=f"letter of {p.name}") for p in spec.pieces.values()]
    if game is not None:
        items += [T.CompletionItem(label=name, kind=ITEM_KINDS["direction"], detail="direction")
                  for name in game.board.directions]
    return items


def _argument_kind(item: T.CompletionItem) -> str:
    """What a name item is as a function's argument: piece, zone or direction (else its detail)."""
    return {T.CompletionItemKind.Class: "piece", T.CompletionItemKind.Module: "zone",
            T.CompletionItemKind.Enum: "direction"}.get(item.kind, item.detail or "")
