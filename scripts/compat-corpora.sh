#!/bin/sh
# Runs `sage compat` over checkouts of public AscendC corpora (kept outside the project, never
# committed) and prints one markdown table per corpus for docs/compatibility.md ("Corpora").
# Usage: scripts/compat-corpora.sh [--sage BIN] [--out DIR] [--reuse] [--whole-programs] NAME=PATH[@COMMIT] ...
#   NAME    the corpus as the table names it (e.g. hicann/ops-math)
#   PATH    its checkout (a git work tree, or an extracted archive)
#   COMMIT  the commit measured; read from PATH with git when omitted
#   --out   where each corpus' full `sage compat --json` report is kept (default /tmp/sage-compat)
#   --reuse print the tables from reports already in --out instead of scanning again
#   --whole-programs  compile `.asc` programs as a whole, host main included (sage compat --whole-programs)
# A scan compiles every kernel file (minutes per hundred files on a 2-core machine; compiles that
# succeeded are cached by content).
set -u
sage=build/bin/sage
out=/tmp/sage-compat
reuse=0
whole=""
while [ $# -gt 0 ]; do
    case "$1" in
    --sage) sage=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --whole-programs) whole=--whole-programs; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "compat-corpora.sh: name at least one corpus as NAME=PATH[@COMMIT] (see --help)" >&2
    exit 2
fi
mkdir -p "$out" || exit 1
for spec in "$@"; do
    name=${spec%%=*}
    rest=${spec#*=}
    path=${rest%@*}
    commit=""
    [ "$path" != "$rest" ] && commit=${rest##*@}
    if [ "$name" = "$spec" ] || [ ! -d "$path" ]; then
        echo "compat-corpora.sh: '$spec' is not NAME=PATH[@COMMIT] with PATH a directory" >&2
        exit 2
    fi
    [ -z "$commit" ] && commit=$(git -C "$path" rev-parse HEAD 2>/dev/null || echo "unknown")
    report="$out/$(printf '%s' "$name" | tr '/ ' '__').json"
    if [ "$reuse" = 0 ] || [ ! -s "$report" ]; then
        "$sage" compat "$path" --json --top 10 $whole > "$report" || { echo "compat-corpora.sh: sage compat failed on $path" >&2; exit 1; }
    fi
    NAME="$name" COMMIT="$commit" python3 - "$report" <<'PY'
import collections, json, os, sys
r = json.load(open(sys.argv[1]))
t = r["totals"]
files = t["files"]
pct = lambda n: f"{100.0 * n / files:.1f} %" if files else "n/a"
programs = [f for f in r["files"] if f.get("kind") == "program"]
print(f"### {os.environ['NAME']} (commit `{os.environ['COMMIT']}`)\n")
print("| kernel files | of them programs (`.asc`, kernel + launch) | host launchers (not counted) | parsed | compiled |")
print("|---|---|---|---|---|")
print(f"| {files} | {len(programs)} ({sum(f['compiled'] for f in programs)} compile) | {t.get('host_files', 0)} "
      f"| {t['parsed']} ({pct(t['parsed'])}) | **{t['compiled']} ({pct(t['compiled'])})** |\n")
first = collections.Counter()
for f in r["files"]:
    if not f["compiled"] and f["first_error"]:
        msg = f["first_error"].split(": ", 1)[-1]
        first[msg[:90]] += 1
print("Top blockers — missing identifiers (files): " +
      (", ".join(f"`{m['identifier']}` {m['files']}" for m in r["top_missing"][:8]) or "none") + "\n")
print("First errors of files that fail (files):\n")
for msg, n in first.most_common(6):
    print(f"- {msg.replace('|', '/')}: {n}")
print()
PY
done
