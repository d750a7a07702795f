// The boundary between the SIMT API headers (simt_api/*) and the simulator runtime
// (core/npu/src/Simt*.cpp). A SIMT launch runs its function once per thread, each thread a
// cooperative fiber of the simulated core: a thread runs until it finishes or reaches a block
// barrier or a warp collective, then the next runnable thread runs. Kernel code never calls these
// directly.
#pragma once

#include "kernel_runtime.h"

#include <cstdint>

namespace sage::npu::rt {

// A launch's extent in threads (x fastest); every component at least 1.
struct SimtDims {
    uint32_t x = 1, y = 1, z = 1;
};

// Where the running thread is: its index in the block, the block's index in the grid, and the
// extents of both.
struct SimtThreadInfo {
    SimtDims thread, block, blockDim, gridDim;
};

// The largest thread count of one SIMT launch (a block).
constexpr uint32_t kSimtMaxThreads = 2048;
constexpr uint32_t kSimtWarpSize = 32;

// Runs body(ctx) for every thread of a `threads` block on the current core, then issues the
// launch on PIPE_V with its cost. `name` is what the timeline shows. `pointers` are the launch's
// pointer arguments: the GM allocations they point into are the ones whose stores are recorded
// as the device's (nullptr entries are skipped). A bad extent (a zero component, more than
// kSimtMaxThreads threads) is a fatal `simt_launch_invalid`.
void simtLaunch(const char* name, SimtDims threads, void (*body)(void*), void* ctx, const void* const* pointers,
                uint32_t pointerCount, Loc loc);
// The running thread's position; a fatal `simt_outside_launch` outside a SIMT launch.
const SimtThreadInfo& simtThread(const char* api, Loc loc);
// Around the launch of a `__global__` SIMT kernel over `grid` (the <<<>>> launch of a program):
// the blocks see that grid, and the GM stores of the whole grid through `pointers` are recorded
// once at the end (simtGridEnd), not per block.
void simtGridBegin(SimtDims grid, const void* const* pointers, uint32_t pointerCount);
void simtGridEnd();

// asc_syncthreads: the thread waits until every thread of the block that has not finished
// reaches a barrier.
void simtSyncThreads(Loc loc);
// A warp collective: the thread leaves `bits`, waits until every unfinished lane of its warp has
// left one, and receives all 32 lanes' values (lanes that finished or do not exist leave 0) and
// the mask of lanes that took part. Shuffles, votes and warp reductions are built on it.
void simtWarpExchange(uint64_t bits, uint64_t out[kSimtWarpSize], uint32_t* activeMask, const char* api, Loc loc);
// A checked memory access of a SIMT API call (atomics, cache-hinted loads and stores): the
// address must lie inside a GM allocation or the core's UB, else a fatal `simt_out_of_bounds`
// naming the thread. Returns the host address to access. Counted in the launch's cost.
uint8_t* simtAccess(const void* address, uint32_t bytes, bool write, const char* api, Loc loc);
// One SIMT API operation of the running thread (a math call, a fence): counted in the cost.
void simtCount(uint32_t operations);

} // namespace sage::npu::rt
