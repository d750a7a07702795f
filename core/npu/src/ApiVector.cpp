// Vector instructions: argument checks, cost on PIPE_V, race bookkeeping, then the functional
// effect from VectorMath.
#include "SimImpl.h"
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sage::npu {
namespace {

const char* opName(VecOp op) {
    static const char* names[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or", "Adds", "Muls", "Maxs",
                                  "Mins", "LeakyRelu", "ShiftLeft", "ShiftRight", "Exp", "Ln", "Abs", "Relu", "Sqrt",
                                  "Rsqrt", "Reciprocal", "Not", "Neg", "Sigmoid", "Tanh", "Gelu", "Silu", "Softplus",
                                  "Duplicate", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Erf",
                                  "Erfc", "Sign", "Log2", "Log10", "Floor", "Ceil", "Round", "Trunc", "Power",
                                  "Power", "Power", "Copy", "FasterGelu", "FasterGeluV2", "Asinh", "Acosh",
                                  "Atanh", "AddRelu", "SubRelu"};
    return names[size_t(op)];
}

} // namespace

double cyclesPerRepeat(const DeviceProfile& p, VecOp op, DType t) {
    switch (op) {
    case VecOp::Div: case VecOp::Exp: case VecOp::Ln: case VecOp::Sqrt: case VecOp::Rsqrt: case VecOp::Reciprocal:
        return t == DType::F32 ? p.cyclesPerRepeatDivF32 : p.cyclesPerRepeatDivF16;
    case VecOp::Sigmoid: case VecOp::Tanh: case VecOp::Gelu: case VecOp::Silu: case VecOp::Softplus:
    case VecOp::FasterGelu: case VecOp::FasterGeluV2:
        return p.cyclesPerRepeatComposite;
    // The library's math functions are polynomial sequences of several vector instructions.
    case VecOp::Sin: case VecOp::Cos: case VecOp::Tan: case VecOp::Asin: case VecOp::Acos: case VecOp::Atan:
    case VecOp::Sinh: case VecOp::Cosh: case VecOp::Erf: case VecOp::Erfc: case VecOp::Log2: case VecOp::Log10:
    case VecOp::Pow: case VecOp::Pows: case VecOp::RPows: case VecOp::Asinh: case VecOp::Acosh: case VecOp::Atanh:
        return p.cyclesPerRepeatComposite;
    default: return p.cyclesPerRepeatSimple;
    }
}

void checkOverlap(Simulation::Impl& s, const LocalRef& dst, const LocalRef& src, uint64_t bytes, const char* api,
                  const Loc& loc) {
    if (memOf(dst.pos) != memOf(src.pos) || dst.addr == src.addr) return;
    uint64_t d0 = dst.addr, s0 = src.addr;
    if (d0 < s0 + bytes && s0 < d0 + bytes)
        s.report("address_overlap",
                 std::string(api) + ": destination and source overlap partially (addresses " + std::to_string(d0) +
                     " and " + std::to_string(s0) + ", " + std::to_string(bytes) + " bytes). The hardware requires "
                     "them to overlap completely or not at all; use a separate buffer.",
                 loc, true);
}

RepeatLayout layoutFor(const CoreContext& c, uint32_t esDst, uint32_t esS0, uint32_t esS1, uint32_t perRepeat,
                       const RepeatForm& f, bool counter) {
    RepeatLayout L;
    auto at = [](uint32_t r, uint32_t j, uint32_t es, uint16_t rep, uint16_t blk) {
        const uint32_t epb = 32 / es;
        return r * rep * 32 + (j / epb) * blk * 32 + (j % epb) * es;
    };
    auto add = [&](uint32_t r, uint32_t j) {
        L.dst.push_back(at(r, j, esDst, f.dstRep, f.dstBlk));
        L.s0.push_back(at(r, j, esS0, f.src0Rep, f.src0Blk));
        L.s1.push_back(at(r, j, esS1, f.src1Rep, f.src1Blk));
        L.lane.push_back(r * perRepeat + j);
    };
    if (counter) {  // counter mode: the mask register holds an element count
        const uint64_t total = c.vectorMask[0];
        for (uint64_t i = 0; i < total; ++i) add(uint32_t(i / perRepeat), uint32_t(i % perRepeat));
        L.repeats = uint32_t((total + perRepeat - 1) / perRepeat);
        return L;
    }
    for (uint32_t r = 0; r < f.repeat; ++r)
        for (uint32_t j = 0; j < perRepeat; ++j)
            if ((f.mask[j / 64] >> (j % 64)) & 1u) add(r, j);
    L.repeats = f.repeat;
    return L;
}

void checkRepeatTime(Simulation::Impl& s, const char* name, uint32_t repeat, bool counter, const Loc& loc,
                     const char* remedy) {
    if (!counter && repeat > s.prof.maxRepeat)
        s.report("repeat_exceeds_255",
                 std::string(name) + ": repeatTime " + std::to_string(repeat) + " exceeds the maximum of " +
                     std::to_string(s.prof.maxRepeat) + " (it is an 8-bit field). " + remedy,
                 loc, true);
}

RepeatLayout layoutFor(const CoreContext& c, DType t, const RepeatForm& f, bool counter) {
    const uint32_t es = dtypeSize(t);
    return layoutFor(c, es, es, es, 256 / es, f, counter);
}

uint32_t span(const std::vector<uint32_t>& offs, uint32_t es) {
    return offs.empty() ? 0 : *std::max_element(offs.begin(), offs.end()) + es;
}

IssueResult issueVector(Simulation::Impl& s, const char* name, uint64_t repeats, double cpr, uint64_t bytes,
                        const Loc& loc) {
    s.launch->vectorRepeats += repeats;
    uint64_t occ = s.prof.vectorIssueCycles + uint64_t(std::ceil(double(repeats) * cpr));
    return s.issue(PipeId::V, name, occ, s.prof.vectorTailCycles, 0, bytes, uint32_t(std::min<uint64_t>(repeats, ~0u)),
                   loc);
}

uint64_t repeatsFor(uint64_t bytes, const DeviceProfile& p) {
    return (bytes + p.vectorBytesPerRepeat - 1) / p.vectorBytesPerRepeat;
}

namespace rt {

void vecCount(VecOp op, DType t, const LocalRef& dst, const LocalRef& s0, const LocalRef* s1, double scalar,
              uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* name = opName(op);
    uint64_t bytes = count * dtypeSize(t);
    s.checkLocal(dst, bytes, name, loc);
    if (op != VecOp::Duplicate) {
        s.checkLocal(s0, bytes, name, loc);
        checkOverlap(s, dst, s0, bytes, name, loc);
    }
    if (s1) {
        s.checkLocal(*s1, bytes, name, loc);
        checkOverlap(s, dst, *s1, bytes, name, loc);
    }
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, repeatsFor(bytes, s.prof), cyclesPerRepeat(s.prof, op, t), bytes, loc);
    vecmath::elementwise(op, t, c.localPtr(dst), c.localPtr(s0), s1 ? c.localPtr(*s1) : nullptr, scalar, count);
    if (op != VecOp::Duplicate) s.access(PipeId::V, s0, uint32_t(bytes), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, uint32_t(bytes), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(bytes), true, at, loc);
}

void vecRepeat(VecOp op, DType t, const LocalRef& dst, const LocalRef& s0, const LocalRef* s1, double scalar,
               const RepeatForm& form, bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* name = opName(op);
    checkRepeatTime(s, name, form.repeat, counter, loc);
    uint32_t es = dtypeSize(t);
    RepeatLayout L = layoutFor(c, t, form, counter);
    s.checkLocal(dst, span(L.dst, es), name, loc);
    if (op != VecOp::Duplicate) s.checkLocal(s0, span(L.s0, es), name, loc);
    if (s1) s.checkLocal(*s1, span(L.s1, es), name, loc);
    if (L.dst.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, L.repeats, cyclesPerRepeat(s.prof, op, t), L.dst.size() * es, loc);
    const uint8_t* p0 = c.localPtr(s0);
    const uint8_t* p1 = s1 ? c.localPtr(*s1) : nullptr;
    uint8_t* pd = c.localPtr(dst);
    // Repeats run in order, each reading what the earlier ones wrote: with a zero repeat stride on
    // the destination and one source, Max(dst, src[64], dst, 64, n, {1,1,1,0,8,0}) folds n chunks
    // into dst (CANN's row reductions rely on it).
    const uint32_t perRepeat = s.prof.vectorBytesPerRepeat / es;
    std::vector<uint8_t> a, b, d;
    for (size_t first = 0; first < L.dst.size();) {
        size_t last = first;
        while (last < L.dst.size() && L.lane[last] / perRepeat == L.lane[first] / perRepeat) ++last;
        const size_t n = last - first;
        a.resize(n * es);
        b.resize(s1 ? n * es : 0);
        d.resize(n * es);
        for (size_t i = 0; i < n; ++i) {
            std::memcpy(&a[i * es], p0 + L.s0[first + i], es);
            if (p1) std::memcpy(&b[i * es], p1 + L.s1[first + i], es);
            std::memcpy(&d[i * es], pd + L.dst[first + i], es);
        }
        vecmath::elementwise(op, t, d.data(), a.data(), p1 ? b.data() : nullptr, scalar, n);
        for (size_t i = 0; i < n; ++i) std::memcpy(pd + L.dst[first + i], &d[i * es], es);
        first = last;
    }
    if (op != VecOp::Duplicate) s.access(PipeId::V, s0, span(L.s0, es), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, span(L.s1, es), false, at, loc);
    s.access(PipeId::V, dst, span(L.dst, es), true, at, loc);
}

void vecCast(DType dt, DType st, const LocalRef& dst, const LocalRef& src, int roundMode, uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    uint64_t db = count * dtypeSize(dt), sb = count * dtypeSize(st);
    s.checkLocal(dst, db, "Cast", loc);
    s.checkLocal(src, sb, "Cast", loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Cast", repeatsFor(std::max(db, sb), s.prof), s.prof.cyclesPerRepeatCast,
                                 std::max(db, sb), loc);
    if (st == DType::I32 && dt == DType::F16 && c.deqScale != 1.0f) {
        // The dequantising conversion: int32 times the SetDeqScale scale, then rounded to half.
        std::vector<float> tmp(count);
        vecmath::cast(DType::F32, DType::I32, reinterpret_cast<uint8_t*>(tmp.data()), c.localPtr(src), roundMode, count);
        for (auto& v : tmp) v *= c.deqScale;
        vecmath::cast(dt, DType::F32, c.localPtr(dst), reinterpret_cast<const uint8_t*>(tmp.data()), roundMode, count);
    } else {
        vecmath::cast(dt, st, c.localPtr(dst), c.localPtr(src), roundMode, count);
    }
    s.access(PipeId::V, src, uint32_t(sb), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(db), true, at, loc);
}

void vecReduce(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* tmp, uint64_t count,
               bool withIndex, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    static const char* names[] = {"ReduceSum", "ReduceMax", "ReduceMin"};
    const char* name = names[size_t(op)];
    uint32_t es = dtypeSize(t);
    uint64_t bytes = count * es;
    uint64_t perRepeat = s.prof.vectorBytesPerRepeat / es;
    uint64_t repeats = (count + perRepeat - 1) / perRepeat;
    s.checkLocal(src, bytes, name, loc);
    // ReduceMax/ReduceMin do not ask 32-byte alignment of their destination: the API reference asks
    // 2 * sizeof(T) (room for the value and its index), and CANN's own kernels write a value alone
    // to dst[row] at sizeof(T) (dequant_swiglu_quant), so the value alone needs only its own size.
    s.checkLocal(dst, (withIndex ? 2 : 1) * es, name, loc, op == ReduceOp::Sum ? 32 : (withIndex ? 2 : 1) * es);
    uint64_t tmpNeed = (repeats * es + 31) / 32 * 32;
    if (tmp && tmp->bytes < tmpNeed)
        s.report("vector_count_exceeds_tensor",
                 std::string(name) + ": sharedTmpBuffer holds " + std::to_string(tmp->bytes) + " bytes but " +
                     std::to_string(count) + " elements need at least " + std::to_string(tmpNeed) +
                     " bytes (one element per 256-byte repeat, rounded up to 32 bytes)",
                 loc, true);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, repeats, s.prof.cyclesPerRepeatReduce, bytes, loc);
    uint32_t index = 0;
    // The documented order on 910B (A2/A3): the count form adds the repeat results in sequence;
    // other devices reduce them with the same tree again.
    double v = vecmath::reduce(op, t, c.localPtr(src), count, perRepeat, &index, s.prof.npuArch == 2201);
    vecmath::storeScalar(t, c.localPtr(dst), v);
    if (withIndex) vecmath::storeIndex(t, c.localPtr(dst) + es, index);
    recordReduceRegister(c, op == ReduceOp::Sum, t, v, index, at.done);
    s.access(PipeId::V, src, uint32_t(bytes), false, at, loc);
    if (tmp) s.access(PipeId::V, *tmp, uint32_t(std::min<uint64_t>(tmpNeed, tmp->bytes)), true, at, loc);
    s.access(PipeId::V, dst, (withIndex ? 2 : 1) * es, true, at, loc);
}

