#!/bin/sh
# GAPBS beside bench_growth (issue 32): builds the GAP Benchmark Suite's
# `sssp` and `converter` (its Makefile, g++ -fopenmp) from a copy of its
# source tree and times its delta-stepping SSSP on the families and sizes of
# bench/bench_growth.c, with a delta sweep; prints, per family and size, the
# best Average Time, and appends every timed run to a CSV that bench_growth
# reads (GSP_BENCH_GAPBS_CSV) to print a GAPBS column beside its own.
#
#   GSP_GAPBS_SRC=DIR sh scripts/gapbs_growth.sh [BUILD]
#
# BUILD (default build) holds our `gsp` command, which writes the grid.
# GAPBS's source is not part of libgsp: export it from a clone, e.g.
#   git --git-dir=/path/to/gapbs.git archive HEAD | tar -x -C .gapbs
# (a file GAPBS_COMMIT beside it, if present, names the commit in the output).
#
# The graphs (one size at a time, deleted after it unless GSP_GAPBS_KEEP=1):
#   uniform  GAPBS's own: converter -u SCALE -k GSP_GAPBS_UNIFORM_K (default
#            4) -wb: GAPBS symmetrises its generated graphs, so k = 4 gives
#            about 8 arcs a vertex, as bench_growth's out-degree 8
#   rmat     GAPBS's own Kronecker (R-MAT 0.57/0.19/0.19): -g SCALE -k
#            GSP_GAPBS_RMAT_K (default 8), about 16 arcs a vertex before it
#            drops duplicate arcs (the CSV records the arcs it kept)
#   grid     the same graph as bench_growth's: `gsp generate grid` (seed
#            3200 + SCALE, weights 1..255) to a DIMACS .gr file, converted
#            once (-f FILE.gr -wb), run from vertex 0 (-r 0; .gr ids are
#            1-based, GAPBS's 0-based: vertex 0 is ours)
# GAPBS's weights are its own draws in 1..255 for uniform and R-MAT, and its
# sources random vertices with arcs (each trial another).
#
# Environment:
#   GSP_GAPBS_SRC               GAPBS's source tree (default .gapbs)
#   GSP_BENCH_GROWTH_MIN_LOG2   smallest SCALE (default 16)
#   GSP_BENCH_GROWTH_MAX_LOG2   largest SCALE (default 26); steps of 2
#   GSP_GAPBS_FAMILIES          default "uniform rmat grid"
#   GSP_GAPBS_DELTAS            uniform and R-MAT sweep (default "1 2 4 8 16 32")
#   GSP_GAPBS_GRID_DELTAS       grid sweep (default "64 256 1024 4096 16384")
#   GSP_GAPBS_TRIALS            trials per run (-n, default 4)
#   GSP_GAPBS_WORK              graph files and the build (default /tmp/gsp_gapbs)
#   GSP_BENCH_GAPBS_CSV         the CSV (default $GSP_GAPBS_WORK/gapbs_growth.csv),
#                               appended: family,log2,n,arcs,delta,trials,avg_seconds,graph
#   OMP_NUM_THREADS             GAPBS's threads (default: every core)
# Time on a 16-core host, all families to 2^26: about 15 minutes (the 2^26
# graphs take 1-2 minutes each to generate and convert); run one family at
# a time where a command may take at most 10 minutes.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
SRC=${GSP_GAPBS_SRC:-$ROOT/.gapbs}
WORK=${GSP_GAPBS_WORK:-/tmp/gsp_gapbs}
LO=${GSP_BENCH_GROWTH_MIN_LOG2:-16}
HI=${GSP_BENCH_GROWTH_MAX_LOG2:-26}
FAMILIES=${GSP_GAPBS_FAMILIES:-uniform rmat grid}
DELTAS=${GSP_GAPBS_DELTAS:-1 2 4 8 16 32}
GRID_DELTAS=${GSP_GAPBS_GRID_DELTAS:-64 256 1024 4096 16384}
TRIALS=${GSP_GAPBS_TRIALS:-4}
UNIFORM_K=${GSP_GAPBS_UNIFORM_K:-4}
RMAT_K=${GSP_GAPBS_RMAT_K:-8}
CSV=${GSP_BENCH_GAPBS_CSV:-$WORK/gapbs_growth.csv}
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
GSP=${GSP_CLI:-$BUILD/gsp}

if [ ! -f "$SRC/src/sssp.cc" ] || [ ! -f "$SRC/Makefile" ]; then
  echo "gapbs_growth: no GAPBS source tree at $SRC (set GSP_GAPBS_SRC)" >&2
  exit 1
fi
case " $FAMILIES " in *" grid "*)
  if [ ! -x "$GSP" ]; then echo "gapbs_growth: $GSP not found (build first, or set GSP_CLI)" >&2; exit 1; fi ;;
