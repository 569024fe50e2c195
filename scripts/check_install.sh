#!/bin/sh
# Installs libgsp into a temporary prefix and builds two consumers outside
# the tree: a plain C program through pkg-config, and a CMake project through
# find_package(gsp). Both compute a path.
set -eu
BUILD=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -n1)
export PKG_CONFIG_PATH="$libdir"
cp doc/examples/readme_example.c "$tmp/app.c"
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror "$tmp/app.c" $(pkg-config --cflags --libs gsp) -o "$tmp/app"
"$tmp/app" >"$tmp/out.txt"
grep -q "path:" "$tmp/out.txt" || { echo "pkg-config consumer printed no path"; cat "$tmp/out.txt"; exit 1; }
echo "pkg-config consumer: ok"
mkdir -p "$tmp/cm"
cp doc/examples/readme_example.c "$tmp/cm/app.c"
cat >"$tmp/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(consumer C CXX)
find_package(gsp REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE gsp::gsp)
CM
cmake -S "$tmp/cm" -B "$tmp/cm/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cm/b" >/dev/null
"$tmp/cm/b/app" | grep -q "path:" || { echo "find_package consumer failed"; exit 1; }
echo "find_package consumer: ok"
if [ -f "$libdir/gsp_mpi.pc" ] && command -v mpicc >/dev/null 2>&1; then
  cp doc/examples/mpi_example.c "$tmp/mpi_app.c"
  # shellcheck disable=SC2046
  mpicc -std=c99 -Wall -Wextra -Werror "$tmp/mpi_app.c" $(pkg-config --cflags --libs gsp_mpi) -o "$tmp/mpi_app"
  mpirun --oversubscribe --allow-run-as-root -np 3 "$tmp/mpi_app" | grep -q "path: 0 1 2 3 4 5" ||
    { echo "pkg-config gsp_mpi consumer failed"; exit 1; }
  echo "pkg-config gsp_mpi consumer (mpirun -np 3): ok"
fi
