#include "ui/TimelineData.h"

#include "ui/PipePalette.h"

#include "sage_eval/TraceExport.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace sage::ui {

QString TimelineLane::label() const {
    if (cores > 1) return QStringLiteral("cores %1–%2 · %3").arg(core).arg(core + cores - 1).arg(PipePalette::name(pipe));
    return QStringLiteral("core %1 · %2").arg(core).arg(PipePalette::name(pipe));
}

TimelineData TimelineData::groupCores(const TimelineData& data, uint32_t coresPerGroup) {
    const uint32_t g = std::max<uint32_t>(1, coresPerGroup);
    std::vector<TimelineInput> events;
    events.reserve(data.eventCount());
    for (int l = 0; l < data.laneCount(); ++l) {
        const TimelineLane& lane = data.lane(l);
        for (const TimelineEvent& e : data.lanes_[size_t(l)].events)
            events.push_back({lane.core / g * g, lane.pipe, e.start, e.end, e.op, e.line, e.bytes, e.repeats});
    }
    std::vector<TimelineLinkInput> links;
    links.reserve(data.links_.size());
    for (const TimelineLink& k : data.links_) {
        const TimelineLane& a = data.lane(k.fromLane);
        const TimelineLane& b = data.lane(k.toLane);
        links.push_back({a.core / g * g, b.core / g * g, a.pipe, b.pipe, k.from, k.to, k.queue});
    }
    TimelineData grouped = build(std::move(events), data.ops_, links);
    const uint32_t last = data.lanes_.empty() ? 0 : data.lanes_.back().info.core;
    for (auto& lane : grouped.lanes_) lane.info.cores = std::min(g, last - lane.info.core + 1);
    return grouped;
}

uint32_t TimelineData::coreCount() const {
    std::vector<uint32_t> cores;
    for (const auto& l : lanes_) cores.push_back(l.info.core);
    std::sort(cores.begin(), cores.end());
    return uint32_t(std::unique(cores.begin(), cores.end()) - cores.begin());
}

uint32_t TimelineData::coresPerGroupFor(const TimelineData& data, int maxLanes) {
    const uint32_t cores = data.coreCount();
    if (data.laneCount() <= maxLanes || cores <= 1) return 1;
    const double lanesPerCore = double(data.laneCount()) / cores;
    uint32_t g = 2;
    while (g < cores && std::ceil(double(cores) / g) * lanesPerCore > maxLanes) g *= 2;
    return std::min(g, cores);
}

TimelineData TimelineData::fromProfile(const eval::ProfileSection& profile) {
    std::vector<TimelineInput> events;
    std::vector<TimelineLinkInput> links;
    std::vector<std::string> names;
    std::unordered_map<std::string, uint32_t> nameIds;
    size_t total = 0;
    for (const auto& l : profile.launches) total += l.events.size();
    events.reserve(total);
    uint64_t offset = 0;
    for (const auto& l : profile.launches) {
        std::vector<uint32_t> opMap(l.ops.size());
        for (size_t i = 0; i < l.ops.size(); ++i) {
            auto [it, added] = nameIds.try_emplace(l.ops[i], uint32_t(names.size()));
            if (added) names.push_back(l.ops[i]);
            opMap[i] = it->second;
        }
        const uint64_t base = offset + l.launchOverheadCycles;
        for (const auto& e : l.events) {
            TimelineInput in;
            in.core = e.core;
            in.pipe = e.pipe;
            in.start = base + e.start;
            in.end = base + std::max(e.end, e.start);
            if (e.op < opMap.size()) {
                in.op = opMap[e.op];
            } else {
                auto [it, added] = nameIds.try_emplace("?", uint32_t(names.size()));
                if (added) names.push_back("?");
                in.op = it->second;
            }
            in.line = e.line;
            in.bytes = e.bytes;
            in.repeats = e.repeats;
            events.push_back(in);
        }
        for (const eval::FlowLink& link : eval::flowLinks(l)) {
            const auto& from = l.events[link.source];
            const auto& to = l.events[link.target];
            links.push_back({from.core, to.core, from.pipe, to.pipe, base + from.start, base + to.start, link.queue});
        }
        offset += l.totalCycles;
    }
    return build(std::move(events), std::move(names), links);
}

