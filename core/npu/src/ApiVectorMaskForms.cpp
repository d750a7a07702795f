// The mask + repeat forms of Compare, Select and Cast: the selected elements are gathered by
// their per-operand layout, computed by VectorMath like the count forms, and scattered back.
// Checks, PIPE_V cost and race bookkeeping as for the other repeat-form instructions.
#include "SimImpl.h"
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace sage::npu {
namespace {

std::vector<uint8_t> gather(const uint8_t* base, const std::vector<uint32_t>& offs, uint32_t es) {
    std::vector<uint8_t> out(offs.size() * es);
    for (size_t i = 0; i < offs.size(); ++i) std::memcpy(&out[i * es], base + offs[i], es);
    return out;
}

bool bitAt(const uint8_t* bits, uint32_t i) { return (bits[i / 8] >> (i % 8)) & 1u; }

} // namespace

namespace rt {

void vecCompareRepeat(DType t, const LocalRef& dstMask, const LocalRef& s0, const LocalRef* s1, double scalar,
                      int cmpMode, const RepeatForm& form, bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    checkRepeatTime(s, "Compare", form.repeat, counter, loc);
    const uint32_t es = dtypeSize(t);
    RepeatLayout L = layoutFor(c, es, es, es, 256 / es, form, counter);
    uint32_t maskEnd = 0;
    for (uint32_t lane : L.lane) maskEnd = std::max(maskEnd, lane / 8 + 1);
    s.checkLocal(s0, span(L.s0, es), "Compare", loc);
    if (s1) s.checkLocal(*s1, span(L.s1, es), "Compare", loc);
    s.checkLocal(dstMask, maskEnd, "Compare", loc);
    if (L.lane.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Compare", L.repeats, s.prof.cyclesPerRepeatSimple, L.lane.size() * es, loc);
    const size_t n = L.lane.size();
    std::vector<uint8_t> a = gather(c.localPtr(s0), L.s0, es);
    std::vector<uint8_t> b = s1 ? gather(c.localPtr(*s1), L.s1, es) : std::vector<uint8_t>();
    std::vector<uint8_t> bits((n + 7) / 8, 0);
    vecmath::compare(t, bits.data(), a.data(), s1 ? b.data() : nullptr, scalar, cmpMode, n);
    uint8_t* d = c.localPtr(dstMask);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t lane = L.lane[i];
        const uint8_t bit = uint8_t(1u << (lane % 8));
        d[lane / 8] = bitAt(bits.data(), uint32_t(i)) ? (d[lane / 8] | bit) : (d[lane / 8] & ~bit);
    }
    s.access(PipeId::V, s0, span(L.s0, es), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, span(L.s1, es), false, at, loc);
    s.access(PipeId::V, dstMask, maskEnd, true, at, loc);
}

void vecSelectRepeat(DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& s0, const LocalRef* s1,
                     double scalar, int selMode, const RepeatForm& form, bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    checkRepeatTime(s, "Select", form.repeat, counter, loc);
    const uint32_t es = dtypeSize(t), perRepeat = 256 / es;
    RepeatLayout L = layoutFor(c, es, es, es, perRepeat, form, counter);
    // Mode 0 (VSEL_CMPMASK_SPR) uses the same bits for every repeat; modes 1 and 2 go on through
    // the mask, one bit per element.
    auto bitOf = [&](uint32_t lane) { return selMode == 0 ? lane % perRepeat : lane; };
    uint32_t maskEnd = 0;
    for (uint32_t lane : L.lane) maskEnd = std::max(maskEnd, bitOf(lane) / 8 + 1);
    s.checkLocal(dst, span(L.dst, es), "Select", loc);
    s.checkLocal(s0, span(L.s0, es), "Select", loc);
    if (s1) s.checkLocal(*s1, span(L.s1, es), "Select", loc);
    s.checkLocal(mask, maskEnd, "Select", loc, 1);
    if (L.lane.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Select", L.repeats, s.prof.cyclesPerRepeatSimple, L.lane.size() * es, loc);
    const size_t n = L.lane.size();
    std::vector<uint8_t> a = gather(c.localPtr(s0), L.s0, es);
    std::vector<uint8_t> b = s1 ? gather(c.localPtr(*s1), L.s1, es) : std::vector<uint8_t>();
    std::vector<uint8_t> bits((n + 7) / 8, 0), out(n * es);
    const uint8_t* m = c.localPtr(mask);
    for (size_t i = 0; i < n; ++i)
        if (bitAt(m, bitOf(L.lane[i]))) bits[i / 8] |= uint8_t(1u << (i % 8));
    vecmath::select(t, out.data(), bits.data(), a.data(), s1 ? b.data() : nullptr, scalar, n);
    uint8_t* d = c.localPtr(dst);
    for (size_t i = 0; i < n; ++i) std::memcpy(d + L.dst[i], &out[i * es], es);
    s.access(PipeId::V, mask, maskEnd, false, at, loc);
    s.access(PipeId::V, s0, span(L.s0, es), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, span(L.s1, es), false, at, loc);
    s.access(PipeId::V, dst, span(L.dst, es), true, at, loc);
}

void vecCastRepeat(DType dt, DType st, const LocalRef& dst, const LocalRef& src, int roundMode, const RepeatForm& form,
                   bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    checkRepeatTime(s, "Cast", form.repeat, counter, loc);
    const uint32_t des = dtypeSize(dt), ses = dtypeSize(st);
    RepeatLayout L = layoutFor(c, des, ses, ses, 256 / std::max(des, ses), form, counter);
    s.checkLocal(dst, span(L.dst, des), "Cast", loc);
    s.checkLocal(src, span(L.s0, ses), "Cast", loc);
    if (L.lane.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    const size_t n = L.lane.size();
    IssueResult at = issueVector(s, "Cast", L.repeats, s.prof.cyclesPerRepeatCast, n * std::max(des, ses), loc);
    std::vector<uint8_t> in = gather(c.localPtr(src), L.s0, ses), out(n * des);
    if (st == DType::I32 && dt == DType::F16 && c.deqScale != 1.0f) {
        // The dequantising conversion (SetDeqScale), as in the count form.
        std::vector<float> tmp(n);
        vecmath::cast(DType::F32, DType::I32, reinterpret_cast<uint8_t*>(tmp.data()), in.data(), roundMode, n);
        for (auto& v : tmp) v *= c.deqScale;
        vecmath::cast(dt, DType::F32, out.data(), reinterpret_cast<const uint8_t*>(tmp.data()), roundMode, n);
    } else {
        vecmath::cast(dt, st, out.data(), in.data(), roundMode, n);
    }
    uint8_t* d = c.localPtr(dst);
    for (size_t i = 0; i < n; ++i) std::memcpy(d + L.dst[i], &out[i * des], des);
    s.access(PipeId::V, src, span(L.s0, ses), false, at, loc);
    s.access(PipeId::V, dst, span(L.dst, des), true, at, loc);
}

} // namespace rt
} // namespace sage::npu
