"""``rules import fsf``: Fairy-Stockfish's own variants.ini imported, and every imported game proved the same.

The corpus is Fairy-Stockfish's variants.ini (143 sections by many authors; GPL data, so it is read
where it lies and never copied here): ``$FSF_VARIANTS_INI``, else ``../shared/fairy-stockfish/variants.ini``
beside the repository. Without it the corpus tests are skipped with that reason.

Every section is imported into a temporary directory once (:func:`imported`). Each section then either
was written as a file that loads, or was refused with the setting that has no counterpart; a file that
was written but did not load is the importer's error and fails :func:`test_no_written_file_fails_to_load`.
For each imported section, :func:`test_imported_section_agrees_with_fairy_stockfish` compares with
Fairy-Stockfish (``pyffish``, the corpus loaded with ``load_variant_config``): the start position, the
set of legal moves and perft to depth 2 from the start and from positions reached by a seeded random
game of ours (:func:`fsf_perft.sample_positions`), and the set of legal moves along a seeded random
game of Fairy-Stockfish's (positions our engine might never reach). A section that imports but disagrees is a bug of the
importer: the test names the position and the moves only one side has. The deeper check (perft 3 from
the start) is marked ``slow``.

The other tests treat the importer's input as hostile (malformed lines, path-like section names,
files that exist) and need no corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.errors import LimitError, RulesSyntaxError, UsageError
from interpreter.cli.main import main
from interpreter.interchange.fsf_import import file_stem, import_fsf
from interpreter.interchange.fsf_settings import fen_fields, our_fen
from interpreter.interchange.fsf_ini import read_ini

try:
    from fsf_perft import FSF_CORPUS as CORPUS, NO_CORPUS, fsf_perft, load_corpus, sample_positions
except ImportError:  # tests/ imported as a package
    from tests.fsf_perft import FSF_CORPUS as CORPUS, NO_CORPUS, fsf_perft, load_corpus, sample_positions

ROOT = Path(__file__).resolve().parent.parent
needs_corpus = pytest.mark.skipif(not CORPUS.is_file(), reason=NO_CORPUS)


def _section_names() -> list[str]:
    if not CORPUS.is_file():
        return []
    return [line.strip()[1:-1].split(":")[0] for line in CORPUS.read_text(encoding="utf-8").splitlines()
            if line.startswith("[")]


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The report of importing the whole corpus, and the directory of the files."""
    out = tmp_path_factory.mktemp("fsf_import")
    return import_fsf(CORPUS, out_dir=out), out


@pytest.fixture(scope="module")
def sf():
    """pyffish with the corpus loaded."""
    pyffish = pytest.importorskip("pyffish")
    load_corpus(pyffish)
    return pyffish


# ------------------------------------------------------------------ the corpus


@needs_corpus
def test_every_section_is_imported_or_refused_with_a_reason(imported):
    report, out = imported
    assert len(report.outcomes) == len(_section_names())
    for outcome in report.outcomes:
        assert (outcome.path is None) != (outcome.refusal is None), outcome.section
        if outcome.refusal is not None:
            assert outcome.refusal.setting and outcome.refusal.reason and outcome.refusal.loc is not None
    assert len(report.imported) >= 79       # the count this importer reached; fewer is a regression
    assert sorted(p.name for p in out.iterdir()) == sorted(o.path.name for o in report.imported)
    print("\n" + report.summary())


@needs_corpus
def test_no_written_file_fails_to_load(imported):
    """A file the importer wrote that does not load is its bug, not a refusal."""
    report, _ = imported
    assert [(o.section, str(o.refusal)) for o in report.refused if o.refusal.setting == "importer"] == []


def _our_uci_moves(pos) -> set[str]:
    from interpreter.notation.san import move_to_uci

    legal = pos.legal_moves()
    return {move_to_uci(pos, move, legal) for move in legal}


