# Everything runs from a local virtual environment, created on first use.
# PYTHON picks the interpreter (3.10 to 3.13), e.g. make test PYTHON=python3.13.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What replay needs (typer, pyyaml, rich) and serve (uvicorn, httptools: the serve extra), and on
# top of it the development tools.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-slow lint bench bench-serve bench-solver bench-kpat bench-sweep bench-fair fuzz snapshots i18n pictures clean table

# The interpreter is checked before use: one that cannot start (not installed, a pyenv shim for a
# version pyenv does not have) is told apart from one that starts but is older than 3.10.
$(BIN)/python:
	@version=$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>&1) || \
	  { echo "make: cannot run $(PYTHON): $$(echo "$$version" | head -n 1)"; \
	    echo "make: name an interpreter that runs, by name or by path: PYTHON=python3.12, PYTHON=/usr/bin/python3.11"; exit 1; }; \
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || \
	  { echo "make: spidercli needs Python 3.10 or newer; $(PYTHON) is Python $$version (try PYTHON=python3.12)"; exit 1; }
	@echo "make: creating the virtual environment $(VENV) with $$($(PYTHON) --version)"
	$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip

# The solver's optional compiled passes (setup.py builds them).
COMPILED := spidercli/solver/_beam.c spidercli/solver/_proof.c spidercli/solver/_passes.h

$(RUN_STAMP): pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	@echo "make: installing spidercli and what it needs to run (typer, pyyaml, rich; uvicorn for serve) into $(VENV)"
	$(BIN)/python -m pip install --quiet -e '.[serve]'
	@touch $@

$(DEV_STAMP): pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	@echo "make: installing spidercli with its test tools (pytest, syrupy, hypothesis, jsonschema, ruff, mypy, import-linter) into $(VENV)"
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(RUN_STAMP)

demo: $(RUN_STAMP)
	@echo "make: replaying fixtures/example-spider-1suit-117.yaml, a 1-suit Spider win in 117 moves:"
	@echo "make: the boards at the start, after entry 60 and at the end, then the verdict and score"
	$(BIN)/spidercli replay fixtures/example-spider-1suit-117.yaml --show 0,60,final

# SPIDERCLI_REQUIRE_COMPILED: a test fails when the solver's compiled beam pass was not built (it
# needs a C compiler); REQUIRE_COMPILED=0 lets the tests pass without it (pure Python alone).
REQUIRE_COMPILED ?= 1
# TEST_JOBS: the test processes (pytest-xdist), one a core by default; TEST_JOBS=0 runs the suite in
# one process (as make snapshots does: syrupy finds and removes unused snapshots only there;
# under xdist tests/test_snapshots_used.py finds them).
TEST_JOBS ?= auto
test: $(DEV_STAMP)
	COLUMNS=100 SPIDERCLI_REQUIRE_COMPILED=$(REQUIRE_COMPILED) $(BIN)/python -m pytest -n $(TEST_JOBS) -m "not slow"
	$(MAKE) --no-print-directory lint

# The long runs make test leaves out (tests marked slow: whole solves with the pure Python pass,
# which tests/test_beam_compiled.py shows equal to the compiled one, and the widest property and
# browser sweeps); CI runs them after make test.
test-slow: $(DEV_STAMP)
	COLUMNS=100 SPIDERCLI_REQUIRE_COMPILED=$(REQUIRE_COMPILED) $(BIN)/python -m pytest -n $(TEST_JOBS) -m slow

# lint-imports: the floors of docs/architecture.md and the engine's independence, as contracts in
# pyproject.toml ([tool.importlinter]).
lint: $(DEV_STAMP)
	$(BIN)/ruff check spidercli tests
	$(BIN)/ruff format --check spidercli tests
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(DEV_STAMP)
	$(BIN)/python -m tests.bench

