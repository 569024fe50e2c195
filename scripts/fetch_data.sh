#!/bin/sh
# make data: downloads the sample road graph of the 9th DIMACS Implementation
# Challenge (New York: 264,346 vertices, 733,846 arcs, with coordinates) into
# DIR (default data/). The challenge's download page:
#   http://www.diag.uniroma1.it/challenge9/download.shtml
# Then: make demo GRAPH=data/USA-road-d.NY.gr.gz
# Tests that use it: configure with -DGSP_DATA_DIR=$PWD/data.
# Offline? `gsp generate grid --vertices 250000 -o road.gr --coords road.co`
# makes a road-like graph of the same size.
set -eu
DIR=${1:-data}
BASE=${GSP_DIMACS_URL:-http://www.diag.uniroma1.it/challenge9/data/USA-road-d}
mkdir -p "$DIR"
fetch() {
  if command -v curl >/dev/null 2>&1; then curl -fL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then wget -O "$2" "$1"
  else echo "fetch_data: needs curl or wget" >&2; exit 1
  fi
}
for f in USA-road-d.NY.gr.gz USA-road-d.NY.co.gz; do
  if [ -s "$DIR/$f" ]; then echo "$DIR/$f: already there"; continue; fi
  echo "fetching $BASE/$f"
  fetch "$BASE/$f" "$DIR/$f.part" && mv "$DIR/$f.part" "$DIR/$f"
done
echo "done: make demo GRAPH=$DIR/USA-road-d.NY.gr.gz"