@needs_corpus
@pytest.mark.parametrize("section", _section_names())
def test_imported_section_agrees_with_fairy_stockfish(imported, sf, section, monkeypatch):
    from interpreter.engine.perft import perft
    from interpreter.loading import load_game, position_from_fen, start_position
    from interpreter.notation.fen import to_fen

    report, _ = imported
    outcome = next(o for o in report.outcomes if o.section == section)
    if outcome.path is None:
        pytest.skip(f"refused: {outcome.refusal.setting}: {outcome.refusal.reason}")
    game = load_game(outcome.path)
    theirs = sf.start_fen(section)
    read = position_from_fen(game, our_fen(fen_fields(theirs), bool(game.castle_rules), bool(game.count_checks)))
    ours = start_position(game)
    assert to_fen(ours).split()[:2] == to_fen(read).split()[:2], f"start: ours {to_fen(ours)}, theirs {theirs}"
    monkeypatch.chdir(outcome.path.parent)      # the seeded game follows the file's name, not where it is
    for fen in [to_fen(ours)] + sample_positions(outcome.path.name):
        pos = position_from_fen(game, fen)
        mine, fsf = _our_uci_moves(pos), set(sf.legal_moves(section, fen, []))
        assert mine == fsf, (f"{section} at {fen}: only ours {sorted(mine - fsf)}, "
                             f"only Fairy-Stockfish's {sorted(fsf - mine)}")
        assert perft(pos, 2) == fsf_perft(sf, section, fen, 2), f"{section}: perft 2 at {fen}"
    for fen, fsf in _fsf_walk(sf, section):          # and positions Fairy-Stockfish's own game reaches
        pos = position_from_fen(game, our_fen(fen_fields(fen), bool(game.castle_rules), bool(game.count_checks)))
        mine = _our_uci_moves(pos)
        assert mine == fsf, (f"{section} at {fen} (Fairy-Stockfish's game): only ours {sorted(mine - fsf)}, "
                             f"only Fairy-Stockfish's {sorted(fsf - mine)}")


# Positions where an import once disagreed and the sampling above may not go (section, FEN).
HARD_POSITIONS = [
    ("grandhouse", "r5n2r/1nbq1cab2/ppppkppppp/10/10/10/10/PPPPPPPPPP/1NBQK1ABN1/R8R[Pc] w - - 0 3"),  # no pawn drop
    ("minihouse", "6/bn4/r3kN/4rb/PK4/6[P] w - - 1 22"),    # on the promotion ranks, of a resized board
    ("maharajah", "4k3/8/8/8/8/2M5/7p/8 b - - 0 1"),          # no promotion choices: the pawn cannot move
    ("maharajah", "q3k2r/3b2p1/1p6/2p1p3/5p2/5M2/7p/8 w - - 0 43"),  # ... yet it attacks g1
    ("dragon-chess", "2bk4/2p1pbpP/8/2P3p1/3P4/1r1n1K1R/8/RNP3P1 w - - 1 39"),  # promotes to the queen only
    ("ordavsempire", "2c3et/8/1p3p1p/p1P2eHL/1P2P1P1/Pk2P2P/1A2K2A/L6Y w - - 7 37"),  # kings face on a rank
]


@needs_corpus
@pytest.mark.parametrize("section,fen", HARD_POSITIONS, ids=[s for s, _ in HARD_POSITIONS])
def test_hard_positions_agree(imported, sf, section, fen):
    from interpreter.loading import load_game, position_from_fen

    outcome = next(o for o in imported[0].outcomes if o.section == section)
    if outcome.path is None:
        pytest.skip(f"refused: {outcome.refusal}")
    pos = position_from_fen(load_game(outcome.path), fen)
    assert _our_uci_moves(pos) == set(sf.legal_moves(section, fen, []))


def _fsf_walk(sf, section: str, plies: int = 60, every: int = 12) -> list[tuple[str, set[str]]]:
    """(FEN, legal moves) every ``every`` plies of a seeded random game that Fairy-Stockfish plays."""
    import random

    rng = random.Random(f"{section}/fsf-walk")
    start, moves, found = sf.start_fen(section), [], []
    for ply in range(plies):
        legal = sf.legal_moves(section, start, moves)
        if not legal:
            break
        if ply % every == 0:
            found.append((sf.get_fen(section, start, moves), set(legal)))
        moves.append(rng.choice(legal))
    return found


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("section", _section_names())
def test_imported_section_perft_3(imported, sf, section):
    from interpreter.engine.perft import perft
    from interpreter.loading import load_game, start_position
    from interpreter.notation.fen import to_fen

    outcome = next(o for o in imported[0].outcomes if o.section == section)
    if outcome.path is None:
        pytest.skip("refused")
    pos = start_position(load_game(outcome.path))
    assert perft(pos, 3) == fsf_perft(sf, section, to_fen(pos), 3)


@needs_corpus
def test_one_section_brings_its_parents(tmp_path):
    """Naming a section imports the sections of the file it inherits from too, and nothing else."""
    names = _section_names()
    child = next(n for n in names if f"[{n}:" in CORPUS.read_text(encoding="utf-8")
                 and CORPUS.read_text(encoding="utf-8").split(f"[{n}:")[1].split("]")[0] in names)
    report = import_fsf(CORPUS, child, tmp_path)
    assert len(report.outcomes) >= 2 and report.outcomes[-1].section == child


# ------------------------------------------------------------------ hostile input


