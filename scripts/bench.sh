#!/bin/sh
# make bench: run every benchmark program of BUILD/bench (bench_sssp,
# bench_apsp_*, ...). Each appends rows to BUILD/bench/results.csv and a
# dated table to bench/RESULTS.md; a failing program is reported and the
# others still run. Usage: scripts/bench.sh [BUILD] [graph-filter]
# GSP_BENCH_PROGRAMS="bench_sssp ..." runs only the named programs.
BUILD=${1:-build}
FILTER=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${GSP_SOURCE_DIR:=$ROOT}"
: "${GSP_DATA_DIR:=$ROOT/../shared/data}"
: "${GSP_BENCH_CSV:=$BUILD/bench/results.csv}"
export GSP_SOURCE_DIR GSP_DATA_DIR GSP_BENCH_CSV
mkdir -p "$BUILD/bench"
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
printf '\n== bench: %d program(s) run; CSV %s; tables appended to %s\n' "$ran" "$GSP_BENCH_CSV" \
  "${GSP_BENCH_RESULTS:-$GSP_SOURCE_DIR/bench/RESULTS.md}"
if [ "$ran" -eq 0 ]; then echo "bench: no bench programs under $BUILD/bench (build first)"; exit 1; fi
if [ -n "$failed" ]; then echo "bench: FAILED:$failed"; exit 1; fi
