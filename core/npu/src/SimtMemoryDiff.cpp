#include "SimtMemoryDiff.h"

#include <cstring>

namespace sage::npu {

namespace {
// GM copied per launch at most; beyond it GM writes of the launch are not recorded (the output
// check then reports them as not the device's, which names the cause).
constexpr size_t kMaxGmCopyBytes = size_t(256) << 20;

// Calls f(offset, length) for each maximal run of `grain`-byte chunks in which a and b differ.
template <typename F> void forChangedRuns(const uint8_t* a, const uint8_t* b, size_t n, size_t grain, F f) {
    size_t runStart = 0;
    bool inRun = false;
    for (size_t at = 0; at < n; at += grain) {
        const size_t len = std::min(grain, n - at);
        const bool changed = std::memcmp(a + at, b + at, len) != 0;
        if (changed && !inRun) runStart = at;
        if (!changed && inRun) f(runStart, at - runStart);
        inRun = changed;
    }
    if (inRun) f(runStart, n - runStart);
}
} // namespace

SimtMemoryDiff::SimtMemoryDiff(Simulation::Impl& s) : s_(s) {
    size_t total = 0;
    for (const auto& [start, a] : s.gmAllocations) {
        if (total + a.bytes > kMaxGmCopyBytes) break;
        total += a.bytes;
        auto* p = reinterpret_cast<uint8_t*>(start);
        gm_.push_back({p, std::vector<uint8_t>(p, p + a.bytes)});
    }
    ub_ = s.ctx().mem[size_t(memOf(Pos::VECCALC))];
}

void SimtMemoryDiff::record(const IssueResult& at, const Loc& loc) {
    for (const Copy& c : gm_)
        forChangedRuns(c.before.data(), c.start, c.before.size(), 1, [&](size_t off, size_t len) {
            s_.gmWrites.recordWrite(c.start + off, len);
            s_.launch->gmBytesWritten += len;
        });
    const std::vector<uint8_t>& ub = s_.ctx().mem[size_t(memOf(Pos::VECCALC))];
    forChangedRuns(ub_.data(), ub.data(), std::min(ub_.size(), ub.size()), 32, [&](size_t off, size_t len) {
        const LocalRef r{Pos::VECCALC, uint32_t(off), uint32_t(len)};
        s_.access(PipeId::V, r, uint32_t(len), true, at, loc);
    });
}

} // namespace sage::npu
