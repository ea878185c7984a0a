"""``rules fmt`` (dsl/formatting.py, docs/format.md) and ``rules new``.

The formatter must give one layout whatever the spacing it is given, keep every token and comment,
and so the game: every bundled variant and library is checked to be formatted already, and a
scrambled copy of each (other spaces, indents and blank lines, the same tokens and line breaks)
must come back to it, with the same Spec and comments; perft on a sample. Then the command:
``--check``, ``--diff``, standard input, located errors, files replaced whole; and ``rules new``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from dsl import Loc, load_spec, load_spec_text, parse_text
from dsl.catalogue import bundled_dir, bundled_names, std_dir
from dsl.formatting import FormatterError, format_text
from dsl.parser import grammar_parser
from interpreter.cli.main import main
from interpreter.engine.perft import perft
from interpreter.loading import load_game, start_position

BUNDLED = sorted(bundled_dir().glob("*.rules")) + sorted(std_dir().glob("*.rules"))
COMMENT = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def comments(text: str) -> list[str]:
    return [m.group().rstrip() for m in COMMENT.finditer(text) if m.group().startswith("#")]


def scrambled(text: str, seed: int) -> str:
    """``text`` with other white space: between tokens of a line 1 to 3 spaces, other indents, blank
    lines tripled, blank lines around the file; tokens, comments and line breaks kept. A comment line
    under another line's comment stays where it is (it may hang from it)."""
    rng = random.Random(seed)
    tokens = sorted(grammar_parser(keep_all_tokens=True).parse(text).scan_values(lambda v: hasattr(v, "start_pos")),
                    key=lambda token: token.start_pos)
    out, end = ["\n\n"], 0
    for token in tokens:
        gap = text[end:token.start_pos]
        if "\n" not in gap and "#" not in gap:
            gap = " " * rng.randint(1, 3)
        else:
            parts = gap.split("\n")
            if "#" in parts[0] and not parts[1].lstrip().startswith("#"):
                parts[0] = " " * rng.randint(1, 5) + parts[0].lstrip()
            parts[1:-1] = ["\n\n" if not p.strip() else p for p in parts[1:-1]]
            parts[-1] = " " * rng.randint(0, 7)
            gap = "\n".join(parts)
        out += [gap, str(token)]
        end = token.end_pos
    out.append(text[end:] + "\n\n")
    return "".join(out)


def declarations(text: str, path: Path) -> list:
    """The declarations of a library, without their source locations."""
    def plain(value):
        if isinstance(value, Loc):
            return None
        if hasattr(value, "model_dump"):
            return value.model_dump()
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        return value
    return [(d.kind, plain(d.value), plain(d.extra)) for d in parse_text(text, str(path))]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_files_are_formatted(path):
    """The bundled variants and libraries are kept in the canonical layout (rules fmt --check)."""
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text, f"run: rules fmt {path}"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_scrambled_file_comes_back_the_same_game(path):
    text = path.read_text(encoding="utf-8")
    messy = scrambled(text, seed=len(text))
    assert messy != text and comments(messy) == comments(text)
    formatted = format_text(messy, str(path))
    assert formatted == text                              # one layout, whatever the spacing
    assert format_text(formatted, str(path)) == formatted  # idempotent
    assert comments(formatted) == comments(messy)         # every comment, in order, same text
    if path.parent == bundled_dir():
        same = {"exclude": {"sources"}}   # the files read: a text read from no file is not among them
        assert load_spec_text(messy, str(path)).model_dump(**same) == load_spec(path).model_dump(**same)
    else:
        assert declarations(messy, path) == declarations(text, path)


@pytest.mark.parametrize("name", ["chess", "xiangqi", "crazyhouse", "glinski", "locking"])
def test_perft_of_the_formatted_scramble(name, tmp_path):
    """The same game to the move tree, from a file written out and loaded as a user's would be."""
    original = bundled_dir() / f"{name}.rules"
    copy = tmp_path / f"{name}.rules"
    copy.write_text(format_text(scrambled(original.read_text(encoding="utf-8"), 1), str(copy)), encoding="utf-8")
    expected = perft(start_position(load_game(name)), 2)
    assert expected > 0 and perft(start_position(load_game(copy)), 2) == expected


