"""Hostile input past the language (issue 12): compile cost, positions, letters, pictures, the CLI.

Every case once cost minutes or gigabytes, was accepted though wrong, put
markup from a file into a picture, lost a game record or ended in a
traceback; each must now be a clean error (or the right answer).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dsl import RulesError, load_spec_text
from dsl.errors import LimitError, PositionError
from interpreter.cli.main import main
from interpreter.compiler.tables import _maximal_chains
from interpreter.documentation.document import Paragraph, to_html, to_markdown
from interpreter.drawing.render import diagram_of, render_svg
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position, starting_arrays
from interpreter.notation.reading import moves_from_text, parse_move

BIG = "board {{ grid {n} x {n}  zone promotion {{ white: rank {n}  black: rank 1 }}  " \
      "zone pawn_start {{ white: rank 2  black: rank {m} }} }}\n"


def big_board(n: int, pieces: str = "", setup: str = "") -> str:
    """Chess on an n x n board (kings in the corners), with extra pieces and setup lines."""
    corner = "".join(chr(ord("a") + i) for i in ([n // 26 - 1] if n > 26 else [])) + chr(ord("a") + (n - 1) % 26)
    return ("extends chess\n" + BIG.format(n=n, m=n - 1) + pieces +
            f"setup {{ white King at a1  black King at {corner}{n}  {setup} }}\n")


def limit_of(text: str) -> LimitError:
    with pytest.raises(LimitError) as info:
        compile_variant(load_spec_text(text))
    return info.value


# ------------------------------------------------------------------ compile cost


def test_a_board_full_of_queens_stops_at_the_table_budget():
    err = limit_of(big_board(64, setup="white Queen at ranks 2..31  black Queen at ranks 33..63"))
    # The queens are chess's, so the error is at the extends line and names the inherited declaration.
    assert err.limit == "table_entries" and err.loc is not None and err.loc.line == 1
    assert "inherited from orthodox.rules" in err.message


@pytest.mark.parametrize("pattern", [
    "move path ride orth range 64 then ride orth range 64",
    "move path ride orth then ride diag then ride orth then ride diag",
    "move zigzag orth and diag",
])
def test_long_paths_and_zigzags_stop_at_the_table_budget(pattern):
    text = big_board(64, f"piece Crook {{ letter C {pattern} }}\n", "white Crook at b1")
    text = text.replace("extends chess\n", "extends chess\nforget piece Queen\nforget piece Rook\nforget piece Bishop\n"
                        "forget castle short\nforget castle long\n"
                        "piece Pawn { letter P betza \"fmWfcF\" promotes in zone promotion to Knight }\n")
    err = limit_of(text)
    assert err.limit == "table_entries" and err.loc.line == text.splitlines().index(
        next(line for line in text.splitlines() if line.startswith("piece Crook"))) + 1


def test_many_kinds_of_rider_on_a_large_board_stop_at_the_table_budget():
    riders = "".join(f'piece Rider{letter} {{ letter {letter} betza "Q" }}\n' for letter in "ACDEFGHIJLMOSTUVWXYZ")
    assert limit_of(big_board(40, riders)).limit == "table_entries"


def test_a_medium_board_of_riders_compiles():
    game = compile_variant(load_spec_text(big_board(16, setup="white Queen at ranks 2..3  black Queen at ranks 14..15")))
    pos = start_position(game)
    assert len(pos.legal_moves()) > 100


def test_merged_chains_are_the_maximal_ones():
    chains = {(1,): {7}, (1, 2): {7}, (1, 2, 3): {7, 8}, (1, 4): {8}, (5,): {9}}
    assert dict(_maximal_chains(chains)) == {(1, 2, 3): frozenset({7, 8}), (1, 4): frozenset({8}),
                                             (5,): frozenset({9})}


def test_shuffles_are_bounded_before_they_are_enumerated():
    # (no queen or rook on the p-file, nor a queen on the long diagonal: the black king on p16 is not in check)
    four = "white Knight at a2..d2  white Queen at e2..h2  white Rook at i2..l2  white Bishop at m2..p2"
    text = big_board(16, setup=four) + "shuffle rank 2\n"  # 16! / 4!^4: 63 million arrangements
    game = compile_variant(load_spec_text(text.replace("}\nshuffle", "} shuffle")))
    with pytest.raises(LimitError) as info:
        starting_arrays(game)
    assert info.value.limit == "arrangements"
    assert len(starting_arrays(load_game("chess960"))) == 960


# ------------------------------------------------------------------ positions


@pytest.mark.parametrize("fen, fragment", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u00b2 1", "invalid halfmove clock"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \u0663", "invalid fullmove number"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - " + "9" * 5000 + " 1", "too large"),
    ("rnbqkbnr/pppppppp/\u00b2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece symbol"),
    ("rnbqkbnr/pppppppp/" + "9" * 5000 + "/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "too large"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "White is in check, but White has just moved"),
])
def test_bad_fen_fields_are_located_errors(fen, fragment):
    with pytest.raises(PositionError, match=fragment) as info:
        position_from_fen(load_game("chess"), fen)
    assert info.value.loc.path == "<fen>"


def test_check_counters_take_ascii_digits_only():
    game = load_game("threecheck")
    for counters in ("\u00b2+3", "9" * 5000 + "+3"):
        with pytest.raises(PositionError):
            position_from_fen(game, f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {counters} 0 1")


def test_a_king_in_check_is_fine_for_the_side_to_move_and_where_the_rules_allow_it():
    assert len(position_from_fen(load_game("chess"), "4k3/8/8/8/8/8/8/4K2r w - - 0 1").legal_moves()) == 3
    position_from_fen(load_game("antichess"), "4k3/8/8/8/8/8/8/4K2r b - - 0 1")  # no royal check there


def test_a_place_list_setup_whose_second_mover_is_in_check_is_refused_at_its_king():
    """A setup list is a position too: here White's rook on e7 would take the king on its first move."""
    text = 'variant t { title "T" }\nextends chess\nsetup { white King at e1  white Rook at e7  black King at e8 }\n'
    with pytest.raises(RulesError) as info:
        compile_variant(load_spec_text(text, "game.rules"))
    loc = info.value.loc
    assert (loc.path, loc.line, loc.column) == ("game.rules", 3, 45)  # "black King at e8"
    assert "Black is in check, but White moves first" in info.value.render()


