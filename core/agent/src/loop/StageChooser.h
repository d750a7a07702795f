// Which stage the next iteration runs, and from which candidate: draft when nothing was
// evaluated; repair while the latest candidate is broken (unless the run reverts broken
// optimisations to the best correct one, or no repair is left for it); otherwise optimise the
// frontier's pick. No choice when nothing is left to extend.
#pragma once

#include "loop/Frontier.h"
#include "sage_agent/AgentSettings.h"
#include "sage_memory/ExperienceFields.h"

#include <optional>

namespace sage::agent {

struct StageChoice {
    memory::Stage stage = memory::Stage::Draft;
    int parent = -1;  // frontier node, -1 for a draft
};

std::optional<StageChoice> chooseStage(const Frontier& frontier, const AgentSettings& settings);

const char* stageName(memory::Stage s);

} // namespace sage::agent
