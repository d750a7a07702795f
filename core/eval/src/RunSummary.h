// How the runs of one evaluation sum up: every run with its case, seed and simulated device time;
// the evaluation's status is the run status that describes it best; simulator diagnostics once
// per (kind, line, severity). Shared by the task and the golden (CANN Bench) evaluations.
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_toolchain/Sandbox.h"

#include <string>
#include <utility>
#include <vector>

namespace sage::eval {

void summariseRuns(RunSection& run, const toolchain::SandboxReport& report,
                   const std::vector<std::pair<std::string, uint64_t>>& keys, double clockMhz);

} // namespace sage::eval
