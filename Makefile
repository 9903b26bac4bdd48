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
	$(FPUTUNE) report --from fputune-sweep.json --budget $(BUDGET) --min-freq $(MIN_FREQ) -o report.html
	$(FPUTUNE) verify limits.h --budget $(BUDGET) --min-freq $(MIN_FREQ)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The report of data/machines/ rendered in headless Chromium: charts, series, no console errors, no
# request, prints; screenshots and a PDF in $(BUILD)/check-report/ (SCREENSHOT=docs/report.png refreshes
# the README's). Heavy, so not part of `make test`.
.PHONY: check-report
check-report: build
	@command -v python3 >/dev/null && command -v chromium >/dev/null || { echo "check-report needs python3 and chromium (Debian: apt-get install -y --no-install-recommends python3 chromium)"; exit 2; }
	python3 tests/report_browser_check.py --fputune $(FPUTUNE) --out $(BUILD)/check-report --algorithm poly1305 $(if $(SCREENSHOT),--screenshot $(SCREENSHOT)) data/machines/*.json

clean:
	rm -rf $(BUILD)
