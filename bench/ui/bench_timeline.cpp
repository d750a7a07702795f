// Timeline binning speed on 1 M events (32 lanes): the whole view and a 1000-cycle zoom, as the
// timeline widget bins them on every paint. Prints medians of `reps` runs (default 11).
// Targets: whole view well under a frame (<= 50 ms), zoomed view <= 20 ms (it must not scan
// every event).  Usage: bench_timeline [reps]
#include "ui/TimeMapping.h"
#include "ui/TimelineBinner.h"
#include "ui/TimelineData.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace sage::ui;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 11;
    std::vector<TimelineInput> ev;
    ev.reserve(1'000'000);
    for (uint32_t core = 0; core < 8; ++core)
        for (int pipe : {0, 1, 4, 5})
            for (size_t i = 0; i < 31'250; ++i)
                ev.push_back({core, pipe, i * 3, (i + 1) * 3, uint32_t(pipe), 10 + uint32_t(pipe), 32, 1});
    auto d = TimelineData::build(std::move(ev), {"S", "V", "", "", "MTE2", "MTE3"});
    std::vector<double> whole, zoom;
    size_t wholeBars = 0, zoomBars = 0;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        wholeBars = TimelineBinner::bin(d, TimeMapping(0, double(d.endTime()), 0, 1200)).size();
        auto t1 = Clock::now();
        zoomBars = TimelineBinner::bin(d, TimeMapping(40'000, 41'000, 0, 1200)).size();
        auto t2 = Clock::now();
        whole.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        zoom.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("timeline binning, 1M events, %d reps (medians)\n", reps);
    std::printf("  whole view : %7.2f ms (%zu bars; target <= 50 ms)\n", median(whole), wholeBars);
    std::printf("  zoomed view: %7.2f ms (%zu bars; target <= 20 ms)\n", median(zoom), zoomBars);
}
