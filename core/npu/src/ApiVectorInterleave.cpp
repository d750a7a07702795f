// Interleave / DeInterleave on whole tensors (Ascend 950): the element permutations between two
// halves and their alternating merge. Element values move unchanged, so any element size works.
#include "VectorIssue.h"

#include <cstring>
#include <string>
#include <vector>

namespace sage::npu::rt {

void vecInterleave(bool de, DType t, const LocalRef& dst0, const LocalRef& dst1, const LocalRef& s0,
                   const LocalRef* s1, uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* name = de ? "DeInterleave" : "Interleave";
    if (count % 2 != 0)
        s.report("unsupported", std::string(name) + ": count " + std::to_string(count) +
                 " must be even (the documented constraint)", loc, true);
    const uint32_t es = dtypeSize(t);
    // With one source (DeInterleave only) `count` is the source's length and each output gets half.
    const uint64_t outCount = s1 ? count : count / 2;
    const uint64_t inBytes = count * es, outBytes = outCount * es;
    s.checkLocal(dst0, outBytes, name, loc);
    s.checkLocal(dst1, outBytes, name, loc);
    s.checkLocal(s0, inBytes, name, loc);
    if (s1) s.checkLocal(*s1, inBytes, name, loc);
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    const uint64_t moved = 2 * outBytes;
    IssueResult at = issueVector(s, name, repeatsFor(moved, s.prof), s.prof.cyclesPerRepeatSimple, moved, loc);
    // The source stream (s0 then s1), read before anything is written (operands may overlap).
    std::vector<uint8_t> in(s1 ? 2 * inBytes : inBytes);
    std::memcpy(in.data(), c.localPtr(s0), inBytes);
    if (s1) std::memcpy(in.data() + inBytes, c.localPtr(*s1), inBytes);
    uint8_t* d[2] = {c.localPtr(dst0), c.localPtr(dst1)};
    for (uint64_t k = 0; k < 2 * outCount; ++k) {
        // Interleave: output k is element k/2 of s0 (even k) or s1 (odd k), split into halves.
        // DeInterleave: output k of dst0 is stream element 2k, of dst1 element 2k + 1.
        const uint64_t out = de ? (k % 2) * outCount + k / 2 : k;
        const uint64_t src = de ? k : (k % 2) * outCount + k / 2;
        std::memcpy(d[out / outCount] + (out % outCount) * es, in.data() + src * es, es);
    }
    s.access(PipeId::V, s0, uint32_t(inBytes), false, at, loc);
    if (s1) s.access(PipeId::V, *s1, uint32_t(inBytes), false, at, loc);
    s.access(PipeId::V, dst0, uint32_t(outBytes), true, at, loc);
    s.access(PipeId::V, dst1, uint32_t(outBytes), true, at, loc);
}

} // namespace sage::npu::rt