def test_too_long_positions_and_move_lists_are_limits():
    game = load_game("chess")
    with pytest.raises(LimitError):
        position_from_fen(game, "8/" * 60_000)
    with pytest.raises(LimitError):
        moves_from_text(start_position(game), "Nf3 Nf6 Ng1 Ng8 " * 501)
    with pytest.raises(LimitError):
        parse_move(start_position(game), "e" * 200)


def test_setup_fen_errors_point_into_the_rules_file():
    for fen, column in (('"  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"', 56),
                        ('"""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"""', 56),
                        ('"4k3/8/8/8/8/8/8/4K2r b - - 0 1"', 33),
                        ('"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u00b2 1"', 65)):
        with pytest.raises(RulesError) as info:
            compile_variant(load_spec_text(f"extends chess\nsetup fen {fen}\n", "game.rules"))
        assert (info.value.loc.path, info.value.loc.line, info.value.loc.column) == ("game.rules", 2, column)


# ------------------------------------------------------------------ letters, locations, attributes


@pytest.mark.parametrize("letter", ["\u4e2d", "\u00df", "\u0131", "\u212a", "1"])
def test_piece_letters_need_two_cases(letter):
    with pytest.raises(RulesError, match="upper- and lower-case|must be one letter") as info:
        compile_variant(load_spec_text(f'extends chess\npiece Odd {{ letter "{letter}" betza "W" }}\n', "game.rules"))
    assert info.value.loc.line == 2


def test_letters_without_case_are_fine_with_prefixes():
    text = ('extends chess\narmies { army white { letters prefix "w" } army black { letters prefix "b" } }\n'
            'piece Zhong { letter "\u4e2d" betza "W" }\n'
            'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"\n')
    text = text.replace('setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"',
                        "setup { white King at e1  black King at e8  white \u4e2d\u4e2d at d1 }".replace(
                            "white \u4e2d\u4e2d at d1", "white Zhong at d1"))
    game = compile_variant(load_spec_text(text))
    assert "w\u4e2d" in game.symbol_code


@pytest.mark.parametrize("text, fragment, line", [
    ("board { grid 8 x 8 }\npiece King { royal }\n", "declares no army", 1),
    ('extends chess\narmies { army white { letters prefix "" } army black { letters prefix "b" } }\n',
     "not one to three letters", 2),
    ('extends chess\narmies { army white { letters prefix "w/" } army black { letters prefix "b" } }\n',
     "not one to three letters", 2),
])
def test_errors_about_the_whole_variant_have_a_location(text, fragment, line):
    with pytest.raises(RulesError, match=fragment) as info:
        compile_variant(load_spec_text(text, "game.rules"))
    assert info.value.loc is not None and (info.value.loc.path, info.value.loc.line) == ("game.rules", line)


