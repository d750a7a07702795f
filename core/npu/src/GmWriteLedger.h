// A shadow of the GM regions whose contents must come from the simulated device (a run's
// outputs). Every simulated instruction that writes GM copies what it left there into the shadow
// as well; at the end, a byte that differs from its shadow was last written by something else —
// plain C++ through a GM pointer, a host-side store — so the result is not the device's.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace sage::npu {

class GmWriteLedger {
public:
    // Starts shadowing [start, start + bytes): the shadow begins as the current contents.
    void track(const uint8_t* start, uint64_t bytes);
    // After a simulated instruction wrote [p, p + bytes): the tracked part of it is copied.
    void recordWrite(const uint8_t* p, uint64_t bytes);
    struct Mismatch {
        uint64_t bytes = 0;        // bytes that differ from what the device wrote
        uint64_t firstOffset = 0;  // offset of the first one from the region's start
    };
    // The region starting at `start` against its shadow (nothing when it is not tracked).
    Mismatch compare(const uint8_t* start) const;

private:
    struct Region {
        uint64_t bytes = 0;
        std::vector<uint8_t> shadow;
    };
    std::map<uintptr_t, Region> regions_;  // by start address; regions do not overlap
};

} // namespace sage::npu
