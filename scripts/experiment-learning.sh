#!/usr/bin/env bash
# The learning experiment: does the built-in agent, starting data-scarce, get better only through
# its memory? (docs/results-learning.md; the memory model in docs/memory.md.)
#
# The built-in policy knows its moves but not which pays off: without memory it tries them in a
# neutral order seeded per run. Every memory mode starts from an EMPTY memory (and, second, from
# the seed pack), learns on the train split (lessons go on trial, values are learned by the mode's
# credit rule), and is then measured on the test split with learning frozen. Runs are read at
# budget 12 and, from the same runs' trajectories, at budget 6 (`sage bench merge --budget 6`).
#
# Claims, stated before running (the report says for each whether it held, with the numbers):
#   C1  empty memory, budget 6: adoption needs fewer iterations to 95 % of the best known kernel than
#       off (two-way cluster bootstrap 95 % interval of off - adoption above 0);
#   C2  empty memory, budget 6: adoption's best kernel is closer to the best known than off's
#       (interval of off - adoption in log2(best / best known) above 0);
#   C3  adoption beats all_retrieved and similarity on at least one of C1's and C2's metrics (interval
#       excludes 0 in its favour) and is not worse on the other (interval not entirely against it);
#   C4  the learning curve rises: adoption after all train tasks beats adoption after none (= off) in
#       iterations at budget 6, and the point estimates do not get worse as tasks are added;
#   C5  negative control: learning on shuffled rewards does not beat off (interval of off - shuffled
#       does not lie above 0);
#   C6  replication: C1 holds again on fresh seeds.
#
# Intervals resample tasks and seeds as clusters (BenchStatistics::clusterBootstrap): each seed's
# runs share one learned memory, each task's runs share its difficulty.
#
# Variables (defaults in brackets): SEEDS [5] FIRST_SEED [1] REPLICATION_SEEDS [5] (seeds after the
# main ones; 0 = none) BUDGET [12] SHORT_BUDGET [6] CURVE ["5 11"] (learning-curve points besides 0
# and all) PACK_RUN [1] (also start from the seed pack) PACK_MODES [off,similarity,all_retrieved,adoption]
# (the modes of that run) TRAIN_TASKS / TEST_TASKS (comma-separated
# names; default the whole splits) TASKS_DIRS (extra --tasks folders) DEVICE [ascend910b1-sim]
# BUILD [build] OUT [$BUILD/experiment-learning] RESULTS [docs/results-learning.md] RESUME [0] (1: keep
# the per-seed reports an interrupted run already wrote)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SAGE=${SAGE:-$BUILD/bin/sage}
OUT=${OUT:-$BUILD/experiment-learning}
RESULTS=${RESULTS:-docs/results-learning.md}
SEEDS=${SEEDS:-5}
FIRST_SEED=${FIRST_SEED:-1}
REPLICATION_SEEDS=${REPLICATION_SEEDS:-5}
BUDGET=${BUDGET:-12}
SHORT_BUDGET=${SHORT_BUDGET:-6}
CURVE=${CURVE:-5 11}
PACK_RUN=${PACK_RUN:-1}
PACK_MODES=${PACK_MODES:-off,similarity,all_retrieved,adoption}
DEVICE=${DEVICE:-ascend910b1-sim}
TRAIN_TASKS=${TRAIN_TASKS:-}
TEST_TASKS=${TEST_TASKS:-}
TASKS_DIRS=${TASKS_DIRS:-}

[[ -x $SAGE ]] || { echo "experiment-learning: $SAGE is missing; build it: cmake --build $BUILD --target sage" >&2; exit 1; }
command -v python3 >/dev/null || { echo "experiment-learning: python3 is needed to write the report" >&2; exit 1; }
mkdir -p "$OUT"
common=(--split test --learn-on train --budget "$BUDGET" --epsilon 0 --device "$DEVICE" --repeat 1)
for d in $TASKS_DIRS; do common+=(--tasks "$d"); done
if [[ -n $TRAIN_TASKS || -n $TEST_TASKS ]]; then
  common+=(--only "${TRAIN_TASKS}${TRAIN_TASKS:+${TEST_TASKS:+,}}${TEST_TASKS}")
fi

started=$(date -u +%FT%TZ)
t0=$(date +%s)
# One `sage bench` per seed and arm; the JSON reports are kept in $OUT and merged at the end.
bench() {  # name seed args...
  local name=$1 seed=$2
  shift 2
  local file="$OUT/$name-seed$seed.json"
  # RESUME=1: a report kept from an earlier, interrupted run of the same command is not run again.
  if [[ ${RESUME:-0} == 1 && -s $file ]]; then echo "experiment-learning: $name, seed $seed: kept" >&2; return; fi
  echo "experiment-learning: $name, seed $seed" >&2
  "$SAGE" bench "${common[@]}" --seed "$seed" "$@" --out "$file" > /dev/null 2>> "$OUT/$name.log"
  [[ -s $file ]] || { echo "experiment-learning: $name seed $seed wrote no report (see $OUT/$name.log)" >&2; exit 1; }
}
last=$((FIRST_SEED + SEEDS - 1))
for seed in $(seq "$FIRST_SEED" "$last"); do
  bench empty "$seed" --seed-pack none --memory-mode off,similarity,all_retrieved,adoption
  bench shuffled "$seed" --seed-pack none --memory-mode adoption --shuffle-rewards --arm shuffled
  for n in $CURVE; do
    bench "curve$n" "$seed" --seed-pack none --memory-mode adoption --learn-limit "$n" --arm "adoption@$n"
  done
  if [[ $PACK_RUN == 1 ]]; then bench pack "$seed" --memory-mode "$PACK_MODES"; fi
done
if ((REPLICATION_SEEDS > 0)); then
  for seed in $(seq $((last + 1)) $((last + REPLICATION_SEEDS))); do
    bench replication "$seed" --seed-pack none --memory-mode off,adoption
  done
fi

merge() {  # name budget files...
  local name=$1 budget=$2
  shift 2
  "$SAGE" bench merge --budget "$budget" --json "$@" > "$OUT/$name-b$budget.json"
}
main=("$OUT"/empty-seed*.json "$OUT"/shuffled-seed*.json)
for n in $CURVE; do main+=("$OUT"/curve$n-seed*.json); done
for b in "$SHORT_BUDGET" "$BUDGET"; do
  merge main "$b" "${main[@]}"
  [[ $PACK_RUN == 1 ]] && merge pack "$b" "$OUT"/pack-seed*.json
  ((REPLICATION_SEEDS > 0)) && merge replication "$b" "$OUT"/replication-seed*.json
done
elapsed=$(( $(date +%s) - t0 ))

vars=()
for v in SEEDS FIRST_SEED REPLICATION_SEEDS BUDGET SHORT_BUDGET CURVE PACK_RUN PACK_MODES TRAIN_TASKS TEST_TASKS TASKS_DIRS DEVICE OUT RESULTS; do
  [[ -n ${!v:-} && -n ${!v+set} ]] && printenv "$v" >/dev/null && vars+=("$v=\"${!v}\"")
done
python3 scripts/learning-report.py --out "$OUT" --results "$RESULTS" --started "$started" --elapsed "$elapsed" \
  --short "$SHORT_BUDGET" --long "$BUDGET" --curve "$CURVE" --command "${vars[*]} scripts/experiment-learning.sh"
echo "experiment-learning: report in $RESULTS, per-run JSON in $OUT" >&2
