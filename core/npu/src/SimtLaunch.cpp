// The SIMT API's runtime side (simt_api/simt_runtime.h): a launch checks its extent, runs its
// threads through SimtScheduler, accounts for the memory the threads changed and issues the
// launch on PIPE_V with its cost.
//
// What the threads write through plain pointers is found by comparing GM and UB before and after
// the launch (SimtMemoryDiff.h): changed GM bytes are recorded as the device's writes, changed UB
// bytes as PIPE_V writes for race tracking. Accesses through the API's own calls (atomics,
// cache-hinted loads and stores) are bounds-checked one by one (simtAccess).
#include "SimImpl.h"
#include "SimtMemoryDiff.h"
#include "SimtScheduler.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace sage::npu::rt {

namespace {

// Cost assumptions (no published SIMT issue figures are at hand; docs/kernel-api.md §17.11): a
// launch costs kLaunchCycles, each warp kWarpCycles plus kOperationCycles per API operation of its
// busiest lane, and kSchedulers warps issue side by side.
constexpr uint64_t kLaunchCycles = 32;
constexpr uint64_t kWarpCycles = 16;
constexpr uint64_t kOperationCycles = 2;
constexpr uint64_t kSchedulers = 4;

thread_local SimtDims g_grid{1, 1, 1};
thread_local bool g_gridSet = false;
// The GM copy of the `__global__` kernel launch in progress (simtGridBegin .. simtGridEnd).
thread_local std::unique_ptr<SimtGmDiff> g_gridDiff;

SimtDims unflatten(uint64_t linear, SimtDims extent) {
    return {uint32_t(linear % extent.x), uint32_t((linear / extent.x) % extent.y),
            uint32_t(linear / (uint64_t(extent.x) * extent.y))};
}

std::string dimsText(SimtDims d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

void checkExtent(Simulation::Impl& s, SimtDims t, const Loc& loc) {
    const uint64_t n = uint64_t(t.x) * t.y * t.z;
    if (t.x == 0 || t.y == 0 || t.z == 0 || n > kSimtMaxThreads)
        s.report("simt_launch_invalid",
                 "a SIMT launch of dim3" + dimsText(t) + " = " + std::to_string(n) +
                     " threads: every component must be at least 1 and the block at most " +
                     std::to_string(kSimtMaxThreads) + " threads. Launch fewer threads and loop over the data.",
                 loc, true);
}

SimtScheduler& activeScheduler(const char* api, const Loc& loc) {
    SimtScheduler* sch = SimtScheduler::active();
    if (!sch)
        activeImpl().report("simt_outside_launch",
                            std::string(api) + " is a SIMT call, but no SIMT function is running: call it inside a "
                                               "function started with asc_vf_call<F>(dim3(threads), ...) or a "
                                               "__global__ kernel launched with <<<grid, threads, ubuf, stream>>>",
                            loc, true);
    return *sch;
}

std::string threadText(const SimtScheduler& sch) {
    const SimtThreadInfo& t = sch.current();
    return "thread " + dimsText(t.thread) + " of block " + dimsText(t.block);
}

} // namespace

void simtGridBegin(SimtDims grid, const void* const* pointers, uint32_t pointerCount) {
    g_grid = grid;
    g_gridSet = true;
    g_gridDiff = std::make_unique<SimtGmDiff>(activeImpl(), pointers, pointerCount);
}

void simtGridEnd() {
    auto& s = activeImpl();
    if (g_gridDiff && !s.launches.empty()) s.launches.back().gmBytesWritten += g_gridDiff->record();
    g_gridDiff.reset();
    g_grid = {1, 1, 1};
    g_gridSet = false;
}

void simtLaunch(const char* name, SimtDims threads, void (*body)(void*), void* ctx, const void* const* pointers,
                uint32_t pointerCount, Loc loc) {
    auto& s = activeImpl();
    s.ctx();
    checkExtent(s, threads, loc);
    const SimtDims grid = g_gridSet ? g_grid : SimtDims{uint32_t(std::max<int64_t>(1, blockNum())), 1, 1};
    const SimtDims block = unflatten(uint64_t(blockIdx()), grid);
    SimtGmDiff gmDiff(s, pointers, pointerCount);
    SimtUbDiff ubDiff(s);
    SimtScheduler sch(threads, block, grid, body, ctx);
    const std::string deadlock = sch.run();
    if (!deadlock.empty())
        s.report("simt_deadlock", std::string("the SIMT launch cannot finish: ") + deadlock +
                                      ". Every thread of a block must reach the same asc_syncthreads, and every "
                                      "lane of a warp the same warp call.",
                 loc, true);
    const uint64_t warps = (sch.threadCount() + kSimtWarpSize - 1) / kSimtWarpSize;
    const uint64_t cycles =
        kLaunchCycles + (warps * kWarpCycles + sch.busiestLaneOperationsSum() * kOperationCycles + kSchedulers - 1) /
                            kSchedulers;
    const IssueResult at = s.issue(PipeId::V, name, cycles, s.prof.vectorTailCycles, 0, 0, 1, loc);
    s.launch->gmBytesWritten += gmDiff.record();
    ubDiff.record(at, loc);
}

const SimtThreadInfo& simtThread(const char* api, Loc loc) { return activeScheduler(api, loc).current(); }

void simtSyncThreads(Loc loc) {
    SimtScheduler& sch = activeScheduler("asc_syncthreads", loc);
    sch.count(1);
    sch.syncThreads();
}

void simtWarpExchange(uint64_t bits, uint64_t out[kSimtWarpSize], uint32_t* activeMask, const char* api, Loc loc) {
    SimtScheduler& sch = activeScheduler(api, loc);
    sch.count(1);
    sch.warpExchange(bits, out, activeMask);
}

void simtCount(uint32_t operations) {
    if (SimtScheduler* sch = SimtScheduler::active()) sch->count(operations);
}

uint8_t* simtAccess(const void* address, uint32_t bytes, bool write, const char* api, Loc loc) {
    auto& s = activeImpl();
    SimtScheduler& sch = activeScheduler(api, loc);
    sch.count(1);
    const auto host = reinterpret_cast<uintptr_t>(address);
    const auto it = s.gmAllocationAtOrBefore(host);
    if (it != s.gmAllocations.end() && host + bytes <= it->first + it->second.bytes) {
        (write ? s.launch->gmBytesWritten : s.launch->gmBytesRead) += bytes;
        return static_cast<uint8_t*>(const_cast<void*>(address));
    }
    // A UB address, as GetPhyAddr hands it out: an offset into the core's UB.
    if (host + bytes <= s.ctx().mem[size_t(memOf(Pos::VECCALC))].size()) return s.ctx().localPtr(LocalRef{Pos::VECCALC, uint32_t(host), bytes});
    const bool startsInside = it != s.gmAllocations.end() && host < it->first + it->second.bytes;
    s.report("simt_out_of_bounds",
             std::string(api) + " by " + threadText(sch) + (write ? " writes " : " reads ") + std::to_string(bytes) +
                 " bytes " +
                 (startsInside ? std::to_string(host + bytes - (it->first + it->second.bytes)) +
                                     " bytes past the end of its GM allocation"
                               : "outside every GM allocation and the UB") +
                 ". Check this thread's index against the data length (a tail where threads exceed the data).",
             loc, true);
    return nullptr;
}

} // namespace sage::npu::rt