def _ini(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variants.ini"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text,message,line", [
    ("[a]\nnot a setting\n", "not a setting", 2),
    ("pawn = p\n[a]\n", "before the first [section]", 1),
    ("[a]\n[a]\n", "defined twice", 2),
    ("[a:b]\n[b:a]\n", "not defined before it", 1),
    ("[a:a]\n", "not defined before it", 1),
    ("[a/../../etc]\n", "malformed section header", 1),
    ("[" + "x" * 100 + "]\n", "malformed section header", 1),
])
def test_malformed_ini_is_an_error_at_its_line(text, message, line):
    with pytest.raises(RulesSyntaxError) as info:
        read_ini(text, "v.ini")
    assert message in info.value.message and info.value.loc.line == line
    assert info.value.render().startswith(f"v.ini:{line}:")


def test_a_huge_line_is_a_limit_error():
    with pytest.raises(LimitError):
        read_ini("[a]\nstartFen = " + "p" * 10_000 + "\n")


@pytest.mark.parametrize("name,stem", [
    ("3check-crazyhouse", "fsf_3check_crazyhouse"), ("Ajax.Orthodox", "ajax_orthodox"),
    ("..", "fsf___"), ("_x", "fsf__x"), ("a" * 100, "a" * 60),
])
def test_file_names_are_escaped(name, stem):
    assert file_stem(name) == stem
    assert "/" not in stem and ".." not in stem


def test_a_refused_section_names_the_setting_and_the_others_go_on(tmp_path):
    ini = _ini(tmp_path, "[walls]\nwallingRule = duck\n\n[small]\nmaxFile = 5\nmaxRank = 5\nking = k\nrook = r\n"
                         "startFen = 4k/5/5/5/R3K w - - 0 1\n")
    out = tmp_path / "out"
    out.mkdir()
    report = import_fsf(ini, out_dir=out)
    assert [o.section for o in report.imported] == ["small"]
    refusal = report.refused[0].refusal
    assert refusal.setting == "wallingRule" and refusal.loc.line == 2
    assert "imported 1, refused 1" in report.summary() and "wallingRule (1):" in report.summary()
    assert (out / "small.rules").read_text().startswith("# Imported")


def test_files_are_never_overwritten_without_force(tmp_path):
    ini = _ini(tmp_path, "[small]\nmaxFile = 5\nmaxRank = 5\nking = k\nstartFen = 4k/5/5/5/4K w - - 0 1\n")
    mine = tmp_path / "small.rules"
    mine.write_text("# the user's file\n")
    report = import_fsf(ini, out_dir=tmp_path)
    assert report.refused[0].refusal.setting == "output" and mine.read_text() == "# the user's file\n"
    assert import_fsf(ini, out_dir=tmp_path, force=True).imported
    assert mine.read_text().startswith("# Imported")
    assert not list(tmp_path.glob(".*.rules"))


def test_a_child_extends_its_parent_file(tmp_path):
    ini = _ini(tmp_path, "[base]\nmaxFile = 5\nmaxRank = 5\nking = k\nrook = r\n"
                         "startFen = r3k/5/5/5/R3K w - - 0 1\n\n[child:base]\nstalemateValue = loss\n")
    report = import_fsf(ini, out_dir=tmp_path)
    assert len(report.imported) == 2
    text = (tmp_path / "child.rules").read_text()
    assert 'extends "base.rules"' in text and "end stalemate when legal_moves == 0: loss" in text
    assert "piece" not in text      # only what differs


def test_flag_pieces_and_drop_counts_are_imported(tmp_path):
    """A flag piece that is not royal (a kind, or any piece, with a count) and ``dropNoDoubledCount``."""
    ini = _ini(tmp_path, "[race]\nmaxFile = 5\nmaxRank = 5\nking = k\nrook = r\nflagPiece = r\n"
                         "flagPieceCount = 2\nflagRegionWhite = *5\nflagRegionBlack = *1\n"
                         "startFen = 4k/5/5/5/RR2K w - - 0 1\n\n"
                         "[anyflag:race]\nflagPiece = *\nflagPieceCount = 1\n\n"
                         "[twopawns:crazyhouse]\ndropNoDoubled = p\ndropNoDoubledCount = 2\n")
    report = import_fsf(ini, out_dir=tmp_path)
    assert len(report.imported) == 3, report.summary()
    assert "when enemy_pieces_in(flag, Rook) >= 2: loss" in (tmp_path / "race.rules").read_text()
    assert "when enemy_pieces_in(flag) >= 1: loss" in (tmp_path / "anyflag.rules").read_text()
    assert "at most 2 on file" in (tmp_path / "twopawns.rules").read_text()


def test_cannons_that_spare_cannons_are_imported(tmp_path):
    """``janggiCannon``: a rook-line hopper that hops over and takes no piece of its own kind."""
    ini = _ini(tmp_path, "[cannons]\nmaxFile = 5\nmaxRank = 5\nking = k\njanggiCannon = c\n"
                         "startFen = 2k2/2c2/5/2C2/2K2 w - - 0 1\n")
    report = import_fsf(ini, out_dir=tmp_path)
    assert len(report.imported) == 1, report.summary()
    text = (tmp_path / "cannons.rules").read_text()
    assert 'betza "pR": hurdle not JanggiCannon, takes not JanggiCannon' in text


