"""``rules import fsf``: Fairy-Stockfish's variants.ini sections written as rules files (docs/import.md)."""

from __future__ import annotations

from interpreter.interchange.fsf_import import import_fsf


def cmd_import_fsf(args) -> int:
    """Import the sections, print a line per section written and the summary; 0 even when some are refused
    (the summary says why), 2 (raised as a RulesError) when the file itself cannot be read."""
    report = import_fsf(args.file, args.section, args.out, force=args.force)
    for outcome in report.imported:
        print(f"wrote {outcome.path}  [{outcome.section}]")
    print(report.summary())
    return 0
