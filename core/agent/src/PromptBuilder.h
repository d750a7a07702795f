// The text the LLM policy sends, assembled against the endpoint's context budget: a system part
// (role, device facts, the platform-card pieces this task needs, reply contract) and a
// per-iteration user part (task with input ranges, reference, parent candidate with line numbers,
// condensed evaluation, the run's own attempts, retrieved experiences with ids, the stage's
// instruction). Also the distillation prompt.
#pragma once

#include "prompt/PromptBudget.h"
#include "sage_agent/Policy.h"

#include <string>

namespace sage::agent::prompt {

struct Parts {
    std::string system;  // role + device + platform card pieces + reply contract
    std::string user;    // everything about this iteration
    Assembled layout;    // which pieces were sent and their sizes
    std::string joined() const;  // what is stored and shown as "the prompt"
};

Parts build(const PolicyContext& ctx, const Budget& budget = {});

// The evaluation a model reads: compile errors with line:col, simulator diagnostics, failed
// checks with their first mismatches, and the profile (cycles, bottleneck and advice, pipe
// ratios, roofline, hottest lines with their source text).
// `compact`: fewer diagnostics, one failing case, fewer hot lines (for a tight context budget).
std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source, bool compact = false);

// "  12 | code" for every line.
std::string numbered(const std::string& source);

// Stage instruction: what the model must do now.
std::string stageInstruction(const PolicyContext& ctx);

// The distillation request: what changed and what it achieved, answered as one JSON object.
Parts distill(const PolicyContext& ctx, const PolicyProposal& proposal, const eval::Evaluation& before,
              const eval::Evaluation& after);

extern const char* const kReplyContract;

} // namespace sage::agent::prompt
