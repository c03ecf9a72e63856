# The two commands a user types on a fresh machine are `make test` and `make demo`;
# both create the virtual environment first when it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORPUS ?= ../shared/corpus/pbn
DEVICE_FILES := $(shell find device hw -name '*.py' -not -path 'hw/rpi/*' 2>/dev/null)

.PHONY: setup test demo bench firmware lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -q -n 2

demo: setup
	$(BIN)/host-sync pbn-check --quiet $(CORPUS)

bench: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python bench/run.py

firmware: setup
	$(BIN)/python bench/firmware.py $(DEVICE_FILES)

lint: setup
	$(BIN)/ruff check device hw host_sync tests bench
	./tools/duplicates_if_available.sh

clean:
	rm -rf $(VENV) build .pytest_cache
