#include "sage_memory/TrialLifecycle.h"

#include "sage_memory/ValueModel.h"

#include <cstdio>
#include <set>

namespace sage::memory {

std::vector<TrialVerdict> TrialLifecycle::settle(const CreditReport& report) {
    std::vector<TrialVerdict> verdicts;
    std::set<std::int64_t> seen;
    for (const RetrievalRecord& record : report.records) {
        if (record.creditWeight.value_or(0.0) <= 0.0 || !seen.insert(record.experienceId).second) continue;
        const auto entry = repo_.find(record.experienceId);
        if (!entry || entry->status != ExperienceStatus::Trial) continue;
        const StageStats stats = repo_.stageStats(record.experienceId, record.stage);
        if (stats.adopted < ValueModel::kTrialVerdictAdoptions) continue;
        TrialVerdict v{record.experienceId, ExperienceStatus::Trial, stats.q, stats.adopted};
        if (stats.q >= ValueModel::kTrialPromoteQ) v.status = ExperienceStatus::Approved;
        else if (stats.q <= ValueModel::kTrialRetireQ) v.status = ExperienceStatus::Archived;
        else continue;
        char reason[160];
        std::snprintf(reason, sizeof reason, "%s by its learned value: Q %+.2f in the %s stage after %ld adoptions",
                      v.status == ExperienceStatus::Approved ? "promoted from trial" : "retired from trial", v.q,
                      std::string(toString(record.stage)).c_str(), v.adoptions);
        curator_.setStatus(v.experienceId, v.status, ChangeNote{kAuthor, reason});
        verdicts.push_back(v);
    }
    return verdicts;
}

} // namespace sage::memory
