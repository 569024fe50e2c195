#!/bin/sh
# make check: every test, after `make all` has built BUILD (the tree and
# flags of make demo, warnings as errors). Runs all CTest tests (GPU tests
# skip visibly without a device, and every skip's reason is printed), then
# the C tests again under AddressSanitizer + UndefinedBehaviorSanitizer and
# ThreadSanitizer, then an install into a temporary prefix consumed through
# pkg-config and find_package without the CUDA toolkit.
set -eu
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc)}
step() { printf '\n== %s\n' "$*"; }
[ -f "$BUILD/CMakeCache.txt" ] || { echo "check.sh: $BUILD is not built; run 'make check'" >&2; exit 1; }

step "tests ($BUILD)"
{ (cd "$BUILD" && ctest --output-on-failure -j "$JOBS") 2>&1; echo $? >"$BUILD/ctest.rc"; } | tee "$BUILD/ctest.log"
sh scripts/skip_reasons.sh "$BUILD"
[ "$(cat "$BUILD/ctest.rc")" = 0 ] || exit 1

step "tests under ASan + UBSan (build-asan, CPU only)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGSP_WERROR=ON -DGSP_SANITIZE=address,undefined -DGSP_WITH_CUDA=OFF >/dev/null
cmake --build build-asan -j "$JOBS"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$JOBS" -L cpu -LE nosan)

step "concurrency and the threaded CPU SSSP under ThreadSanitizer (build-tsan)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSP_SANITIZE=thread -DGSP_WITH_CUDA=OFF >/dev/null
cmake --build build-tsan -j "$JOBS" --target test_concurrency test_cpu_sssp
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 GSP_TEST_SMALL=1 ctest --output-on-failure -R '^(test_concurrency|test_cpu_sssp)$')

step "install + consumers"
sh scripts/check_install.sh "$BUILD"
step "make demo's tour (README's other command)"
sh scripts/demo.sh "$BUILD" >/tmp/gsp_demo.log 2>&1 || { cat /tmp/gsp_demo.log; echo "make demo failed"; exit 1; }
tail -n 3 /tmp/gsp_demo.log
echo "make check: all passed"
