// Host side of a candidate: GM allocation, ICPU_RUN_KF launch, and the SAGE host entry point.
//
// A kernel file may carry its own host side:
//     SAGE_HOST(ctx) {
//         uint32_t n = ctx.numel("x");
//         MyTiling t{n, 8};
//         ICPU_RUN_KF(my_kernel, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(t));
//     }
// Without one, the task's launch spec is used (entry name, argument order, blockDim, tiling).
#pragma once

#include "kernel_macros.h"

#include <tuple>
#include <utility>

namespace AscendC {
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };
inline void SetKernelMode(KernelMode) {}
inline uint8_t* GmAlloc(size_t bytes) { return static_cast<uint8_t*>(::sage::npu::rt::gmAlloc(bytes)); }
inline void GmFree(void* p) { ::sage::npu::rt::gmFree(p); }
} // namespace AscendC

namespace sage::host {

// What the pipeline hands a candidate's host side: the task's tensors in GM, its shape
// symbols and attributes, and the device. Implemented by the runner (libsage_npu).
class Context {
public:
    virtual ~Context() = default;
    virtual GM_ADDR gm(const char* tensorName) = 0;            // input or output buffer
    virtual uint64_t numel(const char* tensorName) = 0;        // element count
    virtual int64_t dim(const char* symbol) = 0;               // a shape symbol's value, e.g. "N"
    virtual int64_t shape(const char* tensorName, int axis) = 0;
    virtual int rank(const char* tensorName) = 0;
    virtual double attr(const char* name) = 0;                 // a task attribute (scalar)
    virtual int vectorCores() = 0;
    virtual int cubeCores() = 0;
    virtual uint32_t ubBytes() = 0;                            // usable UB per core
    virtual GM_ADDR workspace(uint64_t bytes) = 0;             // scratch GM, zeroed
    virtual void setTilingKey(uint64_t key) = 0;
    virtual GM_ADDR tilingBytes(const void* data, uint64_t bytes) = 0;
    template <typename T> GM_ADDR tiling(const T& t) { return tilingBytes(&t, sizeof(T)); }
};

} // namespace sage::host

#define SAGE_HOST(ctx) extern "C" void sage_host_launch(::sage::host::Context& ctx)

namespace sage::npu::detail {
template <typename F, typename... Args> struct LaunchThunk {
    F func;
    std::tuple<Args...> args;
    static void run(void* self) {
        auto* t = static_cast<LaunchThunk*>(self);
        g_coreType = AIV;  // each block starts as a vector core (KERNEL_TASK_TYPE_DEFAULT may change it)
        std::apply([&](auto&&... a) { t->func(a...); }, t->args);
    }
};
template <typename F, typename... Args>
void launchKernel(const char* name, uint32_t blockDim, F func, Loc loc, Args... args) {
    LaunchThunk<F, Args...> thunk{func, std::tuple<Args...>(args...)};
    ::sage::npu::rt::launch(name, blockDim, &LaunchThunk<F, Args...>::run, &thunk, loc);
}
} // namespace sage::npu::detail

// ICPU_RUN_KF(func, blockDim, args...): run `func` on blockDim simulated cores.
#define ICPU_RUN_KF(func, blockDim, ...)                                                                   \
    ::sage::npu::detail::launchKernel(#func, static_cast<uint32_t>(blockDim), func,                         \
                                      std::source_location::current(), __VA_ARGS__)
