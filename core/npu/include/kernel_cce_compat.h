// Lower-level spellings real op kernels use next to the AscendC API: the CCE intrinsics on raw
// UB addresses (vcadd, get_max_min_cnt), the pointer form TransDataTo5HDImpl, AscendC's block and
// memory-size constants, Trap, printf, GetScalarBitcodeValue and the integer Ceil. A raw
// `__ubuf__ T*` here is what `(__ubuf__ T*)tensor.GetPhyAddr()` gives: its value is the UB byte
// address, it is never dereferenced. Semantics: docs/kernel-api.md.
#pragma once

#include "kernel_vec_lib.h"
#include "kernel_vec_reduce_regs.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace AscendC {

// ---- constants of the AscendC headers --------------------------------------------------------
constexpr int32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / int32_t(sizeof(float));
constexpr int32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / 2;
constexpr int32_t B32_BYTE_SIZE = 4;
constexpr int32_t B16_BYTE_SIZE = 2;
constexpr int32_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr int32_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B8_DATA_NUM_PER_BLOCK = 32;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t HALF_DEFAULT_REPEAT_STRIDE = DEFAULT_REPEAT_STRIDE / 2;
constexpr int32_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint64_t FULL_MASK = ~0ull;
// The core's memory sizes per architecture (910B: 2201, 310P: 2002), as the device headers give
// them. The UB figure is the physical size; TPipe can hand out 256 bytes less (device profile).
// TOTAL_VEC_LOCAL_SIZE is the part of UB the device headers give vector code (248 KiB on 310P,
// 184 KiB on 910B: the top 8 KiB of the 910B's 192 KiB are reserved).
#if __NPU_ARCH__ == 2002
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 253952;
constexpr uint32_t TOTAL_UB_SIZE = 262144;
constexpr uint32_t TOTAL_L1_SIZE = 1048576;
constexpr uint32_t TOTAL_L0C_SIZE = 262144;
#else
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 188416;
constexpr uint32_t TOTAL_UB_SIZE = 196608;
constexpr uint32_t TOTAL_L1_SIZE = 524288;
constexpr uint32_t TOTAL_L0C_SIZE = 131072;
#endif
constexpr uint32_t TOTAL_L0A_SIZE = 65536;
constexpr uint32_t TOTAL_L0B_SIZE = 65536;

namespace detail {
// The local region a raw UB address names: from the address to the end of UB (checked by the
// runtime against the core's capacity).
inline ::sage::npu::LocalRef ubAt(const volatile void* p) {
    const auto addr = uint32_t(reinterpret_cast<uintptr_t>(p));
    return {TPosition::VECCALC, addr, (1u << 24) - addr};
}
} // namespace detail

// ---- CCE intrinsics on raw UB addresses --------------------------------------------------------
// vcadd: WholeReduceSum with the mask register (normal or counter mode): the sum of each repeat's
// masked elements to dst[r * dstRepStride]. `mode` (910B) selects no other behaviour here.
template <typename T>
__aicore__ inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepStride,
                             uint16_t srcBlkStride, uint16_t srcRepStride, bool mode = false,
                             ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    SAGE_TYPE_CHECK(detail::kFloat<T>, "vcadd", "half, float");
    (void)mode;
    uint64_t m[2];
    ::sage::npu::rt::vectorMask(m);
    if constexpr (sizeof(T) != 2) m[1] = 0;
    ::sage::npu::rt::vecWholeReduce(::sage::npu::ReduceOp::Sum, ::sage::npu::dtypeOf<T>, detail::ubAt(dst),
                                    detail::ubAt(src), m[0], m[1], repeat, dstRepStride, srcBlkStride, srcRepStride,
                                    0, false, ::sage::npu::rt::maskCounter(), loc);
}

