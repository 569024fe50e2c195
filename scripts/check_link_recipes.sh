#!/bin/sh
# shellcheck disable=SC2016,SC2034  # the recipes are literal text, eval'd; PKG_CONFIG_PATH is exported by a recipe
# The linking recipes of the docs, run as written (issue: "Go tests and
# binaries fail to find libgsp.so outside a system prefix; the Fortran line
# with --static links the shared library; gsp.pc's libdir expands to
# .../lib/pkgconfig/../..//lib"). Every line of every ```sh block that
# follows a `<!-- recipe: scripts/check_link_recipes.sh ... -->` marker in
# README.md and doc/bindings.md is run here, literally:
#   recipe FILE 'LINE'   fails unless FILE holds LINE (a line of a marked
#                        block, indentation aside), then evals it here;
# and at the end every line of the marked blocks must have been run (or
# skipped, with its toolchain), so the docs and this script stay in step.
# The install goes to a temporary $HOME/gsp, outside the system paths, as
# doc/bindings.md's own first block says; LD_LIBRARY_PATH is unset, so a
# shared program runs only through its rpath. Each program must print its
# path, and need libgsp.so (shared recipes, with the prefix's lib as its
# RUNPATH) or not (static recipes).
# Usage: scripts/check_link_recipes.sh [BUILD]   (from the source root)
# Exit 77 (CTest SKIP_RETURN_CODE), after running what it can, when a
# toolchain (gfortran, go) or the installed Fortran module is missing.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$BUILD" && pwd)
README=$ROOT/README.md
BINDINGS=$ROOT/doc/bindings.md
fail() { echo "check_link_recipes: $*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
skipped=""
skip() {  # $1: what; the recipes of that part count as covered
  printf '\n*** SKIP link recipes: %s\n\n' "$1"
  skipped="$skipped
$1"
}
have cc || { echo "*** SKIP link recipes: no C compiler (cc)"; exit 77; }
have pkg-config || { echo "*** SKIP link recipes: pkg-config not found"; exit 77; }
have readelf || { echo "*** SKIP link recipes: readelf not found (binutils)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH LIBRARY_PATH PKG_CONFIG PKG_CONFIG_LIBDIR CGO_LDFLAGS GSP_LIBRARY 2>/dev/null || true

# The lines of the marked blocks of $1, unindented, one per line.
marked_lines() {
  awk '/<!-- recipe: scripts\/check_link_recipes.sh/ { want = 1; next }
       want && /^ *```sh *$/ { inblock = 1; want = 0; next }
       inblock && /^ *``` *$/ { inblock = 0; next }
       inblock { sub(/^ +/, ""); print }' "$1"
}
for f in "$README" "$BINDINGS"; do
  [ -n "$(marked_lines "$f")" ] || fail "${f#"$ROOT"/} has no recipe blocks (<!-- recipe: ... --> before a \`\`\`sh block)"
done
: >"$tmp/ran"
# recipe FILE LINE: LINE must be a line of a marked block of FILE; eval it.
recipe() {
  marked_lines "$1" | grep -qxF -- "$2" ||
    fail "not a line of a recipe block of ${1#"$ROOT"/} (doc and script out of step): $2"
  printf '%s\n' "$2" >>"$tmp/ran"
  printf '$ %s\n' "$2"
  eval "$2" || fail "recipe failed (${1#"$ROOT"/}): $2"
}
# covered FILE LINE: a recipe of a skipped part, counted as run.
covered() {
  marked_lines "$1" | grep -qxF -- "$2" || fail "not a line of a recipe block of ${1#"$ROOT"/}: $2"
  printf '%s\n' "$2" >>"$tmp/ran"
}
# check PROGRAM shared|static: runs it (no LD_LIBRARY_PATH), wants a path
# printed and libgsp.so needed (with the prefix's lib as rpath) or not.
check() {
  out=$("$1") || fail "$1 did not run (libgsp.so not found? $(ldd "$1" 2>&1 | grep gsp))"
  printf '%s\n' "$out" | grep -q "path" || fail "$1 printed no path"
  dyn=$(readelf -d "$1")
  case "$2:$dyn" in
    static:*libgsp.so*) fail "$1 needs libgsp.so; the recipe should link libgsp.a" ;;
    static:*) ;;
    shared:*libgsp.so*)
      rpath=$(printf '%s\n' "$dyn" | sed -n 's/.*(R\{0,1\}U\{0,1\}N\{0,1\}PATH).*\[\(.*\)\]/\1/p' | tr '\n' ':')
      case ":$rpath" in *":$libdir:"*) ;; *) fail "$1 needs libgsp.so without the rpath $libdir (rpath: $rpath)" ;; esac ;;
    shared:*) fail "$1 does not need libgsp.so" ;;
  esac
  echo "   -> ran; $2 libgsp"
  rm -f "$1"
}