void vecWholeReduce(ReduceOp op, DType t, const LocalRef& dst, const LocalRef& src, uint64_t mask0, uint64_t mask1,
                    uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep, int order, bool blockWise,
                    bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* name = blockWise ? "BlockReduce" : "WholeReduce";
    checkRepeatTime(s, name, repeat, counter, loc, "Split the rows into several calls.");
    uint32_t es = dtypeSize(t), epb = 32 / es, perRepeat = 8 * epb;
    if (counter) {
        uint64_t total = c.vectorMask[0];
        repeat = uint32_t((total + perRepeat - 1) / perRepeat);
    }
    struct Out { uint32_t at; double v; bool isIndex; };
    double lastValue = 0;
    uint32_t lastIndex = 0;
    std::vector<Out> outs;
    uint32_t srcEnd = 0;
    std::vector<uint8_t> buf;
    const uint8_t* sp = c.localPtr(src);
    for (uint32_t r = 0; r < repeat; ++r) {
        int groups = blockWise ? 8 : 1;
        for (int g = 0; g < groups; ++g) {
            buf.clear();
            std::vector<uint32_t> pos;
            for (uint32_t j = 0; j < perRepeat; ++j) {
                if (blockWise && j / epb != uint32_t(g)) continue;
                bool on = counter ? uint64_t(r) * perRepeat + j < c.vectorMask[0] : ((j < 64 ? mask0 : mask1) >> (j % 64)) & 1u;
                if (!on) continue;
                uint32_t off = r * srcRep * 32 + (j / epb) * srcBlk * 32 + (j % epb) * es;
                srcEnd = std::max(srcEnd, off + es);
                if (off + es > src.bytes) continue;  // reported below
                buf.insert(buf.end(), sp + off, sp + off + es);
                pos.push_back(j);
            }
            uint32_t idx = 0;
            double v = vecmath::reduce(op, t, buf.data(), pos.size(), perRepeat, &idx);
            uint32_t elemIndex = pos.empty() ? 0 : pos[idx];
            if (!pos.empty()) { lastValue = v; lastIndex = elemIndex; }
            if (blockWise) {
                // 8 results per repeat; dstRepStride counts in those 8 results (16 bytes for half,
                // 32 for float). A block the mask leaves out entirely is not written (910B).
                if (!pos.empty()) outs.push_back({r * dstRep * 8 + uint32_t(g), v, false});
            } else if (op == ReduceOp::Sum || order == 2) {
                outs.push_back({r * dstRep, v, false});
            } else if (order == 3) {
                outs.push_back({r * dstRep, double(elemIndex), true});
            } else {
                uint32_t base = r * dstRep * 2;
                outs.push_back({base + (order == 1 ? 1u : 0u), v, false});
                outs.push_back({base + (order == 1 ? 0u : 1u), double(elemIndex), true});
            }
        }
    }
    s.checkLocal(src, srcEnd, name, loc);
    uint32_t dstEnd = 0;
    for (auto& o : outs) dstEnd = std::max(dstEnd, (o.at + 1) * es);
    s.checkLocal(dst, dstEnd, name, loc);
    if (outs.empty()) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, repeat, s.prof.cyclesPerRepeatReduce, srcEnd, loc);
    // The register keeps the last repeat's result (the docs read it after a one-repeat call).
    if (!blockWise) recordReduceRegister(c, op == ReduceOp::Sum, t, lastValue, lastIndex, at.done);
    uint8_t* dp = c.localPtr(dst);
    for (auto& o : outs) {
        if (o.isIndex) vecmath::storeIndex(t, dp + o.at * es, uint32_t(o.v));
        else vecmath::storeScalar(t, dp + o.at * es, o.v);
    }
    s.access(PipeId::V, src, srcEnd, false, at, loc);
    s.access(PipeId::V, dst, dstEnd, true, at, loc);
}

