// Reductions beyond the count form (PIPE_V): ReduceSum/Max/Min in the mask + repeat form,
// RepeatReduceSum, the result registers read back by the scalar unit (GetAccVal,
// GetReduceMaxMinCount), and Brcb. Semantics: docs/kernel-api.md.
#pragma once

#include "kernel_vec_reduce.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace AscendC {

namespace detail {
template <typename R> constexpr uint64_t nonNegative(R r) {
    if constexpr (std::is_signed_v<R>) return r < 0 ? 0 : uint64_t(r);
    else return uint64_t(r);
}
template <typename T> inline T fromRegisterBits(uint64_t bits) {
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));  // T may be half: a trivially copyable bit holder
    return v;
}
} // namespace detail

// ReduceX(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride[, calIndex]): all masked
// elements of all repeats to dst[0] (dst[1] = index as integer bits when calIndex).
#define SAGE_REDUCE_REPEAT(Name, Op)                                                                        \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],               \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        SAGE_TYPE_CHECK(detail::kFloat<T>, #Name, "half, float");                                           \
        uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};                                             \
        detail::resolveMask<T, isSetMask>(m);                                                               \
        ::sage::npu::rt::vecReduceRepeat(::sage::npu::ReduceOp::Op, ::sage::npu::dtypeOf<T>, dst.ref(),      \
                                         src.ref(), &sharedTmpBuffer.ref(), m[0], m[1],                     \
                                         uint32_t(repeatTime < 0 ? 0 : repeatTime), uint32_t(srcRepStride),  \
                                         calIndex, ::sage::npu::rt::maskCounter(), loc);                    \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t mask,                  \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = false, \
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {                       \
        uint64_t m[2];                                                                                      \
        detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);                                                 \
        Name<T, isSetMask>(dst, src, sharedTmpBuffer, m, repeatTime, srcRepStride, calIndex, loc);          \
    }
SAGE_REDUCE_REPEAT(ReduceSum, Sum)
SAGE_REDUCE_REPEAT(ReduceMax, Max)
SAGE_REDUCE_REPEAT(ReduceMin, Min)
#undef SAGE_REDUCE_REPEAT

// RepeatReduceSum(dst, src, repeatTime, mask, dstBlkStride, srcBlkStride, dstRepStride,
// srcRepStride): the sum of the first `mask` elements of each repeat to dst[r * dstRepStride].
// dstBlkStride has no effect (as documented).
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride,
                                       ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "RepeatReduceSum", "half, float");
    (void)dstBlkStride;
    uint64_t m[2];
    detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);
    detail::resolveMask<T, isSetMask>(m);
    ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Sum, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), m[0],
                                    m[1], uint32_t(repeatTime < 0 ? 0 : repeatTime), uint32_t(dstRepStride),
                                    uint32_t(srcBlkStride), uint32_t(srcRepStride), 0, false,
                                    ::sage::npu::rt::maskCounter(), loc);
}

// GetAccVal<T>(): the result of the last count-form ReduceSum as T. The untemplated form returns
// the raw register (T's bits in the low bytes), as older kernels read it.
template <typename T>
__aicore__ inline T GetAccVal(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "GetAccVal", "half, float");
    return detail::fromRegisterBits<T>(::sage::npu::rt::readReduceRegister(true, nullptr, loc));
}
__aicore__ inline uint64_t GetAccVal(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return ::sage::npu::rt::readReduceRegister(true, nullptr, loc);
}

// GetReduceMaxMinCount<T>(value[, index]): the last ReduceMax/ReduceMin/WholeReduceMax/Min
// result. The index is stored as integer bits in a T (read it through reinterpret_cast to
// uint16_t/uint32_t), as documented.
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex,
                                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "GetReduceMaxMinCount", "half, float");
    uint64_t index = 0;
    maxMinValue = detail::fromRegisterBits<T>(::sage::npu::rt::readReduceRegister(false, &index, loc));
    maxMinIndex = detail::fromRegisterBits<T>(index);
}
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "GetReduceMaxMinCount", "half, float");
    maxMinValue = detail::fromRegisterBits<T>(::sage::npu::rt::readReduceRegister(false, nullptr, loc));
}

