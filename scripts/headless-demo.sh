#!/usr/bin/env bash
# Headless demo (./run.sh without a display): evaluates a task's kernel on the simulated NPU
# and, once the agent exists, runs it on the task. Prints where the results went.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bin
OUT=${SAGE_DEMO_DIR:-$PWD/build/demo}
mkdir -p "$OUT"
echo "sage: headless demo (no display found). Results go to $OUT"
"$BIN/sage" devices | tee "$OUT/devices.txt"
echo "Results written to $OUT"
