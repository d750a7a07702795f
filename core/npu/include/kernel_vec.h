// Vector instructions (run on PIPE_V): binary, tensor-scalar, unary, Duplicate, in the "count"
// form and the "mask + repeat" form. Data-type support follows the 910B docs; an unsupported
// type is a compile-time error that says what to do.
#pragma once

#include "kernel_tensor.h"

#include <type_traits>

namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    uint8_t blockNumber = 8;
    __aicore__ BinaryRepeatParams() = default;
    __aicore__ BinaryRepeatParams(uint8_t d, uint8_t s0, uint8_t s1, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(d), src0BlkStride(s0), src1BlkStride(s1), dstRepStride(dr), src0RepStride(s0r),
          src1RepStride(s1r) {}
};
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool halfBlock = false;
    __aicore__ UnaryRepeatParams() = default;
    __aicore__ UnaryRepeatParams(uint16_t d, uint16_t s, uint8_t dr, uint8_t sr)
        : dstBlkStride(d), srcBlkStride(s), dstRepStride(dr), srcRepStride(sr) {}
};
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t DEFAULT_C0_SIZE = 32;  // bytes of one block (C0 of the cube fractal row)

namespace detail {
template <typename T> constexpr bool isOneOf() { return false; }
template <typename T, typename U, typename... Rest> constexpr bool isOneOf() {
    return std::is_same_v<T, U> || isOneOf<T, Rest...>();
}
template <typename T> constexpr bool kFloat = isOneOf<T, half, float>();
template <typename T> constexpr bool kArith = isOneOf<T, half, float, int16_t, int32_t>();
template <typename T> constexpr bool kBits = isOneOf<T, half, float, int16_t, int32_t, uint16_t, uint32_t, bfloat16_t>();
template <typename T> constexpr bool kAnyVec =
    isOneOf<T, half, float, int16_t, int32_t, uint16_t, uint32_t, int8_t, uint8_t, bfloat16_t>() &&
    !(__NPU_ARCH__ == 2002 && std::is_same_v<T, bfloat16_t>);

inline ::sage::npu::RepeatForm binaryForm(const uint64_t mask[2], uint32_t repeat, const BinaryRepeatParams& p) {
    ::sage::npu::RepeatForm f;
    f.mask[0] = mask[0];
    f.mask[1] = mask[1];
    f.repeat = repeat;
    f.dstBlk = p.dstBlkStride; f.src0Blk = p.src0BlkStride; f.src1Blk = p.src1BlkStride;
    f.dstRep = p.dstRepStride; f.src0Rep = p.src0RepStride; f.src1Rep = p.src1RepStride;
    return f;
}
inline ::sage::npu::RepeatForm unaryForm(const uint64_t mask[2], uint32_t repeat, const UnaryRepeatParams& p) {
    ::sage::npu::RepeatForm f;
    f.mask[0] = mask[0];
    f.mask[1] = mask[1];
    f.repeat = repeat;
    f.dstBlk = p.dstBlkStride; f.src0Blk = p.srcBlkStride;
    f.dstRep = p.dstRepStride; f.src0Rep = p.srcRepStride;
    return f;
}
// A continuous mask of `n` elements as the two 64-bit mask words.
inline void contMask(uint64_t n, uint64_t out[2]) {
    out[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    out[1] = n >= 128 ? ~0ull : (n > 64 ? ((1ull << (n - 64)) - 1) : 0);
}
// The mask a repeat-form instruction uses. With isSetMask == false the kernel set the mask
// register itself (SetVectorMask) and passes MASK_PLACEHOLDER, so the register is used; in counter
// mode the runtime reads the register anyway.
template <typename T, bool isSetMask> inline void resolveMask(uint64_t m[2]) {
    if constexpr (!isSetMask) ::sage::npu::rt::vectorMask(m);
    if constexpr (sizeof(T) != 2) m[1] = 0;
}
// The scalar operand as the runtime receives it: converted to T first (as the hardware takes a
// T), then widened to double. Integers go straight to double: a float detour would lose every
// int32 value above 2^24.
template <typename T, typename U> inline double scalarArg(const U& s) {
    if constexpr (std::is_integral_v<T>) return double(static_cast<T>(s));
    else return double(static_cast<float>(static_cast<T>(s)));
}
} // namespace detail

#define SAGE_TYPE_CHECK(cond, api, types)                                                                    \
    static_assert(cond, api " does not support this data type on this device; it takes " types               \
                            ". For bfloat16_t, Cast to float first (Cast(dstFloat, src, RoundMode::CAST_NONE, n)).")

// Each instruction also has the exact AscendC signature without the trailing location, as a
// template with an empty parameter pack: a function pointer binds to it (foreach kernels pass
// `Div<T>` as a template argument), while a direct call prefers the overload that records the
// caller's line for diagnostics.
#define SAGE_PTR_FORM requires(sizeof...(D) == 0)

// ---- binary: dst = src0 op src1 --------------------------------------------------------------
#define SAGE_BINARY(Name, Cond, Types)                                                                      \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        ::sage::npu::rt::vecCount(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), \
                                  &src1.ref(), 0.0, count < 0 ? 0 : uint64_t(count), loc);                  \
    }                                                                                                       \
    template <typename T, bool isSetMask = true, typename... D>                                             \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count, D...) SAGE_PTR_FORM {                                 \
        Name<T, isSetMask>(dst, src0, src1, count, ::sage::npu::Loc::current());                            \
    }                                                                                                       \
    template <typename T, bool isSetMask = true, typename... D>                                             \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& p, D...)  \
        SAGE_PTR_FORM {                                                                                     \
        Name<T, isSetMask>(dst, src0, src1, mask, int32_t(repeatTime), p, ::sage::npu::Loc::current());     \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const uint64_t mask[], const int32_t repeatTime, const BinaryRepeatParams& p,  \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), \
                                   &src1.ref(), 0.0, detail::binaryForm(m, uint32_t(repeatTime), p),         \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }                                                                                                       \
    template <typename T, bool isSetMask = true, typename R = int32_t>                                      \
        requires std::is_integral_v<R>                                                                      \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const R repeatTime, const BinaryRepeatParams& p,              \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2];                                                                                      \
        detail::contMask(mask, m);                                                                          \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), \
                                   &src1.ref(), 0.0, detail::binaryForm(m, uint32_t(repeatTime), p),         \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }

