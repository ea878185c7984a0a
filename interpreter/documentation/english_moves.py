"""Plain English for movement: Betza atoms, native patterns and their directions.

Used by :mod:`interpreter.documentation.english`. A movement is rendered as a *motion*
("slides any number of cells diagonally", "leaps as a knight") to which
the caller adds the modality and the options. Directions are relative to
the army's forward direction: "forward" is towards the enemy for every
army.
"""

from __future__ import annotations

from dsl.betza import BetzaAtom

NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

LEAPER_NAMES = {
    (1, 0): "wazir", (1, 1): "ferz", (2, 0): "dabbaba", (2, 1): "knight", (2, 2): "alfil",
    (3, 0): "threeleaper", (3, 1): "camel", (3, 2): "zebra", (3, 3): "tripper",
}
"""The usual names of the leaps (major, minor), as in Betza's notation."""

DIRECTION_WORDS = {
    "n": "north", "s": "south", "e": "east", "w": "west",
    "ne": "north-east", "nw": "north-west", "se": "south-east", "sw": "south-west",
    "forward": "forward", "backward": "backward", "left": "to the left", "right": "to the right",
    "orth": "orthogonally", "diag": "diagonally", "all": "in any direction",
}
"""Direction names every grid board knows (built-in labels, families and relative directions)."""

_ORTH = {(0, 1): "forward", (0, -1): "backward", (-1, 0): "left", (1, 0): "right"}
_DIAG = {(1, 1): "forward-right", (-1, 1): "forward-left", (1, -1): "backward-right", (-1, -1): "backward-left"}


def number(n: int) -> str:
    """A small whole number in words (digits from 11 on)."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def join(items: list[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def leap_class(vector: tuple[int, int]) -> tuple[int, int]:
    """(major, minor) of a leap vector: (2, 1) for every knight's leap."""
    a, b = abs(vector[0]), abs(vector[1])
    return (max(a, b), min(a, b))


def _images(major: int, minor: int) -> set[tuple[int, int]]:
    return {(sx * a, sy * b) for a, b in ((major, minor), (minor, major)) for sx in (1, -1) for sy in (1, -1)}


