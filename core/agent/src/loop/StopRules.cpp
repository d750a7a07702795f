#include "loop/StopRules.h"

#include <algorithm>

namespace sage::agent {

std::optional<std::string> StopRules::reason(double bestRoofline) const {
    const int patience = std::max(1, settings_.patience);
    if (policyErrors_ >= patience)
        return std::to_string(policyErrors_) + " policy calls in a row failed (patience " + std::to_string(patience) +
               "); last error: " + lastError_;
    if (bestRoofline >= 0 && bestRoofline >= settings_.targetRooflineFraction) return "target roofline fraction reached";
    if (sinceGain_ >= patience)
        return "no improvement for " + std::to_string(settings_.patience) + " optimisation iterations";
    return std::nullopt;
}

} // namespace sage::agent
