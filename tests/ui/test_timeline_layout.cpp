// The timeline's plain logic, without widgets: lanes and ordering, time<->pixel mapping, the
// visible-window binning that keeps 1 M events responsive, hit testing, range statistics, the
// zoom undo stack, and the line diff behind the candidate diff view.
#include "ui/LineDiff.h"
#include "ui/RangeStatistics.h"
#include "ui/TimeMapping.h"
#include "ui/TimelineBinner.h"
#include "ui/TimelineData.h"
#include "ui/ZoomHistory.h"

#include "sage_eval/TraceExport.h"

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <QtTest>

using namespace sage::ui;

namespace {
// `n` back-to-back events of `len` cycles on (core, pipe), starting at `t0`.
void run(std::vector<TimelineInput>& out, uint32_t core, int pipe, uint64_t t0, size_t n, uint64_t len, uint32_t op,
         uint32_t line) {
    for (size_t i = 0; i < n; ++i) out.push_back({core, pipe, t0 + i * len, t0 + (i + 1) * len, op, line, 32, 1});
}
} // namespace

class TestTimelineLayout : public QObject {
    Q_OBJECT
private slots:
    void lanesAreCorePipePairsWithEvents() {
        std::vector<TimelineInput> ev;
        run(ev, 1, 4, 0, 3, 10, 0, 7);
        run(ev, 0, 1, 5, 2, 10, 1, 9);
        run(ev, 0, 4, 0, 1, 10, 0, 7);
        auto d = TimelineData::build(ev, {"DataCopy", "Add"});
        QCOMPARE(d.laneCount(), 3);
        QCOMPARE(d.lane(0).core, 0u);
        QCOMPARE(d.lane(0).pipe, 1);
        QCOMPARE(d.lane(1).pipe, 4);
        QCOMPARE(d.lane(2).core, 1u);
        QCOMPARE(d.laneOf(1, 4), 2);
        QCOMPARE(d.laneOf(3, 0), -1);
        QCOMPARE(d.eventCount(), size_t(6));
        QCOMPARE(d.endTime(), uint64_t(30));
        QCOMPARE(d.lane(1).label(), QString("core 0 · MTE2"));
        QCOMPARE(d.busyBetween(2, 0, 3), uint64_t(30));
    }

    void unsortedInputIsSortedPerLane() {
        std::vector<TimelineInput> ev = {{0, 1, 50, 60, 0, 3, 0, 0}, {0, 1, 10, 20, 0, 1, 0, 0}, {0, 1, 30, 40, 0, 2, 0, 0}};
        auto d = TimelineData::build(ev, {"op"});
        QCOMPARE(d.event(0, 0).line, 1u);
        QCOMPARE(d.event(0, 2).line, 3u);
        QCOMPARE(d.firstStartingAtOrAfter(0, 25), size_t(1));
        QCOMPARE(d.firstEndingAtOrAfter(0, 41), size_t(2));
    }

    void mappingRoundTrips() {
        TimeMapping m(1000, 3000, 50, 400);  // 5 cycles per pixel
        QCOMPARE(m.cyclesPerPixel(), 5.0);
        QCOMPARE(m.toPixel(1000), 50.0);
        QCOMPARE(m.toPixel(3000), 450.0);
        QCOMPARE(m.toTime(250), 2000.0);
        for (double t : {1000.0, 1234.5, 2999.0}) QCOMPARE(m.toTime(m.toPixel(t)), t);
    }

    void onlyTheVisibleWindowIsBinned() {
        std::vector<TimelineInput> ev;
        run(ev, 0, 1, 0, 100, 100, 0, 5);  // 0..10000, each 100 cycles
        auto d = TimelineData::build(ev, {"Add"});
        TimeMapping m(2000, 3000, 0, 1000);  // 1 cycle per pixel: every event is 100 px wide
        auto bars = TimelineBinner::bin(d, m);
        QVERIFY(bars.size() >= 10 && bars.size() <= 12);
        for (const auto& b : bars) {
            QCOMPARE(b.count, 1u);
            QVERIFY(b.end >= 2000 && b.start <= 3000);
        }
    }

    void subPixelEventsAreMerged() {
        std::vector<TimelineInput> ev;
        run(ev, 0, 4, 0, 10000, 2, 0, 5);  // 20000 cycles of 2-cycle events
        auto d = TimelineData::build(ev, {"DataCopy"});
        TimeMapping m(0, 20000, 0, 200);  // 100 cycles per pixel: 50 events per pixel
        auto bars = TimelineBinner::bin(d, m);
        QVERIFY2(bars.size() <= 201, qPrintable(QString::number(bars.size())));
        uint64_t count = 0, busy = 0;
        for (const auto& b : bars) {
            count += b.count;
            busy += b.busy;
            QVERIFY(b.merged());
        }
        QCOMPARE(count, uint64_t(10000));  // nothing lost
        QCOMPARE(busy, uint64_t(20000));
    }

