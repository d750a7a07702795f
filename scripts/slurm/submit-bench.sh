#!/bin/sh
# Submits a sharded `sage bench` to Slurm (docs/scale-out.md):
#
#   scripts/slurm/submit-bench.sh --shards N --out DIR [--db URL] [--sage PATH] -- SAGE BENCH OPTIONS
#
#   1. bench-learn.sbatch   (only with --db and --learn-on) learns once into the shared memory URL
#   2. bench-shard.sbatch   an array of N tasks, after 1: shard i/N measures on that memory, frozen
#   3. bench-merge.sbatch   after every shard: DIR/merged.json and the report in DIR/merge.out
#
# Prints the three job ids (also in DIR/jobs); `bench-status.sh DIR` says how they ended. The
# memory URL carries no password (~/.pgpass or PGPASSWORD on the nodes) and should name a schema of
# its own per experiment, e.g.
# postgresql://db.example/sage?options=-csearch_path%3Dexp42. Options are passed on word by word:
# no spaces inside one option.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shards=""; out=""; db=""; sage=${SAGE:-sage}
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --sage) sage=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "submit-bench: unknown option $1 (options of sage bench go after --)" >&2; exit 2 ;;
    esac
done
[ -n "$shards" ] && [ "$shards" -ge 1 ] 2>/dev/null || { echo "submit-bench: give --shards N (N >= 1)" >&2; exit 2; }
[ -n "$out" ] || { echo "submit-bench: give --out DIR for the shard reports" >&2; exit 2; }
# The jobs get the binary as an absolute path (a node's PATH is not the submitter's).
case "$sage" in
*/*) ;;
*) sage=$(command -v "$sage" || true) ;;
esac
[ -n "$sage" ] && [ -x "$sage" ] || { echo "submit-bench: sage not found: give --sage PATH (or set SAGE)" >&2; exit 2; }
sage=$(cd "$(dirname "$sage")" && pwd)/$(basename "$sage")
mkdir -p "$out" || { echo "submit-bench: cannot create the report folder $out" >&2; exit 2; }
out=$(cd "$out" && pwd)
learn_on=no
for arg in "$@"; do [ "$arg" = --learn-on ] && learn_on=yes; done

# Everything the jobs need travels in their environment, exported explicitly (a site may default
# sbatch to --export=NONE). A dependency that can never be satisfied (its job failed) cancels the
# dependent job (--kill-on-invalid-dep=yes) instead of leaving it pending forever.
export SAGE="$sage" SAGE_BENCH_DB="$db" SAGE_BENCH_OUT="$out" SAGE_BENCH_SHARDS="$shards" SAGE_BENCH_ARGS="$*"
dependency=""
learn=""
if [ -n "$db" ] && [ "$learn_on" = yes ]; then
    learn=$(sbatch --parsable --export=ALL --output="$out/learn.out" "$here/bench-learn.sbatch")
    dependency="--dependency=afterok:$learn --kill-on-invalid-dep=yes"
elif [ -n "$db" ]; then
    echo "submit-bench: --db shares what a learning phase learned: give --learn-on too (or drop --db: each" >&2
    echo "  shard then works in fresh temporary databases)" >&2
    exit 2
fi
# shellcheck disable=SC2086  # $dependency is one option or nothing
array=$(sbatch --parsable --export=ALL $dependency --array="0-$((shards - 1))" --output="$out/shard-%a.out" \
    "$here/bench-shard.sbatch")
export SAGE_BENCH_ARRAY_JOB="$array"
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out/merge.out" "$here/bench-merge.sbatch")
echo "learn=${learn:-none} array=$array merge=$merge" | tee "$out/jobs"
