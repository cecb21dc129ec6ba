# Everything runs from a local virtual environment, created on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-solver bench-kpat snapshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/spidercli replay fixtures/example-spider-1suit-117.yaml --show 0,60,final

test: $(STAMP)
	COLUMNS=100 $(BIN)/python -m pytest
	$(MAKE) --no-print-directory lint

lint: $(STAMP)
	$(BIN)/ruff check spidercli tests
	$(BIN)/ruff format --check spidercli tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m tests.bench

# Solve 50 fixed deals per suit count (1, 2, 4) with a 60 s budget each, two at a time.
bench-solver: $(STAMP)
	$(BIN)/python -m tests.bench_solver --jobs 2

# Solve KPat's deals 1-20 (1, 2, 4 suits) one at a time, 60 s budget each, side by side with KPat's
# recorded figures; with KPAT_BIN set (a KPat 23.04.3 binary), KPat also solves them in the same run.
bench-kpat: $(STAMP)
	$(BIN)/python -m tests.bench_kpat

# Refresh the syrupy snapshots after an intended change of output; review the diff.
snapshots: $(STAMP)
	COLUMNS=100 $(BIN)/python -m pytest --snapshot-update

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
