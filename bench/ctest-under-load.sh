#!/usr/bin/env bash
# Issue 15: "ctest -j2 passes 20 times in a row while another CPU-heavy process runs".
# Runs the whole suite of an already built tree RUNS times with `ctest -j2` while HOGS busy-loop
# processes (default 1: "another CPU-heavy process", at normal priority) run next to it, and prints one line per run and a
# summary. Stops at the first failing run (the claim is "in a row") and keeps its log.
#
# Usage: bench/ctest-under-load.sh [RUNS] [BUILD_DIR] [HOGS] [-- CTEST_ARGS...]   (defaults: 20, ./build, 1)
#   CTEST_ARGS go to every ctest call, e.g. `-- -R 'test_(agent|eval)'` for a subset (a quick check of the
#   script itself; the claim is about the whole suite).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
positional=()
while (($#)) && [[ $1 != -- ]]; do positional+=("$1"); shift; done
(($#)) && shift  # the --
ctest_args=("$@")
runs=${positional[0]:-20}
build=${positional[1]:-$here/build}
nhogs=${positional[2]:-1}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "ctest-under-load: RUNS must be a whole number >= 1, not '$runs'" >&2; exit 2; }
[[ $nhogs =~ ^[0-9]+$ ]] || { echo "ctest-under-load: HOGS must be a whole number, not '$nhogs'" >&2; exit 2; }
[[ -f $build/CTestTestfile.cmake ]] || { echo "ctest-under-load: $build is not a built tree; run cmake --build first" >&2; exit 2; }
logs=$(mktemp -d /tmp/sage-ctest-load-XXXXXX)
hogs=()
cleanup() { ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null; true; }
trap cleanup EXIT
for ((c = 0; c < nhogs; ++c)); do
  (while :; do :; done) &
  hogs+=($!)
done
echo "ctest-under-load: $runs runs of ctest -j2 ${ctest_args[*]} in $build, $nhogs busy-loop hog(s) running; logs in $logs"
passed=0
for ((r = 1; r <= runs; ++r)); do
  t0=$(date +%s)
  if ctest --test-dir "$build" -j2 "${ctest_args[@]}" >"$logs/run$r.log" 2>&1; then
    if grep -q "No tests were found" "$logs/run$r.log"; then
      echo "run $r: no test matched '${ctest_args[*]}'" >&2
      exit 2
    fi
    passed=$((passed + 1))
    echo "run $r: passed, $(grep -oE '[0-9]+% tests passed.*out of [0-9]+' "$logs/run$r.log" | head -1 || true) ($(($(date +%s) - t0)) s, load $(cut -d' ' -f1 /proc/loadavg))"
  else
    echo "run $r: FAILED ($(($(date +%s) - t0)) s); failing tests:"
    grep -E "\*\*\*Failed|Failed  |Timeout|\*\*\*Exception" "$logs/run$r.log" || tail -20 "$logs/run$r.log"
    break
  fi
done
echo "passed $passed of $runs runs in a row"
[[ $passed -eq $runs ]]
