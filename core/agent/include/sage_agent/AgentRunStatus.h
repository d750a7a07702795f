// How an agent run stands: still running, or how it ended. Stored by its name in the run table and
// in the run summary; the spelling is the one earlier versions wrote, so their databases load.
#pragma once

#include <optional>
#include <string_view>

namespace sage::agent {

enum class AgentRunStatus {
    Running,
    Finished,     // the budget or a stop rule ended it
    Cancelled,    // the engineer stopped it
    Failed,       // an error ended it
    Interrupted,  // its process died mid-run (found when a database is opened), or its database went away
};

// The stored spelling: "running", "finished", "cancelled", "failed", "interrupted".
std::string_view toString(AgentRunStatus status);
// The inverse of toString; nullopt for any other text.
std::optional<AgentRunStatus> parseAgentRunStatus(std::string_view text);

} // namespace sage::agent
