#include "SimtMemoryDiff.h"

#include <algorithm>
#include <cstring>

namespace sage::npu {

namespace {
// GM copied per launch at most; beyond it GM writes of the launch are not recorded (the output
// check then reports them as not the device's, which names the cause).
constexpr size_t kMaxGmCopyBytes = size_t(256) << 20;

// Calls f(offset, length) for each maximal run of `grain`-byte chunks in which a and b differ.
// Equal pages are skipped with one memcmp each: most of GM is untouched by a launch.
template <typename F> void forChangedRuns(const uint8_t* a, const uint8_t* b, size_t n, size_t grain, F f) {
    constexpr size_t kPage = 4096;  // a multiple of every grain used here
    size_t runStart = 0;
    bool inRun = false;
    for (size_t page = 0; page < n; page += kPage) {
        const size_t pageEnd = std::min(n, page + kPage);
        if (std::memcmp(a + page, b + page, pageEnd - page) == 0) {
            if (inRun) f(runStart, page - runStart);
            inRun = false;
            continue;
        }
        for (size_t at = page; at < pageEnd; at += grain) {
            const size_t len = std::min(grain, pageEnd - at);
            const bool changed = std::memcmp(a + at, b + at, len) != 0;
            if (changed && !inRun) runStart = at;
            if (!changed && inRun) f(runStart, at - runStart);
            inRun = changed;
        }
    }
    if (inRun) f(runStart, n - runStart);
}
} // namespace

SimtGmDiff::SimtGmDiff(Simulation::Impl& s, const void* const* pointers, uint32_t count) : s_(s) {
    size_t total = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (!pointers[i]) continue;
        const auto it = s.gmAllocationAtOrBefore(reinterpret_cast<uintptr_t>(pointers[i]));
        if (it == s.gmAllocations.end() || reinterpret_cast<uintptr_t>(pointers[i]) >= it->first + it->second.bytes)
            continue;  // not GM (a UB address, a host object): nothing to record
        auto* p = reinterpret_cast<uint8_t*>(it->first);
        bool seen = false;
        for (const Copy& c : copies_) seen |= c.start == p;
        if (seen || total + it->second.bytes > kMaxGmCopyBytes) continue;
        total += it->second.bytes;
        copies_.push_back({p, std::vector<uint8_t>(p, p + it->second.bytes)});
    }
}

uint64_t SimtGmDiff::record() {
    uint64_t bytes = 0;
    for (const Copy& c : copies_)
        forChangedRuns(c.before.data(), c.start, c.before.size(), 1, [&](size_t off, size_t len) {
            s_.gmWrites.recordWrite(c.start + off, len);
            bytes += len;
        });
    return bytes;
}

SimtUbDiff::SimtUbDiff(Simulation::Impl& s) : s_(s), before_(s.ctx().mem[size_t(memOf(Pos::VECCALC))]) {}

void SimtUbDiff::record(const IssueResult& at, const Loc& loc) {
    const std::vector<uint8_t>& ub = s_.ctx().mem[size_t(memOf(Pos::VECCALC))];
    forChangedRuns(before_.data(), ub.data(), std::min(before_.size(), ub.size()), 32, [&](size_t off, size_t len) {
        const LocalRef r{Pos::VECCALC, uint32_t(off), uint32_t(len)};
        s_.access(PipeId::V, r, uint32_t(len), true, at, loc);
    });
}

} // namespace sage::npu
