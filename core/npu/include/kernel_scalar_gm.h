// Scalar access to GM through a plain `__gm__ T*`: the reads and writes that bypass the data cache
// (ReadGmByPassDCache, WriteGmByPassDCache) and the scalar atomics (AtomicAdd, AtomicCas), plus the
// UB size queries (GetUBSizeInBytes, GetRuntimeUBSize). Each access has GlobalTensor::GetValue's
// bounds check and cost; a write is recorded as the device's own. The simulator's GM is coherent,
// so bypassing the cache changes no value; an atomic's read-modify-write is one step no other
// block can interleave with.
#pragma once

#include "kernel_cce_compat.h"
#include "kernel_runtime.h"

#include <cstring>

namespace AscendC {
namespace detail {
template <typename T> ::sage::npu::GmRef gmRefOf(__gm__ T* address) {
    ::sage::npu::GmRef r;
    r.ptr = reinterpret_cast<uint8_t*>(address);
    return r;
}
template <typename T> T gmLoad(__gm__ T* address, ::sage::npu::Loc loc) {
    T v;
    std::memcpy(&v, ::sage::npu::rt::scalarGm(gmRefOf(address), 0, sizeof(T), false, loc), sizeof(T));
    return v;
}
template <typename T> void gmStore(__gm__ T* address, const T& v, ::sage::npu::Loc loc) {
    ::sage::npu::rt::scalarGmStore(gmRefOf(address), 0, &v, sizeof(T), loc);
}
} // namespace detail

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* address, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return detail::gmLoad(address, loc);
}
template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* address, const T value,
                                           ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    detail::gmStore(address, value, loc);
}

// *address += value; returns the value before.
template <typename T>
__aicore__ inline T AtomicAdd(__gm__ T* address, const T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const T before = detail::gmLoad(address, loc);
    detail::gmStore(address, static_cast<T>(before + value), loc);
    return before;
}
// *address = newValue when it equals expected; returns the value before either way.
template <typename T>
__aicore__ inline T AtomicCas(__gm__ T* address, const T expected, const T newValue,
                              ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const T before = detail::gmLoad(address, loc);
    if (before == expected) detail::gmStore(address, newValue, loc);
    return before;
}

// The core's UB size: a compile-time constant, and the same figure at run time.
__aicore__ constexpr inline uint32_t GetUBSizeInBytes() { return TOTAL_UB_SIZE; }
__aicore__ inline uint32_t GetRuntimeUBSize() { return TOTAL_UB_SIZE; }

} // namespace AscendC
