// The prompt the LLM policy would send for a task at a stage, without a model or a run: for sizing
// prompts against a context window (`sage prompt`, the prompt-size tests). The parent is the
// task's longer reference kernel (tuned or baseline). A repair gets a worst-case evaluation of
// that parent: the larger of a compile failure showing the most diagnostics the summary lists and
// a wrong-result run with simulator diagnostics; an optimise step gets a full profile. The history
// holds `historyLength` earlier attempts with long diagnostics. Experiences are retrieved for the
// stage from `memory` when given (the seed pack, typically).
#pragma once

#include "sage_agent/AgentSettings.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/ToolPaths.h"
#include "sage_memory/RetrievalContext.h"

#include <nlohmann/json.hpp>
#include <string>

namespace sage::npu {
struct DeviceProfile;
}
namespace sage::memory {
class ExperienceStore;
}

namespace sage::agent {

struct PromptPreview {
    std::string system, user;
    nlohmann::json sizes;  // prompt_tokens, budget_tokens, overflow, sections[{name, chars, tokens, included, priority}]
    std::string table;     // the same, one line per section
    int promptTokens = 0, budgetTokens = 0;
    bool overflow = false;
};

struct PromptPreviewRequest {
    const eval::Task* task = nullptr;
    const npu::DeviceProfile* device = nullptr;
    memory::Stage stage = memory::Stage::Draft;
    std::string platformCard;            // docs/kernel-api.md
    LlmSettings llm;                     // context_tokens and max_tokens set the budget
    memory::ExperienceStore* memory = nullptr;
    int retrieveLimit = 5;
    int historyLength = 11;              // a 12-iteration budget's earlier attempts
};

PromptPreview previewPrompt(const PromptPreviewRequest& request);

// docs/kernel-api.md of an installed or built tree (empty when it cannot be read).
std::string readPlatformCard(const toolchain::ToolPaths& paths);  // docs/kernel-api.md next to the resources
std::string readPlatformCard();  // the same, for the paths of the environment

} // namespace sage::agent