MESSY = '''

# top comment


variant   messy{title "Messy"   # trailing
    family "Test"
description"x"}
extends chess
 forget end checkmate forget end stalemate
board{zone   z :a1 .. h2 ,rank 3
       zone  y{white:rank 1 black : rank 8}}
piece   Wazir{letter W value 1
  betza "W" :   if not( in_check ) and count( Pawn )>= 2
      or   - 1 < 2
  # before close


}
rules {

  end x "x" when legal_moves==0 :loss    # c1
  end y when in_check and
  legal_moves == 0: win  # c2
                         # c2b
  # own

}
setup { white King at e1 white Queen at d1
  black   King at e8
  black Rook at a8,h8 }
# end
'''

CANONICAL = '''\
# top comment

variant messy {
  title "Messy"  # trailing
  family "Test"
  description "x"
}
extends chess
forget end checkmate
forget end stalemate
board {
  zone z: a1..h2, rank 3
  zone y { white: rank 1  black: rank 8 }
}
piece Wazir {
  letter W  value 1
  betza "W": if not (in_check) and count(Pawn) >= 2
                or -1 < 2
  # before close
}
rules {
  end x "x" when legal_moves == 0: loss  # c1
  end y when in_check and
             legal_moves == 0: win  # c2
                                    # c2b
  # own
}
setup {
  white King at e1  white Queen at d1
  black King at e8
  black Rook at a8, h8
}
# end
'''


def test_a_messy_file_in_the_canonical_layout():
    assert format_text(MESSY) == CANONICAL
    assert format_text(CANONICAL) == CANONICAL


