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

# One pytest-xdist worker per core (CI has 2), tests handed out in collection order as
# workers free up, so the slow process tests in tests/acceptance start first. In one
# process instead: `.venv/bin/pytest` (or `make test PYTEST_WORKERS=0`).
PYTEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/callback.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