    void wideEventsStayWhileNeighboursMerge() {
        std::vector<TimelineInput> ev;
        run(ev, 0, 1, 0, 100, 1, 0, 1);          // 100 one-cycle events
        ev.push_back({0, 1, 100, 5100, 1, 2, 0, 0});  // one long event
        auto d = TimelineData::build(ev, {"Muls", "Exp"});
        TimeMapping m(0, 5100, 0, 510);  // 10 cycles per pixel
        auto bars = TimelineBinner::bin(d, m);
        const auto wide = std::find_if(bars.begin(), bars.end(), [](const TimelineBar& b) { return b.count == 1 && b.end - b.start == 5000; });
        QVERIFY(wide != bars.end());
        uint64_t count = 0;
        for (const auto& b : bars) count += b.count;
        QCOMPARE(count, uint64_t(101));
    }

    void lanesOutsideTheRangeAreSkipped() {
        std::vector<TimelineInput> ev;
        for (uint32_t core = 0; core < 8; ++core) run(ev, core, 4, 0, 10, 10, 0, 1);
        auto d = TimelineData::build(ev, {"DataCopy"});
        auto bars = TimelineBinner::bin(d, TimeMapping(0, 100, 0, 1000), 2, 3);
        QCOMPARE(bars.size(), size_t(20));
        for (const auto& b : bars) QVERIFY(b.lane == 2 || b.lane == 3);
    }

