#!/bin/sh
# Builds and tests one language binding against an INSTALLED libgsp, as a
# user's project would: installs BUILD into a temporary prefix, points
# PKG_CONFIG_PATH at it, then for LANG (python, rust, go, fortran):
#   abi      the binding's sizes/offsets/constants == tests/test_abi_layout.c's
#   tests    the binding's own tests (CPU; CUDA too where a device is usable)
#   example  doc/examples/bindings/example.* built and run
# Usage: scripts/check_bindings.sh LANG [BUILD]   (from the source root)
# Exit 77 (CTest SKIP_RETURN_CODE) when LANG's toolchain is missing.
# GSP_BINDINGS_EXPORT=DIR also copies the built test programs (rust, go,
# fortran, with the Fortran runtime libraries they load) into DIR, to be run
# where the toolchains are not, e.g. on a lent GPU machine
# (scripts/export_binding_tests.sh, tests/gpu/run.sh).
set -eu
LANG_=${1:?usage: check_bindings.sh python|rust|go|fortran [BUILD]}
BUILD=${2:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$BUILD" && pwd)
step() { printf '== bindings/%s: %s\n' "$LANG_" "$*"; }
skip() { printf '\n*** SKIP bindings/%s: %s\n\n' "$LANG_" "$*"; exit 77; }
have() { command -v "$1" >/dev/null 2>&1; }

case $LANG_ in
  python) have python3 || skip "python3 not found" ;;
  rust) have cargo && have rustc || skip "cargo/rustc not found (install rustup or Debian's cargo)" ;;
  go) have go || skip "go not found (Debian: apt-get install golang-go; scripts/deps.sh does it as root)" ;;
  fortran) have gfortran || skip "gfortran not found (Debian: apt-get install gfortran)" ;;
  *) echo "unknown language: $LANG_" >&2; exit 2 ;;
