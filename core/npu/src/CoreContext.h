// The state of one simulated core while it runs one block: local memories, queues and
// buffers, flags, the per-pipe timing model and the race detector's shadow memory.
#pragma once

#include "sage_npu/L2Model.h"
#include "kernel_runtime.h"
#include "sage_npu/Simulation.h"

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sage::npu {

// Thrown after a fatal diagnostic was recorded: unwinds the kernel, caught by launch().
struct SimAbort {};

enum class Mem : uint8_t { UB, L1, L0A, L0B, L0C, BT, Count };
Mem memOf(Pos p);
const char* memName(Mem m);
const char* posName(Pos p);
PipeId producerPipe(Pos p, bool splitArch);
PipeId consumerPipe(Pos p, bool splitArch);

using VClock = std::array<uint32_t, kPipeCount>;
inline void joinInto(VClock& a, const VClock& b) {
    for (int i = 0; i < kPipeCount; ++i) a[i] = a[i] < b[i] ? b[i] : a[i];
}

// Shadow state of one 32-byte block of local memory, for race detection and scalar auto-sync.
struct ShadowBlock {
    uint32_t wEpoch = 0;
    uint32_t wLine = 0;
    uint64_t wDone = 0;
    uint16_t wFile = 0;
    uint8_t wPipe = 0;
    std::array<uint32_t, kPipeCount> rEpoch{};
    std::array<uint32_t, kPipeCount> rLine{};
    std::array<uint64_t, kPipeCount> rDone{};
};

struct PipeClock {
    uint64_t free = 0;      // when the pipe can start its next instruction
    uint64_t lastDone = 0;  // when everything issued to it so far has completed
    uint64_t barrier = 0;   // earliest start imposed by waits
    uint64_t covered = 0;   // for the busy-interval union
    uint64_t busy = 0;
    uint64_t instructions = 0;
};

struct Flag {
    bool set = false;
    uint64_t time = 0;
    VClock clock{};
    uint32_t line = 0;
    std::string file;
    int32_t flowId = -1;
};

struct QueueBuffer {
    uint32_t addr = 0;
    enum State : uint8_t { Free, Allocated, Enqueued } state = Free;
    bool freeSyncPending = false;
    uint64_t freeTime = 0;
    VClock freeClock{};
    uint64_t enqTime = 0;
    VClock enqClock{};
    int32_t enqFlow = -1;
};

struct QueueState {
    Pos src, dst;
    int depth = 1;
    uint32_t len = 0;
    bool initialised = false;
    uint32_t initLine = 0;
    std::vector<QueueBuffer> buffers;
    std::deque<int> fifo;
    int nextAlloc = 0;
};

struct BufState {
    Pos pos;
    uint32_t addr = 0, len = 0;
    bool initialised = false;
    uint32_t initLine = 0;
};

// A TBufPool: a region [base, base + len) of one memory, handing out InitBuffer space from `top`.
struct BufPoolState {
    Pos pos;
    uint32_t base = 0, len = 0, top = 0;
    bool initialised = false;
};

struct Allocation {  // for the capacity report
    std::string what;
    uint32_t bytes;
    uint32_t line;
};

class CoreContext {
public:
    CoreContext(Simulation::Impl& sim, const DeviceProfile& p);
    // `path` is how this launch reaches GM; the chip rate is shared by `activeCores`.
    void reset(uint32_t block, uint32_t core, const GmPath& path, uint32_t activeCores);

    Simulation::Impl& sim;
    const DeviceProfile& prof;
    uint32_t block = 0, core = 0;

    std::array<std::vector<uint8_t>, size_t(Mem::Count)> mem;
    std::array<uint32_t, size_t(Mem::Count)> capacity{};
    std::array<uint32_t, size_t(Mem::Count)> allocTop{};
    std::array<std::vector<Allocation>, size_t(Mem::Count)> allocations;
    std::array<int, 16> outstandingAllocs{};  // per Pos
    std::vector<QueueState> queues;
    std::vector<BufState> bufs;
    std::vector<BufPoolState> bufPools;
    std::array<Flag, 64 * 8> flags{};  // [src*8+dst][eventId]
    std::array<int, 64> nextEventId{};

    // Timing.
    std::array<PipeClock, kPipeCount> pipes{};
    uint64_t scalarTime = 0;
    uint64_t scalarSegStart = 0;  // open scalar segment for the timeline
    uint32_t scalarSegLine = 0;
    uint16_t scalarSegFile = 0;
    bool scalarSegOpen = false;
    // The core's GM port, shared by MTE2/MTE3/FIX: busy intervals [start, end). A transfer takes
    // the earliest gap after it is ready, so a later-issued copy can use the port while an
    // earlier-issued one still waits for its data (as independent DMA queues do).
    std::map<uint64_t, uint64_t> portBusy;
    uint64_t reservePort(uint64_t ready, uint64_t cycles);
    double gmReadBpc = 0, gmWriteBpc = 0, gmL1Bpc = 0, l0cGmBpc = 0;
    uint32_t gmReadLatency = 0, gmWriteLatency = 0;  // L2 and HBM blended (L2Model.h)
    uint32_t scalarGmMiss = 0;  // a scalar GM read that misses the data cache goes to L2 or HBM alike
    std::vector<uint64_t> dcacheTags;

    // Race detection.
    std::array<VClock, kPipeCount> clock{};
    std::array<std::vector<ShadowBlock>, size_t(Mem::Count)> shadow;
    std::array<uint32_t, size_t(Mem::Count)> shadowHigh{};  // blocks touched, for cheap reset

    // Vector mask state.
    bool maskCounter = false;
    float deqScale = 1.0f;  // SetDeqScale: int32 -> half Cast multiplies by it
    bool padValueSet = false;  // SetPadValue: DataCopyPad's padding when the params' isPad is false
    uint64_t padValueBits = 0;
    uint64_t vectorMask[2] = {~0ull, ~0ull};
    int atomicMode = 0;
    // SetLoopModePara state per direction: [0] UB -> GM, [1] GM -> UB.
    std::array<std::optional<rt::LoopMode>, 2> loopMode{};

    // The reduction result registers the scalar unit reads back (GetAccVal, GetReduceMaxMinCount):
    // raw bits of the last count-form ReduceSum, and of the last max/min value with its index;
    // `done` is when the producing vector instruction finishes.
    struct ReduceRegister {
        bool set = false;
        uint64_t value = 0, index = 0, done = 0;
    };
    ReduceRegister accReg, maxMinReg;

    uint8_t* localPtr(const LocalRef& r) { return mem[size_t(memOf(r.pos))].data() + r.addr; }
    uint64_t endCycle() const;
};

} // namespace sage::npu
