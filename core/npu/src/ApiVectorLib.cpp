// Vector library instructions beyond the basic arithmetic: GatherMask, index fills
// (ArithProgression, CreateVecIndex), BroadCast, row Sum/Mean, PairReduceSum, GM fills
// (InitGlobalMemory, InitOutput) and the dequantisation scale. Checks, cost on the pipe, race
// bookkeeping, then the functional effect.
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sage::npu {
namespace {

// Bit `j` of a built-in GatherMask pattern (1: even elements, 2: odd, 3..6: one of every four
// starting at 0..3, 7: all).
bool builtinBit(uint8_t pattern, uint64_t j) {
    switch (pattern) {
    case 1: return j % 2 == 0;
    case 2: return j % 2 == 1;
    case 3: case 4: case 5: case 6: return j % 4 == uint64_t(pattern - 3);
    case 7: return true;
    default: return false;
    }
}

} // namespace

namespace rt {

uint64_t vecGatherMask(DType t, const LocalRef& dst, const LocalRef& src, const LocalRef* pattern, uint8_t builtin,
                       bool counter, uint32_t mask, uint32_t repeat, uint16_t srcBlk, uint16_t srcRep,
                       uint16_t patternRep, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "GatherMask";
    const uint32_t es = dtypeSize(t), perRepeat = s.prof.vectorBytesPerRepeat / es, epb = 32 / es;
    if (!pattern && (builtin < 1 || builtin > 7))
        s.report("gathermask_pattern", "GatherMask: built-in pattern " + std::to_string(builtin) +
                                           " does not exist; use 1..7 or a pattern tensor.", loc, true);
    const uint64_t total = counter ? mask : uint64_t(repeat) * perRepeat;
    const uint32_t repeats = uint32_t((total + perRepeat - 1) / perRepeat);
    if (srcRep == 0) srcRep = 8;
    if (srcBlk == 0) srcBlk = 1;
    auto srcOffset = [&](uint64_t i) {
        const uint64_t r = i / perRepeat, j = i % perRepeat;
        return r * srcRep * 32 + (j / epb) * srcBlk * 32 + (j % epb) * es;
    };
    const uint64_t patBitsPerRepeat = perRepeat;
    auto patternBit = [&](uint64_t i) {
        const uint64_t r = i / perRepeat, j = i % perRepeat;
        if (!pattern) return builtinBit(builtin, j);
        const uint64_t byte = (patternRep ? r * patternRep * 32 : r * patBitsPerRepeat / 8) + j / 8;
        return ((c.localPtr(*pattern)[byte] >> (j % 8)) & 1u) != 0;
    };
    const uint64_t srcSpan = total ? srcOffset(total - 1) + es : 0;
    s.checkLocal(src, srcSpan, api, loc);
    if (pattern) s.checkLocal(*pattern, patternRep ? uint64_t(repeats) * patternRep * 32 : (total + 7) / 8, api, loc);
    uint64_t n = 0;
    for (uint64_t i = 0; i < total; ++i) n += patternBit(i);
    s.checkLocal(dst, n * es, api, loc);
    if (total == 0) {
        s.scalarCost(s.prof.scalarIssueCycles, loc);
        return 0;
    }
    IssueResult at = issueVector(s, api, repeats, s.prof.cyclesPerRepeatSimple, total * es, loc);
    std::vector<uint8_t> out(n * es);
    const uint8_t* sp = c.localPtr(src);
    for (uint64_t i = 0, k = 0; i < total; ++i)
        if (patternBit(i)) std::memcpy(&out[(k++) * es], sp + srcOffset(i), es);
    std::memcpy(c.localPtr(dst), out.data(), out.size());
    s.access(PipeId::V, src, uint32_t(srcSpan), false, at, loc);
    if (pattern) s.access(PipeId::V, *pattern, uint32_t(std::min<uint64_t>(pattern->bytes, (total + 7) / 8 + 32)), false, at, loc);
    if (n) s.access(PipeId::V, dst, uint32_t(n * es), true, at, loc);
    return n;
}

void vecIndexFill(DType t, const LocalRef& dst, double first, double step, uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const uint32_t es = dtypeSize(t);
    s.checkLocal(dst, count * es, "ArithProgression", loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "ArithProgression", repeatsFor(count * es, s.prof), s.prof.cyclesPerRepeatSimple,
                                 count * es, loc);
    uint8_t* d = c.localPtr(dst);
    for (uint64_t i = 0; i < count; ++i) vecmath::storeScalar(t, d + i * es, first + double(i) * step);
    s.access(PipeId::V, dst, uint32_t(count * es), true, at, loc);
}

void vecBroadcast(DType t, const LocalRef& dst, const LocalRef& src, uint32_t rows, uint32_t cols, int axis, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const uint32_t es = dtypeSize(t);
    const uint64_t outBytes = uint64_t(rows) * cols * es, inBytes = uint64_t(axis == 0 ? cols : rows) * es;
    s.checkLocal(dst, outBytes, "BroadCast", loc);
    s.checkLocal(src, inBytes, "BroadCast", loc);
    if (outBytes == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, "BroadCast", repeatsFor(outBytes, s.prof), s.prof.cyclesPerRepeatSimple, outBytes, loc);
    std::vector<uint8_t> in(c.localPtr(src), c.localPtr(src) + inBytes);
    uint8_t* d = c.localPtr(dst);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t q = 0; q < cols; ++q)
            std::memcpy(d + (uint64_t(r) * cols + q) * es, in.data() + uint64_t(axis == 0 ? q : r) * es, es);
    s.access(PipeId::V, src, uint32_t(inBytes), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(outBytes), true, at, loc);
}

void vecRowReduce(DType t, const LocalRef& dst, const LocalRef& src, uint32_t outer, uint32_t inner, uint32_t n,
                  bool mean, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = mean ? "Mean" : "Sum";
    const uint32_t es = dtypeSize(t);
    if (n > inner)
        s.report("reduce_params", std::string(api) + ": n (" + std::to_string(n) + ") is larger than inner (" +
                                      std::to_string(inner) + "); inner is the padded row length, n the valid part.",
                 loc, true);
    const uint64_t inBytes = uint64_t(outer) * inner * es;
    s.checkLocal(src, inBytes, api, loc);
    s.checkLocal(dst, uint64_t(outer) * es, api, loc);
    if (inBytes == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, api, repeatsFor(inBytes, s.prof), s.prof.cyclesPerRepeatReduce, inBytes, loc);
    const uint8_t* sp = c.localPtr(src);
    std::vector<double> res(outer);
    for (uint32_t r = 0; r < outer; ++r) {
        float acc = 0;
        for (uint32_t i = 0; i < n; ++i) acc += float(vecmath::loadScalar(t, sp + (uint64_t(r) * inner + i) * es));
        res[r] = mean && n ? double(acc / float(n)) : double(acc);
    }
    for (uint32_t r = 0; r < outer; ++r) vecmath::storeScalar(t, c.localPtr(dst) + uint64_t(r) * es, res[r]);
    s.access(PipeId::V, src, uint32_t(inBytes), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(outer * es), true, at, loc);
}

void vecPairSum(DType t, const LocalRef& dst, const LocalRef& src, const RepeatForm& f, bool counter, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "PairReduceSum";
    const uint32_t es = dtypeSize(t), perRepeat = s.prof.vectorBytesPerRepeat / es, epb = 32 / es;
    const uint64_t total = counter ? c.vectorMask[0] : uint64_t(f.repeat) * perRepeat;
    const uint32_t repeats = uint32_t((total + perRepeat - 1) / perRepeat);
    auto active = [&](uint64_t i) {
        if (counter) return i < total;
        const uint64_t j = i % perRepeat;
        return ((f.mask[j / 64] >> (j % 64)) & 1u) != 0;
    };
    auto srcOff = [&](uint64_t i) {
        const uint64_t r = i / perRepeat, j = i % perRepeat;
        return r * f.src0Rep * 32 + (j / epb) * f.src0Blk * 32 + (j % epb) * es;
    };
    auto dstOff = [&](uint64_t i) { return (i / perRepeat) * f.dstRep * 128 + (i % perRepeat) / 2 * es; };
    uint64_t srcEnd = 0, dstEnd = 0;
    for (uint64_t i = 0; i < total; ++i)
        if (active(i)) srcEnd = std::max(srcEnd, srcOff(i) + es), dstEnd = std::max(dstEnd, dstOff(i) + es);
    s.checkLocal(src, srcEnd, api, loc);
    s.checkLocal(dst, dstEnd, api, loc);
    if (srcEnd == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, api, repeats, s.prof.cyclesPerRepeatReduce, total * es, loc);
    const uint8_t* sp = c.localPtr(src);
    std::vector<std::pair<uint64_t, double>> out;
    for (uint64_t i = 0; i + 1 < total + 1; i += 2) {
        const bool a = active(i), b = i + 1 < total && (i + 1) % perRepeat != 0 && active(i + 1);
        if (!a && !b) continue;
        float v = 0;
        if (a) v += float(vecmath::loadScalar(t, sp + srcOff(i)));
        if (b) v += float(vecmath::loadScalar(t, sp + srcOff(i + 1)));
        out.push_back({dstOff(i), double(v)});
    }
    for (const auto& [off, v] : out) vecmath::storeScalar(t, c.localPtr(dst) + off, v);
    s.access(PipeId::V, src, uint32_t(srcEnd), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(dstEnd), true, at, loc);
}

void fillGm(const GmRef& dst, uint64_t count, DType t, double value, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const uint32_t es = dtypeSize(t);
    const uint64_t bytes = count * es;
    s.checkGm(dst.ptr, dst.limit, bytes, "InitGlobalMemory", loc);
    if (bytes == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    s.issue(PipeId::MTE3, "InitGlobalMemory", s.prof.dmaIssueCycles, c.gmWriteLatency,
            std::max<uint64_t>(1, uint64_t(std::ceil(double(bytes) / c.gmWriteBpc))), bytes, 0, loc);
    uint8_t one[8];
    vecmath::storeScalar(t, one, value);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(dst.ptr + i * es, one, es);
    s.gmWrites.recordWrite(dst.ptr, bytes);
    s.launch->gmBytesWritten += bytes;
}

void transData5HD(DType t, const LocalRef* dst, const LocalRef* src, bool dstHigh, bool srcHigh, uint32_t repeat,
                  uint32_t dstRep, uint32_t srcRep, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "TransDataTo5HD";
    const uint32_t es = dtypeSize(t);
    if (es != 1 && es != 2 && es != 4)
        s.report("wrong_dtype", "TransDataTo5HD supports 8-, 16- and 32-bit element types.", loc, true);
    if (repeat == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    if (repeat == 1) dstRep = srcRep = 0;  // the strides only matter between repeats
    for (int i = 0; i < 16; ++i) {
        s.checkLocal(src[i], uint64_t(repeat - 1) * srcRep * 32 + 32, api, loc);
        s.checkLocal(dst[i], uint64_t(repeat - 1) * dstRep * 32 + 32, api, loc);
    }
    IssueResult at = issueVector(s, api, uint64_t(repeat) * 2, s.prof.cyclesPerRepeatSimple, uint64_t(repeat) * 512, loc);
    uint8_t block[16][32];
    for (uint32_t r = 0; r < repeat; ++r) {
        for (int i = 0; i < 16; ++i) std::memcpy(block[i], c.localPtr(src[i]) + uint64_t(r) * srcRep * 32, 32);
        auto out = [&](int j) { return c.localPtr(dst[j]) + uint64_t(r) * dstRep * 32; };
        if (es == 2) {
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(out(j) + i * 2, block[i] + j * 2, 2);
        } else if (es == 4) {
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(out(2 * j + i / 8) + (i % 8) * 4, block[i] + j * 4, 4);
        } else {
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) out(j)[(dstHigh ? 16 : 0) + i] = block[i][(srcHigh ? 16 : 0) + j];
        }
    }
    for (int i = 0; i < 16; ++i) {
        s.access(PipeId::V, src[i], uint32_t(uint64_t(repeat - 1) * srcRep * 32 + 32), false, at, loc);
        s.access(PipeId::V, dst[i], uint32_t(uint64_t(repeat - 1) * dstRep * 32 + 32), true, at, loc);
    }
}

void setDeqScale(float scale) { activeImpl().ctx().deqScale = scale; }

} // namespace rt
} // namespace sage::npu
