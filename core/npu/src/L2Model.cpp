#include "sage_npu/L2Model.h"

#include <algorithm>
#include <cmath>

namespace sage::npu {

GmPath gmPathFor(const DeviceProfile& prof, uint64_t footprintBytes) {
    GmPath p;
    p.chipBytesPerCycle = prof.chipGmBytesPerCycle;
    p.readLatencyCycles = prof.gmReadLatencyCycles;
    p.writeLatencyCycles = prof.gmWriteLatencyCycles;
    if (prof.l2Bytes == 0 || prof.l2BytesPerCycle <= 0) return p;
    const double h = footprintBytes == 0 ? 1.0 : std::min(1.0, double(prof.l2Bytes) / double(footprintBytes));
    p.l2Share = h;
    // A byte costs h / L2-rate + (1 - h) / HBM-rate cycles: the two paths blend harmonically.
    p.chipBytesPerCycle = 1.0 / (h / prof.l2BytesPerCycle + (1.0 - h) / prof.chipGmBytesPerCycle);
    auto blend = [h](uint32_t hit, uint32_t miss) { return uint32_t(std::lround(h * hit + (1.0 - h) * miss)); };
    p.readLatencyCycles = blend(prof.l2ReadLatencyCycles, prof.gmReadLatencyCycles);
    p.writeLatencyCycles = blend(prof.l2WriteLatencyCycles, prof.gmWriteLatencyCycles);
    return p;
}

} // namespace sage::npu
