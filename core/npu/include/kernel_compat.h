// Small AscendC APIs and compiler keywords that real op kernels use (issue 13, part 3): branch
// hints, __forceinline__, IsSameType, AlignUp, DivCeil, the user/system workspace, Axpy, Gather,
// mask modes and AscendCUtils, TQueSync, TEventID, the data-cache maintenance call, the older
// get_block_idx spellings, ASSERT_MSG and the bfloat16 conversions.
#pragma once

#include "kernel_data_copy.h"
#include "kernel_pipe.h"
#include "kernel_vec.h"

#include <cstdio>
#include <source_location>
#include <type_traits>

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#define ASSERT_MSG(cond, ...) ASSERT(cond)
// ASCENDC_ASSERT(cond, { statements }): when cond fails the statements run first (usually a
// KERNEL_LOG saying why), then the failed check is reported like ASSERT. cond is evaluated once.
#define ASCENDC_ASSERT(cond, ...)                                                                    \
    ;                                                                                                \
    {                                                                                                \
        const bool sage_ascendc_assert_ok_ = static_cast<bool>(cond);                                \
        if (!sage_ascendc_assert_ok_) { __VA_ARGS__; }                                               \
        ::sage::npu::rt::kernelAssert(sage_ascendc_assert_ok_, #cond, nullptr,                       \
                                      std::source_location::current());                              \
    }
// KERNEL_LOG(level, fmt, args...): one line of the kernel's output, "[ERROR] message".
enum KernelLogLevel { KERNEL_DEBUG = 0, KERNEL_INFO = 1, KERNEL_WARN = 2, KERNEL_ERROR = 3 };
#define KERNEL_LOG(level, ...) ::AscendC::detail::kernelLog(level, __VA_ARGS__)

#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif

namespace AscendC {

namespace detail {
template <typename... Args> inline void kernelLog(int level, const char* fmt, Args... args) {
    static const char* const names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    std::printf("[%s] ", level >= 0 && level <= 3 ? names[level] : "LOG");
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt, stdout);
    else std::printf(fmt, args...);
    std::fputc('\n', stdout);
}
} // namespace detail

// The scalar types under AscendC's own namespace, as kernels spell them (`AscendC::half`).
using ::half;
using ::bfloat16_t;
using ::int4b_t;

// The core's global state a kernel entry resets when it does not use TPipe: no atomic
// accumulation on GM writes, the normal mask mode, all mask bits set.
// The value DataCopyPad writes into the padding of GM -> UB copies whose params say isPad = false
// (until the next SetPadValue); isPad = true still pads with the params' paddingValue.
template <typename T> __aicore__ inline void SetPadValue(T value) {
    ::sage::npu::rt::setPadValue(&value, uint32_t(sizeof(T)));
}

__aicore__ inline void InitSocState() {
    SetAtomicNone();
    SetMaskNorm();
    ResetMask();
}

using TrueType = std::true_type;
using FalseType = std::false_type;

template <typename T, typename U> struct IsSameType {
    static constexpr bool value = false;
};
template <typename T> struct IsSameType<T, T> {
    static constexpr bool value = true;
};

// The most general form, so that a kernel's own AlignUp (non-template or two-same-type template)
// wins overload resolution instead of clashing with this one.
template <typename T, typename U> __aicore__ inline constexpr T AlignUp(T value, U align) {
    return align == 0 ? value : static_cast<T>((value + static_cast<T>(align) - 1) / static_cast<T>(align) *
                                               static_cast<T>(align));
}

// a / b rounded up (0 when b is 0, as the device's helper does not trap).
template <typename T, typename U> __aicore__ inline constexpr T DivCeil(T a, U b) {
    return b == 0 ? T(0) : static_cast<T>((a + static_cast<T>(b) - 1) / static_cast<T>(b));
}
__aicore__ inline constexpr uint32_t GetDataBlockSizeInBytes() { return 32; }

using TEventID = int8_t;

// TQueSync<src, dst>: SetFlag/WaitFlag between two pipes, with the pipes as template arguments.
template <pipe_t src, pipe_t dst> class TQueSync {
public:
    __aicore__ void SetFlag(TEventID id, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::setFlag(static_cast<::sage::npu::PipeId>(src), static_cast<::sage::npu::PipeId>(dst), id, loc);
    }
    __aicore__ void WaitFlag(TEventID id, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
        ::sage::npu::rt::waitFlag(static_cast<::sage::npu::PipeId>(src), static_cast<::sage::npu::PipeId>(dst), id, loc);
    }
};

// Mask modes. In counter mode the mask register holds an element count (SetVectorMask<T,
// MaskMode::COUNTER>(0, n)); in normal mode a bit per element of one repeat.
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };
template <typename T, MaskMode mode>
__aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    ::sage::npu::rt::setVectorMask(maskHigh, maskLow);
}
template <typename T, MaskMode mode> __aicore__ inline void SetVectorMask(int32_t len) {
    SetVectorMask<T>(len);
}

