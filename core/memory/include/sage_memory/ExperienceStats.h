// What the memory has learned about an entry: per stage, its value Q and its counters;
// and the history of Q for plotting.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace sage::memory {

struct StageStats {
    Stage stage = Stage::Draft;
    double q = 0.0;            // learned value in [-1, 1]
    std::int64_t retrieved = 0;
    std::int64_t adopted = 0;  // outcomes recorded with adoption weight > 0
    std::int64_t successes = 0;  // adopted and the iteration succeeded
    std::int64_t ignored = 0;    // retrieved, outcome recorded, not adopted
    double rewardSum = 0.0;      // sum of rewards over adopted outcomes

    double meanReward() const { return adopted ? rewardSum / static_cast<double>(adopted) : 0.0; }
    double adoptionRate() const { return retrieved ? static_cast<double>(adopted) / static_cast<double>(retrieved) : 0.0; }
    bool operator==(const StageStats&) const = default;
};

struct ExperienceStats {
    std::array<StageStats, 3> stages{StageStats{Stage::Draft}, StageStats{Stage::Repair}, StageStats{Stage::Optimize}};

    // Stage::Any is not a learning stage: at(Any) throws MemoryError(InvalidInput).
    StageStats& at(Stage stage);
    const StageStats& at(Stage stage) const;
    // Counters summed over the stages; q is the adoption-weighted mean of the stage values
    // (plain mean when nothing was adopted).
    StageStats totals() const;
    bool flaggedForReview() const;

    nlohmann::json toJson() const;  // {"draft": {...}, "repair": {...}, "optimize": {...}}
    static ExperienceStats fromJson(const nlohmann::json& json);
    bool operator==(const ExperienceStats&) const = default;
};

// One change of Q.
struct ValuePoint {
    std::int64_t experienceId = 0;
    Stage stage = Stage::Draft;
    double q = 0.0;
    std::string cause;  // "outcome", "dedup", "merge"
    std::optional<std::int64_t> run;
    std::optional<std::int64_t> iteration;
    std::string at;

    nlohmann::json toJson() const;  // without experienceId (it is implied by the owning entry)
    static ValuePoint fromJson(const nlohmann::json& json, std::int64_t experienceId);
    bool operator==(const ValuePoint&) const = default;
};

} // namespace sage::memory
