// Helpers shared by the vector instruction files: issuing an instruction on PIPE_V with its
// repeat count, and the repeats a byte count takes.
#pragma once

#include "SimImpl.h"

#include <vector>

namespace sage::npu {

IssueResult issueVector(Simulation::Impl& s, const char* name, uint64_t repeats, double cpr, uint64_t bytes,
                        const Loc& loc);
uint64_t repeatsFor(uint64_t bytes, const DeviceProfile& p);
// Reports an address_overlap when dst and src share some but not all of their `bytes` (the
// hardware allows an exact alias, never a partial one).
void checkOverlap(Simulation::Impl& s, const LocalRef& dst, const LocalRef& src, uint64_t bytes, const char* api,
                  const Loc& loc);
// Cycles one repeat of the element-wise vector op `op` on type `t` occupies PIPE_V.
double cyclesPerRepeat(const DeviceProfile& p, VecOp op, DType t);

// Byte offsets of the elements one repeat-form instruction touches, per operand, and each
// element's lane (repeat * perRepeat + position in the repeat; the bit a mask operand uses).
struct RepeatLayout {
    std::vector<uint32_t> dst, s0, s1, lane;
    uint32_t repeats = 0;
};
// Operands may have different element sizes (Cast, Compare's bit output): strides count 32-byte
// blocks of each operand; `perRepeat` is the elements one repeat processes.
RepeatLayout layoutFor(const CoreContext& c, uint32_t esDst, uint32_t esS0, uint32_t esS1, uint32_t perRepeat,
                       const RepeatForm& f, bool counter);
RepeatLayout layoutFor(const CoreContext& c, DType t, const RepeatForm& f, bool counter);
uint32_t span(const std::vector<uint32_t>& offs, uint32_t es);
// A repeat-form instruction's repeatTime is an 8-bit field: more is a fatal repeat_exceeds_255
// whose message ends with `remedy` (not checked in counter mode, where the count is an element count).
void checkRepeatTime(Simulation::Impl& s, const char* name, uint32_t repeat, bool counter, const Loc& loc,
                     const char* remedy = "Split the work into several calls of at most 255 repeats, or use the "
                                          "count form.");
// Stores a reduction's result in the register the scalar unit reads back: the ReduceSum
// accumulator (GetAccVal) or the max/min value and index (GetReduceMaxMinCount). The value is
// kept as T's raw bits, the index as an integer, as the hardware writes them.
void recordReduceRegister(CoreContext& c, bool accumulator, DType t, double value, uint32_t index, uint64_t done);

} // namespace sage::npu
