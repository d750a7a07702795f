// Chooses what the timeline draws for a visible window: only events that overlap it, and runs
// of events narrower than a pixel merged into one bar (with their count and busy cycles), so the
// number of bars per lane is bounded by the window's width in pixels whatever the event count.
#pragma once

#include "ui/TimeMapping.h"
#include "ui/TimelineData.h"

#include <cstdint>
#include <vector>

namespace sage::ui {

struct TimelineBar {
    int lane = 0;
    uint64_t start = 0, end = 0;  // cycles covered
    uint32_t count = 0;           // events merged into the bar (1: a single event)
    uint64_t busy = 0;            // busy cycles of those events
    size_t first = 0;             // index of the first event in the lane
    bool merged() const { return count > 1; }
};

class TimelineBinner {
public:
    // Bars for lanes [firstLane, lastLane] (clamped) in the window of `mapping`. An event shorter
    // than `minPixels` is merged with the events that start within the same pixel column.
    static std::vector<TimelineBar> bin(const TimelineData& data, const TimeMapping& mapping, int firstLane = 0,
                                        int lastLane = 1 << 30, double minPixels = 1.0);
};

} // namespace sage::ui