def test_attribute_names_are_never_python_attributes():
    text = ('extends chess\nboard { set __class__ = "x" on all  set props = 3 on a1  set value = 1 on b1\n'
            '  zone odd: where __class__ == "x" and props == 3  zone valued: where value == 1 }\n')
    game = compile_variant(load_spec_text(text))
    zones = {name: sorted(game.board.names[c] for c in cells[None]) for name, cells in game.board.zones.items()
             if name in ("odd", "valued")}
    assert zones == {"odd": ["a1"], "valued": ["b1"]}


# ------------------------------------------------------------------ pictures


def test_army_colours_must_be_colours():
    for colour in ('"red\\" onload=\\"alert(1)"', '"</svg><script>alert(1)</script>"', '"url(x)"', '""'):
        with pytest.raises(RulesError, match="is not a colour"):
            load_spec_text(f"extends chess\narmies {{ army white {{ letters upper colour {colour} }} "
                           "army black { letters lower } }\n")
    for colour in ("#fff", "#A0b1C2", "gold", "RebeccaPurple"):
        load_spec_text(f'extends chess\narmies {{ army white {{ letters upper colour "{colour}" }} '
                       'army black { letters lower } }\n')


def test_svg_and_html_escape_what_comes_from_a_file():
    hostile = '<script>alert(1)</script>'
    text = (f'variant x {{ title "{hostile}" description "{hostile} & ![t](http://evil/t.png) [a](javascript:x)" }}\n'
            f'extends chess\narmies {{ army white "{hostile}" {{ letters upper }} army black {{ letters lower }} }}\n')
    game = compile_variant(load_spec_text(text))
    svg = render_svg(game, diagram_of(start_position(game)), title=game.title)
    assert "<script" not in svg
    page = [Paragraph(game.spec.description)]
    assert "<script" not in to_html(page, game.title) and "<img" not in to_html(page, game.title)
    markdown = to_markdown(page)
    assert "<script" not in markdown and "](http" not in markdown and "](javascript" not in markdown
    assert to_markdown([Paragraph("`wP>e` ![King](piece-king.svg)")]) == "`wP>e` ![King](piece-king.svg)\n"


def test_no_file_of_a_rule_page_carries_markup_from_the_rules_file(tmp_path, capsys):
    """Every figure and page ``rules doc`` writes, the example figures' titles too."""
    (tmp_path / "x.rules").write_text('variant x { title "<script>alert(1)</script>" }\nextends chess\n')
    assert main(["doc", str(tmp_path / "x.rules"), "-o", str(tmp_path / "out")]) == 0
    written = sorted((tmp_path / "out").iterdir())
    assert len(written) > 10 and [f.name for f in written if "<script" in f.read_text()] == []


# ------------------------------------------------------------------ the command line


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


@pytest.mark.parametrize("argv, fragment", [
    (["moves", "chess", "--fen", ""], "empty position"),
    (["moves", "chess", "--moves", ""], "--moves is empty"),
    (["moves", "chess", "--moves", "   "], "--moves is empty"),
    (["moves", "chess", "--option", "foo=bar"], "no play modes"),
    (["moves", "superchess", "--option", "foo=bar"], "has no option 'foo'"),
    (["check", "chess", "--include-dir", "/nonexistent"], "is not a directory"),
])
def test_empty_and_unknown_options_are_errors(argv, fragment, capsys):
    status, _, err = run(argv, capsys)
    assert status == 2 and fragment in err


@pytest.mark.parametrize("target", ["/nonexistent/dir/game.pgn", "DIR", "/dev/full"])
def test_the_game_record_is_never_lost(target, tmp_path, capsys, monkeypatch):
    if target == "/dev/full" and not os.path.exists(target):
        pytest.skip("no /dev/full here")
    target = str(tmp_path) if target == "DIR" else target
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    status, out, err = run(["play", "chess", "--white", "random", "--black", "random", "--seed", "3",
                            "--pgn", target], capsys)
    assert status == 2 and "cannot write the game record" in err and "here it is instead" in err
    assert '[Variant "chess"]' in out and out.rstrip().endswith(("1-0", "0-1", "1/2-1/2", "*"))


def test_a_line_longer_than_any_move_is_refused_and_the_game_goes_on(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("e4\n" + "x" * 100_000 + "\ne5\nquit\n"))
    status, out, _ = run(["play", "chess", "--pgn", str(tmp_path / "game.pgn")], capsys)
    assert status == 0 and "more than the limit of 100" in out
    assert (tmp_path / "game.pgn").read_text().split("\n\n")[1].split() == ["1.", "e4", "e5", "*"]


