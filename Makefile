# Set-up and checks. Only Python (3.11 or later; 3.10 for the library without the
# inspector), pip and make are needed: every target creates .venv and installs what it uses.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: test demo play bench lint docs dist clean graphviz chromium schema

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Editable installs of the package and its extras, never compiled (see build/compiled below).
INSTALL := STATETREE_PURE=1 $(BIN)/python -m pip install --quiet --no-build-isolation -e

$(VENV)/.base: $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install --quiet "setuptools>=77" "Cython>=3.1"
	$(INSTALL) .
	touch $@

# The source tree stays Python (the editable install runs it); the compiled build is a copy
# of the package in build/compiled with the core and the chart runtime compiled with Cython
# (setup.py lists the modules; STATETREE_PURE=1 in the environment skips compiling). It is
# brought up to date whenever a source changed; the targets that run the compiled core put
# it first on PYTHONPATH.
COMPILED := build/compiled
PACKAGE_SOURCES := $(shell find src/statetree -type f -not -path '*/__pycache__/*')
$(COMPILED)/.built: $(VENV)/.base setup.py $(PACKAGE_SOURCES)
	@# A module deleted from the source must not linger in the copy: the copied files go
	@# before each build (caches aside), the extensions when the list of them may change.
	@if [ -n "$(filter setup.py,$?)" ]; then rm -rf $(COMPILED); \
	  elif [ -d $(COMPILED) ]; then find $(COMPILED) -type f ! -name '*.so' \
	    ! -path '*/__pycache__/*' -delete; fi
	$(BIN)/python setup.py --quiet build --build-lib $(COMPILED) --build-temp build/temp
	touch $@
RUN_COMPILED := PYTHONPATH=$(CURDIR)/$(COMPILED)

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
	$(INSTALL) '.[test,game]'
	touch $@

$(VENV)/.bench: $(VENV)/.base
	$(INSTALL) '.[bench]'
	touch $@

# The chart format's JSON Schema says what the policy definitions say: write it again after
# adding or changing a policy (the tests say when it is out of date).
schema: $(VENV)/.base
	$(BIN)/python -m statetree.chart.json_schema src/statetree/chart/schema.json

lint: $(VENV)/.test
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks
	$(BIN)/mypy --strict src

# The suite runs on the compiled core and on the Python source of the same core: both must
# pass, with the same messages. The run on the source leaves out what does not run the core
# in the test process (the browser, packaging and docs-site builds), and its property tests
# draw a quarter of the examples (the full number runs on the compiled core). Meanwhile, on
# the other processor core, the core, book, chart and net tests run compiled on every other
# supported CPython found here (noxfile.py), then the packaging, browser, docs and typing
# tests (which spend much of their time in programs of their own: pip, Chromium, mkdocs,
# mypy) run compiled; that output follows the two runs'. The two cores take about as long
# (11 minutes each on a 2-core machine).
BESIDE := tests/packaging tests/inspect/test_inspect_browser*.py tests/docs tests/typing
BROWSER := --ignore=tests/packaging --ignore-glob="tests/inspect/test_inspect_browser*.py"
BESIDE_SKIP := $(BROWSER) --ignore=tests/docs --ignore=tests/typing
PURE_SKIP := $(BROWSER) --ignore=tests/docs/test_docs_site.py
OTHERS_LOG := build/others.log

test: lint $(COMPILED)/.built
	@$(RUN_COMPILED) $(BIN)/python -c "import statetree.core.build as b; print('core:', b.build_name())"
	@# With a C compiler at hand, a core that did not compile is a failure, not a fallback.
	@[ -n "$$STATETREE_PURE" ] || ! command -v $${CC:-cc} >/dev/null || $(RUN_COMPILED) $(BIN)/python \
	  -c "import statetree, sys; sys.exit(0 if statetree.__compiled__ else 'the core did not compile')"
	@echo "$(BIN)/nox; $(RUN_COMPILED) $(BIN)/pytest $(BESIDE) > $(OTHERS_LOG) (meanwhile)"
	@{ $(BIN)/nox; versions=$$?; echo '$(RUN_COMPILED) $(BIN)/pytest $(BESIDE)'; \
	  $(RUN_COMPILED) $(BIN)/pytest $(BESIDE); beside=$$?; \
	  [ $$versions = 0 ] && [ $$beside = 0 ]; \
	  } > $(OTHERS_LOG) 2>&1 & others=$$!; \
	  echo '$(RUN_COMPILED) $(BIN)/pytest $(BESIDE_SKIP)'; \
	  $(RUN_COMPILED) $(BIN)/pytest $(BESIDE_SKIP); suite=$$?; \
	  echo '$(BIN)/pytest $(PURE_SKIP)'; STATETREE_HYPOTHESIS=brief $(BIN)/pytest $(PURE_SKIP); \
	  pure=$$?; wait $$others; others=$$?; cat $(OTHERS_LOG); \
	  [ $$suite = 0 ] && [ $$pure = 0 ] && [ $$others = 0 ]

$(VENV)/.demo: $(VENV)/.base | graphviz
	$(INSTALL) '.[plot,chart,inspect,batch,game]'
	touch $@

# The showcase. It says first when it runs headless (DEMO_ARGS=--headless, CI, no terminal)
# or has no display (the game then plays a scripted match instead of opening a window).
demo: $(VENV)/.demo $(COMPILED)/.built
	$(RUN_COMPILED) $(BIN)/python examples/demo.py $(DEMO_ARGS)

# The game alone (a window when a display exists): make play PLAY_ARGS="--autoplay".
play: $(VENV)/.demo $(COMPILED)/.built
	$(RUN_COMPILED) $(BIN)/python examples/game $(PLAY_ARGS)

bench: $(VENV)/.bench $(COMPILED)/.built
	$(RUN_COMPILED) $(BIN)/python benchmarks/run.py

$(VENV)/.docs: $(VENV)/.base
	$(INSTALL) '.[docs]'
	touch $@

# The guide and the API reference as a static site in site/ (warnings are errors), which
# works opened from disk, offline.
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site
	@echo "The site is in site/: open site/index.html in a browser (it works from disk,"
	@echo "offline), or serve it: $(BIN)/python -m http.server --bind 127.0.0.1 --directory site 8000,"
	@echo "then open http://127.0.0.1:8000"

$(VENV)/.dist: $(BIN)/python
	$(BIN)/python -m pip install --quiet 'build>=1.2'
	touch $@

# The wheel and the source distribution, in dist/.
dist: $(VENV)/.dist
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .nox