def direction_phrase(vectors: set[tuple[int, int]]) -> str:
    """Which of a leap's images a set of vectors (all of one class) takes, relative to forward."""
    major, minor = leap_class(next(iter(vectors)))
    if vectors == _images(major, minor):
        return "orthogonally" if minor == 0 else "diagonally" if major == minor else ""
    if minor == 0:
        names = [_ORTH[(dx // major, dy // major)] for dx, dy in sorted(vectors, key=_order)]
        if set(names) == {"left", "right"}:
            return "sideways"
        if set(names) == {"forward", "backward"}:
            return "forward or backward"
        words = {"forward": "straight forward", "backward": "straight backward",
                 "left": "to the left", "right": "to the right"}
        return join([words[n] for n in names] if len(names) == 1 else names, "or")
    if major == minor:
        names = {_DIAG[(dx // major, dy // major)] for dx, dy in vectors}
        for side in ("forward", "backward"):
            if names == {f"{side}-left", f"{side}-right"}:
                return f"diagonally {side}"
        for side in ("left", "right"):
            if names == {f"forward-{side}", f"backward-{side}"}:
                return f"diagonally to the {side}"
        return "diagonally " + join(sorted(names), "or")
    for test, word in ((lambda v: v[1] > 0, "forward"), (lambda v: v[1] < 0, "backward"),
                       (lambda v: v[0] < 0, "to the left"), (lambda v: v[0] > 0, "to the right")):
        if all(test(v) for v in vectors) and vectors == {v for v in _images(major, minor) if test(v)}:
            return word
    offsets = ", ".join(f"({dx}, {dy})" for dx, dy in sorted(vectors, key=_order))
    return f"to the offsets {offsets} (right, forward)"


def _order(v: tuple[int, int]) -> tuple[int, int]:
    return (-v[1], v[0])


def _distance(major: int, minor: int) -> str:
    if minor == 0 or major == minor:
        return f"{number(major)} cell{'s' if major > 1 else ''}"
    return f"as a {LEAPER_NAMES.get((major, minor), 'leaper')} ({number(major)} cells one way and {number(minor)} to the side)"


def _classes(vectors) -> dict[tuple[int, int], set[tuple[int, int]]]:
    classes: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for v in vectors:
        classes.setdefault(leap_class(v), set()).add(v)
    return dict(sorted(classes.items()))


def _merged_directions(classes) -> str:
    """The directions of several one-cell classes together ("in any direction" for the king's eight)."""
    if set(classes) == {(1, 0), (1, 1)} and all(v == _images(*k) for k, v in classes.items()):
        return "in any of the eight directions"
    return join([direction_phrase(v) for v in classes.values()], "or")


def betza_motion(atom: BetzaAtom) -> str:
    """The motion of one Betza atom: "steps one cell diagonally forward", "slides ... orthogonally"."""
    classes = _classes(atom.vectors)
    if atom.hop == "p":
        return (f"hops {_merged_directions(classes)} along a line: it must jump over exactly one piece "
                "(the hurdle), then goes to any empty cell beyond it or captures the first piece beyond it")
    if atom.hop == "g":
        return (f"hops {_merged_directions(classes)} as a grasshopper: it jumps over the first piece "
                "on the line and lands on the cell right behind it")
    if atom.rider:
        limit = f"up to {number(atom.range)}" if atom.range else "any number of"
        if all(k[1] == 0 or k[0] == k[1] for k in classes):
            steps = {k[0] for k in classes}
            unit = "cells" if steps == {1} else "leaps of " + join([_distance(*k) for k in classes], "or")
            return f"slides {limit} {unit} {_merged_directions(classes)}, over empty cells"
        names = join([LEAPER_NAMES.get(k, "leaper") for k in classes], "or")
        return (f"rides as a {names}: repeats {'its' if len(classes) == 1 else 'one'} leap "
                f"{limit} times in one direction{_subset(classes)}, over empty cells")
    clauses = []
    for (major, minor), vectors in classes.items():
        verb = "steps" if major == 1 else "leaps"
        where = direction_phrase(vectors)
        clauses.append((verb, _distance(major, minor), where))
    if len(clauses) == 2 and clauses[0][:2] == clauses[1][:2]:
        verb, dist, _ = clauses[0]
        text = f"{verb} {dist} {_merged_directions(classes)}"
    else:
        text = join([" ".join(filter(None, c)) for c in clauses], "or")
    if any(major > 1 for major, _ in classes):
        text += ", whatever stands between" if not atom.lame else ""
    return text


def _subset(classes) -> str:
    phrases = [direction_phrase(v) for v in classes.values() if len(v) < 8]
    return f" ({join(phrases, 'or')})" if phrases else ""


def atom_options(atom: BetzaAtom) -> list[str]:
    """The restrictions a Betza atom carries itself (``i``, ``n``)."""
    out = []
    if atom.initial:
        out.append("only as the piece's first move")
    if atom.lame:
        out.append("only if the cells it passes over are empty")
    return out


def directions_phrase(dirs: list[str], families: set[str]) -> str:
    """Native direction names: built-in words, a board's direction families, or its labels."""
    words = []
    for name in dirs:
        if name in DIRECTION_WORDS:
            words.append(DIRECTION_WORDS[name])
        elif name in families:
            words.append(f"along any '{name}' direction")
        else:
            words.append(f"in direction '{name}'")
    return join(words, "or")


# One-cell leaps on a hex board, whose leap offsets are (files, half-cells) in the army's frame: the six
# steps through an edge and the six through a corner, by where they go.
_HEX_EDGE = {(0, 2): "straight forward", (0, -2): "straight backward", (1, 1): "forward and to the right",
             (-1, 1): "forward and to the left", (1, -1): "backward and to the right", (-1, -1): "backward and to the left"}
_HEX_CORNER = {(1, 3): "forward and to the right", (-1, 3): "forward and to the left", (2, 0): "to the right",
               (-2, 0): "to the left", (1, -3): "backward and to the right", (-1, -3): "backward and to the left"}


def hex_steps_phrase(offsets: list[tuple[int, ...]]) -> str | None:
    """A leap on a hex board whose offsets are all one-cell steps, as steps ("steps one cell through a
    corner, forward and to the right or forward and to the left"); None when an offset goes further."""
    if not offsets or any(tuple(o) not in _HEX_EDGE and tuple(o) not in _HEX_CORNER for o in offsets):
        return None
    clauses = []
    for table, through in ((_HEX_EDGE, "through an edge"), (_HEX_CORNER, "through a corner (diagonally)")):
        words = [table[tuple(o)] for o in offsets if tuple(o) in table]
        if words:
            clauses.append(f"{through}, {join(words, 'or')}")
    return "steps one cell " + ", or one cell ".join(clauses)


def offsets_phrase(offsets: list[tuple[int, int] | tuple[int, int, int]], symmetry: str,
                   frame: str = "right, forward") -> str:
    """A leap by offsets, naming the leaper when it is one of Betza's (an offset with a level part,
    on a board of levels, is named by its numbers only); ``frame`` says what the two numbers count."""
    listed = join(["(" + ", ".join(str(d) for d in offset) + ")" for offset in offsets])
    plural = "s" if len(offsets) > 1 else ""
    if symmetry == "all" and any(len(o) == 3 for o in offsets):
        return (f"leaps by the offset{plural} {listed} in every orientation (its numbers in any order, "
                "each either sign), whatever stands between")
    if symmetry == "all":
        names = [LEAPER_NAMES.get(leap_class(o)) for o in offsets]
        named = f" (as a {join(names, 'or')})" if all(names) else ""
        return f"leaps by the offset{plural} {listed} in all eight orientations{named}, whatever stands between"
    if symmetry == "mirrored":
        return f"leaps by the offset{plural} {listed} ({frame}) or {'their' if plural else 'its'} mirror image, whatever stands between"
    return f"leaps by the offset{plural} {listed} ({frame}), whatever stands between"
