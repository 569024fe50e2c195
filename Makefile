# The front door. CMake is the build of record; this file only drives it
# (and the scripts in scripts/ that string its steps together).
BUILD    ?= build
PREFIX   ?= /usr/local
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
GRAPH    ?=

.PHONY: all configure demo check docs install bench clean deps

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_SHARED=ON $(CMAKE_FLAGS)

deps:
	@sh scripts/deps.sh

demo: all
	@sh scripts/demo.sh $(BUILD) $(GRAPH)

check: deps
	@BUILD=$(BUILD) JOBS=$(JOBS) CMAKE_FLAGS="$(CMAKE_FLAGS)" sh scripts/check.sh

docs: configure
	cmake --build $(BUILD) --target docs

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: all
	cmake --build $(BUILD) --target bench

clean:
	rm -rf $(BUILD) build-asan build-nocuda build-tsan
