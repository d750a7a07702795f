// Threads are entered with makecontext/setcontext once and then switched with _setjmp/_longjmp,
// which, unlike swapcontext, make no system call to save the signal mask: a warp call costs two
// switches per lane, about 0.05 us instead of 5. The fortified longjmp refuses jumps between
// stacks, so it is turned off for this file.
#undef _FORTIFY_SOURCE
#include "SimtScheduler.h"

#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define SAGE_ASAN_FIBERS 1
#endif

namespace sage::npu {

namespace {
// Each thread's stack. SIMT functions keep small locals; 64 KiB leaves room for printf and the
// simulator's own calls. Stacks are taken only by threads that have started and not finished,
// so a launch without barriers or collectives uses one.
constexpr size_t kStackBytes = 64 * 1024;
thread_local SimtScheduler* g_active = nullptr;
} // namespace

SimtScheduler* SimtScheduler::active() { return g_active; }

// Stack switches, announced to AddressSanitizer in asan builds so that it tracks the right stack.
void SimtScheduler::toThread([[maybe_unused]] Thread& t) {
#ifdef SAGE_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&asanSchedulerFake_, t.stack.get(), kStackBytes);
#endif
}

void SimtScheduler::arrivedInThread([[maybe_unused]] Thread& t) {
#ifdef SAGE_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(t.asanFakeStack, &asanSchedulerBottom_, &asanSchedulerSize_);
#endif
}

void SimtScheduler::toScheduler([[maybe_unused]] Thread& t, [[maybe_unused]] bool finished) {
#ifdef SAGE_ASAN_FIBERS
    __sanitizer_start_switch_fiber(finished ? nullptr : &t.asanFakeStack, asanSchedulerBottom_, asanSchedulerSize_);
#endif
}

SimtScheduler::SimtScheduler(rt::SimtDims threads, rt::SimtDims block, rt::SimtDims grid, void (*body)(void*),
                             void* ctx)
    : threads_(size_t(threads.x) * threads.y * threads.z), dims_(threads), body_(body), ctx_(ctx) {
    const size_t warps = (threads_.size() + rt::kSimtWarpSize - 1) / rt::kSimtWarpSize;
    released_.assign(warps * rt::kSimtWarpSize, 0);
    releasedMask_.assign(warps, 0);
    info_.block = block;
    info_.blockDim = threads;
    info_.gridDim = grid;
    outer_ = g_active;
    g_active = this;
}

SimtScheduler::~SimtScheduler() { g_active = outer_; }

void SimtScheduler::setInfo(uint32_t linear) {
    info_.thread = {linear % dims_.x, (linear / dims_.x) % dims_.y, linear / (dims_.x * dims_.y)};
}

std::unique_ptr<char[]> SimtScheduler::takeStack() {
    if (spareStacks_.empty()) return std::unique_ptr<char[]>(new char[kStackBytes]);
    auto s = std::move(spareStacks_.back());
    spareStacks_.pop_back();
    return s;
}

void SimtScheduler::entry() {
    SimtScheduler* s = g_active;
    s->arrivedInThread(s->threads_[s->current_]);
    try {
        s->body_(s->ctx_);
    } catch (...) {
        s->error_ = std::current_exception();
    }
    s->threads_[s->current_].state = State::Done;
    s->toScheduler(s->threads_[s->current_], true);
    _longjmp(s->scheduler_, 1);  // never returns: the scheduler recycles this stack
}

void SimtScheduler::resume(uint32_t index) {
    Thread& t = threads_[index];
    current_ = index;
    setInfo(index);
    const bool starting = t.state == State::NotStarted;
    if (starting) {
        t.stack = takeStack();
        getcontext(&t.context);
        t.context.uc_stack.ss_sp = t.stack.get();
        t.context.uc_stack.ss_size = kStackBytes;
        t.context.uc_link = nullptr;
        makecontext(&t.context, &SimtScheduler::entry, 0);
    }
    t.state = State::Runnable;
    if (_setjmp(scheduler_) == 0) {
        toThread(t);
        if (starting) setcontext(&t.context);
        _longjmp(t.resumeAt, 1);
    }
#ifdef SAGE_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(asanSchedulerFake_, nullptr, nullptr);
#endif
    if (t.state == State::Done) spareStacks_.push_back(std::move(t.stack));
}

void SimtScheduler::waitHere(State state) {
    Thread& t = threads_[current_];
    t.state = state;
    if (_setjmp(t.resumeAt) == 0) {
        toScheduler(t, false);
        _longjmp(scheduler_, 1);
    }
    arrivedInThread(t);
    // Resumed: the scheduler made this thread current again and set its position.
}

void SimtScheduler::syncThreads() { waitHere(State::AtBarrier); }

void SimtScheduler::warpExchange(uint64_t bits, uint64_t out[rt::kSimtWarpSize], uint32_t* activeMask) {
    const uint32_t me = current_;
    threads_[me].warpValue = bits;
    waitHere(State::AtWarp);
    const uint32_t warp = me / rt::kSimtWarpSize;
    for (uint32_t lane = 0; lane < rt::kSimtWarpSize; ++lane) out[lane] = released_[warp * rt::kSimtWarpSize + lane];
    *activeMask = releasedMask_[warp];
}

bool SimtScheduler::releaseBarrier() {
    bool any = false;
    for (const Thread& t : threads_) {
        if (t.state == State::AtBarrier) any = true;
        else if (t.state != State::Done) return false;
    }
    for (Thread& t : threads_)
        if (t.state == State::AtBarrier) t.state = State::Runnable;
    return any;
}

bool SimtScheduler::releaseWarps() {
    bool released = false;
    for (size_t base = 0; base < threads_.size(); base += rt::kSimtWarpSize) {
        const size_t end = std::min(threads_.size(), base + rt::kSimtWarpSize);
        bool waiting = false, ready = true;
        for (size_t i = base; i < end; ++i) {
            waiting |= threads_[i].state == State::AtWarp;
            ready &= threads_[i].state == State::AtWarp || threads_[i].state == State::Done;
        }
        if (!waiting || !ready) continue;
        const size_t warp = base / rt::kSimtWarpSize;
        uint32_t mask = 0;
        for (size_t i = base; i < base + rt::kSimtWarpSize; ++i) {
            const bool takesPart = i < end && threads_[i].state == State::AtWarp;
            released_[i] = takesPart ? threads_[i].warpValue : 0;
            if (takesPart) {
                mask |= 1u << (i - base);
                threads_[i].state = State::Runnable;
            }
        }
        releasedMask_[warp] = mask;
        released = true;
    }
    return released;
}

std::string SimtScheduler::run() {
    for (;;) {
        bool ran = false;
        for (uint32_t i = 0; i < threads_.size(); ++i) {
            const State st = threads_[i].state;
            if (st != State::NotStarted && st != State::Runnable) continue;
            resume(i);
            ran = true;
            if (error_) std::rethrow_exception(error_);
        }
        bool allDone = true;
        for (const Thread& t : threads_) allDone &= t.state == State::Done;
        if (allDone) return {};
        if (releaseBarrier() || releaseWarps() || ran) continue;
        uint32_t atBarrier = 0, atWarp = 0;
        for (const Thread& t : threads_) {
            atBarrier += t.state == State::AtBarrier;
            atWarp += t.state == State::AtWarp;
        }
        return std::to_string(atBarrier) + " threads wait at asc_syncthreads while " + std::to_string(atWarp) +
               " wait at a warp collective (shuffle, vote or warp reduction) whose warp has lanes at the barrier";
    }
}

uint64_t SimtScheduler::busiestLaneOperationsSum() const {
    uint64_t sum = 0;
    for (size_t base = 0; base < threads_.size(); base += rt::kSimtWarpSize) {
        uint64_t most = 0;
        for (size_t i = base; i < std::min(threads_.size(), base + rt::kSimtWarpSize); ++i)
            most = std::max(most, threads_[i].operations);
        sum += most;
    }
    return sum;
}

} // namespace sage::npu
