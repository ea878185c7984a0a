"""``rules import fsf``: Fairy-Stockfish's variants.ini sections as ``.rules`` files.

Each section becomes one file, ``<stem>.rules`` (:func:`file_stem`), whose game
is the game Fairy-Stockfish plays under that section:

- a section without a parent is Fairy-Stockfish's template (chess's rules with
  no pieces) plus its settings, written out whole;
- a section whose parent is an earlier section of the file ``extends`` that
  section's file and declares what differs (a changed piece, a rule, the
  setup; ``forget`` for what the child drops);
- a section whose parent is one of Fairy-Stockfish's built-in variants
  ``extends`` the bundled variant of that game (found by its name or its
  aliases, :func:`bundled_counterpart`) and declares the settings it changes;
  a parent with no bundled counterpart refuses the section.

Where a setting has no exact counterpart the file says what was chosen in an
``interpretation`` line; a setting that cannot be expressed refuses the
section (:class:`Refusal`: the setting, why, and where it stands), and the
other sections are imported all the same. Every file written is loaded
before the import counts it: one that does not load is removed and reported
as the importer's error (never left behind). Files are never overwritten
unless asked (``force``); a section whose file exists is refused with that
reason, and so are its children.

Settings that only concern Fairy-Stockfish's display or evaluation
(:data:`.fsf_settings.DISPLAY_ONLY`) are skipped without a word: they are no rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dsl.errors import RulesError, UsageError, clip

from .fsf_ini import Section, read_ini_file
from .fsf_settings import plain_text
from .fsf_translate import Refusal, Translation, effective_settings, bundled_counterpart, translate

_LABEL = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$")
MAX_STEM = 60
MAX_CHAIN = 8
"""The most sections of the file one section inherits from, one from another: each is an ``extends``,
and the loader follows at most ``chain_depth`` (16) of them, a bundled variant's own included."""


@dataclass
class Outcome:
    """What became of one section: ``path`` of the file written, or the ``refusal``."""

    section: str
    path: Path | None = None
    refusal: Refusal | None = None