def test_output_files_that_cannot_be_written_are_errors(tmp_path, capsys):
    for argv in (["render", "chess", "-o", "/nonexistent/x.svg"], ["render", "chess", "-o", str(tmp_path)],
                 ["doc", "chess", "-o", "/proc/self/nonexistent"]):
        status, _, err = run(argv, capsys)
        assert status == 2 and "cannot write" in err


def test_check_compiles_every_mode(tmp_path, capsys):
    good = (Path(__file__).resolve().parent.parent / "variants" / "superchess.rules").read_text()
    status, out, _ = run(["check", "superchess"], capsys)
    assert status == 0 and all(f"ok  mode {m}:" in out for m in ("4p", "3p", "2p"))
    broken = good.replace("option solo = dark", "option solo = nosuchteam")
    assert broken != good
    path = tmp_path / "broken.rules"
    path.write_text(broken)
    status, _, err = run(["check", str(path)], capsys)
    assert status == 2 and "nosuchteam" in err


def test_check_warns_when_a_game_can_go_on_forever(tmp_path, capsys):
    path = tmp_path / "forever.rules"
    path.write_text("extends chess\nforget end repetition\nforget end fifty_moves\n")
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 0 and "warning: a game can go on forever" in out
    status, out, _ = run(["check", "chess"], capsys)
    assert "warning" not in out


def test_include_dir_lets_a_file_read_another_directory(tmp_path, capsys):
    library = tmp_path / "library"
    library.mkdir()
    (library / "amazon.rules").write_text('piece Amazon { letter A betza "QN" }\n')
    game = tmp_path / "game" / "game.rules"
    game.parent.mkdir()
    game.write_text(f'extends chess\ninclude "{library}/amazon.rules"\n')
    status, _, err = run(["check", str(game)], capsys)
    assert status == 2 and "may not be read" in err
    status, out, _ = run(["check", str(game), "--include-dir", str(library)], capsys)
    assert status == 0 and "Amazon" in out


# ------------------------------------------------------------------ depths and ply caps (issue 25)


@pytest.mark.parametrize("argv, message, limit", [
    (["perft", "chess", "--depth", "1000"], "--depth 1000: more than the limit of 32", "perft_depth"),
    (["perft", "chess", "--depth", "9" * 20], f"--depth {'9' * 20}: more than the limit of 32", "perft_depth"),
    (["perft", "chess", "--divide", "-d", "9" * 5000], "(5,000 characters): more than the limit of 32", "perft_depth"),
    (["bestmove", "chess", "--depth", "65"], "--depth 65: more than the limit of 64", "search_depth"),
    (["bestmove", "chess", "--agent", "ai:depth=" + "9" * 20], "agent option depth=999", "search_depth"),
    (["bestmove", "chess", "--agent", "ai:mcts:depth=1000"], "agent option depth=1000: more than the limit of 64",
     "search_depth"),
    (["match", "chess", "--seat", "random", "--seat", "random", "--max-plies", "20001"],
     "--max-plies 20001: more than the limit of 20,000", "game_plies"),
    (["analyze", "chess", "--games", "1", "--max-plies", "9" * 20], "--max-plies 999", "game_plies"),
])
def test_depths_and_ply_caps_are_limits_checked_before_the_variant_is_loaded(argv, message, limit, capsys,
                                                                              monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the variant was loaded before the arguments were checked")
    monkeypatch.setattr("interpreter.cli.common.load_game", never)
    status, _, err = run(argv, capsys)
    assert status == 2 and message in err.splitlines()[0] and f"this is the limit '{limit}'" in err


@pytest.mark.parametrize("argv, fragment", [
    (["perft", "chess", "--depth", "-1"], "must be at least 0, not -1"),
    (["perft", "chess", "--depth", "-" + "9" * 5000], "must be at least 0"),
    (["perft", "chess", "--depth", "\u00b2"], "is not a whole number"),
    (["bestmove", "chess", "--depth", "0"], "must be at least 1, not 0"),
    (["match", "chess", "--seat", "random", "--seat", "random", "--max-plies", "0"], "must be at least 1"),
])
def test_depths_and_ply_caps_below_their_least_are_usage_errors(argv, fragment, capsys):
    status, _, err = run(argv, capsys)
    assert status == 2 and fragment in err and len(err) < 500


def test_perft_itself_refuses_a_depth_over_its_limit():
    from dsl.limits import PERFT_DEPTH
    from interpreter.engine.perft import divide, perft
    pos = start_position(load_game("chess"))
    for count in (perft, divide):
        with pytest.raises(LimitError) as info:
            count(pos, PERFT_DEPTH.value + 1)
        assert info.value.limit == "perft_depth"
    assert perft(pos, 0) == 1 and perft(pos, 2) == 400 and sum(n for _, n in divide(pos, 2)) == 400
