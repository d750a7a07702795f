// Vector library APIs beyond the basic arithmetic that real op kernels use: GatherMask, Copy
// (repeat form), ArithProgression, CreateVecIndex, BroadCast, Sum, Mean, InitGlobalMemory,
// InitOutput and SetDeqScale. Semantics are documented in docs/kernel-api.md.
#pragma once

#include "kernel_vec.h"

#include <type_traits>

namespace AscendC {

// ---- GatherMask: pack the elements a bit pattern selects -------------------------------------
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 0;
    uint8_t src1RepeatStride = 0;
    __aicore__ GatherMaskParams() = default;
    __aicore__ GatherMaskParams(uint8_t blk, uint16_t rep, uint16_t srcRep, uint8_t patRep)
        : src0BlockStride(blk), repeatTimes(rep), src0RepeatStride(srcRep), src1RepeatStride(patRep) {}
};
// reduceMode = true is counter mode: `mask` elements in all. Otherwise p.repeatTimes repeats of
// 256 bytes. rsvdCnt receives the number of elements written.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& p, uint64_t& rsvdCnt,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask supports 16- and 32-bit element types");
    rsvdCnt = ::sage::npu::rt::vecGatherMask(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), &src1Pattern.ref(), 0,
                                             reduceMode, mask, p.repeatTimes, p.src0BlockStride, p.src0RepeatStride,
                                             p.src1RepeatStride, loc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& p,
                                  uint64_t& rsvdCnt, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask supports 16- and 32-bit element types");
    rsvdCnt = ::sage::npu::rt::vecGatherMask(::sage::npu::dtypeOf<T>, dst.ref(), src0.ref(), nullptr, src1Pattern,
                                             reduceMode, mask, p.repeatTimes, p.src0BlockStride, p.src0RepeatStride,
                                             0, loc);
}

// ---- Copy: UB -> UB on the vector unit, mask + repeat form ------------------------------------
struct CopyRepeatParams {
    uint16_t dstStride = 1, srcStride = 1, dstRepeatSize = 8, srcRepeatSize = 8;
    __aicore__ CopyRepeatParams() = default;
    __aicore__ CopyRepeatParams(uint16_t d, uint16_t s, uint16_t dr, uint16_t sr)
        : dstStride(d), srcStride(s), dstRepeatSize(dr), srcRepeatSize(sr) {}
};
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTimes, const CopyRepeatParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kBits<T>, "Copy", "16- and 32-bit types");
    uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};
    detail::resolveMask<T, isSetMask>(m);
    UnaryRepeatParams u(p.dstStride, p.srcStride, uint8_t(p.dstRepeatSize), uint8_t(p.srcRepeatSize));
    ::sage::npu::rt::vecRepeat(::sage::npu::VecOp::Copy, ::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), nullptr, 0.0,
                               detail::unaryForm(m, repeatTimes, u), ::sage::npu::rt::maskCounter(), loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                            const uint8_t repeatTimes, const CopyRepeatParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    uint64_t m[2];
    detail::contMask(mask, m);
    Copy<T, isSetMask>(dst, src, m, repeatTimes, p, loc);
}

// ---- index fills -------------------------------------------------------------------------------
template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, const std::type_identity_t<T> firstValue,
                                        const std::type_identity_t<T> diffValue, const int32_t count,
                                        ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int16_t, int32_t>()), "ArithProgression",
                    "half, float, int16_t, int32_t");
    ::sage::npu::rt::vecIndexFill(::sage::npu::dtypeOf<T>, dst.ref(), detail::scalarArg<T>(firstValue),
                                  detail::scalarArg<T>(diffValue), count < 0 ? 0 : uint64_t(count), loc);
}
template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, const std::type_identity_t<T> firstValue,
                                      uint32_t calCount, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK((detail::isOneOf<T, half, float, int16_t, int32_t>()), "CreateVecIndex",
                    "half, float, int16_t, int32_t");
    ::sage::npu::rt::vecIndexFill(::sage::npu::dtypeOf<T>, dst.ref(), detail::scalarArg<T>(firstValue), 1.0, calCount,
                                  loc);
}

// ---- BroadCast<T, dim, axis>: dim 1 ([1] -> [n]) or 2 ([m,1] -> [m,n] on axis 1, [1,n] -> [m,n]
// on axis 0) ------------------------------------------------------------------------------------
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(dim == 1 || dim == 2, "BroadCast supports dim 1 and 2");
    static_assert(axis == 0 || axis == 1, "BroadCast: axis is 0 or 1");
    (void)srcShape;
    if constexpr (dim == 1) ::sage::npu::rt::vecBroadcast(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), dstShape[0], 1, 1, loc);
    else ::sage::npu::rt::vecBroadcast(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), dstShape[0], dstShape[1], axis, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
// Broadcast: the newer spelling of BroadCast, same forms.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    BroadCast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, sharedTmpBuffer, loc);
}

