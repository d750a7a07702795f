// Aggregate statistics of the events that overlap a selected time range: per op name the count,
// total, mean, min and max cycles (like MindStudio Insight's slice list), and per pipe the busy
// cycles inside the range.
#pragma once

#include "ui/TimelineData.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::ui {

struct OpRangeStats {
    std::string op;
    uint64_t count = 0, total = 0, min = 0, max = 0, bytes = 0;
    double mean() const { return count ? double(total) / double(count) : 0.0; }
};

struct RangeSummary {
    uint64_t t0 = 0, t1 = 0;
    uint64_t events = 0;
    uint64_t cycles = 0;                 // summed full durations of the overlapping events
    // Per pipe: the cycles of the range in which the pipe was busy on a core, summed over cores.
    // Overlapping events of one lane count once, so each core adds at most span().
    std::array<uint64_t, 7> pipeBusy{};
    std::vector<OpRangeStats> ops;       // by total cycles, largest first
    uint64_t span() const { return t1 > t0 ? t1 - t0 : 0; }
};

class RangeStatistics {
public:
    static RangeSummary compute(const TimelineData& data, uint64_t t0, uint64_t t1);
};

} // namespace sage::ui
