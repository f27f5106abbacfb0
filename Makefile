# sim: two commands on a fresh machine do all set-up: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
CONFIG ?= configs/clear_for_takeoff.toml

.PHONY: setup run test bench lint playthroughs warm clean

setup: $(STAMP)

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

test: warm
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider tests

bench: warm
	$(BIN)/python -m sim.bench

lint: setup
	$(BIN)/ruff check sim tests

playthroughs: warm
	SIM_REGEN_GOLDEN=1 $(BIN)/python -m pytest -q -p no:cacheprovider -k "golden or regression" tests

clean:
	rm -rf $(VENV) reports/*/ .pytest_cache
