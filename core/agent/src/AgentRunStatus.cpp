#include "sage_agent/AgentRunStatus.h"

#include "sage_toolchain/NameTable.h"

#include <array>
#include <cstddef>

namespace sage::agent {
namespace {
// Indexed by AgentRunStatus; the order is the enum's.
constexpr std::array<std::string_view, 5> kNames{"running", "finished", "cancelled", "failed", "interrupted"};
static_assert(kNames.size() == std::size_t(AgentRunStatus::Interrupted) + 1, "one name per AgentRunStatus");
} // namespace

std::string_view toString(AgentRunStatus status) { return kNames[std::size_t(status)]; }

std::optional<AgentRunStatus> parseAgentRunStatus(std::string_view text) {
    if (auto i = toolchain::indexOfName(kNames, text)) return AgentRunStatus(*i);
    return std::nullopt;
}

} // namespace sage::agent
