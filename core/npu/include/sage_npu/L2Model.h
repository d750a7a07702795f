// How a launch reaches global memory: through the chip's L2, or past it to HBM.
//
// A kernel is timed as benchmarks time it (CANN Bench: 5 warm-up launches, then the mean of 20):
// after earlier identical launches. Its GM footprint (every live GM allocation: inputs, outputs,
// workspace) was touched last time, so the share the L2 can hold, min(1, l2Bytes / footprint), is
// still there; that share moves at the L2's rate and latency, the rest at HBM's. The share is
// what a cache without a smarter replacement policy keeps of a footprint larger than itself,
// on average over the launch. Sources and calibration: docs/device-model.md ("L2 cache").
#pragma once

#include "sage_npu/DeviceProfile.h"

#include <cstdint>

namespace sage::npu {

struct GmPath {
    double l2Share = 0;              // of the footprint found in L2, 0..1
    double chipBytesPerCycle = 0;    // the whole chip's GM rate for this launch
    uint32_t readLatencyCycles = 0;  // before a read's data is visible
    uint32_t writeLatencyCycles = 0;
};

GmPath gmPathFor(const DeviceProfile& prof, uint64_t footprintBytes);

} // namespace sage::npu
