// Small AscendC APIs and compiler keywords that real op kernels use (issue 13, part 3): branch
// hints, __forceinline__, IsSameType, AlignUp, the user/system workspace, Axpy and Gather.
#pragma once

#include "kernel_vec.h"

#include <type_traits>

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif

namespace AscendC {

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