// get_max_min_cnt: the max/min register after ReduceMax/Min or WholeReduceMax/Min: the value's
// bits in the low 32 bits, its index in the high 32 bits.
__aicore__ inline uint64_t get_max_min_cnt(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    uint64_t index = 0;
    const uint64_t value = ::sage::npu::rt::readReduceRegister(false, &index, loc);
    return (index << 32) | (value & 0xffff'ffffull);
}

// TransDataTo5HDImpl: TransDataTo5HD with 16 raw UB addresses (`__ubuf__ T*`) per side.
template <typename P, size_t N>
    requires(std::is_pointer_v<P> && N == size_t(NCHW_CONV_ADDR_LIST_SIZE))
__aicore__ inline void TransDataTo5HDImpl(P (&dstList)[N], P (&srcList)[N], const TransDataTo5HDParams& p,
                                          ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    using T = std::remove_cv_t<std::remove_pointer_t<P>>;
    uint64_t d[N], s[N];
    for (size_t i = 0; i < N; ++i) {
        d[i] = uint64_t(reinterpret_cast<uintptr_t>(dstList[i]));
        s[i] = uint64_t(reinterpret_cast<uintptr_t>(srcList[i]));
    }
    TransDataTo5HD<T>(d, s, p, loc);
}

// The internal *Impl spellings of Duplicate and the data copies on raw addresses (as kernels call
// them next to PopStackBuffer): the same instructions, checks and costs as the tensor forms.
namespace detail {
template <typename T> inline GlobalTensor<T> gmAt(__gm__ T* p) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(p);
    return g;
}
template <typename T> inline LocalTensor<T> ubTensor(__ubuf__ T* p) { return LocalTensor<T>(ubAt(p)); }
} // namespace detail
template <typename T>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dst, const T& scalar, const int32_t& count,
                                     ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    Duplicate(detail::ubTensor(dst), scalar, count, loc);
}
template <typename T>
__aicore__ inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p,
                                         ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopy(detail::gmAt(dst), detail::ubTensor(src), p, loc);
}
template <typename T>
__aicore__ inline void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& p,
                                         ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopy(detail::ubTensor(dst), detail::gmAt(src), p, loc);
}
template <typename T, typename P>
__aicore__ inline void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& p,
                                            const DataCopyPadExtParams<P>& pad,
                                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopyPadExtParams<T> padT;
    padT.isPad = pad.isPad;
    padT.leftPadding = pad.leftPadding;
    padT.rightPadding = pad.rightPadding;
    padT.paddingValue = static_cast<T>(pad.paddingValue);
    DataCopyPad(detail::ubTensor(dst), detail::gmAt(src), p, padT, loc);
}
template <typename T>
__aicore__ inline void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& p,
                                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    DataCopyPad(detail::gmAt(dst), detail::ubTensor(src), p, loc);
}

// ---- scalar helpers --------------------------------------------------------------------------
// ScalarCast<float, int32_t | half, mode>(v): the documented conversions float -> int32_t
// (CAST_ROUND, CAST_CEIL, CAST_FLOOR, CAST_RINT) and float -> half (CAST_ODD), as Cast rounds.
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U ScalarCast(T valueIn, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(std::is_same_v<T, float> && (std::is_same_v<U, int32_t> || std::is_same_v<U, half>),
                  "ScalarCast converts float to int32_t or half");
    static_assert(!std::is_same_v<U, int32_t> ||
                      (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                       roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT),
                  "ScalarCast float -> int32_t takes CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT");
    static_assert(!std::is_same_v<U, half> || roundMode == RoundMode::CAST_ODD,
                  "ScalarCast float -> half takes CAST_ODD");
    return detail::fromRegisterBits<U>(::sage::npu::rt::scalarCast(::sage::npu::dtypeOf<U>, ::sage::npu::dtypeOf<T>,
                                                                    &valueIn, static_cast<int>(roundMode), loc));
}

// Trap(): stops the kernel at this line (the device raises an exception).
__aicore__ inline void Trap(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    ::sage::npu::rt::kernelAssert(false, "Trap()", "the kernel called Trap()", loc);
}
// The bits of a scalar as an unsigned integer of its width (padding values of DataCopyPad).
template <typename T> __aicore__ inline auto GetScalarBitcodeValue(T v) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "GetScalarBitcodeValue takes a 1-, 2-, 4- or 8-byte scalar");
    using U = std::conditional_t<sizeof(T) == 1, uint8_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t,
                                                    std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    return u;
}
// Ceil(a, b): integer division rounded up (0 when b is 0), next to the math library's Ceil.
template <typename T, typename U>
    requires(std::is_integral_v<T> && std::is_integral_v<U>)
__aicore__ inline constexpr T Ceil(T a, U b) {
    return b == 0 ? T(0) : static_cast<T>((a + static_cast<T>(b) - 1) / static_cast<T>(b));
}
// CeilDivision(a, b): the int32 form of the same rounding-up division (0 when b is 0).
__aicore__ inline constexpr int32_t CeilDivision(int32_t a, int32_t b) { return Ceil(a, b); }
// AscendC::printf / PRINTF: formatted output of the kernel, to the run's standard output.
template <typename... Args> __aicore__ inline void printf(const char* fmt, Args... args) {
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt, stdout);
    else std::printf(fmt, args...);
}
template <typename... Args> __aicore__ inline void PRINTF(const char* fmt, Args... args) { printf(fmt, args...); }
// The typo'd spelling of GetTaskRatio that the device headers also export.
__aicore__ inline int64_t GetTaskRation() { return GetTaskRatio(); }

} // namespace AscendC