esac
mkdir -p "$WORK"
commit=$(cat "$SRC/GAPBS_COMMIT" 2>/dev/null || echo unknown)

# Build from a copy, so that the source tree stays as it came.
rm -rf "$WORK/gapbs"
cp -R "$SRC" "$WORK/gapbs"
echo "== building GAPBS ($commit) in $WORK/gapbs: make sssp converter"
make -C "$WORK/gapbs" CXX="${CXX:-g++}" sssp converter >"$WORK/gapbs_build.log" 2>&1 || {
  cat "$WORK/gapbs_build.log" >&2
  echo "gapbs_growth: GAPBS did not build" >&2
  exit 1
}
SSSP=$WORK/gapbs/sssp
CONV=$WORK/gapbs/converter
threads=${OMP_NUM_THREADS:-$(nproc)}
echo "== GAPBS sssp, $threads threads, $TRIALS trials a run; CSV $CSV"
[ -s "$CSV" ] || echo "family,log2,n,arcs,delta,trials,avg_seconds,graph" >"$CSV"

# The arcs of a GAPBS graph from its "Graph has N nodes and M [un]directed
# edges" line (an undirected edge is two arcs).
arcs_of() {
  awk '/^Graph has/ { m = $6; if ($7 == "undirected") m *= 2; print m; exit }' "$1"
}

summary=$WORK/summary.txt
: >"$summary"
for fam in $FAMILIES; do
  s=$LO
  while [ "$s" -le "$HI" ]; do
    n=$((1 << s))
    wsg=$WORK/$fam-$s.wsg
    log=$WORK/$fam-$s.log
    t0=$(date +%s)
    case $fam in
      uniform) "$CONV" -u "$s" -k "$UNIFORM_K" -wb "$wsg" >"$log" 2>&1; deltas=$DELTAS; src="" ;;
      rmat) "$CONV" -g "$s" -k "$RMAT_K" -wb "$wsg" >"$log" 2>&1; deltas=$DELTAS; src="" ;;
      grid)
        gr=$WORK/grid-$s.gr
        "$GSP" generate grid --vertices "$n" --seed $((3200 + s)) --max-weight 255 -o "$gr" -q
        "$CONV" -f "$gr" -wb "$wsg" >"$log" 2>&1
        rm -f "$gr"
        deltas=$GRID_DELTAS
        src="-r 0"
        ;;
      *) echo "gapbs_growth: unknown family '$fam' (uniform, rmat, grid)" >&2; exit 2 ;;
    esac
    arcs=$(arcs_of "$log")
    echo "== $fam 2^$s: $n vertices, $arcs arcs (GAPBS's graph, $(($(date +%s) - t0)) s to make)"
    best=""
    best_d=""
    for d in $deltas; do
      out=$WORK/$fam-$s-d$d.out
      # shellcheck disable=SC2086 # $src is empty or "-r 0"
      if "$SSSP" -f "$wsg" -n "$TRIALS" -d "$d" $src >"$out" 2>&1; then
        avg=$(awk -F: '/^Average Time/ { gsub(/ /, "", $2); print $2 }' "$out")
      else
        avg=""
      fi
      if [ -z "$avg" ]; then
        echo "   d=$d: failed (see $out)"
        echo "$fam,$s,$n,$arcs,$d,$TRIALS,,failed" >>"$CSV"
        continue
      fi
      echo "   d=$d: average $avg s"
      echo "$fam,$s,$n,$arcs,$d,$TRIALS,$avg,gapbs-$commit" >>"$CSV"
      if [ -z "$best" ] || awk "BEGIN { exit !($avg < $best) }"; then
        best=$avg
        best_d=$d
      fi
    done
    if [ -n "$best" ]; then
      awk -v f="$fam" -v s="$s" -v n="$n" -v m="$arcs" -v t="$best" -v d="$best_d" \
        'BEGIN { printf "| %s | 2^%d | %d | %d | %.3f | %s | %.3f |\n", f, s, n, m, t * 1e3, d, (m > 0 ? t * 1e9 / m : 0) }' \
        >>"$summary"
    fi
    [ "${GSP_GAPBS_KEEP:-0}" = 1 ] || rm -f "$wsg"
    s=$((s + 2))
  done
done
echo
echo "GAPBS sssp ($commit), $threads threads, best Average Time of $TRIALS trials over the delta sweep:"
echo
echo "| family | n | vertices | arcs (GAPBS's graph) | best ms | best delta | ns/arc |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
cat "$summary"
echo
echo "CSV: $CSV (bench_growth: GSP_BENCH_GAPBS_CSV=$CSV)"
