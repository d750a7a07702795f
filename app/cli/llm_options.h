// The LLM endpoint flags shared by `sage run`, `sage bench` and `sage prompt`: --llm-url,
// --llm-model, --llm-key-env, --llm-timeout, --llm-idle-timeout, --llm-connect-timeout, --llm-context, --llm-max-tokens, --llm-temperature.
#pragma once

#include "sage_agent/AgentSettings.h"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace sage::cli {

struct LlmOptions {
    std::string baseUrl, model, keyEnv;
    std::optional<int> contextTokens, maxTokens;
    std::optional<double> temperature, timeoutSeconds, idleTimeoutSeconds, connectTimeoutSeconds;
    // `endpoint`: also the url/model/key flags (not needed by `sage prompt`).
    void add(CLI::App* cmd, bool endpoint = true);
    // Copies the given flags over `s`; throws CLI::RuntimeError(2) when max_tokens leaves no room
    // for a prompt in the context window.
    void apply(agent::LlmSettings& s) const;
};

} // namespace sage::cli
