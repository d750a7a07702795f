#include "loop/CreditAssigner.h"

#include "SourceDiff.h"
#include "sage_agent/AgentLoop.h"
#include "sage_memory/AdoptionLedger.h"
#include "sage_memory/WriteRetry.h"

namespace sage::agent {

IterationValue valueOf(memory::Stage stage, bool correct, uint64_t parentCycles, uint64_t cycles) {
    IterationValue v;
    const bool optimise = stage == memory::Stage::Optimize;
    if (optimise && correct && parentCycles && cycles) v.speedup = double(parentCycles) / double(cycles);
    v.reward = stageReward(stage, correct, v.speedup);
    v.success = optimise ? (correct && v.speedup > 1.0) : correct;
    return v;
}

std::vector<AdoptionRecord> assignCredit(memory::ExperienceStore* memory, bool learn, const AgentSettings& settings,
                                         int64_t runId, int iteration,
                                         const std::vector<memory::ScoredExperience>& retrieved,
                                         const std::vector<int64_t>& declared,
                                         const std::optional<std::vector<int64_t>>& shownIds,
                                         const std::string& parentSource,
                                         const std::string& candidateSource,
                                         const IterationValue& value) {
    std::vector<AdoptionRecord> out;
    if (!learn || !memory || retrieved.empty()) {
        for (int64_t id : declared) out.push_back({id, true, false, std::nullopt, 0, std::nullopt, std::nullopt});
        return out;
    }
    const auto change = memory::CandidateChange::between(parentSource, candidateSource);
    auto signals = shownIds ? memory::AdoptionLedger::assess(retrieved, declared, change, *shownIds)
                            : memory::AdoptionLedger::assess(retrieved, declared, change);
    memory::IterationOutcome outcome;
    outcome.reward = value.reward;
    outcome.success = value.success;
    outcome.mode = settings.memoryMode;
    // A server restart that cuts this transaction costs one more attempt, not the run (issue 31).
    auto report = memory::retryingWrite(memory->database(),
                                        [&] { return memory->recordOutcome(runId, iteration, signals, outcome); });
    for (const auto& r : report.records)
        out.push_back({r.experienceId, r.declared.value_or(false), r.evidenced.value_or(false), r.adoptionWeight.value_or(0),
                       r.creditWeight.value_or(0), r.qBefore.value_or(0), r.qAfter.value_or(0)});
    return out;
}

} // namespace sage::agent
