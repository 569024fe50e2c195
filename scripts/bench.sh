#!/bin/sh
# make bench: run every benchmark program of BUILD/bench (bench_sssp,
# bench_apsp_*, ...). Each appends rows to BUILD/bench/results.csv and its
# table to BUILD/bench/RESULTS.md, which this script starts afresh with the
# run's date, device, host and commit; a failing program is reported and the
# others still run. Nothing in the source tree is written: bench/RESULTS.md
# (the latest full run; history is git's) is replaced by copying
# BUILD/bench/RESULTS.md over it deliberately, after reading it, when the
# run was complete (every program, no filter, none failed; the script says
# so). Usage: scripts/bench.sh [BUILD] [graph-filter]
# GSP_BENCH_PROGRAMS="bench_sssp ..." runs only the named programs (a partial
# run). GSP_BENCH_RESULTS=FILE: the tables go to FILE instead (appended).
BUILD=${1:-build}
FILTER=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${GSP_SOURCE_DIR:=$ROOT}"
: "${GSP_DATA_DIR:=$ROOT/../shared/data}"
: "${GSP_BENCH_CSV:=$BUILD/bench/results.csv}"
export GSP_SOURCE_DIR GSP_DATA_DIR GSP_BENCH_CSV
mkdir -p "$BUILD/bench"
publish=0
if [ -z "${GSP_BENCH_RESULTS:-}" ]; then
  GSP_BENCH_RESULTS=$BUILD/bench/RESULTS.md
  publish=1
  {
    echo "# Benchmark results"
    echo
    echo "The latest full run of the harness (\`make bench\`, \`bench/\`), copied here from"
    echo "BUILD/bench/RESULTS.md after a complete run; earlier runs are in git history."
    echo "Every number was measured, none is asserted in a test."
    echo
    echo "- **Run:** $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
    dev=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
    echo "- **Device:** ${dev:-no NVIDIA GPU visible (CPU engines only)}"
    echo "- **Host:** $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) cores"
    echo
  } >"$GSP_BENCH_RESULTS"
fi
export GSP_BENCH_RESULTS
failed=""
ran=0
for prog in "$BUILD"/bench/bench_*; do
  [ -x "$prog" ] && [ -f "$prog" ] || continue
  name=$(basename "$prog")
  if [ -n "${GSP_BENCH_PROGRAMS:-}" ]; then
    case " $GSP_BENCH_PROGRAMS " in *" $name "*) ;; *) continue ;; esac
  fi
  printf '\n== %s\n' "$name"
  ran=$((ran + 1))
  if [ -n "$FILTER" ]; then "$prog" "$FILTER"; else "$prog"; fi || failed="$failed $name"
done
# GPU arrays from Python (issue 31): CuPy in, CuPy out, on the NY graph;
# where CuPy, a device or the graph is missing it says so and is left out.
if [ -z "${GSP_BENCH_PROGRAMS:-}" ] || case " $GSP_BENCH_PROGRAMS " in *" bench_device_arrays "*) true ;; *) false ;; esac; then
  ny=$GSP_DATA_DIR/USA-road-d.NY.gr.gz
  if [ -f "$BUILD/libgsp.so" ] && [ -f "$ny" ] && python3 -c 'import cupy; cupy.cuda.runtime.getDeviceCount()' 2>/dev/null; then
    printf '\n== bench_device_arrays.py\n'
    ran=$((ran + 1))
    GSP_LIBRARY=$(cd "$BUILD" && pwd)/libgsp.so PYTHONPATH=$ROOT/bindings/python \
      python3 "$ROOT/bindings/python/tests/bench_device_arrays.py" "$ny" || failed="$failed bench_device_arrays"
  else
    printf '\n== bench_device_arrays.py skipped: needs BUILD/libgsp.so, %s and python3 with CuPy on a device\n' "$ny"
  fi
fi
printf '\n== bench: %d program(s) run; CSV %s; tables in %s\n' "$ran" "$GSP_BENCH_CSV" "$GSP_BENCH_RESULTS"
if [ "$ran" -eq 0 ]; then echo "bench: no bench programs under $BUILD/bench (build first)"; exit 1; fi
if [ -n "$failed" ]; then echo "bench: FAILED:$failed"; exit 1; fi
if [ "$publish" = 1 ] && [ -z "$FILTER" ] && [ -z "${GSP_BENCH_PROGRAMS:-}" ]; then
  echo "bench: a complete run; to publish it: cp $GSP_BENCH_RESULTS $ROOT/bench/RESULTS.md"
else
  echo "bench: a partial run (not for bench/RESULTS.md as it stands)"
fi
