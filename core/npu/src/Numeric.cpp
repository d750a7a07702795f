// Conversion tables and data-type names.
#include "kernel_types.h"

#include <cmath>
#include <vector>

namespace sage::npu::numeric {

float halfBitsToFloatSlow(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0) {
        float v = std::ldexp(float(mant), -24);
        return sign ? -v : v;
    }
    if (exp == 31) return bitsFloat(sign | 0x7f800000u | (mant << 13));
    return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

namespace {
const float* buildTable() {
    static std::vector<float> table = [] {
        std::vector<float> t(65536);
        for (uint32_t i = 0; i < 65536; ++i) t[i] = halfBitsToFloatSlow(uint16_t(i));
        return t;
    }();
    return table.data();
}
} // namespace

const float* const kHalfToFloatTable = buildTable();

} // namespace sage::npu::numeric

namespace sage::npu {

const char* dtypeName(DType t) {
    static const char* names[] = {"float16", "bfloat16", "float32", "int32", "int16", "int8",
                                  "uint8",   "uint16",   "uint32",  "int64", "uint64"};
    return names[size_t(t)];
}

uint32_t dtypeSize(DType t) {
    static const uint32_t sizes[] = {2, 2, 4, 4, 2, 1, 1, 2, 4, 8, 8};
    return sizes[size_t(t)];
}

} // namespace sage::npu
