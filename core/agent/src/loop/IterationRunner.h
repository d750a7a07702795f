// One iteration of a run, from the candidate to the stored record: take the engineer's kernel or
// edit, or ask the policy (moving along the frontier when it has no further move from a node);
// reuse the earlier result of a source already evaluated; otherwise evaluate, credit what was
// adopted, distil a lesson and grow the frontier. Returns why the run stops, if it does.
#pragma once

#include "loop/Frontier.h"
#include "loop/RunJournal.h"
#include "loop/StageChooser.h"
#include "loop/StopRules.h"
#include "sage_agent/AgentEvents.h"
#include "sage_agent/Policy.h"
#include "sage_eval/Evaluator.h"
#include "sage_memory/ExperienceStore.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sage::agent {

// What every iteration of one run shares.
struct RunContext {
    const eval::Evaluator& evaluator;
    Policy& policy;
    const AgentSettings& settings;
    const eval::Task& task;
    memory::ExperienceStore* memory;  // null when the run uses no memory
    bool learn;                       // update values and propose lessons
    const std::atomic<bool>& cancel;
    std::function<void(AgentEvent)> emit;
    std::optional<std::pair<std::string, std::string>> start;  // the engineer's kernel and its label
    RewardShuffle* shuffle = nullptr;  // the negative control: memory is credited with shuffled outcomes
};

class IterationRunner {
public:
    IterationRunner(RunContext ctx, RunJournal& journal);

    // Runs iteration `i` (`edit`: the engineer's edit submitted while paused).
    std::optional<std::string> run(int i, const std::optional<std::string>& edit);
    const Frontier& frontier() const { return frontier_; }

private:
    using Clock = std::chrono::steady_clock;
    struct Asked {
        StageChoice choice;
        PolicyProposal proposal;
        PolicyContext context;
        std::vector<memory::ScoredExperience> retrieved;
        Clock::time_point retrievedAt;
    };
    Asked ask(int i, StageChoice choice, IterationRecord& rec);
    PolicyContext contextFor(int i, const StageChoice& choice, const std::vector<memory::ScoredExperience>& retrieved);
    std::optional<std::string> noCandidate(IterationRecord& rec, const PolicyProposal& prop, const Candidate* parent);
    std::optional<std::string> reuse(IterationRecord& rec, const Asked& asked, int seen);
    std::optional<std::string> evaluate(IterationRecord& rec, const Asked& asked, bool given, Clock::time_point proposedAt);
    void store(IterationRecord& rec);
    std::optional<std::string> stopReason() const;

    RunContext ctx_;
    RunJournal& journal_;
    const npu::DeviceProfile& device_;
    const std::string card_;
    Frontier frontier_;
    StopRules stop_;
    std::vector<AttemptRecord> history_;
    memory::Stage prevStage_ = memory::Stage::Any;
};

} // namespace sage::agent
