// What the loop tells its observers. The GUI turns these into queued Qt signals; the CLI prints
// them. Observers are called on the loop's thread and must not block.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sage::agent {

struct IterationRecord;  // sage_agent/RunStore.h

enum class AgentEventType {
    RunStarted,
    IterationStarted,
    StageChanged,
    Token,            // a streamed piece of the policy's reply (text)
    EvaluationDone,   // data: the evaluation summary
    MemoryUpdated,    // data: credit report (which entries moved, Q before/after)
    IterationFinished,  // data: the stored iteration (toJson); record: the same, typed
    Paused,
    Resumed,
    RunFinished,      // data: the run summary
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
    nlohmann::json data;
    std::shared_ptr<const IterationRecord> record;  // IterationFinished: the stored iteration
};

using AgentObserver = std::function<void(const AgentEvent&)>;

} // namespace sage::agent
