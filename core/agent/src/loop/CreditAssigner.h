// Reward and credit for one evaluated iteration. The reward is feasibility for draft and repair
// and a bounded log-speedup over the parent for optimisation; credit goes only to the retrieved
// experiences the policy adopted (declared, checked against the diff by memory::AdoptionLedger),
// and among those only the ones it was shown: an entry cut from the prompt by the context budget
// is not credited even when the code matches its pattern (issue 27, point 3).
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_agent/RunStore.h"
#include "sage_memory/ExperienceStore.h"

#include <optional>
#include <vector>

namespace sage::agent {

struct IterationValue {
    double speedup = 1.0;  // parent cycles / candidate cycles (optimise, correct), else 1
    double reward = 0;
    bool success = false;  // correct, and for an optimisation also faster than its parent
};

IterationValue valueOf(memory::Stage stage, bool correct, uint64_t parentCycles, uint64_t cycles);

// `shownIds`: the retrieved entries the policy showed or considered (PolicyProposal::shownIds);
// unset means all of `retrieved`. With `learn`, records the outcome in the ledger and returns its credit report; otherwise the
// policy's declarations only.
std::vector<AdoptionRecord> assignCredit(memory::ExperienceStore* memory, bool learn, const AgentSettings& settings,
                                         int64_t runId, int iteration,
                                         const std::vector<memory::ScoredExperience>& retrieved,
                                         const std::vector<int64_t>& declared,
                                         const std::optional<std::vector<int64_t>>& shownIds,
                                         const std::string& parentSource,
                                         const std::string& candidateSource,
                                         const IterationValue& value);

} // namespace sage::agent