esac
have pkg-config || skip "pkg-config not found"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step "install $BUILD into a temporary prefix"
cmake --install "$BUILD" --prefix "$tmp/prefix" >/dev/null
libdir=$(dirname "$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -n1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# With libgsp.so next to libgsp.a, "-lgsp" picks the shared library: move
# it aside (except for Python, which loads it), so these bindings link
# libgsp.a through `pkg-config --static`.
mkdir -p "$tmp/shared"
if [ "$LANG_" != python ]; then
  for so in "$libdir"/libgsp.so*; do [ -e "$so" ] && mv "$so" "$tmp/shared/"; done
fi
# A pkg-config that always answers for static linking (cgo takes a program name only).
printf '#!/bin/sh\nexec pkg-config --static "$@"\n' >"$tmp/pkg-config-static"
chmod +x "$tmp/pkg-config-static"
CC=${CC:-cc}

step "abi: reference from C (tests/test_abi_layout.c)"
# shellcheck disable=SC2046
$CC -std=c99 -Wall -Wextra -Werror "$ROOT/tests/test_abi_layout.c" $(pkg-config --cflags --static --libs gsp) -Wl,-rpath,"$libdir" -o "$tmp/abi_c"
"$tmp/abi_c" >"$tmp/abi_c.txt"
abi_compare() {  # $1: the binding's lines
  # Sizes, offsets and constants: the same lines in the same order. The
  # "algorithm NAME VALUE" lines: every one the binding prints is C's (it
  # reads the library's algorithms and may name fewer; tests/test_abi_layout.c).
  grep -v '^algorithm ' "$tmp/abi_c.txt" >"$tmp/abi_c.fixed"
  grep -v '^algorithm ' "$1" >"$1.fixed" || true
  if ! diff -u "$tmp/abi_c.fixed" "$1.fixed"; then
    echo "bindings/$LANG_: ABI mismatch with include/gsp/gsp.h (lines with - are C, + the binding)" >&2
    exit 1
  fi
  grep '^algorithm ' "$tmp/abi_c.txt" | sort >"$tmp/abi_c.algorithms"
  grep '^algorithm ' "$1" | sort >"$1.algorithms" || true
  extra=$(comm -13 "$tmp/abi_c.algorithms" "$1.algorithms")
  if [ -n "$extra" ]; then
    printf '%s\n' "$extra" >&2
    echo "bindings/$LANG_: algorithms above differ from include/gsp/gsp.h's GSP_ALGORITHM_TABLE" >&2
    exit 1
  fi
  echo "abi: $(wc -l <"$1.fixed") lines match, $(wc -l <"$1.algorithms") of $(wc -l <"$tmp/abi_c.algorithms") algorithms named"
}

case $LANG_ in
python)
  [ -e "$libdir/libgsp.so" ] || skip "libgsp.so is not installed: configure with -DGSP_BUILD_SHARED=ON"
  step "constants: bindings/python/gsp/_constants.py == bindings/gen_constants.c python"
  # shellcheck disable=SC2046
  $CC -std=c99 -Wall -Werror "$ROOT/bindings/gen_constants.c" $(pkg-config --cflags gsp) -o "$tmp/gen_constants"
  "$tmp/gen_constants" python >"$tmp/_constants.py"
  diff -u "$ROOT/bindings/python/gsp/_constants.py" "$tmp/_constants.py" ||
    { echo "bindings/python: _constants.py is stale: regenerate it with bindings/gen_constants.c python" >&2; exit 1; }
  export PYTHONDONTWRITEBYTECODE=1
  unset GSP_LIBRARY GSP_BUILD_DIR
  step "make install's package: PREFIX/lib/python3/site-packages, libgsp.so found in PREFIX/lib"
  (cd "$tmp" && PYTHONPATH="$libdir/python3/site-packages" python3 -c \
    'import gsp, gsp._ffi as f; print(f.lib._name); assert f.lib._name.startswith("'"$libdir"'/libgsp.so")')
  # pip needs a build backend (setuptools, wheel) and the scipy test numpy and
  # scipy: take the first interpreter that has them all (Debian's python3 after
  # scripts/deps.sh), else the first with setuptools and wheel.
  PY=""
  for cand in python3 /usr/bin/python3; do
    have "$cand" && "$cand" -c 'import setuptools, wheel, pip' 2>/dev/null || continue
    [ -n "$PY" ] || PY=$cand
    if "$cand" -c 'import numpy, scipy' 2>/dev/null; then PY=$cand; break; fi
  done
  [ -n "$PY" ] || skip "no python3 with pip, setuptools and wheel (Debian: python3-pip python3-setuptools python3-wheel; scripts/deps.sh installs them as root)"
  step "pip install ./bindings/python with $PY (offline, ships libgsp.so in the package)"
  cp -r "$ROOT/bindings/python" "$tmp/pysrc"  # pip builds in the tree: keep the checkout clean
  rm -rf "$tmp/pysrc/build" "$tmp/pysrc"/*.egg-info
  "$PY" -m pip install --quiet --no-build-isolation --no-deps --no-index --target "$tmp/site" "$tmp/pysrc"
  export PYTHONPATH="$tmp/site"
  ls "$tmp/site/gsp"/libgsp.so.* >/dev/null || { echo "bindings/python: pip did not ship libgsp.so" >&2; exit 1; }
  cd "$tmp"  # not the source tree: import the installed package
  "$PY" -c 'import gsp._ffi as f; print("\n".join(f.abi_lines()))' >"$tmp/abi.txt"
  abi_compare "$tmp/abi.txt"
  "$PY" -c 'import gsp._ffi as f, sys; print("loaded", f.lib._name); sys.exit(not f.lib._name.startswith("'"$tmp/site/gsp/"'"))'
  step "tests (unittest; test_csgraph compares with scipy.sparse.csgraph)"
  if ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
    printf '\n*** SKIP bindings/python test_csgraph: %s has no numpy/scipy (Debian: python3-numpy python3-scipy)\n\n' "$PY"
  fi
  "$PY" -m unittest discover -s "$ROOT/bindings/python/tests" -t "$ROOT/bindings/python/tests" -v 2>&1
  step "example"
  "$PY" "$ROOT/doc/examples/bindings/example.py" | tee "$tmp/out.txt"
  ;;
rust)
  export CARGO_TARGET_DIR="$BUILD/bindings/cargo-target" CARGO_NET_OFFLINE=true
  # gsp-sys's build script asks pkg-config, whose answer changes with the
  # temporary prefix: it re-runs when PKG_CONFIG_PATH changes.
  man="$ROOT/bindings/rust/Cargo.toml"
  cargo run --offline -q -j1 --manifest-path "$man" -p gsp-sys --example abi >"$tmp/abi.txt"
  abi_compare "$tmp/abi.txt"
  step "tests (cargo test --offline)"
  cargo test --offline -j1 --manifest-path "$man" 2>&1
  if [ -n "${GSP_BINDINGS_EXPORT:-}" ]; then
    mkdir -p "$GSP_BINDINGS_EXPORT"
    cargo test --offline -j1 --manifest-path "$man" --no-run --message-format=json 2>/dev/null |
      sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | while read -r exe; do
        cp "$exe" "$GSP_BINDINGS_EXPORT/rust_$(basename "$exe")"
      done
  fi
  step "example"
  cargo run --offline -q -j1 --manifest-path "$man" -p gsp --example example | tee "$tmp/out.txt"
  ;;
go)
  # A fresh cache per run: cgo results depend on the temporary prefix.
  export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local \
    GOTELEMETRY=off CGO_ENABLED=1 PKG_CONFIG="$tmp/pkg-config-static"
  cd "$ROOT/bindings/go"
  GSP_ABI_OUT="$tmp/abi.txt" go test -count=1 -run '^TestABIDump$' . >/dev/null
  abi_compare "$tmp/abi.txt"
  step "tests (go vet, go test)"
  go vet .
  go test -count=1 -v . 2>&1 | grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)' || true
  go test -count=1 . >/dev/null
  if [ -n "${GSP_BINDINGS_EXPORT:-}" ]; then
    mkdir -p "$GSP_BINDINGS_EXPORT"
    go test -c -o "$GSP_BINDINGS_EXPORT/go_gsp.test" .
  fi
  step "example"
  mkdir -p "$tmp/example"
  cp "$ROOT/doc/examples/bindings/example.go" "$tmp/example/main.go"
  cat >"$tmp/example/go.mod" <<MOD
module example

go 1.19

require libgsp.org/gsp v0.0.0
replace libgsp.org/gsp => $ROOT/bindings/go
MOD
  (cd "$tmp/example" && go run .) | tee "$tmp/out.txt"
  ;;
fortran)
  FC=${FC:-gfortran}
  f="$ROOT/bindings/fortran"
  step "generate gsp_constants.inc and gsp_public.inc from gsp.h"
  # shellcheck disable=SC2046
  $CC -std=c99 -Wall -Werror "$ROOT/bindings/gen_constants.c" $(pkg-config --cflags gsp) -o "$tmp/gen_constants"
  "$tmp/gen_constants" fortran >"$tmp/gsp_constants.inc"
  "$tmp/gen_constants" fortran-public >"$tmp/gsp_public.inc"
  fflags="-std=f2018 -Wall -Wextra -Wno-compare-reals -Wno-maybe-uninitialized -I$tmp -J$tmp"
  # the raw layer, the modules by concern, then module gsp (bindings/fortran/CMakeLists.txt's order)
  fobjs=""
  for m in gsp_c gsp_common gsp_graphs gsp_results gsp_tables gsp_search gsp; do
    # shellcheck disable=SC2086
    $FC $fflags -c "$f/$m.f90" -o "$tmp/$m.o"
    fobjs="$fobjs $tmp/$m.o"
  done
  # shellcheck disable=SC2046,SC2086
  $FC $fflags "$f/tests/abi.f90" "$tmp/gsp_c.o" $(pkg-config --static --libs gsp) -o "$tmp/abi"
  { "$tmp/abi"; sed -n -e 's/^integer(c_int), parameter, public :: \([A-Z0-9_]*\) = \([0-9]*\)  ! algorithm:.*/algorithm \1 \2/p' \
      -e '/! algorithm:/!s/^integer(c_int), parameter, public :: \([A-Z0-9_]*\) = \(-\{0,1\}[0-9]*\).*/const \1 \2/p' \
      "$tmp/gsp_constants.inc"; } >"$tmp/abi.txt"
  abi_compare "$tmp/abi.txt"
  step "tests"
  # shellcheck disable=SC2046,SC2086
  $FC $fflags "$f/tests/test_gsp.f90" $fobjs $(pkg-config --static --libs gsp) -o "$tmp/test_gsp"
  (cd "$tmp" && ./test_gsp)
  if [ -n "${GSP_BINDINGS_EXPORT:-}" ]; then
    mkdir -p "$GSP_BINDINGS_EXPORT"
    cp "$tmp/test_gsp" "$GSP_BINDINGS_EXPORT/fortran_test_gsp"
    # the Fortran runtime, which machines without gfortran lack
    ldd "$tmp/test_gsp" | sed -n 's/.*=> \(\/[^ ]*\(gfortran\|quadmath\)[^ ]*\).*/\1/p' |
      while read -r lib; do cp -L "$lib" "$GSP_BINDINGS_EXPORT/"; done
  fi
  step "example, against the installed module (libgsp_fortran.a + .mod)"
  moddir=$(ls -d "$tmp"/prefix/include/gsp/fortran/* 2>/dev/null | head -n1)
  [ -n "$moddir" ] || { echo "bindings/fortran: make install put no .mod files under include/gsp/fortran" >&2; exit 1; }
  # shellcheck disable=SC2046,SC2086
  $FC -std=f2018 -I"$moddir" "$ROOT/doc/examples/bindings/example.f90" -L"$libdir" -lgsp_fortran $(pkg-config --static --libs gsp) -o "$tmp/example"
  "$tmp/example" | tee "$tmp/out.txt"
  ;;
esac
grep -q "path:" "$tmp/out.txt" || { echo "bindings/$LANG_: the example printed no path" >&2; exit 1; }
echo "bindings/$LANG_: ok"