# spidercli serve under load, on loopback only (docs/serve.md): wrk (Debian's package) with
# keep-alive at 1, 16 and 64 connections, on the 117-move example and on a mix of the fixtures'
# logs (illegal ones too), beside the in-process API in the same run; a few minutes.
bench-serve: $(DEV_STAMP)
	$(BIN)/python -m tests.bench_serve

# Solve 50 fixed deals per suit count (1, 2, 4) with a 60 s budget each, two at a time.
bench-solver: $(DEV_STAMP)
	$(BIN)/python -m tests.bench_solver --jobs 2

# Solve KPat's deals (KPAT_DEALS, default 401-420; 1, 2, 4 suits) one process at a time, 60 s budget
# each, timing each whole `spidercli solve` process's CPU; with KPAT_BIN set (a KPat 23.04.3 binary),
# KPat solves each deal in the same run, timed the same way (else its recorded figures, deals 1-20).
bench-kpat: $(DEV_STAMP)
	$(BIN)/python -m tests.bench_kpat

# A long fuzzing run, not part of make test (docs/fuzzing.md): the fast paths' differential
# fuzzer, then each campaign of tests/fuzz_hostile.py (the API, the two YAML readers, YAML tags,
# import kpat, record, verify's workers, a full disk, sweep's output files), FUZZ_SECONDS each,
# under nice. Failing inputs are written to FUZZ_OUT; the exit status is 1 when any failed. Some
# 45 min with the defaults (9 runs of FUZZ_SECONDS).
FUZZ_SECONDS ?= 300
FUZZ_SEED ?= 1
FUZZ_OUT ?= /tmp/spidercli-fuzz
fuzz: $(DEV_STAMP)
	mkdir -p $(FUZZ_OUT)
	nice $(BIN)/python -m tests.fuzz_fastpaths --cases 10000000 --seconds $(FUZZ_SECONDS) \
	  --seed $(FUZZ_SEED) --out $(FUZZ_OUT)
	nice $(BIN)/python -m tests.fuzz_hostile all --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) \
	  --out $(FUZZ_OUT)

# Sweep KPat's and PySol's deals 1-1000 with 4 suits and 1-200 with 1 and 2 suits, 60 s budget a
# deal, two at a time (many CPU-hours); records in bench-sweep/*.jsonl, resumed when run again.
# BENCH_SWEEP_ARGS narrows it, e.g. BENCH_SWEEP_ARGS="--first 50 --timeout 20 --sets kpat-4 pysol-4".
bench-sweep: $(DEV_STAMP)
	$(BIN)/python -m tests.bench_sweep --jobs 2 $(BENCH_SWEEP_ARGS)

# The fair player's strength (docs/fair.md): PySol's deals 1-1000 with 1, 2 and 4 suits played by
# following `hint --fair` without undo, at the shipped budget, two games at a time at nice 10 (a
# few CPU-hours); records in bench-fair/games.jsonl, resumed when run again. BENCH_FAIR_ARGS
# narrows it or plays the budget curve, e.g. BENCH_FAIR_ARGS="--suits 4 --deals 1-100" or
# BENCH_FAIR_ARGS="--curve --out bench-fair/curve.jsonl".
bench-fair: $(DEV_STAMP)
	$(BIN)/python -m tests.bench_fair --jobs 2 $(BENCH_FAIR_ARGS)

