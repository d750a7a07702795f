// What the loop tells its observers. The GUI turns these into queued Qt signals; the CLI prints
// them. Observers are called on the loop's thread and must not block.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sage::agent {

struct IterationRecord;  // sage_agent/RunStore.h
struct RunSummary;       // sage_agent/AgentLoop.h

enum class AgentEventType {
    RunStarted,
    IterationStarted,
    StageChanged,
    Token,            // a streamed piece of the policy's reply (text)
    EvaluationDone,   // record: the iteration so far (status, correct, cycles, its evaluation)
    MemoryUpdated,    // record: the iteration with its credit report (adoptions: which entries moved, Q before/after)
    IterationFinished,  // record: the stored iteration
    Paused,
    Resumed,
    RunFinished,      // summary: the run summary
    Error,            // text: what went wrong (the run continues unless it says otherwise)
    Notice,           // text: a line for the run log (a prompt shrunk to fit, a rate-limit wait, ...)
};

const char* eventName(AgentEventType t);

struct AgentEvent {
    AgentEventType type;
    int64_t runId = 0;
    int iteration = 0;
    std::optional<memory::Stage> stage;  // the iteration's stage; none for run-level events
    std::string text;
    std::shared_ptr<const IterationRecord> record;  // EvaluationDone, MemoryUpdated, IterationFinished
    std::shared_ptr<const RunSummary> summary;      // RunFinished
};

using AgentObserver = std::function<void(const AgentEvent&)>;

} // namespace sage::agent
