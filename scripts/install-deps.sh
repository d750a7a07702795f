#!/usr/bin/env bash
# Installs the Debian 12 packages SAGE needs, only when some are missing.
# Every dependency comes from Debian; see docs/user-guide.md for why each is used.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev libqscintilla2-qt6-dev libqcustomplot-dev libqcustomplot2.1-qt6 libgl-dev libxkbcommon-dev
  qtkeychain-qt6-dev  # the workbench keeps the LLM API key in the desktop keychain, never in its settings
  nlohmann-json3-dev libsqlite3-dev libcurl4-openssl-dev libcli11-dev libdtl-dev libcpp-httplib-dev
  libre2-dev  # memory evidence patterns: RE2 matches in linear time (docs/memory.md)
  libseccomp-dev xvfb xauth imagemagick x11-apps
  # bubblewrap: the namespaces (user, pid, mount, net, IPC) the compiler and runner run in (docs/security.md)
  bubblewrap
  # CANN Bench (docs/cann-bench.md): its proto.yaml/cases.yaml read by yaml-cpp, its golden.py run by
  # Debian's PyTorch (with PyYAML) in a confined child process
  libyaml-cpp-dev python3-torch python3-yaml
  libxxhash-dev  # XXH3-128 content hashes for the compile, input, reference and run caches
  # a shared memory for a team or a cluster (docs/scale-out.md): libpq to build against, and the
  # server that the memory tests start as a throw-away cluster
  libpq-dev postgresql
  # `sage bench` as a Slurm job array (scripts/slurm/): the test brings up a one-node Slurm
  slurm-wlm munge
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: not root and no sudo; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
else SUDO=""; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