# ------------------------------------------------------------ install
# doc/bindings.md: `cmake --install build --prefix $HOME/gsp`, from a
# directory where `build` is BUILD, with HOME a temporary directory.
mkdir -p "$tmp/home" "$tmp/work"
ln -s "$BUILD" "$tmp/work/build"
cd "$tmp/work"
HOME=$tmp/home
recipe "$BINDINGS" 'cmake --install build --prefix $HOME/gsp'
recipe "$BINDINGS" 'export PKG_CONFIG_PATH=$HOME/gsp/lib/pkgconfig'
[ -f "$HOME/gsp/lib/pkgconfig/gsp.pc" ] || fail "no gsp.pc in \$HOME/gsp/lib/pkgconfig"
[ -e "$HOME/gsp/lib/libgsp.so" ] || fail "libgsp.so is not installed: configure with -DGSP_BUILD_SHARED=ON"
libdir=$HOME/gsp/lib

# gsp.pc: clean paths (no //, no .., no pcfiledir), that are the install's.
for v in prefix libdir includedir; do
  val=$(pkg-config --variable=$v gsp)
  case $val in *//*|*/../*|*/..|*/./*|*pcfiledir*|"") fail "gsp.pc: $v=$val is not a clean path" ;; esac
done
[ "$(pkg-config --variable=libdir gsp)" = "$libdir" ] || fail "gsp.pc: libdir=$(pkg-config --variable=libdir gsp), not $libdir"
[ "$(pkg-config --variable=includedir gsp)" = "$HOME/gsp/include" ] || fail "gsp.pc: includedir is not $HOME/gsp/include"
# shellcheck disable=SC2046
set -- $(pkg-config --libs gsp)
[ "$*" = "-L$libdir -lgsp" ] || fail "pkg-config --libs gsp: $*"
echo "gsp.pc: libdir=$libdir, includedir=$HOME/gsp/include"
# The prefix must be outside the linker's and the loader's paths, else the rpath recipes prove nothing.
cc -x c - -o "$tmp/probe" -L"$libdir" -lgsp <<'C'
int gsp_version(void);
int main(void) { return gsp_version() == 0; }
C
! "$tmp/probe" 2>/dev/null || fail "$libdir is on the loader's path: the rpath recipes would prove nothing"

# A static-only install (-DGSP_BUILD_SHARED=OFF), for the recipes that say so.
cmake --install "$BUILD" --prefix "$tmp/static" >/dev/null
rm -f "$tmp"/static/lib/libgsp.so*
STATIC_PC=$tmp/static/lib/pkgconfig

# ------------------------------------------------------------ C (README)
cp "$ROOT/doc/examples/readme_example.c" app.c
recipe "$README" 'cc app.c $(pkg-config --cflags --libs gsp)                 # libgsp.so, in a system prefix (else LD_LIBRARY_PATH)'
! ./a.out >/dev/null 2>&1 || fail "a.out ran without libgsp.so on its path"
LD_LIBRARY_PATH=$libdir ./a.out | grep -q "path: 0 2 3 4" || fail "a.out failed with LD_LIBRARY_PATH"
readelf -d a.out | grep -q 'NEEDED.*libgsp\.so' || fail "a.out does not need libgsp.so"
echo "   -> ran with LD_LIBRARY_PATH (and not without)"
rm -f a.out
recipe "$README" 'cc app.c $(pkg-config --cflags --libs gsp) -Wl,-rpath,$(pkg-config --variable=libdir gsp)   # libgsp.so, any prefix'
check ./a.out shared
recipe "$README" 'cc app.c $(pkg-config --cflags --libs-only-L gsp) -Wl,-Bstatic -lgsp -Wl,-Bdynamic $(pkg-config --variable=libs_private gsp)   # libgsp.a'
check ./a.out static
PKG_CONFIG_PATH=$STATIC_PC
recipe "$README" 'cc app.c $(pkg-config --cflags --static --libs gsp)        # libgsp.a, when it is the only one installed'
check ./a.out static
PKG_CONFIG_PATH=$HOME/gsp/lib/pkgconfig

