// Compares a kernel's output with the reference (computed in double, then cast to the output
// dtype by the caller: `expected` holds the values as the dtype stores them).
// An element fails only when its absolute error exceeds atol AND its relative error exceeds
// rtol; NaN/Inf where the reference is finite fails; an all-zero or constant output where the
// reference is not fails (the trivial-output guard).
#pragma once

#include "sage_eval/Evaluation.h"

#include <string>
#include <vector>

namespace sage::eval {

OutputCheck verifyOutput(const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape,
                         const std::vector<double>& expected, const std::vector<double>& actual, double atol,
                         double rtol);

} // namespace sage::eval