@dataclass
class Report:
    """The outcome of every section asked for, in file order."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def imported(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.path is not None]

    @property
    def refused(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.refusal is not None]

    def summary(self) -> str:
        """``imported N, refused M``, then the refusals grouped by setting (the largest group first), each
        reason of a group with its sections."""
        groups: dict[str, dict[str, list[str]]] = {}
        for o in self.refused:
            assert o.refusal is not None
            groups.setdefault(o.refusal.setting, {}).setdefault(o.refusal.reason, []).append(o.section)
        lines = [f"imported {len(self.imported)}, refused {len(self.refused)}"]
        for setting in sorted(groups, key=lambda s: (-sum(map(len, groups[s].values())), s)):
            lines.append(f"  {setting} ({sum(map(len, groups[setting].values()))}):")
            for reason, sections in groups[setting].items():
                lines.append(f"    {reason}: {', '.join(sections)}")
        return "\n".join(lines)


def file_stem(section: str) -> str:
    """The file name (without ``.rules``) and variant name of a section: lower case, every character
    outside ``[a-z0-9_]`` as ``_``, ``fsf_`` before a leading digit or underscore, at most
    :data:`MAX_STEM` characters. It never contains a path separator or ``..``."""
    stem = re.sub(r"[^a-z0-9_]", "_", section.lower())[:MAX_STEM]
    if not stem or not stem[0].isalpha():
        stem = "fsf_" + stem
    return stem


def render(section: Section, stem: str, translation: Translation, parent: tuple[str, Translation] | None,
           base_name: str | None, source: str) -> str:
    """The text of a section's file: the variant block, ``extends`` (the parent's file, or the bundled
    variant), and its declarations (only those that differ from the parent's when it has one)."""
    decls = dict(translation.decls)
    forgets: list[str] = []
    if parent is not None:
        old = parent[1].decls
        for key, decl in old.items():
            if key not in decls:
                if key[0] == "forget":
                    raise Refusal("parent", f"it would have to restore what its parent dropped ({decl.text})")
                if decl.forget is None:
                    raise Refusal("parent", f"it would have to drop {decl.text.splitlines()[0]!r}")
                forgets.append(decl.forget)
        board_changed = ("board",) in decls and decls[("board",)] != old.get(("board",))
        moved = _moved_ends(decls, old)
        forgets += [old[k].forget for k in moved if old[k].forget is not None]
        decls = {k: d for k, d in decls.items()
                 if old.get(k) != d or (board_changed and k[0] == "zone") or k in moved}
    source = plain_text(source)
    head = [f"variant {stem} {{", f'  title "{section.name}"']
    if section.name != stem and _LABEL.match(section.name):
        head.append(f"  alias {section.name}")
    head.append(f'  description "Fairy-Stockfish\'s variant [{section.name}], imported from {source}."')
    head.append(f'  source "Fairy-Stockfish variants.ini ({source}), section [{section.name}]"')
    head += [f'  interpretation "{plain_text(text, 300)}"' for text in translation.interpretations]
    lines = [f"# Imported by 'rules import fsf' from {source}, section [{section.name}].", "\n".join(head + ["}"])]
    if parent is not None:
        lines.append(f'extends "{parent[0]}.rules"')
    elif base_name is not None:
        lines.append(f"extends {base_name}")
    else:
        lines.append("armies {\n  army white \"White\" { letters upper  forward n }\n"
                     "  army black \"Black\" { letters lower  forward s }\n  turn white, black\n}")
    forgotten = forgets + [d.text for k, d in decls.items() if k[0] == "forget"]
    if forgotten:
        lines.append("\n".join(forgotten))
    board = [d.text for k, d in decls.items() if k[0] in ("board", "zone")]
    if board:
        lines.append("board {\n" + "\n".join(f"  {line}" for line in board) + "\n}")
    for kind in ("piece", "castling", "drops"):
        lines += [d.text for k, d in decls.items() if k[0] == kind]
    rules = [d.text for k, d in decls.items() if k[0] == "rule"]
    if rules:
        lines.append("rules {\n" + "\n".join(f"  {line}" for line in rules) + "\n}")
    lines += [d.text for k, d in decls.items() if k[0] == "setup"]
    return "\n\n".join(lines) + "\n"



def _moved_ends(decls: dict, old: dict) -> list[tuple[str, ...]]:
    """The end rules a child section inherits from its parent's file that must follow an end rule new in the
    child (perpetual check before repetition): an inherited rule keeps its place in the order, before the
    rules the child adds, so these are forgotten and declared again after them."""
    ends = [k for k in decls if k[:2] == ("rule", "end")]
    first_new = next((i for i, k in enumerate(ends) if k not in old), None)
    return [] if first_new is None else [k for k in ends[first_new + 1:] if k in old]


def import_fsf(ini: str | Path, section: str | None = None, out_dir: str | Path = ".",
               force: bool = False) -> Report:
    """Import the sections of the variants.ini ``ini`` (or ``section`` and the sections it inherits from)
    as ``.rules`` files in ``out_dir``; return what became of each. A malformed file, an unknown section
    or a missing output directory is a :class:`~dsl.errors.RulesError` (nothing is written)."""
    from interpreter.loading import load_game

    sections = read_ini_file(ini)
    by_name = {s.name: s for s in sections}
    out = Path(out_dir)
    if not out.is_dir():
        raise UsageError(f"{clip(str(out))} is not a directory")
    wanted = _wanted(sections, by_name, section)
    report = Report()
    done: dict[str, tuple[str, Translation]] = {}
    stems: dict[str, str] = {}
    source = Path(str(ini)).name
    for s in wanted:
        outcome = Outcome(s.name)
        report.outcomes.append(outcome)
        stem = file_stem(s.name)
        path = out / f"{stem}.rules"
        try:
            if stem in stems:
                raise Refusal("name", f"its file name {stem}.rules is that of section [{stems[stem]}]", s.loc)
            if s.parent is not None and s.parent in by_name:
                if s.parent not in done:
                    raise Refusal("parent refused", f"its parent [{s.parent}] was not imported", s.loc)
                if _depth(s, by_name) > MAX_CHAIN:
                    raise Refusal("parent", f"more than {MAX_CHAIN} sections of the file inherit one from another "
                                            "(the loader's limit chain_depth counts every extends)", s.loc)
            translation = translate(s, by_name)
            parent = done.get(s.parent) if s.parent is not None else None
            root, _ = effective_settings(s, by_name)
            text = render(s, stem, translation, parent, bundled_counterpart(root) if root else None, source)
            if path.exists() and not force:
                raise Refusal("output", f"{path} exists (use --force to replace it)")
            _write_checked(path, text, load_game)
        except Refusal as refusal:
            if refusal.loc is None:
                refusal.loc = s.loc
            outcome.refusal = refusal
            continue
        stems[stem] = s.name
        done[s.name] = (stem, translation)
        outcome.path = path
    return report


def _write_checked(path: Path, text: str, load_game) -> None:
    """Write ``text`` to ``path`` only once it loads: it is written beside it under a hidden name first
    (so that its ``extends`` of a sibling file resolves), loaded, then renamed into place; a text that
    does not load is removed and refused as the importer's error, and ``path`` is left as it was."""
    trial = path.with_name(f".{path.stem}.importing.rules")
    trial.write_text(text, encoding="utf-8")
    try:
        load_game(trial)
    except RulesError as err:
        trial.unlink()
        first = err.render().splitlines()[0].replace(trial.name, path.name)
        raise Refusal("importer", f"the file written does not load (an error of the importer): {first}") from None
    trial.replace(path)


def _depth(section: Section, by_name: dict[str, Section]) -> int:
    """How many sections of the file a section inherits from, one from another (parents come first in
    the file, so the chain ends)."""
    depth = 0
    while section.parent in by_name:
        section, depth = by_name[str(section.parent)], depth + 1
    return depth


def _wanted(sections: list[Section], by_name: dict[str, Section], name: str | None) -> list[Section]:
    """Every section, or the one named and its in-file ancestors (parents first)."""
    if name is None:
        return sections
    if name not in by_name:
        from dsl.errors import suggest

        hint = suggest(name, by_name)
        raise UsageError(f"no section [{clip(name)}] in the file", hint=f"did you mean [{hint}]?" if hint else None)
    chain = [by_name[name]]
    while chain[-1].parent in by_name:
        chain.append(by_name[chain[-1].parent])
    return list(reversed(chain))
