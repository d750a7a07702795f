#!/usr/bin/env bash
# Measures characters per token of the LLM policy's real prompts with real tokenizers (Llama-3 and
# o200k): every task, every stage, at the given window. Prints per prompt the characters, the two
# token counts and the policy's own estimate, then the smallest ratio seen (the bound
# prompt::kCharsPerToken must stay below). Regenerates the figures of docs/llm-policy.md,
# "Counting tokens".
#   bench/llmsim/tokens/measure-tokens.sh [SAGE] [CONTEXT] [MAX_TOKENS]
# Needs NODE_PATH pointing at node_modules holding llama3-tokenizer-js and gpt-tokenizer (see
# count-tokens.cjs); nothing here is a build or test dependency.
set -euo pipefail
SAGE=${1:-build/bin/sage}
CONTEXT=${2:-8192}
MAX=${3:-2048}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
tasks=$("$SAGE" tasks --json | python3 -c 'import json,sys; print(" ".join(t["name"] for t in json.load(sys.stdin)))')
for t in $tasks; do
  for s in draft repair optimize; do
    "$SAGE" prompt --task "$t" --stage "$s" --llm-context "$CONTEXT" --llm-max-tokens "$MAX" --text-only > "$OUT/$t.$s.txt"
  done
done
NODE_PATH=${NODE_PATH:-} node "$HERE/count-tokens.cjs" "$OUT"/*.txt | python3 -c '
import json, sys, os
rows = [json.loads(l) for l in sys.stdin]
worst = min(rows, key=lambda r: r["chars"] / max(r["llama3"], r["o200k"]))
for r in rows:
    print("%-34s %7d chars %6d llama3 %6d o200k  %.2f %.2f chars/token" % (os.path.basename(r["file"]), r["chars"], r["llama3"], r["o200k"], r["chars"] / r["llama3"], r["chars"] / r["o200k"]))
tot = sum(r["chars"] for r in rows)
print("prompts: %d; overall %.2f (llama3) %.2f (o200k) chars/token; smallest: %.3f (%s)" % (len(rows), tot / sum(r["llama3"] for r in rows), tot / sum(r["o200k"] for r in rows), worst["chars"] / max(worst["llama3"], worst["o200k"]), os.path.basename(worst["file"])))
'
