// Converts tensor data between its stored dtype and double: float16/bfloat16 round to nearest
// even, float32 rounds as a float, integers round to nearest and saturate. The one place that
// knows how each dtype is laid out in memory; the runner and the evaluator both use it.
#pragma once

#include "kernel_types.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace sage::toolchain {

// Calls f with a value of the storage type of `dtype` (half, bfloat16_t, float, int32_t, ...),
// resolved once per tensor. Throws std::invalid_argument for an unknown dtype name.
template <typename F> void withStorageType(const std::string& dtype, F&& f) {
    if (dtype == "float16") f(half{});
    else if (dtype == "bfloat16") f(bfloat16_t{});
    else if (dtype == "float32") f(float{});
    else if (dtype == "int32") f(int32_t{});
    else if (dtype == "int64") f(int64_t{});
    else if (dtype == "int16") f(int16_t{});
    else if (dtype == "int8") f(int8_t{});
    else if (dtype == "uint8" || dtype == "bool") f(uint8_t{});  // bool: one byte, 0 or 1, as PyTorch stores it
    else throw std::invalid_argument("unknown dtype '" + dtype + "' (float16, bfloat16, float32, int32, int64, int16, int8, uint8, bool)");
}

// One stored element as double, exactly as decodeTensor converts it.
template <typename T> double storedToDouble(T v) {
    if constexpr (std::is_integral_v<T>) return double(v);
    else return double(static_cast<float>(v));
}

// Throws std::invalid_argument for an unknown dtype name.
void encodeTensor(const std::string& dtype, const double* values, uint64_t n, uint8_t* out);
void decodeTensor(const std::string& dtype, const uint8_t* bytes, uint64_t n, double* out);
std::vector<uint8_t> encodeTensor(const std::string& dtype, const std::vector<double>& values);
std::vector<double> decodeTensor(const std::string& dtype, const std::vector<uint8_t>& bytes);

} // namespace sage::toolchain
