#!/bin/sh
# Runs every op spec under resources/op-specs through `sage op` against a checkout of the public
# cann-ops tree and prints the markdown table of docs/compatibility.md ("Op projects run through
# `sage op`"). Usage: scripts/op-specs-table.sh [CORPUS_SRC] [SAGE]
#   CORPUS_SRC  the tree's src/ folder (default /tmp/cann-ops/src), never committed; an op is looked
#               for under CORPUS_SRC/<spec category>, then anywhere under CORPUS_SRC
#   SAGE        the sage binary (default build/bin/sage)
set -u
corpus=${1:-/tmp/cann-ops/src}
sage=${2:-build/bin/sage}
specs=$(dirname "$0")/../resources/op-specs
pass=0
total=0
echo "| category | op | configurations | cases | host tiling | verified |"
echo "|---|---|---|---|---|---|"
for spec in "$specs"/*/*/; do
    spec=${spec%/}
    op=$(basename "$spec")
    cat=$(basename "$(dirname "$spec")")
    project=$(find "$corpus/$cat" -type d -name "$op" -exec test -d {}/op_host \; -print 2>/dev/null | head -n 1)
    # Trees that file the op under another category (hicann/ops-math has exp under math/).
    [ -z "$project" ] && project=$(find "$corpus" -type d -name "$op" -exec test -d {}/op_host \; -print 2>/dev/null | head -n 1)
    total=$((total + 1))
    if [ -z "$project" ]; then
        echo "| $cat | $op | | | project not found under $corpus/$cat | no |"
        continue
    fi
    json=$("$sage" op "$project" --spec "$spec" --json 2>/dev/null)
    row=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    r = json.load(sys.stdin)
except Exception:
    print("| | | error | no |"); sys.exit()
cfgs = ", ".join(c["name"] for c in r["configs"]) or "-"
cases = sorted({t["case"] for c in r["configs"] for t in c["host_tiling"]})
host = "ran" if r["host_tiling_ran"] else "failed"
err = r["error"].replace("|", "/")[:120]
print("| %s | %s | %s | %s |" % (cfgs, ", ".join(cases), host, "yes" if r["pass"] else "no: " + err))
')
    case $row in *"| yes |") pass=$((pass + 1)) ;; esac
    echo "| $cat | $op $row"
done
echo
echo "$pass of $total op specs verify."
