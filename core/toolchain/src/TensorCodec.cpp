#include "sage_toolchain/TensorCodec.h"

#include "kernel_types.h"
#include "sage_toolchain/RunJob.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace sage::toolchain {
namespace {

template <typename I> I saturate(double v) {
    if (std::isnan(v)) return 0;
    double r = std::nearbyint(v);
    r = std::clamp(r, double(std::numeric_limits<I>::lowest()), double(std::numeric_limits<I>::max()));
    return static_cast<I>(r);
}

// Calls f with a tag for the storage type of `dtype`; resolved once per tensor.
template <typename F> void withType(const std::string& dtype, F&& f) {
    if (dtype == "float16") f(half{});
    else if (dtype == "bfloat16") f(bfloat16_t{});
    else if (dtype == "float32") f(float{});
    else if (dtype == "int32") f(int32_t{});
    else if (dtype == "int16") f(int16_t{});
    else if (dtype == "int8") f(int8_t{});
    else if (dtype == "uint8") f(uint8_t{});
    else throw std::invalid_argument("unknown dtype '" + dtype + "' (float16, bfloat16, float32, int32, int8)");
}

} // namespace

void encodeTensor(const std::string& dtype, const double* values, uint64_t n, uint8_t* out) {
    withType(dtype, [&](auto tag) {
        using T = decltype(tag);
        for (uint64_t i = 0; i < n; ++i) {
            T v;
            if constexpr (std::is_integral_v<T>) v = saturate<T>(values[i]);
            else v = T(static_cast<float>(values[i]));
            std::memcpy(out + i * sizeof(T), &v, sizeof(T));
        }
    });
}

void decodeTensor(const std::string& dtype, const uint8_t* bytes, uint64_t n, double* out) {
    withType(dtype, [&](auto tag) {
        using T = decltype(tag);
        for (uint64_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
            if constexpr (std::is_integral_v<T>) out[i] = double(v);
            else out[i] = double(static_cast<float>(v));
        }
    });
}

std::vector<uint8_t> encodeTensor(const std::string& dtype, const std::vector<double>& values) {
    std::vector<uint8_t> out(values.size() * dtypeBytes(dtype));
    encodeTensor(dtype, values.data(), values.size(), out.data());
    return out;
}

std::vector<double> decodeTensor(const std::string& dtype, const std::vector<uint8_t>& bytes) {
    uint32_t es = dtypeBytes(dtype);
    std::vector<double> out(es ? bytes.size() / es : 0);
    decodeTensor(dtype, bytes.data(), out.size(), out.data());
    return out;
}

} // namespace sage::toolchain
