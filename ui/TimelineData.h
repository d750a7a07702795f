// The timeline of one profile, laid out for drawing: one lane per (core, pipe) that has events,
// each lane's events sorted by start, with prefix maxima of end times and prefix sums of busy
// cycles so that the visible window and sub-pixel merging are found by binary search.
// Times are cycles from the start of the first launch (later launches follow the earlier ones,
// as in the Chrome trace export). Built once per evaluation, off the GUI thread; then read-only.
#pragma once

#include "sage_eval/Evaluation.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sage::ui {

struct TimelineLane {
    uint32_t core = 0;   // the first core of the lane
    uint32_t cores = 1;  // cores drawn in this lane (groupCores)
    int pipe = 0;
    QString label() const;  // "core 3 · MTE2", or "cores 8–15 · MTE2"
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

// A synchronisation link as the builder receives it: where the SetFlag (or EnQue) started and
// where the WaitFlag (or DeQue) it released started.
struct TimelineLinkInput {
    uint32_t fromCore = 0, toCore = 0;
    int fromPipe = 0, toPipe = 0;
    uint64_t from = 0, to = 0;
    bool queue = false;  // EnQue -> DeQue; otherwise SetFlag -> WaitFlag
};

// The same link between two lanes, as drawn.
struct TimelineLink {
    int fromLane = 0, toLane = 0;
    uint64_t from = 0, to = 0;
    bool queue = false;
    uint64_t lo() const { return std::min(from, to); }
    uint64_t hi() const { return std::max(from, to); }
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
    static TimelineData build(std::vector<TimelineInput> events, std::vector<std::string> opNames,
                              const std::vector<TimelineLinkInput>& links = {});
    // The compact view of many cores: each pipe of `coresPerGroup` neighbouring cores in one lane
    // (events and links kept, their lanes merged). Lane i of the result starts at core i's group.
    static TimelineData groupCores(const TimelineData& data, uint32_t coresPerGroup);
    // The smallest power-of-two group that brings the lanes down to `maxLanes` (1: no grouping needed).
    static uint32_t coresPerGroupFor(const TimelineData& data, int maxLanes);
    uint32_t coreCount() const;  // distinct cores with events

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

    // Synchronisation links (eval::flowLinks, the Chrome trace's flow arrows), by their earlier end.
    const std::vector<TimelineLink>& links() const { return links_; }
    size_t flagLinkCount() const;  // SetFlag -> WaitFlag links
    // The links that may touch [t0, t1]: [first, end) of links(); a link in there whose lo() > t1 ends the scan.
    size_t firstLinkReaching(uint64_t t0) const;

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
    void addLinks(const std::vector<TimelineLinkInput>& links, const std::map<std::pair<uint32_t, int>, size_t>& laneIndex);
    struct Lane {
        TimelineLane info;
        std::vector<TimelineEvent> events;
        std::vector<uint64_t> maxEnd;  // prefix maximum of end
        std::vector<uint64_t> busy;    // prefix sums of cycles, size events + 1
    };
    std::vector<Lane> lanes_;
    std::vector<TimelineLink> links_;
    std::vector<uint64_t> linkMaxHi_;  // prefix maximum of links_[i].hi()
    std::vector<std::string> ops_;
    size_t total_ = 0;
    uint64_t endTime_ = 0;
};

} // namespace sage::ui
