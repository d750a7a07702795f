// TrialLifecycle: what becomes of a lesson on trial once its learned value has spoken. After an
// iteration's outcome is recorded, every credited entry still on trial that has been adopted
// ValueModel::kTrialVerdictAdoptions times in that stage is promoted to approved (Q at or above
// kTrialPromoteQ) or retired to archived (Q at or below kTrialRetireQ); in between it stays on
// trial. Each verdict is a curation change by "sage" with the numbers as its reason, so the audit
// log and the memory browser show why the entry changed. A person's decision (approve, reject,
// edit) comes first: an entry no longer on trial is left alone.
#pragma once

#include "sage_memory/AdoptionLedger.h"
#include "sage_memory/Curator.h"

#include <cstdint>
#include <vector>

namespace sage::memory {

struct TrialVerdict {
    std::int64_t experienceId = 0;
    ExperienceStatus status = ExperienceStatus::Trial;  // approved or archived
    double q = 0.0;
    long adoptions = 0;
};

class TrialLifecycle {
public:
    static constexpr const char* kAuthor = "sage";

    TrialLifecycle(ExperienceRepository& repository, Curator& curator) : repo_(repository), curator_(curator) {}

    // The verdicts reached by the credited records of one iteration (usually none).
    std::vector<TrialVerdict> settle(const CreditReport& report);

private:
    ExperienceRepository& repo_;
    Curator& curator_;
};

} // namespace sage::memory
