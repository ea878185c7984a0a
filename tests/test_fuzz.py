"""The hostile-input fuzzer (issue 12): any rules text gives a game or a clean RulesError.

Hypothesis draws rules files three ways:

- **mutations** of the bundled files and libraries: tokens deleted, replaced or
  inserted with words of the language (the grammar's keywords and the names
  the bundled files use), numbers changed;
- **grammar-generated declarations**: a top-level declaration derived at random
  from the productions of the grammar itself (its keywords, with names and
  numbers of the kinds the bundled files use), spliced into ``extends chess``;
- **attacks**: a bundled file with one token replaced by a hostile value (deep
  nesting, huge numbers, long strings and names, odd characters, paths to
  files outside the bundle, a declaration repeated many times).

Each text is loaded, compiled and played for a few random moves, under the
guard of :mod:`fuzzing` (a memory cap and a watchdog): the only failure
allowed is a :class:`RulesError`. A modest number of examples runs by
default (a few seconds, the same ones every run); ``-m slow`` runs many
with fresh random data. Positions, moves and command lines have their
fuzzer in ``test_fuzz_positions.py``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from fuzzing import MANY, QUICK, Overrun, bounded, guarded
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import load_spec_text
from dsl.parser import grammar_parser
from interpreter.loading import compile_variant, start_position

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "variants").glob("*.rules")) + sorted((ROOT / "dsl" / "std").glob("*.rules"))
TEXTS = {path: path.read_text(encoding="utf-8") for path in FILES}
TOKEN = re.compile(r'\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|"[^"\n]*"|.')
PLIES = 12


def _keywords() -> list[str]:
    """The literal words and symbols of the grammar's terminals."""
    words = set()
    for terminal in grammar_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str":
            words.add(pattern.value)
        else:
            words.update(w for w in re.findall(r"[a-z][a-z-]+", pattern.value) if w.isascii())
    return sorted(words)


WORDS = sorted(set(_keywords()) | {w for text in TEXTS.values() for w in TOKEN.findall(text) if w.strip()})
DECLARATIONS = ["variant_decl", "board_decl", "armies_decl", "piece_decl", "castling_decl", "stacking_decl",
                "drops_decl", "rules_decl", "setup_decl", "ai_decl", "forget_decl", "include_decl"]
HOSTILE = [
    "(" * 300 + "1" + ")" * 300, "not " * 300 + "in_check", " + ".join(["clock"] * 200), "-" * 300 + "1",
    "9" * 5000, "99999999999", "1e999", "0", "-1", "64", "65", "4097", "1000000",
    '"' + "x" * 20_000 + '"', "N" * 200, '""', '"\\"', '"""', '"\u00df\u4e2d\U0001f600"', "\u00ff", "\x00", "\t\r",
    '"/etc/passwd"', '"/proc/self/environ"', '"/proc/self/mem"', '"/dev/zero"', '"../../../../etc/hosts"',
    '"' + "a" * 5000 + '"', '"."', '"/"', "__class__", "__dict__",
    "piece X { letter X betza \"" + "W" * 60 + "\" }\n" * 70,
    "include orthodox\n" * 40, "range 64 then ride orth range 64 then ride orth range 64",
]


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with token edits applied: (position, operation, word); operation 0 deletes the
    token, 1 replaces it, 2 inserts the word before it, 3 puts a number in its place."""
    tokens = TOKEN.findall(text)
    for position, op, word in edits:
        i = position % len(tokens)
        if op == 0:
            tokens[i] = ""
        elif op == 1:
            tokens[i] = word
        elif op == 2:
            tokens.insert(i, f" {word} ")
        else:
            tokens[i] = str(position % 41)
    return "".join(tokens)


def _edits(words: st.SearchStrategy[str], most: int) -> st.SearchStrategy:
    return st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 3), words), min_size=1, max_size=most)


FILE = st.sampled_from(FILES)
MUTATED = st.tuples(FILE, _edits(st.sampled_from(WORDS), 3)).map(lambda fe: (fe[0], mutate(TEXTS[fe[0]], fe[1])))
ATTACKED = st.tuples(FILE, _edits(st.sampled_from(HOSTILE), 1).map(lambda e: [(p, 1 + op % 2, w) for p, op, w in e])
                     ).map(lambda fe: (fe[0], mutate(TEXTS[fe[0]], fe[1])))
NAMES = sorted({w for text in TEXTS.values() for w in re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", text)})
NUMBER = st.integers(-3, 70).map(str) | st.sampled_from(["4096", "1000000000", "1.5", "-0.5"])
TERMINALS = {  # words the bundled files use, so that generated declarations often mean something
    "NAME": st.sampled_from(NAMES), "LABEL": st.sampled_from(NAMES + ["2p", "3check"]),
    "CLOCK_EVENT": st.sampled_from(["capture", "promotion"] + [n for n in NAMES if n[0].isupper()]),
    "STRING": st.sampled_from(['"a"', '""', '"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"', '"KB*"',
                               '"WfcF"', '"QN"', '"mWfceF"', '"""two\nlines"""', '"#ff0000"', '"\u00df"']),
    "INT": st.integers(0, 70).map(str), "SIGNED_INT": st.integers(-9, 9).map(str),
    "NUMBER": NUMBER, "SIGNED_NUMBER": NUMBER,
}


def _grammar() -> tuple[dict[str, list[list[str]]], dict[str, st.SearchStrategy[str]]]:
    """The grammar's productions (rule -> expansions, each a list of symbol names) and a
    strategy for the text of each terminal: its literal, one of its alternatives, or TERMINALS'."""
    parser = grammar_parser()
    productions: dict[str, list[list[str]]] = {}
    for rule in parser.rules:
        productions.setdefault(rule.origin.name, []).append([sym.name for sym in rule.expansion])
    texts: dict[str, st.SearchStrategy[str]] = {}
    for terminal in parser.terminals:
        pattern = terminal.pattern
        if terminal.name in TERMINALS:
            texts[terminal.name] = TERMINALS[terminal.name]
        elif pattern.type == "str":
            texts[terminal.name] = st.just(pattern.value)
        elif pattern.value.startswith("(?:") and pattern.value.endswith(")"):
            texts[terminal.name] = st.sampled_from([a.replace("\\", "") for a in pattern.value[3:-1].split("|")])
    return productions, texts


