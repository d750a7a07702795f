// Exports a profile as Chrome-trace JSON (opens in Perfetto; see docs/trace-format.md) and as
// an msprof op_summary-like CSV.
#pragma once

#include "sage_eval/Evaluation.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sage::eval {

// A synchronisation link of one launch: a SetFlag and the WaitFlag it released, or an EnQue and
// the DeQue that took its tensor. Indices into the launch's events; the source comes first.
struct FlowLink {
    size_t source = 0, target = 0;
    bool queue = false;  // EnQue -> DeQue; otherwise SetFlag -> WaitFlag
};
// The links the Chrome trace draws as flow arrows; the workbench's timeline draws the same.
std::vector<FlowLink> flowLinks(const toolchain::LaunchResult& launch);

nlohmann::json chromeTrace(const Evaluation& ev);
std::string opSummaryCsv(const Evaluation& ev);

} // namespace sage::eval
