// The basic cube path: GM -> L1 (A1/B1) with Nd2Nz, L1 -> L0A/L0B (A2/B2) with LoadData,
// Mmad into L0C (CO1), and Fixpipe L0C -> GM. Layouts (see docs/kernel-api.md):
//   L1 "NZ": column blocks of C0 = 32/sizeof(T) elements; element (r, c) of a matrix sits at
//            (c / C0) * dstNzC0Stride * C0 + r * C0 + c % C0 (dstNzNStride = 1).
//   L0A "zZ": 16x16 fractals, row-block major; row-major inside a fractal.
//   L0B "nZ"-loaded-transposed: fractals k-block major; inside, element (k, n) at n * 16 + k.
//   L0C "NZ" fp32: element (m, n) at (n / 16) * mAligned * 16 + m * 16 + n % 16.
#pragma once

#include "kernel_data_copy.h"

namespace AscendC {

struct Nd2NzParams {
    uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0, dstNzC0Stride = 0,
             dstNzNStride = 1, dstNzMatrixStride = 0;
    __aicore__ Nd2NzParams() = default;
    __aicore__ Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD, uint16_t c0Stride,
                           uint16_t nStride, uint16_t dstMat)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcMat), srcDValue(srcD), dstNzC0Stride(c0Stride),
          dstNzNStride(nStride), dstNzMatrixStride(dstMat) {}
};
struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
    __aicore__ LoadData2DParams() = default;
    __aicore__ LoadData2DParams(uint16_t start, uint8_t rep, uint16_t stride, uint8_t s, uint16_t gap, bool tr,
                                uint8_t mode)
        : startIndex(start), repeatTimes(rep), srcStride(stride), sid(s), dstGap(gap), ifTranspose(tr),
          addrMode(mode) {}
};
using LoadData2dParams = LoadData2DParams;
struct MmadParams {
    uint16_t m = 0, n = 0, k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false, enWinogradA = false, enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    __aicore__ MmadParams() = default;
    __aicore__ MmadParams(uint16_t mm, uint16_t nn, uint16_t kk, bool bias, int32_t fm, bool s, bool wa, bool wb)
        : m(mm), n(nn), k(kk), isBias(bias), fmOffset(fm), enSsparse(s), enWinogradA(wa), enWinogradB(wb) {}
    __aicore__ MmadParams(uint16_t mm, uint16_t nn, uint16_t kk, uint8_t uf, bool kAlign, bool src, bool init)
        : m(mm), n(nn), k(kk), unitFlag(uf), kDirectionAlign(kAlign), cmatrixSource(src), cmatrixInitVal(init) {}
    // The short form current AscendC documents: {m, n, k, unitFlag, cmatrixSource, cmatrixInitVal}.
    __aicore__ MmadParams(uint16_t mm, uint16_t nn, uint16_t kk, uint8_t uf, bool src, bool init)
        : m(mm), n(nn), k(kk), unitFlag(uf), cmatrixSource(src), cmatrixInitVal(init) {}
};
enum class QuantMode_t : int { NoQuant = 0, F322F16 = 1, F322BF16 = 2 };
struct FixpipeParamsV220 {
    uint16_t nSize = 0, mSize = 0;
    uint32_t srcStride = 0, dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    __aicore__ FixpipeParamsV220() = default;
    // The documented brace order: {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar,
    // ndNum, srcNdStride, dstNdStride, unitFlag}.
    __aicore__ FixpipeParamsV220(uint16_t n, uint16_t m, uint32_t srcStr, uint32_t dstStr, bool relu = false,
                                 QuantMode_t quant = QuantMode_t::NoQuant, uint64_t deq = 0, uint16_t nd = 1,
                                 uint16_t srcNd = 0, uint16_t dstNd = 0, uint8_t unit = 0)
        : nSize(n), mSize(m), srcStride(srcStr), dstStride(dstStr), quantPre(quant), deqScalar(deq), ndNum(nd),
          srcNdStride(srcNd), dstNdStride(dstNd), reluEn(relu), unitFlag(unit) {}
};
enum class CO2Layout : int { NZ = 0, ROW_MAJOR = 1 };
struct FixpipeConfig {
    CO2Layout format;
};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::Nd2Nz n{p.ndNum, p.nValue, p.dValue, p.srcNdMatrixStride, p.srcDValue, p.dstNzC0Stride,
                             p.dstNzNStride, p.dstNzMatrixStride};
    ::sage::npu::rt::copyNd2Nz(dst.ref(), src.ref(), n, ::sage::npu::dtypeOf<T>, loc);
}

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::loadData2D(dst.ref(), src.ref(), {p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, p.ifTranspose},
                                ::sage::npu::dtypeOf<T>, loc);
}

template <typename C, typename A, typename B>
__aicore__ inline void Mmad(const LocalTensor<C>& c, const LocalTensor<A>& a, const LocalTensor<B>& b,
                            const MmadParams& p, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(std::is_same_v<A, B>, "Mmad: A and B must have the same data type");
    static_assert((std::is_same_v<A, half> && std::is_same_v<C, float>) ||
                      (std::is_same_v<A, float> && std::is_same_v<C, float>) ||
                      (std::is_same_v<A, int8_t> && std::is_same_v<C, int32_t>) ||
                      (std::is_same_v<A, bfloat16_t> && std::is_same_v<C, float> && __NPU_ARCH__ != 2002),
                  "Mmad supports half x half -> float, float x float -> float, int8 x int8 -> int32 "
                  "(and bfloat16 -> float on 910B)");
    ::sage::npu::rt::mmad(c.ref(), a.ref(), b.ref(), nullptr, {p.m, p.n, p.k, p.cmatrixInitVal},
                          ::sage::npu::dtypeOf<C>, ::sage::npu::dtypeOf<A>, loc);
}
template <typename C, typename A, typename B, typename BiasT>
__aicore__ inline void Mmad(const LocalTensor<C>& c, const LocalTensor<A>& a, const LocalTensor<B>& b,
                            const LocalTensor<BiasT>& bias, const MmadParams& p,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(std::is_same_v<BiasT, C>, "Mmad bias must have the output's data type");
    ::sage::npu::rt::mmad(c.ref(), a.ref(), b.ref(), &bias.ref(), {p.m, p.n, p.k, p.cmatrixInitVal},
                          ::sage::npu::dtypeOf<C>, ::sage::npu::dtypeOf<A>, loc);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                               ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::FixpipeShape s{p.nSize, p.mSize, p.srcStride, p.dstStride, static_cast<int>(p.quantPre),
                                    p.reluEn, config.format == CO2Layout::ROW_MAJOR};
    ::sage::npu::rt::fixpipe(dst.ref(), src.ref(), s, ::sage::npu::dtypeOf<T>, ::sage::npu::dtypeOf<U>, loc);
}

} // namespace AscendC

// The device compiler declares QuantMode_t globally (kernels spell `QuantMode_t::F322F16`).
using AscendC::QuantMode_t;