PRODUCTIONS, TERMINAL_TEXT = _grammar()


def _heights() -> dict[str, int]:
    """For each rule, the least depth of a derivation that ends in terminals (a fixed point)."""
    height: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for rule, expansions in PRODUCTIONS.items():
            for expansion in expansions:
                parts = [0 if sym in TERMINAL_TEXT else height.get(sym) for sym in expansion]
                if None not in parts and (1 + max(parts, default=0)) < height.get(rule, 1 << 30):
                    height[rule] = 1 + max(parts, default=0)
                    changed = True
    return height


HEIGHT = _heights()
DEEPEST = 12


@st.composite
def derivation(draw, symbol: str, depth: int = 0) -> str:
    """The text of a random derivation of ``symbol``: any expansion while the derivation is
    shallow, then only the expansions that end soonest (so every derivation is finite)."""
    if symbol in TERMINAL_TEXT:
        return draw(TERMINAL_TEXT[symbol])
    expansions = PRODUCTIONS[symbol]
    if depth >= DEEPEST:
        def height(expansion):
            return max((HEIGHT.get(sym, 0) for sym in expansion), default=0)
        least = min(height(e) for e in expansions)
        expansions = [e for e in expansions if height(e) == least]
    expansion = draw(st.sampled_from(expansions))
    return " ".join(draw(derivation(sym, depth + 1)) for sym in expansion)


GENERATED = st.sampled_from(DECLARATIONS).flatmap(derivation).map(
    lambda decl: (ROOT / "fuzz.rules", f"extends chess\n{decl}\n"))


def run_rules(path: Path, text: str, rng: random.Random) -> None:
    """Load, compile and play ``text`` (as if it were the file ``path``) under the guard."""
    def run() -> None:
        game = compile_variant(load_spec_text(text, str(path)))
        pos = start_position(game)
        for _ in range(PLIES):
            legal = pos.legal_moves()
            if not legal:
                break
            pos.push(rng.choice(legal))
    guarded(run, f"{path.name}:\n{text}")


def _fuzz(strategy, profile):
    @profile
    @given(strategy, st.randoms(use_true_random=False))
    def check(case, rng):
        run_rules(case[0], case[1], rng)
    return check


test_mutated_rules_files = _fuzz(MUTATED, settings(QUICK, max_examples=60))
test_attacked_rules_files = _fuzz(ATTACKED, QUICK)
test_generated_declarations = _fuzz(GENERATED, QUICK)
test_mutated_rules_files_many = pytest.mark.slow(_fuzz(MUTATED, MANY))
test_attacked_rules_files_many = pytest.mark.slow(_fuzz(ATTACKED, MANY))
test_generated_declarations_many = pytest.mark.slow(_fuzz(GENERATED, MANY))


def test_the_watchdog_and_the_memory_cap_work():  # the guard of every fuzzer
    with pytest.raises(MemoryError):
        with bounded(memory=64 << 20):
            bytearray(256 << 20)
    with pytest.raises(Overrun):
        with bounded(seconds=0.2):
            while True:
                pass
