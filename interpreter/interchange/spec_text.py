"""Parts of a Spec written back as ``.rules`` text: pieces, zones and cell terms.

The importer (:mod:`.fsf_import`) redeclares a piece of an extended variant
with a change (other promotion choices, no double step) by printing the
inherited :class:`~dsl.spec.PieceSpec` with that change. Only what the
printer can write exactly is written: a construct it cannot print (a move
condition, a native pattern, a ``where`` cell formula) raises
:class:`Unprintable` naming it, and the caller refuses the change rather than
write something else.
"""

from __future__ import annotations

import re

from dsl import spec as S


class Unprintable(Exception):
    """A Spec construct this printer does not write (the message names it)."""


_SIMPLE_LETTER = re.compile(r"[A-Za-z]$")


def cell_term(term: S.CellTerm) -> str:
    """A cell term as written in a rules file (``rank 8``, ``zone camp``, ``a1..c3``)."""
    if term.kind == "named":
        return str(term.a)
    if term.kind == "rect":
        return f"{term.a}..{term.b}"
    if term.kind == "rank":
        return f"rank {term.lo}"
    if term.kind == "ranks":
        return f"ranks {term.lo}..{term.hi}" + (f" step {term.step}" if term.step != 1 else "")
    if term.kind == "file":
        return f"file {term.a}"
    if term.kind == "files":
        return f"files {term.a}..{term.b}"
    if term.kind in ("type", "zone"):
        return f"{term.kind} {term.a}"
    if term.kind == "all":
        return "all"
    raise Unprintable(f"a cell formula ('{term.kind}')")


def cell_set(cells: S.CellSet) -> str:
    """A cell set: its terms, then ``except`` and the excluded terms."""
    text = ", ".join(cell_term(t) for t in cells.include)
    if cells.exclude:
        text += " except " + ", ".join(cell_term(t) for t in cells.exclude)
    return text


def zone(spec: S.ZoneSpec) -> str:
    """A zone declaration: shared (``zone hill: d4, e4``) or per army (``zone goal { white: rank 8 ... }``)."""
    if spec.shared is not None:
        return f"zone {spec.name}: {cell_set(spec.shared)}"
    parts = "  ".join(f"{army}: {cell_set(cells)}" for army, cells in spec.per_army.items())
    return f"zone {spec.name} {{ {parts} }}"


def move(spec: S.MoveSpec) -> str:
    """A ``betza`` line with its options; a native pattern or a condition is :class:`Unprintable`."""
    if not isinstance(spec.pattern, S.BetzaPattern):
        raise Unprintable(f"a native '{spec.pattern.kind}' pattern")
    if spec.condition is not None:
        raise Unprintable("a move condition ('if')")
    options: list[str] = []
    if spec.modality != "both":
        options.append(spec.modality)
    for flag, words in ((spec.unmoved, "unmoved"), (spec.lame, "lame"), (spec.en_passant, "en passant"),
                        (spec.sets_en_passant, "sets en passant"), (spec.once_per_game, "once per game"),
                        (spec.royal_only, "royal only")):
        if flag:
            options.append(words)
    if spec.commits:
        options.append(f"commits {spec.commits}")
    if spec.from_cells is not None:
        options.append(f"from {cell_term(spec.from_cells)}")
    if spec.to_cells is not None:
        options.append(f"to {cell_term(spec.to_cells)}")
    return f'betza "{spec.pattern.text}"' + (": " + ", ".join(options) if options else "")


def promotion(spec: S.PromotionSpec) -> str:
    """A ``promotes in TERM to ...`` line with its options."""
    options: list[str] = []
    for flag, words in ((spec.optional, "optional"), (spec.leaving, "also leaving"),
                        (spec.only_captured, "only captured"), (spec.partner_pieces, "partner pieces")):
        if flag:
            options.append(words)
    if spec.on_capture_into is not None:
        options.append(f"on capture into {cell_term(spec.on_capture_into)}")
    options += [f"limit {kind} to {count}" for kind, count in spec.limits.items()]
    return (f"promotes in {cell_term(spec.cells)} to {', '.join(spec.to)}"
            + (": " + ", ".join(options) if options else ""))


def letter(text: str) -> str:
    """A piece letter as the ``letter`` statement writes it: bare when a plain letter, else quoted."""
    return text if _SIMPLE_LETTER.match(text) else f'"{text}"'


def piece(spec: S.PieceSpec, moves: list[str] | None = None, promotions: list[str] | None = None) -> str:
    """A piece declaration; ``moves`` and ``promotions`` (lines already written) replace the piece's own."""
    if spec.neutral:
        raise Unprintable("a neutral piece")
    lines = [f"piece {spec.name} {{"]
    if spec.letter:
        lines.append(f"  letter {letter(spec.letter)}")
    if spec.value is not None:
        lines.append(f"  value {spec.value:g}")
    if spec.royal:
        lines.append("  royal")
    lines += [f"  {line}" for line in (moves if moves is not None else [move(m) for m in spec.moves])]
    lines += [f"  {line}" for line in
              (promotions if promotions is not None else [promotion(p) for p in spec.promotions])]
    return "\n".join(lines + ["}"])
