# Set-up and everyday tasks. Everything runs in .venv, created on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
VARIANT ?= chess
LEVEL ?= medium
# ENGINE=fairy: Fairy-Stockfish (Debian's fairy-stockfish, 'make engines') plays the computer's side of
# 'make play' at one second a move, and is offered as the seat engine:fairy on the page of 'make serve'
ENGINE ?= ai
FAIRY ?= /usr/games/fairy-stockfish
OPPONENT := $(if $(filter fairy,$(ENGINE)),uci:$(FAIRY):time=1,ai)
# pytest-xdist workers of 'make test' (auto: one per core; 0 runs the suite in this one process)
TEST_WORKERS ?= auto

PYTEST ?= $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup
# The sources setup.py compiles with mypyc (interpreter/native.py lists them).
COMPILED_SOURCES := $(wildcard interpreter/engine/*.py) interpreter/compiler/generators.py interpreter/compiler/native_game.py interpreter/agents/incremental.py \
                    interpreter/agents/search.py interpreter/native.py setup.py

.PHONY: play serve test test-compiled test-pure compiled browser engines bench docs docs-variants protocol-variants textmate clean

# The editable install compiles the engine with mypyc beside its sources when it can (setup.py);
# the extras below are installed with RULES_DSL_PURE=1, so that they do not compile it again.
$(BIN)/rules: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-extras: $(BIN)/rules
	RULES_DSL_PURE=1 $(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## compiled: rebuild the compiled engine in place (mypyc) if one of its sources changed since it was built;
## fails when mypyc rejects the sources (a type error: an install would quietly be pure Python), not when
## there is no C compiler
compiled: interpreter/_build.json
interpreter/_build.json: $(COMPILED_SOURCES) | $(VENV)/.test-extras
	$(BIN)/python setup.py --quiet build_ext --inplace
	@$(BIN)/python -c 'import json, sys; r = json.load(open("$@")).get("reason", ""); \
	  sys.exit(f"rules-dsl: make compiled: {r}: mypy'"'"'s errors are above" if r.startswith("mypyc failed") else 0)' \
	  || { rm -f $@; exit 1; }
	touch $@

## play: create .venv, install, and play $(VARIANT) in the terminal: you (White) against the computer (Black);
## ENGINE=fairy: against Fairy-Stockfish
play: $(BIN)/rules
	@if [ "$(ENGINE)" = fairy ] && [ ! -x "$(FAIRY)" ]; then \
	  echo "Fairy-Stockfish is not installed at $(FAIRY): 'make engines' (or apt-get install fairy-stockfish) installs it"; exit 2; fi
	@echo "You play White against $(if $(filter fairy,$(ENGINE)),Fairy-Stockfish (Black, one second a move),the computer (Black, level $(LEVEL): it answers within about a second))."
	$(BIN)/rules play $(VARIANT) --black $(OPPONENT) --level $(LEVEL)

$(VENV)/.serve-extras: $(BIN)/rules
	RULES_DSL_PURE=1 $(BIN)/python -m pip install --quiet -e '.[serve]'
	touch $@

## serve: create .venv, install with the serve extra, and play $(VARIANT) in the browser (rules serve)
serve: $(VENV)/.serve-extras
	$(BIN)/rules serve $(VARIANT) --open $(if $(filter fairy,$(ENGINE)),--engine fairy=$(FAIRY):time=1)

## browser: install Debian's chromium, which the browser tests drive (tests/test_serve_browser.py), and Debian's
## Noto CJK fonts (SIL Open Font Licence), so that their screenshots show the glyphs of xiangqi and janggi, if missing
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@fc-list :lang=zh 2>/dev/null | grep -q . || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null; }

## engines: install Debian's fairy-stockfish and stockfish (/usr/games), opponents of 'make play ENGINE=fairy' and the tests
## of external engines (tests/test_external_engine.py, tests/test_xboard_engine.py), if they are missing
engines:
	@test -x /usr/games/fairy-stockfish -a -x /usr/games/stockfish || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fairy-stockfish stockfish >/dev/null; }

## test: create .venv, install with the test extra, run the whole suite on the compiled engine, then on pure Python,
## each in $(TEST_WORKERS) parallel workers (pytest-xdist)
test: test-compiled test-pure

## test-compiled: the whole suite on the compiled engine (rebuilt first if stale; pure Python where it cannot be built)
test-compiled: $(VENV)/.test-extras compiled
	$(BIN)/rules --version
	$(PYTEST)

## test-pure: the whole suite on pure Python (RULES_DSL_PURE=1)
test-pure: $(VENV)/.test-extras
	RULES_DSL_PURE=1 $(PYTEST)

## bench: perft and random playouts against python-chess, side by side, and the alpha-beta agent's nodes per second
bench: $(VENV)/.test-extras compiled
	$(BIN)/python bench/perft_vs_python_chess.py
	$(BIN)/python bench/playouts.py

$(VENV)/.docs-extras: $(BIN)/rules
	RULES_DSL_PURE=1 $(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

## docs: build the documentation site from docs/ into site/ with mkdocs, in strict mode
docs: $(VENV)/.docs-extras
	$(BIN)/mkdocs build --strict --quiet

## docs-variants: regenerate docs/variants, the rule pages of every bundled variant, from the .rules files
docs-variants: $(BIN)/rules
	rm -rf docs/variants
	$(BIN)/python -m interpreter.documentation.pages docs/variants

## protocol-variants: rewrite interpreter/protocols/carried.json, the variants UCI and XBoard can carry
protocol-variants: $(BIN)/rules
	$(BIN)/python -m interpreter.protocols.games

## textmate: rewrite editors/vscode/syntaxes/rules.tmLanguage.json, the editors' grammar, from dsl/grammar.lark
textmate: $(BIN)/rules
	$(BIN)/python -m dsl.textmate

clean:
	rm -rf $(VENV) build *.egg-info interpreter/_build.json
	find interpreter -name '*.so' -delete
