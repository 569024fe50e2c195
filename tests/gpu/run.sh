#!/bin/bash
# The whole GPU check in one run (on the lent H100/H200):
#   build (Ninja, -j16, warnings as errors) -> ctest -L gpu -> the gpu tests with
#   engine choices forced (variants) -> compute-sanitizer
#   memcheck / racecheck / initcheck / synccheck on the gpu tests in small mode
#   (GSP_TEST_SMALL=1) -> the benchmark (scripts/bench.sh)
# Logs go to $OUT (default ./gpu-out); a summary table is printed last. Every
# step runs even when an earlier one failed (except that nothing runs without
# a library); the exit status is non-zero when any step failed.
#
# Environment:
#   (build-mpi-debs/*.deb, when present and no mpiexec is on PATH: OpenMPI for
#    the mpi tests, see tests/gpu/mpi_from_debs.sh)
#   OUT            where logs go (default ./gpu-out)
#   BUILD          build folder (default build-gpu)
#   GSP_GPU_STEPS  steps to run (default: "build test variants memcheck racecheck initcheck synccheck bench");
#                  "mpi" (not default) runs ctest -L mpi and the distributed FW benchmark
#                  with GPU ranks for each rank count in GSP_MPI_NP (default "1 2"), at
#                  n = GSP_MPI_N (default "16384"), i32 and f32, then CPU ranks
#                  (GSP_MPI_CPU_NP, default "1 2 4", cores split among them) at
#                  n = GSP_MPI_CPU_N (default 4096); GSP_MPI_TRACE on
#                  "multitest" (not default) runs $BUILD/tests/test_gpu_multi_device, the
#                  num_devices test (every GPU of the host in one process), if it was built
#                  (SKIP when absent or when it exits 77, e.g. on fewer than 2 GPUs), within
#                  GSP_TEST_TIMEOUT (default 600 for this step); log multitest.log
#                  "multigpu" (not default) runs $BUILD/bench/bench_multi_gpu (1, 2 and all
#                  GPUs: dense FW, NY streamed, NY table; its own header says more) with its
#                  deadline GSP_BENCH_TIMEOUT (default 560 for this step; killed 30 s after):
#                  $OUT/multigpu.md (its tables, without a bench/results header),
#                  multigpu.csv (its "csv," lines), multigpu.log (progress, errors);
#                  SKIP on fewer than 2 GPUs, FAIL when a run failed. Its variables
#                  (GSP_BENCH_MG_FW sizes, GSP_BENCH_MG_DEVICES, ...) pass through; GSP_COMMIT
#                  defaults to git's HEAD where the tree has .git. Both steps export
#                  NCCL_NVLS_ENABLE=0 (NVLink multicast stays off on the lent hosts)
#   GSP_DATA_DIR   folder with USA-road-d.NY.gr.gz (default: build-data if present, else ../shared/data)
#   JOBS           build parallelism (default 16)
#   GSP_BENCH_FILTER  graph-name filter passed to the bench programs (default: all)
#   GSP_BENCH_PROGRAMS  bench programs to run (default: every bench/bench_*)
#   GSP_SAN_TESTS   test binaries for compute-sanitizer (default: every gpu test)
#   GSP_TEST_TIMEOUT, GSP_BENCH_TIMEOUT  per-step limits in seconds; GSP_SAN_TIMEOUT
#                  per sanitizer process (GSP_SAN_JOBS of them at a time)
#   GSP_SAN_JOBS   sanitizer processes at a time (default: nproc)
#   GSP_SAN_SHARDS  "test:N ..." processes per test for racecheck and initcheck
#                  (default "test_gpu_apsp_dense:8 test_gpu_faults:16
#                  test_gpu_float_paths:8 test_gpu_sssp:6 test_gpu_apsp_sparse:6"
#                  (the last two passed 240 s unsplit); with 16 processes at a time,
#                  racecheck of the first two ended in about 420 s on the H100
#                  host's 16 cores; a Floyd-Warshall call takes about 50 s there)
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
OUT=${OUT:-$ROOT/gpu-out}
BUILD=${BUILD:-build-gpu-sssp}
JOBS=${JOBS:-16}
STEPS=${GSP_GPU_STEPS:-build test variants memcheck racecheck initcheck synccheck bench}
if [ -z "${GSP_DATA_DIR:-}" ]; then
  if [ -f "$ROOT/build-data/USA-road-d.NY.gr.gz" ]; then GSP_DATA_DIR=$ROOT/build-data; else GSP_DATA_DIR=$ROOT/../shared/data; fi
