#!/bin/sh
# Installs libgsp into a temporary prefix and builds C consumers outside the
# tree as a user whose machine has the NVIDIA driver but no CUDA toolkit:
# PATH without nvcc, CUDA_PATH/CUDA_HOME/CUDAToolkit_ROOT pointing nowhere,
# and a cc wrapper that fails when a CUDA path is named or any file of one is
# read by the linker (-Wl,--trace). Four consumers, each run:
#   pkg-config shared (`pkg-config --libs gsp`), pkg-config static
#   (`pkg-config --static --libs gsp`, libgsp.a only), CMake static
#   (find_package(gsp), gsp::gsp) and CMake shared (-DGSP_USE_SHARED=ON).
# Then: every public header installed (gsp.h and the parts it includes), no
# build-machine path in the installed text files, `man gsp` from the
# prefix, `make uninstall`, and the gsp_mpi consumer when MPI is built.
set -eu
BUILD=${1:-build}
ROOT=$(pwd)
BUILD=$(cd "$BUILD" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_install: $*" >&2; exit 1; }
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
cp "$BUILD/install_manifest.txt" "$tmp/manifest.txt"
libdir=$(dirname "$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -n1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"

# ------------------------------------------------------------ installed files
# gsp.pc: libdir and includedir are this prefix's, as clean paths (no `..`, no `//`).
[ "$(pkg-config --variable=libdir gsp)" = "$libdir" ] ||
  fail "gsp.pc: libdir=$(pkg-config --variable=libdir gsp), not $libdir"
[ "$(pkg-config --variable=includedir gsp)" = "$tmp/prefix/include" ] ||
  fail "gsp.pc: includedir=$(pkg-config --variable=includedir gsp), not $tmp/prefix/include"
echo "gsp.pc: libdir=$libdir"
bad=$(grep -rIl -e /usr/local/cuda -e "$BUILD" -e "$ROOT/" "$libdir" "$tmp/prefix/share/man" 2>/dev/null || true)
[ -z "$bad" ] || fail "build-machine paths in installed files: $bad"
echo "installed files: no CUDA toolkit, source or build paths"
# gsp.h and the parts it includes (gsp_table.h, ...), as in the tree; gsp_mpi.h with MPI only.
for h in "$ROOT"/include/gsp/*.h; do
  n=${h##*/}
  [ "$n" = gsp_mpi.h ] || cmp -s "$h" "$tmp/prefix/include/gsp/$n" || fail "include/gsp/$n is not installed"
done
echo "headers: include/gsp/*.h installed"

# ------------------------------------------------------------ hide the toolkit
REAL_CC=$(command -v "${CC:-cc}")
# PATH without CUDA directories and without any directory holding an nvcc
# (e.g. a /usr/local/bin/nvcc link).
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -iv cuda | while read -r d; do
  [ -e "$d/nvcc" ] || printf '%s\n' "$d"; done | paste -sd: -)
LD_LIBRARY_PATH=$(printf '%s' "${LD_LIBRARY_PATH:-}" | tr ':' '\n' | grep -iv cuda | paste -sd: -)
export PATH LD_LIBRARY_PATH CUDA_PATH=/nonexistent CUDA_HOME=/nonexistent CUDAToolkit_ROOT=/nonexistent \
  CUDACXX=/nonexistent/nvcc
unset LIBRARY_PATH CPATH C_INCLUDE_PATH CUDA_ROOT 2>/dev/null || true
! command -v nvcc >/dev/null 2>&1 || fail "nvcc is still on PATH"
mkdir -p "$tmp/bin"
cat >"$tmp/bin/cc" <<WRAP
#!/bin/sh
# cc on a machine without the CUDA toolkit: fails when a CUDA path is named
# or the linker reads any file under one.
for a in "\$@"; do
  case \$a in *cuda*|*CUDA*) echo "cc-no-cuda: CUDA path on the command line: \$a" >&2; exit 1 ;; esac
done
case " \$* " in *" -E "*|*" -c "*) exec "$REAL_CC" "\$@" ;; esac
log=\$(mktemp)
"$REAL_CC" "\$@" -Wl,--trace >"\$log"; rc=\$?
if grep -i cuda "\$log" >&2; then echo "cc-no-cuda: the link read the CUDA files above" >&2; rm -f "\$log"; exit 1; fi
rm -f "\$log"
exit \$rc
WRAP
chmod +x "$tmp/bin/cc"
CC="$tmp/bin/cc"
export CC

