"""``rules fmt`` (the canonical layout of rules files, :mod:`dsl.formatting`) and ``rules new`` (a
new variant file to start from).

``rules fmt FILE...`` rewrites each file that is not laid out canonically, whole or not at all (a
temporary file beside it, renamed over it, with the file's permissions; a symbolic link is followed,
not replaced); ``-`` reads standard input and writes the result to standard output. ``--check``
writes nothing and exits 1 when a file would change, naming it; ``--diff`` writes nothing and
prints a unified diff. A file that does not parse is reported as ``file:line:col`` and left as it
is; the others are still formatted, and the command exits 2.

``rules new NAME`` writes ``NAME.rules``: a short file that ``extends`` a bundled variant (``--from``,
default chess), with commented examples of the usual changes (a new piece, another setup, another
end rule), each naming the section of docs/language.md that documents it. It never overwrites a
file without ``--force``, and it writes only a text that loads and is formatted.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import string
import sys
import tempfile
from pathlib import Path

from dsl import RulesError, UsageError, load_spec_text
from dsl import limits as L
from dsl.catalogue import bundled_aliases, bundled_names
from dsl.errors import clip, suggest
from dsl.files import read_text
from dsl.formatting import format_text

from interpreter.loading import load_game, start_fen

EXIT_CHANGED, EXIT_BAD_INPUT = 1, 2
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cmd_fmt(args) -> int:
    """Format each file (see the module's docstring); 2 if a file could not be read or parsed, else
    1 if ``--check`` found a file to change, else 0."""
    changed = failed = 0
    for name in args.files:
        label = "<stdin>" if name == "-" else name
        try:
            text = sys.stdin.read() if name == "-" else read_text(Path(name), name)
            result = format_text(text, label)
        except RulesError as err:
            print(err.render(), file=sys.stderr)
            failed += 1
            continue
        if name == "-" and not (args.check or args.diff):
            sys.stdout.write(result)
        if result == text:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(keepends=True), result.splitlines(keepends=True),
                                                       f"{label} (as it is)", f"{label} (formatted)"))
        if args.check:
            print(f"would reformat {label}", file=sys.stderr if args.diff else sys.stdout)
        elif not args.diff and name != "-":
            replace_file(name, result)
            print(f"reformatted {label}")
    if failed:
        return EXIT_BAD_INPUT
    return EXIT_CHANGED if args.check and changed else 0


def replace_file(path: str, text: str) -> None:
    """Write ``text`` over the file ``path`` whole or not at all: into a temporary file in its
    directory, flushed to the disk, given the file's permissions, then renamed over it (the target of
    a symbolic link is replaced, the link kept). A failure leaves the file as it was and is a
    UsageError."""
    target = os.path.realpath(path)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                             dir=os.path.dirname(target))
    except OSError as err:
        raise UsageError(f"cannot write {clip(path)}: {(err.strerror or str(err)).lower()}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException as err:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise UsageError(f"cannot write {clip(path)}: {(err.strerror or str(err)).lower()}") from None
        raise


def cmd_new(args) -> int:
    """Write the new variant's file (see the module's docstring) and say how to go on."""
    name = args.name
    if not _NAME.fullmatch(name) or len(name) > L.NAME_CHARS.value:
        raise UsageError(f"{clip(name)!r} cannot name a variant",
                         expected="a name of letters, digits and _ that does not start with a digit, such as my_chess")
    taken = set(bundled_names()) | set(bundled_aliases())
    if name in taken:
        raise UsageError(f"{name!r} is the name of a bundled variant", expected="a name of your own",
                         hint=f"for instance 'my_{name}'")
    if args.base not in taken:
        guess = suggest(args.base, taken)
        raise UsageError(f"no bundled variant {clip(args.base)!r} to start from",
                         expected="a bundled variant's name (see 'rules list')",
                         hint=f"did you mean '{guess}'?" if guess else None)
    out = Path(args.output or f"{name}.rules")
    if out.exists() and not args.force:
        raise UsageError(f"{clip(str(out))} exists", hint="choose another name or -o FILE, or replace it with --force")
    text = new_rules(name, bundled_aliases().get(args.base, args.base))
    load_spec_text(text, str(out))
    if args.force and out.exists():
        replace_file(str(out), text)
    else:
        try:
            with open(out, "x", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as err:
            raise UsageError(f"cannot write {clip(str(out))}: {(err.strerror or str(err)).lower()}") from None
    print(f"wrote {out}: it extends {args.base}; check it with 'rules check {out}', play it with 'rules play {out}'")
    return 0


def new_rules(name: str, base: str) -> str:
    """The text of a new variant ``name`` that extends the bundled variant ``base``: its variant
    block, the extends line, and commented examples of a new piece (with a letter no piece of the
    base has), of the base's setup as a FEN to edit, and of an end rule."""
    game = load_game(base)
    title = game.spec.title or base
    letters = {(piece.letter or "").upper() for piece in game.spec.pieces.values()}
    letter = next((c for c in string.ascii_uppercase if c not in letters), "X")
    text = f"""\
# {name}: a variant of {title}. Say here in a line what makes it different.
#
# Made by 'rules new'. Every construct is documented in docs/language.md; each example below names
# its section there. Uncomment and edit what you need, then:
#   rules check {name}.rules  validates it (an error points at file:line:col)
#   rules play {name}.rules   plays it in the terminal ('rules serve' opens the browser)
#   rules doc {name}.rules    writes its rule pages, with diagrams
#   rules fmt {name}.rules    lays it out as the bundled files are (docs/format.md)

# The name, title and texts of the game ("The variant block").
variant {name} {{
  title "{name.replace('_', ' ').strip().capitalize() or name}"
  description "{_quoted(title)} with one change: say it in a paragraph of plain text, for the rule pages."
  # source "Where the rules come from: a book, a web page, the inventor."
  # family "Other pieces"
}}

# Everything of {title}, which the declarations below change or add to ("Inheritance: extends,
# include, forget"); 'forget' drops an inherited declaration, e.g. forget end stalemate.
extends {base}

# A new piece ("Pieces", "Betza notation"): here one that leaps as a knight or steps as a wazir.
# A piece named like an inherited one replaces it; put the new one in the setup to play it.
# piece NewPiece {{
#   letter {letter}
#   value 4
#   description "Leaps as a knight, or steps one cell along a rank or file."
#   betza "NW"
# }}

# Another start position ("Setup"): {title}'s is below, as a FEN.
# setup fen "{_quoted(start_fen(game))}"

# Another way to end the game ("Rules: legality, clock, repetition, endings"): end rules are tried
# in order, the inherited ones first; a rule named like an inherited one replaces it.
# rules {{
#   end hundred_moves "hundred-move rule" when clock >= 100 * sides: draw
# }}
"""
    return format_text(text, f"{name}.rules")


def _quoted(text: str) -> str:
    """``text`` inside a rules string (its quotes and backslashes escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
