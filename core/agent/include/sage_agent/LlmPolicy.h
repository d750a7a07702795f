// The LLM policy: any OpenAI-compatible chat-completions server. Builds the prompt against the
// endpoint's context budget (role, device facts, the platform-card sections the task needs, task,
// parent candidate, condensed evaluation, the run's own attempts, retrieved experiences with ids),
// streams the reply (SSE), retries on 429/5xx with backoff, and reads the reply tolerantly: a whole
// kernel file or SEARCH/REPLACE edits of the parent, an adoption line (or "unknown"), a rationale.
// A reply it cannot use, or a kernel already evaluated in this run, is answered in the same
// iteration with a message naming the problem (at most kFormatRetries times). A second call
// distils the lesson of a successful iteration.
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_agent/Policy.h"

#include <memory>

namespace sage::agent {

namespace prompt {
class TokenCalibration;
}
struct ChatMessage;

class LlmPolicy : public Policy {
public:
    explicit LlmPolicy(LlmSettings settings);
    std::string name() const override { return "llm"; }
    nlohmann::json settings() const override;
    PolicyProposal propose(const PolicyContext& ctx) override;
    std::optional<Lesson> distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                  const eval::Evaluation& before, const eval::Evaluation& after) override;

    // Exposed for tests and for the workbench's prompt view.
    static std::string buildPrompt(const PolicyContext& ctx);  // with the default budget
    static constexpr int kFormatRetries = 2;  // follow-up requests per iteration after an unusable reply
    static std::string evaluationSummary(const eval::Evaluation& ev, const std::string& source);
    struct ParsedReply {
        bool ok = false;
        std::string error;           // what is wrong, phrased as feedback the model can act on
        std::string source;          // the complete candidate (edits already applied to the parent)
        std::string rationale;
        std::vector<int64_t> adopted;
        bool adoptionKnown = false;  // false: no readable adoption line ("unknown", credit by code evidence)
        bool edited = false;         // the reply was SEARCH/REPLACE blocks or a diff applied to the parent
    };
    // `parent` is the source SEARCH/REPLACE blocks and diffs apply to (empty in the draft stage).
    static ParsedReply parseReply(const std::string& reply, const std::string& parent = {});

    // The characters per token the next prompt is estimated with (the measured bound, or what the
    // server's own counts taught).
    double charsPerToken() const;

private:
    struct ChatOutcome;
    ChatOutcome request(const PolicyContext& ctx, const std::vector<ChatMessage>& exchange, PolicyProposal& out);
    std::string replyProblem(const PolicyContext& ctx, const ParsedReply& parsed, const ChatOutcome& chat) const;
    void accept(const PolicyContext& ctx, const ParsedReply& parsed, PolicyProposal& out);
    static void note(const PolicyContext& ctx, PolicyProposal& out, const std::string& line);

    LlmSettings settings_;
    std::shared_ptr<prompt::TokenCalibration> calibration_;  // per model, learned from the server's counts
};

} // namespace sage::agent
