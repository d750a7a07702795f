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

} // namespace

namespace rt {

void copyGmToLocal(const LocalRef& dst, const GmRef& src, const CopyShape& shape, DType t, bool padApi, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = padApi ? "DataCopyPad(GM -> local)" : "DataCopy(GM -> local)";
    checkShape(s, shape, t, padApi, api, loc);
    if (dst.pos == Pos::GM) s.report("datacopy_params", std::string(api) + ": destination is not local memory", loc, true);
    uint32_t es = dtypeSize(t);
    uint32_t len = padApi ? shape.blockLen : effectiveBlockLen(s, shape, t, api, loc);
    uint32_t dstBlock = padApi ? (shape.blockLen + (shape.leftPad + shape.rightPad) * es + 31) / 32 * 32 : len;
    uint64_t dstSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (dstBlock + shape.dstGap) + dstBlock;
    uint64_t srcSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (shape.blockLen + shape.srcGap) + len;
    s.checkLocal(dst, dstSpan, api, loc);
    s.checkGm(src.ptr, src.limit, srcSpan, api, loc);
    uint64_t bytes = uint64_t(len) * shape.blockCount;
    Mem m = memOf(dst.pos);
    double bpc = m == Mem::UB ? c.gmReadBpc : c.gmL1Bpc;
    IssueResult at = s.issue(PipeId::MTE2, m == Mem::UB ? "DataCopy GM->UB" : "DataCopy GM->L1", s.prof.dmaIssueCycles,
                             s.prof.gmReadLatencyCycles, std::max<uint64_t>(1, cyclesFor(bytes, bpc)), bytes, 0, loc);
    const uint32_t lead = padApi ? shape.leftPad * es : 0;
    for (uint32_t b = 0; b < shape.blockCount; ++b) {
        uint8_t* db = c.localPtr(dst) + uint64_t(b) * (dstBlock + shape.dstGap);
        const uint8_t* sb = src.ptr + uint64_t(b) * (shape.blockLen + shape.srcGap);
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
    uint32_t len = padApi ? shape.blockLen : effectiveBlockLen(s, shape, t, api, loc);
    uint32_t srcBlock = padApi ? (shape.blockLen + 31) / 32 * 32 : len;
    uint64_t srcSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (srcBlock + shape.srcGap) + srcBlock;
    uint64_t dstSpan = shape.blockCount == 0 ? 0 : uint64_t(shape.blockCount - 1) * (shape.blockLen + shape.dstGap) + len;
    s.checkLocal(src, padApi ? std::min<uint64_t>(srcSpan, src.bytes) : srcSpan, api, loc);
    s.checkGm(dst.ptr, dst.limit, dstSpan, api, loc);
    uint64_t bytes = uint64_t(len) * shape.blockCount;
    IssueResult at = s.issue(PipeId::MTE3, memOf(src.pos) == Mem::UB ? "DataCopy UB->GM" : "DataCopy local->GM",
                             s.prof.dmaIssueCycles, s.prof.gmWriteLatencyCycles,
                             std::max<uint64_t>(1, cyclesFor(bytes, c.gmWriteBpc)), bytes, 0, loc);
    const uint8_t* sp = c.localPtr(src);
    for (uint32_t b = 0; b < shape.blockCount; ++b) {
        const uint8_t* sb = sp + uint64_t(b) * (srcBlock + shape.srcGap);
        uint8_t* db = dst.ptr + uint64_t(b) * (shape.blockLen + shape.dstGap);
        if (c.atomicMode) vecmath::accumulate(t, db, sb, len / dtypeSize(t), c.atomicMode);
        else std::memcpy(db, sb, len);
        s.gmWrites.recordWrite(db, len);
    }
    LocalRef span = src;
    span.bytes = uint32_t(std::min<uint64_t>(srcSpan, src.bytes));
    s.access(PipeId::MTE3, span, span.bytes, false, at, loc);
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

} // namespace rt
} // namespace sage::npu
