#include "ui/RangeStatistics.h"

#include <algorithm>
#include <map>

namespace sage::ui {

RangeSummary RangeStatistics::compute(const TimelineData& data, uint64_t t0, uint64_t t1) {
    RangeSummary s;
    if (t1 < t0) std::swap(t0, t1);
    s.t0 = t0;
    s.t1 = t1;
    std::map<uint32_t, OpRangeStats> byOp;
    for (int lane = 0; lane < data.laneCount(); ++lane) {
        const int pipe = data.lane(lane).pipe;
        const size_t n = data.laneEventCount(lane);
        uint64_t counted = t0;  // the lane's busy time is counted up to here (events come by start)
        for (size_t i = data.firstEndingAtOrAfter(lane, t0); i < n; ++i) {
            const TimelineEvent& e = data.event(lane, i);
            if (e.start > t1) break;
            if (e.end < t0 || (e.end == t0 && e.start < t0)) continue;
            ++s.events;
            s.cycles += e.cycles();
            // A transfer's latency may overlap the next instruction on its pipe (the pipe is free
            // once the data is on its way, docs/device-model.md): busy is the union, as in the profile.
            const uint64_t from = std::max(e.start, counted), to = std::min(e.end, t1);
            if (pipe >= 0 && pipe < 7 && to > from) s.pipeBusy[size_t(pipe)] += to - from;
            counted = std::max(counted, to);
            auto& op = byOp[e.op];
            if (op.count == 0) {
                op.op = data.opName(e.op);
                op.min = e.cycles();
            }
            ++op.count;
            op.total += e.cycles();
            op.min = std::min(op.min, e.cycles());
            op.max = std::max(op.max, e.cycles());
            op.bytes += e.bytes;
        }
    }
    for (auto& [_, op] : byOp) s.ops.push_back(std::move(op));
    std::sort(s.ops.begin(), s.ops.end(), [](const OpRangeStats& a, const OpRangeStats& b) {
        return a.total != b.total ? a.total > b.total : a.op < b.op;
    });
    return s;
}

} // namespace sage::ui
