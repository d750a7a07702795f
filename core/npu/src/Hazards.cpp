// Race detection between the pipes of one core, over local memory at 32-byte granularity.
// Each pipe carries a vector clock; sync edges (EnQue->DeQue, FreeTensor->AllocTensor,
// SetFlag->WaitFlag, PipeBarrier, issue order from the scalar unit) join clocks. An access that
// touches bytes another pipe wrote (RAW, WAW) or read (WAR) without an edge ordering the two is
// reported with both source lines. The scalar unit never races: like the real compiler's
// automatic syncs, it waits for the pipes whose bytes it touches.
#include "SimImpl.h"

#include <algorithm>

namespace sage::npu {

void Simulation::Impl::access(PipeId pipe, const LocalRef& r, uint32_t bytes, bool write, const IssueResult& at,
                              const Loc& loc) {
    if (bytes == 0) return;
    CoreContext& c = ctx();
    Mem m = memOf(r.pos);
    auto& sh = c.shadow[size_t(m)];
    uint32_t first = r.addr / 32, last = std::min<uint32_t>((r.addr + bytes - 1) / 32, uint32_t(sh.size() - 1));
    c.shadowHigh[size_t(m)] = std::max(c.shadowHigh[size_t(m)], last + 1);
    const VClock& vc = c.clock[size_t(pipe)];
    const uint8_t me = uint8_t(pipe);
    const uint16_t file = fileId(loc.file_name());
    bool reported = false;
    uint32_t uninitialisedAt = ~0u;
    for (uint32_t b = first; b <= last; ++b) {
        ShadowBlock& s = sh[b];
        if (!reported && s.wEpoch && s.wPipe != me && vc[s.wPipe] < s.wEpoch) {
            reportRace(write ? "race_waw" : "race_raw", PipeId(s.wPipe), s.wFile, s.wLine, pipe, loc, m, b * 32);
            reported = true;
        }
        if (write) {
            if (!reported)
                for (int q = 0; q < kPipeCount; ++q)
                    if (q != me && s.rEpoch[size_t(q)] && vc[size_t(q)] < s.rEpoch[size_t(q)]) {
                        reportRace("race_war", PipeId(q), file, s.rLine[size_t(q)], pipe, loc, m, b * 32);
                        reported = true;
                        break;
                    }
            s.wEpoch = at.epoch;
            s.wPipe = me;
            s.wLine = loc.line();
            s.wFile = file;
            s.wDone = at.done;
            s.rEpoch.fill(0);
        } else {
            if (!s.wEpoch && m == Mem::UB && pipe == PipeId::V && uninitialisedAt == ~0u) uninitialisedAt = b * 32;
            s.rEpoch[me] = at.epoch;
            s.rLine[me] = loc.line();
            s.rDone[me] = at.done;
        }
    }
    if (uninitialisedAt != ~0u) reportUninitialisedRead(pipe, uninitialisedAt, loc);
}

// Reading UB nothing wrote in this block gives zeros here but stale data on hardware (what an
// earlier kernel or block left), so it is worth a warning even when the result happens to verify.
// Only computation (vector and scalar reads) is checked: MTE3 copying a 32-byte-rounded tail out
// is common and harmless when the host ignores those bytes.
void Simulation::Impl::reportUninitialisedRead(PipeId pipe, uint32_t addr, const Loc& loc) {
    report("ub_uninitialised_read",
           std::string("pipe ") + pipeName(int(pipe)) + " reads UB bytes at address " + std::to_string(addr) +
               " that nothing wrote in this block. The simulator reads zeros; real hardware returns whatever "
               "was left there. Fill the buffer (DataCopy, Duplicate) before reading it.",
           loc, false, "warning");
}

void Simulation::Impl::scalarAccess(const LocalRef& r, uint64_t offset, uint32_t bytes, bool write, const Loc& loc) {
    CoreContext& c = ctx();
    Mem m = memOf(r.pos);
    auto& sh = c.shadow[size_t(m)];
    uint32_t addr = uint32_t(r.addr + offset);
    uint32_t first = addr / 32, last = std::min<uint32_t>((addr + bytes - 1) / 32, uint32_t(sh.size() - 1));
    c.shadowHigh[size_t(m)] = std::max(c.shadowHigh[size_t(m)], last + 1);
    VClock& vc = c.clock[size_t(PipeId::S)];
    const uint8_t S = uint8_t(PipeId::S);
    uint64_t waitUntil = 0;
    for (uint32_t b = first; b <= last; ++b) {
        ShadowBlock& s = sh[b];
        if (s.wEpoch && s.wPipe != S && vc[s.wPipe] < s.wEpoch) {
            waitUntil = std::max(waitUntil, s.wDone);
            vc[s.wPipe] = s.wEpoch;
        }
        if (write)
            for (int q = 0; q < kPipeCount; ++q)
                if (q != S && s.rEpoch[size_t(q)] && vc[size_t(q)] < s.rEpoch[size_t(q)]) {
                    waitUntil = std::max(waitUntil, s.rDone[size_t(q)]);
                    vc[size_t(q)] = s.rEpoch[size_t(q)];
                }
    }
    if (waitUntil > c.scalarTime) {  // the compiler-inserted wait stalls the scalar unit
        closeScalarSegment();
        c.scalarTime = waitUntil;
    }
    scalarCost(prof.scalarUbAccessCycles, loc);
    uint32_t epoch = ++vc[S];
    uint32_t uninitialisedAt = ~0u;
    for (uint32_t b = first; b <= last; ++b) {
        ShadowBlock& s = sh[b];
        if (write) {
            s.wEpoch = epoch;
            s.wPipe = S;
            s.wLine = loc.line();
            s.wFile = fileId(loc.file_name());
            s.wDone = c.scalarTime;
            s.rEpoch.fill(0);
        } else {
            if (!s.wEpoch && m == Mem::UB) uninitialisedAt = std::min(uninitialisedAt, b * 32);
            s.rEpoch[S] = epoch;
            s.rLine[S] = loc.line();
            s.rDone[S] = c.scalarTime;
        }
    }
    if (uninitialisedAt != ~0u) reportUninitialisedRead(PipeId::S, uninitialisedAt, loc);
}

} // namespace sage::npu
