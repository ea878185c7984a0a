"""Hostile rules files (issue 12): the file policy of extends/include, and the declared limits.

Every attack here once read a file nobody asked for, printed a file's
content, ran out of memory or ended in a Python exception; each must now be
a clean :class:`RulesError` at the right place, naming the file or the limit.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from dsl import RulesError, RulesSyntaxError, VariantNotFound, load_spec, load_spec_text
from dsl import limits as L
from dsl.errors import FileRefused, LimitError
from dsl.files import BUNDLED_ONLY, FilePolicy, bundled_dir, read_text
from interpreter.loading import compile_variant
from interpreter.loading import start_position

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
SECRET = "TOP-SECRET-CONTENT"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def error_of(text: str, path: Path | str = "<test>", policy: FilePolicy = FilePolicy()) -> RulesError:
    with pytest.raises(RulesError) as info:
        load_spec_text(text, str(path), policy)
    return info.value


def limit_error(text: str, name: str, path: Path | str = "<test>") -> LimitError:
    err = error_of(text, path)
    assert isinstance(err, LimitError), err.render()
    assert err.limit == name, err.render()
    assert f"'{name}'" in err.render()
    return err


# ------------------------------------------------------------------ file policy


@pytest.mark.parametrize("target", ["/proc/self/environ", "/etc/passwd", "/etc/shadow", "/proc/self/mem",
                                    "/dev/zero", "/tmp"])
@pytest.mark.parametrize("keyword", ["include", "extends"])
def test_files_outside_the_allowed_directories_are_refused_unread(tmp_path, keyword, target):
    top = write(tmp_path / "mine.rules", f'{keyword} "{target}"\n')
    with pytest.raises(FileRefused) as info:
        load_spec(top)
    text = info.value.render()
    assert f"'{target}'" in text and info.value.loc.line == 1 and info.value.loc.column == len(keyword) + 2
    for value in os.environ.values():  # nothing of the environment (nor of any file) is echoed
        if len(value) > 8:
            assert value not in text
    assert "root:" not in text


def test_dot_dot_and_symbolic_links_cannot_leave_the_directory(tmp_path):
    write(tmp_path / "outside.rules", f"{SECRET}\n")
    inner = tmp_path / "game"
    write(inner / "a.rules", 'include "../outside.rules"\n')
    write(inner / "b.rules", 'include "lib/../../outside.rules"\n')
    (inner / "link.rules").symlink_to(tmp_path / "outside.rules")
    write(inner / "c.rules", 'include "link.rules"\n')
    for name in ("a", "b", "c"):
        with pytest.raises(FileRefused) as info:
            load_spec(inner / f"{name}.rules")
        assert SECRET not in info.value.render()


def test_files_inside_the_directory_and_named_directories_are_read(tmp_path):
    pieces = 'piece Amazon { letter A betza "QN" }\n'
    write(tmp_path / "lib" / "pieces.rules", pieces)
    write(tmp_path / "lib" / "more.rules", 'include "pieces.rules"\n')  # relative to lib/
    top = write(tmp_path / "game.rules", 'extends chess\ninclude "lib/more.rules"\n')
    assert "Amazon" in load_spec(top).pieces
    shared = tmp_path / "shared"
    write(shared / "amazon.rules", pieces)
    other = write(tmp_path / "elsewhere" / "game.rules", f'extends chess\ninclude "{shared}/amazon.rules"\n')
    with pytest.raises(FileRefused):
        load_spec(other)
    assert "Amazon" in load_spec(other, FilePolicy(directories=(shared,))).pieces


def test_bundled_files_may_be_named_by_path(tmp_path):
    chess = os.path.relpath(bundled_dir() / "chess.rules", tmp_path)
    top = write(tmp_path / "game.rules", f'extends "{chess}"\n')
    assert "Queen" in load_spec(top).pieces


def test_text_without_a_directory_names_bundled_files_only(tmp_path):
    write(tmp_path / "pieces.rules", f"{SECRET}\n")
    assert "Queen" in load_spec_text("extends chess\ninclude orthodox\n", "<upload>").pieces
    for ref in ("pieces.rules", str(tmp_path / "pieces.rules"), "../variants/chess.rules"):
        err = error_of(f'extends chess\ninclude "{ref}"\n', "<upload>")
        assert isinstance(err, FileRefused) and SECRET not in err.render()
    # A policy that is not local gives a named file no directory either.
    err = error_of('include "pieces.rules"\n', tmp_path / "game.rules", BUNDLED_ONLY)
    assert isinstance(err, FileRefused)
    with pytest.raises(FileRefused):
        load_spec(tmp_path / "pieces.rules", BUNDLED_ONLY)


def test_a_bare_name_is_always_a_bundled_file(tmp_path):
    write(tmp_path / "mylocal.rules", "extends chess\n")
    err = error_of("extends mylocal\n", tmp_path / "game.rules")
    assert isinstance(err, VariantNotFound) and "unknown variant 'mylocal'" in err.message
    err = error_of("include mylocal\n", tmp_path / "game.rules")
    assert "unknown library 'mylocal'" in err.message


def test_only_regular_utf8_files_within_the_size_limit_are_read(tmp_path):
    write(tmp_path / "latin1.rules", "variant caf\xe9 {}\n".encode("latin-1"))
    write(tmp_path / "big.rules", "# " + "x" * L.FILE_BYTES.value + "\n")
    (tmp_path / "folder.rules").mkdir()
    os.mkfifo(tmp_path / "pipe.rules")  # opening it must not wait for a writer
    cases = {"latin1.rules": "not UTF-8 text", "big.rules": "more than the limit", "folder.rules": "is a directory",
             "pipe.rules": "not a regular file", "missing.rules": "no rules file"}
    for name, message in cases.items():
        err = error_of(f'include "{name}"\n', tmp_path / "game.rules")
        assert message in err.render() and err.loc.line == 1, err.render()
        assert "caf" not in err.render()
    with pytest.raises(RulesError, match="byte 0xe9 at line 1"):
        load_spec(tmp_path / "latin1.rules")
    write(tmp_path / "bom.rules", "\ufeffextends chess\n")
    assert "Queen" in load_spec(tmp_path / "bom.rules").pieces


def test_devices_and_proc_files_in_an_allowed_directory_are_clean_errors(tmp_path):
    for directory, target, message in (("/dev", "/dev/zero", "not a regular file"),
                                       ("/proc/self", "/proc/self/mem", "cannot read")):
        err = error_of(f'include "{target}"\n', tmp_path / "game.rules", FilePolicy(directories=(directory,)))
        assert message in err.render() and not isinstance(err, FileRefused)


def test_long_names_and_paths_are_clean_errors(tmp_path):
    limit_error(f'include "{"a" * 5000}"\n', "path_chars", tmp_path / "game.rules")
    err = error_of(f'include "{"a" * 300}.rules"\n', tmp_path / "game.rules")  # one component too long
    assert "file name too long" in err.render() or "no rules file" in err.render()
    for ref in ("a" * 5000, "a" * 5000 + ".rules", "b" * 300 + ".rules"):
        with pytest.raises(RulesError):
            load_spec(ref)
    with pytest.raises(RulesError):
        read_text(Path("c" * 5000), "<long>")


def test_a_chain_of_500_files_stops_at_the_chain_limit(tmp_path):
    for i in range(500):
        write(tmp_path / f"f{i}.rules", f'extends "f{i + 1}.rules"\n' if i < 499 else "extends chess\n")
    with pytest.raises(LimitError) as info:
        load_spec(tmp_path / "f0.rules")
    assert info.value.limit == "chain_depth"
    assert info.value.loc.path.endswith(f"f{L.CHAIN_DEPTH.value - 1}.rules")
    include = "".join(f'include "f{i}.rules"\n' for i in range(L.VARIANT_FILES.value + 1))
    for i in range(L.VARIANT_FILES.value + 1):
        write(tmp_path / f"f{i}.rules", "# a library\n")
    assert limit_error(include, "variant_files", tmp_path / "game.rules").loc.line == L.VARIANT_FILES.value


def test_all_files_of_a_variant_together_are_bounded(tmp_path):
    chunk = "# " + "x" * (L.FILE_BYTES.value - 100) + "\n"
    for name in ("a", "b", "c"):
        write(tmp_path / f"{name}.rules", chunk)
    text = 'include "a.rules"\ninclude "b.rules"\ninclude "c.rules"\n'
    assert limit_error(text, "variant_bytes", tmp_path / "game.rules").loc.line == 3


def test_the_files_of_a_variant_share_one_budget_of_tokens(tmp_path):
    many = "variant v { alias " + ", ".join(["a"] * 6500) + " }\n"  # 13,004 tokens
    err = limit_error(many * 3, "tokens")
    assert err.loc.line == 2  # the second copy overruns 25,000
    write(tmp_path / "a.rules", many)
    write(tmp_path / "b.rules", many)
    err = limit_error('include "a.rules"\ninclude "b.rules"\n', "tokens", tmp_path / "game.rules")
    assert err.loc.path.endswith("b.rules")


# ------------------------------------------------------------------ text limits


def test_a_huge_title_is_refused_before_it_is_parsed():
    limit_error('variant x { title "' + "a" * 5_000_000 + '" }\nextends chess\n', "file_bytes")
    err = limit_error('variant x { title "' + "a" * (L.STRING_CHARS.value + 1) + '" }\n', "string_chars")
    assert (err.loc.line, err.loc.column) == (1, 19)


def test_long_names_and_large_numbers_are_refused_where_they_stand():
    err = limit_error("extends chess\npiece " + "P" * 100 + " { }\n", "name_chars")
    assert (err.loc.line, err.loc.column) == (2, 7)
    for number in ("9" * 5000, "1" + "0" * 10, "1e999"):
        err = limit_error(f"extends chess\nboard {{ grid 8 x 8 }}\npiece Pawn {{ value {number} }}\n", "number")
        assert err.loc.line == 3
    limit_error("board { grid " + "7" * 5000 + " x 8 }\n", "number")


def test_deep_nesting_is_a_limit_not_a_recursion_error():
    deep = "(" * 100 + "1 == 1" + ")" * 100
    spec = load_spec_text(f"extends chess\nrules {{ end nested when {deep} : draw }}\n")
    compile_variant(spec)  # 100 parentheses around one comparison are one level
    err = limit_error("extends chess\nrules { end x when " + "(" * 25_000 + "1" + ")" * 25_000 + " : win }\n",
                      "parse_depth")
    assert err.loc.line == 2
    limit_error("extends chess\nrules { end x when " + "not " * 1000 + "in_check : win }\n", "parse_depth")
    limit_error("extends chess\nrules { end x when " + "-" * 1000 + "1 > 0 : win }\n", "parse_depth")
    err = limit_error("extends chess\nrules { end x when " + " + ".join(["clock"] * 1000) + " > 0 : win }\n",
                      "expression_depth")
    assert (err.loc.line, err.loc.column) == (2, 20)
    limit_error("extends chess\nboard { zone z: where " + " + ".join(["file"] * 1000) + " > 0 }\n",
                "expression_depth")
    limit_error("extends chess\nrules { end x when " + " or ".join(["in_check"] * 1001) + " : win }\n",
                "expression_size")


def test_the_deepest_expression_allowed_compiles_and_is_documented():
    from interpreter.documentation.pages import variant_files
    depth = L.EXPRESSION_DEPTH.value
    sum_ = " + ".join(["clock"] * (depth - 1))  # depth - 2 additions under one comparison: depth - 1 levels
    nots = "not " * (depth - 2) + "in_check"  # under an "and": depth levels
    text = f"extends chess\nrules {{ end long when {sum_} < 0 : draw\n end odd when {nots} and in_check : draw }}\n"
    game = compile_variant(load_spec_text(text))
    pages = variant_files(game, perft_depth=1)
    assert any("long" in page.lower() for page in pages.values() if isinstance(page, str))
    pos = start_position(game)
    pos.push(pos.legal_moves()[0])
    limit_error(f"extends chess\nrules {{ end odd when not {nots} and in_check : draw }}\n", "expression_depth")


def test_the_error_of_a_huge_line_shows_a_window_of_it():
    err = error_of("extends chess " + "x " * 30_000 + "}\n")
    shown = err.render().splitlines()
    assert all(len(line) < 200 for line in shown)
    caret = shown[2].index("^") - shown[2].index("|") - 2
    assert shown[1][shown[1].index("|") + 2 + caret] == "x"


def test_text_with_lone_surrogates_is_a_syntax_error():
    with pytest.raises(RulesSyntaxError, match="not valid Unicode") as info:
        load_spec_text('variant x { title "\ud800" }\n')
    assert (info.value.loc.line, info.value.loc.column) == (1, 20)


# ------------------------------------------------------------------ limits of a variant


@pytest.mark.parametrize("board, name, where", [
    ("grid 703 x 1", "files", "grid"), ("grid 8 x 65", "ranks", "grid"), ("grid 64 x 64", None, None),
    ("hex radius 21", "hex_radius", "hex"), ("ragged lengths " + ", ".join(["2"] * 65), "files", "ragged"),
    ("ragged lengths 3, 65", "ranks", "ragged"),
])
def test_board_sizes(board, name, where):
    text = f"extends chess\nboard {{ {board} }}\n"
    if name is None:
        load_spec_text(text)
        return
    err = limit_error(text, name)
    assert (err.loc.line, err.loc.column) == (2, 9)


def test_rank_numbers_in_cell_sets_are_bounded():
    err = limit_error("extends chess\nboard { zone far: ranks 1..1000000000 }\n", "ranks")
    assert (err.loc.line, err.loc.column) == (2, 19)


@pytest.mark.parametrize("move, name", [
    ("move path ride orth range 1000000 then ride orth range 1000000", "range"),
    ("move ride orth range 65", "range"),
    ("move zigzag orth and diag range 100", "range"),
    ("move path step orth then step orth then step orth then step orth then step orth", "path_legs"),
    ("move leap (100, 1) all", "offset"),
    ('betza "' + "W" * (L.BETZA_CHARS.value + 1) + '"', "betza_chars"),
    ('betza "' + "W" * 100_000 + '"', "string_chars"),
])
def test_pattern_sizes(move, name):
    err = limit_error(f"extends chess\npiece Rook {{ letter R {move} }}\n", name)
    assert err.loc.line == 2 and err.loc.column > 20


def test_direction_steps_are_bounded():
    text = "extends chess\nboard { directions far { all: up (0, 1000) } }\n"
    assert limit_error(text, "offset").loc.line == 2


def test_counts_of_a_variant():
    pieces = "".join(f'piece P{i} {{ letter "{chr(0x4e00 + i)}" betza "W" }}\n' for i in range(60))
    err = limit_error("extends chess\n" + pieces, "piece_kinds")
    assert err.loc.line == 2 + L.PIECE_KINDS.value - 6  # the first piece past the limit (chess has 6)
    moves = " ".join(['betza "W"'] * (L.PIECE_MOVES.value + 1))
    limit_error(f"extends chess\npiece Rook {{ letter R {moves} }}\n", "piece_moves")
    armies = " ".join(f"army a{i} {{ letters upper }}" for i in range(L.ARMIES.value + 1))
    limit_error(f"extends chess\narmies {{ {armies} }}\n", "armies")
    modes = " ".join(f'mode m{i} {{ player p: white }}' for i in range(L.MODES.value + 1))
    limit_error(f"extends chess\narmies {{ {modes} }}\n", "modes")
    limit_error("extends chess\nstacking { height 100 }\n", "stack_height")
    zones = " ".join(f"zone z{i}: a1" for i in range(L.LIST_ITEMS.value + 1))
    err = limit_error(f"extends chess\nboard {{ {zones} }}\n", "list_items")
    assert "zones" in err.message


def test_the_documented_table_is_the_limits_module():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Limits"):text.index("## Errors")]
    rows = re.findall(r"^\| `(\w+)` \| ([\d,]+)(?: ([a-z]+))? \| (.+?) \|$", section, re.M)
    documented = [(name, int(value.replace(",", "")), unit or "", counts) for name, value, unit, counts in rows]
    assert documented == [(lim.name, lim.value, lim.unit, lim.counts) for lim in L.LIMITS]
