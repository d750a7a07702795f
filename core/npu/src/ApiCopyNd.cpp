// The Ascend 950 multi-dimensional GM -> UB copy (DataCopy with MultiCopyParams / NdDmaParams):
// up to five nested loops with their own source and destination strides and per-loop padding.
#include "SimImpl.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sage::npu {
namespace {

constexpr uint64_t kDstStrideLimit = 1ull << 20;  // the destination stride field is 20 bits wide

struct NdExtent {
    uint64_t dstSpan = 0;      // bytes from the destination start to past its last element
    uint64_t srcSpan = 0;      // bytes from the source start to past its last element read
    uint64_t elements = 0;     // destination elements written
    uint64_t readElements = 0; // of those, the ones read from GM
};

// Checks the parameters; the extents the copy touches.
NdExtent ndExtent(Simulation::Impl& s, const rt::NdCopy& p, uint32_t es, const char* api, const Loc& loc) {
    NdExtent e;
    if (p.dims < 1 || p.dims > 5) {
        s.report("datacopy_params", std::string(api) + ": dim " + std::to_string(p.dims) + " is outside [1, 5]", loc,
                 true);
        return e;
    }
    uint64_t dstLast = 0, srcLast = 0;
    e.elements = 1;
    e.readElements = 1;
    for (int i = 0; i < p.dims; ++i) {
        if (p.dstStride[i] >= kDstStrideLimit)
            s.report("datacopy_params", std::string(api) + ": loopDstStride[" + std::to_string(i) + "] " +
                     std::to_string(p.dstStride[i]) + " must be below 2^20 elements", loc, true);
        const uint64_t full = uint64_t(p.lp[i]) + p.size[i] + p.rp[i];
        if (p.size[i] == 0 && full != 0)
            s.report("datacopy_params", std::string(api) + ": loop " + std::to_string(i) +
                     " pads a dimension of size 0 (there is no element to pad next to)", loc, true);
        e.elements *= full;
        e.readElements *= p.size[i];
        if (full == 0) return NdExtent{};
        dstLast += (full - 1) * p.dstStride[i];
        srcLast += uint64_t(p.size[i] - 1) * p.srcStride[i];
    }
    e.dstSpan = (dstLast + 1) * es;
    e.srcSpan = (srcLast + 1) * es;
    return e;
}

// Source element offset of one destination index, or -1 when the index is padding in constant mode.
int64_t ndSourceOffset(const rt::NdCopy& p, const uint64_t* idx) {
    int64_t off = 0;
    for (int i = 0; i < p.dims; ++i) {
        int64_t j = int64_t(idx[i]) - p.lp[i];
        if (j < 0 || j >= int64_t(p.size[i])) {
            if (!p.nearest) return -1;
            j = std::clamp<int64_t>(j, 0, int64_t(p.size[i]) - 1);
        }
        off += j * int64_t(p.srcStride[i]);
    }
    return off;
}

} // namespace

namespace rt {

void copyGmToLocalNd(const LocalRef& dst, const GmRef& src, const NdCopy& p, DType t, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "DataCopy(GM -> UB, MultiCopyParams)";
    if (memOf(dst.pos) != Mem::UB)
        s.report("datacopy_params", std::string(api) + ": the destination must be in UB (VECIN/VECCALC/VECOUT)", loc,
                 true);
    const uint32_t es = dtypeSize(t);
    const NdExtent e = ndExtent(s, p, es, api, loc);
    s.checkLocal(dst, e.dstSpan, api, loc);
    s.checkGm(src.ptr, src.limit, e.readElements ? e.srcSpan : 0, api, loc);
    const uint64_t bytes = e.readElements * es;
    IssueResult at = s.issue(PipeId::MTE2, "DataCopy GM->UB (nd)", s.prof.dmaIssueCycles, c.gmReadLatency,
                             std::max<uint64_t>(1, uint64_t(std::ceil(double(bytes) / c.gmReadBpc))), bytes, 0, loc);
    uint64_t idx[5] = {};
    uint8_t* base = c.localPtr(dst);
    for (uint64_t n = 0; n < e.elements; ++n) {
        uint64_t dstOff = 0;
        for (int i = 0; i < p.dims; ++i) dstOff += idx[i] * p.dstStride[i];
        const int64_t srcOff = ndSourceOffset(p, idx);
        if (srcOff < 0) std::memcpy(base + dstOff * es, &p.padBits, es);
        else std::memcpy(base + dstOff * es, src.ptr + uint64_t(srcOff) * es, es);
        for (int i = 0; i < p.dims; ++i) {  // the odometer: innermost loop first
            if (++idx[i] < uint64_t(p.lp[i]) + p.size[i] + p.rp[i]) break;
            idx[i] = 0;
        }
    }
    s.access(PipeId::MTE2, dst, uint32_t(e.dstSpan), true, at, loc);
    s.launch->gmBytesRead += bytes;
}

} // namespace rt
} // namespace sage::npu
