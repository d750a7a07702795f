// Runs and iterations of the agent, stored in the same SQLite file as the memory (schema module
// "agent"), so a run can be stepped through and replayed later in the GUI or the CLI.
#pragma once

#include "sage_memory/Database.h"

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
    std::string task, device, policy, memoryMode, status;  // status: running | finished | cancelled | failed
    nlohmann::json settings;
    std::string startedAt, finishedAt;
    int bestIteration = -1;        // index of the best correct iteration, -1 if none
    int firstCorrectIteration = -1;
    std::string stopReason;
};

struct IterationRecord {
    int64_t runId = 0;
    int index = 0;             // 0, 1, 2 ...
    int parent = -1;           // the iteration this one was derived from
    std::string stage;         // draft | repair | optimize
    std::string origin;        // policy | human
    std::string move;          // what changed, in a few words
    std::string source;        // the full candidate file
    std::string diff;          // unified diff against the parent
    nlohmann::json evaluation; // Evaluation::toJson()
    std::string status;        // run status of the evaluation (ok, sim_error, ...) or compile_error
    bool correct = false;
    uint64_t cycles = 0;
    double rooflineFraction = 0;
    double reward = 0;
    nlohmann::json retrievals;   // [{id, title, rank, score, q, ...}]
    nlohmann::json adoptions;    // [{id, declared, evidenced, weight, credit, q_before, q_after}]
    nlohmann::json proposed;     // experiences proposed from this iteration
    std::string prompt, response, rationale, error;
    nlohmann::json timings;      // seconds per phase
    std::string createdAt;
};

class RunStore {
public:
    explicit RunStore(std::shared_ptr<memory::Database> db);  // migrates the agent module
    int64_t createRun(const RunRecord& run);
    void updateRun(const RunRecord& run);
    void addIteration(const IterationRecord& it);
    std::optional<RunRecord> run(int64_t id);
    std::vector<RunRecord> runs(const std::string& task = "");
    std::vector<IterationRecord> iterations(int64_t runId);
    std::shared_ptr<memory::Database> database() const { return db_; }

private:
    std::shared_ptr<memory::Database> db_;
};

nlohmann::json toJson(const RunRecord& r);
nlohmann::json toJson(const IterationRecord& it);

} // namespace sage::agent
