#include "sage_agent/AgentLoop.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/LlmPolicy.h"

#include <stdexcept>

namespace sage::agent {

std::unique_ptr<Policy> makePolicy(const AgentSettings& settings) {
    if (settings.policy == "builtin") return std::make_unique<BuiltinPolicy>();
    if (settings.policy == "llm") return std::make_unique<LlmPolicy>(settings.llm);
    throw std::invalid_argument("unknown policy '" + settings.policy + "' (builtin or llm)");
}

} // namespace sage::agent
