#include "cli/llm_options.h"

#include <iostream>

namespace sage::cli {

void LlmOptions::add(CLI::App* cmd, bool endpoint) {
    if (endpoint) {
        cmd->add_option("--llm-url", baseUrl, "LLM policy: OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1)");
        cmd->add_option("--llm-model", model, "LLM policy: model name");
        cmd->add_option("--llm-key-env", keyEnv, "LLM policy: environment variable holding the API key");
        cmd->add_option("--llm-timeout", timeoutSeconds,
                        "LLM policy: total cap in seconds on one model reply, however steadily it streams (default 1800)")
            ->check(CLI::Range(0.1, 86400.0));
        cmd->add_option("--llm-idle-timeout", idleTimeoutSeconds,
                        "LLM policy: seconds without a byte from the server before a request is given up (default 180)")
            ->check(CLI::Range(0.1, 86400.0));
        cmd->add_option("--llm-connect-timeout", connectTimeoutSeconds,
                        "LLM policy: seconds to open the connection (default 10)")
            ->check(CLI::Range(0.1, 600.0));
    }
    cmd->add_option("--llm-context", contextTokens,
                    "LLM policy: the model's context window in tokens; prompts are assembled to fit (default 32768)")
        ->check(CLI::Range(2048, 10'000'000));
    cmd->add_option("--llm-max-tokens", maxTokens, "LLM policy: tokens reserved for the reply (default 4096)")
        ->check(CLI::Range(256, 1'000'000));
    cmd->add_option("--llm-temperature", temperature, "LLM policy: sampling temperature (default 0.2)")
        ->check(CLI::Range(0.0, 2.0));
}

void LlmOptions::apply(agent::LlmSettings& s) const {
    if (!baseUrl.empty()) s.baseUrl = baseUrl;
    if (!model.empty()) s.model = model;
    if (!keyEnv.empty()) s.apiKeyEnv = keyEnv;
    if (contextTokens) s.contextTokens = *contextTokens;
    if (maxTokens) s.maxTokens = *maxTokens;
    if (temperature) s.temperature = *temperature;
    if (timeoutSeconds) s.timeoutSeconds = *timeoutSeconds;
    if (idleTimeoutSeconds) s.idleTimeoutSeconds = *idleTimeoutSeconds;
    if (connectTimeoutSeconds) s.connectTimeoutSeconds = *connectTimeoutSeconds;
    if (s.maxTokens * 4 > s.contextTokens * 3) {
        std::cerr << "sage: error: --llm-max-tokens " << s.maxTokens << " leaves less than a quarter of --llm-context "
                  << s.contextTokens << " for the prompt; lower --llm-max-tokens (e.g. to "
                  << s.contextTokens / 4 << ") or raise --llm-context\n";
        throw CLI::RuntimeError(2);
    }
}

} // namespace sage::cli
