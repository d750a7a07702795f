#!/usr/bin/env bash
# Issue 33: "no string comparison of stage, status or diagnostic kind remains outside the
# (de)serialisers" (the diagnostic severity is counted too). Lists every
# `stage|status|kind|severity == "literal"` (and != , and the literal on the
# left) in core/, ui/ and app/, leaving out the places where such a string is *read* (parsers of
# outside text: gcc's JSON, the LLM's reply, the task spec) and the draft skeletons (compute-spec
# kinds, not diagnostics). Prints one line per comparison and a count per concept; exits 1 when any
# is left.
#
# Usage: scripts/typed-leftovers.sh [DIR ...]   (default: core ui app)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
dirs=("$@")
((${#dirs[@]})) || dirs=(core ui app)
for d in "${dirs[@]}"; do [[ -d $d ]] || { echo "typed-leftovers: no folder $d under $here" >&2; exit 2; }; done

# file:reason — the readers of outside text, where comparing the text is the parsing itself.
allowed=(
  "core/toolchain/src/Compiler.cpp:parseGccJsonDiagnostics reads gcc's own 'kind' field"
  "core/agent/src/LlmPolicy.cpp:reads the lesson kind the LLM wrote"
  "core/agent/src/loop/LessonDistiller.cpp:maps the LLM's lesson kind onto memory::ExperienceKind"
  "core/eval/src/ComputeSpec.cpp:the task spec's compute kind (elementwise, rowwise, ...), not a diagnostic"
  "core/eval/src/CannBenchTask.cpp:a CANN Bench compute spec's kind (elementwise, rowwise, ...), not a diagnostic"
  "core/eval/src/CompatScan.cpp:an op project's file kind (program, kernel), not a diagnostic"
  "core/agent/src/draft/:compute-spec kinds of the draft skeletons"
  "app/cli/prompt_command.cpp:reads the --stage option ('all' or a stage name)"
)
exclude=()
for a in "${allowed[@]}"; do exclude+=(-e "^${a%%:*}"); done

pattern='(\b(stage|status|kind|severity)\b|\.(stage|status|kind|severity)\(\))\s*(==|!=)\s*("|QLatin1String\(|QStringLiteral\()|"[a-z_ ]*"\s*(==|!=)\s*[A-Za-z_.>-]*\b(stage|status|kind|severity)\b'
hits=$(grep -rnE --include='*.cpp' --include='*.h' "$pattern" "${dirs[@]}" | grep -v "${exclude[@]}" || true)
count() { [[ -z $hits ]] && echo 0 || grep -cE "$1" <<<"$hits" || true; }
[[ -n $hits ]] && echo "$hits"
echo "left: stage $(count '\bstage\b') | status $(count '\bstatus\b') | kind $(count '\bkind\b') | severity $(count '\bseverity\b')" \
     "(allowed readers: ${#allowed[@]}, see the script)"
[[ -z $hits ]]
