#include "sage_agent/RewardShuffle.h"

namespace sage::agent {

CreditedOutcome RewardShuffle::draw(memory::Stage stage, const CreditedOutcome& actual) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& pool = seen_[stage];
    pool.push_back(actual);
    // Index from the raw engine output: the same seed gives the same draws with every library.
    return pool[static_cast<std::size_t>(rng_() % pool.size())];
}

} // namespace sage::agent
