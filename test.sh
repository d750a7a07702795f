#!/usr/bin/env bash
# Installs missing packages, builds (preset "default" unless SAGE_PRESET is set) and runs every test with ctest.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh
PRESET=${SAGE_PRESET:-default}
cmake --preset "$PRESET"
cmake --build --preset "$PRESET" -j "$(nproc)"
ctest --preset "$PRESET" "$@"
