#!/bin/sh
# make bench: run every benchmark program of BUILD/bench (bench_sssp,
# bench_apsp_*, ...) and the Python binding's device-array bench. Each run
# writes one fragment, BUILD/bench/results/<program>.md, started afresh:
# a header written here (a "## " title naming the program and its
# arguments, then a "Run:" line with the date and time (UTC), the device,
# the host's CPU and cores and the commit: the form scripts/results.sh
# reads), then the tables the program appends to $GSP_BENCH_RESULTS, their
# headings one level down. Rows also go to BUILD/bench/results.csv. A
# failing program is reported and the others still run.
#
# Then, unless a graph filter was given or GSP_BENCH_PUBLISH=0, the
# fragments of the programs that succeeded and wrote a table replace their
# namesakes in the source tree's bench/results/, and scripts/results.sh
# writes bench/RESULTS.md again from every fragment there. A failed
# program's old fragment stays; a refresh of a few programs
# (GSP_BENCH_PROGRAMS) replaces only theirs, so a full refresh may span
# several runs of one tree. Usage: scripts/bench.sh [BUILD] [graph-filter]
#
# Environment:
#   GSP_BENCH_PROGRAMS="bench_sssp ..."  only the named programs
#                      (bench_device_arrays: the Python one)
#   GSP_BENCH_PUBLISH=0  publish nothing (the fragments stay in BUILD)
#   GSP_BENCH_PUBLISH_DIR=DIR  publish into DIR/results/ and DIR/RESULTS.md
#                      instead of $GSP_SOURCE_DIR/bench (a test, or a run
#                      whose tree does not come back)
#   GSP_COMMIT         the commit to name (default: git's HEAD, "with local
#                      changes" when the tree differs from it, bench/results
#                      and bench/RESULTS.md aside)
#   GSP_BENCH_CSV, GSP_DATA_DIR, GSP_SOURCE_DIR  as in bench/bench_common.h
# Other GSP_* variables set in the environment (knobs, GSP_BENCH_HUGE=1, ...)
# are named in each fragment's title. GSP_BENCH_RESULTS is set here, one
# file a program.
BUILD=${1:-build}
FILTER=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# The knobs of this run, before this script adds its own variables.
knobs=$(env | grep '^GSP_[A-Z0-9_]*=' | LC_ALL=C sort |
  grep -v -E '^GSP_(SOURCE_DIR|DATA_DIR|BENCH_CSV|BENCH_RESULTS|BENCH_PROGRAMS|BENCH_PUBLISH|BENCH_PUBLISH_DIR|COMMIT|LIBRARY)=' |
  tr '\n' ' ' | sed 's/ *$//')
