// DataCopy / DataCopyPad between GM and local memory, and UB -> UB copies.
#include "SimImpl.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sage::npu {
namespace {

uint64_t cyclesFor(uint64_t bytes, double bytesPerCycle) {
    return bytesPerCycle > 0 ? uint64_t(std::ceil(double(bytes) / bytesPerCycle)) : 0;
}

// Non-pad DataCopy moves whole 32-byte blocks; a length that is not a multiple is rounded down.
uint32_t effectiveBlockLen(Simulation::Impl& s, const CopyShape& shape, DType t, const char* api, const Loc& loc) {
    if (shape.blockLen % 32 == 0) return shape.blockLen;
    uint32_t rounded = shape.blockLen / 32 * 32;
    uint32_t es = dtypeSize(t);
    s.report("datacopy_not_32b_multiple",
             std::string(api) + " of " + std::to_string(shape.blockLen / es) + " " + dtypeName(t) + " elements (" +
                 std::to_string(shape.blockLen) + " bytes) is not a multiple of 32 bytes: the hardware rounds it "
                 "down to " + std::to_string(rounded) + " bytes, so the last " +
                 std::to_string(shape.blockLen - rounded) + " bytes are NOT copied. Copy a multiple of " +
                 std::to_string(32 / es) + " elements and handle the tail separately, or use DataCopyPad.",
             loc, false, "warning");
    return rounded;
}

void checkShape(Simulation::Impl& s, const CopyShape& shape, DType t, bool pad, const char* api, const Loc& loc) {
    if (shape.blockCount > 4095)
        s.report("datacopy_params", std::string(api) + ": blockCount " + std::to_string(shape.blockCount) +
                 " exceeds 4095", loc, true);
    if (pad) {
        uint32_t es = dtypeSize(t);
        if (shape.blockLen % es != 0)
            s.report("datacopy_params", std::string(api) + ": blockLen " + std::to_string(shape.blockLen) +
                     " bytes is not a multiple of sizeof(T) = " + std::to_string(es), loc, true);
        if (shape.leftPad * es > 32 || shape.rightPad * es > 32)
            s.report("datacopy_params", std::string(api) + ": left/right padding must be at most 32 bytes", loc, true);
    } else if (shape.blockLen / 32 > 65535) {
        s.report("datacopy_params", std::string(api) + ": blockLen exceeds 65535 blocks", loc, true);
    }
}

// The passes SetLoopModePara puts around one copy: loop2 outer, loop1 inner, byte offsets of each
// pass into source and destination. One pass at offset 0 when no loop mode applies.
struct LoopPass {
    uint64_t src = 0, dst = 0;
};
std::vector<LoopPass> loopPasses(const CoreContext& c, bool toUb, Mem local) {
    const auto& mode = c.loopMode[toUb ? 1 : 0];
    if (!mode || local != Mem::UB) return {LoopPass{}};
    std::vector<LoopPass> passes;
    passes.reserve(size_t(mode->size1) * mode->size2);
    for (uint32_t i2 = 0; i2 < mode->size2; ++i2)
        for (uint32_t i1 = 0; i1 < mode->size1; ++i1)
            passes.push_back({i2 * mode->srcStride2 + i1 * mode->srcStride1,
                              i2 * mode->dstStride2 + i1 * mode->dstStride1});
    return passes;
}

// `r` moved `offset` bytes on; what is left of its region (none when the offset passes its end,
// which the bounds check then reports).
LocalRef shiftedLocal(const LocalRef& r, uint64_t offset) {
    return {r.pos, uint32_t(r.addr + offset), offset >= r.bytes ? 0u : uint32_t(r.bytes - offset)};
}

// One pass of a GM -> local copy: bounds, the data (with DataCopyPad's padding), race accesses.
void gmToLocalPass(Simulation::Impl& s, const LocalRef& dst, const uint8_t* src, const uint8_t* limit,
                   const CopyShape& shape, DType t, bool padApi, const IssueResult& at, const char* api,
                   const Loc& loc) {
    CoreContext& c = s.ctx();
    const uint32_t es = dtypeSize(t);
    const uint32_t len = padApi ? shape.blockLen : shape.blockLen / 32 * 32;
    const uint32_t dstBlock = padApi ? (shape.blockLen + (shape.leftPad + shape.rightPad) * es + 31) / 32 * 32 : len;
    const uint64_t dstSpan =
        shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (dstBlock + shape.dstGap) + dstBlock;
    const uint64_t srcSpan =
        shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (shape.blockLen + shape.srcGap) + len;
    s.checkLocal(dst, dstSpan, api, loc);
    s.checkGm(src, limit, srcSpan, api, loc);
    const uint32_t lead = padApi ? shape.leftPad * es : 0;
    for (uint32_t b = 0; b < shape.blockCount; ++b) {
        uint8_t* db = c.localPtr(dst) + uint64_t(b) * (dstBlock + shape.dstGap);
        const uint8_t* sb = src + uint64_t(b) * (shape.blockLen + shape.srcGap);
        std::memcpy(db + lead, sb, len);
        if (padApi && shape.leftPad == 0 && shape.rightPad == 0) {
            // Documented DataCopyPad behaviour: with no left/right padding, the dummy elements that
            // fill the block up to 32 bytes repeat the block's first element (isPad or not).
            for (uint32_t o = len; len >= es && o + es <= dstBlock; o += es) std::memmove(db + o, db, es);
        } else if (padApi && (shape.padValueSet || c.padValueSet)) {
            // The params' own value (isPad), else the one SetPadValue left in the pad register.
            const void* value = shape.padValueSet ? static_cast<const void*>(&shape.padBits) : &c.padValueBits;
            for (uint32_t o = 0; o < lead; o += es) std::memcpy(db + o, value, es);
            for (uint32_t o = lead + len; o + es <= dstBlock; o += es) std::memcpy(db + o, value, es);
        }
        if (shape.dstGap != 0) {
            LocalRef blk{dst.pos, uint32_t(dst.addr + uint64_t(b) * (dstBlock + shape.dstGap)), dstBlock};
            s.access(PipeId::MTE2, blk, dstBlock, true, at, loc);
        }
    }
    if (shape.dstGap == 0) s.access(PipeId::MTE2, dst, uint32_t(dstSpan), true, at, loc);
}

// One pass of a local -> GM copy: bounds, the data (atomic or plain), race accesses.
void localToGmPass(Simulation::Impl& s, uint8_t* dst, const uint8_t* limit, const LocalRef& src,
                   const CopyShape& shape, DType t, bool padApi, const IssueResult& at, const char* api,
                   const Loc& loc) {
    CoreContext& c = s.ctx();
    const uint32_t len = padApi ? shape.blockLen : shape.blockLen / 32 * 32;
    const uint32_t srcBlock = padApi ? (shape.blockLen + 31) / 32 * 32 : len;
    const uint64_t srcSpan =
        shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (srcBlock + shape.srcGap) + srcBlock;
    const uint64_t dstSpan =
        shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (shape.blockLen + shape.dstGap) + len;
    s.checkLocal(src, padApi ? std::min<uint64_t>(srcSpan, src.bytes) : srcSpan, api, loc);
    s.checkGm(dst, limit, dstSpan, api, loc);
    const uint8_t* sp = c.localPtr(src);
    for (uint32_t b = 0; b < shape.blockCount; ++b) {
        const uint8_t* sb = sp + uint64_t(b) * (srcBlock + shape.srcGap);
        uint8_t* db = dst + uint64_t(b) * (shape.blockLen + shape.dstGap);
        if (c.atomicMode) vecmath::accumulate(t, db, sb, len / dtypeSize(t), c.atomicMode);
        else std::memcpy(db, sb, len);
        s.gmWrites.recordWrite(db, len);
    }
    LocalRef span = src;
    span.bytes = uint32_t(std::min<uint64_t>(srcSpan, src.bytes));
    s.access(PipeId::MTE3, span, span.bytes, false, at, loc);
}

} // namespace

