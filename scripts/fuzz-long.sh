#!/bin/sh
# Long coverage-guided fuzzing of the parsers of outside input (docs/security.md, "Fuzzing").
# Builds the harnesses of tests/fuzz/ with clang's libFuzzer and AddressSanitizer in build-fuzz/
# (the project's libraries instrumented too), then runs each one.
#
#   scripts/fuzz-long.sh [SECONDS_PER_HARNESS] [HARNESS...]     (default 3600 s, every harness)
#
# Each harness starts from tests/fuzz/corpus/<name>/ and keeps what it finds in
# build-fuzz/corpus/<name>/; a crash lands in build-fuzz/crashes/<name>/ (add it to the seed
# corpus with its fix). The last line printed per harness holds its executions and time.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-3600}
[ $# -gt 0 ] && shift
harnesses=${*:-"shape_expression compute_spec task_json device_profile memory_jsonl llm_reply search_replace sse_stream op_spec op_host"}
command -v clang++ >/dev/null || { echo "fuzz-long: needs clang (Debian package clang) with libFuzzer (libclang-rt-14-dev)" >&2; exit 2; }

flags="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer -g"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" -DSAGE_LIBFUZZER=ON >/dev/null
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build build-fuzz --target $targets -j"$(nproc)"

for h in $harnesses; do
  mkdir -p "build-fuzz/corpus/$h" "build-fuzz/crashes/$h"
  echo "== fuzz_$h for $seconds s"
  ASAN_OPTIONS=detect_leaks=0 "build-fuzz/bin/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$h/" \
    "build-fuzz/corpus/$h" "tests/fuzz/corpus/$h" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|Done)" || true
done
