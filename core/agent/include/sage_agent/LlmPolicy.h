// The LLM policy: any OpenAI-compatible chat-completions server. Builds the prompt (role,
// platform card, task, parent candidate, condensed evaluation, retrieved experiences with ids),
// streams the reply (SSE), retries on 429/5xx with backoff, and enforces the reply contract:
// one full kernel file in a fenced block, an `ADOPTED:` line with experience ids (or none),
// a short rationale. A second call distils the lesson of a successful iteration.
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_agent/Policy.h"

namespace sage::agent {

class LlmPolicy : public Policy {
public:
    explicit LlmPolicy(LlmSettings settings);
    std::string name() const override { return "llm"; }
    nlohmann::json settings() const override;
    PolicyProposal propose(const PolicyContext& ctx) override;
    std::optional<Lesson> distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                  const eval::Evaluation& before, const eval::Evaluation& after) override;

    // Exposed for tests and for the workbench's prompt view.
    static std::string buildPrompt(const PolicyContext& ctx);
    static std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source);
    struct ParsedReply {
        bool ok = false;
        std::string error, source, rationale;
        std::vector<int64_t> adopted;
    };
    static ParsedReply parseReply(const std::string& reply);

private:
    LlmSettings settings_;
};

} // namespace sage::agent
