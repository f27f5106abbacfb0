# sim: two commands on a fresh machine do all set-up: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
CONFIG ?= configs/clear_for_takeoff.toml

.PHONY: setup run test bench lint playthroughs warm clean check-baselines baselines schema browser prebuilt

setup: $(STAMP) browser

# Chromium (Debian's package) for the report's browser test (tests/report/test_report_browser.py):
# installed only when missing and apt is available; never fails the build (the test then skips
# and says why)
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	    $$SUDO apt-get install -y -q chromium >/dev/null 2>&1 || \
	      { $$SUDO apt-get update -q >/dev/null 2>&1 && $$SUDO apt-get install -y -q chromium >/dev/null 2>&1; } || \
	      echo "note: could not install chromium; the report's browser test will be skipped"; \
	  else echo "note: no apt-get; install Chromium to run the report's browser test"; fi; }

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

# compile (or load from numba's on-disk cache) every game's kernels once, before the
# parallel test workers start
warm: setup
	$(BIN)/python -m sim.warm

run: setup
	$(BIN)/sim run $(CONFIG)

# the balance checks first, so pytest's summary is the last line CI prints
test: warm check-baselines browser
	$(BIN)/python -m pytest -n 2 --dist worksteal -p no:cacheprovider tests

# dogfood: every shipped config against its committed baseline (games from its [checks] table).
# Two checks run at once (CHECK_JOBS): each spends several seconds of one core importing and
# summarising, which the other's kernels fill. The verdicts print in config order; the first
# failing check's whole report is shown and fails the target.
CHECK_JOBS ?= 2
check-baselines: warm
	@mkdir -p reports/ci
	@rm -f reports/ci/*.rc
	@ls configs/*.toml | xargs -P $(CHECK_JOBS) -I{} sh -c 'n=$$(basename {} .toml); \
	  $(BIN)/sim check {} --junit reports/ci/$$n.xml > reports/ci/$$n.txt 2>&1; echo $$? > reports/ci/$$n.rc'
	@rc=0; for c in configs/*.toml; do \
	  n=$$(basename $$c .toml); \
	  echo "== sim check $$c"; \
	  tail -n 3 reports/ci/$$n.txt; \
	  r=$$(cat reports/ci/$$n.rc 2>/dev/null || echo 1); \
	  if [ $$r -ne 0 ] && [ $$rc -eq 0 ]; then cat reports/ci/$$n.txt; rc=$$r; fi; \
	done; exit $$rc

# record reports/baselines/<config>.json for every shipped config (after an intended change)
baselines: warm
	@for c in configs/*.toml; do $(BIN)/sim baseline $$c || exit 1; done

# the compile cache the package ships (sim/prebuilt/, sim.prebuilt): every kernel `make test`
# compiles, built by `make test` itself in an empty cache that ignores the old archive. Run it
# after any change to the kernels' source (sim.source_hash), or a new user's first run compiles.
PREBUILT_CACHE := $(CURDIR)/.prebuilt-cache
prebuilt: setup
	rm -rf $(PREBUILT_CACHE)
	SIM_PREBUILT=0 SIM_CACHE_DIR=$(PREBUILT_CACHE) $(MAKE) test
	SIM_PREBUILT=0 SIM_CACHE_DIR=$(PREBUILT_CACHE) $(BIN)/python -c 'from sim.prebuilt import main; main(["pack"])'
	rm -rf $(PREBUILT_CACHE)

# BENCH_ARGS: more flags of sim.bench, e.g. BENCH_ARGS='--against ba47cb8' (cold compile of that
# commit too, on this host in the same run)
bench: warm
	$(BIN)/python -m sim.bench $(BENCH_ARGS)

lint: setup
	$(BIN)/ruff check sim tests

# record tests/playthroughs/<config>.txt for every shipped config and Clear for Takeoff's pinned
# figures (clear_for_takeoff_regression.json), both under SIM_RECORD_GOLDEN=1 (after an intended change:
# review `git diff tests/playthroughs` and bump the game's rules version)
playthroughs: warm
	SIM_RECORD_GOLDEN=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_playthroughs.py \
	  tests/games/clear_for_takeoff/test_statistics.py::test_seeded_regression_figures

# write docs/schema/<game>.json (the JSON Schema the configs' `#:schema` first lines point at)
schema: setup
	@for g in $$($(BIN)/sim games | cut -d' ' -f1); do $(BIN)/sim schema $$g --out docs/schema/$$g.json || exit 1; done

clean:
	rm -rf $(VENV) reports/*/ .pytest_cache
