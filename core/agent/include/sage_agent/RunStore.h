// Runs and iterations of the agent, stored in the same SQLite file as the memory (schema module
// "agent"), so a run can be stepped through and replayed later in the GUI or the CLI.
#pragma once

#include "sage_agent/AgentRunStatus.h"
#include "sage_agent/IterationStatus.h"
#include "sage_eval/Evaluation.h"
#include "sage_memory/Database.h"
#include "sage_memory/ExperienceFields.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sage::agent {

struct AgentSchema {
    static memory::SchemaModule module();
};

struct RunRecord {
    int64_t id = 0;
    std::string task, device, policy, memoryMode;
    AgentRunStatus status = AgentRunStatus::Running;  // stored as its name (toString)
    nlohmann::json settings;
    std::string startedAt, finishedAt;
    int bestIteration = -1;        // index of the best correct iteration, -1 if none
    int firstCorrectIteration = -1;
    std::string stopReason;
    int64_t ownerPid = 0;          // the process running it (to tell a live run from a killed one)
};

// One experience retrieved for an iteration, as the policy saw it.
struct RetrievalRecord {
    int64_t id = 0;
    std::string title;
    int rank = 0;
    double score = 0, similarity = 0, q = 0;
    bool explored = false;         // picked by epsilon exploration, not by score
    nlohmann::json action;         // the entry's executable action, if any
};

// What happened to one experience after the iteration: declared by the policy, evidenced in the
// diff, its adoption weight and credit, and its learned value before and after. `weight` and the
// values are absent when the run did not learn (only the policy's declaration is known).
struct AdoptionRecord {
    int64_t id = 0;
    bool declared = false, evidenced = false;
    std::optional<double> weight;
    double credit = 0;
    std::optional<double> qBefore, qAfter;
    bool adopted() const { return weight ? *weight > 0 : declared; }
};

// An experience the loop proposed to memory from this iteration.
struct ProposedRecord {
    int64_t id = 0;
    std::string title;
    bool deduplicated = false;
    std::string reason;
};

struct IterationRecord {
    int64_t runId = 0;
    int index = 0;             // 0, 1, 2 ...
    int parent = -1;           // the iteration this one was derived from
    memory::Stage stage = memory::Stage::Draft;  // stored as its name: draft | repair | optimize
    std::string origin;        // policy | human (edit while paused) | engineer (the run's starting kernel)
    std::string move;          // what changed, in a few words
    std::string source;        // the full candidate file
    std::string diff;          // unified diff against the parent
    std::optional<eval::Evaluation> evaluation;  // none: not evaluated; kept without timeline events
    IterationStatus status = IterationStatus::NotRun;  // stored as its name (toString)
    bool correct = false;
    uint64_t cycles = 0;
    double rooflineFraction = 0;
    double reward = 0;
    std::vector<RetrievalRecord> retrievals;
    std::vector<AdoptionRecord> adoptions;
    std::vector<ProposedRecord> proposed;
    int duplicateOf = -1;        // same source as this earlier iteration: not evaluated again, its result reused
    std::string prompt, response, rationale, error;
    // What the policy reported while proposing this iteration's candidate (the run log's notes):
    // e.g. adopted ids the reply declared but was never shown, which are not counted as adopted.
    std::vector<std::string> notes;
    nlohmann::json timings;      // seconds per phase
    std::string createdAt;
};

class RunStore {
public:
    // Migrates the agent module, then marks runs left "running" by a process that no longer
    // exists as "interrupted" (killed or crashed mid-run); see interruptedAtOpen().
    explicit RunStore(std::shared_ptr<memory::Database> db);
    int64_t createRun(const RunRecord& run);
    void updateRun(const RunRecord& run);
    void addIteration(const IterationRecord& it);
    std::optional<RunRecord> run(int64_t id);
    std::vector<RunRecord> runs(const std::string& task = "");
    std::vector<IterationRecord> iterations(int64_t runId);
    std::shared_ptr<memory::Database> database() const { return db_; }
    const std::vector<int64_t>& interruptedAtOpen() const { return interrupted_; }

private:
    std::vector<int64_t> markInterruptedRuns();
    std::shared_ptr<memory::Database> db_;
    std::vector<int64_t> interrupted_;
};

nlohmann::json toJson(const RunRecord& r);
nlohmann::json toJson(const IterationRecord& it);
// The JSON shapes stored in the run database (and shown by `sage replay --json`).
nlohmann::json toJson(const RetrievalRecord& r);
nlohmann::json toJson(const AdoptionRecord& a);
nlohmann::json toJson(const ProposedRecord& p);
RetrievalRecord retrievalFromJson(const nlohmann::json& j);
AdoptionRecord adoptionFromJson(const nlohmann::json& j);
ProposedRecord proposedFromJson(const nlohmann::json& j);

} // namespace sage::agent
