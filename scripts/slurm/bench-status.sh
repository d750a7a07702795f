#!/bin/sh
# How the jobs of a sharded `sage bench` ended (docs/scale-out.md):
#
#   scripts/slurm/bench-status.sh DIR     (DIR: the --out folder of submit-bench.sh; reads DIR/jobs)
#
# One line per job (per array task) with its state; for a job that failed, the last lines of its
# output file; for a job cancelled because a job it depends on failed, which one. Exit 0 when the
# merge completed, 1 when a job failed or was cancelled, 3 while jobs are still pending or running.
# Slurm forgets finished jobs after MinJobAge (default 300 s); then the .out files in DIR tell.
set -eu
dir=${1:?usage: bench-status.sh DIR}
[ -f "$dir/jobs" ] || { echo "bench-status: $dir/jobs not found: give the --out folder of submit-bench.sh" >&2; exit 2; }
jobs=$(cat "$dir/jobs")
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
failed=0
running=0
merged=no
for role in learn array merge; do
    id=$(printf '%s\n' "$jobs" | tr ' ' '\n' | sed -n "s/^$role=//p")
    [ -n "$id" ] && [ "$id" != none ] || continue
    records=$(scontrol -o show job "$id" 2>/dev/null || true)
    if [ -z "$records" ]; then
        echo "$role job $id: no longer known to Slurm; see the .out files in $dir"
        continue
    fi
    printf '%s\n' "$records" | while IFS= read -r record; do
        task=$(field "$record" ArrayTaskId)
        state=$(field "$record" JobState)
        reason=$(field "$record" Reason)
        code=$(field "$record" ExitCode)
        log=$(field "$record" StdOut)
        name="$role job $id${task:+_$task}"
        case "$state" in
        COMPLETED) echo "$name: completed" ;;
        PENDING | RUNNING | CONFIGURING | COMPLETING) echo "$name: $state${reason:+ ($reason)}" ;;
        CANCELLED)
            dependency=$(field "$record" Dependency)
            if [ "$reason" = DependencyNeverSatisfied ] || [ "${dependency#*failed}" != "$dependency" ]; then
                echo "$name: cancelled: a job it depends on failed (see above)"
            else
                echo "$name: cancelled${reason:+ ($reason)}"
            fi ;;
        *)
            echo "$name: $state (exit ${code:-?}), see $log:"
            [ -f "$log" ] && tail -n 5 "$log" | sed 's/^/    /' ;;
        esac
    done
    states=$(printf '%s\n' "$records" | tr ' ' '\n' | sed -n 's/^JobState=//p')
    for state in $states; do
        case "$state" in
        COMPLETED) [ "$role" = merge ] && merged=yes ;;
        PENDING | RUNNING | CONFIGURING | COMPLETING) running=1 ;;
        *) failed=1 ;;
        esac
    done
done
[ "$failed" -eq 0 ] || { echo "bench-status: the bench did not complete: see the failed job above"; exit 1; }
[ "$running" -eq 0 ] || exit 3
[ "$merged" = yes ] && echo "bench-status: merged report in $dir/merged.json ($dir/merge.out)"
exit 0