fi
export GSP_DATA_DIR GSP_SOURCE_DIR=$ROOT
# No MPI on the lent machines: Debian's OpenMPI carried as .deb files
# (tests/gpu/mpi_from_debs.sh) makes the MPI tests and benchmark build there.
if ! command -v mpiexec >/dev/null 2>&1 && ls "$ROOT"/build-mpi-debs/*.deb >/dev/null 2>&1; then
  eval "$(DEBS=$ROOT/build-mpi-debs sh "$ROOT/tests/gpu/mpi_from_debs.sh")"
fi
# NCCL (the MPI engine's device path loads it at run time): the CUDA
# toolkit's copy where the loader does not find one by itself. NVLink
# multicast stays off on shared machines.
if [ -z "${GSP_NCCL_LIBRARY:-}" ] && ! ldconfig -p 2>/dev/null | grep -q 'libnccl.so.2 ' &&
   [ -f /usr/local/cuda/lib64/libnccl.so.2 ]; then
  export GSP_NCCL_LIBRARY=/usr/local/cuda/lib64/libnccl.so.2
fi
export NCCL_NVLS_ENABLE=0
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
FAILED=0

record() {  # step status seconds detail
  printf '%-10s %-5s %6ss  %s\n' "$1" "$2" "$3" "$4" >>"$SUMMARY"
  [ "$2" = FAIL ] && FAILED=1
  return 0
}
want() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

{
  echo "== machine"; nvidia-smi -L 2>&1; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1
  nvcc --version 2>&1 | tail -2; compute-sanitizer --version 2>&1 | head -2; cmake --version | head -1; nproc
} >"$OUT/machine.log" 2>&1
cat "$OUT/machine.log"

# ------------------------------------------------------------------ build
if want build; then
  t0=$(date +%s)
  {
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGSP_WITH_CUDA=ON -DGSP_WERROR=ON -DGSP_BUILD_SHARED=ON \
      -DGSP_DATA_DIR="$GSP_DATA_DIR" && cmake --build "$BUILD" -j "$JOBS" -- -k 0
  } >"$OUT/build.log" 2>&1
  rc=$?
  errs=$(grep -c -E 'error|FAILED:' "$OUT/build.log")
  if [ $rc -eq 0 ]; then record build PASS $(( $(date +%s) - t0 )) "libgsp + tests + bench built"
  else record build FAIL $(( $(date +%s) - t0 )) "rc=$rc, $errs error lines (build.log); continuing with what was built"; grep -E 'error|FAILED:' "$OUT/build.log" | head -20; fi
fi
GPU_TESTS=${GSP_SAN_TESTS:-$(ls "$BUILD"/tests/test_gpu_* "$BUILD"/test_gpu_* 2>/dev/null)}

# ------------------------------------------------------------------ tests
if want test; then
  t0=$(date +%s)
  (cd "$BUILD" && timeout "${GSP_TEST_TIMEOUT:-300}" ctest -L gpu -j 4 -V --timeout "${GSP_TEST_TIMEOUT:-300}") >"$OUT/ctest.log" 2>&1
  rc=$?
  line=$(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)
  checks=$(grep -E '^[0-9]+: [0-9]+ passed, [0-9]+ failed' "$OUT/ctest.log" | tr '\n' ';')
  if [ $rc -eq 0 ]; then record test PASS $(( $(date +%s) - t0 )) "$line $checks"
  else record test FAIL $(( $(date +%s) - t0 )) "rc=$rc $line $checks"; fi
  grep -E '^[0-9]+: (SKIP|[0-9]+ passed)|Test +#|tests passed' "$OUT/ctest.log" | tail -30
  # The Python binding's tests run every case on each available backend,
  # CUDA included here (the other languages' toolchains are not on the lent
  # machines; their tests run in make check on the CPU).
  t0=$(date +%s)
  GSP_LIBRARY=$(cd "$BUILD" && pwd)/libgsp.so PYTHONPATH=$ROOT/bindings/python PYTHONDONTWRITEBYTECODE=1 \
    timeout 300 python3 -m unittest discover -s "$ROOT/bindings/python/tests" -t "$ROOT/bindings/python/tests" -v \
    >"$OUT/bindings.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then record python PASS $(( $(date +%s) - t0 )) "$(tail -3 "$OUT/bindings.log" | tr '\n' ' ')"
  else record python FAIL $(( $(date +%s) - t0 )) "rc=$rc (bindings.log)"; fi
  # Rust, Go and Fortran: test programs built elsewhere against a CUDA build
  # (scripts/export_binding_tests.sh) and carried in build-binding-tests/.
  if ls "$ROOT"/build-binding-tests/*.gz >/dev/null 2>&1; then
    bt=$(mktemp -d)
    for f in "$ROOT"/build-binding-tests/*.gz; do gunzip -c "$f" >"$bt/$(basename "$f" .gz)"; done
    chmod +x "$bt"/rust_* "$bt"/go_* "$bt"/fortran_* 2>/dev/null
    for t in "$bt"/rust_api-* "$bt"/rust_gsp-* "$bt"/go_gsp.test "$bt"/fortran_test_gsp; do
      [ -x "$t" ] || continue
      name=$(basename "$t" | sed 's/-[0-9a-f]*$//')
      t0=$(date +%s)
      (cd "$bt" && LD_LIBRARY_PATH=$bt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 300 "$t") >"$OUT/binding-$name.log" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then record "$name" PASS $(( $(date +%s) - t0 )) "$(grep -E 'test result|^ok|^PASS|passed' "$OUT/binding-$name.log" | tail -1)"
      else record "$name" FAIL $(( $(date +%s) - t0 )) "rc=$rc (binding-$name.log)"; fi
    done
    rm -rf "$bt"
  fi
fi

# ------------------------------------------------------------------ variants
# GPU tests again with engine choices forced, so that every path of an
# engine sees every graph shape: the delta-stepping / Bellman-Ford frontier
# engine with block-local waves on every graph (by default only on
# low-degree ones; with weights > 0 that is also speculative pushes on
# every graph), with none, and without speculative pushes; the dense FW
# with k-blocks of 8 tiles (the default only from n = 16384 on) and without
# the lookahead streams; the all-pairs tests with results in ordinary memory
# (GSP_CUDA_PINNED_RESULTS=0: rows staged into them, as for a result larger
# than the result-buffer cache keeps).
# GSP_GPU_VARIANTS: "VAR=V,VAR=V:test ..." items.
VARIANTS=${GSP_GPU_VARIANTS:-"GSP_CUDA_LOCAL_ROUNDS=8:test_gpu_sssp GSP_CUDA_LOCAL_ROUNDS=0:test_gpu_sssp GSP_CUDA_LOCAL_ROUNDS=8:test_gpu_sssp_family_shapes GSP_CUDA_LOCAL_ROUNDS=8:test_gpu_sssp_family_large GSP_CUDA_LOCAL_ROUNDS=0:test_gpu_sssp_family_shapes GSP_CUDA_LOCAL_ROUNDS=0:test_gpu_sssp_family_large GSP_DENSE_FW_BLOCK=8:test_gpu_apsp_dense GSP_DENSE_FW_LOOKAHEAD=0:test_gpu_apsp_dense GSP_CUDA_FILTER=both:test_gpu_sssp_family_shapes GSP_CUDA_FILTER=both:test_gpu_sssp_family_large GSP_CUDA_FILTER=none,GSP_CUDA_LOCAL_ROUNDS=8:test_gpu_sssp GSP_CUDA_SPEC=0:test_gpu_sssp GSP_CUDA_LOCAL_ROUNDS=8,GSP_CUDA_ELL=0:test_gpu_sssp_family_shapes GSP_CUDA_PINNED_RESULTS=0:test_gpu_apsp_dense GSP_CUDA_PINNED_RESULTS=0:test_gpu_apsp_sparse"}
if want variants; then
  for item in $VARIANTS; do
    vars=${item%%:*}
    bin=${item#*:}
    t0=$(date +%s)
    log=$OUT/variant-$bin-$(echo "$vars" | tr ',=' '_-').log
    # shellcheck disable=SC2046
    (cd "$BUILD/tests" && env $(echo "$vars" | tr ',' ' ') timeout "${GSP_TEST_TIMEOUT:-300}" "./$bin") >"$log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then record variant PASS $(( $(date +%s) - t0 )) "$bin $vars: $(grep -E 'passed, [0-9]+ failed' "$log" | tail -1)"
    else record variant FAIL $(( $(date +%s) - t0 )) "$bin $vars: rc=$rc ($(basename "$log")) $(grep -E 'passed, [0-9]+ failed' "$log" | tail -1)"; fi
  done
fi

# ------------------------------------------------------------------ sanitizers
# Every (tool, test, shard) runs in its own process and log
# (sanitizer-TOOL-TEST[-sI].log), GSP_SAN_JOBS (default: the host's cores)
# at a time, slowest tools first: the host side of a sanitizer is CPU-bound,
# and with more processes than cores the long ones ran past their timeout.
# racecheck and initcheck are slow on the dense FW tests (every shared or
# global access tracked), so those tests are split into GSP_SAN_SHARDS
# processes (GSP_TEST_SHARD=i/N, tests/testing.h); together the shards run
# every case. GSP_SAN_TIMEOUT per process; each log has a line per case
# (GSP_TEST_TRACE) with the seconds since the start.
SAN_TOOLS=""
for tool in racecheck initcheck memcheck synccheck; do want $tool && SAN_TOOLS="$SAN_TOOLS $tool"; done
SAN_JOBS=${GSP_SAN_JOBS:-$(nproc)}
SAN_SHARDS=${GSP_SAN_SHARDS:-"test_gpu_apsp_dense:8 test_gpu_faults:16 test_gpu_float_paths:8 test_gpu_sssp:6 test_gpu_apsp_sparse:6"}
shards_of() {  # tool test -> number of shards
  case $1 in racecheck | initcheck) ;; *) echo 1; return ;; esac
  for item in $SAN_SHARDS; do
    [ "${item%%:*}" = "$2" ] && { echo "${item#*:}"; return; }
  done
  echo 1
}
if [ -n "$SAN_TOOLS" ]; then
  t0=$(date +%s)
  for tool in $SAN_TOOLS; do
    extra=""
    [ $tool = memcheck ] && extra="--leak-check full"
    [ $tool = initcheck ] && extra="--print-limit 100000"
    small=1; [ "$tool" = racecheck ] && small=3
    for t in $GPU_TESTS; do
      name=$(basename "$t")
      ns=$(shards_of $tool "$name")
      i=0
      while [ $i -lt "$ns" ]; do
        log=$OUT/sanitizer-$tool-$name.log; [ "$ns" -gt 1 ] && log=$OUT/sanitizer-$tool-$name-s$i.log
        while [ "$(jobs -rp | wc -l)" -ge "$SAN_JOBS" ]; do wait -n; done
        ( GSP_TEST_TRACE=1 GSP_TEST_SHARD=$i/$ns GSP_TEST_SMALL=$small timeout "${GSP_SAN_TIMEOUT:-480}" \
            compute-sanitizer --tool $tool $extra --error-exitcode 99 "$t" >"$log" 2>&1
          echo "rc=$?" >>"$log" ) &
        i=$((i + 1))
      done
    done
  done
  wait
  for tool in $SAN_TOOLS; do
    status=PASS
    detail=""
    for t in $GPU_TESTS; do
      name=$(basename "$t")
      for log in "$OUT"/sanitizer-$tool-$name.log "$OUT"/sanitizer-$tool-$name-s*.log; do
        [ -f "$log" ] || continue
        part=$(basename "$log" .log); part=${part#sanitizer-$tool-}
        rc=$(sed -n 's/^rc=//p' "$log" | tail -1)
        summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)
        case $rc in
          0) detail="$detail $part ok${summary:+ ($summary)};" ;;
          77) detail="$detail $part skipped;" ;;
          124) status=FAIL; detail="$detail $part TIMEOUT;" ;;
          *) status=FAIL; detail="$detail $part rc=$rc ${summary};" ;;
        esac
      done
    done
    [ -z "$GPU_TESTS" ] && { status=FAIL; detail="no gpu test binaries"; }
    record $tool $status $(( $(date +%s) - t0 )) "$detail"
  done
fi

# ------------------------------------------------------------------ mpi
if want mpi; then
  t0=$(date +%s)
  (
    (cd "$BUILD" && ctest -L mpi -V --timeout 300)
    rc=$?
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    export GSP_MPI_TRACE=1
    for n in ${GSP_MPI_N:-16384}; do
      for dt in i32 f32; do
        for np in ${GSP_MPI_NP:-1 2}; do
          extra=""; [ "$np" = 1 ] && extra=single
          GSP_MPI_BENCH_BACKEND=cuda timeout 300 mpiexec --oversubscribe -np "$np" "$BUILD/bench/gsp_mpi_bench" "$n" "$dt" 0 2 $extra || rc=1
        done
      done
    done
    # CPU ranks on this host's cores (strong scaling, threads split evenly)
    cores=$(nproc)
    for np in ${GSP_MPI_CPU_NP:-1 2 4}; do
      extra=""; [ "$np" = 1 ] && extra=single
      GSP_MPI_BENCH_BACKEND=cpu timeout 300 mpiexec --oversubscribe --bind-to none -np "$np" "$BUILD/bench/gsp_mpi_bench" \
        "${GSP_MPI_CPU_N:-4096}" f32 $(( cores / np )) 1 $extra || rc=1
    done
    exit $rc
  ) >"$OUT/mpi.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then record mpi PASS $(( $(date +%s) - t0 )) "$(grep -E 'tests passed' "$OUT/mpi.log" | tail -1)"
  else record mpi FAIL $(( $(date +%s) - t0 )) "rc=$rc (mpi.log)"; fi
  grep -E '^n=|tests passed|Test +#' "$OUT/mpi.log" | tail -20
fi

# ------------------------------------------------------------------ multi-GPU
# Every GPU of the host in one process (gsp_options.num_devices): the test
# and the benchmark, neither in the default steps. NCCL_NVLS_ENABLE=0: NVLink
# multicast stays off (on the lent, shared multi-GPU hosts a program using it
# can put their GPUs out of service).
if want multitest; then
  t0=$(date +%s)
  bin=$BUILD/tests/test_gpu_multi_device
  if [ -x "$bin" ] && [ -f "$bin" ]; then
    (export NCCL_NVLS_ENABLE=0; cd "$BUILD/tests" && timeout "${GSP_TEST_TIMEOUT:-600}" ./test_gpu_multi_device) \
      >"$OUT/multitest.log" 2>&1
    rc=$?
    checks=$(grep -E 'passed, [0-9]+ failed' "$OUT/multitest.log" | tail -1)
    case $rc in
      0) record multitest PASS $(( $(date +%s) - t0 )) "$checks" ;;
      77) record multitest SKIP $(( $(date +%s) - t0 )) "$(grep -i -m1 'skip' "$OUT/multitest.log")" ;;
      124) record multitest FAIL $(( $(date +%s) - t0 )) "TIMEOUT after ${GSP_TEST_TIMEOUT:-600} s (multitest.log) $checks" ;;
      *) record multitest FAIL $(( $(date +%s) - t0 )) "rc=$rc (multitest.log) $checks" ;;
    esac
    grep -E 'FAIL|passed, [0-9]+ failed|SKIP' "$OUT/multitest.log" | tail -20
  else
    record multitest SKIP 0 "$bin not built"
  fi
fi
if want multigpu; then
  t0=$(date +%s)
  bin=$BUILD/bench/bench_multi_gpu
  limit=${GSP_BENCH_TIMEOUT:-560}
  commit=${GSP_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)}
  if [ -z "${GSP_COMMIT:-}" ] && [ -n "$commit" ] && ! git -C "$ROOT" diff --quiet HEAD 2>/dev/null; then
    commit="$commit (with local changes)"
  fi
  if [ -x "$bin" ] && [ -f "$bin" ]; then
    (export NCCL_NVLS_ENABLE=0 GSP_BENCH_TIMEOUT=$limit GSP_BENCH_RESULTS=-
     [ -n "$commit" ] && export GSP_COMMIT="$commit"
     timeout $(( limit + 30 )) "$bin") >"$OUT/multigpu.out" 2>"$OUT/multigpu.log"
    rc=$?
    grep -v '^csv,' "$OUT/multigpu.out" >"$OUT/multigpu.md"
    grep '^csv,' "$OUT/multigpu.out" | sed 's/^csv,//' >"$OUT/multigpu.csv"
    ok=$(grep -c ',OK,"' "$OUT/multigpu.csv")
    notrun=$(grep -c ',NOT_RUN,"' "$OUT/multigpu.csv")
    if [ $rc -eq 0 ] && grep -q '^SKIP' "$OUT/multigpu.md"; then
      record multigpu SKIP $(( $(date +%s) - t0 )) "$(grep -m1 '^SKIP' "$OUT/multigpu.md")"
    elif [ $rc -eq 0 ]; then
      record multigpu PASS $(( $(date +%s) - t0 )) "multigpu.md, multigpu.csv: $ok rows measured, $notrun not run (deadline)"
    elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      record multigpu FAIL $(( $(date +%s) - t0 )) "TIMEOUT after $(( limit + 30 )) s (multigpu.log); $ok rows measured"
    else
      record multigpu FAIL $(( $(date +%s) - t0 )) "rc=$rc (multigpu.log: $(grep -c FAILED "$OUT/multigpu.log") failed runs); $ok rows measured"
    fi
    cat "$OUT/multigpu.md"
    grep -E 'FAILED' "$OUT/multigpu.log" | head -20
  else
    record multigpu FAIL 0 "$bin not built"
  fi
fi

# ------------------------------------------------------------------ bench
if want bench; then
  t0=$(date +%s)
  # The fragments come back in $OUT/bench/results (copy them into
  # bench/results, then scripts/results.sh); this tree's copy is not written.
  GSP_BENCH_CSV=$OUT/bench.csv GSP_BENCH_PUBLISH_DIR=$OUT/bench \
    timeout "${GSP_BENCH_TIMEOUT:-240}" sh scripts/bench.sh "$BUILD" "${GSP_BENCH_FILTER:-}" >"$OUT/bench.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then record bench PASS $(( $(date +%s) - t0 )) "bench.log, bench.csv, bench/results/*.md"
  else record bench FAIL $(( $(date +%s) - t0 )) "rc=$rc (bench.log)"; fi
  grep -E '^(Graph|NY|RMAT)' "$OUT/bench.log" | head -120
fi

echo
echo "== summary (logs in $OUT)"
cat "$SUMMARY"
exit $FAILED
