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

} // namespace

void encodeTensor(const std::string& dtype, const double* values, uint64_t n, uint8_t* out) {
    withStorageType(dtype, [&](auto tag) {
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
    withStorageType(dtype, [&](auto tag) {
        using T = decltype(tag);
        for (uint64_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
            out[i] = storedToDouble(v);
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
