// The SIMT programming model's built-ins: `dim3`, the per-thread index variables (`threadIdx`,
// `blockIdx`, `blockDim`, `gridDim`, `warpSize`), the function qualifiers, and the two ways a
// SIMT function starts: `asc_vf_call<F>(dim3(threads), args...)` (or `Simt::VF_CALL`) from a SIMD
// kernel, and a `__global__` SIMT kernel launched with `kernel<<<grid, threads, ubuf, stream>>>`.
// Every thread runs the function on the simulated core (simt_runtime.h). Semantics and what is
// not simulated: docs/kernel-api.md "SIMT API".
#pragma once

#include "kernel_operator.h"
#include "simt_api/simt_runtime.h"

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

// Qualifiers of SIMT code (`__simt_vf__`, `__simt_callee__`, `__launch_bounds__`) are in
// kernel_macros.h: plain functions here.
#define __host__
#define __device__

// A launch extent (CUDA-style): unspecified components are 1.
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};

namespace sage::simt {
// The running thread's indices as the kernel sees them. The runtime switches threads only inside
// API calls (a barrier, a warp collective), and each such call reloads these afterwards.
struct Index3 {
    uint32_t x = 0, y = 0, z = 0;
};
} // namespace sage::simt

inline thread_local ::sage::simt::Index3 threadIdx;
inline thread_local ::sage::simt::Index3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int32_t warpSize = 32;

namespace sage::simt {

// The launch's arguments as the runtime needs them: each pointer argument's address, null for the rest.
template <typename... Args> std::array<const void*, sizeof...(Args) + 1> pointerArgs(const Args&... args) {
    auto one = [](const auto& a) -> const void* {
        if constexpr (std::is_pointer_v<std::decay_t<decltype(a)>>) return (const void*)a;
        else return nullptr;
    };
    return {one(args)..., nullptr};
}

inline dim3 toDim3(const npu::rt::SimtDims& d) { return dim3(d.x, d.y, d.z); }
inline npu::rt::SimtDims toDims(const dim3& d) { return {d.x, d.y, d.z}; }

// Copies the running thread's position into the index variables.
inline void loadThreadIndices(const char* api, npu::Loc loc) {
    const auto& t = npu::rt::simtThread(api, loc);
    threadIdx = {t.thread.x, t.thread.y, t.thread.z};
    blockIdx = {t.block.x, t.block.y, t.block.z};
    blockDim = toDim3(t.blockDim);
    gridDim = toDim3(t.gridDim);
}

// One thread's entry: loads its indices, then calls F with the launch's arguments.
template <auto F, typename... Args> struct SimtThunk {
    std::tuple<Args...> args;
    static void run(void* self) {
        loadThreadIndices("a SIMT thread", npu::Loc::current());
        std::apply([](auto&... a) { F(a...); }, static_cast<SimtThunk*>(self)->args);
    }
};

// The same for a kernel given as a function pointer (a `__global__` kernel launched with <<<>>>).
template <typename K, typename... Args> struct SimtKernelThunk {
    K kernel;
    std::tuple<Args...> args;
    static void run(void* self) {
        auto* t = static_cast<SimtKernelThunk*>(self);
        loadThreadIndices("a SIMT thread", npu::Loc::current());
        std::apply([&](auto&... a) { t->kernel(a...); }, t->args);
    }
};

template <auto F, typename... Args> void launchVf(const dim3& threads, npu::Loc loc, Args&&... args) {
    SimtThunk<F, std::decay_t<Args>...> thunk{std::tuple<std::decay_t<Args>...>(static_cast<Args&&>(args)...)};
    const auto pointers = std::apply([](const auto&... a) { return pointerArgs(a...); }, thunk.args);
    npu::rt::simtLaunch("SIMT", toDims(threads), &SimtThunk<F, std::decay_t<Args>...>::run, &thunk, pointers.data(),
                        uint32_t(pointers.size() - 1), loc);
}

// One block of a `__global__` SIMT kernel: its threads on the current core.
template <typename K, typename... Args> struct SimtBlock {
    K kernel;
    const char* name;
    dim3 threads;
    npu::Loc loc;
    std::tuple<Args...> args;
    static void run(void* self) {
        auto* b = static_cast<SimtBlock*>(self);
        SimtKernelThunk<K, Args...> thunk{b->kernel, b->args};
        // The grid records its GM stores as a whole (simtGridBegin): no pointers per block.
        npu::rt::simtLaunch(b->name, toDims(b->threads), &SimtKernelThunk<K, Args...>::run, &thunk, nullptr, 0,
                            b->loc);
    }
};

// `kernel<<<grid, threads, ubuf, stream>>>(args)` of a `__global__` SIMT kernel: the grid's blocks
// on the simulated cores, each running `threads` threads.
template <typename K, typename... Args>
void launchKernel(const char* name, const dim3& grid, const dim3& threads, K kernel, npu::Loc loc, Args... args) {
    const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
    const auto pointers = pointerArgs(args...);
    npu::rt::simtGridBegin(toDims(grid), pointers.data(), uint32_t(pointers.size() - 1));
    SimtBlock<K, Args...> block{kernel, name, threads, loc, std::tuple<Args...>(args...)};
    npu::rt::launch(name, blocks > 0xffffffffull ? 0u : uint32_t(blocks), &SimtBlock<K, Args...>::run, &block, loc);
    npu::rt::simtGridEnd();
}

} // namespace sage::simt

