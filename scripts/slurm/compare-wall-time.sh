#!/bin/sh
# Wall time of one `sage bench` process against the same bench as a 2-shard Slurm job array on a
# shared PostgreSQL memory, on this machine (docs/scale-out.md §4). Starts a throw-away PostgreSQL
# and a one-node Slurm in /tmp, cold caches for both (a fresh SAGE_CACHE_DIR each), stops them after.
#   scripts/slurm/compare-wall-time.sh BUILD_DIR [ROUNDS]
# Run as root (the local Slurm runs its daemons as root). Prints one line per round.
set -eu
build=$(cd "${1:?usage: compare-wall-time.sh BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/sage-walltime.XXXXXX)
chmod 755 "$work"
cleanup() {
    sh "$here/local-cluster.sh" stop "$work/slurm" || true
    sh "$here/../../tests/memory/pg_test_server.sh" stop "$work/pg" || true
    rm -rf "$work"
}
trap cleanup EXIT
sh "$here/../../tests/memory/pg_test_server.sh" start "$work/pg" >/dev/null
sh "$here/local-cluster.sh" start "$work/slurm" >/dev/null
. "$work/slurm/env"
server=$(cat "$work/pg/url")
args="--split test --learn-on train --only add,relu,axpy,mul,elu,tanh --budget 6"
echo "sage bench $args"
r=1
while [ "$r" -le "$rounds" ]; do
    t0=$(date +%s.%N)
    SAGE_CACHE_DIR="$work/cache-single-$r" "$build/bin/sage" bench $args \
        --db "$server&options=-csearch_path%3Dsingle$r" --json >"$work/single-$r.json" 2>/dev/null
    t1=$(date +%s.%N)
    SAGE_CACHE_DIR="$work/cache-shards-$r" sh "$here/submit-bench.sh" --shards 2 --out "$work/shards-$r" \
        --db "$server&options=-csearch_path%3Dshards$r" --sage "$build/bin/sage" -- $args >/dev/null
    while [ ! -f "$work/shards-$r/merged.json" ]; do
        if squeue -h -o %r | grep -q DependencyNeverSatisfied; then
            echo "a job failed:" >&2
            cat "$work/shards-$r"/*.out >&2
            exit 1
        fi
        sleep 0.2
    done
    t2=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v r="$r" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "round %d: single process %.1f s, 2-shard Slurm array (learn job + 2 shards + merge) %.1f s, load %s\n", r, b - a, c - b, load }'
    r=$((r + 1))
done
