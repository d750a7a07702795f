// A structural transform: one small unit that rewrites a kernel's source text. Each declares what
// it needs and refuses (no source, a reason) any kernel it cannot handle safely; a refusal is
// normal, never an error. Actions name them: {"type":"transform","name":"double_buffer"} with an
// optional "direction" ("up" default, or "down") or "value".
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_agent/Tunables.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sage::npu {
struct DeviceProfile;
}

namespace sage::agent::transforms {

struct Input {
    const std::string& source;
    const npu::DeviceProfile* device;     // may be null: then no device-specific limit is checked
    const eval::Evaluation* parent;       // the parent's evaluation (repairs read its diagnostics)
    const nlohmann::json& action;
};

struct Result {
    std::optional<std::string> source;
    std::string description;  // what changed, one line
    std::string refusal;      // why not, when source is empty
};

struct Def {
    const char* name;
    const char* needs;  // one line: what the kernel must have
    Result (*run)(const Input&);
};

// Every transform and repair, optimisation moves in priority order first.
const std::vector<Def>& all();
const Def* find(const std::string& name);

Result refuse(std::string why);
bool down(const Input& in);  // action says "direction":"down"

// Sets `knob` to the first value of `values` that changes the source and keeps it feasible on the
// device (Tunables.h infeasibility); refuses with the last reason otherwise.
Result trySet(const Input& in, const Tunable& knob, const std::vector<long long>& values, const std::string& what);
// The knobs of a role ("tile", "tile_count", "buffer", "block").
std::vector<Tunable> knobsWithRole(const std::string& source, const std::string& role);

// The registered units (one file each).
Result multiCore(const Input&);
Result doubleBuffer(const Input&);
Result tileFromUb(const Input&);
Result preciseSync(const Input&);
Result alignTail(const Input&);
Result replaceDataCopyPad(const Input&);
Result raceSync(const Input&);
Result setBeforeWait(const Input&);
Result waitAfterSet(const Input&);
Result renameIdentifier(const Input&);
Result templateArgument(const Input&);
Result freeTensor(const Input&);
Result enqueTensor(const Input&);
Result initBuffer(const Input&);
Result gmOffsetConsensus(const Input&);

} // namespace sage::agent::transforms
