// The mask + repeat forms of Compare, CompareScalar, Select and Cast (PIPE_V): `mask` is a
// continuous count or the two 64-bit bit-mask words, repeatTime at most 255, strides in 32-byte
// blocks of each operand (BinaryRepeatParams / UnaryRepeatParams). Semantics: docs/kernel-api.md.
#pragma once

#include "kernel_vec_cast.h"
#include "kernel_vec_cmpsel.h"

namespace AscendC {
namespace detail {
template <typename T, bool isSetMask> inline void maskWords(uint64_t mask, uint64_t m[2]) {
    contMask(mask, m);
    resolveMask<T, isSetMask>(m);
}
template <typename T, bool isSetMask> inline void maskWords(const uint64_t mask[], uint64_t m[2]) {
    m[0] = mask[0];
    m[1] = sizeof(T) == 2 ? mask[1] : 0;
    resolveMask<T, isSetMask>(m);
}
template <typename T> inline double scalarOf(const T& v) {
    if constexpr (std::is_integral_v<T>) return double(v); else return double(static_cast<float>(v));
}
template <typename M> constexpr bool kMaskArg = std::is_integral_v<M> || std::is_same_v<M, const uint64_t*> ||
                                               std::is_same_v<M, uint64_t*>;
} // namespace detail

// Compare(dstMask, src0, src1, cmpMode, mask, repeatTime, BinaryRepeatParams).
template <typename T, typename U, bool isSetMask = true, typename M>
    requires detail::kMaskArg<M>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, M mask, const int32_t repeatTime, const BinaryRepeatParams& p,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int32_t>()), "Compare", "half, float, int32_t");
    uint64_t m[2];
    detail::maskWords<T, isSetMask>(mask, m);
    ::sage::npu::rt::vecCompareRepeat(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), &src1.ref(), 0.0,
                                      static_cast<int>(mode), detail::binaryForm(m, uint32_t(repeatTime), p),
                                      ::sage::npu::rt::maskCounter(), loc);
}
// CompareScalar(dstMask, src0, scalar, cmpMode, mask, repeatTime, UnaryRepeatParams).
template <typename T, typename U, bool isSetMask = true, typename M>
    requires detail::kMaskArg<M>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                     CMPMODE mode, M mask, const int32_t repeatTime, const UnaryRepeatParams& p,
                                     ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int32_t>()), "CompareScalar", "half, float, int32_t");
    uint64_t m[2];
    detail::maskWords<T, isSetMask>(mask, m);
    ::sage::npu::rt::vecCompareRepeat(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), nullptr,
                                      detail::scalarOf(src1Scalar), static_cast<int>(mode),
                                      detail::unaryForm(m, uint32_t(repeatTime), p), ::sage::npu::rt::maskCounter(),
                                      loc);
}
// Select(dst, selMask, src0, src1 or scalar, selMode, mask, repeatTime, BinaryRepeatParams).
template <typename T, typename U, bool isSetMask = true, typename M>
    requires detail::kMaskArg<M>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, M mask, const int32_t repeatTime,
                              const BinaryRepeatParams& p, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Select", "half, float");
    uint64_t m[2];
    detail::maskWords<T, isSetMask>(mask, m);
    ::sage::npu::rt::vecSelectRepeat(::sage::npu::dtypeOf<T>, dst.ref(), selMask.ref(), src0.ref(), &src1.ref(), 0.0,
                                     static_cast<int>(mode), detail::binaryForm(m, uint32_t(repeatTime), p),
                                     ::sage::npu::rt::maskCounter(), loc);
}
template <typename T, typename U, bool isSetMask = true, typename M>
    requires detail::kMaskArg<M>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE mode, M mask, const int32_t repeatTime, const BinaryRepeatParams& p,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Select", "half, float");
    uint64_t m[2];
    detail::maskWords<T, isSetMask>(mask, m);
    ::sage::npu::rt::vecSelectRepeat(::sage::npu::dtypeOf<T>, dst.ref(), selMask.ref(), src0.ref(), nullptr,
                                     detail::scalarOf(src1), static_cast<int>(mode),
                                     detail::binaryForm(m, uint32_t(repeatTime), p), ::sage::npu::rt::maskCounter(),
                                     loc);
}
// Cast(dst, src, roundMode, mask, repeatTime, UnaryRepeatParams): 256 / max(sizeof) elements per
// repeat; dst strides count blocks of the destination type, src strides blocks of the source.
template <typename T, typename U, bool isSetMask = true, typename M>
    requires detail::kMaskArg<M>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round, M mask,
                            const int32_t repeatTime, const UnaryRepeatParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(detail::kCastType<T> && detail::kCastType<U>,
                  "Cast: a type here is not a vector data type (half, float, bfloat16_t, int8_t, uint8_t, "
                  "int16_t, uint16_t, int32_t, uint32_t, int64_t)");
    uint64_t m[2];
    if constexpr (std::is_pointer_v<M>) {
        m[0] = mask[0];
        m[1] = (sizeof(T) == 2 && sizeof(U) <= 2) ? mask[1] : 0;
        if constexpr (!isSetMask) ::sage::npu::rt::vectorMask(m);
    } else {
        detail::contMask(uint64_t(mask), m);
        if constexpr (!isSetMask) ::sage::npu::rt::vectorMask(m);
    }
    ::sage::npu::rt::vecCastRepeat(::sage::npu::dtypeOf<T>, ::sage::npu::dtypeOf<U>, dst.ref(), src.ref(),
                                   static_cast<int>(round), detail::unaryForm(m, uint32_t(repeatTime), p),
                                   ::sage::npu::rt::maskCounter(), loc);
}

// Comparison operators: `bits = a >= b;` is Compare(bits, a, b, CMPMODE::GE, a.GetSize()).
template <typename T> struct LocalTensorCmpExpr {
    CMPMODE mode;
    const LocalTensor<T>* a;
    const LocalTensor<T>* b;
    // Assigning to the bit tensor issues the Compare.
    template <typename U> __aicore__ void into(const LocalTensor<U>& dst, ::sage::npu::Loc loc) const {
        Compare(dst, *a, *b, mode, a->GetSize(), loc);
    }
};
#define SAGE_CMP_OPERATOR(op, M)                                                                            \
    template <typename T>                                                                                   \
    __aicore__ inline LocalTensorCmpExpr<T> operator op(const LocalTensor<T>& a, const LocalTensor<T>& b) {  \
        return {CMPMODE::M, &a, &b};                                                                        \
    }
SAGE_CMP_OPERATOR(<, LT)
SAGE_CMP_OPERATOR(>, GT)
SAGE_CMP_OPERATOR(==, EQ)
SAGE_CMP_OPERATOR(<=, LE)
SAGE_CMP_OPERATOR(>=, GE)
SAGE_CMP_OPERATOR(!=, NE)
#undef SAGE_CMP_OPERATOR

} // namespace AscendC
