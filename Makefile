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
LOAD_CODE := $(wildcard ingest/*.py schema/*.sql schema/dictionary.yml) $(CORE) \
             $(wildcard perfwh/warehouse/*.py perfwh/stages/build.py perfwh/stages/writing.py)
RULES_IN  := $(wildcard rules/*.sql perfwh/quality/*.py)
MODELS_IN := $(wildcard models/*.py perfwh/stages/models.py)
NB_IN     := $(wildcard notebooks/*.ipynb perfwh/publish/*.py perfwh/publish/*.yml)
# (the pages site/_pre_render.py generates are outputs, not inputs)
SITE_IN   := $(shell find site -type f -not -path 'site/_site/*' -not -path 'site/vendor/*' -not -name '.*' \
               -not -name 'report-*.qmd' -not -name '_reports.yml' 2>/dev/null) \
             _quarto.yml $(shell find perfwh/publish -name '*.py' -o -name '*.yml')
DB        := data/curated/warehouse.duckdb

# The stamps hold what each stage read (perfwh/stages/stamps.py). A stage whose inputs have
# the contents it recorded gets its stamp brought forward before make compares times: after
# `perfwh add`, which brings the warehouse, findings and models up to date itself, only the
# notebooks and the site run.
ifneq ($(wildcard $(PY) $(STAMPS)/warehouse),)
  $(shell $(PY) -m perfwh.stages.stamps refresh --raw data/raw --db $(DB) \
      $(STAMPS)/warehouse $(STAMP) data/raw/sources.yml $(LOAD_CODE) -- \
      $(STAMPS)/findings $(RULES_IN) $(MODELS_IN) -- $(STAMPS)/models $(MODELS_IN) -- \
      $(STAMPS)/notebooks $(NB_IN) -- $(STAMPS)/site $(SITE_IN))
endif

# The raw layer: its manifest, and a phony prerequisite when a raw file under data/raw is newer
# than the warehouse stamp - a submission's file name may hold spaces, colons or '#', which
# make cannot take as a prerequisite's name. Files only, and not a writer's hidden temporary
# ones: an add interrupted before its commit changes the folders' times, not their files.
RAW       := data/raw/sources.yml \
             $(if $(shell find data/raw -type f ! -name '.*' -newer $(STAMPS)/warehouse -print -quit 2>/dev/null),raw-changed)
LOAD_IN   := $(RAW) $(LOAD_CODE)
# How a stage ends: its stamp records what it read.
RECORD    = $(PY) -m perfwh.stages.stamps record

.PHONY: all install system-packages bytecode warehouse findings models notebooks site test test-family check-fast bench clean requirements raw-changed

all: $(STAMPS)/site
	@echo "perfwh: the warehouse, findings, models, notebooks and site are up to date"

install: $(STAMP)

# The pinned requirements are installed by uv (into the venv, from PyPI like pip): from its
# cache alone when the cache holds every one of them (--offline: no index is read, and the
# files are hard links into the cache, 2 s), else from the registry. pip took 28 s of CPU
# here even with every wheel in its cache: reading PyPI's index pages of 105 packages, then
# unpacking 1.8 GB one file at a time. uv does not read pip's configuration (this machine's
# extra indexes); every pin is on PyPI.
UV_VERSION := 0.13.9
UV         := $(VENV)/bin/uv
UV_ARGS    := --python $(PY) --quiet --no-config
# $(call uv-install,ARGS): `uv pip install ARGS` from the cache alone if it can, else online.
uv-install = { $(UV) pip install $(UV_ARGS) --offline $(1) 2>/dev/null || $(UV) pip install $(UV_ARGS) $(1); }

$(STAMP): requirements.txt pyproject.toml site/vendor/package-lock.json
	@# the pinned requirements need Python 3.11.5 or later (soupsieve 4.1): say so, not pip
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))' 2>/dev/null || { \
		echo "perfwh: needs Python 3.11.5 or later; $(PYTHON) is $$($(PYTHON) --version 2>&1):" \
		     "run make PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	# The libraries the Great Expectations Data Docs load, served with the site instead of
	# from CDNs (npm registry, exact versions of site/vendor/package-lock.json), fetched while
	# the requirements install (they share nothing); the install fails if either fails.
	rm -rf $(VENV)/site-vendor && mkdir -p $(VENV)/site-vendor
	cp site/vendor/package.json site/vendor/package-lock.json $(VENV)/site-vendor/
	(cd $(VENV)/site-vendor && npm ci --legacy-peer-deps --no-audit --no-fund --loglevel=error) & npm=$$!; \
	$(PY) -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION) && \
	$(call uv-install,-r requirements.txt); pip=$$?; \
	wait $$npm && exit $$pip
	# Bytecode for what can be imported, on every core, the libraries' own test suites left out
	# (pip compiled one file at a time, those too: a third of its install's time).
	$(PY) -m compileall -q -j 0 -x '/tests?/' "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null
	$(call uv-install,--no-deps -e .)
	# The notebooks' kernel, registered inside the venv with an absolute interpreter path.
	$(abspath $(PY)) -m ipykernel install --sys-prefix --name perfwh --display-name "perfwh (.venv)" >/dev/null
	$(UV) pip check $(UV_ARGS)
	# what was installed, by content (the stages' stamps record it: new pins rebuild the warehouse)
	cat requirements.txt pyproject.toml site/vendor/package-lock.json | sha256sum > $(STAMP)

# System packages (Debian's) that only some targets use, installed by those targets and not by
# `make`, which needs neither and runs as an ordinary user: headless Chromium for the site's
# browser tests (Playwright's own browser download does not work offline) and Java 17 for the
# Spark engine (PySpark starts a JVM). Installing them needs root; a busy package manager is
# waited for up to APT_WAIT seconds.
APT_WAIT ?= 600
SYSTEM_COMMANDS := chromium java
SYSTEM_PACKAGES := chromium openjdk-17-jre-headless

system-packages:
	$(call apt-install,$(SYSTEM_COMMANDS),$(SYSTEM_PACKAGES),the browser tests and the Spark engine)

# $(call apt-install,COMMANDS,PACKAGES,WHAT FOR): install the Debian PACKAGES unless each of
# COMMANDS is on PATH. As root (or with password-less sudo); otherwise it says what to run and
# fails. dpkg's lock is waited for by apt itself (DPkg::Lock::Timeout); the package lists'
# lock, which `apt-get update` does not wait for, by trying again every 10 s.
define apt-install
	@missing=; for c in $(1); do command -v $$c >/dev/null 2>&1 || missing=yes; done; \
	[ -n "$$missing" ] || exit 0; \
	if [ "$$(id -u)" = 0 ]; then as_root=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root="sudo -n"; \
	else echo "perfwh: $(3) need $(2), which only root can install; run" >&2; \
	     echo "  sudo apt-get install -y --no-install-recommends $(2)" >&2; \
	     echo "(or \`sudo make system-packages\`), then this again" >&2; exit 1; fi; \
	apt="$$as_root env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=$(APT_WAIT)"; \
	echo "perfwh: installing $(2) for $(3)"; \
	$$apt install -y --no-install-recommends $(2) >/dev/null 2>&1 && exit 0; \
	deadline=$$(( $$(date +%s) + $(APT_WAIT) )); \
	until $$apt update; do \
	  [ "$$(date +%s)" -lt "$$deadline" ] || { echo "perfwh: apt-get update still fails after $(APT_WAIT) s" >&2; exit 1; }; \
	  echo "perfwh: apt-get update failed (another package manager may hold its lock): trying again in 10 s" >&2; \
	  sleep 10; \
	done; \
	$$apt install -y --no-install-recommends $(2)
endef

$(STAMPS):
	mkdir -p $@

raw-changed:

# Raw reports and filed submissions -> data/curated/warehouse.duckdb (star schema) and its
# partitioned Parquet lake (data/curated/lake/).
warehouse: $(STAMPS)/warehouse
$(STAMPS)/warehouse: $(STAMP) $(LOAD_IN) | $(STAMPS)
	$(PERFWH) build --rules none
	$(RECORD) $@ $(STAMP) data/raw/sources.yml $(LOAD_CODE)

# The data-quality rules through Great Expectations -> dq_findings (and data/curated/gx/).
# The model residual rule compares each cost with the models' prediction of it, so this stage
# fits the models between its two passes (DEVELOPING.md, "Findings and models"): it reads the
# models' code too.
findings: $(STAMPS)/findings
$(STAMPS)/findings: $(STAMPS)/warehouse $(RULES_IN) $(MODELS_IN)
	$(PERFWH) findings
	$(RECORD) $@ $(RULES_IN) $(MODELS_IN)

# Cost-vs-size models and leave-one-size-out predictions -> model_fits, model_predictions.
models: $(STAMPS)/models
$(STAMPS)/models: $(STAMPS)/findings $(MODELS_IN)
	$(PERFWH) models
	$(RECORD) $@ $(MODELS_IN)

# The analysis notebooks, executed headless into data/curated/notebooks/.
notebooks: $(STAMPS)/notebooks
$(STAMPS)/notebooks: $(STAMPS)/models $(NB_IN)
	$(PERFWH) notebooks
	$(RECORD) --reads $(DB) $@ $(NB_IN)

# The website (quarto render when quarto is on PATH, else nbclient + pandoc) -> site/_site/.
site: $(STAMPS)/site
$(STAMPS)/site: $(STAMPS)/notebooks $(SITE_IN)
	$(PERFWH) site
	$(RECORD) --reads $(DB) $@ $(SITE_IN)

# The whole suite on every core (pytest-xdist): a test that uses a module's fixtures runs on
# the worker of the rest of its module, Spark's and the browser's tests on one worker each
# (tests/conftest.py), and the work units that hold slow tests start first. One worker more
# than the cores: tests also wait (for a browser, a starting process, a signal), and the
# third worker's work fills those waits (on two cores: 8 % of the CPU idle with two workers,
# 2 % with three, the tests 650 s against 675).
TEST_WORKERS    := $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# Bytecode of the project's own modules, written before the tests start hundreds of `perfwh`
# processes: where PYTHONDONTWRITEBYTECODE is set (this machine sets it), each would compile
# what it imports again, about 0.08 s of CPU a process. Python recompiles a changed file.
bytecode: $(STAMP)
	$(PY) -m compileall -q -j 0 perfwh ingest models >/dev/null

test: $(STAMP) system-packages bytecode
	$(PY) -m pytest -q $(PYTEST_PARALLEL) --durations=25 --junitxml=test-artifacts/junit.xml

# The whole suite with a report family added that lives only in its four files under
# tests/fixtures/toy/ (tests/support/extra.py): nothing in the tests may assume the reports
# there are (tests/test_fixture_family.py runs the tests that count over the reports so).
test-family: $(STAMP) system-packages bytecode
	PERFWH_EXTRA_FAMILY=tests/fixtures/toy $(PY) -m pytest -q $(PYTEST_PARALLEL)

# A few minutes, for iteration: everything but the tests marked slow. Never instead of `make test`.
check-fast: $(STAMP) system-packages bytecode
	$(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not slow"

bench: $(STAMP) system-packages
	# hyperfine (Debian's package) times whole commands; bench_build.py falls back without it.
	-$(call apt-install,hyperfine,hyperfine,the whole-command benchmarks)
	$(PY) bench/run_all.py

# Recompile the pinned requirements.txt from requirements.in (needs pip-tools).
requirements: $(STAMP)
	$(PY) -m pip install --quiet pip-tools
	$(VENV)/bin/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.txt requirements.in

clean:
	rm -rf data/curated site/_site .pytest_cache test-artifacts
