// Turns the simulator's per-core, per-pipe record of the perf case into msprof-style metrics:
// pipe ratios, memory_bound, per-core imbalance, pipe overlap, a roofline lower bound, a
// bottleneck class with one line of advice, and cycles per kernel source line.
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::eval {

// `compulsoryBytes`: the bytes the task must move at least once (all inputs read, outputs written).
ProfileSection analyzeProfile(const std::vector<toolchain::LaunchResult>& launches, const npu::DeviceProfile& device,
                              uint64_t compulsoryBytes, const std::string& caseName);
std::string adviceFor(const std::string& bottleneck);
// Results come from the device: a finished run (ok or race) faster than the roofline of its own
// tensors cannot have been simulated, so it becomes status "impossible_result" (never cached).
// True when `run` was changed.
bool rejectImpossibleResult(toolchain::RunResult& run, const toolchain::RunSpec& spec, const npu::DeviceProfile& device);

} // namespace sage::eval
