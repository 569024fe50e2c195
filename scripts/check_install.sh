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