SAGE_BINARY(Add, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_BINARY(Sub, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_BINARY(Mul, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_BINARY(Div, detail::kFloat<T>, "half, float")
SAGE_BINARY(Max, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_BINARY(Min, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_BINARY(And, (detail::isOneOf<T, int16_t, uint16_t>()), "int16_t, uint16_t")
SAGE_BINARY(Or, (detail::isOneOf<T, int16_t, uint16_t>()), "int16_t, uint16_t")
// AddRelu / SubRelu: max(src0 + src1, 0) and max(src0 - src1, 0) in one instruction.
SAGE_BINARY(AddRelu, (detail::isOneOf<T, half, float, int16_t>()), "half, float, int16_t")
SAGE_BINARY(SubRelu, (detail::isOneOf<T, half, float, int16_t>()), "half, float, int16_t")
#undef SAGE_BINARY

// ---- tensor-scalar: dst = src op scalar ------------------------------------------------------
#define SAGE_SCALAR(Name, Cond, Types)                                                                      \
    template <typename T, typename U = T, bool isSetMask = true>                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalar,       \
                                const int32_t& count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        ::sage::npu::rt::vecCount(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),   \
                                  nullptr, detail::scalarArg<T>(scalar),                                     \
                                  count < 0 ? 0 : uint64_t(count), loc);                                    \
    }                                                                                                       \
    template <typename T, typename U = T, bool isSetMask = true, typename... D>                             \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalar,       \
                                const int32_t& count, D...) SAGE_PTR_FORM {                                 \
        Name<T, U, isSetMask>(dst, src, scalar, count, ::sage::npu::Loc::current());                        \
    }                                                                                                       \
    template <typename T, typename U = T, bool isSetMask = true>                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalar,       \
                                uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& p,         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2];                                                                                      \
        detail::contMask(mask, m);                                                                          \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),  \
                                   nullptr, detail::scalarArg<T>(scalar),                                    \
                                   detail::unaryForm(m, uint32_t(repeatTime), p),                           \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }                                                                                                       \
    template <typename T, typename U = T, bool isSetMask = true>                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalar,       \
                                const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& p, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),  \
                                   nullptr, detail::scalarArg<T>(scalar),                                    \
                                   detail::unaryForm(m, uint32_t(repeatTime), p),                           \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }                                                                                                       \
    /* AscendC's own template list <T, isSetMask>: Name<float, false>(...) in the repeat forms. */          \
    template <typename T, bool isSetMask>                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,       \
                                uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& p,         \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        Name<T, T, isSetMask>(dst, src, scalar, mask, repeatTime, p, loc);                                  \
    }                                                                                                       \
    template <typename T, bool isSetMask>                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,       \
                                const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& p, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        Name<T, T, isSetMask>(dst, src, scalar, mask, repeatTime, p, loc);                                  \
    }

