// Exports a profile as Chrome-trace JSON (opens in Perfetto; see docs/trace-format.md) and as
// an msprof op_summary-like CSV.
#pragma once

#include "sage_eval/Evaluation.h"

#include <nlohmann/json.hpp>
#include <string>

namespace sage::eval {

nlohmann::json chromeTrace(const Evaluation& ev);
std::string opSummaryCsv(const Evaluation& ev);

} // namespace sage::eval
