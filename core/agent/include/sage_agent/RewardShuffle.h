// RewardShuffle: the negative control of the learning experiment (`sage bench --shuffle-rewards`).
// While a loop has one, what an iteration credits to memory (its reward, its success, and whether
// it is worth a lesson) is the outcome of a uniformly drawn iteration of the same stage among all
// those the shuffle has seen so far, in any run that shares it. The moves stay real; their outcomes
// are decoupled from them. Memory then learns noise with the right distribution, which must not
// make the agent better than no memory at all. What the run stores and reports is the real outcome.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <vector>

namespace sage::agent {

struct CreditedOutcome {
    bool correct = false;
    double speedup = 1.0;  // parent cycles / candidate cycles (optimise, correct), else 1
    double reward = 0.0;
    bool success = false;
};

class RewardShuffle {
public:
    explicit RewardShuffle(std::uint64_t seed) : rng_(seed) {}

    // Records `actual` for `stage` and returns the outcome of a uniformly drawn recorded iteration
    // of that stage (this one included). Thread-safe.
    CreditedOutcome draw(memory::Stage stage, const CreditedOutcome& actual);

private:
    std::mutex mutex_;
    std::mt19937_64 rng_;
    std::map<memory::Stage, std::vector<CreditedOutcome>> seen_;
};

} // namespace sage::agent
