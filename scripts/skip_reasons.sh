#!/bin/sh
# Prints why each skipped CTest test of the last run skipped: its SKIP lines,
# from BUILD/ctest.log (the summary) and BUILD/Testing/Temporary/LastTest.log
# (every test's output). Usage: scripts/skip_reasons.sh BUILD
set -eu
BUILD=${1:-build}
log="$BUILD/Testing/Temporary/LastTest.log"
skipped=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$BUILD/ctest.log")
[ -n "$skipped" ] || exit 0
echo "Skipped tests and why:"
for t in $skipped; do
  why=$(awk -v t="$t" '
    $0 ~ "^[0-9]+/[0-9]+ Test: " t "$" { on = 1; next }
    on && /^<end of output>/ { exit }
    on && /SKIP/ { sub(/^[ *]*/, ""); print; n++; if (n == 2) exit }' "$log" | paste -sd';' -)
  printf '  %-28s %s\n' "$t" "${why:-(no reason printed)}"
done
