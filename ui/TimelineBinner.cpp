#include "ui/TimelineBinner.h"

#include <algorithm>
#include <cmath>

namespace sage::ui {

std::vector<TimelineBar> TimelineBinner::bin(const TimelineData& data, const TimeMapping& mapping, int firstLane,
                                             int lastLane, double minPixels) {
    std::vector<TimelineBar> bars;
    if (data.empty()) return bars;
    firstLane = std::max(firstLane, 0);
    lastLane = std::min(lastLane, data.laneCount() - 1);
    const double cpp = mapping.cyclesPerPixel();
    const double minCycles = cpp * minPixels;
    const double t0 = std::max(0.0, mapping.t0());
    const double t1 = mapping.t1();
    if (t1 < 0) return bars;
    const uint64_t from = uint64_t(std::floor(t0));
    for (int lane = firstLane; lane <= lastLane; ++lane) {
        const size_t n = data.laneEventCount(lane);
        size_t i = data.firstEndingAtOrAfter(lane, from);
        while (i < n) {
            const TimelineEvent& e = data.event(lane, i);
            if (double(e.start) > t1) break;
            if (double(e.cycles()) >= minCycles) {
                bars.push_back({lane, e.start, e.end, 1, e.cycles(), i});
                ++i;
                continue;
            }
            // A sub-pixel event: merge every event that starts before the next pixel boundary.
            const double column = std::floor((double(e.start) - mapping.t0()) / minCycles);
            const double boundary = mapping.t0() + (column + 1) * minCycles;
            size_t j = boundary <= 0 ? i + 1 : data.firstStartingAtOrAfter(lane, uint64_t(std::ceil(boundary)));
            j = std::max(j, i + 1);
            TimelineBar bar{lane, e.start, std::max(e.end, data.maxEndThrough(lane, j - 1)), uint32_t(j - i),
                            data.busyBetween(lane, i, j), i};
            // Keep a merged bar from swallowing the start of the next long event: clip to where it starts.
            if (j < n) bar.end = std::min(bar.end, std::max(data.event(lane, j).start, e.end));
            bars.push_back(bar);
            i = j;
        }
    }
    return bars;
}

} // namespace sage::ui
