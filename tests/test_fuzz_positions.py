"""The hostile-input fuzzer for positions, moves and command lines (issue 12).

Hypothesis draws:

- **FEN strings**: the start of a bundled variant (or a position a few random
  moves later) with characters replaced, inserted or deleted from an alphabet
  of what FEN is made of and what it must refuse (Unicode digits, huge
  numbers, brackets, stacks, facings), or text of that alphabet alone;
- **move strings**: cell names, piece letters and the signs of SAN and from-to
  moves run together at random, alone or in a list;
- **command lines**: a subcommand of ``rules`` with a variant name or a
  hostile path, and options drawn from every option the commands take, with
  values of the kinds above (and some that are not values at all).

What must hold: a FEN is read or refused with a RulesError, and a position
read is one the engine can move in and whose own FEN reads back; a move is
read as one of the legal moves or refused; a command exits 0, or 2 with a
message and no traceback. Every input runs under the guard of
:mod:`fuzzing` (memory cap, watchdog). ``play`` and ``doc`` are left out
(a game at the terminal waits for a person; the rule pages take seconds to
draw) and have tests of their own; ``perft`` depths stay small.
"""

from __future__ import annotations

import io
import random
from contextlib import redirect_stderr, redirect_stdout
from functools import lru_cache

import pytest
from fuzzing import MANY, QUICK, guarded
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import RulesError, bundled_names
from interpreter.cli.main import main
from interpreter.loading import load_game, position_from_fen, start_position
from interpreter.notation.fen import to_fen
from interpreter.notation.reading import moves_from_text, parse_move

QUICK_VARIANTS = ["chess", "crazyhouse", "threecheck", "locking", "superchess", "glinski", "mccooey"]
ALL_VARIANTS = bundled_names()
HOSTILE = ["", " ", "9" * 5000, "99999999999", "\u00b2", "\u0663", "\uff15", "-1", "+", "\x00", "\t", "\u00df",
           "\u4e2d", "(", ")", "[", "]", "~", ">", ",", "/", "*", "#", "?", "\ud800"]


@lru_cache(maxsize=None)
def _game(name: str):
    return load_game(name)


