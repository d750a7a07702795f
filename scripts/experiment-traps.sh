#!/usr/bin/env bash
# The memory experiment of issue 12: does adoption-aware credit learn to avoid harmful advice?
#
# For each arm (built-in policy, scripted LLM through `--policy llm` against bench/llmsim) and each
# pack (traps: seed pack + harmful twins + decoys; control: seed pack + decoys, no traps; plain:
# the seed pack alone, derived from control.jsonl by dropping the decoys), every
# memory mode starts from a fresh database with the pack, learns on the train tasks, and is then
# measured on the test tasks with learning frozen, for SEEDS seeds. `sage bench` pairs the runs by
# task x seed and prints bootstrap 95 % intervals of the differences against `adoption`; this
# script collects the reports and rewrites the section between the EXPERIMENT markers of
# docs/results.md, stating for each claim of the issue whether it holds.
#
# It is slow (the full version runs 2 arms x 3 packs x 4 modes x SEEDS x (train + test) agent
# runs). Every size is an environment variable, so a small version runs in minutes:
#   TRAIN_TASKS=add,relu TEST_TASKS=mul,tanh SEEDS=2 BUDGET=4 scripts/experiment-traps.sh
# Variables (defaults in brackets):
#   TRAIN_TASKS / TEST_TASKS  comma-separated task names [all of the train / test split]
#   SEEDS [5]  FIRST_SEED [1]  BUDGET [12]  EPSILON [0.1]  DEVICE [ascend910b1-sim]
#   SEEDS_BUILTIN, SEEDS_LLM [SEEDS]  seeds of one arm (the built-in arm is several times cheaper)
#   ARMS ["builtin llm"]  PACKS ["traps control plain"]  MODES [off,similarity,all_retrieved,adoption]
#   BUILD [build]  OUT [$BUILD/experiment-traps]  RESULTS [docs/results.md]  LLM_PORT [8099]
#   REUSE_ARMS  arms whose merged reports already in $OUT are reported without running them again
#   PACK_DIR [resources/memory/experiments]  where traps.jsonl and control.jsonl are read from
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SAGE=${SAGE:-$BUILD/bin/sage}
LLMSIM=${LLMSIM:-$BUILD/bin/sage-llmsim}
OUT=${OUT:-$BUILD/experiment-traps}
RESULTS=${RESULTS:-docs/results.md}
SEEDS=${SEEDS:-5}
FIRST_SEED=${FIRST_SEED:-1}
BUDGET=${BUDGET:-12}
EPSILON=${EPSILON:-0.1}
DEVICE=${DEVICE:-ascend910b1-sim}
ARMS=${ARMS:-builtin llm}
PACKS=${PACKS:-traps control plain}
MODES=${MODES:-off,similarity,all_retrieved,adoption}
LLM_PORT=${LLM_PORT:-8099}
TRAIN_TASKS=${TRAIN_TASKS:-}
TEST_TASKS=${TEST_TASKS:-}
PACK_DIR=${PACK_DIR:-resources/memory/experiments}

for tool in "$SAGE" "$LLMSIM"; do
  [[ -x $tool ]] || { echo "experiment-traps: $tool is missing; build it: cmake --build $BUILD --target sage sage-llmsim" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "experiment-traps: python3 is needed to write the report" >&2; exit 1; }
mkdir -p "$OUT"

only=()
if [[ -n $TRAIN_TASKS || -n $TEST_TASKS ]]; then
  only=(--only "${TRAIN_TASKS}${TRAIN_TASKS:+${TEST_TASKS:+,}}${TEST_TASKS}")
fi

server_pid=""
stop_server() { if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; fi; }
trap stop_server EXIT

