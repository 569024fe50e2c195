# The front door. CMake is the build of record; this file only drives it
# (and the scripts in scripts/ that string its steps together).
BUILD    ?= build
PREFIX   ?= /usr/local
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
GRAPH    ?=
# One configuration for make, make demo, make check and make install: the
# same flags in the same tree, so `make check` reuses `make demo`'s objects.
GSP_CMAKE_ARGS = -DCMAKE_BUILD_TYPE=Release -DGSP_WERROR=ON -DGSP_BUILD_SHARED=ON $(CMAKE_FLAGS)

.PHONY: all configure demo check docs doc install uninstall bench clean deps data

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	cmake -S . -B $(BUILD) $(GSP_CMAKE_ARGS)

# Installs missing Debian packages (as root); only make deps, demo and check run it.
deps:
	@sh scripts/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(BUILD) $(GRAPH)

check: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) JOBS=$(JOBS) sh scripts/check.sh

docs: configure
	cmake --build $(BUILD) --target docs

doc: docs

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

uninstall:
	cmake -DMANIFEST=$(BUILD)/install_manifest.txt -P cmake/uninstall.cmake

bench: all
	cmake --build $(BUILD) --target bench

# The DIMACS road graphs (New York, with coordinates) into data/.
data:
	@sh scripts/fetch_data.sh data

clean:
	rm -rf $(BUILD) build-asan build-nocuda build-tsan
