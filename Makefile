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

run: build
	$(FPUTUNE) cpu
	$(FPUTUNE) list

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
