// Sort32: each repeat sorts 32 scores (half or float) with their uint32 indices, largest score
// first (equal scores keep their order), into 8-byte (score, index) entries. Checks, cost on
// PIPE_V, race bookkeeping, then the functional effect.
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sage::npu::rt {

namespace {
constexpr uint32_t kSortGroup = 32;
constexpr uint32_t kEntryBytes = 8;

struct ScoredIndex {
    float score;
    uint32_t scoreBits;  // the raw bits stored back (half or float)
    uint32_t index;
};

// Strict weak order for a descending sort: NaN ranks above every number.
bool ranksBefore(const ScoredIndex& a, const ScoredIndex& b) {
    const bool an = std::isnan(a.score), bn = std::isnan(b.score);
    if (an != bn) return an;
    return !an && a.score > b.score;
}
} // namespace

void vecSort32(DType t, const LocalRef& dst, const LocalRef& scores, const LocalRef& indices, int32_t repeat, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* api = "Sort32";
    if (repeat < 0 || repeat > 255) {
        s.report("repeat_exceeds_255", std::string(api) + ": repeatTime " + std::to_string(repeat) +
                                           " is outside [0, 255]; split the sort into calls of at most 255 groups of 32.",
                 loc, true);
        return;
    }
    const uint32_t es = dtypeSize(t), n = uint32_t(repeat) * kSortGroup;
    s.checkLocal(scores, uint64_t(n) * es, api, loc);
    s.checkLocal(indices, uint64_t(n) * 4, api, loc);
    s.checkLocal(dst, uint64_t(n) * kEntryBytes, api, loc);
    if (n == 0) {
        s.scalarCost(s.prof.scalarIssueCycles, loc);
        return;
    }
    IssueResult at = issueVector(s, api, uint64_t(repeat), s.prof.cyclesPerRepeatComposite, uint64_t(n) * es, loc);
    const uint8_t* sp = c.localPtr(scores);
    const uint8_t* ip = c.localPtr(indices);
    std::vector<uint8_t> out(size_t(n) * kEntryBytes, 0);
    for (uint32_t g = 0; g < uint32_t(repeat); ++g) {
        std::vector<ScoredIndex> group(kSortGroup);
        for (uint32_t k = 0; k < kSortGroup; ++k) {
            const uint32_t i = g * kSortGroup + k;
            ScoredIndex& e = group[k];
            e.scoreBits = 0;
            std::memcpy(&e.scoreBits, sp + size_t(i) * es, es);
            e.score = float(vecmath::loadScalar(t, sp + size_t(i) * es));
            std::memcpy(&e.index, ip + size_t(i) * 4, 4);
        }
        std::stable_sort(group.begin(), group.end(), ranksBefore);
        for (uint32_t k = 0; k < kSortGroup; ++k) {
            uint8_t* entry = &out[(size_t(g) * kSortGroup + k) * kEntryBytes];
            std::memcpy(entry, &group[k].scoreBits, es);  // score in the low bytes (half: 2 reserved after it)
            std::memcpy(entry + 4, &group[k].index, 4);   // index in the high 4 bytes
        }
    }
    std::memcpy(c.localPtr(dst), out.data(), out.size());
    s.access(PipeId::V, scores, n * es, false, at, loc);
    s.access(PipeId::V, indices, n * 4, false, at, loc);
    s.access(PipeId::V, dst, n * kEntryBytes, true, at, loc);
}

} // namespace sage::npu::rt
