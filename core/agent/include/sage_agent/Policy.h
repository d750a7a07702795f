// A policy proposes the next candidate kernel. The loop gives it the task, the stage, the parent
// candidate with its evaluation, and the experiences retrieved from memory; the policy returns
// a full kernel file and the ids of the experiences it adopted.
#pragma once

#include "sage_agent/IterationStatus.h"
#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"
#include "sage_memory/RetrievalContext.h"

#include <atomic>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent {

// One earlier iteration of this run, compact: what a policy needs to not repeat itself and to
// learn from its own attempts (the LLM prompt lists these; the built-in policy may read them).
struct AttemptRecord {
    int iteration = 0;
    memory::Stage stage = memory::Stage::Draft;
    int parent = -1;              // iteration this one edited (-1 for a draft)
    std::string move;             // short name of the change ("double_buffer", "engineer's edit")
    IterationStatus status = IterationStatus::NotRun;  // statusOf its evaluation, or why there was none
    bool correct = false;
    uint64_t cycles = 0;          // 0 when it did not run
    std::string firstDiagnostic;  // "kind at line N: message", empty when none
    std::vector<int64_t> adoptedIds;
    std::string sourceKey;        // content hash of the candidate (sourceKey())
};

struct PolicyContext {
    const eval::Task* task = nullptr;
    const npu::DeviceProfile* device = nullptr;    // the selected device profile (never null in a run)
    memory::Stage stage = memory::Stage::Draft;
    int iteration = 0;
    std::string parentSource;                      // empty for the first draft
    const eval::Evaluation* parentEvaluation = nullptr;
    const eval::Evaluation* bestEvaluation = nullptr;  // best correct so far (optimise stage)
    std::vector<memory::ScoredExperience> retrieved;
    std::string platformCard;                      // docs/kernel-api.md
    std::vector<std::string> triedMoves;           // source keys already evaluated in this run (no repeats)
    std::vector<AttemptRecord> history;            // every earlier iteration of this run, oldest first
    uint64_t seed = 0;                             // per-iteration seed for a policy's own random choices
    uint64_t runSeed = 0;                          // per-run seed (the run's seed and task): fixed within a run
    double epsilon = 0.0;                          // exploration rate the run was configured with
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const std::string&)> onToken;  // streamed reply text
    std::function<void(const std::string&)> onNotice; // a line for the run log (shrunk prompt, rate-limit wait, ...)
};

struct PolicyProposal {
    bool ok = false;
    std::string error;        // why there is no candidate (contract broken, HTTP error, nothing left to try)
    bool exhausted = false;   // the policy has no further move (the loop stops)
    std::string source;
    std::vector<int64_t> adoptedIds;
    bool adoptionUnknown = false;  // the reply named no readable adoption: credit by code evidence only
    // The retrieved experiences the policy actually showed to its model or considered itself; only
    // these can be credited (issue 27). Unset: every retrieved entry was considered (built-in).
    std::optional<std::vector<int64_t>> shownIds;
    std::vector<int64_t> declaredNotShown;  // ids the reply declared that were not shown (e.g. E9999)
    std::vector<std::string> notes;         // what the policy told the run log during this proposal
    std::string rationale;
    std::string move;         // a short name of what changed ("buffer_num 1 -> 2")
    nlohmann::json action;    // the structured move, for distillation (builtin)
    std::string prompt, response;
    // The source the policy would most likely propose next from the same parent should this one
    // not pay off ("" when it cannot tell; builtin only). The loop compiles it on an idle core
    // meanwhile (AgentSettings::speculate); what is evaluated is decided as before.
    std::string likelyNext;
};

// A lesson a policy distils from a successful iteration, proposed to memory as pending.
struct Lesson {
    std::string title, content, kind;  // kind: insight | repair_rule | optimization | pitfall | api_usage
    nlohmann::json action;
    std::string evidencePattern;
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual std::string name() const = 0;
    virtual nlohmann::json settings() const = 0;
    virtual PolicyProposal propose(const PolicyContext& ctx) = 0;
    // Called after an iteration that repaired an error or gained >= 5%.
    virtual std::optional<Lesson> distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                          const eval::Evaluation& before, const eval::Evaluation& after) = 0;
};

} // namespace sage::agent
