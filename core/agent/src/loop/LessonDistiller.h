// After a repair that worked or an optimisation that gained >= 5%, the policy distils a lesson;
// it is proposed to memory as an experience on trial (retrieved by later runs with a lower prior,
// for the device it was learned on) with the iteration as provenance and `reward` as its evidence.
#pragma once

#include "sage_agent/Policy.h"
#include "sage_agent/RunStore.h"
#include "sage_memory/ExperienceStore.h"

namespace sage::agent {

bool lessonWorthy(memory::Stage stage, bool correct, double speedup);

// Appends what was proposed to rec.proposed; a store failure is noted in rec.error.
void distilLesson(Policy& policy, memory::ExperienceStore& memory, const PolicyContext& ctx,
                  const PolicyProposal& proposal, const eval::Evaluation& before, const eval::Evaluation& after,
                  memory::MemoryMode mode, double reward, IterationRecord& rec);

} // namespace sage::agent