SAGE_SCALAR(Adds, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_SCALAR(Muls, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_SCALAR(Maxs, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_SCALAR(Mins, detail::kArith<T>, "half, float, int16_t, int32_t")
SAGE_SCALAR(LeakyRelu, detail::kFloat<T>, "half, float")
SAGE_SCALAR(ShiftLeft, (detail::isOneOf<T, int16_t, uint16_t, int32_t, uint32_t>()), "16/32-bit integers")
SAGE_SCALAR(ShiftRight, (detail::isOneOf<T, int16_t, uint16_t, int32_t, uint32_t>()), "16/32-bit integers")
#undef SAGE_SCALAR

// ---- unary: dst = f(src) ---------------------------------------------------------------------
#define SAGE_UNARY(Name, Cond, Types)                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,  \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        ::sage::npu::rt::vecCount(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),   \
                                  nullptr, 0.0, count < 0 ? 0 : uint64_t(count), loc);                      \
    }                                                                                                       \
    template <typename T, bool isSetMask = true, typename... D>                                             \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,  \
                                D...) SAGE_PTR_FORM {                                                        \
        Name<T, isSetMask>(dst, src, count, ::sage::npu::Loc::current());                                   \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,         \
                                const int32_t repeatTime, const UnaryRepeatParams& p,                       \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2];                                                                                      \
        detail::contMask(mask, m);                                                                          \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),  \
                                   nullptr, 0.0, detail::unaryForm(m, uint32_t(repeatTime), p),             \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
                                const int32_t repeatTime, const UnaryRepeatParams& p,                       \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Cond, #Name, Types);                                                                \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),  \
                                   nullptr, 0.0, detail::unaryForm(m, uint32_t(repeatTime), p),             \
                                   ::sage::npu::rt::maskCounter(), loc);                                    \
    }

SAGE_UNARY(Exp, detail::kFloat<T>, "half, float")
SAGE_UNARY(Ln, detail::kFloat<T>, "half, float")
SAGE_UNARY(Abs, detail::kFloat<T>, "half, float")
SAGE_UNARY(Relu, (detail::isOneOf<T, half, float, int32_t>()), "half, float, int32_t")
SAGE_UNARY(Sqrt, detail::kFloat<T>, "half, float")
SAGE_UNARY(Rsqrt, detail::kFloat<T>, "half, float")
SAGE_UNARY(Reciprocal, detail::kFloat<T>, "half, float")
SAGE_UNARY(Not, (detail::isOneOf<T, int16_t, uint16_t>()), "int16_t, uint16_t")
SAGE_UNARY(Neg, (detail::isOneOf<T, half, float, int16_t, int32_t>()), "half, float, int16_t, int32_t")
#undef SAGE_UNARY

// Advanced API (high-level library): composite activations. The optional shared temporary
// buffer is accepted for compatibility; the simulator needs none. The macro stays defined:
// kernel_vec_math.h declares the math library (Sin, Erf, ...) with it.
#define SAGE_LIBRARY_UNARY(Name)                                                                            \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,  \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        ::sage::npu::rt::vecCount(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),   \
                                  nullptr, 0.0, count, loc);                                                \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, typename... D>                                        \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,  \
                                D...) SAGE_PTR_FORM {                                                        \
        Name<T, isReuseSource>(dst, src, count, ::sage::npu::Loc::current());                               \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,           \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        (void)sharedTmpBuffer;                                                                              \
        Name<T, isReuseSource>(dst, src, count, loc);                                                       \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                const LocalTensor<uint8_t>& sharedTmpBuffer,                                 \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        (void)sharedTmpBuffer;                                                                              \
        Name<T, isReuseSource>(dst, src, src.GetSize(), loc);                                               \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        Name<T, isReuseSource>(dst, src, src.GetSize(), loc);                                               \
    }
SAGE_LIBRARY_UNARY(Sigmoid)
SAGE_LIBRARY_UNARY(Tanh)
SAGE_LIBRARY_UNARY(Gelu)
SAGE_LIBRARY_UNARY(Silu)
SAGE_LIBRARY_UNARY(Softplus)

