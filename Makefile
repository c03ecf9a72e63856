# The two commands a user types on a fresh machine are `make test` and `make demo`;
# both create the virtual environment first when it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test test-busy demo bench firmware flash sim lint clean

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

# The sync tests on a machine whose every core is kept busy (tools/cpu_hog.py): the station
# must wait for terminals that are slow, not give up on them (docs/SETUP.md).
BUSY_TESTS := tests/test_sync_e2e.py \
	tests/test_terminal_link.py::test_the_main_loop_under_micropython_syncs_with_the_station
test-busy: setup
	$(BIN)/python tools/cpu_hog.py --seconds 1800 & hog=$$!; \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -q $(BUSY_TESTS); rc=$$?; \
	kill $$hog; exit $$rc

# A whole simulated evening: 8 micropython terminals on ptys, bidding, irregularities and
# rulings, a sync after every round, scoring, reports and exports in demo-out/.
demo: setup
	$(BIN)/host-sync demo --tables 8 --rounds 3 --boards-per-round 3 --seed 1 --out demo-out

bench: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python bench/run.py

# The board's firmware: every device module compiled to .mpy and packed into a ROMFS image
# (bytecode runs in place from flash), plus main.py, which the board runs by name.
firmware: setup
	rm -rf build/firmware && mkdir -p build/firmware
	$(BIN)/python tools/romfs.py build/firmware/romfs.img
	cp device/main.py build/firmware/main.py

# Put the terminal on a Raspberry Pi Pico with stock MicroPython (docs/HARDWARE.md): the .mpy
# tree and main.py with mpremote (a ROMFS image only where the firmware has a partition).
# `make flash PLAN=1` prints the files and the commands and touches no board; PORT=/dev/...
flash: setup
	$(BIN)/python tools/flash.py $(if $(PLAN),--plan) $(if $(PORT),--port $(PORT))

# The terminal in this console (keys and screen in docs/SIM.md).
sim: setup
	$(BIN)/python tools/sim.py --config tests/data/terminal_config.json --out build/sim

lint: setup
	$(BIN)/ruff check device hw host_sync tests bench tools

clean:
	rm -rf $(VENV) build .pytest_cache
