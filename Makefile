# perfwh: `make` sets everything up and runs the main job; `make test` runs the tests.
# One target per stage; each stage reads what the previous one wrote under data/curated/.
#   install -> warehouse (parse, load, data-quality rules through GX) -> models
#           -> notebooks -> site

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PERFWH := $(VENV)/bin/perfwh
STAMP  := $(VENV)/.installed

# Great Expectations: no usage statistics, no network.
export GX_ANALYTICS_ENABLED := false

.PHONY: all install warehouse models notebooks site test bench clean requirements

all: site

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	# The notebooks' kernel, registered inside the venv with an absolute interpreter path.
	$(abspath $(PY)) -m ipykernel install --sys-prefix --name perfwh --display-name "perfwh (.venv)" >/dev/null
	# Headless Chromium for the site's browser tests (Debian's package; Playwright's own
	# browser download does not work offline).
	command -v chromium >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }
	touch $(STAMP)

# Raw reports -> data/curated/warehouse.duckdb and data/curated/parquet/, with the
# data-quality findings (rules run through Great Expectations).
warehouse: $(STAMP)
	$(PERFWH) build

# Cost-vs-size models and leave-one-size-out predictions -> model_fits, model_predictions.
models: warehouse
	$(PERFWH) models

# The analysis notebooks, executed headless.
notebooks: models
	$(PERFWH) notebooks

# The website (quarto render when quarto is on PATH, else nbclient + pandoc).
site: notebooks
	$(PERFWH) site

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	# hyperfine (Debian's package) times whole commands; bench_build.py falls back without it.
	command -v hyperfine >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hyperfine; } || true
	$(PY) bench/run_all.py

# Recompile the pinned requirements.txt from requirements.in (needs pip-tools).
requirements: $(STAMP)
	$(PY) -m pip install --quiet pip-tools
	$(VENV)/bin/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.txt requirements.in

clean:
	rm -rf data/curated site/_site .pytest_cache test-artifacts
