#include "CoreContext.h"

#include "SimImpl.h"

#include <algorithm>
#include <cmath>

namespace sage::npu {

Mem memOf(Pos p) {
    switch (p) {
    case Pos::A1: case Pos::B1: case Pos::C1: case Pos::TSCM: return Mem::L1;
    case Pos::A2: return Mem::L0A;
    case Pos::B2: return Mem::L0B;
    case Pos::CO1: return Mem::L0C;
    case Pos::C2: return Mem::BT;
    default: return Mem::UB;  // VECIN, VECOUT, VECCALC, CO2
    }
}

const char* memName(Mem m) {
    static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT"};
    return names[size_t(m)];
}

const char* posName(Pos p) {
    static const char* names[] = {"GM", "VECIN", "VECOUT", "VECCALC", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM", "MAX"};
    return names[size_t(p)];
}

// Which pipe fills a buffer of this position, and which one drains it: the pairs the
// framework syncs on EnQue/DeQue (forward) and FreeTensor/AllocTensor (backward).
PipeId producerPipe(Pos p, bool splitArch) {
    switch (p) {
    case Pos::VECIN: case Pos::A1: case Pos::B1: case Pos::C1: case Pos::TSCM: return PipeId::MTE2;
    case Pos::A2: case Pos::B2: case Pos::C2: return PipeId::MTE1;
    case Pos::CO1: return PipeId::M;
    case Pos::CO2: return splitArch ? PipeId::FIX : PipeId::V;
    default: return PipeId::V;  // VECOUT, VECCALC
    }
}

PipeId consumerPipe(Pos p, bool) {
    switch (p) {
    case Pos::VECOUT: case Pos::CO2: return PipeId::MTE3;
    case Pos::A1: case Pos::B1: case Pos::C1: case Pos::TSCM: return PipeId::MTE1;
    case Pos::A2: case Pos::B2: case Pos::C2: return PipeId::M;
    case Pos::CO1: return PipeId::FIX;
    default: return PipeId::V;  // VECIN, VECCALC
    }
}

CoreContext::CoreContext(Simulation::Impl& s, const DeviceProfile& p) : sim(s), prof(p) {
    // TPipe may use the whole UB: a real 910B ran a kernel allocating exactly ub_size (196608 B,
    // EvoKernel's ReluCustom); the host is told 256 B less (ubUsableBytes), as the real platform does.
    capacity[size_t(Mem::UB)] = p.ubBytes;
    capacity[size_t(Mem::L1)] = p.l1Bytes;
    capacity[size_t(Mem::L0A)] = p.l0aBytes;
    capacity[size_t(Mem::L0B)] = p.l0bBytes;
    capacity[size_t(Mem::L0C)] = p.l0cBytes;
    capacity[size_t(Mem::BT)] = 1024;
    for (size_t m = 0; m < size_t(Mem::Count); ++m) {
        mem[m].assign(capacity[m] + 64, 0);  // a little slack so a rounded-up tail read stays in bounds
        shadow[m].resize(capacity[m] / 32 + 2);
    }
    dcacheTags.assign(std::max<uint32_t>(1, p.dcacheLines), ~0ull);
}

void CoreContext::reset(uint32_t b, uint32_t c, const GmPath& path, uint32_t activeCores) {
    const double share = path.chipBytesPerCycle / std::max(1u, activeCores);
    block = b;
    core = c;
    allocTop.fill(0);
    for (auto& a : allocations) a.clear();
    outstandingAllocs.fill(0);
    queues.clear();
    bufs.clear();
    bufPools.clear();
    flags.fill(Flag{});
    nextEventId.fill(0);
    pipes.fill(PipeClock{});
    scalarTime = 0;
    scalarSegOpen = false;
    portBusy.clear();
    auto cap = [share](double bpc) { return share > 0 && share < bpc ? share : bpc; };
    gmReadBpc = cap(prof.gmToUbBytesPerCycle);
    gmWriteBpc = cap(prof.ubToGmBytesPerCycle);
    gmL1Bpc = cap(prof.gmToL1BytesPerCycle);
    l0cGmBpc = cap(prof.l0cToGmBytesPerCycle);
    gmReadLatency = path.readLatencyCycles;
    gmWriteLatency = path.writeLatencyCycles;
    scalarGmMiss = uint32_t(std::lround(double(prof.scalarGmMissCycles) * double(path.readLatencyCycles) /
                                        double(std::max(1u, prof.gmReadLatencyCycles))));
    std::fill(dcacheTags.begin(), dcacheTags.end(), ~0ull);
    for (auto& c2 : clock) c2.fill(0);
    for (size_t m = 0; m < size_t(Mem::Count); ++m) {
        std::fill(shadow[m].begin(), shadow[m].begin() + std::min<size_t>(shadowHigh[m], shadow[m].size()),
                  ShadowBlock{});
        shadowHigh[m] = 0;
    }
    maskCounter = false;
    vectorMask[0] = vectorMask[1] = ~0ull;
    atomicMode = 0;
    padValueSet = false;
    loopMode = {};
    accReg = maxMinReg = ReduceRegister{};
}

uint64_t CoreContext::reservePort(uint64_t ready, uint64_t cycles) {
    // Forget intervals no future transfer can overlap: every port user is an in-order pipe.
    uint64_t horizon = ~0ull;
    for (PipeId p : {PipeId::MTE2, PipeId::MTE3, PipeId::FIX})
        if (pipes[size_t(p)].instructions) horizon = std::min(horizon, pipes[size_t(p)].free);
    if (horizon != ~0ull)
        while (!portBusy.empty() && portBusy.begin()->second <= horizon) portBusy.erase(portBusy.begin());
    uint64_t t = ready;
    auto it = portBusy.upper_bound(t);
    if (it != portBusy.begin()) {
        auto prev = std::prev(it);
        if (prev->second > t) t = prev->second;
    }
    while (it != portBusy.end() && it->first < t + cycles) {  // does not fit before the next interval
        t = std::max(t, it->second);
        ++it;
    }
    portBusy.emplace(t, t + cycles);
    return t + cycles;
}

uint64_t CoreContext::endCycle() const {
    uint64_t end = scalarTime;
    for (const auto& p : pipes) end = std::max(end, std::max(p.lastDone, p.free));
    return end;
}

} // namespace sage::npu