void vecCompare(DType t, const LocalRef& dstMask, const LocalRef& s0, const LocalRef* s1, double scalar, int cmpMode,
                uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    uint64_t bytes = count * dtypeSize(t), maskBytes = (count + 7) / 8;
    s.checkLocal(s0, bytes, "Compare", loc);
    if (s1) s.checkLocal(*s1, bytes, "Compare", loc);
    s.checkLocal(dstMask, maskBytes, "Compare", loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Compare", repeatsFor(bytes, s.prof), s.prof.cyclesPerRepeatSimple, bytes, loc);
    vecmath::compare(t, c.localPtr(dstMask), c.localPtr(s0), s1 ? c.localPtr(*s1) : nullptr, scalar, cmpMode, count);
    s.access(PipeId::V, s0, uint32_t(bytes), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, uint32_t(bytes), false, at, loc);
    s.access(PipeId::V, dstMask, uint32_t(maskBytes), true, at, loc);
}

void vecSelect(DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& s0, const LocalRef* s1,
               double scalar, int selMode, uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    // Mode 0 (VSEL_CMPMASK_SPR) applies the same first 256/sizeof(T) mask bits to every repeat;
    // modes 1 and 2 consume the mask continuously, one bit per element.
    const uint64_t bitPeriod = selMode == 0 ? s.prof.vectorBytesPerRepeat / dtypeSize(t) : 0;
    uint64_t bytes = count * dtypeSize(t), maskBytes = (std::min(count, bitPeriod ? bitPeriod : count) + 7) / 8;
    s.checkLocal(dst, bytes, "Select", loc);
    s.checkLocal(s0, bytes, "Select", loc);
    if (s1) s.checkLocal(*s1, bytes, "Select", loc);
    s.checkLocal(mask, maskBytes, "Select", loc, 1);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Select", repeatsFor(bytes, s.prof), s.prof.cyclesPerRepeatSimple, bytes, loc);
    vecmath::select(t, c.localPtr(dst), c.localPtr(mask), c.localPtr(s0), s1 ? c.localPtr(*s1) : nullptr, scalar, count,
                    bitPeriod);
    s.access(PipeId::V, mask, uint32_t(maskBytes), false, at, loc);
    s.access(PipeId::V, s0, uint32_t(bytes), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, uint32_t(bytes), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(bytes), true, at, loc);
}

void setMaskCounter(bool counter) { activeImpl().ctx().maskCounter = counter; }
bool maskCounter() { return activeImpl().ctx().maskCounter; }
void setVectorMask(uint64_t hi, uint64_t lo) {
    auto& c = activeImpl().ctx();
    c.vectorMask[0] = lo;
    c.vectorMask[1] = hi;
}
void vectorMask(uint64_t out[2]) {
    auto& c = activeImpl().ctx();
    out[0] = c.vectorMask[0];
    out[1] = c.vectorMask[1];
}

void vecAxpy(DType dt, DType st, const LocalRef& dst, const LocalRef& src, double scalar, uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const uint64_t db = count * dtypeSize(dt), sb = count * dtypeSize(st);
    s.checkLocal(dst, db, "Axpy", loc);
    s.checkLocal(src, sb, "Axpy", loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    // Real Axpy is a multiply-add in one instruction; charge it like a simple op on the wider side.
    IssueResult at = issueVector(s, "Axpy", repeatsFor(std::max(db, sb), s.prof), s.prof.cyclesPerRepeatSimple,
                                 std::max(db, sb), loc);
    uint8_t* d = c.localPtr(dst);
    const uint8_t* x = c.localPtr(src);
    const uint32_t des = dtypeSize(dt), ses = dtypeSize(st);
    for (uint64_t i = 0; i < count; ++i) {
        // The product is rounded to the source type first, as the unit computes it in that type.
        double prod = vecmath::loadScalar(st, x + i * ses) * scalar;
        uint8_t rounded[8];
        vecmath::storeScalar(st, rounded, prod);
        vecmath::storeScalar(dt, d + i * des, vecmath::loadScalar(dt, d + i * des) + vecmath::loadScalar(st, rounded));
    }
    s.access(PipeId::V, src, uint32_t(sb), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(db), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(db), true, at, loc);
}

void vecGather(DType t, const LocalRef& dst, const LocalRef& src, const LocalRef& offsets, uint32_t base,
               uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const uint32_t es = dtypeSize(t);
    s.checkLocal(dst, count * es, "Gather", loc);
    s.checkLocal(offsets, count * 4, "Gather", loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "Gather", repeatsFor(count * es, s.prof), s.prof.cyclesPerRepeatSimple,
                                 count * es, loc);
    const uint8_t* off = c.localPtr(offsets);
    const uint8_t* sp = c.localPtr(src);
    uint8_t* d = c.localPtr(dst);
    for (uint64_t i = 0; i < count; ++i) {
        uint32_t o;
        std::memcpy(&o, off + i * 4, 4);
        const uint64_t byteAt = uint64_t(base) + o;
        if (byteAt % es != 0 || byteAt + es > src.bytes) {
            s.report("gather_offset_out_of_range",
                     "Gather: offset " + std::to_string(o) + " (element " + std::to_string(i) + ") plus base " +
                         std::to_string(base) + " is not an aligned element inside the " + std::to_string(src.bytes) +
                         "-byte source tensor. Offsets are in bytes, multiples of sizeof(T).",
                     loc, true);
        }
        std::memcpy(d + i * es, sp + byteAt, es);
    }
    s.access(PipeId::V, offsets, uint32_t(count * 4), false, at, loc);
    s.access(PipeId::V, src, src.bytes, false, at, loc);
    s.access(PipeId::V, dst, uint32_t(count * es), true, at, loc);
}

} // namespace rt
} // namespace sage::npu
