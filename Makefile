# Set-up and everyday tasks. Everything runs in .venv, created on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
VARIANT ?= chess
LEVEL ?= medium
# pytest-xdist workers of 'make test' (auto: one per core; 0 runs the suite in this one process)
TEST_WORKERS ?= auto

.PHONY: play serve test browser bench docs docs-variants protocol-variants clean

$(BIN)/rules: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-extras: $(BIN)/rules
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## play: create .venv, install, and play $(VARIANT) in the terminal: you (White) against the computer (Black)
play: $(BIN)/rules
	@echo "You play White against the computer (Black, level $(LEVEL): it answers within about a second)."
	$(BIN)/rules play $(VARIANT) --black ai --level $(LEVEL)

$(VENV)/.serve-extras: $(BIN)/rules
	$(BIN)/python -m pip install --quiet -e '.[serve]'
	touch $@

## serve: create .venv, install with the serve extra, and play $(VARIANT) in the browser (rules serve)
serve: $(VENV)/.serve-extras
	$(BIN)/rules serve $(VARIANT) --open

## browser: install Debian's chromium, which the browser tests drive (tests/test_serve_browser.py), if it is missing
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

## test: create .venv, install with the test extra, run the whole suite in $(TEST_WORKERS) parallel workers (pytest-xdist)
test: $(VENV)/.test-extras
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

## bench: perft and random playouts against python-chess, side by side, and the alpha-beta agent's nodes per second
bench: $(VENV)/.test-extras
	$(BIN)/python bench/perft_vs_python_chess.py
	$(BIN)/python bench/playouts.py

$(VENV)/.docs-extras: $(BIN)/rules
	$(BIN)/python -m pip install --quiet -e '.[docs]'
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

clean:
	rm -rf $(VENV) build *.egg-info
