// ScriptedReply: the "model" of the scripted LLM arm (issue 12). It reads a chat prompt the way a
// model would: the retrieved experience blocks (headers like `[E12] title (...)` or `#12 title`,
// an optional action JSON object in the block, else the action of the entry with that title in
// a memory pack), and the parent kernel (the numbered ```cpp block after "## Parent candidate", or
// the baseline for a draft). It applies one entry's action, chosen with a rank-biased random
// choice (weight 2^-rank), through BuiltinPolicy::apply, and answers in the policy's format
// (```cpp block, then `ADOPTED: E12`). With probability `undeclared` it applies an entry without
// declaring it (evidence only: weight 0.6), with probability `falseClaim` it also declares an
// entry it did not apply (claim only: 0.3). Entries listed under a heading that says "avoid" (the
// prompt's value floor) are left alone, except that with probability `ignoreAvoid` a reply treats
// them like the others, as a model that does not always follow instructions would. Deterministic
// for (seed, prompt).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sage::llmsim {

struct RetrievedBlock {
    std::int64_t id = 0;
    int rank = 0;
    std::string title;
    bool avoid = false;     // listed under a heading that says to avoid it
    nlohmann::json action;  // null when neither the prompt nor the pack gives one
};

struct ScriptedChoice {
    std::string reply;           // the assistant message
    std::int64_t applied = 0;    // entry whose action was applied (0: none)
    std::vector<std::int64_t> declared;
};

class ScriptedReply {
public:
    struct Options {
        std::uint64_t seed = 0;
        double undeclared = 0.15;
        double falseClaim = 0.15;
        double ignoreAvoid = 0.1;
    };
    ScriptedReply(Options options, std::map<std::string, nlohmann::json> actionsByTitle)
        : options_(options), actionsByTitle_(std::move(actionsByTitle)) {}

    static std::vector<RetrievedBlock> parseExperiences(const std::string& prompt);
    static std::string parentKernel(const std::string& prompt);  // "" when the prompt holds none
    // Actions by title from a JSON Lines pack (entries without an action are left out).
    static std::map<std::string, nlohmann::json> loadPack(const std::string& path);

    ScriptedChoice answer(const std::string& prompt) const;

private:
    Options options_;
    std::map<std::string, nlohmann::json> actionsByTitle_;
};

} // namespace sage::llmsim
