// Scalar types of the kernel API: IEEE binary16 `half` and `bfloat16_t`, both with
// round-to-nearest-even conversion from float, plus AscendC's aliases.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace sage::npu::numeric {

// constexpr so that `constexpr half h = 1.0;` compiles, as it does with the device compiler.
constexpr uint32_t floatBits(float f) { return std::bit_cast<uint32_t>(f); }
constexpr float bitsFloat(uint32_t u) { return std::bit_cast<float>(u); }

// float -> binary16, round to nearest even; overflow to inf, NaN preserved (quiet).
constexpr uint16_t floatToHalfBits(float f) {
    uint32_t x = floatBits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520 -> inf
    if (absx < 0x38800000u) {  // result is subnormal or zero: scale so the FPU rounds for us
        float a = bitsFloat(absx) + 0.5f;  // 0.5 = 2^-1: ulp of half subnormals is 2^-24 -> shifts into mantissa
        return static_cast<uint16_t>(sign | (floatBits(a) - 0x3f000000u));
    }
    uint32_t mant_odd = (absx >> 13) & 1u;
    absx += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
    return static_cast<uint16_t>(sign | (absx >> 13));
}

float halfBitsToFloatSlow(uint16_t h);
extern const float* const kHalfToFloatTable;  // 65536 entries, filled by the runtime
inline float halfBitsToFloat(uint16_t h) { return kHalfToFloatTable[h]; }

// float -> bfloat16, round to nearest even, NaN kept quiet.
constexpr uint16_t floatToBf16Bits(float f) {
    uint32_t x = floatBits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}
inline float bf16BitsToFloat(uint16_t b) { return bitsFloat(static_cast<uint32_t>(b) << 16); }

} // namespace sage::npu::numeric

// IEEE binary16. Arithmetic is done in float and rounded back, which is exact-rounded for
// + - * / because float carries more than twice half's precision.
struct half {
    uint16_t bits = 0;
    constexpr half() = default;
    constexpr half(float f) : bits(sage::npu::numeric::floatToHalfBits(f)) {}
    constexpr half(double d) : half(static_cast<float>(d)) {}
    constexpr half(int i) : half(static_cast<float>(i)) {}
    constexpr half(int64_t i) : half(static_cast<float>(i)) {}
    constexpr half(uint32_t i) : half(static_cast<float>(i)) {}
    constexpr half(uint64_t i) : half(static_cast<float>(i)) {}
    static constexpr half fromBits(uint16_t b) { half h; h.bits = b; return h; }
    operator float() const { return sage::npu::numeric::halfBitsToFloat(bits); }
    half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
    half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
    half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
    half& operator/=(half o) { return *this = half(float(*this) / float(o)); }
    constexpr half operator-() const { return fromBits(static_cast<uint16_t>(bits ^ 0x8000u)); }
};
inline half operator+(half a, half b) { return half(float(a) + float(b)); }
inline half operator-(half a, half b) { return half(float(a) - float(b)); }
inline half operator*(half a, half b) { return half(float(a) * float(b)); }
inline half operator/(half a, half b) { return half(float(a) / float(b)); }

// bfloat16: the top 16 bits of a float.
struct bfloat16_t {
    uint16_t bits = 0;
    constexpr bfloat16_t() = default;
    constexpr bfloat16_t(float f) : bits(sage::npu::numeric::floatToBf16Bits(f)) {}
    constexpr bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
    constexpr bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
    static constexpr bfloat16_t fromBits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
    operator float() const { return sage::npu::numeric::bf16BitsToFloat(bits); }
};

// A 4-bit signed integer, two to a byte on the device. Op kernels name it in compile-time type
// checks (`if constexpr (IsSameType<T, int4b_t>::value)`) of their int4 configurations; the
// simulator has no 4-bit data path, so a tensor of it does not compile (no DTypeOf below).
struct int4b_t {
    uint8_t bits = 0;
};

using float16_t = half;
using float32_t = float;
using bfloat16 = bfloat16_t;

namespace sage::npu {

// Data types the runtime knows, used to erase T across the runtime boundary.
enum class DType : uint8_t { F16, BF16, F32, I32, I16, I8, U8, U16, U32, I64, U64 };

template <typename T> struct DTypeOf;
template <> struct DTypeOf<half> { static constexpr DType value = DType::F16; };
template <> struct DTypeOf<bfloat16_t> { static constexpr DType value = DType::BF16; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::F32; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::I32; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::I16; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::I8; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::U8; };
template <> struct DTypeOf<uint16_t> { static constexpr DType value = DType::U16; };
template <> struct DTypeOf<uint32_t> { static constexpr DType value = DType::U32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::I64; };
template <> struct DTypeOf<uint64_t> { static constexpr DType value = DType::U64; };
// bool tensors (LogicalAnd, Where conditions) are one byte, 0 or 1.
template <> struct DTypeOf<bool> { static constexpr DType value = DType::U8; };
template <typename T> inline constexpr DType dtypeOf = DTypeOf<T>::value;

const char* dtypeName(DType t);
uint32_t dtypeSize(DType t);

} // namespace sage::npu
