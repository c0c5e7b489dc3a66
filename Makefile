# perfwh: `make` sets everything up and runs the main job; `make test` runs the tests.
# Each stage has its own target; they read and write data/curated/ only.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PERFWH := $(VENV)/bin/perfwh
STAMP  := $(VENV)/.installed

# Great Expectations: no usage statistics, no network.
export GX_ANALYTICS_ENABLED := false

.PHONY: all install warehouse test bench clean requirements

all: warehouse

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Raw reports -> data/curated/warehouse.duckdb (+ Parquet), rules run through GX.
warehouse: $(STAMP)
	$(PERFWH) build

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run_all.py

# Recompile the pinned requirements.txt from requirements.in (needs pip-tools).
requirements:
	$(PY) -m pip install --quiet pip-tools
	$(VENV)/bin/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.txt requirements.in

clean:
	rm -rf data/curated site/_site .pytest_cache test-artifacts
