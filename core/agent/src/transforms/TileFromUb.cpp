// tile_from_ub: the largest tile the UB budget allows, in one move (power-of-two multiples of the
// current tile, or the allowed set), instead of doubling step by step. A tiles-per-block knob
// moves the other way (fewer tiles = bigger tiles). "direction":"down" halves the tile. Refused
// when the kernel's UB use cannot be computed at compile time (sizes known only at run time).
#include "transforms/Transform.h"

#include "transforms/KernelFacts.h"

#include <algorithm>

namespace sage::agent::transforms {

Result tileFromUb(const Input& in) {
    if (!kernel::ubBytes(in.source)) return refuse("the UB its InitBuffer calls need is not computable at compile time");
    for (const char* role : {"tile", "tile_count"}) {
        auto knobs = knobsWithRole(in.source, role);
        if (knobs.empty()) continue;
        const Tunable& k = knobs.front();
        const bool bigger = !down(in);
        const bool grow = (std::string(role) == "tile") == bigger;  // grow the number itself?
        std::vector<long long> values;
        if (!k.allowed.empty()) {
            values = k.allowed;
            std::sort(values.begin(), values.end());
            values.erase(std::remove_if(values.begin(), values.end(), [&](long long v) { return grow ? v <= k.value : v >= k.value; }),
                         values.end());
            if (grow) std::reverse(values.begin(), values.end());
        } else if (grow) {
            for (long long v = k.value << 10; v > k.value; v /= 2) values.push_back(v);  // largest first
        } else {
            for (long long v = 1; v < k.value; v *= 2) values.push_back(v);               // smallest count first
        }
        if (!bigger && !k.allowed.empty() && values.empty()) return refuse(k.constant + " is already at the end of its allowed set");
        if (!bigger) {  // one step only
            if (grow) values.assign(1, k.allowed.empty() ? k.value * 2 : values.back());
            else values.assign(1, k.allowed.empty() ? k.value / 2 : values.back());
        }
        return trySet(in, k, values, bigger ? "tile from the UB budget" : "smaller tiles");
    }
    return refuse("no tile knob (a constant named like TILE_LENGTH, TILE_NUM, CHUNK or ROWS_PER_TILE)");
}

} // namespace sage::agent::transforms
