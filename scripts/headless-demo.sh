#!/usr/bin/env bash
# Headless demo (./run.sh without a display): the SAGE agent with the built-in policy and the
# adoption-aware memory tunes a task on the simulated NPU; the best kernel is evaluated again
# with its timeline exported. Says where every result went.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$PWD/build/bin
OUT=${SAGE_DEMO_DIR:-$PWD/build/demo}
TASK=${SAGE_DEMO_TASK:-add}
mkdir -p "$OUT"
export SAGE_BIN_DIR=$BIN
DB=$OUT/sage-demo.db
rm -f "$DB" "$DB-wal" "$DB-shm"

echo "== SAGE headless demo (no display found) =="
"$BIN/sage" devices
echo
echo "-- the agent on task '$TASK' (built-in policy, adoption-aware memory)"
"$BIN/sage" run --task "$TASK" --db "$DB" --budget 10 --json > "$OUT/run_summary.json" || true
RUN_ID=$(grep -o '"run_id": *[0-9]*' "$OUT/run_summary.json" | grep -o '[0-9]*$')
"$BIN/sage" replay "$RUN_ID" --db "$DB" --export-best "$OUT/best_kernel.cpp" | tee "$OUT/run.txt"
"$BIN/sage" replay "$RUN_ID" --db "$DB" --json > "$OUT/run.json"
echo
echo "-- the best kernel, evaluated again"
"$BIN/sage" eval --task "$TASK" --kernel "$OUT/best_kernel.cpp" --trace "$OUT/best_trace.json" \
  --csv "$OUT/best_op_summary.csv" | tee "$OUT/best_eval.txt"
"$BIN/sage" memory --db "$DB" stats > "$OUT/memory_stats.txt" || true
echo
echo "Results written to $OUT:"
echo "  run.txt, run.json      the agent's iterations (sage replay $RUN_ID --db $DB)"
echo "  best_kernel.cpp        the fastest correct kernel it found"
echo "  best_eval.txt          its evaluation; best_trace.json its timeline (open in https://ui.perfetto.dev)"
echo "  best_op_summary.csv    msprof-style op summary"
echo "  memory_stats.txt       what the memory learned (sage memory --db $DB list)"
echo "  sage-demo.db           the runs and the memory (the workbench can open it: Settings > database)"
