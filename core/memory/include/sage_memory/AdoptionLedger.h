// AdoptionLedger: the adoption records and the value learning.
//
// Per iteration the agent calls
//   1. recordRetrievals(run, iteration, stage, retrieved)  — what it was shown (rank, score);
//   2. recordOutcome(run, iteration, adoptions, outcome)     — per retrieved entry, whether the policy
//      declared it used it and whether the candidate's diff shows it (assess() computes both), and
//      the stage reward. Each entry gets adoption weight a (ValueModel) and, per memory mode, a
//      credit weight c (adoption: c = a; all_retrieved: c = 1; similarity/off: c = 0). Then
//         c > 0 : Q ← Q + α·c·(r − Q) for the iteration's stage, and a Q history point;
//         a > 0 : adopted += 1, reward_sum += r, successes += success;
//         a = 0 : ignored += 1 (under adoption mode Q is not touched).
// Both calls are single transactions; an outcome can be recorded once per iteration.
#pragma once

#include "sage_memory/EvidenceMatcher.h"
#include "sage_memory/ExperienceRepository.h"
#include "sage_memory/MemoryMode.h"
#include "sage_memory/RetrievalContext.h"
#include "sage_memory/ValueModel.h"

#include <optional>
#include <string_view>
#include <vector>

namespace sage::memory {

struct AdoptionSignal {
    AdoptionSignal(std::int64_t id = 0, bool declaredByPolicy = false, bool evidencedByCode = false,
                   std::string evidenceBasis = {}, std::string evidenceDetail = {})
        : experienceId(id), declared(declaredByPolicy), evidenced(evidencedByCode), basis(std::move(evidenceBasis)),
          detail(std::move(evidenceDetail)) {}
    std::int64_t experienceId = 0;
    bool declared = false;   // the policy says it used the entry
    bool evidenced = false;  // the candidate's change shows it (EvidenceMatcher::assess)
    std::string basis;       // what evidence was judged on: constant_edit, pattern, unverifiable ("" = not given)
    std::string detail;      // e.g. "BLOCK_DIM 8 -> 2, the action wants it raised"
};

struct IterationOutcome {
    double reward = 0.0;   // ValueModel::feasibilityReward / optimizeReward
    bool success = false;  // the iteration reached its goal (compiled+verified, or got faster)
    MemoryMode mode = kDefaultMemoryMode;
    double alpha = ValueModel::kDefaultAlpha;
};

struct RetrievalRecord {
    std::int64_t id = 0;
    std::int64_t run = 0;
    std::int64_t iteration = 0;
    std::int64_t experienceId = 0;
    Stage stage = Stage::Draft;
    int rank = 0;
    double score = 0.0;
    bool explored = false;
    // Set once the outcome is recorded:
    std::optional<bool> declared;
    std::optional<bool> evidenced;
    std::optional<double> adoptionWeight;
    std::optional<double> creditWeight;
    std::optional<double> reward;
    std::optional<double> qBefore;
    std::optional<double> qAfter;
    std::string evidenceBasis;  // see AdoptionSignal
    std::string evidenceDetail;
    std::string retrievedAt;
    std::string resolvedAt;

    bool resolved() const { return adoptionWeight.has_value(); }
};

// The evidence basis of a retrieved entry the policy did not see (AdoptionLedger::assess with the
// shown ids): it gets no credit in any memory mode.
inline constexpr const char* kNotShownBasis = "not_shown";

struct CreditReport {
    std::vector<RetrievalRecord> records;    // the iteration's retrievals, now resolved
    std::vector<std::int64_t> notRetrieved;  // adoption signals naming entries this iteration did not retrieve
};

class AdoptionLedger {
public:
    explicit AdoptionLedger(ExperienceRepository& repository) : repo_(repository) {}

    void recordRetrievals(std::int64_t run, std::int64_t iteration, Stage stage,
                          const std::vector<ScoredExperience>& retrieved);
    CreditReport recordOutcome(std::int64_t run, std::int64_t iteration, const std::vector<AdoptionSignal>& adoptions,
                               const IterationOutcome& outcome);

    // Closes the retrievals of a run that will never get an outcome (the run was interrupted: killed,
    // or its database went away): adoption and credit weight 0, no reward, evidence basis
    // "interrupted"; learned values are not touched. Returns how many were closed; 0 on a database
    // without the memory schema.
    static int closeUnresolved(Database& db, std::int64_t run);

    std::vector<RetrievalRecord> retrievals(std::int64_t run, std::int64_t iteration);
    std::vector<RetrievalRecord> retrievalsOf(std::int64_t experienceId);

    // The adoption signals of an iteration: declared = the entry's id is in declaredIds,
    // evidenced = EvidenceMatcher::assess on what the candidate changed (removed and added lines),
    // which is direction-aware for constant edits.
    static std::vector<AdoptionSignal> assess(const std::vector<ScoredExperience>& retrieved,
                                              const std::vector<std::int64_t>& declaredIds, const CandidateChange& change);
    // The same from the parent's and the candidate's sources.
    static std::vector<AdoptionSignal> assess(const std::vector<ScoredExperience>& retrieved,
                                              const std::vector<std::int64_t>& declaredIds, std::string_view parentSource,
                                              std::string_view candidateSource);
    // Credit only what the policy saw: an entry not in `shownIds` (cut from the prompt by the
    // context budget, or never shown) is neither declared nor evidenced, whatever the code matches;
    // its basis says "not_shown". Entries shown are judged as above.
    static std::vector<AdoptionSignal> assess(const std::vector<ScoredExperience>& retrieved,
                                              const std::vector<std::int64_t>& declaredIds, const CandidateChange& change,
                                              const std::vector<std::int64_t>& shownIds);
    // Only the added lines known (no removed side): constant edits then cannot show a direction
    // and count only when they set a fixed value. Prefer the overloads above.
    static std::vector<AdoptionSignal> assess(const std::vector<ScoredExperience>& retrieved,
                                              const std::vector<std::int64_t>& declaredIds, std::string_view addedText);

private:
    std::vector<RetrievalRecord> query(std::string_view where, std::int64_t a, std::int64_t b);

    ExperienceRepository& repo_;
};

} // namespace sage::memory