// The helpers of AscendCUtils that kernels call: mask set-up and block arithmetic.
struct AscendCUtils {
    template <typename T> __aicore__ static void SetMask(const uint64_t maskHigh, const uint64_t maskLow) {
        ::sage::npu::rt::setVectorMask(maskHigh, maskLow);
    }
    template <typename T> __aicore__ static void SetMask(int32_t len) { SetVectorMask<T>(len); }
    template <typename T> __aicore__ static void SetMaskCount() { ::sage::npu::rt::setMaskCounter(true); }
    template <typename T> __aicore__ static void SetMaskNorm() { ::sage::npu::rt::setMaskCounter(false); }
    template <typename T> __aicore__ static void ResetMask() { ::sage::npu::rt::setVectorMask(~0ull, ~0ull); }
    __aicore__ static constexpr uint32_t GetBitSize(uint32_t bytes) { return bytes * 8; }
    __aicore__ static constexpr uint32_t GetC0Size() { return 32; }
    __aicore__ static constexpr uint32_t GetC0Count(uint32_t dtypeBytes) { return dtypeBytes ? 32 / dtypeBytes : 0; }
    // The vector unit's overflow mode (saturate results that overflow, or keep inf and NaN). The
    // simulator keeps the IEEE result in either mode (docs/kernel-api.md); the setting costs a
    // scalar issue slot.
    __aicore__ static void SetOverflow(uint64_t ctrlValue) {
        (void)ctrlValue;
        ::sage::npu::rt::scalarWork(1);
    }
};

// Data-cache maintenance of GM lines. The simulator's GM is coherent (scalar and DMA accesses
// see each other at once), so flushing has no effect on values; it costs a scalar issue slot.
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entireType, DcciDst dst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& gm) {
    (void)gm;
    ::sage::npu::rt::scalarWork(1);
}

// The scalar unit's square root, which kernels call unqualified under `using namespace AscendC`.
// Declared here rather than through <cmath>: the C library's sin, exp, log, sqrt ... would clash
// with kernels whose entry function has one of those names (extern "C" void exp(...)).
__aicore__ inline float sqrt(float x) { return __builtin_sqrtf(x); }

// bfloat16 <-> float conversions of the scalar unit (round to nearest even).
__aicore__ inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
__aicore__ inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }

// Workspace. The host reserves GetLibApiWorkSpaceSize() bytes of system workspace in front of
// the user workspace; the simulator's library APIs need none, so that size is 0 and the user
// workspace starts at the launch's workspace pointer. SetSysWorkspace records the pointer the
// generated kernel entry passes; GetSysWorkSpacePtr returns it.
constexpr uint32_t SAGE_SYS_WORKSPACE_BYTES = 0;
namespace detail {
inline GM_ADDR& sysWorkspaceSlot() {
    static GM_ADDR slot = nullptr;
    return slot;
}
} // namespace detail
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { detail::sysWorkspaceSlot() = workspace; }
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return detail::sysWorkspaceSlot(); }
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    return workspace == nullptr ? nullptr : workspace + SAGE_SYS_WORKSPACE_BYTES;
}

// dst = src * scalar + dst. dst and src have the same type, or dst is float and src half.
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalar, const int32_t count,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert((std::is_same_v<T, U> && detail::kFloat<T>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Axpy supports half, float, and half source into a float destination");
    ::sage::npu::rt::vecAxpy(::sage::npu::dtypeOf<T>, ::sage::npu::dtypeOf<U>, dst.ref(), src.ref(),
                             static_cast<double>(static_cast<float>(scalar)), uint64_t(count < 0 ? 0 : count), loc);
}

// The library form with a shared temporary buffer (accepted and not used).
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalar,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const int32_t count,
                            ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    (void)sharedTmpBuffer;
    Axpy(dst, src, scalar, count, loc);
}

// dst[i] = src element at byte offset srcBaseAddr + srcOffset[i].
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr, const uint32_t count,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    static_assert(detail::kBits<T>, "Gather supports 16- and 32-bit element types");
    ::sage::npu::rt::vecGather(::sage::npu::dtypeOf<T>, dst.ref(), src.ref(), srcOffset.ref(), srcBaseAddr, count,
                               loc);
}

} // namespace AscendC

// The CCE intrinsic spellings of the block index and count used by older kernels.
__aicore__ inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
__aicore__ inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
// The device toolchain also declares these outside the namespace; a using-declaration names the
// same function, so `using namespace AscendC;` code stays unambiguous.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
using AscendC::GetSysWorkSpacePtr;
