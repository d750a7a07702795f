// Warp functions: shuffles, votes and warp reductions. Each is a warp collective
// (rt::simtWarpExchange): the lanes of a warp that have not finished all reach it, then each
// computes its result from every lane's value. Lanes are the thread's linear index modulo 32.
#pragma once

#include "simt_api/simt_builtins.h"

#include <cstring>
#include <type_traits>

namespace sage::simt {

struct WarpValues {
    uint64_t bits[npu::rt::kSimtWarpSize] = {};
    uint32_t active = 0;  // lanes that took part
    uint32_t lane = 0;    // the calling thread's lane
};

template <typename T> inline WarpValues exchange(T value, const char* api, npu::Loc loc) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp function moves values of at most 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    WarpValues w;
    const auto& t = npu::rt::simtThread(api, loc);
    w.lane = (t.thread.x + t.blockDim.x * (t.thread.y + t.blockDim.y * t.thread.z)) % npu::rt::kSimtWarpSize;
    (void)t;
    npu::rt::simtWarpExchange(bits, w.bits, &w.active, api, loc);
    loadThreadIndices(api, loc);
    return w;
}

template <typename T> inline T laneValue(const WarpValues& w, uint32_t lane) {
    T v;
    std::memcpy(&v, &w.bits[lane % npu::rt::kSimtWarpSize], sizeof(T));
    return v;
}

// The source lane of a shuffle inside the caller's segment of `width` lanes; the caller's own
// lane when the source falls outside the segment (up/down) or the width is not a power of two.
inline uint32_t segmentLane(uint32_t lane, int64_t offsetInSegment, int width, bool clampToOwn) {
    const uint32_t w = (width <= 0 || width > 32 || (width & (width - 1))) ? 32u : uint32_t(width);
    const uint32_t base = lane / w * w;
    if (offsetInSegment < 0 || offsetInSegment >= int64_t(w)) return clampToOwn ? lane : base + uint32_t(offsetInSegment % w);
    return base + uint32_t(offsetInSegment);
}

template <typename T, typename Op> inline T reduce(T value, Op op, const char* api, npu::Loc loc) {
    const WarpValues w = exchange(value, api, loc);
    bool first = true;
    T acc{};
    for (uint32_t lane = 0; lane < npu::rt::kSimtWarpSize; ++lane) {
        if (!((w.active >> lane) & 1u)) continue;
        const T v = laneValue<T>(w, lane);
        acc = first ? v : op(acc, v);
        first = false;
    }
    return acc;
}

} // namespace sage::simt

// The calling thread's lane in its warp (its linear index in the block modulo 32).
__aicore__ inline uint32_t laneid(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto& t = ::sage::npu::rt::simtThread("laneid", loc);
    return (t.thread.x + t.blockDim.x * (t.thread.y + t.blockDim.y * t.thread.z)) % ::sage::npu::rt::kSimtWarpSize;
}

// Masks of the lanes relative to the caller's: its own bit (eq), the lanes below it (lt), up to
// and including it (le), above it (gt), from it on (ge).
__aicore__ inline uint32_t lanemask_eq(::sage::npu::Loc loc = ::sage::npu::Loc::current()) { return 1u << laneid(loc); }
__aicore__ inline uint32_t lanemask_lt(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return (1u << laneid(loc)) - 1u;
}
__aicore__ inline uint32_t lanemask_le(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return lanemask_lt(loc) | lanemask_eq(loc);
}
__aicore__ inline uint32_t lanemask_gt(::sage::npu::Loc loc = ::sage::npu::Loc::current()) { return ~lanemask_le(loc); }
__aicore__ inline uint32_t lanemask_ge(::sage::npu::Loc loc = ::sage::npu::Loc::current()) { return ~lanemask_lt(loc); }

// `var` of lane `srcLane` (of the caller's segment of `width` lanes).
template <typename T>
__aicore__ inline T asc_shfl(T var, int32_t srcLane, int32_t width = warpSize,
                             ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(var, "asc_shfl", loc);
    const uint32_t seg = (width <= 0 || width > 32) ? 32u : uint32_t(width);
    return ::sage::simt::laneValue<T>(w, ::sage::simt::segmentLane(w.lane, int64_t(uint32_t(srcLane) % seg), width, false));
}
// `var` of the lane `delta` below (up) or above (down) the caller; its own when that leaves the segment.
template <typename T>
__aicore__ inline T asc_shfl_up(T var, uint32_t delta, int32_t width = warpSize,
                                ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(var, "asc_shfl_up", loc);
    const uint32_t seg = (width <= 0 || width > 32) ? 32u : uint32_t(width);
    return ::sage::simt::laneValue<T>(w, ::sage::simt::segmentLane(w.lane, int64_t(w.lane % seg) - delta, width, true));
}
template <typename T>
__aicore__ inline T asc_shfl_down(T var, uint32_t delta, int32_t width = warpSize,
                                  ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(var, "asc_shfl_down", loc);
    const uint32_t seg = (width <= 0 || width > 32) ? 32u : uint32_t(width);
    return ::sage::simt::laneValue<T>(w, ::sage::simt::segmentLane(w.lane, int64_t(w.lane % seg) + delta, width, true));
}
template <typename T>
__aicore__ inline T asc_shfl_xor(T var, int32_t laneMask, int32_t width = warpSize,
                                 ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(var, "asc_shfl_xor", loc);
    const uint32_t seg = (width <= 0 || width > 32) ? 32u : uint32_t(width);
    return ::sage::simt::laneValue<T>(w, ::sage::simt::segmentLane(w.lane, int64_t((w.lane % seg) ^ uint32_t(laneMask)), width, true));
}

// The sum, largest and smallest of `value` over the lanes taking part.
template <typename T> __aicore__ inline T asc_reduce_add(T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return ::sage::simt::reduce(value, [](T a, T b) { return T(a + b); }, "asc_reduce_add", loc);
}
template <typename T> __aicore__ inline T asc_reduce_max(T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return ::sage::simt::reduce(value, [](T a, T b) { return a < b ? b : a; }, "asc_reduce_max", loc);
}
template <typename T> __aicore__ inline T asc_reduce_min(T value, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return ::sage::simt::reduce(value, [](T a, T b) { return b < a ? b : a; }, "asc_reduce_min", loc);
}

// Bit i set when lane i takes part and its predicate is non-zero.
__aicore__ inline uint32_t asc_ballot(int32_t predicate, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(int32_t(predicate != 0), "asc_ballot", loc);
    uint32_t out = 0;
    for (uint32_t lane = 0; lane < ::sage::npu::rt::kSimtWarpSize; ++lane)
        if (((w.active >> lane) & 1u) && w.bits[lane]) out |= 1u << lane;
    return out;
}
__aicore__ inline int32_t asc_any(int32_t predicate, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return asc_ballot(predicate, loc) != 0;
}
__aicore__ inline int32_t asc_all(int32_t predicate, ::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    const auto w = ::sage::simt::exchange(int32_t(predicate != 0), "asc_all", loc);
    for (uint32_t lane = 0; lane < ::sage::npu::rt::kSimtWarpSize; ++lane)
        if (((w.active >> lane) & 1u) && !w.bits[lane]) return 0;
    return 1;
}
// The lanes of the caller's warp that have not finished.
__aicore__ inline uint32_t asc_activemask(::sage::npu::Loc loc = ::sage::npu::Loc::current()) {
    return ::sage::simt::exchange(int32_t(0), "asc_activemask", loc).active;
}
