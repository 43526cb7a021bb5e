# keeper: `make demo` to try it, `make test` to check it. Both set up .venv on their own.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/keeper chat

# One pytest-xdist worker per core (CI has 2), handed one test at a time in collection
# order as it frees up: the slow process tests in tests/acceptance start first, on both
# workers (in chunks, the first worker got all of them). In one process instead:
# `.venv/bin/pytest` (or `-p no:xdist`, or `make test PYTEST_WORKERS=0`).
PYTEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --maxschedchunk 1

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/callback.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
