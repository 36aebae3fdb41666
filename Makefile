# Set-up and checks. Only Python (>= 3.10), pip and make are needed: every target
# creates .venv and installs what it uses.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: test demo play bench lint docs dist clean graphviz chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.base: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# SVG/PNG plots need the system Graphviz; install it (Debian/Ubuntu) when it is missing.
graphviz:
	@command -v dot >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	  S=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$S apt-get update -qq && $$S apt-get install -y -qq graphviz >/dev/null; }

# Browser tests of the inspector drive the system Chromium (never a downloaded browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	  S=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$S apt-get update -qq && $$S apt-get install -y -qq chromium >/dev/null; }

$(VENV)/.test: $(VENV)/.base | graphviz chromium
	$(BIN)/python -m pip install --quiet -e '.[test,game]'
	touch $@

$(VENV)/.bench: $(VENV)/.base
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

lint: $(VENV)/.test
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks
	$(BIN)/mypy --strict src

test: lint
	$(BIN)/pytest

$(VENV)/.demo: $(VENV)/.base | graphviz
	$(BIN)/python -m pip install --quiet -e '.[plot,chart,inspect,batch,game]'
	touch $@

demo: $(VENV)/.demo
	$(BIN)/python examples/demo.py $(DEMO_ARGS)

# The game alone (a window when a display exists): make play PLAY_ARGS="--autoplay".
play: $(VENV)/.demo
	$(BIN)/python examples/game $(PLAY_ARGS)

bench: $(VENV)/.bench
	$(BIN)/python benchmarks/run.py

$(VENV)/.docs: $(VENV)/.base
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

# The guide and the API reference as a static site in site/ (warnings are errors).
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

$(VENV)/.dist: $(BIN)/python
	$(BIN)/python -m pip install --quiet 'build>=1.2'
	touch $@

# The wheel and the source distribution, in dist/.
dist: $(VENV)/.dist
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