// ---- The ReduceType-templated spellings of the repeat-form reductions (AscendC 9.x) ------------
// ReduceRepeat<type> is WholeReduceSum/Max/Min, ReduceDataBlock<type> BlockReduceSum/Max/Min and
// ReducePairElem<SUM> PairReduceSum, with (mask, repeatTime, dstRepStride, srcBlkStride,
// srcRepStride) in that order for all three. Source and destination share one element type here.
namespace detail {
template <ReduceType type, typename T, typename U> constexpr void checkReduceTypes() {
    static_assert(std::is_same_v<T, U>, "ReduceRepeat/ReduceDataBlock/ReducePairElem: the simulator supports the "
                                        "same element type for source and destination");
    static_assert(type != ReduceType::NONE, "ReduceRepeat/ReduceDataBlock/ReducePairElem: choose SUM, MAX or MIN");
}
// The mask operand: a count of leading elements or the two 64-bit mask words.
template <typename M>
concept ReduceMask = std::is_integral_v<M> || std::is_same_v<M, const uint64_t*> || std::is_same_v<M, uint64_t*>;
} // namespace detail
template <ReduceType type, typename T, typename U, bool isSetMask = true, detail::ReduceMask M>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, M mask,
                                    const int32_t repeatTime, const int32_t dstRepStride,
                                    const int32_t srcBlkStride, const int32_t srcRepStride,
                                    ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                                    ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::checkReduceTypes<type, T, U>();
    if constexpr (type == ReduceType::SUM)
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    else if constexpr (type == ReduceType::MAX)
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    else
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
}
template <ReduceType type, typename T, typename U, bool isSetMask = true, detail::ReduceMask M>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, M mask,
                                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                       const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::checkReduceTypes<type, T, U>();
    if constexpr (type == ReduceType::SUM)
        BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else if constexpr (type == ReduceType::MAX)
        BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else
        BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <ReduceType type, typename T, typename U, bool isSetMask = true, detail::ReduceMask M>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, M mask,
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::checkReduceTypes<type, T, U>();
    static_assert(type == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM (pairwise sums) is defined");
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
// The result registers under their newer names (GetAccVal, GetReduceMaxMinCount).
template <typename T> __aicore__ inline T GetReduceRepeatSumSpr(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return GetAccVal<T>(loc);
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& value, T& index,
                                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    GetReduceMaxMinCount<T>(value, index, loc);
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    GetReduceMaxMinCount<T>(value, loc);
}

// ---- Brcb: each of 8 source elements per repeat fills one 32-byte block -----------------------
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1, dstRepStride = 8;
    uint8_t blockNumber = 8;  // reserved, as in AscendC
    __aicore__ BrcbRepeatParams() = default;
    // Templated so that `{1, someInt}` does not narrow.
    template <typename A, typename B>
    __aicore__ BrcbRepeatParams(A blk, B rep) : dstBlkStride(uint16_t(blk)), dstRepStride(uint16_t(rep)) {}
};
// repeatTime is an 8-bit field; it is taken as any integer so that a larger value is reported
// instead of silently wrapping.
template <typename T, typename R>
    requires std::is_integral_v<R>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const R repeatTime,
                            const BrcbRepeatParams& p, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int16_t, uint16_t, int32_t, uint32_t, bfloat16_t>()), "Brcb",
                    "16- and 32-bit types");
    ::sage::npu::rt::vecBrcb(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(),
                             uint32_t(std::min<uint64_t>(detail::nonNegative(repeatTime), ~0u)), p.dstBlkStride,
                             p.dstRepStride, loc);
}

} // namespace AscendC
