// Facts a model needs that no other part of the prompt states: the device it writes for (limits
// and missing features), the value ranges of the inputs (from the task's `init`), and the run's own
// earlier attempts, one line each.
#pragma once

#include "sage_agent/Policy.h"

#include <string>

namespace sage::agent::prompt {

// "## Device: ..." with cores, UB, alignment, clock and what this device does not have.
std::string deviceFacts(const npu::DeviceProfile& device);

// "Input values: x uniform in [0.01, 100] (always positive); ..." — empty when the task has no init.
std::string inputRanges(const eval::Task& task);

// The run's attempts, newest last, at most `limit` lines (older ones are summarised in one line).
std::string attemptHistory(const std::vector<AttemptRecord>& history, size_t limit = 12);

} // namespace sage::agent::prompt
