# Set-up and checks. Only Python (>= 3.10), pip and make are needed: every target
# creates .venv and installs what it uses.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: test demo bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.base: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test: $(VENV)/.base
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

demo: $(VENV)/.base
	$(BIN)/python examples/demo.py

bench: $(VENV)/.bench
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
