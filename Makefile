# The README's two commands: `make run` (the main job) and `make test`. Each installs missing
# Debian packages first, then builds (Release, Ninja) into build/.
BUILD ?= build
JOBS ?= $(shell nproc)
FPUTUNE = $(BUILD)/apps/fputune

.PHONY: all deps build run test test-linux clean
all: build

deps:
	@.ci/install-deps

# LINUX_SRC=<kernel tree or its .tar.xz> also builds the kernel's own x86 crypto asm as *-linux variants.
LINUX_SRC ?=
build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(if $(LINUX_SRC),-DFPUTUNE_LINUX_SRC=$(abspath $(LINUX_SRC))) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: what machine, a sweep of every available kernel (~3 min), then the limits for a
# 30 us budget at 1 GHz, written as a C header too, the report (report.html), and each limit measured
# on this machine (verify: exit 1 when one is over the budget).
BUDGET ?= 30us
MIN_FREQ ?= 1GHz
run: build
	$(FPUTUNE) cpu
	$(FPUTUNE) sweep -o fputune-sweep.json --csv fputune-sweep.csv
	$(FPUTUNE) recommend --from fputune-sweep.json --budget $(BUDGET) --min-freq $(MIN_FREQ) --header limits.h
	$(FPUTUNE) report --from fputune-sweep.json --budget $(BUDGET) --min-freq $(MIN_FREQ) -o report.html
	@# verify exits 1 when a section measured now is over the budget: said loudly, but not a failed build
	@# (a shared machine's p99 moves by a few % from minute to minute; errors, exit >= 2, still fail)
	$(FPUTUNE) verify limits.h --budget $(BUDGET) --min-freq $(MIN_FREQ) || { rc=$$?; [ $$rc -eq 1 ] && \
	  echo "make run: verify measured a section OVER the budget just now (above); for a constant to ship, sweep at other times and merge: fputune recommend --from a.json --from b.json, or add --margin" >&2; [ $$rc -eq 1 ]; }

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The linux provider from Debian's linux-source-6.12 (installed if missing), in a build of its own:
# its tests and the conformance suite, which covers the *-linux variants like all others.
LINUX_TEST_SRC ?= /usr/src/linux-source-6.12.tar.xz
test-linux:
	@.ci/install-deps linux
	@cmake -S . -B $(BUILD)-linux -G Ninja -DCMAKE_BUILD_TYPE=Release -DFPUTUNE_LINUX_SRC=$(abspath $(LINUX_TEST_SRC)) >/dev/null
	@cmake --build $(BUILD)-linux -j $(JOBS)
	cd $(BUILD)-linux && ctest --output-on-failure -j $(JOBS) -R '^(linux|conformance|registry|masking):'

# The report of data/machines/ rendered in headless Chromium: charts, series, no console errors, no
# request, prints; screenshots and a PDF in $(BUILD)/check-report/ (SCREENSHOT=docs/report.png refreshes
# the README's). Heavy, so not part of `make test`.
.PHONY: check-report
check-report: build
	@command -v python3 >/dev/null && command -v chromium >/dev/null || { echo "check-report needs python3 and chromium (Debian: apt-get install -y --no-install-recommends python3 chromium)"; exit 2; }
	python3 tests/report_browser_check.py --fputune $(FPUTUNE) --out $(BUILD)/check-report --algorithm poly1305 $(if $(SCREENSHOT),--screenshot $(SCREENSHOT)) data/machines/*.json

clean:
	rm -rf $(BUILD) $(BUILD)-linux
