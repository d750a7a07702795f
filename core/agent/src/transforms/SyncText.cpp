#include "transforms/SyncText.h"

#include <set>

namespace sage::agent::transforms::sync {

std::string waitFor(const std::string& source, const std::string& from, const std::string& to) {
    static const std::set<std::string> events = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M",
        "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3",
        "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "S_M", "S_FIX"};
    if (from == to) return "AscendC::PipeBarrier<PIPE_" + from + ">();";
    const std::string ev = from + "_" + to;
    if (!events.count(ev)) return "AscendC::PipeBarrier<PIPE_ALL>();";
    // An id this kernel does not already use with this event, so no outstanding flag is disturbed.
    int id = 7;
    for (int i = 7; i >= 0; --i)
        if (source.find("HardEvent::" + ev + ">(EVENT_ID" + std::to_string(i) + ")") == std::string::npos) {
            id = i;
            break;
        }
    const std::string e = "<AscendC::HardEvent::" + ev + ">(EVENT_ID" + std::to_string(id) + ");";
    return "AscendC::SetFlag" + e + " AscendC::WaitFlag" + e;
}

} // namespace sage::agent::transforms::sync
