// The timeline of one profile, laid out for drawing: one lane per (core, pipe) that has events,
// each lane's events sorted by start, with prefix maxima of end times and prefix sums of busy
// cycles so that the visible window and sub-pixel merging are found by binary search.
// Times are cycles from the start of the first launch (later launches follow the earlier ones,
// as in the Chrome trace export). Built once per evaluation, off the GUI thread; then read-only.
#pragma once

#include "sage_eval/Evaluation.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sage::ui {

struct TimelineLane {
    uint32_t core = 0;
    int pipe = 0;
    QString label() const;  // "core 3 · MTE2"
};

// One event as the builder receives it.
struct TimelineInput {
    uint32_t core = 0;
    int pipe = 0;
    uint64_t start = 0, end = 0;
    uint32_t op = 0;  // index into the op-name table
    uint32_t line = 0;
    uint64_t bytes = 0;
    uint32_t repeats = 0;
};

struct TimelineEvent {
    uint64_t start = 0, end = 0;
    uint64_t bytes = 0;
    uint32_t op = 0, line = 0, repeats = 0;
    uint64_t cycles() const { return end > start ? end - start : 0; }
};

class TimelineData {
public:
    TimelineData() = default;
    static TimelineData fromProfile(const eval::ProfileSection& profile);
    static TimelineData build(std::vector<TimelineInput> events, std::vector<std::string> opNames);

    int laneCount() const { return int(lanes_.size()); }
    const TimelineLane& lane(int i) const { return lanes_[size_t(i)].info; }
    int laneOf(uint32_t core, int pipe) const;  // -1 when that lane has no events
    size_t eventCount() const { return total_; }
    size_t laneEventCount(int lane) const { return lanes_[size_t(lane)].events.size(); }
    const TimelineEvent& event(int lane, size_t i) const { return lanes_[size_t(lane)].events[i]; }
    const std::string& opName(uint32_t op) const;
    const std::vector<std::string>& opNames() const { return ops_; }
    uint64_t endTime() const { return endTime_; }
    bool empty() const { return total_ == 0; }

    // First event of the lane whose end is >= t (events before it all ended earlier).
    size_t firstEndingAtOrAfter(int lane, uint64_t t) const;
    // First event of the lane whose start is >= t.
    size_t firstStartingAtOrAfter(int lane, uint64_t t) const;
    // The latest end among events [0, i] of the lane.
    uint64_t maxEndThrough(int lane, size_t i) const { return lanes_[size_t(lane)].maxEnd[i]; }
    // Busy cycles of events [i, j) of the lane.
    uint64_t busyBetween(int lane, size_t i, size_t j) const {
        return lanes_[size_t(lane)].busy[j] - lanes_[size_t(lane)].busy[i];
    }
    // The event under time t in the lane, or the nearest one within `tolerance` cycles.
    std::optional<size_t> eventAt(int lane, double t, double tolerance) const;

private:
    struct Lane {
        TimelineLane info;
        std::vector<TimelineEvent> events;
        std::vector<uint64_t> maxEnd;  // prefix maximum of end
        std::vector<uint64_t> busy;    // prefix sums of cycles, size events + 1
    };
    std::vector<Lane> lanes_;
    std::vector<std::string> ops_;
    size_t total_ = 0;
    uint64_t endTime_ = 0;
};

} // namespace sage::ui
