#!/bin/sh
# Builds the Rust, Go and Fortran bindings' test programs against BUILD (a
# CUDA-enabled build, so that they exercise the CUDA backend where a device
# is usable) and copies them into OUT (default build-binding-tests), for a
# machine that has a GPU but not these toolchains (the lent GPU machines):
# tests/gpu/run.sh runs whatever it finds there (stripped, gzipped: about
# 15 MB for the three languages, within a device call's carry). Each language is tested here
# first (scripts/check_bindings.sh); a missing toolchain is skipped.
#   sh scripts/export_binding_tests.sh [BUILD] [OUT]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${1:-build}
OUT=${2:-build-binding-tests}
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
status=0
for lang in rust go fortran; do
  GSP_BINDINGS_EXPORT=$OUT sh scripts/check_bindings.sh "$lang" "$BUILD" >"$OUT/$lang.log" 2>&1
  rc=$?
  case $rc in
    0) echo "$lang: exported" ;;
    77) echo "$lang: skipped ($(tail -n 1 "$OUT/$lang.log"))" ;;
    *) echo "$lang: FAILED (rc=$rc, $OUT/$lang.log)"; status=1 ;;
  esac
done
# Only the tests that loop over the backends; stripped and compressed (the
# archive's CUDA code makes each some 16 MB): tests/gpu/run.sh unpacks them.
rm -f "$OUT"/rust_abi* "$OUT"/rust_example* "$OUT"/rust_gsp_sys-*
for f in "$OUT"/rust_* "$OUT"/go_* "$OUT"/fortran_* "$OUT"/lib*.so*; do
  [ -f "$f" ] || continue
  case $f in *.gz|*.log) continue ;; esac
  strip "$f" 2>/dev/null || true
  gzip -9 "$f"
done
ls -la "$OUT"
exit $status