def test_the_example_of_the_layout_rules_is_in_that_layout():
    """docs/format.md shows the layout with an example: it is formatted, and it loads."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "format.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```rules\n(.*?)```", doc, re.S)
    assert format_text(example) == example
    assert load_spec_text(example).name == "crazyhouse"


def test_setup_lines_are_aligned_and_one_line_blocks_stay():
    text = 'setup {\n  white King at e1\n  black Knight at b8, g8\n}\narmies { army white { letters upper\n forward n } }\n'
    assert format_text(text) == ('setup {\n  white King   at e1\n  black Knight at b8, g8\n}\n'
                                 'armies {\n  army white {\n    letters upper\n    forward n\n  }\n}\n')


def test_a_formatter_that_would_change_a_token_writes_nothing(monkeypatch, tmp_path):
    """The safety net: a layout that glues two tokens into one (``W`` and ``value`` into the name
    ``Wvalue1``) is caught, and the file kept."""
    import dsl.formatting
    monkeypatch.setattr(dsl.formatting, "_space", lambda *args: "")
    text = "piece  Wazir { letter W  value 1 }\n"
    with pytest.raises(FormatterError):
        format_text(text)
    path = tmp_path / "w.rules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatterError):
        main(["fmt", str(path)])
    assert path.read_text(encoding="utf-8") == text


# ---------------------------------------------------------------- the command

def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_fmt_rewrites_a_file_whole_with_its_permissions(capsys, tmp_path):
    path = tmp_path / "messy.rules"
    path.write_text(MESSY, encoding="utf-8")
    os.chmod(path, 0o640)
    link = tmp_path / "link.rules"
    link.symlink_to(path.name)
    status, out, err = run(capsys, "fmt", str(link))
    assert (status, out, err) == (0, f"reformatted {link}\n", "")
    assert path.read_text(encoding="utf-8") == CANONICAL and link.is_symlink()
    assert (path.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.rules", "messy.rules"]   # no temporary left
    assert run(capsys, "fmt", str(path)) == (0, "", "")                                   # nothing to do


def test_fmt_check_and_diff_write_nothing(capsys, tmp_path):
    messy, tidy = tmp_path / "messy.rules", tmp_path / "tidy.rules"
    messy.write_text(MESSY, encoding="utf-8")
    tidy.write_text(CANONICAL, encoding="utf-8")
    assert run(capsys, "fmt", "--check", str(tidy)) == (0, "", "")
    assert run(capsys, "fmt", "--check", str(tidy), str(messy)) == (1, f"would reformat {messy}\n", "")
    status, out, err = run(capsys, "fmt", "--diff", str(messy))
    assert status == 0 and out.startswith(f"--- {messy} (as it is)\n+++ {messy} (formatted)\n")
    assert "-    family \"Test\"\n" in out and "+  family \"Test\"\n" in out
    status, out, err = run(capsys, "fmt", "--check", "--diff", str(messy))
    assert status == 1 and out.startswith("---") and err == f"would reformat {messy}\n"
    assert messy.read_text(encoding="utf-8") == MESSY


def test_fmt_reads_standard_input(capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(MESSY))
    assert run(capsys, "fmt", "-") == (0, CANONICAL, "")
    monkeypatch.setattr("sys.stdin", io.StringIO(MESSY))
    assert run(capsys, "fmt", "--check", "-") == (1, "would reformat <stdin>\n", "")


def test_fmt_reports_a_syntax_error_with_its_place_and_goes_on(capsys, tmp_path):
    bad, messy = tmp_path / "bad.rules", tmp_path / "messy.rules"
    bad.write_text('piece X {\n  betza "W" :\n}\n', encoding="utf-8")
    messy.write_text(MESSY, encoding="utf-8")
    status, out, err = run(capsys, "fmt", str(bad), str(messy))
    assert status == 2 and "Traceback" not in err
    assert err.startswith(f"{bad}:3:1: unexpected '}}'")
    assert bad.read_text(encoding="utf-8") == 'piece X {\n  betza "W" :\n}\n'
    assert messy.read_text(encoding="utf-8") == CANONICAL and out == f"reformatted {messy}\n"
    status, _, err = run(capsys, "fmt", str(tmp_path / "missing.rules"))
    assert status == 2 and "no rules file" in err


@pytest.mark.parametrize("command", ["fmt", "new"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0
    assert ("--check" in out and "--diff" in out) if command == "fmt" else ("--from" in out and "--force" in out)


# ---------------------------------------------------------------- rules new

def uncommented(text: str) -> str:
    """The file with its commented examples made live: the commented lines of the variant block and
    the commented declarations (from ``# piece``, ``# setup`` or ``# rules`` to their ``# }``)."""
    lines, inside = [], False
    for line in text.splitlines():
        starts = re.match(r"# (piece \w+ \{|rules \{|setup )", line)
        if starts or inside:
            inside = (inside or line.endswith("{")) and line != "# }"
            line = line[2:]
        lines.append(re.sub(r"^  # (source|family) ", r"  \1 ", line))
    return "\n".join(lines) + "\n"


def test_new_writes_a_variant_that_checks_and_is_formatted(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "new", "my_chess")
    path = tmp_path / "my_chess.rules"
    assert status == 0 and err == "" and str(path.name) in out
    text = path.read_text(encoding="utf-8")
    assert "extends chess" in text and "docs/language.md" in text
    assert run(capsys, "fmt", "--check", str(path)) == (0, "", "")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 0 and out.startswith("ok  my_chess:")
    spec = load_spec(path)
    assert spec.name == "my_chess" and spec.pieces.keys() == load_spec("chess").pieces.keys()


@pytest.mark.parametrize("base", ["chess", "xiangqi", "shogi", "superchess"])
def test_the_examples_of_a_new_file_load_when_uncommented(base, tmp_path, capsys):
    path = tmp_path / "mine.rules"
    assert run(capsys, "new", "mine", "--from", base, "-o", str(path))[0] == 0
    live = uncommented(path.read_text(encoding="utf-8"))
    spec = load_spec_text(live, str(path))
    piece = spec.pieces["NewPiece"]
    assert piece.letter not in {p.letter for name, p in spec.pieces.items() if name != "NewPiece"}
    assert [e.name for e in spec.rules.ends][-1] == "hundred_moves"
    assert spec.setup.fen and spec.setup.fen.split()[0] in live


def test_new_never_overwrites_without_force(capsys, tmp_path):
    path = tmp_path / "mine.rules"
    path.write_text("# mine\n", encoding="utf-8")
    status, _, err = run(capsys, "new", "mine", "-o", str(path))
    assert status == 2 and "exists" in err and path.read_text(encoding="utf-8") == "# mine\n"
    assert run(capsys, "new", "mine", "-o", str(path), "--force", "--from", "shogi")[0] == 0
    assert "extends shogi" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["new", "3d_chess"], "cannot name a variant"),
    (["new", "my-chess"], "cannot name a variant"),
    (["new", "chess"], "is the name of a bundled variant"),
    (["new", "standard"], "is the name of a bundled variant"),        # an alias
    (["new", "mine", "--from", "xiangqii"], "did you mean 'xiangqi'"),
])
def test_new_refuses_bad_names(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2 and message in err and "Traceback" not in err and list(tmp_path.iterdir()) == []
