// Fitting a prompt into the endpoint's context window. Every part of a prompt is a Piece with a
// priority; pieces are taken in priority order while the estimate fits, required pieces always.
//
// Token estimate: characters / charsPerToken, rounded up. The default, kCharsPerToken, is a bound
// measured on our own prompts with real tokenizers (Llama-3 and o200k, bench/llmsim/measure-tokens.sh,
// docs/llm-policy.md "Counting tokens"): the densest prompt text (numbered C++ kernels, evaluation
// summaries) runs below 3 characters per token, so the bound sits under the smallest ratio measured
// on any whole prompt. A server that reports its own count (`usage.prompt_tokens`, or the token count
// in a context-length error) recalibrates the ratio for that model (TokenCalibration).
// Each chat message also costs a few tokens of template; kMessageOverheadTokens covers it.
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::agent::prompt {

constexpr double kCharsPerToken = 2.6;
constexpr int kMessageOverheadTokens = 8;

int estimateTokens(const std::string& text, double charsPerToken = kCharsPerToken);
int estimateTokens(size_t chars, double charsPerToken);

// The characters-per-token ratio used for one model, safe side first: it starts at the measured
// bound and follows the server's own counts when it gives them (never above what was observed,
// less a margin).
class TokenCalibration {
public:
    double charsPerToken() const { return ratio_; }
    // `chars` characters of message text were counted as `tokens` by the server.
    void observe(size_t chars, int tokens);
    // A context-length error said `tokens` for a request whose messages held `chars` characters.
    void observeOverflow(size_t chars, int tokens);
    // Without a server count: shrink the ratio by `factor` (< 1), e.g. after an unexplained rejection.
    void shrink(double factor);
    const std::string& source() const { return source_; }  // where the ratio comes from, for the log

    static constexpr double kMargin = 0.92;  // a later prompt may tokenise denser than the one measured
    static constexpr double kMinRatio = 1.2, kMaxRatio = 4.5;

private:
    double ratio_ = kCharsPerToken;
    bool fromServer_ = false;
    std::string source_ = "measured bound";
};

struct Budget {
    int contextTokens = 32768;  // the model's context window
    int maxTokens = 4096;       // reserved for the reply
    double charsPerToken = kCharsPerToken;
    int promptTokens() const;   // what a prompt may use, template overhead included: context - max_tokens
};

// Priorities, most important first. Required pieces are sent even when they overflow (and then
// the policy refuses to send the request). Memory is the last thing to go: the top retrieved
// experiences, in compact form, outrank the run's history and the platform card.
enum class Priority {
    Required = 0,     // role, device, task, reply format, parent, evaluation, instruction
    Memory = 1,       // the top retrieved experiences, compact (title, trigger, value, advice)
    History = 2,      // the run's earlier attempts (without them the model repeats itself)
    CoreCard = 3,     // platform card: programming model, memories, queues, data movement, vector API
    TaskCard = 4,     // card sections the category, dtypes, stage or device need
    MemoryDetail = 5, // code idioms of shown experiences, further experiences, entries to avoid
    OptionalCard = 6,
    Reference = 7,    // reference semantics and the naive baseline
    Examples = 8,     // complete example kernels: only when room remains
};

struct Piece {
    std::string name;  // e.g. "card: 5. Data movement / Strided", "task", "parent"
    std::string text;
    Priority priority = Priority::Required;
    bool system = false;  // part of the system message (else the user message)
    std::string compact;  // a shorter text used when required + memory do not fit ("" = none)
    std::string group;    // pieces of one group (a card section): the head is sent only with a member
    bool groupHead = false;
    std::string needs;    // name of a piece this one only makes sense with (an idiom needs its entry)
    int64_t experienceId = 0;  // the retrieved experience this piece shows (0 = none)
    int rank = 0;         // within a priority, lower goes first (relevance); prompt order breaks ties
};

struct SectionSize {
    std::string name;
    size_t chars = 0;
    int tokens = 0;
    bool included = false;
    bool compacted = false;  // the shorter variant was sent
    std::string priority;
    std::string dropped;     // why it was left out ("" when included)
};

struct Assembled {
    std::string system, user;
    std::vector<SectionSize> sizes;  // every piece offered, in prompt order, included or not
    std::vector<int64_t> shownExperiences;  // experience ids whose piece was sent, in prompt order
    int promptTokens = 0;            // estimate of what is sent
    int budgetTokens = 0;            // what was allowed
    double charsPerToken = kCharsPerToken;
    bool overflow = false;           // the required pieces alone exceed the budget
    nlohmann::json toJson() const;   // stored with the iteration's prompt record
    std::string table() const;       // the same as aligned text, for `sage prompt`
};

// Keeps the prompt order of `pieces`; drops the lowest priorities first.
Assembled assemble(const std::vector<Piece>& pieces, const Budget& budget);

const char* priorityName(Priority p);

} // namespace sage::agent::prompt