started=$(date -u +%FT%TZ)
t0=$(date +%s)
# One `sage bench` per seed, so that the scripted LLM server can be started with that seed too
# (its choices then vary with the seed as a model's sampling would); `sage bench merge` joins the
# seeds and pairs the runs by task x seed.
for arm in $ARMS; do
  # REUSE_ARMS="builtin": that arm's merged reports in $OUT are reported again, not rerun.
  [[ " ${REUSE_ARMS:-} " == *" $arm "* ]] && continue
  for pack in $PACKS; do
    packfile=$PACK_DIR/$pack.jsonl
    if [[ $pack == plain ]]; then
      # The second negative control: no traps and no decoys (a decoy is an entry whose provenance
      # note starts with "experiment decoy", the marker `sage bench` counts decoys by), so that a difference between the modes in `control`
      # can be told apart from one that the decoys alone cause.
      packfile=$OUT/plain.jsonl
      python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if not any(p.get("note", "").startswith("experiment decoy") for p in e.get("provenance") or []):
        sys.stdout.write(line)' "$PACK_DIR/control.jsonl" > "$packfile"
    fi
    [[ -f $packfile ]] || { echo "experiment-traps: no pack $packfile" >&2; exit 1; }
    parts=()
    armSeedsVar=SEEDS_${arm^^}
    armSeeds=${!armSeedsVar:-$SEEDS}
    for ((k = 0; k < armSeeds; k++)); do
      seed=$((FIRST_SEED + k))
      if [[ $arm == llm ]]; then
        "$LLMSIM" --port "$LLM_PORT" --pack "$packfile" --seed "$seed" 2>>"$OUT/llmsim-$pack.log" &
        server_pid=$!
        for _ in $(seq 50); do
          curl -fs "http://127.0.0.1:$LLM_PORT/health" >/dev/null 2>&1 && break
          sleep 0.2
        done
        policy=(--policy llm --llm-url "http://127.0.0.1:$LLM_PORT/v1" --llm-model sage-llmsim --llm-timeout 30)
      else
        policy=(--policy builtin)
      fi
      echo "experiment-traps: arm $arm, pack $pack, seed $seed, modes $MODES, budget $BUDGET" >&2
      "$SAGE" bench --split test --learn-on train "${only[@]}" "${policy[@]}" --memory-mode "$MODES" \
        --seed-pack "$packfile" --seed "$seed" --repeat 1 --epsilon "$EPSILON" --budget "$BUDGET" \
        --device "$DEVICE" --out "$OUT/$arm-$pack-seed$seed.json" > /dev/null 2>> "$OUT/$arm-$pack.log"
      stop_server
      parts+=("$OUT/$arm-$pack-seed$seed.json")
    done
    "$SAGE" bench merge "${parts[@]}" --json > "$OUT/$arm-$pack.json"
    "$SAGE" bench merge "${parts[@]}" > "$OUT/$arm-$pack.txt"
  done
done
elapsed=$(( $(date +%s) - t0 ))

python3 - "$OUT" "$RESULTS" "$started" "$elapsed" "$ARMS" "$PACKS" <<'PY'
import json, sys, os, re
out, results, started, elapsed, arms, packs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split(), sys.argv[6].split()
env = {k: os.environ.get(k, "") for k in ["TRAIN_TASKS", "TEST_TASKS", "SEEDS", "SEEDS_BUILTIN", "SEEDS_LLM", "FIRST_SEED",
                                         "BUDGET", "EPSILON", "DEVICE", "MODES", "ARMS", "PACKS", "PACK_DIR", "OUT", "RESULTS"]}
L = []
cmd = " ".join([f"{k}={v}" for k, v in env.items() if v] + ["scripts/experiment-traps.sh"])
reused = os.environ.get("REUSE_ARMS", "").split()
L.append(f"Regenerate with `{cmd}` (started {started}, {elapsed} s wall time on this machine; "
         "timings are noisy, cycle counts are deterministic)."
         + (f" The {', '.join(reused)} arm's reports were reused from an earlier run of the same command in {out}." if reused else "")
         + "\n")
def mean(xs):
    return sum(xs) / len(xs)
def touchedGap(g):
    """(mean over seeds of the gap over touched pairs, mean touched count, pairs) or None."""
    g = [x for x in g if x.get("touched_gap") is not None]
    if not g:
        return None
    return (mean([x["touched_gap"] for x in g]), mean([x["touched_pairs"] for x in g]), g[0]["pairs"])
def ci(m):
    return f"{m['mean_difference']:+.2f} [{m['ci95_low']:+.2f}, {m['ci95_high']:+.2f}]"
