#!/bin/sh
# make demo: until the gsp command exists, build and run README's C example.
set -e
BUILD=${1:-build}
cc -std=c99 -Wall -Wextra -Iinclude doc/examples/readme_example.c "$BUILD/libgsp.a" \
  $(sed -n 's/^Libs: -L[^ ]* -lgsp //p' "$BUILD/gsp.pc") -o "$BUILD/readme_example"
"$BUILD/readme_example"