// FasterGelu / FasterGeluV2 (activation library): the same forms, with the precision and
// performance switches as template parameters (the simulator computes in float either way).
#define SAGE_FAST_GELU(Name)                                                                                \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                          \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dataSize, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        ::sage::npu::rt::vecCount(::sage::npu::VecOp::Name, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),   \
                                  nullptr, 0.0, dataSize, loc);                                             \
    }                                                                                                       \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                          \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,        \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        (void)sharedTmpBuffer;                                                                              \
        Name<T, highPrecision, highPerformance>(dst, src, dataSize, loc);                                   \
    }
SAGE_FAST_GELU(FasterGelu)
SAGE_FAST_GELU(FasterGeluV2)
#undef SAGE_FAST_GELU

// Log (advanced API) is Ln; the shared temporary buffer is accepted and not used.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Ln(dst, src, int32_t(count), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Ln(dst, src, int32_t(src.GetSize()), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Ln(dst, src, int32_t(count), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Ln(dst, src, int32_t(src.GetSize()), loc);
}
template <typename T, typename... D>
__aicore__ inline void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                           D...) SAGE_PTR_FORM {
    Ln(dst, src, int32_t(count), ::sage::npu::Loc::current());
}

// Exp of the math library: the Taylor expansion level is the device's precision switch; the
// simulator computes exp exactly, so it does not change the result.
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Exp(dst, src, int32_t(count), loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Exp(dst, src, int32_t(count), loc);
}

// ---- Duplicate: fill with a scalar ----------------------------------------------------------
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalar, const int32_t& count,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kBits<T>, "Duplicate", "16- and 32-bit types");
    double v;
    if constexpr (std::is_integral_v<T>) v = double(scalar); else v = double(static_cast<float>(scalar));
    ::sage::npu::rt::vecCount(::sage::npu::VecOp::Duplicate, ::sage::npu::dtypeOf<T>, dst.ref(), dst.ref(), nullptr,
                              v, count < 0 ? 0 : uint64_t(count), loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalar, uint64_t mask, const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kBits<T>, "Duplicate", "16- and 32-bit types");
    uint64_t m[2];
    detail::contMask(mask, m);
    detail::resolveMask<T, isSetMask>(m);
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    double v;
    if constexpr (std::is_integral_v<T>) v = double(scalar); else v = double(static_cast<float>(scalar));
    ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Duplicate, ::sage::npu::dtypeOf<T>, dst.ref(), dst.ref(), nullptr,
                               v, detail::unaryForm(m, repeatTime, p), ::sage::npu::rt::maskCounter(), loc);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalar, const uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kBits<T>, "Duplicate", "16- and 32-bit types");
    uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};
    detail::resolveMask<T, isSetMask>(m);
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    double v;
    if constexpr (std::is_integral_v<T>) v = double(scalar); else v = double(static_cast<float>(scalar));
    ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Duplicate, ::sage::npu::dtypeOf<T>, dst.ref(), dst.ref(), nullptr,
                               v, detail::unaryForm(m, repeatTime, p), ::sage::npu::rt::maskCounter(), loc);
}

// ---- mask control ----------------------------------------------------------------------------
__aicore__ inline void SetMaskCount() { ::sage::npu::rt::setMaskCounter(true); }
__aicore__ inline void SetMaskNorm() { ::sage::npu::rt::setMaskCounter(false); }
template <typename T, int mode = 0> __aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    ::sage::npu::rt::setVectorMask(maskHigh, maskLow);
}
// A length: in counter mode the count itself, in normal mode the first `len` elements.
template <typename T, int mode = 0> __aicore__ inline void SetVectorMask(int32_t len) {
    if (::sage::npu::rt::maskCounter()) return ::sage::npu::rt::setVectorMask(0, uint64_t(len < 0 ? 0 : len));
    uint64_t m[2];
    detail::contMask(uint64_t(len), m);
    ::sage::npu::rt::setVectorMask(m[1], m[0]);
}
__aicore__ inline void ResetMask() { ::sage::npu::rt::setVectorMask(~0ull, ~0ull); }

} // namespace AscendC

// The CCE intrinsic spellings of the mask set-up used by older kernels.
inline void set_mask_norm() { ::sage::npu::rt::setMaskCounter(false); }
inline void set_mask_count() { ::sage::npu::rt::setMaskCounter(true); }
inline void set_vector_mask(uint64_t hi, uint64_t lo) { ::sage::npu::rt::setVectorMask(hi, lo); }