verdicts = []
for arm in arms:
    for pack in packs:
        path = f"{out}/{arm}-{pack}.json"
        if not os.path.exists(path):
            L.append(f"\n### {arm} arm, {pack} pack\n\nNo report ({path} is missing: the run failed; see {out}/{arm}-{pack}.log).\n")
            verdicts.append((arm, pack, "run failed", False))
            continue
        r = json.load(open(path))
        seeds = len({t["seed"] for t in r["tasks"]})
        ntasks = len({t["task"] for t in r["tasks"]})
        L.append(f"\n### {arm} arm, {pack} pack ({ntasks} test tasks x {seeds} seeds, budget {r['budget']}, epsilon {r['epsilon']})\n")
        L.append("| mode | runs | correct | median x first correct | median x expert | fast_1 vs expert | repairs (ok) | trap adoptions / run | iterations to 95 % of best | Q gap useful - trap, all pairs | Q gap, pairs learning touched (mean count of total) |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        gaps = r.get("q_gap_after_learning", {})
        for mode, a in sorted(r["modes"].items()):
            g = gaps.get(mode, [])
            gap = mean([x["gap"] for x in g]) if g else None
            tg = touchedGap(g)
            fe = a["fast_p_vs_expert"].get("fast_1")
            xe = f"{a['median_speedup_vs_expert']:.2f}x" if a.get("runs_with_expert") else "n/a (no tuned.cpp)"
            L.append(f"| `{mode}` | {a['runs']} | {a['correct_rate']:.2f} | {a['median_speedup_vs_first_correct']:.2f}x | "
                     f"{xe} | {'n/a' if fe is None else f'{fe:.2f}'} | "
                     f"{a['repair_iterations']:.0f} ({a['repairs_succeeded']:.0f}) | {a['mean_trap_adoptions_per_run']:.2f} | "
                     f"{a['mean_iterations_to_95_best']:.2f} | {'n/a' if gap is None else f'{gap:+.3f}'} | "
                     f"{'n/a' if tg is None else f'{tg[0]:+.3f} ({tg[1]:.1f} of {tg[2]})'} |")
        # Per pair, averaged over seeds: what learning did to each useful entry and its trap twin.
        pairModes = [m for m in ["adoption", "all_retrieved"] if gaps.get(m) and gaps[m][0].get("per_pair")]
        if pack == "traps" and pairModes:
            L.append("\nLearned values per trap pair after learning (mean Q over seeds; adoptions per seed in brackets):\n")
            L.append("| useful entry | trap twin | " + " | ".join(f"`{m}` useful Q | `{m}` trap Q" for m in pairModes) + " |")
            L.append("|---|---|" + "---|---|" * len(pairModes))
            first = gaps[pairModes[0]][0]["per_pair"]
            for k, p in enumerate(first):
                cells = []
                for m in pairModes:
                    seedsOf = [g["per_pair"][k] for g in gaps[m]]
                    uq, tq, ua, ta = (mean([x[f] for x in seedsOf]) for f in ["useful_q", "trap_q", "useful_adopted", "trap_adopted"])
                    cells.append(f"{uq:+.3f} ({ua:.1f}) | {tq:+.3f} ({ta:.1f})")
                L.append(f"| {p['useful']} | {p['trap']} | " + " | ".join(cells) + " |")
            # The pack itself, checked: what adopting each twin did to the kernel while learning (reward
            # tanh(log speedup), -1 for a candidate that failed), pooled over the learning modes and seeds.
            if "useful_outcomes" in first[0]:
                L.append("\nWhat adopting each twin did while learning (mean reward over all adoptions in "
                         + ", ".join(f"`{m}`" for m in pairModes) + ", all seeds; adoptions, of them gains):\n")
                L.append("| useful entry | reward when adopted | trap twin | reward when adopted | trap harmful here (mean reward below -0.1: clearly) |")
                L.append("|---|---|---|---|---|")
                def pooled(k, side):
                    xs = [x for m in pairModes for g in gaps[m] if (x := g["per_pair"][k][side])["adoptions"]]
                    n = sum(x["adoptions"] for x in xs)
                    if not n:
                        return None, 0, 0
                    return sum(x["mean_reward"] * x["adoptions"] for x in xs) / n, n, sum(x["gained"] for x in xs)
                for k, p in enumerate(first):
                    (ur, un, ug), (tr, tn, tg) = pooled(k, "useful_outcomes"), pooled(k, "trap_outcomes")
                    fmt = lambda r, n, gained: "not adopted" if r is None else f"{r:+.3f} ({n}, {gained} gained)"
                    # tanh(log speedup) = -0.1 is about 10 % slower: below that a trap clearly harms.
                    harmful = "not adopted" if tr is None else "clearly" if tr <= -0.1 else "weakly" if tr < 0 else "**no**"
                    L.append(f"| {p['useful']} | {fmt(ur, un, ug)} | {p['trap']} | {fmt(tr, tn, tg)} | {harmful} |")
        comps = r.get("paired_vs_adoption", [])
        if comps:
            L.append("\nPaired differences (other mode - adoption) by task x seed, mean [bootstrap 95 % CI]:\n")
            L.append("| other mode | pairs | trap adoptions | iterations to 95 % of best | log2 speedup vs first correct |")
            L.append("|---|---|---|---|---|")
            for c in comps:
                m = c["metrics"]
                L.append(f"| `{c['b']}` | {c['pairs']} | {ci(m['trap_adoptions'])} | {ci(m['iterations_to_95_best'])} | "
                         f"{ci(m['log2_speedup_vs_first_correct'])} |")
        byb = {c["b"]: c["metrics"] for c in comps}
        if pack == "traps":
            for other in ["all_retrieved", "similarity"]:
                if other in byb:
                    t = byb[other]["trap_adoptions"]; it = byb[other]["iterations_to_95_best"]
                    verdicts.append((arm, pack, f"adoption has fewer trap adoptions than {other} (interval of {other} - adoption above 0)",
                                     t["ci95_low"] > 0))
                    verdicts.append((arm, pack, f"adoption needs fewer iterations to 95 % of best than {other} "
                                     f"(interval of {other} - adoption above 0)", it["ci95_low"] > 0))
            # The Q-gap claims are checked over the pairs the learning phase touched (either twin's
            # value updated): an untouched pair is 0 - 0 under every rule. Both figures are in the table.
            ga = touchedGap(gaps.get("adoption", [])); gr = touchedGap(gaps.get("all_retrieved", []))
            if ga:
                verdicts.append((arm, pack, f"Q gap useful - trap (pairs touched) clearly positive under adoption ({ga[0]:+.3f} > 0.1)", ga[0] > 0.1))
            if gr:
                verdicts.append((arm, pack, f"Q gap (pairs touched) near 0 under all_retrieved (|{gr[0]:+.3f}| < 0.1)", abs(gr[0]) < 0.1))
        else:
            for other, m in byb.items():
                if other == "off":
                    continue  # memory against no memory is not what the control checks
                it = m["iterations_to_95_best"]
                what = "no traps, decoys" if pack == "control" else "no traps, no decoys"
                verdicts.append((arm, pack, f"negative control ({what}): adoption and {other} tie (iterations interval contains 0)",
                                 it["ci95_low"] <= 0 <= it["ci95_high"]))
L.append("\n### Claims of issue 12, checked\n")
L.append("| arm | pack | claim | holds |")
L.append("|---|---|---|---|")
for arm, pack, claim, ok in verdicts:
    L.append(f"| {arm} | {pack} | {claim} | {'yes' if ok else '**no**'} |")
if not all(ok for *_, ok in verdicts):
    L.append("\nAt least one claim does **not** hold on this run; the numbers above are what was measured.")
seedless = [f"{arm}/{pack}" for arm in arms for pack in packs
            if os.path.exists(f"{out}/{arm}-{pack}.json") and
            len({json.dumps([t['best_cycles'], t['trajectory']]) for t in json.load(open(f"{out}/{arm}-{pack}.json"))["tasks"]
                 if t["memory_mode"] == "adoption"}) <= len({t["task"] for t in json.load(open(f"{out}/{arm}-{pack}.json"))["tasks"]})]
if seedless:
    L.append("\nIn " + ", ".join(seedless) + " every seed gave the same runs under `adoption`: the seeds only change "
             "retrieval's epsilon draws, and the built-in policy takes the first applicable move, so the intervals there "
             "are degenerate (a zero-width interval is not evidence of an effect).")
if env["TRAIN_TASKS"] or env["TEST_TASKS"]:
    L.append("\nThis is a **small** run (a few tasks, seeds and iterations) made to show that the experiment runs end "
             "to end; its intervals are too wide to support or refute the claims. The full run is "
             "`scripts/experiment-traps.sh` with the defaults.")
section = "\n".join(L) + "\n"
text = open(results).read() if os.path.exists(results) else "# Results\n"
begin, end = "<!-- EXPERIMENT-TRAPS:BEGIN -->", "<!-- EXPERIMENT-TRAPS:END -->"
block = f"{begin}\n{section}{end}"
if begin in text and end in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
else:
    text += "\n## Memory experiment: traps, seeds and intervals (issue 12)\n\n" + block + "\n"
open(results, "w").write(text)
print(section)
PY
