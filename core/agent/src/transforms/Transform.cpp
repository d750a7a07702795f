#include "transforms/Transform.h"

#include "sage_npu/DeviceProfile.h"

#include <algorithm>

namespace sage::agent::transforms {

const std::vector<Def>& all() {
    static const std::vector<Def> defs = {
        {"multi_core", "a block_dim knob (literal or constant launch argument) and a GetBlockIdx() split", multiCore},
        {"double_buffer", "a buffer-count knob, or TQue InitBuffer calls with a literal buffer count", doubleBuffer},
        {"tile_from_ub", "a tile knob and InitBuffer sizes computable at compile time", tileFromUb},
        {"precise_sync", "PipeBarrier<PIPE_ALL> between statements whose pipes can be told", preciseSync},
        {"align_tail", "count-form DataCopy calls and a device with DataCopyPad", alignTail},
        {"replace_datacopy_pad", "single-block DataCopyPad calls (for a device without DataCopyPad)", replaceDataCopyPad},
        {"sync_pair", "a race diagnostic naming both lines and pipes", raceSync},
        {"set_before_wait", "a deadlock at a WaitFlag line", setBeforeWait},
        {"wait_after_set", "an unpaired SetFlag line", waitAfterSet},
        {"rename_identifier", "a compile error naming an unknown identifier close to a known API name", renameIdentifier},
        {"template_argument", "a compile error at an AllocTensor/DeQue/Get call without its element type", templateArgument},
        {"free_tensor", "a queue out of buffers (alloc_no_free_buffer) whose tensor is never freed", freeTensor},
        {"enque_tensor", "a DeQue on an empty queue whose producer allocates but never EnQue's", enqueTensor},
        {"init_buffer", "a TQue/TBuf used without InitBuffer, with a sibling of the same type that has one", initBuffer},
        {"gm_offset_consensus", "a GM access past its range whose index differs from the one the other GlobalTensors share",
         gmOffsetConsensus},
    };
    return defs;
}

const Def* find(const std::string& name) {
    for (const auto& d : all())
        if (name == d.name) return &d;
    return nullptr;
}

Result refuse(std::string why) {
    Result r;
    r.refusal = std::move(why);
    return r;
}

bool down(const Input& in) { return in.action.is_object() && in.action.value("direction", "up") == "down"; }

std::vector<Tunable> knobsWithRole(const std::string& source, const std::string& role) {
    std::vector<Tunable> out;
    for (const auto& t : inferKnobs(source))
        if (t.role == role) out.push_back(t);
    return out;
}

Result trySet(const Input& in, const Tunable& knob, const std::vector<long long>& values, const std::string& what) {
    std::string reason = "no value to move " + knob.constant + " to";
    for (long long v : values) {
        if (v <= 0 || v == knob.value) continue;
        if (!knob.allowed.empty() && std::find(knob.allowed.begin(), knob.allowed.end(), v) == knob.allowed.end()) {
            reason = std::to_string(v) + " is not in the allowed set of " + knob.constant;
            continue;
        }
        std::string out = setTunable(in.source, knob, v);
        if (out == in.source) continue;
        std::string why = infeasibility(in.source, out, in.device);
        if (!why.empty()) {
            reason = knob.constant + " = " + std::to_string(v) + ": " + why;
            continue;
        }
        Result r;
        r.source = out;
        r.description = what + ": " + knob.constant + " " + std::to_string(knob.value) + " -> " + std::to_string(v);
        return r;
    }
    return refuse(reason);
}

} // namespace sage::agent::transforms