# ------------------------------------------------------------ Fortran (doc/bindings.md)
F_INSTALLED='FMOD=$(pkg-config --variable=includedir gsp)/gsp/fortran/GNU-$(gfortran -dumpfullversion)
gfortran -I$FMOD app.f90 -lgsp_fortran $(pkg-config --libs gsp) -Wl,-rpath,$(pkg-config --variable=libdir gsp)
gfortran -I$FMOD app.f90 $(pkg-config --libs-only-L gsp) -lgsp_fortran -Wl,-Bstatic -lgsp -Wl,-Bdynamic $(pkg-config --variable=libs_private gsp)'
F_OWN='cc $(pkg-config --cflags gsp) bindings/gen_constants.c -o gen
./gen fortran > gsp_constants.inc && ./gen fortran-public > gsp_public.inc
for m in gsp_c gsp_common gsp_graphs gsp_results gsp_tables gsp_search gsp; do gfortran -I. -c bindings/fortran/$m.f90; done
gfortran app.f90 gsp_c.o gsp_common.o gsp_graphs.o gsp_results.o gsp_tables.o gsp_search.o gsp.o $(pkg-config --libs-only-L gsp) -Wl,-Bstatic -lgsp -Wl,-Bdynamic $(pkg-config --variable=libs_private gsp)'
cover_all() { printf '%s\n' "$2" | while IFS= read -r l; do covered "$1" "$l"; done; }
if ! have gfortran; then
  skip "Fortran recipes: gfortran not found (Debian: apt-get install gfortran)"
  cover_all "$BINDINGS" "$F_INSTALLED"
  cover_all "$BINDINGS" "$F_OWN"
else
  mkdir -p "$tmp/fortran" && cd "$tmp/fortran"
  cp "$ROOT/doc/examples/bindings/example.f90" app.f90
  if ! ls "$libdir"/libgsp_fortran.a >/dev/null 2>&1; then
    skip "Fortran installed-module recipes: no libgsp_fortran.a (BUILD was configured without a Fortran compiler)"
    cover_all "$BINDINGS" "$F_INSTALLED"
  else
    recipe "$BINDINGS" 'FMOD=$(pkg-config --variable=includedir gsp)/gsp/fortran/GNU-$(gfortran -dumpfullversion)'
    [ -f "$FMOD/gsp.mod" ] || fail "no gsp.mod in $FMOD (another gfortran than BUILD's?)"
    recipe "$BINDINGS" 'gfortran -I$FMOD app.f90 -lgsp_fortran $(pkg-config --libs gsp) -Wl,-rpath,$(pkg-config --variable=libdir gsp)'
    check ./a.out shared
    recipe "$BINDINGS" 'gfortran -I$FMOD app.f90 $(pkg-config --libs-only-L gsp) -lgsp_fortran -Wl,-Bstatic -lgsp -Wl,-Bdynamic $(pkg-config --variable=libs_private gsp)'
    check ./a.out static
  fi
  # "from the source tree": a directory whose bindings/ is the tree's (the
  # outputs land here, not in the checkout).
  mkdir -p "$tmp/own" && cd "$tmp/own"
  ln -s "$ROOT/bindings" bindings
  cp "$ROOT/doc/examples/bindings/example.f90" app.f90
  recipe "$BINDINGS" 'cc $(pkg-config --cflags gsp) bindings/gen_constants.c -o gen'
  recipe "$BINDINGS" './gen fortran > gsp_constants.inc && ./gen fortran-public > gsp_public.inc'
  recipe "$BINDINGS" 'for m in gsp_c gsp_common gsp_graphs gsp_results gsp_tables gsp_search gsp; do gfortran -I. -c bindings/fortran/$m.f90; done'
  [ -f gsp.o ] && [ -f gsp_search.o ] || fail "the module files did not all compile"
  recipe "$BINDINGS" 'gfortran app.f90 gsp_c.o gsp_common.o gsp_graphs.o gsp_results.o gsp_tables.o gsp_search.o gsp.o $(pkg-config --libs-only-L gsp) -Wl,-Bstatic -lgsp -Wl,-Bdynamic $(pkg-config --variable=libs_private gsp)'
  check ./a.out static
