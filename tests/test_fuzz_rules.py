"""A rules file that `rules check` accepts never crashes the engine.

Mutates the bundled rules files at random (tokens deleted, replaced by
other words of the language, numbers changed), then loads, compiles and
plays a few random moves: every failure must be a RulesError (reported
with its location), never another exception.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dsl import RulesError, load_spec_text
from interpreter.loading import compile_variant
from interpreter.loading import start_position

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "variants").glob("*.rules")) + sorted((ROOT / "dsl" / "std").glob("*.rules"))
TOKEN = re.compile(r'\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|"[^"\n]*"|.')


def mutate(text: str, words: list[str], rng: random.Random) -> str:
    tokens = TOKEN.findall(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        op = rng.random()
        if op < 0.3:
            tokens[i] = ""
        elif op < 0.6:
            tokens[i] = rng.choice(words)
        elif op < 0.8:
            tokens.insert(i, f" {rng.choice(words)} ")
        else:
            tokens[i] = str(rng.randint(0, 40))
    return "".join(tokens)


def run(seed: int, trials: int) -> None:
    rng = random.Random(seed)
    texts = [(path, path.read_text()) for path in FILES]
    words = sorted({w for _, text in texts for w in TOKEN.findall(text) if w.strip()})
    for _ in range(trials):
        path, text = rng.choice(texts)
        mutated = mutate(text, words, rng)
        try:
            game = compile_variant(load_spec_text(mutated, str(path)))
            pos = start_position(game)
            for _ in range(12):
                legal = pos.legal_moves()
                if not legal:
                    break
                pos.push(rng.choice(legal))
        except RulesError:
            pass
        except Exception as err:  # pragma: no cover - the failure message carries the file
            pytest.fail(f"{type(err).__name__}: {err}\n--- mutated {path.name} ---\n{mutated}")


@pytest.mark.parametrize("seed", range(4))
def test_mutated_rules_files_fail_cleanly(seed):
    run(seed, 40)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 120))
def test_mutated_rules_files_fail_cleanly_many(seed):
    run(seed, 200)
