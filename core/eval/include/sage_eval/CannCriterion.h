// CANN Bench's pass criterion, as its evaluator defines it (docs/cann-bench.md cites the source),
// on raw little-endian tensors:
//
//   floating outputs: with g the oracle cast to the output dtype, per element
//     rel = |actual - g| / (|g| + 1e-7)          (NaN positions must agree; matching infinities are
//     MERE = mean(rel), MARE = max(rel)           skipped; an infinity on one side only is replaced
//     pass when MERE < T and MARE < 10 T          by the dtype's largest finite value)
//   otherwise three regions are judged against the same-precision reference c (the golden run in
//   the output's own dtype, or g where torch had no such kernel), each passing when the kernel has
//   at most twice as many bad elements as c (a region where c has none must have none):
//     small values    |g| < S(dtype):                bad when |actual - g| > E(dtype)
//     cancellation    |actual| < Z(dtype), S <= |g| < B(dtype):  bad when rel > 10 T
//     normal          the rest:                      bad when rel > 10 T
//   so an output whose every element is within 10 T passes even when its MERE is not below T.
//   integer and bool outputs: |actual - g| <= T everywhere (T = 0: exact); a floating output with
//   T = 0: bit-exact.
//   index outputs (proto `index_gather`): every index is in range and points at the slice's
//   maximum (value_reduce amax/amin) or at the value output's element (value_output).
#pragma once

#include "sage_eval/Evaluation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::eval {

struct RawTensor {
    const uint8_t* data = nullptr;
    uint64_t bytes = 0;
    std::string dtype;
    std::vector<int64_t> shape;
};

// `native` may have no data (then the oracle stands in for it, as in CANN Bench).
OutputCheck judgeCannOutput(const std::string& name, const RawTensor& actual, const RawTensor& golden,
                            const RawTensor& native, double threshold);

// The index check: `indices` (any integer dtype) must point, along `dim`, at the maximum
// (reduce "amax") or minimum ("amin") of each slice of `input`, or, when `values` has data, at the
// element `values` holds. `keepdim`: the indices keep the reduced axis (value_reduce form only).
OutputCheck judgeIndexOutput(const std::string& name, const RawTensor& indices, const RawTensor& input, int64_t dim,
                             const std::string& reduce, bool keepdim, const RawTensor& values);

// The small-value bound S, its error E, the cancellation bound B and the near-zero bound Z per dtype.
struct CannRegionBounds {
    double smallValue, smallValueError, cancelBoundary, cancelZero;
};
CannRegionBounds cannRegionBounds(const std::string& dtype);

} // namespace sage::eval
