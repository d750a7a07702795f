// SetFlag / WaitFlag / PipeBarrier: explicit ordering between the pipes of one core.
#include "SimImpl.h"

#include <algorithm>

namespace sage::npu {
namespace {

std::string eventName(PipeId src, PipeId dst, int id) {
    return std::string("<HardEvent::") + pipeName(int(src)) + "_" + pipeName(int(dst)) + ">(EVENT_ID" +
           std::to_string(id) + ")";
}

Flag& flagFor(Simulation::Impl& s, PipeId src, PipeId dst, int id, const char* api, const Loc& loc) {
    if (src == PipeId::ALL || dst == PipeId::ALL)
        s.report("bad_event_id", std::string(api) + ": PIPE_ALL cannot be a flag's source or destination", loc, true);
    if (id < 0 || id >= s.prof.eventIds)
        s.report("bad_event_id",
                 std::string(api) + eventName(src, dst, id) + ": event id " + std::to_string(id) +
                     " is out of range; this device has EVENT_ID0..EVENT_ID" + std::to_string(s.prof.eventIds - 1) +
                     ". Use GetTPipePtr()->FetchEventID(event) to get a valid id.",
                 loc, true);
    return s.ctx().flags[size_t((int(src) * 8 + int(dst)) * 8 + id)];
}

} // namespace

namespace rt {

void setFlag(PipeId src, PipeId dst, int eventId, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    Flag& f = flagFor(s, src, dst, eventId, "SetFlag", loc);
    if (f.set)
        s.report("flag_unpaired",
                 "SetFlag" + eventName(src, dst, eventId) + " is set again before a WaitFlag consumed it (line " +
                     std::to_string(f.line) + " set it first). This is undefined behaviour on hardware: pair each "
                     "SetFlag with exactly one WaitFlag.",
                 loc, true);
    s.scalarCost(s.prof.flagCycles, loc);
    const PipeClock& p = c.pipes[size_t(src)];
    f.set = true;
    f.time = src == PipeId::S ? c.scalarTime : std::max({p.lastDone, p.barrier, c.scalarTime});
    f.clock = c.clock[size_t(src)];
    joinInto(f.clock, c.clock[size_t(PipeId::S)]);
    f.line = loc.line();
    f.file = loc.file_name();
    f.flowId = s.nextFlow++;
    s.recordEvent(uint8_t(src), f.time, f.time, "SetFlag", 0, 0, s.fileId(loc.file_name()), loc.line(), f.flowId, 1);
}

void waitFlag(PipeId src, PipeId dst, int eventId, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    Flag& f = flagFor(s, src, dst, eventId, "WaitFlag", loc);
    if (!f.set)
        s.report("deadlock",
                 "WaitFlag" + eventName(src, dst, eventId) + " has no earlier SetFlag" + eventName(src, dst, eventId) +
                     ": PIPE_" + pipeName(int(dst)) + " would wait forever. Issue the matching SetFlag before "
                     "this WaitFlag (same HardEvent and event id).",
                 loc, true);
    s.scalarCost(s.prof.flagCycles, loc);
    uint64_t at;
    if (dst == PipeId::S) {
        if (f.time > c.scalarTime) {
            s.closeScalarSegment();
            c.scalarTime = f.time;
        }
        at = c.scalarTime;
    } else {
        PipeClock& p = c.pipes[size_t(dst)];
        p.barrier = std::max(p.barrier, f.time);
        at = std::max(p.free, p.barrier);
    }
    joinInto(c.clock[size_t(dst)], f.clock);
    f.set = false;
    s.recordEvent(uint8_t(dst), at, at, "WaitFlag", 0, 0, s.fileId(loc.file_name()), loc.line(), f.flowId, 2);
}

void pipeBarrier(PipeId pipe, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    s.scalarCost(s.prof.flagCycles, loc);
    if (pipe == PipeId::ALL) {
        uint64_t t = c.scalarTime;
        VClock all{};
        for (int p = 0; p < kPipeCount; ++p) {
            t = std::max(t, c.pipes[size_t(p)].lastDone);
            joinInto(all, c.clock[size_t(p)]);
        }
        if (t > c.scalarTime) {
            s.closeScalarSegment();
            c.scalarTime = t;
        }
        for (int p = 0; p < kPipeCount; ++p) {
            c.pipes[size_t(p)].barrier = std::max(c.pipes[size_t(p)].barrier, t);
            joinInto(c.clock[size_t(p)], all);
        }
        return;
    }
    if (pipe == PipeId::S) return;
    PipeClock& p = c.pipes[size_t(pipe)];
    p.barrier = std::max(p.barrier, p.lastDone);
}

void syncAll(Loc loc) {
    activeImpl().report("unsupported",
                        "SyncAll (a barrier across cores) is not supported by the simulator yet: blocks run one "
                        "after another. Split the kernel into two launches instead.",
                        loc, true);
}

void crossCoreSync(Loc loc) {
    activeImpl().report("unsupported",
                        "Cross-core flags (CrossCoreSetFlag/CrossCoreWaitFlag, ffts_cross_core_sync, "
                        "wait_flag_dev) synchronise the cube and vector cores of a mixed kernel; the simulator "
                        "runs one vector core per block, so there is no partner core to wait for. Use the "
                        "high-level Matmul API from the vector side instead.",
                        loc, true);
}

} // namespace rt
} // namespace sage::npu
