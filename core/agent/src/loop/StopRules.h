// When a run ends before its budget: the best candidate reached the target roofline fraction;
// `patience` optimisation iterations in a row brought no >= 1% gain over the best (a duplicate
// proposal counts as one without gain); or `patience` policy calls in a row failed (a dead
// model server must not burn the whole budget at its timeout per iteration).
#pragma once

#include "sage_agent/AgentSettings.h"

#include <optional>
#include <string>

namespace sage::agent {

class StopRules {
public:
    explicit StopRules(const AgentSettings& settings) : settings_(settings) {}

    void policyFailed(const std::string& error) {
        ++policyErrors_;
        lastError_ = error;
    }
    void policyAnswered() { policyErrors_ = 0; }
    // An evaluated iteration: an optimisation without a >= 1% gain over the best counts towards
    // patience; any iteration that gained (a repair too) starts the count again.
    void evaluated(bool optimisation, bool significantGain) {
        if (significantGain) sinceGain_ = 0;
        else if (optimisation) ++sinceGain_;
    }
    void optimisation(bool significantGain) { evaluated(true, significantGain); }

    // Why the run stops now, if it does. `bestRoofline` < 0 when there is no correct candidate.
    std::optional<std::string> reason(double bestRoofline) const;

private:
    const AgentSettings& settings_;
    int sinceGain_ = 0, policyErrors_ = 0;
    std::string lastError_;
};

} // namespace sage::agent