fi

# ------------------------------------------------------------ Go (doc/bindings.md)
GO_SHARED='export CGO_LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir gsp)"
go build -o app . && ./app                  # in your module (go.mod: require + replace)
(cd bindings/go && go test -count=1 .)      # the binding'"'"'s tests, from the source tree'
GO_STATIC='printf '"'"'#!/bin/sh\nexec pkg-config --static "$@"\n'"'"' > pkg-config-static && chmod +x pkg-config-static
PKG_CONFIG=$PWD/pkg-config-static go build -o app . && ./app'
if ! have go; then
  skip "Go recipes: go not found (Debian: apt-get install golang-go)"
  cover_all "$BINDINGS" "$GO_SHARED"
  cover_all "$BINDINGS" "$GO_STATIC"
else
  # Offline, with fresh caches (cgo results depend on the prefix), as scripts/check_bindings.sh.
  export GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local \
    GOTELEMETRY=off CGO_ENABLED=1
  mkdir -p "$tmp/goapp" && cd "$tmp/goapp"
  cp "$ROOT/doc/examples/bindings/example.go" main.go
  cat >go.mod <<MOD
module example

go 1.19

require libgsp.org/gsp v0.0.0
replace libgsp.org/gsp => $ROOT/bindings/go
MOD
  go build -o app . || fail "go build failed (without CGO_LDFLAGS)"
  ! ./app >/dev/null 2>&1 || fail "a Go program without an rpath ran: the prefix is on the loader's path"
  rm -f app
  recipe "$BINDINGS" 'export CGO_LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir gsp)"'
  recipe "$BINDINGS" 'go build -o app . && ./app                  # in your module (go.mod: require + replace)'
  check ./app shared
  # The binding's tests: from a directory whose bindings/ is the tree's.
  mkdir -p "$tmp/gosrc" && cd "$tmp/gosrc"
  ln -s "$ROOT/bindings" bindings
  recipe "$BINDINGS" "(cd bindings/go && go test -count=1 .)      # the binding's tests, from the source tree"
  # Only libgsp.a installed: the static wrapper. A fresh cache: Go's does
  # not notice that pkg-config's answer changed (doc/bindings.md says so).
  cd "$tmp/goapp"
  unset CGO_LDFLAGS
  export GOCACHE="$tmp/gocache-static"
  PKG_CONFIG_PATH=$STATIC_PC
  recipe "$BINDINGS" 'printf '"'"'#!/bin/sh\nexec pkg-config --static "$@"\n'"'"' > pkg-config-static && chmod +x pkg-config-static'
  recipe "$BINDINGS" 'PKG_CONFIG=$PWD/pkg-config-static go build -o app . && ./app'
  check ./app static
  PKG_CONFIG_PATH=$HOME/gsp/lib/pkgconfig
fi

# ------------------------------------------------------------ docs <-> script
missing=""
for f in "$README" "$BINDINGS"; do
  marked_lines "$f" >"$tmp/doc_lines"
  while IFS= read -r l; do
    grep -qxF -- "$l" "$tmp/ran" || missing="$missing
  ${f#"$ROOT"/}: $l"
  done <"$tmp/doc_lines"
done
[ -z "$missing" ] || fail "recipe lines of the docs that this script does not run (add them here):$missing"
echo "docs: every line of the recipe blocks of README.md and doc/bindings.md ran here"
if [ -n "$skipped" ]; then
  printf '\nlink recipes: the rest passed; skipped:%s\n' "$skipped"
  exit 77
fi
echo "link recipes: all passed"
