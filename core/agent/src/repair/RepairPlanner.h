// Which repair actions answer a failed evaluation: every diagnostic kind the pipeline emits maps
// to executable actions (the same JSON memory entries carry), most specific first. Kinds with no
// automatic repair yet map to nothing (see docs/builtin-policy.md).
#pragma once

#include "sage_eval/Evaluation.h"

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sage::agent::repair {

// The failure kinds of an evaluation, first error first: compile_error, simulator kinds
// (race_raw, capacity_exceeded, ...), or wrong_result when it ran but did not verify; after the
// errors, a tbuf_not_initialised warning of a failed run (the cause of its first error).
std::vector<toolchain::DiagnosticKind> failureKinds(const eval::Evaluation* ev);

// Repair actions for one failure kind ({"type":"transform","name":"sync_pair"}, ...).
std::vector<nlohmann::json> actionsFor(const toolchain::DiagnosticKind& kind);

// The first simulator diagnostic of the evaluation that is one of `kinds` and names a kernel line
// (what a repair edits), or null.
const toolchain::Diagnostic* firstRunDiagnostic(const eval::Evaluation* ev,
                                                std::initializer_list<toolchain::DiagnosticKind::Code> kinds);

} // namespace sage::agent::repair
