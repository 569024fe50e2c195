#!/bin/sh
# Fuzz one target with libFuzzer (clang, ASan + UBSan), one process.
#
#   sh fuzz/run.sh TARGET [SECONDS] [BUILD_DIR]
#
# TARGET: dimacs | mtx | edgelist | create | api | cli. The working corpus lives
# in BUILD_DIR/corpus-TARGET (seeded from fuzz/corpus/TARGET); crashes are
# written to BUILD_DIR/artifacts/. Afterwards, to keep what is new and small:
#   BUILD_DIR/fuzz/fuzz_TARGET -merge=1 fuzz/corpus/TARGET BUILD_DIR/corpus-TARGET
# and copy every crasher into fuzz/corpus/TARGET/ (as crash-<what>) once fixed.
set -eu
T=${1:?usage: fuzz/run.sh TARGET [SECONDS] [BUILD_DIR]}
SECS=${2:-600}
B=${3:-build-fuzz}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ ! -x "$B/fuzz/fuzz_$T" ]; then
  # GNU ld for the archive step (its flags are not lld's).
  CC=clang CXX=clang++ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSP_WITH_CUDA=OFF \
    -DGSP_SANITIZE=address,undefined -DGSP_FUZZ=ON -DCMAKE_LINKER:FILEPATH="$(command -v ld.bfd)" >/dev/null
  cmake --build "$B" -j "${JOBS:-1}" --target "fuzz_$T"
fi
mkdir -p "$B/corpus-$T" "$B/artifacts"
# The cli target runs the gsp command, which writes a line to stderr for
# every bad usage: closed here (libFuzzer keeps its own copy for reports).
EXTRA=""
[ "$T" = cli ] && EXTRA="-close_fd_mask=2"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$B/fuzz/fuzz_$T" -max_len=4096 -timeout=20 -rss_limit_mb=2048 -max_total_time="$SECS" \
  -print_final_stats=1 $EXTRA -artifact_prefix="$B/artifacts/$T-" "$B/corpus-$T" "fuzz/corpus/$T"