TimelineData TimelineData::build(std::vector<TimelineInput> events, std::vector<std::string> opNames,
                                 const std::vector<TimelineLinkInput>& links) {
    TimelineData d;
    d.ops_ = std::move(opNames);
    std::map<std::pair<uint32_t, int>, size_t> laneIndex;
    for (const auto& e : events) laneIndex.try_emplace({e.core, e.pipe}, 0);
    size_t n = 0;
    for (auto& [key, index] : laneIndex) {
        index = n++;
        Lane lane;
        lane.info.core = key.first;
        lane.info.pipe = key.second;
        d.lanes_.push_back(std::move(lane));
    }
    for (const auto& e : events) {
        TimelineEvent t{e.start, std::max(e.end, e.start), e.bytes, e.op, e.line, e.repeats};
        d.lanes_[laneIndex[{e.core, e.pipe}]].events.push_back(t);
        d.endTime_ = std::max(d.endTime_, t.end);
    }
    d.total_ = events.size();
    events.clear();
    events.shrink_to_fit();
    for (auto& lane : d.lanes_) {
        auto& ev = lane.events;
        std::stable_sort(ev.begin(), ev.end(), [](const TimelineEvent& a, const TimelineEvent& b) { return a.start < b.start; });
        lane.maxEnd.resize(ev.size());
        lane.busy.resize(ev.size() + 1);
        uint64_t maxEnd = 0, busy = 0;
        for (size_t i = 0; i < ev.size(); ++i) {
            maxEnd = std::max(maxEnd, ev[i].end);
            lane.maxEnd[i] = maxEnd;
            lane.busy[i] = busy;
            busy += ev[i].cycles();
        }
        lane.busy[ev.size()] = busy;
    }
    d.addLinks(links, laneIndex);
    return d;
}

void TimelineData::addLinks(const std::vector<TimelineLinkInput>& links,
                            const std::map<std::pair<uint32_t, int>, size_t>& laneIndex) {
    for (const auto& l : links) {
        auto from = laneIndex.find({l.fromCore, l.fromPipe});
        auto to = laneIndex.find({l.toCore, l.toPipe});
        if (from == laneIndex.end() || to == laneIndex.end()) continue;  // an end without events (truncated)
        links_.push_back({int(from->second), int(to->second), l.from, l.to, l.queue});
    }
    std::stable_sort(links_.begin(), links_.end(), [](const TimelineLink& a, const TimelineLink& b) { return a.lo() < b.lo(); });
    linkMaxHi_.resize(links_.size());
    uint64_t hi = 0;
    for (size_t i = 0; i < links_.size(); ++i) linkMaxHi_[i] = hi = std::max(hi, links_[i].hi());
}

size_t TimelineData::flagLinkCount() const {
    return size_t(std::count_if(links_.begin(), links_.end(), [](const TimelineLink& l) { return !l.queue; }));
}

size_t TimelineData::firstLinkReaching(uint64_t t0) const {
    return size_t(std::lower_bound(linkMaxHi_.begin(), linkMaxHi_.end(), t0) - linkMaxHi_.begin());
}

int TimelineData::laneOf(uint32_t core, int pipe) const {
    for (size_t i = 0; i < lanes_.size(); ++i)
        if (lanes_[i].info.core == core && lanes_[i].info.pipe == pipe) return int(i);
    return -1;
}

const std::string& TimelineData::opName(uint32_t op) const {
    static const std::string unknown = "?";
    return op < ops_.size() ? ops_[op] : unknown;
}

size_t TimelineData::firstEndingAtOrAfter(int lane, uint64_t t) const {
    const auto& m = lanes_[size_t(lane)].maxEnd;
    return size_t(std::lower_bound(m.begin(), m.end(), t) - m.begin());
}

size_t TimelineData::firstStartingAtOrAfter(int lane, uint64_t t) const {
    const auto& ev = lanes_[size_t(lane)].events;
    return size_t(std::lower_bound(ev.begin(), ev.end(), t, [](const TimelineEvent& e, uint64_t v) { return e.start < v; }) -
                  ev.begin());
}

std::optional<size_t> TimelineData::eventAt(int lane, double t, double tolerance) const {
    if (lane < 0 || lane >= laneCount()) return std::nullopt;
    const auto& ev = lanes_[size_t(lane)].events;
    if (ev.empty()) return std::nullopt;
    const uint64_t lo = t - tolerance <= 0 ? 0 : uint64_t(std::floor(t - tolerance));
    size_t i = firstEndingAtOrAfter(lane, lo);
    std::optional<size_t> best;
    double bestDistance = tolerance + 1;
    for (; i < ev.size() && double(ev[i].start) <= t + tolerance; ++i) {
        const auto& e = ev[i];
        double distance = t < double(e.start) ? double(e.start) - t : t > double(e.end) ? t - double(e.end) : 0.0;
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
            if (distance == 0) break;
        }
    }
    if (best && bestDistance <= tolerance) return best;
    return std::nullopt;
}

} // namespace sage::ui
