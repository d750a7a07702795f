// DataCopy and DataCopyPad between global memory and local memory (and UB -> UB).
// GM -> UB/L1 runs on MTE2, UB -> GM on MTE3, UB -> UB on the vector pipe.
#pragma once

#include "kernel_tensor.h"

namespace AscendC {

// Lengths and gaps in 32-byte blocks.
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    __aicore__ DataCopyParams() = default;
    __aicore__ DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};
// blockLen in bytes; strides: GM side in bytes, UB side in 32-byte blocks.
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    __aicore__ DataCopyExtParams() = default;
    __aicore__ DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(r) {}
};
// Padding of a DataCopyPad: whether to pad, how many elements left and right, and the value (of the
// element type in the Ext form, 64 raw bits in the older form).
template <typename V> struct DataCopyPaddingOf {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    V paddingValue{};
    __aicore__ DataCopyPaddingOf() = default;
    __aicore__ DataCopyPaddingOf(bool pad, uint8_t left, uint8_t right, V value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
template <typename T> struct DataCopyPadExtParams : DataCopyPaddingOf<T> {
    using DataCopyPaddingOf<T>::DataCopyPaddingOf;
};
struct DataCopyPadParams : DataCopyPaddingOf<uint64_t> {
    using DataCopyPaddingOf<uint64_t>::DataCopyPaddingOf;
};
struct DataCopyEnhancedParams {
    int blockMode = 0;
    uint8_t deqScale = 0;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
};
enum BlockMode { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX = 1, BLOCK_MODE_VECTOR = 2 };

namespace detail {
inline ::sage::npu::CopyShape countShape(uint32_t bytes) {
    ::sage::npu::CopyShape s;
    s.blockLen = bytes;
    return s;
}
inline ::sage::npu::CopyShape blockShape(const DataCopyParams& p) {
    ::sage::npu::CopyShape s;
    s.blockCount = p.blockCount;
    s.blockLen = uint32_t(p.blockLen) * 32u;
    s.srcGap = uint32_t(p.srcStride) * 32u;
    s.dstGap = uint32_t(p.dstStride) * 32u;
    return s;
}
template <typename T> void checkPadSupported() {
    static_assert(sizeof(T) == 0 || (__NPU_ARCH__ != 2002 && __NPU_ARCH__ != 1001),
                  "DataCopyPad is not supported on this device (Atlas inference 310P / training 910): "
                  "copy whole 32-byte blocks with DataCopy and handle the tail in UB");
}
} // namespace detail

// Count form: `count * sizeof(T)` should be a multiple of 32 bytes; the hardware rounds down.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyGmToLocal(dst.ref(), src.ref(), detail::countShape(count * uint32_t(sizeof(T))),
                                   ::sage::npu::dtypeOf<T>, false, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyLocalToGm(dst.ref(), src.ref(), detail::countShape(count * uint32_t(sizeof(T))),
                                   ::sage::npu::dtypeOf<T>, false, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyLocalToLocal(dst.ref(), src.ref(), detail::countShape(count * uint32_t(sizeof(T))),
                                      ::sage::npu::dtypeOf<T>, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyGmToLocal(dst.ref(), src.ref(), detail::blockShape(p), ::sage::npu::dtypeOf<T>, false, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyLocalToGm(dst.ref(), src.ref(), detail::blockShape(p), ::sage::npu::dtypeOf<T>, false, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::copyLocalToLocal(dst.ref(), src.ref(), detail::blockShape(p), ::sage::npu::dtypeOf<T>, loc);
}

// DataCopyPad: GM side addressed in bytes (any length), UB side padded per block to 32 bytes.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad,
                                   ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::checkPadSupported<T>();
    ::sage::npu::CopyShape s;
    s.blockCount = p.blockCount;
    s.blockLen = p.blockLen;
    s.srcGap = p.srcStride;
    s.dstGap = p.dstStride * 32u;
    s.pad = true;
    s.padValueSet = pad.isPad;
    s.leftPad = pad.leftPadding;
    s.rightPad = pad.rightPadding;
    std::memcpy(&s.padBits, &pad.paddingValue, sizeof(T));
    ::sage::npu::rt::copyGmToLocal(dst.ref(), src.ref(), s, ::sage::npu::dtypeOf<T>, true, loc);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& p, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::checkPadSupported<T>();
    ::sage::npu::CopyShape s;
    s.blockCount = p.blockCount;
    s.blockLen = p.blockLen;
    s.srcGap = p.srcStride * 32u;
    s.dstGap = p.dstStride;
    s.pad = true;
    ::sage::npu::rt::copyLocalToGm(dst.ref(), src.ref(), s, ::sage::npu::dtypeOf<T>, true, loc);
}
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                   const DataCopyPadParams& pad, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopyExtParams e(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0);
    DataCopyPadExtParams<T> pe;
    pe.isPad = pad.isPad;
    pe.leftPadding = pad.leftPadding;
    pe.rightPadding = pad.rightPadding;
    std::memcpy(&pe.paddingValue, &pad.paddingValue, sizeof(T));
    DataCopyPad(dst, src, e, pe, loc);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                                   ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0), loc);
}

// Loop mode (Ascend 950): SetLoopModePara wraps every following DataCopy / DataCopyPad of one
// direction (GM -> VECIN/VECOUT or VECOUT -> GM) in two loops, loop2 outer and loop1 inner; each
// pass moves the copy's source and destination on by the loop's strides (bytes). Loop sizes below
// 2^21; a size of 0 moves nothing. ResetLoopModePara ends it.
struct LoopModeParams {
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
__aicore__ inline void SetLoopModePara(const LoopModeParams& p, DataCopyMVType type,
                                       ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::LoopMode m;
    m.size1 = p.loop1Size;
    m.size2 = p.loop2Size;
    m.srcStride1 = p.loop1SrcStride;
    m.dstStride1 = p.loop1DstStride;
    m.srcStride2 = p.loop2SrcStride;
    m.dstStride2 = p.loop2DstStride;
    ::sage::npu::rt::setLoopMode(type == DataCopyMVType::OUT_TO_UB, m, loc);
}
__aicore__ inline void ResetLoopModePara(DataCopyMVType type) {
    ::sage::npu::rt::resetLoopMode(type == DataCopyMVType::OUT_TO_UB);
}

// Multi-dimensional GM -> UB copy (Ascend 950, "NdDma"): `dim` nested loops, index 0 the innermost;
// per loop the element count, source and destination strides (elements) and left/right padding
// (elements) that fill with `constantValue`, or with the nearest element read when the config's
// isNearestValueMode is set. A config pad size other than unsetPad applies to every loop.
template <uint8_t dim> struct MultiCopyLoopInfo {
    static_assert(dim >= 1 && dim <= 5, "MultiCopyLoopInfo: dim must be in [1, 5]");
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <typename T, uint8_t dim> struct MultiCopyParams {
    MultiCopyLoopInfo<dim> loopInfo;
    T constantValue{};
};
template <uint8_t dim> using NdDmaLoopInfo = MultiCopyLoopInfo<dim>;
template <typename T, uint8_t dim> using NdDmaParams = MultiCopyParams<T, dim>;
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;  // a scheduling hint of the real library; no effect on the data
};
using MultiCopyConfig = NdDmaConfig;
inline constexpr NdDmaConfig kDefaultNdDmaConfig{};
inline constexpr NdDmaConfig kDefaultMultiCopyConfig{};

template <typename T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const MultiCopyParams<T, dim>& params,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(config.loopLpSize <= 0xff || config.loopLpSize == NdDmaConfig::unsetPad,
                  "NdDmaConfig::loopLpSize must be at most 255 or unsetPad");
    static_assert(config.loopRpSize <= 0xff || config.loopRpSize == NdDmaConfig::unsetPad,
                  "NdDmaConfig::loopRpSize must be at most 255 or unsetPad");
    ::sage::npu::rt::NdCopy p;
    p.dims = dim;
    for (int i = 0; i < dim; ++i) {
        p.size[i] = params.loopInfo.loopSize[i];
        p.srcStride[i] = params.loopInfo.loopSrcStride[i];
        p.dstStride[i] = params.loopInfo.loopDstStride[i];
        const bool ownLp = config.loopLpSize == NdDmaConfig::unsetPad;
        const bool ownRp = config.loopRpSize == NdDmaConfig::unsetPad;
        p.lp[i] = ownLp ? params.loopInfo.loopLpSize[i] : uint8_t(config.loopLpSize);
        p.rp[i] = ownRp ? params.loopInfo.loopRpSize[i] : uint8_t(config.loopRpSize);
    }
    p.nearest = config.isNearestValueMode;
    std::memcpy(&p.padBits, &params.constantValue, sizeof(T));
    ::sage::npu::rt::copyGmToLocalNd(dst.ref(), src.ref(), p, ::sage::npu::dtypeOf<T>, loc);
}
// NdDmaDci refreshes the data cache the nd-DMA reads through; the simulated DMA reads GM directly,
// so the data it sees is always current.
__aicore__ inline void NdDmaDci() {}

// Atomic accumulation of MTE3 / fixpipe writes into GM.
template <typename T> __aicore__ inline void SetAtomicAdd() { ::sage::npu::rt::setAtomic(1, ::sage::npu::dtypeOf<T>); }
template <typename T> __aicore__ inline void SetAtomicMax() { ::sage::npu::rt::setAtomic(2, ::sage::npu::dtypeOf<T>); }
template <typename T> __aicore__ inline void SetAtomicMin() { ::sage::npu::rt::setAtomic(3, ::sage::npu::dtypeOf<T>); }
__aicore__ inline void SetAtomicNone() { ::sage::npu::rt::setAtomic(0, ::sage::npu::DType::F32); }
// The newer spelling of SetAtomicNone.
__aicore__ inline void DisableDmaAtomic() { SetAtomicNone(); }

} // namespace AscendC