# The settled table (docs/deals.md): for each set of TABLE_SETS, sweep its deals 1-32000 under
# nice into TABLE_DIR (resumable: run it again after a stop; the records committed in
# fixtures/sweeps/ as SET.jsonl.xz, SET-retry.jsonl.xz and SET-grades.jsonl.xz are unpacked there
# first when TABLE_DIR has none), sweep again the deals it gave up on with the longer budget, one at
# a time, then check every record and write spidercli/sweeps/tables/SET.txt.xz; grade the first
# TABLE_GRADES deals a pick with seed 0 draws (resumable), write the table again with the grades,
# and docs/deals.md's figures. Many CPU-hours for a whole set (docs/deals.md).
TABLE_SETS ?= PS4 PS2 PS1
TABLE_DIR ?= table-runs
TABLE_ARGS ?= --timeout 60 --jobs 2
TABLE_RETRY_ARGS ?= --timeout 7200 --max-states 1000000000 --jobs 1
TABLE_GRADES ?= 8
table: $(DEV_STAMP)
	mkdir -p $(TABLE_DIR)
	for s in $(TABLE_SETS); do \
	  first=$(TABLE_DIR)/$$s.jsonl; retry=$(TABLE_DIR)/$$s-retry.jsonl; \
	  grades=$(TABLE_DIR)/$$s-grades.jsonl; \
	  for f in $$s $$s-retry $$s-grades; do \
	    [ -e $(TABLE_DIR)/$$f.jsonl ] || [ ! -e fixtures/sweeps/$$f.jsonl.xz ] || \
	    xz -dc fixtures/sweeps/$$f.jsonl.xz > $(TABLE_DIR)/$$f.jsonl || exit 1; \
	  done; \
	  nice -n 19 $(BIN)/spidercli sweep $$s-1..32000 $(TABLE_ARGS) -o $$first || exit 1; \
	  codes=$$($(BIN)/python -m tests.tools.table gave-up $$s $$first $$retry) || exit 1; \
	  if [ -n "$$codes" ]; then \
	    nice -n 19 $(BIN)/spidercli sweep $$codes $(TABLE_RETRY_ARGS) -o $$retry || exit 1; \
	  fi; \
	  touch $$retry $$grades; \
	  $(BIN)/python -m tests.tools.table build $$s $$first $$retry --grades $$grades || exit 1; \
	  nice -n 19 $(BIN)/python -m tests.tools.table grade $$s --seed 0 --count $(TABLE_GRADES) \
	    --jobs 2 -o $$grades || exit 1; \
	  $(BIN)/python -m tests.tools.table build $$s $$first $$retry --grades $$grades || exit 1; \
	done
	$(BIN)/python -m tests.tools.table doc

# Refresh the syrupy snapshots after an intended change of output; review the diff.
snapshots: $(DEV_STAMP)
	COLUMNS=100 $(BIN)/python -m pytest --snapshot-update

# Make docs/replay-start.png, replay-end.png and replay-refused.png again from the program as it
# is: the pages replay --html writes, captured by headless Chromium (docs/html.md says how).
pictures: $(DEV_STAMP)
	$(BIN)/python -m tests.tools.pictures docs

# Refresh the message catalogs: extract the texts for people into spidercli/locale/spidercli.pot,
# merge them into the Czech and Finnish .po files, then compile the .mo files the package ships.
# Translate what the update adds (the tests fail on an untranslated or fuzzy entry) and run it again.
# The languages are i18n.LANGUAGES' (English, the messages' own, has no catalog).
LOCALES = $(shell $(BIN)/python -c 'from spidercli.text.i18n import LANGUAGES; print(*LANGUAGES[1:])')
i18n: $(DEV_STAMP)
	$(BIN)/pybabel extract --project=spidercli --copyright-holder="the spidercli authors" \
	  --version="$$($(BIN)/python -c 'import spidercli; print(spidercli.__version__)')" \
	  --sort-by-file --add-location=file --no-wrap -k Nn_:1,2 -k _N -o spidercli/locale/spidercli.pot spidercli
	for l in $(LOCALES); do \
	  if [ -f spidercli/locale/$$l/LC_MESSAGES/spidercli.po ]; then \
	    $(BIN)/pybabel update --no-wrap --ignore-obsolete -D spidercli -i spidercli/locale/spidercli.pot -d spidercli/locale -l $$l; \
	  else \
	    $(BIN)/pybabel init --no-wrap -D spidercli -i spidercli/locale/spidercli.pot -d spidercli/locale -l $$l; \
	  fi || exit 1; \
	done
	$(BIN)/pybabel compile --statistics -D spidercli -d spidercli/locale

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache .grimp_cache *.egg-info build dist
