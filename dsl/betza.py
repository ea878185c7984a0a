"""Betza's funny notation -> movement atoms.

Supported (the subset used by the chess-variant community and by
Fairy-Stockfish): leaper atoms ``W F D N A H C Z G`` (and ``L J`` as
synonyms of ``C Z``), ``K`` (= ``WF``); riders ``R B Q`` and doubled atoms
(``NN`` nightrider); range limits (``R4``, ``W2``); direction modifiers
``f b l r v s h`` and their two-letter combinations (``fs``, ``fl`` ...);
modality ``m`` (move only) and ``c`` (capture only); ``i`` (only while the
piece has not moved); ``n`` (lame: the cells on the way must be empty);
``p`` (cannon-style hopper) and ``g`` (grasshopper: lands right behind the
hurdle).

Vectors are ``(dx, dy)`` with forward = +dy and right = +dx; the
interpreter turns them into each army's frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import spec as S
from .errors import Loc, RulesSemanticError

LEAPERS: dict[str, list[tuple[int, int]]] = {
    "W": [(1, 0)], "F": [(1, 1)], "D": [(2, 0)], "N": [(2, 1)], "A": [(2, 2)],
    "H": [(3, 0)], "C": [(3, 1)], "L": [(3, 1)], "Z": [(3, 2)], "J": [(3, 2)], "G": [(3, 3)],
    "K": [(1, 0), (1, 1)],
}
RIDERS: dict[str, list[tuple[int, int]]] = {"R": [(1, 0)], "B": [(1, 1)], "Q": [(1, 0), (1, 1)]}
VERTICAL = "fbvh"
HORIZONTAL = "rlsh"

# The eight images of an atom (major, minor), in the order of _image(), each
# with the two-letter direction codes that select it (a single modifier x is
# the code xx).
_SELECTORS: list[tuple[str, ...]] = [
    ("ff", "vv", "rf", "rv", "fh", "rh", "hr"),
    ("bb", "vv", "lb", "lv", "bh", "lh", "hr"),
    ("rr", "ss", "br", "bs", "bh", "rh", "hr"),
    ("ll", "ss", "fl", "fs", "fh", "lh", "hr"),
    ("rr", "ss", "fr", "fs", "fh", "rh", "hl"),
    ("ll", "ss", "bl", "bs", "bh", "lh", "hl"),
    ("bb", "vv", "rb", "rv", "bh", "rh", "hl"),
    ("ff", "vv", "lf", "lv", "fh", "lh", "hl"),
]


def _image(index: int, major: int, minor: int) -> tuple[int, int]:
    """Image ``index`` (0..7) of the atom (major, minor) as (dx, dy)."""
    return [
        (minor, major), (-minor, -major), (major, -minor), (-major, minor),
        (major, minor), (-major, -minor), (minor, -major), (-minor, major),
    ][index]


@dataclass(frozen=True)
class BetzaAtom:
    """One atom of a Betza string with its modifiers applied.

    ``vectors``: the (dx, dy) steps (forward = +dy). ``rider``: repeats the
    step; ``range`` limits the repetitions (None = unlimited). ``modality``:
    ``both``, ``quiet`` or ``capture``. ``initial``: only an unmoved piece.
    ``lame``: the cells on the way must be empty. ``hop``: ``None``, ``"p"``
    (over one hurdle, then onward) or ``"g"`` (land right behind it).
    """

    vectors: tuple[tuple[int, int], ...]
    rider: bool
    range: int | None
    modality: str
    initial: bool
    lame: bool
    hop: str | None


def parse_betza(text: str, loc: Loc | None = None) -> list[BetzaAtom]:
    """Parse a Betza string into atoms; an invalid string is a semantic error at its position."""

    def error(i: int, message: str, expected: str) -> RulesSemanticError:
        where = None
        if loc is not None:
            column = loc.column + 1 + i  # skip the opening quote
            where = Loc(loc.path, loc.line, column, column + 1, loc.text)
        return RulesSemanticError(f"invalid Betza notation {text!r}: {message}", where, expected=expected)

    if not text:
        raise error(0, "it is empty", "at least one atom such as W, F, N, R or B")
    atoms: list[BetzaAtom] = []
    modalities: set[str] = set()
    directions: list[str] = []
    initial = lame = False
    hop: str | None = None
    i = 0
    while i < len(text):
        c = text[i]
        if c in "mc":
            modalities.add(c)
        elif c in "pg":
            hop = c
        elif c == "n":
            lame = True
        elif c == "i":
            initial = True
        elif c in VERTICAL or c in HORIZONTAL:
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt and (nxt == c or (c in VERTICAL and nxt in HORIZONTAL) or (c in HORIZONTAL and nxt in VERTICAL)):
                directions.append(c + nxt)
                i += 1
            else:
                directions.append(c + c)
        elif c in LEAPERS or c in RIDERS:
            rider = c in RIDERS
            base = RIDERS.get(c) or LEAPERS[c]
            limit: int | None = None
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt.isdigit():
                rider, limit = True, int(nxt)
                if limit == 0:
                    raise error(i + 1, "a range of 0", "a range from 1 to 9")
                i += 1
            elif nxt == c and c in LEAPERS:
                rider = True
                i += 1
            if hop and lame:
                raise error(i, "an atom cannot be both lame (n) and a hopper (p, g)", "one of n, p, g")
            modality = "both" if len(modalities) != 1 else ("quiet" if "m" in modalities else "capture")
            vectors: list[tuple[int, int]] = []
            for major, minor in base:
                codes = []
                for d in directions:
                    if minor == 0 and len(base) == 1 and d[0] != d[1]:
                        codes += [d[0] * 2, d[1] * 2]
                    else:
                        codes.append(d)
                for index, selectors in enumerate(_SELECTORS):
                    if not codes or any(code in selectors for code in codes):
                        vector = _image(index, major, minor)
                        if vector not in vectors:
                            vectors.append(vector)
            if not vectors:
                raise error(i, "the direction modifiers select no move", "modifiers that fit the atom")
            atoms.append(BetzaAtom(tuple(vectors), rider, limit, modality, initial, lame, hop))
            modalities, directions, initial, lame, hop = set(), [], False, False, None
        else:
            raise error(i, f"unknown letter {c!r}",
                        "atoms W F D N A H C Z G K R B Q and modifiers f b l r v s h m c i n p g")
        i += 1
    if modalities or directions or initial or lame or hop:
        raise error(len(text) - 1, "modifiers at the end with no atom after them", "an atom after the modifiers")
    return atoms


_ATOM = re.compile(r"([a-z]*)([A-Z])(\2|\d+)?")


def written_betza(move: S.MoveSpec) -> str:
    """The Betza text of a Betza move (``move.pattern`` a :class:`~dsl.spec.BetzaPattern`) with the
    move's options written as Betza modifiers on each of its atoms: ``m`` (move only) and ``c``
    (capture only) for its modality, ``i`` for a first move or a move allowed from a zone (as a
    pawn's double step is), ``n`` for a lame move, ``e`` for en passant captures. An atom that has
    ``m`` or ``c`` of its own keeps it. What Betza cannot say (a zone the move must end in, a
    condition, ...) is not in the text: the caller decides what to do about it."""
    modifiers = {"quiet": "m", "capture": "c"}.get(move.modality, "")
    modifiers += "i" if move.unmoved or move.from_cells is not None else ""
    modifiers += ("n" if move.lame else "") + ("e" if move.en_passant else "")

    def extend(match: re.Match) -> str:
        own = match.group(1)
        added = "".join(m for m in modifiers if m not in own and not (m in "mc" and ("m" in own or "c" in own)))
        return own + added + match.group(0)[len(own):]

    assert isinstance(move.pattern, S.BetzaPattern)
    return _ATOM.sub(extend, move.pattern.text)
