// Retrieval for one iteration: what the memory offers for this stage, task and parent's failure
// or bottleneck. The loop records the set the policy finally worked from in the memory's ledger
// (for later credit; once per iteration) and in the iteration record.
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_agent/RunStore.h"
#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"
#include "sage_memory/ExperienceStore.h"

#include <vector>

namespace sage::agent {

std::vector<memory::ScoredExperience> retrieveFor(memory::ExperienceStore& memory, const AgentSettings& settings,
                                                  const eval::Task& task, memory::Stage stage,
                                                  const eval::Evaluation* parent, int64_t runId, int iteration);

std::vector<RetrievalRecord> toRecords(const std::vector<memory::ScoredExperience>& retrieved);

} // namespace sage::agent
