#!/usr/bin/env bash
# Runs the red-team suite (tests/security) under AddressSanitizer + UBSan (preset "asan", build
# dir build-asan/). The sandbox is the same; in sanitized builds the runner gets a /proc of its
# own pid namespace (the ASan runtime reads /proc/self/maps) and no address-space limit (ASan
# reserves terabytes of shadow), so huge allocations end as "oom" through allocator_may_return_null.
# Usage: scripts/redteam-asan.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan
cmake --build --preset asan -j "$(nproc)" --target sage-runner test_redteam_kernels test_hostile_inputs
ctest --preset asan -R 'test_redteam_kernels|test_hostile_inputs' "$@"