: "${GSP_SOURCE_DIR:=$ROOT}"
: "${GSP_DATA_DIR:=$ROOT/../shared/data}"
: "${GSP_BENCH_CSV:=$BUILD/bench/results.csv}"
export GSP_SOURCE_DIR GSP_DATA_DIR GSP_BENCH_CSV
RES=$BUILD/bench/results
mkdir -p "$RES" || exit 1
rm -f "$RES"/*.md "$RES"/*.body

# The run's device, host and commit (no ';' in a field: it parts them).
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sed 's/ *$//' | grep .)
if [ -z "$gpus" ]; then
  device="no GPU"
elif [ "$(printf '%s\n' "$gpus" | sort -u | wc -l)" -eq 1 ] && [ "$(printf '%s\n' "$gpus" | wc -l)" -gt 1 ]; then
  device="$(printf '%s\n' "$gpus" | wc -l | tr -d ' ') x $(printf '%s\n' "$gpus" | head -1)"
else
  device=$(printf '%s\n' "$gpus" | tr '\n' '+' | sed 's/+$//; s/+/ + /g')
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
host="${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores"
if [ -n "${GSP_COMMIT:-}" ]; then
  commit=$GSP_COMMIT
elif commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null); then
  if [ -n "$(git -C "$ROOT" status --porcelain -- . ':(exclude)bench/results' ':(exclude)bench/RESULTS.md' 2>/dev/null)" ]; then
    commit="$commit with local changes"
  fi
else
  commit=unknown
fi
device=$(echo "$device" | tr ';' ',')
host=$(echo "$host" | tr ';' ',')
commit=$(echo "$commit" | tr ';' ',')

# run KEY TITLE COMMAND...: KEY's fragment from the header and the tables
# COMMAND appends to $GSP_BENCH_RESULTS; 0 when the command succeeded.
run() {
  key=$1 title=$2
  shift 2
  frag=$RES/$key.md
  printf '## %s\n\nRun: %s; device: %s; host: %s; commit: %s\n' "$title${knobs:+ ($knobs)}" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')" "$device" "$host" "$commit" >"$frag"
  : >"$RES/$key.body"
  GSP_BENCH_RESULTS=$RES/$key.body "$@"
  rc=$?
  if grep -q . "$RES/$key.body"; then
    echo >>"$frag"
    # Leading and trailing empty lines off; the program's headings one down.
    awk 'NF { p = 1 } p { l[++n] = $0 } END { while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }' \
      "$RES/$key.body" | sed 's/^\(#\{1,5\}\) /#\1 /' >>"$frag"
    [ $rc -eq 0 ] && tabled="$tabled $key"
  else
    printf '\nNo table: the program wrote none in this run.\n' >>"$frag"
  fi
  rm -f "$RES/$key.body"
  return $rc
}

failed=""
tabled=""
ran=0
for prog in "$BUILD"/bench/bench_*; do
  [ -x "$prog" ] && [ -f "$prog" ] || continue
  name=$(basename "$prog")
  if [ -n "${GSP_BENCH_PROGRAMS:-}" ]; then
    case " $GSP_BENCH_PROGRAMS " in *" $name "*) ;; *) continue ;; esac
  fi
  printf '\n== %s\n' "$name"
  ran=$((ran + 1))
  if [ -n "$FILTER" ]; then run "$name" "$name $FILTER" "$prog" "$FILTER"; else run "$name" "$name" "$prog"; fi ||
    failed="$failed $name"
done
# GPU arrays from Python (issue 31): CuPy in, CuPy out, on the NY graph;
# where CuPy, a device or the graph is missing it says so and is left out.
if [ -z "${GSP_BENCH_PROGRAMS:-}" ] || case " $GSP_BENCH_PROGRAMS " in *" bench_device_arrays "*) true ;; *) false ;; esac; then
  ny=$GSP_DATA_DIR/USA-road-d.NY.gr.gz
  if [ -f "$BUILD/libgsp.so" ] && [ -f "$ny" ] && python3 -c 'import cupy; cupy.cuda.runtime.getDeviceCount()' 2>/dev/null; then
    printf '\n== bench_device_arrays.py\n'
    ran=$((ran + 1))
    run bench_device_arrays "bench_device_arrays.py $(basename "$ny")" \
      env GSP_LIBRARY="$(cd "$BUILD" && pwd)/libgsp.so" PYTHONPATH="$ROOT/bindings/python" \
      python3 "$ROOT/bindings/python/tests/bench_device_arrays.py" "$ny" || failed="$failed bench_device_arrays"
  else
    printf '\n== bench_device_arrays.py skipped: needs BUILD/libgsp.so, %s and python3 with CuPy on a device\n' "$ny"
  fi
fi
printf '\n== bench: %d program(s) run; CSV %s; fragments in %s\n' "$ran" "$GSP_BENCH_CSV" "$RES"
if [ "$ran" -eq 0 ]; then echo "bench: no bench programs under $BUILD/bench (build first)"; exit 1; fi

PUB=${GSP_BENCH_PUBLISH_DIR:-$GSP_SOURCE_DIR/bench}
if [ -n "$FILTER" ]; then
  echo "bench: a graph filter ($FILTER): nothing published (the fragments stay in $RES)"
elif [ "${GSP_BENCH_PUBLISH:-1}" = 0 ]; then
  echo "bench: GSP_BENCH_PUBLISH=0: nothing published (the fragments stay in $RES)"
elif [ -z "$tabled" ]; then
  echo "bench: no program succeeded with a table: nothing published"
else
  mkdir -p "$PUB/results" || exit 1
  for key in $tabled; do cp "$RES/$key.md" "$PUB/results/$key.md" || failed="$failed publish:$key"; done
  if sh "$ROOT/scripts/results.sh" "$PUB/results" "$PUB/RESULTS.md"; then
    echo "bench: published$tabled to $PUB/results; $PUB/RESULTS.md written again (scripts/results.sh)"
  else
    failed="$failed results.sh"
  fi
fi
if [ -n "$failed" ]; then echo "bench: FAILED:$failed"; exit 1; fi
exit 0