# Runs a consumer; $2: "static" (no libgsp.so needed) or "shared".
check_app() {
  "$1" >"$tmp/out.txt" || fail "$1 failed"
  grep -q "path: 0 2 3 4" "$tmp/out.txt" || fail "$1 printed no path"
  needed=$(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  case "$2:$needed" in
    static:*libgsp*) fail "$1 needs libgsp.so: $needed" ;;
    shared:*libgsp.so.*) ;;
    shared:*) fail "$1 does not link libgsp.so: $needed" ;;
  esac
  case "$needed" in *cuda*) fail "$1 needs a CUDA library: $needed" ;; esac
  echo "$3 consumer ($2): ok, needs $needed"
}

cp doc/examples/readme_example.c "$tmp/app.c"
# shellcheck disable=SC2046
"$CC" -std=c99 -Wall -Wextra -Werror "$tmp/app.c" $(pkg-config --cflags --libs gsp) -Wl,-rpath,"$libdir" -o "$tmp/app_shared"
check_app "$tmp/app_shared" shared "pkg-config --libs gsp"

# A static-only install (as with -DGSP_BUILD_SHARED=OFF): -lgsp is libgsp.a.
# Installed, not copied: gsp.pc names the prefix it was installed into.
cmake --install "$BUILD" --prefix "$tmp/static" >/dev/null
rm -f "$tmp"/static/lib*/libgsp.so*
# shellcheck disable=SC2046
PKG_CONFIG_PATH=$(ls -d "$tmp"/static/lib*/pkgconfig) sh -c \
  '"$CC" -std=c99 -Wall -Wextra -Werror "$1" $(pkg-config --cflags --static --libs gsp) -o "$2"' sh "$tmp/app.c" "$tmp/app_static"
check_app "$tmp/app_static" static "pkg-config --static --libs gsp"

mkdir -p "$tmp/cm"
cp doc/examples/readme_example.c "$tmp/cm/app.c"
cat >"$tmp/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(consumer C)
find_package(gsp 0.1 REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE gsp::gsp)
CM
for kind in static shared; do
  use=OFF; [ $kind = shared ] && use=ON
  cmake -S "$tmp/cm" -B "$tmp/cm/$kind" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DGSP_USE_SHARED=$use >"$tmp/cm.log" 2>&1 ||
    { cat "$tmp/cm.log"; fail "find_package(gsp) ($kind) failed"; }
  cmake --build "$tmp/cm/$kind" >"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "CMake consumer ($kind) failed to build"; }
  ! grep -il cuda "$tmp/cm/$kind/CMakeCache.txt" >/dev/null || fail "the CMake consumer ($kind) looked for CUDA"
  check_app "$tmp/cm/$kind/app" $kind "find_package(gsp)"
done

# ------------------------------------------------------------ man page
if command -v man >/dev/null 2>&1; then
  MANPAGER=cat MANWIDTH=80 man -M "$tmp/prefix/share/man" gsp 2>/dev/null | grep -q "shortest paths" ||
    fail "man -M PREFIX/share/man gsp shows no page"
  echo "man -M PREFIX/share/man gsp: ok"
elif command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 "$tmp/prefix/share/man/man1/gsp.1" | grep -q "shortest paths" || fail "gsp.1 does not render"
  echo "man not installed; gsp.1 renders with groff: ok"
else
  echo "*** SKIP man page: neither man nor groff (Debian: man-db)"
fi

# ------------------------------------------------------------ uninstall
cmake -DMANIFEST="$tmp/manifest.txt" -P cmake/uninstall.cmake >/dev/null
left=$(find "$tmp/prefix" -type f ! -path '*__pycache__*' | head -n 5)
[ -z "$left" ] || fail "make uninstall left files: $left"
echo "make uninstall: removed every installed file"

spc=$(ls -d "$tmp"/static/lib*/pkgconfig)
if [ -f "$spc/gsp_mpi.pc" ] && command -v mpicc >/dev/null 2>&1; then
  export PKG_CONFIG_PATH="$spc"
  cp doc/examples/mpi_example.c "$tmp/mpi_app.c"
  # shellcheck disable=SC2046
  mpicc -std=c99 -Wall -Wextra -Werror "$tmp/mpi_app.c" $(pkg-config --cflags --libs gsp_mpi) -o "$tmp/mpi_app"
  mpirun --oversubscribe --allow-run-as-root -np 3 "$tmp/mpi_app" | grep -q "path: 0 1 2 3 4 5" ||
    fail "pkg-config gsp_mpi consumer failed"
  echo "pkg-config gsp_mpi consumer (mpirun -np 3): ok"
fi