// ---- Sum and Mean over the last axis: `outter` rows of `inner` (padded) elements, n valid ------
struct SumParams {
    uint32_t outter = 1, inner = 0, n = 0;
};
struct MeanParams {
    uint32_t outter = 1, inner = 0, n = 0;
};
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& p,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Sum", "half, float");
    ::sage::npu::rt::vecRowReduce(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), p.outter, p.inner, p.n, false, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& p,
                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dst, src, p, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MeanParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "Mean", "half, float");
    ::sage::npu::rt::vecRowReduce(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), p.outter, p.inner, p.n, true, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dst, src, p, loc);
}

// ---- PairReduceSum: adjacent pairs summed, per repeat (dstRepStride in units of 128 bytes) -----
template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "PairReduceSum", "half, float");
    uint64_t m[2] = {mask[0], sizeof(T) == 2 ? mask[1] : 0};
    detail::resolveMask<T, isSetMask>(m);
    UnaryRepeatParams p(1, uint16_t(srcBlkStride), uint8_t(dstRepStride), uint8_t(srcRepStride));
    ::sage::npu::rt::vecPairSum(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(),
                                detail::unaryForm(m, uint32_t(repeatTime < 0 ? 0 : repeatTime), p),
                                ::sage::npu::rt::maskCounter(), loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    uint64_t m[2];
    detail::contMask(uint64_t(mask < 0 ? 0 : mask), m);
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, m, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- TransDataTo5HD: 16 blocks transposed per repeat (NCHW -> NC1HWC0, block transposes) -----
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    bool dstHighHalf = false, srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0, srcRepStride = 0;
    __aicore__ TransDataTo5HDParams() = default;
    __aicore__ TransDataTo5HDParams(bool dh, bool sh, uint8_t rep, uint16_t dr, uint16_t sr)
        : dstHighHalf(dh), srcHighHalf(sh), repeatTimes(rep), dstRepStride(dr), srcRepStride(sr) {}
};
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& p, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::LocalRef d[16], s[16];
    for (int i = 0; i < 16; ++i) d[i] = dstList[i].ref(), s[i] = srcList[i].ref();
    ::sage::npu::rt::transData5HD(::sage::npu::dtypeOf<T>, d, s, p.dstHighHalf, p.srcHighHalf, p.repeatTimes,
                                  p.dstRepStride, p.srcRepStride, loc);
}
// The address form: UB byte addresses as LocalTensor::GetPhyAddr() returns them.
template <typename T>
__aicore__ inline void TransDataTo5HD(const uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                                      ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::LocalRef d[16], s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = {TPosition::VECCALC, uint32_t(dstList[i]), 32u * (1u + uint32_t(p.repeatTimes) * p.dstRepStride)};
        s[i] = {TPosition::VECCALC, uint32_t(srcList[i]), 32u * (1u + uint32_t(p.repeatTimes) * p.srcRepStride)};
    }
    ::sage::npu::rt::transData5HD(::sage::npu::dtypeOf<T>, d, s, p.dstHighHalf, p.srcHighHalf, p.repeatTimes,
                                  p.dstRepStride, p.srcRepStride, loc);
}

// ---- GM fills and the dequantisation scale ---------------------------------------------------
template <typename T>
__aicore__ inline void InitGlobalMemory(const GlobalTensor<T>& gm, const uint64_t size, const std::type_identity_t<T> value,
                                        ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    double v;
    if constexpr (std::is_integral_v<T>) v = double(value); else v = double(static_cast<float>(value));
    ::sage::npu::rt::fillGm(gm.ref(), size, ::sage::npu::dtypeOf<T>, v, loc);
}
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gm, uint32_t size, std::type_identity_t<T> value = T(0),
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    InitGlobalMemory(gm, size, value, loc);
}
__aicore__ inline void SetDeqScale(half scale) { ::sage::npu::rt::setDeqScale(static_cast<float>(scale)); }
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
    (void)offset, (void)signMode;
    ::sage::npu::rt::setDeqScale(scale);
}

// ---- Interleave / DeInterleave (Ascend 950): alternate merge of two tensors and its inverse ----------
// Interleave: the stream src0[0] src1[0] src0[1] src1[1] ... split into dst0 (first count
// elements) and dst1 (the rest). DeInterleave: the even elements of src0 ++ src1 (or of src) to
// dst0, the odd ones to dst1. Counts must be even.
template <typename T>
__aicore__ inline void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                                  const LocalTensor<T>& src1, const int32_t count,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::vecInterleave(false, ::sage::npu::dtypeOf<T>, dst0.ref(), dst1.ref(), src0.ref(), &src1.ref(),
                                   count < 0 ? 0 : uint64_t(count), loc);
}
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                                    const LocalTensor<T>& src1, const int32_t count,
                                    ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::vecInterleave(true, ::sage::npu::dtypeOf<T>, dst0.ref(), dst1.ref(), src0.ref(), &src1.ref(),
                                   count < 0 ? 0 : uint64_t(count), loc);
}
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                                    const int32_t srcCount, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::vecInterleave(true, ::sage::npu::dtypeOf<T>, dst0.ref(), dst1.ref(), src.ref(), nullptr,
                                   srcCount < 0 ? 0 : uint64_t(srcCount), loc);
}

} // namespace AscendC
