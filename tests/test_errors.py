"""Bad input of every kind: the message, where it points, and exit status 2 without a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli.main import main

CHESS = (Path(__file__).resolve().parent.parent / "variants" / "chess.rules").read_text()
AT = CHESS.count("\n") + 2   # the line of a declaration that variant() appends after a blank line
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def variant(text: str, old: str = "", new: str = "") -> str:
    """A variant file: chess with ``old`` replaced by ``new``, plus ``text`` appended."""
    if old:
        assert old in CHESS, old
    return CHESS.replace(old, new) + text


# Each case: (id, file text or None, CLI arguments with {file} for the file, expected fragments,
# the line:col the error must point at (or None for errors without a file position)).
CASES = [
    ("syntax-missing-brace", variant("", "  turn white, black\n}", "  turn white, black\n"),
     ["check", "{file}"], ["unexpected", "expected:"], None),
    ("syntax-misspelt-keyword", variant("\npeice Wazir { betza \"W\" }\n"),
     ["check", "{file}"], ["unexpected 'peice'", "did you mean 'piece'"], f"{AT}:1"),
    ("syntax-bad-character", variant("\npiece Wazir { letter W; }\n"),
     ["check", "{file}"], ["unexpected character ';'"], f"{AT}:23"),
    ("unknown-promotion-piece", variant("\npiece Pawn { betza \"fmW\" promotes in zone promotion to Quen, Rook }\n"),
     ["check", "{file}"], ["unknown piece 'Quen'", "did you mean 'Queen'"], f"{AT}:56"),
    ("unknown-setup-piece", variant("", 'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"',
                                    "setup { white Kinq at e1  black King at e8 }"),
     ["check", "{file}"], ["unknown piece 'Kinq'", "did you mean 'King'"], "24:15"),
    ("setup-cell-missing", variant("", 'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"',
                                   "setup { white King at e1  black King at e9 }"),
     ["check", "{file}"], ["unknown cell 'e9'"], "24:41"),
    ("setup-fen-bad-letter", variant("", "RNBQKBNR w", "RNBQKBXR w"),
     ["check", "{file}"], ["unknown piece symbol 'X'"], "24:53"),
    ("forget-forbid-unknown-rule", variant("\nforget forbid self-chek\n"),
     ["check", "{file}"], ["expected: one of 'giving-check', 'partner-check', 'royal-capture', 'royal-escape', "
                           "'self-check'", "did you mean 'self-check'"], f"{AT}:15"),
    ("keyword-run-on", variant("\nai { weight safetyy 1 }\n"),      # the lexer reads 'safety', then 'y'
     ["check", "{file}"], ["unexpected 'safetyy'", "expected: an evaluation term", "did you mean 'safety'"], f"{AT}:13"),
    ("unknown-direction", variant("\npiece Wazir { letter W move step nn }\n"),
     ["check", "{file}"], ["unknown direction 'nn'"], f"{AT}:29"),
    ("duplicate-letter", variant("\npiece Nightrider { betza \"NN\" }\n"),
     ["check", "{file}"], ["same letter 'N'", "another 'letter'"], f"{AT}:7"),
    ("extends-unknown", "extends chesss\n",
     ["check", "{file}"], ["unknown variant 'chesss'", "did you mean 'chess'"], "1:9"),
    ("zone-unknown-cell", variant("\nboard { zone hill: d4, e4, d5, z9 }\n"),
     ["check", "{file}"], ["unknown cell 'z9'"], f"{AT}:32"),
    ("zone-unknown-name", variant("", "zone pawn_start {", "zone pawn_begin {"),
     ["check", "{file}"], ["orthodox.rules:", "unknown zone 'pawn_start'"], None),
    ("betza-invalid", variant("\npiece Xiphos { letter X betza \"fmXD\" }\n"),
     ["check", "{file}"], ["invalid Betza notation", "unknown letter 'X'"], f"{AT}:34"),
    ("unknown-army-in-zone", variant("", "zone pawn_start { white: rank 2  black: rank 7 }",
                                     "zone pawn_start { white: rank 2  blak: rank 7 }"),
     ["check", "{file}"], ["unknown army 'blak'", "did you mean 'black'"], None),
    ("rank-out-of-range", variant("", "zone promotion { white: rank 8", "zone promotion { white: rank 9"),
     ["check", "{file}"], ["no rank 9"], "14:27"),
    ("end-condition-types", variant('\nrules { end odd "odd" when clock >= "many": draw }\n'),
     ["check", "{file}"], ["cannot compare int with str"], f"{AT}:28"),
    ("end-call-argument", variant('\nboard { zone hill: d4, e4 }\nrules { end hill "hill" when enemy_royal_in(hil): loss }\n'),
     ["check", "{file}"], ["unknown zone 'hil'", "did you mean 'hill'"], f"{AT + 1}:45"),
    ("forget-zone-of-a-dropped-board", "extends chess\nboard { grid 6 x 6 }\nforget zone promotion\n",
     ["check", "{file}"], ["cannot forget zone 'promotion': the new board at", ":2:1 dropped it already",
                           "starts a new board"], "3:13"),
    ("end-call-unknown-function", variant('\nrules { end arrived "arrival" when piece_reaches(promotion): loss }\n'),
     ["check", "{file}"], ["unknown function 'piece_reaches'", "royal_in(Zone), enemy_royal_in(Zone)",
                           "royal_in(Zone): a royal piece of the side to move stands in the zone"], f"{AT}:36"),
    ("move-condition-in-check", variant('\npiece Wazir { letter W betza "mW": if in_check }\n'),
     ["check", "{file}"], ["'in_check'", "depends on the position", "not in_check joined by 'and'"], f"{AT}:39"),
    ("capture-out-of-check", variant('\npiece Wazir { letter W betza "W": if not in_check }\n'),
     ["check", "{file}"], ["'not in_check'", "not run by the interpreter yet", "make the pattern quiet"], f"{AT}:30"),
    ("aimed-by-unknown-piece", variant('\npiece Wazir { letter W betza "W" betza "imD" unmoved lost when aimed by Rok }\n'),
     ["check", "{file}"], ["unknown piece 'Rok'", "did you mean 'Rook'"], f"{AT}:73"),
    ("aimed-without-first-moves", variant('\npiece Wazir { letter W betza "W" unmoved lost when aimed by Rook }\n'),
     ["check", "{file}"], ["no first moves to lose", "give it a pattern with 'unmoved'"], f"{AT}:61"),
    ("both-colours-unknown-piece", variant('\ndrops { drop Bishop  keep Bishp on both colours }\n'),
     ["check", "{file}"], ["unknown piece 'Bishp'", "did you mean 'Bishop'"], f"{AT}:27"),
    ("both-colours-without-drops", variant('\ndrops { drop Bishop  keep Queen on both colours }\n'),
     ["check", "{file}"], ["'keep Queen on both colours' needs a 'drop Queen' line"], f"{AT}:27"),
    ("fen-rank-count", None, ["perft", "chess", "--depth", "1", "--fen", "8/8/8/8 w - - 0 1"],
     ["<fen>:1:1", "4 ranks"], None),
    ("fen-bad-side", None, ["perft", "chess", "--depth", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"],
     ["<fen>:1:21", "unknown side to move 'x'"], None),
    ("fen-castling-without-rook", None, ["perft", "chess", "--depth", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"],
     ["castling right 'K'"], None),
    ("fen-no-king", None, ["moves", "chess", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"],
     ["Black has no royal piece"], None),
    ("fen-bad-clock", None, ["moves", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - x 1"],
     ["invalid halfmove clock"], None),
    ("illegal-move", None, ["perft", "chess", "--depth", "1", "--moves", "e4 e5 Ke3"],
     ["move 3", "Ke3"], None),
    ("unparsable-move", None, ["moves", "chess", "--moves", "e2e4 Zz9"],
     ["move 2"], None),
    ("unknown-variant", None, ["perft", "chesss", "--depth", "1"],
     ["unknown variant 'chesss'", "did you mean 'chess'"], None),
    ("bad-argument", None, ["perft", "chess", "--depth", "x"], ["argument --depth/-d: 'x' is not a whole number"], None),
    ("missing-file", None, ["check", "no/such/file.rules"], ["no rules file"], None),
    ("fen-bad-facing", None, ["moves", "superchess", "--fen", "wR,wP>x,4,bP>w,bR/" + "/".join(["14"] * 13) + " w - - 0 1"],
     ["<fen>:1:6", "wP cannot face 'x'", "a facing wP may have"], None),
    ("unknown-mode", None, ["perft", "superchess", "--mode", "5p", "--depth", "1"],
     ["no mode '5p'", "4p, 3p, 2p"], None),
    ("unknown-seat", None, ["play", "superchess", "--seat", "nowhere=random"],
     ["no player or army 'nowhere'"], None),
    ("bad-mode-option", None, ["perft", "superchess", "--mode", "3p", "--option", "solo=purple", "--depth", "1"],
     ["no team 'purple'", "light, dark"], None),
    ("forced-move-not-allowed", None, ["moves", "superchess", "--moves", "pass"],
     ["illegal move 'pass'", "only when it has no legal move"], None),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input(case, tmp_path, capsys):
    name, text, argv, fragments, position = case
    path = tmp_path / "bad.rules"
    if text is not None:
        path.write_text(text)
    status = main([a.replace("{file}", str(path)) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err
    if position is not None:
        assert f"{path}:{position}:" in err, err
        assert "^" in err  # the caret under the offending text


def test_bad_input_table_is_large_enough():
    assert len(CASES) >= 15


def test_check_accepts_a_good_file(tmp_path, capsys):
    path = tmp_path / "mini.rules"
    path.write_text(CHESS)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok") and "64 cells" in out and "2 armies" in out
