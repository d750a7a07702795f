// Reduction forms that real op kernels use beyond the count form: the mask + repeat ReduceX,
// the reduction registers the scalar unit reads back (GetAccVal, GetReduceMaxMinCount), and
// Brcb (one element broadcast to a 32-byte block). Checks, PIPE_V cost, race bookkeeping, effect.
#include "SimImpl.h"
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace sage::npu {

void recordReduceRegister(CoreContext& c, bool accumulator, DType t, double value, uint32_t index, uint64_t done) {
    CoreContext::ReduceRegister& r = accumulator ? c.accReg : c.maxMinReg;
    uint8_t bits[8] = {};
    vecmath::storeScalar(t, bits, value);
    r.set = true;
    r.value = 0;
    std::memcpy(&r.value, bits, dtypeSize(t));
    r.index = index;
    r.done = done;
}

namespace rt {

uint64_t readReduceRegister(bool accumulator, uint64_t* index, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const CoreContext::ReduceRegister& r = accumulator ? c.accReg : c.maxMinReg;
    const char* api = accumulator ? "GetAccVal" : "GetReduceMaxMinCount";
    if (!r.set)
        s.report("reduce_register_unset",
                 std::string(api) + ": no " + (accumulator ? "count-form ReduceSum" : "ReduceMax/ReduceMin or WholeReduceMax/Min") +
                     " ran on this core before this read, so the register holds 0. Call the reduction first.",
                 loc, false, "warning");
    // The compiler-inserted V -> S wait: the scalar unit stalls until the reduction is done.
    if (r.done > c.scalarTime) {
        s.closeScalarSegment();
        c.scalarTime = r.done;
    }
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    if (index) *index = r.index;
    return r.value;
}

uint64_t scalarCast(DType dt, DType st, const void* value, int roundMode, Loc loc) {
    auto& s = activeImpl();
    s.scalarCost(s.prof.scalarIssueCycles, loc);
    uint64_t out = 0;
    vecmath::cast(dt, st, reinterpret_cast<uint8_t*>(&out), static_cast<const uint8_t*>(value), roundMode, 1);
    return out;
}

void vecBrcb(DType t, const LocalRef& dst, const LocalRef& src, uint32_t repeat, uint16_t dstBlk, uint16_t dstRep,
             Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    checkRepeatTime(s, "Brcb", repeat, false, loc, "Split it into several calls.");
    const uint32_t es = dtypeSize(t), epb = 32 / es;
    if (dstBlk == 0) dstBlk = 1;  // documented: a block stride of 0 acts as 1
    const uint32_t srcBytes = repeat * 8 * es;
    uint32_t dstEnd = 0;
    if (repeat) dstEnd = (repeat - 1) * dstRep * 32 + 7u * dstBlk * 32 + 32;
    s.checkLocal(src, srcBytes, "Brcb", loc);
    s.checkLocal(dst, dstEnd, "Brcb", loc);
    if (memOf(dst.pos) == memOf(src.pos) && dst.addr == src.addr && repeat)
        s.report("address_overlap",
                 "Brcb: destination and source are the same address " + std::to_string(dst.addr) +
                     "; the instruction does not support in-place use. Broadcast into a separate buffer.",
                 loc, true);
    if (repeat == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Brcb", repeat, s.prof.cyclesPerRepeatSimple, uint64_t(repeat) * 256, loc);
    // Read every source element before writing: the regions may overlap partially.
    std::vector<uint8_t> in(c.localPtr(src), c.localPtr(src) + srcBytes);
    uint8_t* d = c.localPtr(dst);
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t j = 0; j < 8; ++j) {
            uint8_t* blk = d + r * dstRep * 32u + j * dstBlk * 32u;
            for (uint32_t e = 0; e < epb; ++e) std::memcpy(blk + e * es, &in[(r * 8 + j) * es], es);
        }
    s.access(PipeId::V, src, srcBytes, false, at, loc);
    s.access(PipeId::V, dst, dstEnd, true, at, loc);
}

void vecReduceRepeat(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp,
                     uint64_t mask0, uint64_t mask1, uint32_t repeat, uint32_t srcRep, bool withIndex, bool counter,
                     Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    static const char* names[] = {"ReduceSum", "ReduceMax", "ReduceMin"};
    const char* name = names[size_t(op)];
    checkRepeatTime(s, name, repeat, counter, loc,
                    "Reduce in several calls, or use the count form ReduceX(dst, src, tmp, count).");
    const uint32_t es = dtypeSize(t), perRepeat = 256 / es;
    if (counter) repeat = uint32_t((c.vectorMask[0] + perRepeat - 1) / perRepeat);
    std::vector<uint8_t> buf;
    std::vector<uint32_t> elem;  // element index in src of each gathered value
    uint32_t srcEnd = 0, perGroup = 0;
    for (uint32_t r = 0; r < repeat; ++r) {
        uint32_t inRepeat = 0;
        for (uint32_t j = 0; j < perRepeat; ++j) {
            bool on = counter ? uint64_t(r) * perRepeat + j < c.vectorMask[0]
                              : (((j < 64 ? mask0 : mask1) >> (j % 64)) & 1u);
            if (!on) continue;
            uint32_t off = r * srcRep * 32 + j * es;
            srcEnd = std::max(srcEnd, off + es);
            if (off + es > src.bytes) continue;  // reported by checkLocal below
            buf.insert(buf.end(), c.localPtr(src) + off, c.localPtr(src) + off + es);
            elem.push_back(off / es);
            ++inRepeat;
        }
        perGroup = std::max(perGroup, inRepeat);
    }
    s.checkLocal(src, srcEnd, name, loc);
    s.checkLocal(dst, (withIndex ? 2 : 1) * es, name, loc);
    if (elem.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, repeat, s.prof.cyclesPerRepeatReduce, srcEnd, loc);
    uint32_t idx = 0;
    double v = vecmath::reduce(op, t, buf.data(), elem.size(), perGroup, &idx, false);
    vecmath::storeScalar(t, c.localPtr(dst), v);
    if (withIndex) vecmath::storeIndex(t, c.localPtr(dst) + es, elem[idx]);
    recordReduceRegister(c, op == ReduceOp::Sum, t, v, elem[idx], at.done);
    s.access(PipeId::V, src, srcEnd, false, at, loc);
    // The documented work buffer holds the per-repeat results.
    if (tmp) s.access(PipeId::V, *tmp, std::min<uint32_t>(tmp->bytes, (repeat * es + 31) / 32 * 32), true, at, loc);
    s.access(PipeId::V, dst, (withIndex ? 2 : 1) * es, true, at, loc);
}

} // namespace rt
} // namespace sage::npu
