#include "GmWriteLedger.h"

#include <algorithm>
#include <cstring>

namespace sage::npu {

void GmWriteLedger::track(const uint8_t* start, uint64_t bytes) {
    Region& r = regions_[reinterpret_cast<uintptr_t>(start)];
    r.bytes = bytes;
    r.shadow.assign(start, start + bytes);
}

void GmWriteLedger::recordWrite(const uint8_t* p, uint64_t bytes) {
    if (regions_.empty() || bytes == 0) return;
    const uintptr_t a = reinterpret_cast<uintptr_t>(p), b = a + bytes;
    auto it = regions_.upper_bound(a);
    if (it != regions_.begin()) --it;
    for (; it != regions_.end() && it->first < b; ++it) {
        const uintptr_t lo = std::max(a, it->first), hi = std::min(b, it->first + it->second.bytes);
        if (lo < hi) std::memcpy(it->second.shadow.data() + (lo - it->first), reinterpret_cast<const void*>(lo), hi - lo);
    }
}

GmWriteLedger::Mismatch GmWriteLedger::compare(const uint8_t* start) const {
    Mismatch m;
    const auto it = regions_.find(reinterpret_cast<uintptr_t>(start));
    if (it == regions_.end()) return m;
    const uint8_t* shadow = it->second.shadow.data();
    for (uint64_t i = 0; i < it->second.bytes; ++i) {
        if (start[i] == shadow[i]) continue;
        if (m.bytes++ == 0) m.firstOffset = i;
    }
    return m;
}

} // namespace sage::npu
