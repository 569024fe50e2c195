#!/bin/sh
# Static analysis of the host C++ sources (src/**/*.cpp; the MPI ones,
# src/api/api_mpi.cpp and src/engines/mpi/, only when the build found MPI;
# the CUDA sources, src/engines/cuda/**/*.cu and .cuh, are left out:
# clang-tidy has no CUDA headers here; src/engines/cuda/cuda_absent.cpp is
# plain C++ and linted). Runs clang-tidy (.clang-tidy) and
# cppcheck (scripts/cppcheck.supp) and exits 1 on any finding, 77 (skipped)
# when either tool is missing, 0 when clean.
#
#   sh scripts/lint.sh [BUILD_DIR]
#
# BUILD_DIR supplies compile_commands.json; when it has none, a
# configure-only build dir (build-lint, CPU only) is made for it.
# JOBS (default: nproc) clang-tidy processes run at once.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${1:-build-lint}
JOBS=${JOBS:-$(nproc)}
TIDY=${CLANG_TIDY:-clang-tidy}
CPPCHECK=${CPPCHECK:-cppcheck}

for tool in "$TIDY" "$CPPCHECK"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "lint: $tool not found: skipped (apt-get install clang-tidy cppcheck)"
    exit 77
  fi
done

if [ ! -f "$BUILD/compile_commands.json" ]; then
  BUILD=build-lint
  cmake -S . -B "$BUILD" -DGSP_WITH_CUDA=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
# GCC-only flags clang-tidy's clang does not know; the CUDA language entries.
sed -e 's/ -fno-gnu-unique//g' -e 's/ -Xcompiler=-fno-gnu-unique//g' \
  "$BUILD/compile_commands.json" > "$TMP/compile_commands.json"

# The MPI sources (src/api/api_mpi.cpp, src/engines/mpi/) only when the
# build found MPI: only then are they in the database (and mpi.h at hand).
FILES=$(find src -name '*.cpp' | sort)
if ! grep -q '/src/engines/mpi/fw_mpi.cpp' "$TMP/compile_commands.json"; then
  FILES=$(echo "$FILES" | grep -v -e '^src/engines/mpi/' -e '^src/api/api_mpi\.cpp$')
fi
status=0

echo "== clang-tidy ($(echo "$FILES" | wc -l) files, $JOBS jobs)"
# One process per file; findings (warning:/error: lines) go to one log.
# shellcheck disable=SC2086
echo $FILES | tr ' ' '\n' | xargs -P "$JOBS" -I{} sh -c \
  '"$0" -p "$1" --quiet "$2" > "$1/$(echo "$2" | tr / _).log" 2>&1 || true' "$TIDY" "$TMP" {}
cat "$TMP"/src_*.log > "$TMP/tidy.txt" 2>/dev/null || true
if grep -E '(warning|error): ' "$TMP/tidy.txt" >/dev/null; then
  grep -E -A3 '(warning|error): ' "$TMP/tidy.txt"
  echo "lint: clang-tidy findings: $(grep -cE '(warning|error): ' "$TMP/tidy.txt")"
  status=1
else
  echo "clang-tidy: no findings"
fi

echo "== cppcheck"
# The CUDA-only sources (src/engines/cuda/**/*.cu) are not .cpp files, and the
# generated/third-party parts are not in src/.
if ! "$CPPCHECK" --quiet --error-exitcode=1 --language=c++ --std=c++17 \
    --enable=warning,performance,portability --inline-suppr \
    --suppressions-list=scripts/cppcheck.supp -I include -I src \
    -j "$JOBS" $FILES; then
  echo "lint: cppcheck findings"
  status=1
else
  echo "cppcheck: no findings"
fi

[ "$status" -eq 0 ] && echo "lint: clean"
exit "$status"
