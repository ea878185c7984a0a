"""``rules export fsf``: the section on standard output or in a file, the refusal with exit status 2,
the help. (That an exported section is the same game is tests/test_fsf_export.py's.)"""

from __future__ import annotations

import pytest

from interpreter.cli.main import main


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_export_to_standard_output(capsys):
    status, out, err = run(capsys, "export", "fsf", "capablanca", "--name", "capa-copy")
    assert status == 0 and err == ""
    assert out.startswith("[capa-copy]\n") and "maxFile = 10" in out and "archbishop = a" in out


def test_export_to_a_file(capsys, tmp_path):
    target = tmp_path / "variants.ini"
    status, out, _ = run(capsys, "export", "fsf", "chess", "-o", str(target))
    assert status == 0 and out == ""
    assert target.read_text(encoding="utf-8").startswith("[chess]\n")


def test_refusal_lists_constructs_with_exit_2(capsys):
    status, out, err = run(capsys, "export", "fsf", "superchess")
    assert status == 2 and out == "" and "Traceback" not in err
    assert "superchess cannot be written as a Fairy-Stockfish variant" in err
    for construct in ("a board of 14x14 cells", "teams", "4 armies"):
        assert construct in err
    assert "superchess.rules:" in err   # each construct at its place in the file


@pytest.mark.parametrize("argv", [["export"], ["export", "fsf"], ["export", "fen", "chess"],
                                  ["export", "fsf", "chess", "--name", "two words"]])
def test_bad_arguments_exit_2(capsys, argv):
    status, _, err = run(capsys, *argv)
    assert status == 2 and "Traceback" not in err


def test_help_says_how_to_load_it(capsys):
    with pytest.raises(SystemExit):
        main(["export", "fsf", "--help"])
    out = capsys.readouterr().out
    assert "VariantPath" in out and "load_variant_config" in out and "refused" in out
