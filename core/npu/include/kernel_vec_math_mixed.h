// The math and activation library functions whose operands are not all one tensor type: Fma,
// Clamp (tensor or scalar bounds), ClampMin, ClampMax, Where, Fmod, Frac, Rint, IsFinite, Swish,
// SwiGLU, GeGLU, BitwiseAnd, Xor and LogicalAnd, plus Arange. Each accepts the library's forms
// (with or without the shared temporary buffer, with or without a count: without one, the first
// source's size). The simulator computes each element in double and rounds it once to the
// destination type; the cost is one composite sequence on PIPE_V (rt::vecLibrary).
#pragma once

#include "kernel_vec.h"

#include <type_traits>

namespace AscendC {
namespace detail {

template <typename T> ::sage::npu::LibOperand libOperand(const LocalTensor<T>& t) {
    return {&t.ref(), ::sage::npu::dtypeOf<T>, 0.0};
}
// A tensor, or a scalar taking the type of the tensor it stands next to (`Like`).
template <typename Like, typename V> ::sage::npu::LibOperand libOperandLike(const V& v) {
    if constexpr (requires { v.ref(); }) return libOperand(v);
    else return {nullptr, ::sage::npu::dtypeOf<Like>, scalarArg<Like>(v)};
}
template <typename D>
void libCall(::sage::npu::LibOp op, const LocalTensor<D>& dst, std::initializer_list<::sage::npu::LibOperand> ops,
             uint32_t count, ::sage::npu::Loc loc, double beta = 0.0) {
    ::sage::npu::rt::vecLibrary(op, ::sage::npu::dtypeOf<D>, dst.ref(), ops.begin(), int(ops.size()), beta, count, loc);
}

} // namespace detail

// ---- one or two sources: Frac, Rint, IsFinite; Fmod, Xor, BitwiseAnd, LogicalAnd, GeGLU -------
// Each: (dst, src…, count), (dst, src…, sharedTmpBuffer, count), (dst, src…, sharedTmpBuffer),
// (dst, src…). `Types` is what the sources may be. Fmod's third template parameter chooses the
// device's algorithm and its iteration bound (11 at most); the simulator computes fmod exactly, so
// it does not change the result.
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
namespace detail {
template <typename T> constexpr bool kInt32OrLess = std::is_integral_v<T> && sizeof(T) <= 4;
template <typename T> constexpr bool kAnyType = true;
} // namespace detail

#define SAGE_MIXED_FORMS(Name, Op, Types, TypeNames, Params, Args, Operands, First, ...)                    \
    template <typename T, bool isReuseSource = false __VA_OPT__(, ) __VA_ARGS__, typename D>                               \
    __aicore__ inline void Name(const LocalTensor<D>& dst, Params, const uint32_t count,                    \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(Types<T>, #Name, TypeNames);                                                        \
        detail::libCall(::sage::npu::LibOp::Op, dst, Operands, count, loc);                                 \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false __VA_OPT__(, ) __VA_ARGS__, typename D>                               \
    __aicore__ inline void Name(const LocalTensor<D>& dst, Params, const LocalTensor<uint8_t>& sharedTmpBuffer, \
                                const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        (void)sharedTmpBuffer;                                                                              \
        Name<T, isReuseSource>(dst, Args, count, loc);                                                      \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false __VA_OPT__(, ) __VA_ARGS__, typename D>                               \
    __aicore__ inline void Name(const LocalTensor<D>& dst, Params, const LocalTensor<uint8_t>& sharedTmpBuffer, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        (void)sharedTmpBuffer;                                                                              \
        Name<T, isReuseSource>(dst, Args, uint32_t(First.GetSize()), loc);                                  \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false __VA_OPT__(, ) __VA_ARGS__, typename D>                               \
    __aicore__ inline void Name(const LocalTensor<D>& dst, Params,                                          \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        Name<T, isReuseSource>(dst, Args, uint32_t(First.GetSize()), loc);                                  \
    }
#define SAGE_COMMA ,
#define SAGE_MIXED_UNARY(Name, Op, Types, TypeNames)                                                        \
    SAGE_MIXED_FORMS(Name, Op, Types, TypeNames, const LocalTensor<T>& src, src, {detail::libOperand(src)}, src)
#define SAGE_MIXED_BINARY(Name, Op, Types, TypeNames, ...)                                                  \
    SAGE_MIXED_FORMS(Name, Op, Types, TypeNames, const LocalTensor<T>& src0 SAGE_COMMA const LocalTensor<T>& src1, \
                     src0 SAGE_COMMA src1, {detail::libOperand(src0) SAGE_COMMA detail::libOperand(src1)}, src0 __VA_OPT__(, ) __VA_ARGS__)
SAGE_MIXED_UNARY(Frac, Frac, detail::kFloat, "half, float")
SAGE_MIXED_UNARY(Rint, Rint, detail::kFloat, "half, float")
SAGE_MIXED_UNARY(IsFinite, IsFinite, detail::kFloat, "half, float")
SAGE_MIXED_BINARY(Fmod, Fmod, detail::kFloat, "half, float", FmodConfig config = FmodConfig{})
SAGE_MIXED_BINARY(Xor, BitwiseXor, detail::kInt32OrLess, "integer types up to 32 bits")
SAGE_MIXED_BINARY(BitwiseAnd, BitwiseAnd, detail::kInt32OrLess, "integer types up to 32 bits")
SAGE_MIXED_BINARY(LogicalAnd, LogicalAnd, detail::kAnyType, "any type")
SAGE_MIXED_BINARY(GeGLU, GeGLU, detail::kFloat, "half, float")
#undef SAGE_MIXED_BINARY
#undef SAGE_MIXED_UNARY
#undef SAGE_COMMA
#undef SAGE_MIXED_FORMS

// ---- Fma: dst = src0 * src1 + src2 ------------------------------------------------------------
template <typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Fma", "half, float");
    detail::libCall(::sage::npu::LibOp::Fma, dst,
                    {detail::libOperand(src0), detail::libOperand(src1), detail::libOperand(src2)}, count, loc);
}
template <typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Fma(dst, src0, src1, src2, count, loc);
}

// ---- Clamp: each bound a tensor or a scalar; ClampMin / ClampMax: one scalar bound -----------
template <typename T, typename Lo, typename Hi>
__aicore__ inline void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Lo& low, const Hi& high,
                             const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Clamp", "half, float");
    detail::libCall(::sage::npu::LibOp::Clamp, dst,
                    {detail::libOperand(src), detail::libOperandLike<T>(low), detail::libOperandLike<T>(high)}, count,
                    loc);
}
// ClampMin is Maxs and ClampMax is Mins, with the library's optional temporary buffer.
#define SAGE_CLAMP_ONE_SIDE(Name, Instruction)                                                             \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar,        \
                                const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        Instruction(dst, src, scalar, int32_t(count), loc);                                                 \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false>                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,                \
                                const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) { \
        (void)sharedTmpBuffer;                                                                              \
        Instruction(dst, src, scalar, int32_t(count), loc);                                                 \
    }
SAGE_CLAMP_ONE_SIDE(ClampMin, Maxs)
SAGE_CLAMP_ONE_SIDE(ClampMax, Mins)
#undef SAGE_CLAMP_ONE_SIDE

// ---- Where: dst = condition ? src0 : src1, each source a tensor or a scalar --------------------
template <typename T, typename S0, typename S1, typename C>
__aicore__ inline void Where(const LocalTensor<T>& dst, const S0& src0, const S1& src1, const LocalTensor<C>& condition,
                             const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::libCall(::sage::npu::LibOp::Where, dst,
                    {detail::libOperandLike<T>(src0), detail::libOperandLike<T>(src1), detail::libOperand(condition)},
                    count, loc);
}

// ---- Swish x * sigmoid(beta x) and SwiGLU src0 * swish(src1) ---------------------------------
template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dataSize,
                             const T scalarValue, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Swish", "half, float");
    detail::libCall(::sage::npu::LibOp::Swish, dst, {detail::libOperand(src)}, dataSize, loc,
                    detail::scalarArg<T>(scalarValue));
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const float beta, const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "SwiGLU", "half, float");
    detail::libCall(::sage::npu::LibOp::SwiGLU, dst, {detail::libOperand(src0), detail::libOperand(src1)}, count, loc,
                    beta);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const float beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    SwiGLU<T, isReuseSource>(dst, src0, src1, beta, count, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const float beta, const LocalTensor<uint8_t>& sharedTmpBuffer,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    SwiGLU<T, isReuseSource>(dst, src0, src1, beta, src0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const float beta, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SwiGLU<T, isReuseSource>(dst, src0, src1, beta, src0.GetSize(), loc);
}

// ---- Arange: dst[i] = first + i * diff --------------------------------------------------------
template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T first, const T diff, const uint32_t count,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::vecIndexFill(::sage::npu::dtypeOf<T>, dst.ref(), detail::scalarArg<T>(first),
                                  detail::scalarArg<T>(diff), count, loc);
}

} // namespace AscendC
