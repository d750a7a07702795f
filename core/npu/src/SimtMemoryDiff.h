// What a SIMT launch's threads changed in GM and in the core's UB, found by comparing both with
// a copy taken before the launch: plain pointer stores cannot be intercepted on the host, but
// their effect can. Changed GM bytes become the device's writes (GmWriteLedger), changed UB
// bytes PIPE_V writes for race and initialisation tracking.
#pragma once

#include "SimImpl.h"

#include <vector>

namespace sage::npu {

class SimtMemoryDiff {
public:
    explicit SimtMemoryDiff(Simulation::Impl& s);
    // After the launch (issued at `at`): records every changed run of bytes.
    void record(const IssueResult& at, const Loc& loc);

private:
    struct Copy {
        uint8_t* start = nullptr;
        std::vector<uint8_t> before;
    };
    Simulation::Impl& s_;
    std::vector<Copy> gm_;
    std::vector<uint8_t> ub_;
};

} // namespace sage::npu