    void millionEventsBinIntoBoundedBars() {
        std::vector<TimelineInput> ev;
        ev.reserve(1'000'000);
        for (uint32_t core = 0; core < 8; ++core)
            for (int pipe : {0, 1, 4, 5}) run(ev, core, pipe, 0, 31'250, 3, uint32_t(pipe), 10 + uint32_t(pipe));
        QCOMPARE(ev.size(), size_t(1'000'000));
        auto d = TimelineData::build(std::move(ev), {"S", "V", "", "", "MTE2", "MTE3"});
        QCOMPARE(d.laneCount(), 32);
        auto all = TimelineBinner::bin(d, TimeMapping(0, double(d.endTime()), 0, 1200));
        QVERIFY2(all.size() <= size_t(32 * 1201), qPrintable(QString::number(all.size())));
        uint64_t count = 0;
        for (const auto& b : all) count += b.count;
        QCOMPARE(count, uint64_t(1'000'000));
        auto zoomed = TimelineBinner::bin(d, TimeMapping(40'000, 41'000, 0, 1200));
        QVERIFY(!zoomed.empty());
        for (const auto& b : zoomed) QCOMPARE(b.count, 1u);  // 3 cycles = 3.6 px: single events
        // The zoomed view holds about a thousandth of the events: far fewer bars than the whole.
        QVERIFY(zoomed.size() < all.size());
        // How fast binning is, is a timing figure: build/bin/bench_timeline prints it.
    }

    void hitTestFindsTheEventUnderTheCursor() {
        std::vector<TimelineInput> ev = {{0, 1, 100, 200, 0, 11, 0, 0}, {0, 1, 300, 310, 0, 12, 0, 0}};
        auto d = TimelineData::build(ev, {"Add"});
        QCOMPARE(d.eventAt(0, 150, 0).value(), size_t(0));
        QCOMPARE(d.eventAt(0, 305, 0).value(), size_t(1));
        QVERIFY(!d.eventAt(0, 250, 10).has_value());
        QCOMPARE(d.eventAt(0, 296, 5).value(), size_t(1));  // within tolerance of the short one
        QVERIFY(!d.eventAt(1, 150, 0).has_value());        // no such lane
    }

    void rangeStatisticsAggregatePerOpAndPipe() {
        std::vector<TimelineInput> ev;
        run(ev, 0, 4, 0, 10, 100, 0, 5);   // DataCopy on MTE2: 0..1000
        run(ev, 0, 1, 50, 5, 40, 1, 8);    // Add on VECTOR: 50..250
        run(ev, 1, 1, 500, 2, 300, 1, 8);  // Add on core 1: 500..1100
        auto d = TimelineData::build(ev, {"DataCopy", "Add"});
        auto s = RangeStatistics::compute(d, 150, 650);
        QCOMPARE(s.span(), uint64_t(500));
        // DataCopy events 100..700 overlap (6), Add 130..250 (3 of core 0: 130,170,210) + core 1 500..800 (1).
        QCOMPARE(s.events, uint64_t(10));
        QCOMPARE(s.ops.size(), size_t(2));
        QCOMPARE(s.ops[0].op, std::string("DataCopy"));
        QCOMPARE(s.ops[0].count, uint64_t(6));
        QCOMPARE(s.ops[0].total, uint64_t(600));
        QCOMPARE(s.ops[1].count, uint64_t(4));
        QCOMPARE(s.ops[1].min, uint64_t(40));
        QCOMPARE(s.ops[1].max, uint64_t(300));
        QCOMPARE(s.pipeBusy[4], uint64_t(500));         // MTE2 busy the whole range
        QCOMPARE(s.pipeBusy[1], uint64_t(100 + 150));   // 150..250 on core 0, 500..650 on core 1
        auto empty = RangeStatistics::compute(d, 5000, 6000);
        QCOMPARE(empty.events, uint64_t(0));
    }

    // A transfer's GM latency may overlap the next transfer on its pipe (docs/device-model.md):
    // the range's busy time counts the overlap once, so one core's pipe is never busier than the range.
    void rangeBusyCountsOverlappingEventsOfALaneOnce() {
        std::vector<TimelineInput> ev = {{0, 4, 0, 400, 0, 1, 64, 0},     // issued at 0, data visible at 400
                                         {0, 4, 100, 500, 0, 2, 64, 0},   // next transfer starts at 100
                                         {0, 4, 200, 600, 0, 3, 64, 0},
                                         {0, 4, 900, 1000, 0, 4, 64, 0},  // after a gap
                                         {1, 4, 0, 1000, 0, 5, 64, 0}};   // another core: adds its own
        auto d = TimelineData::build(ev, {"DataCopy"});
        auto s = RangeStatistics::compute(d, 50, 950);
        QCOMPARE(s.span(), uint64_t(900));
        QCOMPARE(s.pipeBusy[4], uint64_t((600 - 50) + (950 - 900) + 900));  // core 0: 50..600, 900..950; core 1: all
        QCOMPARE(s.cycles, uint64_t(400 + 400 + 400 + 100 + 1000));          // the events' own durations, unchanged
        for (uint64_t t0 : {0, 150, 450}) {
            auto one = RangeStatistics::compute(d, t0, t0 + 300);
            QVERIFY(one.pipeBusy[4] <= 2 * one.span());  // two cores
        }
    }

    // The timeline's links are the Chrome trace's flow arrows: same pairs, same lanes, same times.
    void linksAreTheTracesFlowEvents() {
        sage::eval::Evaluation ev;
        ev.profile.present = true;
        ev.profile.clockMhz = 1000;  // 1 cycle = 1 ns: trace timestamps in µs are cycles / 1000
        for (int launch = 0; launch < 2; ++launch) {
            sage::toolchain::LaunchResult l;
            l.ops = {"DataCopy", "SetFlag", "WaitFlag", "Add", "EnQue", "DeQue"};
            l.totalCycles = 1000;
            l.launchOverheadCycles = 10;
            using R = sage::toolchain::EventRecord;
            l.events = {R{0, 4, 0, 100, 0, 256, 0, 3, -1, 0},  R{0, 4, 100, 101, 1, 0, 0, 4, 7, 1},   // MTE2 sets flag 7
                        R{0, 1, 20, 120, 2, 0, 0, 5, 7, 2},    R{0, 1, 120, 200, 3, 0, 8, 6, -1, 0},  // V waits on it
                        R{1, 4, 0, 50, 4, 0, 0, 9, 3, 1},      R{1, 1, 60, 61, 5, 0, 0, 10, 3, 2},    // a queue hand-over
                        R{0, 1, 300, 301, 2, 0, 0, 5, 99, 2}};                                        // a wait with no set
            ev.profile.launches.push_back(l);
        }
        const auto d = TimelineData::fromProfile(ev.profile);
        QCOMPARE(d.links().size(), size_t(4));
        QCOMPARE(d.flagLinkCount(), size_t(2));
        std::multiset<std::tuple<int, int, uint64_t, int, int, uint64_t, bool>> fromTimeline, fromTrace;
        for (const auto& l : d.links()) {
            const auto& a = d.lane(l.fromLane);
            const auto& b = d.lane(l.toLane);
            fromTimeline.insert({int(a.core), a.pipe, l.from, int(b.core), b.pipe, l.to, l.queue});
        }
        const auto trace = sage::eval::chromeTrace(ev);
        std::map<int64_t, nlohmann::json> starts;
        for (const auto& e : trace["traceEvents"])
            if (e["ph"] == "s") starts[e["id"].get<int64_t>()] = e;
        for (const auto& e : trace["traceEvents"]) {
            if (e["ph"] != "f") continue;
            const auto& s = starts.at(e["id"].get<int64_t>());
            auto cycles = [](const nlohmann::json& x) { return uint64_t(std::llround(x["ts"].get<double>() * 1000)); };
            fromTrace.insert({s["pid"].get<int>(), s["tid"].get<int>(), cycles(s), e["pid"].get<int>(), e["tid"].get<int>(),
                              cycles(e), e["cat"] == "EnQue->DeQue"});
        }
        QCOMPARE(fromTimeline, fromTrace);
        // The second launch follows the first: its links are shifted by the first launch's cycles.
        QVERIFY(fromTimeline.count({0, 4, 10 + 100, 0, 1, 10 + 20, false}) == 1);
        QVERIFY(fromTimeline.count({0, 4, 1000 + 10 + 100, 0, 1, 1000 + 10 + 20, false}) == 1);
        // Only links that reach the window are visited.
        QCOMPARE(d.firstLinkReaching(0), size_t(0));
        QCOMPARE(d.firstLinkReaching(2000), d.links().size());
        QVERIFY(d.firstLinkReaching(500) >= 2);
    }

    // 48 cores x 3 pipes do not fit the view: groups of 8 neighbouring cores do (6 x 3 lanes).
    void manyCoresAreGroupedIntoFewerLanes() {
        std::vector<TimelineInput> ev;
        std::vector<TimelineLinkInput> links;
        for (uint32_t core = 0; core < 48; ++core) {
            run(ev, core, 0, core * 10, 2, 5, 0, 3);    // scalar
            run(ev, core, 1, core * 10 + 5, 2, 5, 1, 4);  // vector
            run(ev, core, 4, core * 10, 3, 5, 2, 5);    // MTE2
            links.push_back({core, core, 4, 1, core * 10 + 5, core * 10 + 6, false});
        }
        auto d = TimelineData::build(ev, {"scalar", "Add", "DataCopy"}, links);
        QCOMPARE(d.laneCount(), 144);
        QCOMPARE(d.coreCount(), 48u);
        QCOMPARE(TimelineData::coresPerGroupFor(d, 28), 8u);
        QCOMPARE(TimelineData::coresPerGroupFor(d, 200), 1u);
        auto g = TimelineData::groupCores(d, 8);
        QCOMPARE(g.laneCount(), 18);
        QCOMPARE(g.eventCount(), d.eventCount());
        QCOMPARE(g.links().size(), d.links().size());
        QCOMPARE(g.lane(0).label(), QString("cores 0–7 · SCALAR"));
        QCOMPARE(g.lane(17).label(), QString("cores 40–47 · MTE2"));
        QCOMPARE(g.endTime(), d.endTime());
        const auto& l = g.links().back();  // core 47's MTE2 -> V link, now between its group's lanes
        QCOMPARE(g.lane(l.fromLane).core, 40u);
        QCOMPARE(g.lane(l.fromLane).pipe, 4);
        QCOMPARE(g.lane(l.toLane).pipe, 1);
        // A core count that does not divide: the last group says which cores it holds.
        auto odd = TimelineData::groupCores(d, 32);
        QCOMPARE(odd.lane(odd.laneCount() - 1).label(), QString("cores 32–47 · MTE2"));
    }

    void zoomHistoryUndoesInOrder() {
        ZoomHistory h;
        QVERIFY(!h.undo());
        h.push({0, 100});
        h.push({0, 100});  // same range twice: stored once
        h.push({10, 50});
        QCOMPARE(h.depth(), 2);
        QCOMPARE(h.undo().value(), (std::pair<double, double>{10, 50}));
        QCOMPARE(h.undo().value(), (std::pair<double, double>{0, 100}));
        QVERIFY(!h.undo());
    }

    void lineDiffAlignsChanges() {
        const QStringList a = {"a", "b", "c", "d", "e"};
        const QStringList b = {"a", "B", "c", "e", "f"};
        auto rows = LineDiff::compute(a, b);
        QCOMPARE(LineDiff::changedRows(rows), 3);  // b->B changed, d removed, f added
        QCOMPARE(int(rows[1].kind), int(DiffRow::Kind::Changed));
        QCOMPARE(rows[1].left, 1);
        QCOMPARE(rows[1].right, 1);
        bool removedD = false, addedF = false;
        for (const auto& r : rows) {
            removedD |= r.kind == DiffRow::Kind::Removed && r.left == 3;
            addedF |= r.kind == DiffRow::Kind::Added && r.right == 4;
        }
        QVERIFY(removedD && addedF);
        QCOMPARE(LineDiff::changedRows(LineDiff::compute(a, a)), 0);
        QCOMPARE(LineDiff::compute({}, {"x"}).size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTimelineLayout)
#include "test_timeline_layout.moc"