namespace rt {

void copyGmToLocal(const LocalRef& dst, const GmRef& src, const CopyShape& shape, DType t, bool padApi, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = padApi ? "DataCopyPad(GM -> local)" : "DataCopy(GM -> local)";
    checkShape(s, shape, t, padApi, api, loc);
    if (dst.pos == Pos::GM) s.report("datacopy_params", std::string(api) + ": destination is not local memory", loc, true);
    const uint32_t len = padApi ? shape.blockLen : effectiveBlockLen(s, shape, t, api, loc);
    const Mem m = memOf(dst.pos);
    const auto passes = loopPasses(c, true, m);
    const uint64_t bytes = uint64_t(len) * shape.blockCount * passes.size();
    const double bpc = m == Mem::UB ? c.gmReadBpc : c.gmL1Bpc;
    IssueResult at = s.issue(PipeId::MTE2, m == Mem::UB ? "DataCopy GM->UB" : "DataCopy GM->L1", s.prof.dmaIssueCycles,
                             c.gmReadLatency, std::max<uint64_t>(1, cyclesFor(bytes, bpc)), bytes, 0, loc);
    for (const LoopPass& p : passes)
        gmToLocalPass(s, shiftedLocal(dst, p.dst), src.ptr + p.src, src.limit, shape, t, padApi, at, api, loc);
    s.launch->gmBytesRead += bytes;
}

void setPadValue(const void* bits, uint32_t bytes) {
    CoreContext& c = activeImpl().ctx();
    c.padValueBits = 0;
    std::memcpy(&c.padValueBits, bits, std::min<uint32_t>(bytes, sizeof(c.padValueBits)));
    c.padValueSet = true;
}

void copyLocalToGm(const GmRef& dst, const LocalRef& src, const CopyShape& shape, DType t, bool padApi, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = padApi ? "DataCopyPad(local -> GM)" : "DataCopy(local -> GM)";
    checkShape(s, shape, t, padApi, api, loc);
    const uint32_t len = padApi ? shape.blockLen : effectiveBlockLen(s, shape, t, api, loc);
    const auto passes = loopPasses(c, false, memOf(src.pos));
    const uint64_t bytes = uint64_t(len) * shape.blockCount * passes.size();
    IssueResult at = s.issue(PipeId::MTE3, memOf(src.pos) == Mem::UB ? "DataCopy UB->GM" : "DataCopy local->GM",
                             s.prof.dmaIssueCycles, c.gmWriteLatency,
                             std::max<uint64_t>(1, cyclesFor(bytes, c.gmWriteBpc)), bytes, 0, loc);
    for (const LoopPass& p : passes)
        localToGmPass(s, dst.ptr + p.dst, dst.limit, shiftedLocal(src, p.src), shape, t, padApi, at, api, loc);
    s.launch->gmBytesWritten += bytes;
}

void copyLocalToLocal(const LocalRef& dst, const LocalRef& src, const CopyShape& shape, DType t, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "DataCopy(local -> local)";
    checkShape(s, shape, t, false, api, loc);
    uint32_t len = effectiveBlockLen(s, shape, t, api, loc);
    uint64_t dstSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (len + shape.dstGap) + len;
    uint64_t srcSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (len + shape.srcGap) + len;
    s.checkLocal(dst, dstSpan, api, loc);
    s.checkLocal(src, srcSpan, api, loc);
    uint64_t bytes = uint64_t(len) * shape.blockCount;
    // UB -> UB runs on the vector pipe; copies out of L1 (e.g. C1 -> C2, the bias table) on MTE1.
    const bool fromL1 = memOf(src.pos) == Mem::L1;
    const PipeId pipe = fromL1 ? PipeId::MTE1 : PipeId::V;
    IssueResult at = fromL1 ? s.issue(pipe, "DataCopy L1->local",
                                      s.prof.dmaIssueCycles + uint64_t(std::ceil(double(bytes) / s.prof.l1ToL0bBytesPerCycle)),
                                      0, 0, bytes, 0, loc)
                            : s.issue(pipe, "DataCopy UB->UB",
                                      s.prof.vectorIssueCycles + uint64_t(std::ceil(double(bytes) / s.prof.ubToUbBytesPerCycle)),
                                      s.prof.vectorTailCycles, 0, bytes, 0, loc);
    for (uint32_t b = 0; b < shape.blockCount; ++b)
        std::memmove(c.localPtr(dst) + uint64_t(b) * (len + shape.dstGap),
                     c.localPtr(src) + uint64_t(b) * (len + shape.srcGap), len);
    s.access(pipe, src, uint32_t(srcSpan), false, at, loc);
    s.access(pipe, dst, uint32_t(dstSpan), true, at, loc);
}

void setAtomic(int mode, DType) { activeImpl().ctx().atomicMode = mode; }

void setLoopMode(bool toUb, const LoopMode& mode, Loc loc) {
    auto& s = activeImpl();
    // Documented ranges: loop sizes below 2^21; on the UB side strides below 2^21 and 32-byte
    // aligned, on the GM side below 2^40.
    const std::string api = std::string("SetLoopModePara(") + (toUb ? "OUT_TO_UB" : "UB_TO_OUT") + ")";
    auto fail = [&](const std::string& what) { s.report("datacopy_params", api + ": " + what, loc, true); };
    constexpr uint64_t kUbLimit = 1ull << 21, kGmLimit = 1ull << 40;
    if (mode.size1 >= kUbLimit || mode.size2 >= kUbLimit)
        fail("loop1Size " + std::to_string(mode.size1) + " / loop2Size " + std::to_string(mode.size2) +
             " must be below 2^21");
    const uint64_t ub[2] = {toUb ? mode.dstStride1 : mode.srcStride1, toUb ? mode.dstStride2 : mode.srcStride2};
    const uint64_t gm[2] = {toUb ? mode.srcStride1 : mode.dstStride1, toUb ? mode.srcStride2 : mode.dstStride2};
    const char* ubSide = toUb ? "Dst" : "Src";
    for (int i = 0; i < 2; ++i) {
        const std::string name = "loop" + std::to_string(i + 1) + ubSide + "Stride " + std::to_string(ub[i]);
        if (ub[i] >= kUbLimit) fail(name + " (the UB side) must be below 2^21 bytes");
        if (ub[i] % 32 != 0) fail(name + " (the UB side) must be a multiple of 32 bytes");
        if (gm[i] >= kGmLimit)
            fail("the GM-side stride of loop " + std::to_string(i + 1) + " must be below 2^40 bytes");
    }
    s.ctx().loopMode[toUb ? 1 : 0] = mode;
}

void resetLoopMode(bool toUb) { activeImpl().ctx().loopMode[toUb ? 1 : 0].reset(); }

} // namespace rt
} // namespace sage::npu
