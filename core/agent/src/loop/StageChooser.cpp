#include "loop/StageChooser.h"

namespace sage::agent {

const char* stageName(memory::Stage s) {
    switch (s) {
    case memory::Stage::Draft: return "draft";
    case memory::Stage::Repair: return "repair";
    case memory::Stage::Optimize: return "optimize";
    default: return "any";
    }
}

std::optional<StageChoice> chooseStage(const Frontier& frontier, const AgentSettings& settings) {
    const int latest = frontier.latest();
    if (latest < 0) return StageChoice{memory::Stage::Draft, -1};
    const Candidate& last = frontier.node(latest);
    const bool revert = frontier.best() >= 0 && settings.revertBrokenOptimizations && !last.human;
    if (!last.correct && !revert && !last.exhausted) return StageChoice{memory::Stage::Repair, latest};
    const int parent = frontier.pick();
    if (parent < 0) return std::nullopt;
    return StageChoice{memory::Stage::Optimize, parent};
}

} // namespace sage::agent
