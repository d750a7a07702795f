// The built-in policy's draft stage: writes a complete kernel file (tiling struct, host side
// through the task's launch spec, TPipe/TQue/TBuf set-up, copy-in, compute, copy-out, tail
// handling) from the task's compute spec (task.json "compute", see docs/tasks.md), for the
// selected device profile. The skeletons and API idioms it composes are draft-stage memory
// entries ({"type": "skeleton" | "api_idiom", ...}); with memory off the same knowledge is built in.
#pragma once

#include "sage_eval/Task.h"
#include "sage_memory/RetrievalContext.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent {

struct DraftResult {
    bool ok = false;
    std::string source, error, move, rationale;
    std::vector<int64_t> adoptedIds;  // retrieved entries whose actions the draft used
    nlohmann::json action;            // {"type": "draft", "skeleton": ..., "idioms": [...]}
};

// Never throws: a spec the composer cannot handle gives ok = false and an error naming the field.
DraftResult composeDraft(const eval::Task& task, const npu::DeviceProfile& device,
                         const std::vector<memory::ScoredExperience>& retrieved);

// The built-in draft knowledge, as the actions of draft-stage memory entries (what
// resources/memory/seed.jsonl carries), for tests and documentation.
const std::vector<nlohmann::json>& builtinDraftActions();

} // namespace sage::agent
