// Compare (to a bit mask) and Select (by a bit mask), PIPE_V.
#pragma once

#include "kernel_vec.h"

namespace AscendC {

enum class CMPMODE : int { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : int { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE = 1, VSEL_TENSOR_TENSOR_MODE = 2 };

// dst holds one bit per element (bit i of byte i/8), as the hardware writes it.
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int32_t>()), "Compare", "half, float, int32_t");
    ::sage::npu::rt::vecCompare(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), &src1.ref(), 0.0,
                                static_cast<int>(mode), count, loc);
}
template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                     CMPMODE mode, uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int32_t>()), "CompareScalar", "half, float, int32_t");
    double v;
    if constexpr (std::is_integral_v<T>) v = double(src1Scalar); else v = double(static_cast<float>(src1Scalar));
    ::sage::npu::rt::vecCompare(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), nullptr, v, static_cast<int>(mode),
                                count, loc);
}
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE mode,
                                uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    CompareScalar(dst, src0, src1Scalar, mode, count, loc);
}

// dst[i] = bit i of selMask ? src0[i] : src1[i] (or the scalar).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, uint32_t count,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Select", "half, float");
    ::sage::npu::rt::vecSelect(::sage::npu::dtypeOf<T>, dst.ref(), selMask.ref(), src0.ref(), &src1.ref(), 0.0,
                               static_cast<int>(mode), count, loc);
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE mode, uint32_t count, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Select", "half, float");
    ::sage::npu::rt::vecSelect(::sage::npu::dtypeOf<T>, dst.ref(), selMask.ref(), src0.ref(), nullptr,
                               double(static_cast<float>(src1)), static_cast<int>(mode), count, loc);
}

} // namespace AscendC
