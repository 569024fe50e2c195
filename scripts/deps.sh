#!/bin/sh
# Installs the Debian packages the build and the tests need, when they are
# missing and we are root (CI and fresh machines); otherwise says what is
# missing. Run by `make deps`, `make demo` and `make check` only (never by a
# plain `make`); it lists each package and why before installing anything.
set -e
need=""
why=""
add() { need="$need $1"; why="$why
  $1: $2"; }
have_hdr() { [ -f "/usr/include/$1" ]; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_py() { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $1" 2>/dev/null; }
have_cmd cmake      || add cmake "the build"
have_cmd g++        || add g++ "the build"
have_cmd pkg-config || add pkg-config "gsp.pc consumers (tests)"
have_hdr zlib.h     || add zlib1g-dev "gzip-compressed graph files"
have_cmd go         || add golang-go "bindings/go tests"
have_cmd doxygen    || add doxygen "make docs and its test"
# The Python package's tests: pip install (pip, setuptools, wheel), then a
# comparison with scipy (numpy, scipy), with Debian's python3.
have_py pip         || add python3-pip "pip install ./bindings/python (test)"
have_py setuptools  || add python3-setuptools "pip install ./bindings/python (build backend)"
have_py wheel       || add python3-wheel "pip install ./bindings/python (build backend)"
have_py numpy       || add python3-numpy "gsp.csgraph test"
have_py scipy       || add python3-scipy "gsp.csgraph test against scipy.sparse.csgraph"
have_cmd man        || add man-db "the man page test (man -M PREFIX/share/man gsp)"
# lint, valgrind and fuzzing tests (they skip visibly without them)
have_cmd clang-tidy || add clang-tidy "lint test"
have_cmd clang-format-14 || have_cmd clang-format || add clang-format "format test (scripts/check_format.sh)"
have_cmd cppcheck   || add cppcheck "lint test"
have_cmd valgrind   || add valgrind "valgrind_cli test"
have_cmd clang      || add clang "fuzz targets"
have_cmd mpicc      || add "openmpi-bin libopenmpi-dev" "the MPI library and tests (tests/mpi.cmake)"
[ -n "${GSP_EXTRA_DEBS:-}" ] && add "$GSP_EXTRA_DEBS" "GSP_EXTRA_DEBS"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && have_cmd apt-get; then
  echo "deps: installing these Debian packages:$why"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $need >/dev/null
else
  # Not root: say what is missing; the steps that need it fail or skip visibly.
  echo "deps: missing (run 'make deps' as root to install them, or install them yourself):$why" >&2
fi
