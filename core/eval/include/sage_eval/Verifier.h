// Compares a kernel's output with the reference (computed in double, then cast to the output
// dtype by the caller: `expected` holds the values as the dtype stores them).
// An element fails only when its absolute error exceeds atol AND its relative error exceeds
// rtol; NaN/Inf where the reference is finite fails; an all-zero or constant output where the
// reference is not fails (the trivial-output guard).
#pragma once

#include "sage_eval/Evaluation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::eval {

OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const std::vector<double>& expected, const std::vector<double>& actual, double atol,
                         double rtol);

// The same check on raw little-endian tensors of `dtype` (as the runner writes them and the
// reference cache stores them), compared in place in one pass: no decoded copies. Gives exactly
// the result of decoding both to double and calling the overload above.
OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const uint8_t* expected, size_t expectedBytes, const uint8_t* actual, size_t actualBytes,
                         double atol, double rtol);

} // namespace sage::eval
