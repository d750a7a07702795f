#include "loop/RetrievalStep.h"

#include "loop/EvaluationStep.h"

namespace sage::agent {

std::vector<memory::ScoredExperience> retrieveFor(memory::ExperienceStore& memory, const AgentSettings& settings,
                                                  const eval::Task& task, memory::Stage stage,
                                                  const eval::Evaluation* parent, int64_t runId, int iteration) {
    memory::RetrievalContext rc;
    rc.stage = stage;
    rc.category = task.category;
    rc.device = settings.device;
    rc.description = task.description;
    if (parent) {
        rc.diagnostics = failureOf(*parent);
        rc.bottleneck = parent->profile.bottleneck;
    }
    rc.includePending = settings.includePending;
    rc.limit = settings.retrieveLimit;
    rc.epsilon = settings.epsilon;
    rc.seed = settings.seed * 1000003ull + uint64_t(runId) * 131ull + uint64_t(iteration);
    rc.mode = settings.memoryMode;
    return memory.retrieve(rc);
}

std::vector<RetrievalRecord> toRecords(const std::vector<memory::ScoredExperience>& retrieved) {
    std::vector<RetrievalRecord> out;
    for (const auto& r : retrieved)
        out.push_back({r.experience.id, r.experience.title, r.rank, r.score, r.similarity, r.q, r.explored,
                       r.experience.action});
    return out;
}

} // namespace sage::agent