// Runs the SIMT function F for every thread of `threads` on the current core (the SIMD kernel
// continues when all have finished). The register-level form (no dim3) is in kernel_vec_reg.h.
template <auto F, typename... Args> __aicore__ inline void asc_vf_call(dim3 threads, Args&&... args) {
    ::sage::simt::launchVf<F>(threads, ::sage::npu::Loc::current(), static_cast<Args&&>(args)...);
}

namespace AscendC::Simt {
using Dim3 = ::dim3;
template <auto F, typename... Args> __aicore__ inline void VF_CALL(dim3 threads, Args&&... args) {
    ::sage::simt::launchVf<F>(threads, ::sage::npu::Loc::current(), static_cast<Args&&>(args)...);
}
namespace detail {
inline uint32_t component(const ::sage::npu::rt::SimtDims& d, int dim) { return dim == 0 ? d.x : dim == 1 ? d.y : d.z; }
} // namespace detail
// The thread's index along `dim` (0 = x), the block's thread count along it, the block index and
// the block count (the SIMD kernel's blocks when called from one).
template <int dim = 0> __aicore__ inline uint32_t GetThreadIdx() {
    return detail::component(::sage::npu::rt::simtThread("Simt::GetThreadIdx", ::sage::npu::Loc::current()).thread, dim);
}
template <int dim = 0> __aicore__ inline uint32_t GetThreadNum() {
    return detail::component(::sage::npu::rt::simtThread("Simt::GetThreadNum", ::sage::npu::Loc::current()).blockDim,
                             dim);
}
template <int dim = 0> __aicore__ inline uint32_t GetBlockIdx() {
    return detail::component(::sage::npu::rt::simtThread("Simt::GetBlockIdx", ::sage::npu::Loc::current()).block, dim);
}
template <int dim = 0> __aicore__ inline uint32_t GetBlockNum() {
    return detail::component(::sage::npu::rt::simtThread("Simt::GetBlockNum", ::sage::npu::Loc::current()).gridDim,
                             dim);
}
} // namespace AscendC::Simt

namespace sage::simt {
// `f` narrowed to the 16-bit float type T, clamped to ±maxFinite instead of overflowing to
// infinity (NaN stays NaN): the `_rn_sat` conversions of asc_fp16.h and asc_bf16.h.
template <typename T> __aicore__ inline T saturatingNarrow(float f, float maxFinite) {
    if (f != f) return T(f);
    return T(f > maxFinite ? maxFinite : f < -maxFinite ? -maxFinite : f);
}
} // namespace sage::simt
