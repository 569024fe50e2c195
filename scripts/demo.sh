#!/bin/sh
# make demo: a short tour of libgsp through the gsp command, then README's
# C example. Usage: sh scripts/demo.sh BUILD_DIR [GRAPH_FILE]
#   without GRAPH_FILE: a generated road-like grid (with coordinates);
#   with it (e.g. make data; make demo GRAPH=data/USA-road-d.NY.gr.gz): that
#   graph, drawn too when a DIMACS .co(.gz) file sits next to it.
set -e
BUILD=${1:-build}
GRAPH=${2:-}
GSP="$BUILD/gsp"
OUT="$BUILD/demo"

if [ ! -x "$GSP" ]; then
  echo "demo: $GSP not found; run 'make' first" >&2
  exit 1
fi
mkdir -p "$OUT"

step() { printf '\n== %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }
# A field of `gsp ... --json` output (numbers and strings only).
json_field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^,\"}]*\).*/\1/p"; }

step "libgsp $("$GSP" --version | sed 's/^gsp //')"

COORDS=""
if [ -n "$GRAPH" ]; then
  if [ ! -r "$GRAPH" ]; then
    echo "demo: cannot read GRAPH=$GRAPH" >&2
    exit 1
  fi
  for c in "${GRAPH%.gr.gz}.co.gz" "${GRAPH%.gr.gz}.co" "${GRAPH%.gr}.co" "${GRAPH%.gr}.co.gz"; do
    if [ "$c" != "$GRAPH" ] && [ -r "$c" ]; then COORDS="$c"; break; fi
  done
else
  step "a road-like graph: a 200 x 200 grid of two-way streets with random lengths"
  GRAPH="$OUT/road.gr"
  COORDS="$OUT/road.co"
  run "$GSP" generate grid --vertices 40000 --seed 2024 --max-weight 1000 -o "$GRAPH" --coords "$COORDS"
fi

step "the graph"
run "$GSP" info "$GRAPH"
N=$("$GSP" info "$GRAPH" --json | json_field vertices)
TARGET=$((N - 1))

step "single-source shortest paths from 0 (auto picks the backend and the algorithm), path to $TARGET"
run "$GSP" sssp "$GRAPH" --source 0 --to "$TARGET" --check

step "the same on the CPU with delta-stepping"
run "$GSP" sssp "$GRAPH" --source 0 --algorithm delta-stepping --backend cpu

if [ -n "$COORDS" ]; then
  step "drawing the path over the coordinates"
  run "$GSP" path "$GRAPH" --from 0 --to "$TARGET" --svg "$OUT/path.svg" --coords "$COORDS" --quiet \
    && echo "open $OUT/path.svg in a browser" || echo "(no path from 0 to $TARGET to draw)"
fi

step "all-pairs shortest paths on a small graph (1024 vertices, out-degree 6), rows streamed to a file"
run "$GSP" generate random --vertices 1024 --degree 6 --seed 1 -o "$OUT/small.gr"
run "$GSP" apsp "$OUT/small.gr" --out "$OUT/apsp.txt"
echo "$(($(wc -l < "$OUT/apsp.txt") - 1)) rows in $OUT/apsp.txt; the first starts:"
sed -n '2p' "$OUT/apsp.txt" | cut -c1-72

step "README's C example (doc/examples/readme_example.c)"
if [ -f doc/examples/readme_example.c ]; then
  # The build tree's gsp.pc, pointed at the build tree: the flags a user gets
  # (-lgsp: libgsp.so, found at run time through the rpath).
  LIBDIR=$(cd "$BUILD" && pwd)
  FLAGS=$(pkg-config --define-variable=libdir="$LIBDIR" --define-variable=includedir="$(pwd)/include" \
    --cflags --libs "$BUILD/gsp.pc")
  run cc -std=c99 -Wall -Wextra doc/examples/readme_example.c $FLAGS -Wl,-rpath,"$LIBDIR" -o "$BUILD/readme_example"
  run "$BUILD/readme_example"
else
  echo "(doc/examples/readme_example.c not written yet)"
fi

step "done: see 'gsp --help' and doc/cli.md"
