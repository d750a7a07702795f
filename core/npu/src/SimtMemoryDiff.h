// What a SIMT launch's threads changed in GM and in the core's UB, found by comparing with a copy
// taken before the launch: plain pointer stores cannot be intercepted on the host, but their
// effect can. Changed GM bytes (in the allocations the launch's pointer arguments point into)
// become the device's writes (GmWriteLedger); changed UB bytes PIPE_V writes for race and
// initialisation tracking.
#pragma once

#include "SimImpl.h"

#include <vector>

namespace sage::npu {

class SimtGmDiff {
public:
    // Copies the GM allocations that `pointers` point into (each once).
    SimtGmDiff(Simulation::Impl& s, const void* const* pointers, uint32_t count);
    // Records every changed run of bytes as the device's write; returns the bytes.
    uint64_t record();

private:
    struct Copy {
        uint8_t* start = nullptr;
        std::vector<uint8_t> before;
    };
    Simulation::Impl& s_;
    std::vector<Copy> copies_;
};

class SimtUbDiff {
public:
    explicit SimtUbDiff(Simulation::Impl& s);
    // After the launch (issued at `at`): records every changed 32-byte run as a PIPE_V write.
    void record(const IssueResult& at, const Loc& loc);

private:
    Simulation::Impl& s_;
    std::vector<uint8_t> before_;
};

} // namespace sage::npu
