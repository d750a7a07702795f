// The per-core timing model. The scalar unit issues instructions in program order; each pipe
// runs its own instructions in order, concurrently with the other pipes. An instruction starts
// when the scalar unit has issued it, its pipe is free, and every wait placed on the pipe has
// been satisfied. Data moves through the core's GM port, shared by MTE2, MTE3 and FIX, whose
// bandwidth is the per-core figure capped by the chip's bandwidth shared among active cores.
// See docs/device-model.md.
#include "SimImpl.h"

#include <algorithm>

namespace sage::npu {

void Simulation::Impl::recordEvent(uint8_t pipe, uint64_t start, uint64_t end, const char* op, uint64_t bytes,
                                   uint32_t repeats, uint16_t file, uint32_t line, int32_t flowId, uint8_t flowRole) {
    if (launch->events.size() >= maxEvents) {
        launch->eventsTruncated = true;
        return;
    }
    launch->events.push_back({.pipe = pipe, .start = start, .end = end, .op = op, .bytes = bytes, .repeats = repeats,
                              .fileId = file, .line = line, .flowId = flowId, .flowRole = flowRole});
}

void Simulation::Impl::scalarCost(uint64_t cycles, const Loc& loc) {
    CoreContext& c = ctx();
    if (!c.scalarSegOpen) {
        c.scalarSegOpen = true;
        c.scalarSegStart = c.scalarTime;
        c.scalarSegLine = loc.line();
        c.scalarSegFile = fileId(loc.file_name());
    }
    c.scalarTime += cycles;
    c.pipes[size_t(PipeId::S)].instructions++;
}

void Simulation::Impl::closeScalarSegment() {
    if (!core || !core->scalarSegOpen) return;
    CoreContext& c = *core;
    c.scalarSegOpen = false;
    if (c.scalarTime <= c.scalarSegStart) return;
    PipeClock& s = c.pipes[size_t(PipeId::S)];
    s.busy += c.scalarTime - c.scalarSegStart;
    s.lastDone = std::max(s.lastDone, c.scalarTime);
    recordEvent(uint8_t(PipeId::S), c.scalarSegStart, c.scalarTime, "scalar", 0, 0, c.scalarSegFile, c.scalarSegLine,
                -1, 0);
}

IssueResult Simulation::Impl::issue(PipeId pipe, const char* op, uint64_t occupancy, uint64_t latency,
                                    uint64_t portCycles, uint64_t bytes, uint32_t repeats, const Loc& loc,
                                    int32_t flowId, uint8_t flowRole) {
    CoreContext& c = ctx();
    scalarCost(prof.scalarIssueCycles, loc);
    PipeClock& p = c.pipes[size_t(pipe)];
    uint64_t start = std::max({c.scalarTime, p.free, p.barrier});
    uint64_t busyEnd = start + occupancy;
    if (portCycles > 0) busyEnd = c.reservePort(busyEnd, portCycles);
    uint64_t done = busyEnd + latency;
    p.free = busyEnd;
    p.lastDone = std::max(p.lastDone, done);
    p.instructions++;
    if (start >= p.covered) {
        p.busy += done - start;
        p.covered = done;
    } else if (done > p.covered) {
        p.busy += done - p.covered;
        p.covered = done;
    }
    // Issue order makes everything the scalar unit did before happen-before this instruction.
    joinInto(c.clock[size_t(pipe)], c.clock[size_t(PipeId::S)]);
    uint32_t epoch = ++c.clock[size_t(pipe)][size_t(pipe)];
    recordEvent(uint8_t(pipe), start, done, op, bytes, repeats, fileId(loc.file_name()), loc.line(), flowId, flowRole);
    return {start, done, epoch};
}

namespace rt {
void scalarWork(uint32_t cycles) { activeImpl().scalarCost(cycles, Loc::current()); }
} // namespace rt

} // namespace sage::npu
