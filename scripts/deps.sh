#!/bin/sh
# Installs the Debian packages the build and the tests need, when they are
# missing and we are root (CI and fresh machines); otherwise says what is missing.
set -e
need=""
have_hdr() { [ -f "/usr/include/$1" ]; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd cmake      || need="$need cmake"
have_cmd g++        || need="$need g++"
have_cmd pkg-config || need="$need pkg-config"
have_hdr zlib.h     || need="$need zlib1g-dev"
have_cmd go         || need="$need golang-go"    # bindings/go (scripts/check_bindings.sh)
have_cmd doxygen    || need="$need doxygen"
# lint, valgrind and fuzzing tests (they skip visibly without them)
have_cmd clang-tidy || need="$need clang-tidy"
have_cmd cppcheck   || need="$need cppcheck"
have_cmd valgrind   || need="$need valgrind"
have_cmd clang      || need="$need clang"
have_cmd mpicc      || need="$need openmpi-bin libopenmpi-dev"  # the MPI tests (tests/mpi.cmake)
[ -n "$GSP_EXTRA_DEBS" ] && need="$need $GSP_EXTRA_DEBS"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && have_cmd apt-get; then
  echo "deps: installing$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $need >/dev/null
else
  # Not root: say what is missing; the steps that need it fail or skip visibly.
  echo "deps: missing$need (run as root to install them, or install them yourself)" >&2
fi