def _end_rules(path) -> list[str]:
    from interpreter.loading import load_game

    return [rule.name for rule in load_game(path).spec.rules.ends]


def test_perpetual_check_comes_before_the_repetition_it_decides(tmp_path):
    """``perpetualCheckIllegal``: the perpetual-check end rules just before the repetition rule, in a section
    of its own, over a built-in (whose repetition rule moves after them) and over a parent section of the
    file (the same); a mutual perpetual check is a draw where the repetition itself is not."""
    ini = _ini(tmp_path, "[own]\nking = k\nrook = r\nperpetualCheckIllegal = true\nnFoldValue = loss\n"
                         "startFen = r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\n\n"
                         "[plain]\nking = k\nrook = r\nstartFen = r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\n\n"
                         "[child:plain]\nperpetualCheckIllegal = true\n\n"
                         "[over:chess]\nperpetualCheckIllegal = true\n")
    report = import_fsf(ini, out_dir=tmp_path)
    assert len(report.imported) == 4, report.summary()
    perpetual = ["perpetual_check", "perpetual_checking"]
    own = _end_rules(tmp_path / "own.rules")
    assert own[own.index("perpetual_check"):own.index("repetition") + 1] == perpetual + ["perpetual_checks", "repetition"]
    for stem in ("child", "over"):
        ends = _end_rules(tmp_path / f"{stem}.rules")
        assert ends.index("perpetual_checking") == ends.index("perpetual_check") + 1 < ends.index("repetition"), ends
        assert "perpetual_checks" not in ends
        assert "forget end repetition" in (tmp_path / f"{stem}.rules").read_text()


def test_a_long_chain_of_parents_is_refused(tmp_path):
    chain = "[s0]\nking = k\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n" + "".join(
        f"[s{i}:s{i - 1}]\nnMoveRule = {i}\n" for i in range(1, 12))
    report = import_fsf(_ini(tmp_path, chain), out_dir=tmp_path)
    assert len(report.imported) == 9 and report.refused[0].refusal.setting == "parent"


def test_fen_fields_fill_what_fairy_stockfish_leaves_out():
    fields = fen_fields("8/8/8/8/8/8/8/8[PPpp] w 0 1")
    assert our_fen(fields, castling=False, counting=False) == "8/8/8/8/8/8/8/8[PPpp] w - - 0 1"
    fields = fen_fields("4k3/8/8/8/8/8/8/4K3 w KQkq - 3+3 0 1")
    assert our_fen(fields, castling=False, counting=True) == "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1"


# ------------------------------------------------------------------ the command


def test_cli_imports_and_summarises(tmp_path, capsys):
    ini = _ini(tmp_path, "[small]\nmaxFile = 5\nmaxRank = 5\nking = k\nstartFen = 4k/5/5/5/4K w - - 0 1\n")
    assert main(["import", "fsf", str(ini), "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "small.rules" in out and "imported 1, refused 0" in out


@pytest.mark.parametrize("args,expected", [
    (["import", "fsf", "/nonexistent/variants.ini"], "cannot read"),
    (["import", "fsf", "{ini}", "nosuch"], "no section [nosuch]"),
    (["import", "fsf", "{ini}", "-o", "/nonexistent/dir"], "is not a directory"),
    (["import", "fsf", "{bad}"], "bad.ini:2:1: not a setting"),
])
def test_cli_bad_input_exits_2_without_traceback(tmp_path, capsys, args, expected):
    ini = _ini(tmp_path, "[small]\nking = k\n")
    bad = tmp_path / "bad.ini"
    bad.write_text("[a]\n= nothing\n")
    argv = [a.format(ini=ini, bad=bad) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_usage_errors_are_rules_errors(tmp_path):
    with pytest.raises(UsageError):
        import_fsf(_ini(tmp_path, "[a]\n"), "b", tmp_path)


def test_the_documented_example_is_what_the_import_writes(tmp_path):
    """docs/import.md's example: its variants.ini imports, and the child's file is the one shown."""
    import re

    page = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    ini = re.search(r"```ini\n(.*?)```", page, re.S).group(1)
    shown = re.findall(r"```rules\n(.*?)```", page, re.S)[-1]
    report = import_fsf(_ini(tmp_path, ini).rename(tmp_path / "mine.ini"), out_dir=tmp_path)
    assert len(report.imported) == 2 and not report.refused
    written = report.imported[-1].path.read_text(encoding="utf-8")
    assert written.split("\n\n", 1)[1] == shown
