# The README's two commands: `make run` (the main job) and `make test`. Each installs missing
# Debian packages first, then builds (Release, Ninja) into build/.
BUILD ?= build
JOBS ?= $(shell nproc)
FPUTUNE = $(BUILD)/apps/fputune

.PHONY: all deps build run test clean
all: build

deps:
	@.ci/install-deps

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: what machine, a sweep of every available kernel (~3 min), then the limits for a
# 30 us budget at 1 GHz, written as a C header too, and each limit measured on this machine (verify).
BUDGET ?= 30us
MIN_FREQ ?= 1GHz
run: build
	$(FPUTUNE) cpu
	$(FPUTUNE) sweep -o fputune-sweep.json --csv fputune-sweep.csv
	$(FPUTUNE) recommend --from fputune-sweep.json --budget $(BUDGET) --min-freq $(MIN_FREQ) --header limits.h
	$(FPUTUNE) verify limits.h --budget $(BUDGET) --min-freq $(MIN_FREQ)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
