#!/bin/sh
# Runs EvoKernel's 910B op projects that solve a KernelBench level-1 task through `sage op` against
# our task's cases (resources/kernelbench/level1, mapping in resources/kernelbench/peer-map.json)
# and prints the peer table of docs/kernelbench.md. Nothing of EVOKERNEL_DIR enters the project.
# Usage: scripts/kernelbench-peer.sh EVOKERNEL_DIR [OUT.jsonl] [SAGE] [--only P1,P2]
#   EVOKERNEL_DIR  the EvoKernel folder (holds ops-kernelbench-910b/) or that folder itself
#   OUT.jsonl      one JSON line per project (default /tmp/kernelbench-peer.jsonl)
#   SAGE           the sage binary (default build/bin/sage)
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 EVOKERNEL_DIR [OUT.jsonl] [SAGE] [--only P1,P2]" >&2
    exit 2
fi
dir=$1
out=${2:-/tmp/kernelbench-peer.jsonl}
here=$(dirname "$0")
sage=${3:-$here/../build/bin/sage}
shift $(( $# < 3 ? $# : 3 ))
[ -d "$dir/ops-kernelbench-910b" ] && dir=$dir/ops-kernelbench-910b
if [ ! -d "$dir" ]; then
    echo "$0: '$dir' is not a directory: pass the EvoKernel folder (with ops-kernelbench-910b/)" >&2
    exit 2
fi
python3 "$here/kernelbench/peer.py" "$dir" --sage "$sage" --out "$out" "$@" >&2
python3 "$here/kernelbench/peer_table.py" "$out"
