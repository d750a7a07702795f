// Distiller: takes experiences the loop proposes. A lesson the agent distilled (status `trial`)
// is stored on trial: automated runs retrieve it with a lower prior until its learned value
// promotes or retires it (TrialLifecycle). Any other proposal is stored as `pending` (an engineer
// approves it before the agent sees it). A proposal that duplicates an entry that is not archived
// credits that entry instead, and nothing new is stored.
//
// Duplicate = same trigger (all three fields) and same non-empty action, or token Jaccard of
// title+content ≥ ValueModel::kDedupJaccard (0.85) against one of the 20 best BM25 matches.
// Credit = Q_stage ← clamp(Q_stage + kDedupGain · r) (0.1·r), with a Q history point ("dedup",
// or "proposal" for the new entry's own first evidence), and the proposal's provenance appended to
// the existing entry. Q moves only in modes that learn values.
#pragma once

#include "sage_memory/MemoryMode.h"

#include "sage_memory/ExperienceRepository.h"

#include <optional>
#include <string>

namespace sage::memory {

struct Proposal {
    Experience experience;       // provenance should name the task, run, iteration and diff
    Stage stage = Stage::Draft;  // stage of the iteration that taught it (which Q a duplicate credits)
    double reward = 0.0;         // that iteration's reward, in [-1, 1]
    // The run's memory mode: a duplicate's Q moves only in modes that learn values
    // (adoption, all_retrieved); under similarity and off only its provenance grows.
    MemoryMode mode = kDefaultMemoryMode;
};

struct DuplicateMatch {
    std::int64_t id = 0;
    double similarity = 0.0;  // 1 for a trigger+action match, else the Jaccard
    std::string reason;       // "same trigger and action" or "text similarity 0.91"
};

struct ProposalResult {
    std::int64_t id = 0;        // the new entry, or the existing one that was credited
    bool deduplicated = false;
    double similarity = 0.0;
    std::string reason;
};

class Distiller {
public:
    static constexpr int kTextCandidates = 20;

    explicit Distiller(ExperienceRepository& repository) : repo_(repository) {}

    ProposalResult addProposed(const Proposal& proposal);
    std::optional<DuplicateMatch> findDuplicate(const Experience& experience);

private:
    void creditProposal(std::int64_t id, const Proposal& proposal, const char* cause = "proposal");

    ExperienceRepository& repo_;
};

} // namespace sage::memory
