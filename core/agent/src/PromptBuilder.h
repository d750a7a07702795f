// The text the LLM policy sends: a stable system part (role, platform card, reply contract) and a
// per-iteration user part (task, parent candidate with line numbers, condensed evaluation,
// retrieved experiences with ids, the stage's instruction). Also the distillation prompt.
#pragma once

#include "sage_agent/Policy.h"

#include <string>

namespace sage::agent::prompt {

struct Parts {
    std::string system;  // role + platform card + reply contract (same for every iteration)
    std::string user;    // everything about this iteration
    std::string joined() const;  // what is stored and shown as "the prompt"
};

Parts build(const PolicyContext& ctx);

// The evaluation a model reads: compile errors with line:col, simulator diagnostics, failed
// checks with their first mismatches, and the profile (cycles, bottleneck and advice, pipe
// ratios, roofline, hottest lines with their source text).
std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source);

// "  12 | code" for every line.
std::string numbered(const std::string& source);

// Stage instruction: what the model must do now.
std::string stageInstruction(const PolicyContext& ctx);

// The distillation request: what changed and what it achieved, answered as one JSON object.
Parts distill(const PolicyContext& ctx, const PolicyProposal& proposal, const eval::Evaluation& before,
              const eval::Evaluation& after);

extern const char* const kReplyContract;

} // namespace sage::agent::prompt
