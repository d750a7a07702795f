#include "sage_agent/AgentSettings.h"

#include "sage_agent/AgentEvents.h"

namespace sage::agent {

nlohmann::json AgentSettings::toJson() const {
    return {{"policy", policy},
            {"budget", budget},
            {"memory_mode", std::string(memory::toString(memoryMode))},
            {"device", device},
            {"target_roofline_fraction", targetRooflineFraction},
            {"patience", patience},
            {"revert_broken_optimizations", revertBrokenOptimizations},
            {"retrieve_limit", retrieveLimit},
            {"epsilon", epsilon},
            {"seed", seed},
            {"learn", learn},
            {"include_pending", includePending},
            {"seeds", seeds},
            {"eval_timeout_seconds", evalTimeoutSeconds},
            {"speculate", speculate},
            {"llm",
             {{"base_url", llm.baseUrl}, {"model", llm.model}, {"temperature", llm.temperature},
              {"max_tokens", llm.maxTokens}, {"context_tokens", llm.contextTokens}, {"timeout_seconds", llm.timeoutSeconds},
              {"idle_timeout_seconds", llm.idleTimeoutSeconds}, {"connect_timeout_seconds", llm.connectTimeoutSeconds},
              {"max_retry_after_seconds", llm.maxRetryAfterSeconds}, {"max_reply_bytes", llm.maxReplyBytes},
              {"api_key_env", llm.apiKeyEnv},
              {"max_retries", llm.maxRetries}}}};
}

AgentSettings AgentSettings::fromJson(const nlohmann::json& j) {
    AgentSettings s;
    s.policy = j.value("policy", s.policy);
    s.budget = j.value("budget", s.budget);
    if (auto mode = memory::parseEnum<memory::MemoryMode>(j.value("memory_mode", std::string("adoption"))))
        s.memoryMode = *mode;
    s.device = j.value("device", s.device);
    s.targetRooflineFraction = j.value("target_roofline_fraction", s.targetRooflineFraction);
    s.patience = j.value("patience", s.patience);
    s.revertBrokenOptimizations = j.value("revert_broken_optimizations", s.revertBrokenOptimizations);
    s.retrieveLimit = j.value("retrieve_limit", s.retrieveLimit);
    s.epsilon = j.value("epsilon", s.epsilon);
    s.seed = j.value("seed", s.seed);
    s.learn = j.value("learn", s.learn);
    s.includePending = j.value("include_pending", s.includePending);
    s.seeds = j.value("seeds", s.seeds);
    s.evalTimeoutSeconds = j.value("eval_timeout_seconds", s.evalTimeoutSeconds);
    s.speculate = j.value("speculate", s.speculate);
    if (j.contains("llm")) {
        const auto& l = j["llm"];
        s.llm.baseUrl = l.value("base_url", s.llm.baseUrl);
        s.llm.model = l.value("model", s.llm.model);
        s.llm.temperature = l.value("temperature", s.llm.temperature);
        s.llm.maxTokens = l.value("max_tokens", s.llm.maxTokens);
        s.llm.contextTokens = l.value("context_tokens", s.llm.contextTokens);
        s.llm.timeoutSeconds = l.value("timeout_seconds", s.llm.timeoutSeconds);
        s.llm.idleTimeoutSeconds = l.value("idle_timeout_seconds", s.llm.idleTimeoutSeconds);
        s.llm.connectTimeoutSeconds = l.value("connect_timeout_seconds", s.llm.connectTimeoutSeconds);
        s.llm.maxRetryAfterSeconds = l.value("max_retry_after_seconds", s.llm.maxRetryAfterSeconds);
        s.llm.maxReplyBytes = l.value("max_reply_bytes", s.llm.maxReplyBytes);
        s.llm.apiKeyEnv = l.value("api_key_env", s.llm.apiKeyEnv);
        s.llm.maxRetries = l.value("max_retries", s.llm.maxRetries);
    }
    return s;
}

const char* eventName(AgentEventType t) {
    static const char* names[] = {"run_started",   "iteration_started", "stage_changed", "token",
                                  "evaluation_done", "memory_updated",  "iteration_finished", "paused",
                                  "resumed",        "run_finished",      "error",         "notice"};
    return names[int(t)];
}

} // namespace sage::agent
