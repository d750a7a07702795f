// Everything that configures a run; stored with the run so it can be replayed and compared.
#pragma once

#include "sage_memory/MemoryMode.h"

#include <nlohmann/json.hpp>
#include <string>

namespace sage::agent {

struct LlmSettings {
    std::string baseUrl = "http://127.0.0.1:8080/v1";  // OpenAI-compatible server
    std::string model = "gpt-4o-mini";
    double temperature = 0.2;
    int maxTokens = 4096;          // reserved for the reply (reasoning models need more)
    int contextTokens = 32768;     // the model's context window; prompts are assembled to fit it
    double timeoutSeconds = 1800;       // total cap on one reply (a CPU model may stream for minutes)
    double idleTimeoutSeconds = 180;    // no byte from the server for this long ends the request
    double connectTimeoutSeconds = 10;  // to open the connection
    double maxRetryAfterSeconds = 60;   // a server's Retry-After is honoured up to this, and said so
    size_t maxReplyBytes = 8u << 20;    // a reply larger than this is cut off as an error
    std::string apiKeyEnv = "OPENAI_API_KEY";  // the key is read from this variable, never stored
    // The key from the workbench's desktop keychain, used when the variable is not set. Held in
    // memory only: toJson leaves it out, so it reaches no database, log or report.
    std::string apiKey;
    int maxRetries = 3;
    double retryBaseSeconds = 1.0;
};

struct AgentSettings {
    std::string policy = "builtin";  // builtin | llm
    int budget = 12;                 // iterations, including the draft
    memory::MemoryMode memoryMode = memory::kDefaultMemoryMode;
    std::string device = "ascend910b1-sim";
    double targetRooflineFraction = 0.85;  // stop when the best correct candidate reaches it
    int patience = 4;                      // stop after this many optimise iterations without a >= 1% gain
    bool revertBrokenOptimizations = true; // false: repair them instead
    int retrieveLimit = 5;
    double epsilon = 0.0;
    uint64_t seed = 0;
    bool learn = true;              // update values and propose experiences
    bool includePending = false;    // let the agent see pending (unreviewed) entries
    size_t seeds = 3;               // evaluation seeds per case
    double evalTimeoutSeconds = 60;
    // Compile the policy's likely next candidate while this one is evaluated (on the core a
    // compile leaves idle); a later evaluation of it starts from a compile-cache hit. Results and
    // the agent's choices are the same either way.
    bool speculate = true;
    LlmSettings llm;

    nlohmann::json toJson() const;  // never contains the API key
    static AgentSettings fromJson(const nlohmann::json& j);
};

} // namespace sage::agent
