#!/usr/bin/env bash
# How many KernelBench level-1 tasks the built-in policy drafts a verified kernel for, per device:
# each task is run with budget 1 (the draft only) into a scratch database; a task counts when its
# draft verifies on every case. The others are listed with the reason (the compute gap, the
# composer's refusal or what the evaluation found).
#
# Usage: scripts/kernelbench/draft-coverage.sh [--devices "ascend910b1-sim ascend310p3-sim"]
#                                               [--filter REGEX] [--sage build/bin/sage] [--out DIR]
# Prints one line per task that fails and a summary line per device; DIR keeps each run's output.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SAGE="$ROOT/build/bin/sage"
DEVICES="ascend910b1-sim ascend310p3-sim"
FILTER="."
OUT=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --devices) DEVICES="$2"; shift 2 ;;
        --filter) FILTER="$2"; shift 2 ;;
        --sage) SAGE="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        -h|--help) sed -n 2,10p "$0"; exit 0 ;;
        *) echo "draft-coverage.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ -x "$SAGE" ]] || { echo "draft-coverage.sh: no sage binary at $SAGE (build the 'sage' target or pass --sage)" >&2; exit 2; }
TASKS="$ROOT/resources/kernelbench/level1"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
OUT="${OUT:-$SCRATCH/logs}"
mkdir -p "$OUT"

# name<TAB>compute gap (empty when the task has a compute spec), sorted, filtered
mapfile -t rows < <(python3 - "$TASKS" "$FILTER" <<'PY'
import json, os, re, sys
root, pattern = sys.argv[1], re.compile(sys.argv[2])
tasks = [json.load(open(os.path.join(root, d, "task.json"))) for d in os.listdir(root)
         if os.path.isfile(os.path.join(root, d, "task.json"))]
for t in sorted(tasks, key=lambda t: t["name"]):
    if pattern.search(t["name"]):
        print("%s\t%s" % (t["name"], t.get("compute_gap", "")))
PY
)

# The reason a draft did not verify, from the run's progress lines.
reason() {
    local log="$1" line
    line="$(grep -m1 '^\[0\] draft' "$log" | sed 's/^\[0\] draft \.\.\. //' || true)"
    if grep -q 'policy has no further move' "$log"; then
        grep -m1 'run finished' "$log" | sed "s|^run finished: policy has no further move: ||; s|$TASKS/||"
    elif [[ -n "$line" ]]; then
        echo "$line"
    else
        tail -n 1 "$log"
    fi
}

for device in $DEVICES; do
    ok=0
    total=0
    for row in "${rows[@]}"; do
        name="${row%%$'\t'*}"
        gap="${row#*$'\t'}"
        total=$((total + 1))
        if [[ -n "$gap" ]]; then
            echo "$device  $name: no compute spec: $gap"
            continue
        fi
        log="$OUT/$device-$name.log"
        "$SAGE" run --task "$name" --tasks "$TASKS" --tasks-only --budget 1 --device "$device" \
            --db "$SCRATCH/$device.sqlite" --no-speculate >"$log" 2>&1 || true
        if grep -q 'first correct at iteration 0' "$log"; then
            ok=$((ok + 1))
        else
            echo "$device  $name: $(reason "$log")"
        fi
    done
    echo "== $device: $ok of $total tasks draft a verified kernel"
done
