// Helpers shared by the vector instruction files: issuing an instruction on PIPE_V with its
// repeat count, and the repeats a byte count takes.
#pragma once

#include "SimImpl.h"

namespace sage::npu {

IssueResult issueVector(Simulation::Impl& s, const char* name, uint64_t repeats, double cpr, uint64_t bytes,
                        const Loc& loc);
uint64_t repeatsFor(uint64_t bytes, const DeviceProfile& p);

} // namespace sage::npu