def _position(name: str, plies: int, seed: int):
    """A position of ``name``: its start, then ``plies`` random legal moves."""
    game = _game(name)
    pos = start_position(game)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        pos.push(rng.choice(sorted(legal, key=repr)))
    return pos


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with character edits (position, 0 delete / 1 replace / 2 insert, new text)."""
    chars = list(text)
    for at, op, new in edits:
        i = at % (len(chars) + 1)
        if op == 0 and i < len(chars):
            del chars[i]
        elif op == 1 and i < len(chars):
            chars[i] = new
        else:
            chars.insert(i, new)
    return "".join(chars)


FEN_ALPHABET = list("0123456789/ -+[]()~>,wbtrKQRBNPkqrbnpabcdefghij") + HOSTILE


@st.composite
def fens(draw, variants: list[str]):
    name = draw(st.sampled_from(variants))
    if draw(st.integers(0, 4)) == 0:
        return name, draw(st.lists(st.sampled_from(FEN_ALPHABET), max_size=60).map("".join))
    base = to_fen(_position(name, draw(st.integers(0, 8)), draw(st.integers(0, 99))))
    edits = draw(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 2), st.sampled_from(FEN_ALPHABET)),
                          min_size=1, max_size=4))
    return name, _edited(base, edits)


def check_fen(name: str, fen: str) -> None:
    def run() -> None:
        game = _game(name)
        pos = position_from_fen(game, fen)
        pos.legal_moves()
        position_from_fen(game, to_fen(pos))  # what the engine writes, it reads
    guarded(run, f"{name}: {fen!r}")


@st.composite
def move_texts(draw, variants: list[str]):
    name = draw(st.sampled_from(variants))
    game = _game(name)
    words = (list(game.board.names[:40]) + [k.letter for k in game.kinds] + list("xX=+#-*!?@") +
             ["O-O", "O-O-O", "0-0", " sep", "e.p.", "1.", "...", "1-0", "*"] + HOSTILE)
    parts = draw(st.lists(st.sampled_from(words), min_size=0, max_size=6))
    joiner = draw(st.sampled_from(["", " ", "  "]))
    return name, draw(st.integers(0, 6)), joiner.join(parts)


def check_move(name: str, plies: int, text: str) -> None:
    def run() -> None:
        pos = _position(name, plies, 7)
        before = to_fen(pos)
        try:
            assert parse_move(pos, text) in pos.legal_moves()
        except RulesError:
            pass
        try:
            played = moves_from_text(pos, text)
        except RulesError:
            assert to_fen(pos) == before, "a refused move list left the position changed"
            return
        for _ in played:
            pos.pop()
        assert to_fen(pos) == before
    guarded(run, f"{name} after {plies} plies: {text!r}")


COMMANDS = ["list", "check", "perft", "moves", "render"]
OPTION_VALUES = {
    "--fen": st.sampled_from(["", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u00b2 1"] + HOSTILE),
    "--moves": st.sampled_from(["", "e4", "e4 e5 Nf3", "e2e4 e7e5", "Nf6", "O-O", "e4 " * 30] + HOSTILE),
    "--array": st.sampled_from(["0", "959", "960", "-1", "x", "9" * 30]),
    "--mode": st.sampled_from(["2p", "3p", "4p", "x", ""]),
    "--option": st.sampled_from(["solo=light", "solo=x", "foo=bar", "=", "x", ""]),
    "--depth": st.sampled_from(["0", "1", "2", "-1", "x", "", "33", "1000", "9" * 20, "9" * 5000, "\u00b2"]),
    "--highlight": st.sampled_from(["e4", "e4,d5", "z9", "", ",", "e4" * 40]),
    "--arrows": st.sampled_from(["e2e4", "e2-e4,g1f3", "e2", "zz", "", "-"]),
    "--include-dir": st.sampled_from([".", "/nonexistent", "", "/proc/self", "variants"]),
    "-o": st.sampled_from(["/nonexistent/x.svg", "/dev/full", "-", "/"]),
}
FLAGS = ["--divide", "--json", "--cell-names", "--help", "-h", "--nonsense", "-"]
VARIANT_ARGS = ["chess", "crazyhouse", "superchess", "chess960", "nosuch", "", "../../etc/passwd",
                "/proc/self/environ", "/dev/zero", "/tmp", "a" * 5000, "variants/chess.rules", "-x"]


@st.composite
def command_lines(draw):
    argv = [draw(st.sampled_from(COMMANDS + ["", "nosuch"]))]
    if argv[0] != "list" and draw(st.integers(0, 9)):
        argv.append(draw(st.sampled_from(VARIANT_ARGS)))
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.integers(0, 3)):
            option = draw(st.sampled_from(sorted(OPTION_VALUES)))
            argv += [option, draw(OPTION_VALUES[option])]
        else:
            argv.append(draw(st.sampled_from(FLAGS)))
    if argv[0] == "perft" and "--depth" not in argv and "-d" not in argv:
        argv += ["--depth", draw(st.sampled_from(["0", "1"]))]
    return argv


def check_command(argv: list[str]) -> None:
    def run() -> None:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as done:  # --help
                status = done.code or 0
        assert status in (0, 2), f"exit status {status}"
        assert "Traceback" not in err.getvalue()
        if status == 2:
            assert err.getvalue().strip(), "exit 2 without a message"
    guarded(run, repr(argv))


def _fuzz(strategy, profile, check):
    @profile
    @given(strategy)
    def test(case):
        check(*case) if isinstance(case, tuple) else check(case)
    return test


test_fen_strings = _fuzz(fens(QUICK_VARIANTS), QUICK, check_fen)
test_move_strings = _fuzz(move_texts(QUICK_VARIANTS), QUICK, check_move)
test_command_lines = _fuzz(command_lines(), QUICK, check_command)
test_fen_strings_many = pytest.mark.slow(_fuzz(fens(ALL_VARIANTS), MANY, check_fen))
test_move_strings_many = pytest.mark.slow(_fuzz(move_texts(ALL_VARIANTS), MANY, check_move))
test_command_lines_many = pytest.mark.slow(_fuzz(command_lines(), settings(MANY, max_examples=600), check_command))
