// The register-level vector API's memory side and issue (kernel_vec_reg.h): register loads and
// stores are UB accesses on PIPE_V, checked, race-tracked and costed like the vector
// instructions; the register arithmetic itself runs in the kernel's process.
#include "SimImpl.h"
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sage::npu::rt {

void regLoad(const LocalRef& src, void* out, uint32_t bytes, uint32_t align, const char* api, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    s.checkLocal(src, bytes, api, loc, align);
    IssueResult at = issueVector(s, api, 1, s.prof.cyclesPerRepeatSimple, bytes, loc);
    std::memcpy(out, c.localPtr(src), bytes);
    s.access(PipeId::V, src, bytes, false, at, loc);
}

void regStore(const LocalRef& dst, const void* in, const bool* laneOn, uint32_t es, uint32_t lanes, uint32_t align,
              const char* api, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    uint32_t end = 0;  // one past the last active lane: the bytes the store reaches
    for (uint32_t i = 0; i < lanes; ++i)
        if (laneOn[i]) end = i + 1;
    s.checkLocal(dst, uint64_t(std::max(end, 1u)) * es, api, loc, align);
    if (end == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, api, 1, s.prof.cyclesPerRepeatSimple, uint64_t(end) * es, loc);
    uint8_t* p = c.localPtr(dst);
    const auto* from = static_cast<const uint8_t*>(in);
    for (uint32_t i = 0; i < end; ++i)
        if (laneOn[i]) std::memcpy(p + size_t(i) * es, from + size_t(i) * es, es);
    s.access(PipeId::V, dst, end * es, true, at, loc);
}

namespace {
// An indexed register access: the byte span its active lanes reach, checked against UB, and
// its one PIPE_V instruction.
struct IndexedAccess {
    IssueResult at;
    uint32_t end = 0;  // one past the highest byte an active lane touches
    bool any = false;
};
IndexedAccess issueIndexed(Simulation::Impl& s, const LocalRef& base, const uint32_t* offsets, const bool* on,
                           uint32_t es, uint32_t n, const char* api, const Loc& loc) {
    IndexedAccess a;
    for (uint32_t i = 0; i < n; ++i)
        if (on[i]) {
            a.end = std::max(a.end, offsets[i] + es);
            a.any = true;
        }
    s.checkLocal(base, std::max(a.end, es), api, loc, es);
    a.at = issueVector(s, api, 1, s.prof.cyclesPerRepeatSimple, uint64_t(n) * es, loc);
    return a;
}
} // namespace

void regGather(const LocalRef& base, void* out, const uint32_t* offsets, const bool* on, uint32_t es, uint32_t n,
               const char* api, Loc loc) {
    auto& s = activeImpl();
    const IndexedAccess a = issueIndexed(s, base, offsets, on, es, n, api, loc);
    const uint8_t* p = s.ctx().localPtr(base);
    auto* to = static_cast<uint8_t*>(out);
    for (uint32_t i = 0; i < n; ++i)
        if (on[i]) std::memcpy(to + size_t(i) * es, p + offsets[i], es);
    if (a.any) s.access(PipeId::V, base, a.end, false, a.at, loc);
}

void regScatter(const LocalRef& base, const void* in, const uint32_t* offsets, const bool* on, uint32_t es, uint32_t n,
                const char* api, Loc loc) {
    auto& s = activeImpl();
    const IndexedAccess a = issueIndexed(s, base, offsets, on, es, n, api, loc);
    uint8_t* p = s.ctx().localPtr(base);
    const auto* from = static_cast<const uint8_t*>(in);
    for (uint32_t i = 0; i < n; ++i)  // lanes in order: a later lane wins a shared offset
        if (on[i]) std::memcpy(p + offsets[i], from + size_t(i) * es, es);
    if (a.any) s.access(PipeId::V, base, a.end, true, a.at, loc);
}

void regIssue(const char* api, VecOp op, DType t, Loc loc) {
    auto& s = activeImpl();
    issueVector(s, api, 1, cyclesPerRepeat(s.prof, op, t), s.prof.vectorBytesPerRepeat, loc);
}

void regCast(DType dt, DType st, void* dst, const void* src, int roundMode, uint32_t count, bool saturate, Loc loc) {
    auto& s = activeImpl();
    issueVector(s, "Cast", 1, s.prof.cyclesPerRepeatCast, s.prof.vectorBytesPerRepeat, loc);
    auto isFloat = [](DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F32; };
    auto* out = static_cast<uint8_t*>(dst);
    const auto* in = static_cast<const uint8_t*>(src);
    const uint32_t ds = dtypeSize(dt), ss = dtypeSize(st);
    if (!isFloat(dt) && !isFloat(st) && !saturate && ds < ss) {
        // Without saturation a narrowing integer conversion keeps the low bytes (little-endian).
        for (uint32_t i = 0; i < count; ++i) std::memcpy(out + size_t(i) * ds, in + size_t(i) * ss, ds);
        return;
    }
    vecmath::cast(dt, st, out, in, roundMode, count);
    if (saturate && dt == DType::F16)  // a finite value past half's range becomes its largest finite value
        for (uint32_t i = 0; i < count; ++i) {
            uint16_t bits;
            std::memcpy(&bits, out + size_t(i) * 2, 2);
            if ((bits & 0x7fffu) == 0x7c00u && std::isfinite(vecmath::loadScalar(st, in + size_t(i) * ss))) {
                bits = uint16_t((bits & 0x8000u) | 0x7bffu);
                std::memcpy(out + size_t(i) * 2, &bits, 2);
            }
        }
}

} // namespace sage::npu::rt
