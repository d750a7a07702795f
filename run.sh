#!/usr/bin/env bash
# Installs missing packages, builds, and opens the workbench.
# Without a display it runs a headless demo of the agent on a task and says where the results went.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
BIN=build/bin
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec "$BIN/sage-workbench" "$@"
fi
exec ./scripts/headless-demo.sh
