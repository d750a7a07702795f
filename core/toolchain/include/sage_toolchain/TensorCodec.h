// Converts tensor data between its stored dtype and double: float16/bfloat16 round to nearest
// even, float32 rounds as a float, integers round to nearest and saturate. The one place that
// knows how each dtype is laid out in memory; the runner and the evaluator both use it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sage::toolchain {

// Throws std::invalid_argument for an unknown dtype name.
void encodeTensor(const std::string& dtype, const double* values, uint64_t n, uint8_t* out);
void decodeTensor(const std::string& dtype, const uint8_t* bytes, uint64_t n, double* out);
std::vector<uint8_t> encodeTensor(const std::string& dtype, const std::vector<double>& values);
std::vector<double> decodeTensor(const std::string& dtype, const std::vector<uint8_t>& bytes);

} // namespace sage::toolchain
