# perfwh: `make` sets everything up and runs the main job; `make test` runs the tests.
#
# One target per stage, each a file (a stamp under data/curated/.stamps/) that depends on the
# files the stage reads, so `make` re-runs a stage only when something it reads changed:
#   install -> warehouse (parse, load) -> findings (the rules, through Great Expectations,
#              the models fitted between their two passes) -> models -> notebooks -> site
# Changing a rule file re-runs findings, models, notebooks and site, not the parse; on an
# unchanged tree `make` does nothing and says so.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PERFWH := $(VENV)/bin/perfwh
STAMP  := $(VENV)/.installed
STAMPS := data/curated/.stamps

# Great Expectations: no usage statistics, no network.
export GX_ANALYTICS_ENABLED := false

# A writer killed past its commit point leaves its journal beside the warehouse: finish its
# renames before deciding what is up to date (what it filed may make every stage stale).
ifneq ($(wildcard data/curated/.perfwh-journal.json),)
  $(info $(shell $(PERFWH) recover))
endif

# What each stage reads (code of the stage and of everything below it, and its data).
CORE      := $(wildcard perfwh/__init__.py perfwh/core/*.py)
# The raw layer: its manifest, and a phony prerequisite when anything under data/raw is newer
# than the warehouse stamp - a submission's file name may hold spaces, colons or '#', which
# make cannot take as a prerequisite's name.
RAW       := data/raw/sources.yml \
             $(if $(shell find data/raw -newer $(STAMPS)/warehouse -print -quit 2>/dev/null),raw-changed)
LOAD_IN   := $(RAW) $(wildcard ingest/*.py schema/*.sql schema/dictionary.yml) $(CORE) \
             $(wildcard perfwh/warehouse/*.py perfwh/stages/build.py perfwh/stages/writing.py)
RULES_IN  := $(wildcard rules/*.sql perfwh/quality/*.py)
MODELS_IN := $(wildcard models/*.py perfwh/stages/models.py)
NB_IN     := $(wildcard notebooks/*.ipynb perfwh/publish/*.py perfwh/publish/*.yml)
# (the pages site/_pre_render.py generates are outputs, not inputs)
SITE_IN   := $(shell find site -type f -not -path 'site/_site/*' -not -path 'site/vendor/*' -not -name '.*' \
               -not -name 'report-*.qmd' -not -name '_reports.yml' 2>/dev/null) \
             _quarto.yml $(shell find perfwh/publish -name '*.py' -o -name '*.yml')

.PHONY: all install warehouse findings models notebooks site test test-family check-fast bench clean requirements raw-changed

all: $(STAMPS)/site
	@echo "perfwh: the warehouse, findings, models, notebooks and site are up to date"

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml site/vendor/package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	# The notebooks' kernel, registered inside the venv with an absolute interpreter path.
	$(abspath $(PY)) -m ipykernel install --sys-prefix --name perfwh --display-name "perfwh (.venv)" >/dev/null
	# The libraries the Great Expectations Data Docs load, served with the site instead of
	# from CDNs (npm registry, exact versions of site/vendor/package-lock.json).
	rm -rf $(VENV)/site-vendor && mkdir -p $(VENV)/site-vendor
	cp site/vendor/package.json site/vendor/package-lock.json $(VENV)/site-vendor/
	cd $(VENV)/site-vendor && npm ci --legacy-peer-deps --no-audit --no-fund --loglevel=error
	# Headless Chromium for the site's browser tests (Debian's package; Playwright's own
	# browser download does not work offline).
	command -v chromium >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }
	# Java 17 for the Spark engine (PySpark starts a JVM): Debian's headless runtime.
	command -v java >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless; }
	$(PY) -m pip check --disable-pip-version-check
	touch $(STAMP)

$(STAMPS):
	mkdir -p $@

raw-changed:

# Raw reports and filed submissions -> data/curated/warehouse.duckdb (star schema), its Parquet
# export and the partitioned Parquet lake (data/curated/lake/).
warehouse: $(STAMPS)/warehouse
$(STAMPS)/warehouse: $(STAMP) $(LOAD_IN) | $(STAMPS)
	$(PERFWH) build --rules none
	touch $@

# The data-quality rules through Great Expectations -> dq_findings (and data/curated/gx/).
# The model residual rule compares each cost with the models' prediction of it, so this stage
# fits the models between its two passes (DEVELOPING.md, "Findings and models"): it reads the
# models' code too.
findings: $(STAMPS)/findings
$(STAMPS)/findings: $(STAMPS)/warehouse $(RULES_IN) $(MODELS_IN)
	$(PERFWH) findings
	touch $@

# Cost-vs-size models and leave-one-size-out predictions -> model_fits, model_predictions.
models: $(STAMPS)/models
$(STAMPS)/models: $(STAMPS)/findings $(MODELS_IN)
	$(PERFWH) models
	touch $@

# The analysis notebooks, executed headless into data/curated/notebooks/.
notebooks: $(STAMPS)/notebooks
$(STAMPS)/notebooks: $(STAMPS)/models $(NB_IN)
	$(PERFWH) notebooks
	touch $@

# The website (quarto render when quarto is on PATH, else nbclient + pandoc) -> site/_site/.
site: $(STAMPS)/site
$(STAMPS)/site: $(STAMPS)/notebooks $(SITE_IN)
	$(PERFWH) site
	touch $@

# The whole suite on every core (pytest-xdist): a test that uses a module's fixtures runs on
# the worker of the rest of its module, Spark's and the browser's tests on one worker each
# (tests/conftest.py), and the work units that hold slow tests start first.
PYTEST_PARALLEL := -n auto --dist loadgroup --no-loadscope-reorder

test: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_PARALLEL)

# The whole suite with a report family added that lives only in its four files under
# tests/fixtures/toy/ (tests/support/extra.py): nothing in the tests may assume the reports
# there are. tests/test_fixture_family.py runs this too.
test-family: $(STAMP)
	PERFWH_EXTRA_FAMILY=tests/fixtures/toy $(PY) -m pytest -q $(PYTEST_PARALLEL)

# A few minutes, for iteration: everything but the tests marked slow. Never instead of `make test`.
check-fast: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not slow"

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
