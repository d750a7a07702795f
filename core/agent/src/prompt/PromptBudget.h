// Fitting a prompt into the endpoint's context window. Every part of a prompt is a Piece with a
// priority; pieces are taken in priority order while the estimate fits, required pieces always.
// The estimate is chars / 3.5 tokens (rounded up): English prose and C++ average 3.5-4 characters
// per token in the BPE vocabularies of current models, so 3.5 errs on the large side. Each chat
// message also costs a few tokens of template; kMessageOverheadTokens covers it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sage::agent::prompt {

constexpr double kCharsPerToken = 3.5;
constexpr int kMessageOverheadTokens = 8;

int estimateTokens(const std::string& text);

struct Budget {
    int contextTokens = 32768;  // the model's context window
    int maxTokens = 4096;       // reserved for the reply
    int promptTokens() const;   // what a prompt may use, template overhead included: context - max_tokens
};

// Priorities, most important first. Required pieces are sent even when they overflow.
enum class Priority {
    Required = 0,    // role, device, core card, task, parent, evaluation, instruction, reply format
    History = 1,     // the run's earlier attempts (compact; without them the model repeats itself)
    TaskCard = 2,    // card sections the category, dtypes, stage or device need
    Experiences = 3, // retrieved experiences
    OptionalCard = 4,
    Reference = 5,   // reference semantics and the naive baseline: dropped first
    Examples = 6,    // complete example kernels: only when room remains
};

struct Piece {
    std::string name;  // e.g. "card: 5. Data movement / Strided", "task", "parent"
    std::string text;
    Priority priority = Priority::Required;
    bool system = false;  // part of the system message (else the user message)
    std::string compact;  // a shorter text used when the required pieces alone do not fit ("" = none)
    std::string group;    // pieces of one group (a card section): the head is sent only with a member
    bool groupHead = false;
};

struct SectionSize {
    std::string name;
    size_t chars = 0;
    int tokens = 0;
    bool included = false;
    bool compacted = false;  // the shorter variant was sent
    std::string priority;
};

struct Assembled {
    std::string system, user;
    std::vector<SectionSize> sizes;  // every piece offered, in prompt order, included or not
    int promptTokens = 0;            // estimate of what is sent
    int budgetTokens = 0;            // what was allowed
    bool overflow = false;           // the required pieces alone exceed the budget
    nlohmann::json toJson() const;   // stored with the iteration's prompt record
    std::string table() const;       // the same as aligned text, for `sage prompt`
};

// Keeps the prompt order of `pieces`; drops the lowest priorities first.
Assembled assemble(const std::vector<Piece>& pieces, const Budget& budget);

const char* priorityName(Priority p);

} // namespace sage::agent::prompt
