// Runs the threads of one SIMT launch (a block) as cooperative fibers on the simulated core's
// host thread. A thread runs until it finishes or waits — at a block barrier or a warp
// collective — and then the next runnable thread in index order runs. When every unfinished
// thread waits at the barrier, they all continue; when every unfinished lane of a warp waits at a
// collective, its lanes receive each other's values and continue. Threads that wait at anything
// else while no thread can run are a deadlock (a barrier in code some threads never reach while
// others wait at a warp collective).
#pragma once

#include "simt_api/simt_runtime.h"

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <setjmp.h>
#include <ucontext.h>

namespace sage::npu {

class SimtScheduler {
public:
    SimtScheduler(rt::SimtDims threads, rt::SimtDims block, rt::SimtDims grid, void (*body)(void*), void* ctx);
    ~SimtScheduler();
    SimtScheduler(const SimtScheduler&) = delete;
    SimtScheduler& operator=(const SimtScheduler&) = delete;

    // Runs every thread to its end. Rethrows what a thread threw (a fatal diagnostic); returns
    // an empty string, or a description of a deadlock.
    std::string run();

    // Called from inside a thread.
    const rt::SimtThreadInfo& current() const { return info_; }
    void syncThreads();
    void warpExchange(uint64_t bits, uint64_t out[rt::kSimtWarpSize], uint32_t* activeMask);
    void count(uint32_t operations) { threads_[current_].operations += operations; }
    uint32_t threadCount() const { return uint32_t(threads_.size()); }
    // The instruction-issue figure of the launch: per warp, its busiest lane's operations.
    uint64_t busiestLaneOperationsSum() const;
    uint32_t currentLinear() const { return current_; }

    // The scheduler of the SIMT launch running on this host thread (nullptr outside one).
    static SimtScheduler* active();

private:
    enum class State { NotStarted, Runnable, AtBarrier, AtWarp, Done };
    struct Thread {
        State state = State::NotStarted;
        ucontext_t context{};  // only to enter the thread's stack the first time
        jmp_buf resumeAt{};     // where the waiting thread continues
        void* asanFakeStack = nullptr;
        std::unique_ptr<char[]> stack;
        uint64_t warpValue = 0;
        uint64_t operations = 0;
    };
    static void entry();
    void resume(uint32_t index);
    void waitHere(State state);
    bool releaseBarrier();
    bool releaseWarps();
    void setInfo(uint32_t linear);
    std::unique_ptr<char[]> takeStack();

    std::vector<Thread> threads_;
    std::vector<std::unique_ptr<char[]>> spareStacks_;
    // Per warp, the values its lanes left at the last released collective, and who took part.
    std::vector<uint64_t> released_;
    std::vector<uint32_t> releasedMask_;
    rt::SimtDims dims_;
    rt::SimtThreadInfo info_;
    void (*body_)(void*);
    void* ctx_;
    uint32_t current_ = 0;
    jmp_buf scheduler_{};
    // AddressSanitizer's view of the stack switches (asan builds only): the scheduler's stack.
    void* asanSchedulerFake_ = nullptr;
    const void* asanSchedulerBottom_ = nullptr;
    size_t asanSchedulerSize_ = 0;
    void toThread(Thread& t);
    void arrivedInThread(Thread& t);
    void toScheduler(Thread& t, bool finished);
    std::exception_ptr error_;
    SimtScheduler* outer_ = nullptr;
};

} // namespace sage::npu
