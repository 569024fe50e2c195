#!/bin/sh
# The tests of bench/RESULTS.md's making (tests/results.cmake):
#   current ROOT TMP  scripts/results.sh on ROOT/bench/results gives
#                     ROOT/bench/RESULTS.md as committed (else "stale")
#   header ROOT TMP   a fragment without a header, beside a good one: the
#                     script fails, naming it, and writes nothing
#   bench ROOT TMP    scripts/bench.sh on a fake BUILD/bench (bench_dummy
#                     writes a table, bench_quiet none, bench_broken fails
#                     after one), published into TMP/pub: a fresh fragment
#                     with the header for bench_dummy, the failed program's
#                     old fragment kept, RESULTS.md written again; then a
#                     graph filter and GSP_BENCH_PUBLISH=0 publish nothing
# Exit 0 when the case holds, 1 naming what did not.
set -u
what=$1 root=$2 tmp=$3
fail() { echo "check_results ($what): $*"; exit 1; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
RUN_RE='^Run: [0-9]{4}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9] UTC; device: [^;]+; host: [^;]+; commit: [^;]+$'

case $what in
current)
  sh "$root/scripts/results.sh" "$root/bench/results" "$tmp/RESULTS.md" || fail "scripts/results.sh failed"
  if ! cmp -s "$tmp/RESULTS.md" "$root/bench/RESULTS.md"; then
    diff "$root/bench/RESULTS.md" "$tmp/RESULTS.md" | head -20
    fail "bench/RESULTS.md is stale: regenerate with scripts/results.sh"
  fi
  echo "bench/RESULTS.md is what scripts/results.sh makes of bench/results"
  ;;
header)
  mkdir -p "$tmp/frags"
  printf '## bench_good\n\nRun: 2026-01-02 03:04 UTC; device: no GPU; host: x, 2 cores; commit: abc1234\n\n| a |\n' \
    >"$tmp/frags/bench_good.md"
  printf '## bench_headless\n\nRun: yesterday\n\n| a |\n' >"$tmp/frags/bench_headless.md"
  out=$(sh "$root/scripts/results.sh" "$tmp/frags" "$tmp/RESULTS.md" 2>&1) && fail "no failure on a fragment without a header"
  echo "$out"
  case $out in *"$tmp/frags/bench_headless.md: no valid header"*) ;; *) fail "the message does not name bench_headless.md" ;; esac
  case $out in *bench_good.md*) fail "the good fragment was named" ;; esac
  [ -f "$tmp/RESULTS.md" ] && fail "an output was written"
  echo "a fragment without a header is named"
  ;;
bench)
  b=$tmp/build/bench
  mkdir -p "$b" "$tmp/pub/results"
  cat >"$b/bench_dummy" <<'EOF'
#!/bin/sh
printf '\n## A dummy table\n\n| a |\n| --- |\n| 1 |\n\n' >>"$GSP_BENCH_RESULTS"
EOF
  cat >"$b/bench_quiet" <<'EOF'
#!/bin/sh
echo quiet
EOF
  cat >"$b/bench_broken" <<'EOF'
#!/bin/sh
printf '## Broken\n\n| b |\n' >>"$GSP_BENCH_RESULTS"
exit 3
EOF
  chmod +x "$b"/bench_*
  old='## bench_broken

Run: 2026-01-02 03:04 UTC; device: no GPU; host: x, 2 cores; commit: abc1234

| the old table |'
  echo "$old" >"$tmp/pub/results/bench_broken.md"
  # A clean environment: only the knob below may be named in the title.
  clean() { env -i PATH="$PATH" GSP_BENCH_PUBLISH_DIR="$tmp/pub" GSP_BENCH_CSV="$tmp/csv" "$@"; }
  clean GSP_BENCH_TEST_KNOB=7 GSP_COMMIT="abc1234 with local changes" \
    sh "$root/scripts/bench.sh" "$tmp/build" >"$tmp/log" 2>&1 && fail "no failure with bench_broken failing"
  cat "$tmp/log"
  grep -q '^bench: FAILED: bench_broken$' "$tmp/log" || fail "bench_broken's failure not reported"
  f=$tmp/pub/results/bench_dummy.md
  [ -f "$f" ] || fail "bench_dummy.md not published"
  [ "$(sed -n 1p "$f")" = "## bench_dummy (GSP_BENCH_TEST_KNOB=7)" ] || fail "title: $(sed -n 1p "$f")"
  sed -n 3p "$f" | grep -Eq "$RUN_RE" || fail "Run line: $(sed -n 3p "$f")"
  sed -n 3p "$f" | grep -q '; commit: abc1234 with local changes$' || fail "commit: $(sed -n 3p "$f")"
  [ "$(sed -n 5p "$f")" = "### A dummy table" ] || fail "the program's heading is not one level down: $(sed -n 5p "$f")"
  [ "$(tail -n 1 "$f")" = "| 1 |" ] || fail "trailing lines kept"
  [ "$(cat "$tmp/pub/results/bench_broken.md")" = "$old" ] || fail "the failed program's old fragment was replaced"
  [ -f "$tmp/pub/results/bench_quiet.md" ] && fail "a program without a table was published"
  grep -q '^No table' "$tmp/build/bench/results/bench_quiet.md" || fail "bench_quiet's fragment does not say it has no table"
  grep -q '^| \[bench_dummy (GSP_BENCH_TEST_KNOB=7)\](#bench_dummy-gsp_bench_test_knob7) | ' "$tmp/pub/RESULTS.md" ||
    fail "RESULTS.md has no index row for bench_dummy"
  grep -q '^| the old table |$' "$tmp/pub/RESULTS.md" || fail "RESULTS.md lost the old fragment"
  cp "$tmp/pub/RESULTS.md" "$tmp/RESULTS.before"
  rm "$f"
  clean GSP_BENCH_PROGRAMS=bench_dummy sh "$root/scripts/bench.sh" "$tmp/build" Graph >"$tmp/log" 2>&1 || fail "a filtered run failed"
  grep -q 'nothing published' "$tmp/log" || fail "a filtered run does not say it published nothing"
  [ "$(sed -n 1p "$tmp/build/bench/results/bench_dummy.md")" = "## bench_dummy Graph" ] || fail "filtered title"
  clean GSP_BENCH_PROGRAMS=bench_dummy GSP_BENCH_PUBLISH=0 sh "$root/scripts/bench.sh" "$tmp/build" >"$tmp/log" 2>&1 || fail "a run with GSP_BENCH_PUBLISH=0 failed"
  [ -f "$f" ] && fail "published with a filter or GSP_BENCH_PUBLISH=0"
  cmp -s "$tmp/RESULTS.before" "$tmp/pub/RESULTS.md" || fail "RESULTS.md written without publishing"
  echo "bench.sh writes and publishes fragments"
  ;;
*)
  echo "usage: check_results.sh current|header|bench ROOT TMP" >&2
  exit 2
  ;;
esac
