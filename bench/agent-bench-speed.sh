#!/usr/bin/env bash
# Side-by-side speed of one `sage bench` mode on an older commit and on this checkout (issue 15:
# "one memory mode at least 3x faster than on the commit before this work", as a ratio measured
# in one run, so that machine load affects both sides alike).
#
# Usage: bench/agent-bench-speed.sh OLD_COMMIT [ROUNDS] [-- sage bench arguments...]
#   OLD_COMMIT  the commit to compare with (built in a git worktree under /tmp with its own build dir)
#   ROUNDS      old/new runs, alternated (default 1); the medians are compared
#   arguments   default: --split test --policy builtin --memory-mode adoption --budget 12 --repeats 1
# Both sides run the same arguments, the same task list and budget, each with a fresh, empty
# SAGE_CACHE_DIR and a fresh memory database, so neither reuses the other's compile/run caches.
# Use only flags that both commits understand. This checkout is built by `cmake --preset default`
# into ./build first (only the sage and sage-runner targets).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: agent-bench-speed.sh OLD_COMMIT [ROUNDS] [-- sage bench arguments...]}
shift
rounds=1
if [[ $# -gt 0 && $1 != -- ]]; then rounds=$1; shift; fi
[[ $# -gt 0 && $1 == -- ]] && shift
args=("$@")
((${#args[@]})) || args=(--split test --policy builtin --memory-mode adoption --budget 12 --repeats 1)

sha=$(git -C "$here" rev-parse --verify "$old^{commit}")
oldTree=/tmp/sage-bench-old-${sha:0:12}
[[ -f /root/.ccache-env ]] && . /root/.ccache-env
if [[ ! -d $oldTree ]]; then
  git -C "$here" worktree add --detach "$oldTree" "$sha" >/dev/null
fi
echo "agent-bench-speed: building $sha in $oldTree/build and this checkout in $here/build" >&2
# ccache rewrites paths under CCACHE_BASEDIR to relative ones: with the old tree's parent as base,
# objects other checkouts already compiled are reused.
(cd "$oldTree" && export CCACHE_BASEDIR=$(dirname "$oldTree") && cmake --preset default >/dev/null &&
  cmake --build build --target sage sage-runner >/dev/null)
(cd "$here" && cmake --preset default >/dev/null && cmake --build build --target sage sage-runner >/dev/null)

work=$(mktemp -d /tmp/sage-bench-speed-XXXXXX)
trap 'rm -rf "$work"' EXIT
runOne() {  # side root round -> seconds
  local side=$1 root=$2 round=$3 t0 t1
  mkdir -p "$work/$side$round/cache"
  t0=$(date +%s.%N)
  SAGE_CACHE_DIR="$work/$side$round/cache" "$root/build/bin/sage" bench "${args[@]}" \
    --out "$work/$side$round/report.json" >"$work/$side$round/log" 2>&1 ||
    { echo "agent-bench-speed: sage bench failed on the $side side; see below" >&2; tail -20 "$work/$side$round/log" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
oldTimes=() newTimes=()
# Alternate which side runs first: the page cache favours whichever runs second (docs/performance.md).
for ((r = 0; r < rounds; ++r)); do
  if ((r % 2 == 0)); then
    oldTimes+=("$(runOne old "$oldTree" $r)")
    newTimes+=("$(runOne new "$here" $r)")
  else
    newTimes+=("$(runOne new "$here" $r)")
    oldTimes+=("$(runOne old "$oldTree" $r)")
  fi
  echo "round $((r + 1)): old ${oldTimes[-1]} s, new ${newTimes[-1]} s" >&2
done
# The true median: the middle value, or the mean of the two middle values for an even count.
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2] + a[NR/2+1]) / 2}'; }
mo=$(median "${oldTimes[@]}") mn=$(median "${newTimes[@]}")
echo "sage bench ${args[*]}"
echo "  old ($sha): $mo s (median of $rounds)"
echo "  new ($(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet || echo '+changes')): $mn s"
echo "  speed-up: $(echo "scale=2; $mo / $mn" | bc)x"
