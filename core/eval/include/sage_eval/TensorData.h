// Task inputs: seeded generation, quantisation to the tensor's dtype, and decoding to double.
#pragma once

#include "sage_eval/Task.h"

#include <cstdint>
#include <vector>

namespace sage::eval {

// Deterministic for (task, case, seed, tensor): the same inputs on every machine and run.
std::vector<uint8_t> generateInput(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t);
std::vector<double> decode(const std::string& dtype, const std::vector<uint8_t>& bytes);

} // namespace sage::eval
