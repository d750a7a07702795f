// Helpers shared by the vector instruction files: issuing an instruction on PIPE_V with its
// repeat count, and the repeats a byte count takes.
#pragma once

#include "SimImpl.h"

namespace sage::npu {

IssueResult issueVector(Simulation::Impl& s, const char* name, uint64_t repeats, double cpr, uint64_t bytes,
                        const Loc& loc);
uint64_t repeatsFor(uint64_t bytes, const DeviceProfile& p);
// Stores a reduction's result in the register the scalar unit reads back: the ReduceSum
// accumulator (GetAccVal) or the max/min value and index (GetReduceMaxMinCount). The value is
// kept as T's raw bits, the index as an integer, as the hardware writes them.
void recordReduceRegister(CoreContext& c, bool accumulator, DType t, double value, uint32_t index, uint64_t done);

} // namespace sage::npu
