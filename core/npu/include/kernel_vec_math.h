// The math functions of the AscendC high-level library (lib/math/*_intf.h): Sin, Cos, Tan, Asin,
// Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Erfc, Sign, Log2, Log10, Floor, Ceil, Round,
// Trunc and Power. On the device each is a polynomial sequence of vector instructions working
// through a shared temporary buffer; the simulator computes the function in float (rounded to T
// once) and charges the composite cost on PIPE_V. The temporary buffer is accepted and not used.
#pragma once

#include "kernel_vec.h"

#include <type_traits>

namespace AscendC {

// The library's forms (kernel_vec.h).
#define SAGE_MATH_UNARY(Name) SAGE_LIBRARY_UNARY(Name)
SAGE_MATH_UNARY(Sin)
SAGE_MATH_UNARY(Cos)
SAGE_MATH_UNARY(Tan)
SAGE_MATH_UNARY(Asin)
SAGE_MATH_UNARY(Acos)
SAGE_MATH_UNARY(Atan)
SAGE_MATH_UNARY(Sinh)
SAGE_MATH_UNARY(Cosh)
SAGE_MATH_UNARY(Erf)
SAGE_MATH_UNARY(Erfc)
SAGE_MATH_UNARY(Sign)
SAGE_MATH_UNARY(Log2)
SAGE_MATH_UNARY(Log10)
SAGE_MATH_UNARY(Floor)
SAGE_MATH_UNARY(Ceil)
SAGE_MATH_UNARY(Round)
SAGE_MATH_UNARY(Trunc)
SAGE_MATH_UNARY(Asinh)
SAGE_MATH_UNARY(Acosh)
SAGE_MATH_UNARY(Atanh)
#undef SAGE_MATH_UNARY

// Power: tensor ^ tensor, tensor ^ scalar and scalar ^ tensor, each with an optional shared
// temporary buffer and an optional count. The configuration chooses the device's algorithm (the
// intrinsic, or a double-float technique for precision); the simulator computes pow exactly, so
// it does not change the result.
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH = 1 };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& base, const LocalTensor<T>& exponent,
                             const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Power", "half, float");
    ::sage::npu::rt::vecCount(::sage::npu::VecOp::Pow, ::sage::npu::dtypeOf<T>, dst.ref(), base.ref(),
                              &exponent.ref(), 0.0, count, loc);
}
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& base, const std::type_identity_t<T>& exponent,
                             const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Power", "half, float");
    ::sage::npu::rt::vecCount(::sage::npu::VecOp::Pows, ::sage::npu::dtypeOf<T>, dst.ref(), base.ref(), nullptr,
                              detail::scalarArg<T>(exponent), count, loc);
}
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}>
__aicore__ inline void Power(const LocalTensor<T>& dst, const std::type_identity_t<T>& base, const LocalTensor<T>& exponent,
                             const uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Power", "half, float");
    ::sage::npu::rt::vecCount(::sage::npu::VecOp::RPows, ::sage::npu::dtypeOf<T>, dst.ref(), exponent.ref(),
                              nullptr, detail::scalarArg<T>(base), count, loc);
}
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}, typename B, typename E>
__aicore__ inline void Power(const LocalTensor<T>& dst, const B& base, const E& exponent,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                             ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Power<T, isReuseSource, config>(dst, base, exponent, count, loc);
}
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}, typename B, typename E>
__aicore__ inline void Power(const LocalTensor<T>& dst, const B& base, const E& exponent,
                             const LocalTensor<uint8_t>& sharedTmpBuffer,
                             ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Power<T, isReuseSource, config>(dst, base, exponent, dst.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, PowerConfig config = PowerConfig{}, typename B, typename E>
__aicore__ inline void Power(const LocalTensor<T>& dst, const B& base, const E& exponent,
                             ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Power<T, isReuseSource, config>(dst, base, exponent, dst.GetSize(), loc);
}

} // namespace AscendC
