// ValueModel: every number of the value learning in one place — adoption weights, the learning
// rate, reward scales, dedup credit and the review flag — and the pure functions that use them.
// docs/memory.md explains each with a worked example.
#pragma once

namespace sage::memory {

class ValueModel {
public:
    // Adoption weight a of a retrieved entry, from the two signals of the iteration:
    // declared  = the policy says it used the entry;
    // evidenced = the entry's evidence pattern (or code idiom) appears in the lines the candidate added.
    static constexpr double kWeightDeclaredAndEvidenced = 1.0;
    static constexpr double kWeightEvidencedOnly = 0.6;
    static constexpr double kWeightDeclaredOnly = 0.3;
    static constexpr double kWeightNeither = 0.0;

    static constexpr double kDefaultAlpha = 0.3;  // learning rate α (MemRL's value)
    static constexpr double kInitialQ = 0.0;      // Q of an entry never credited in a stage
    static constexpr double kMinQ = -1.0;         // rewards lie in [-1, 1], so Q does too
    static constexpr double kMaxQ = 1.0;

    // Distillation: a proposal that duplicates an existing entry credits it with kDedupGain·r.
    static constexpr double kDedupGain = 0.1;
    static constexpr double kDedupJaccard = 0.85;  // token Jaccard of title+content at or above = duplicate

    // Review flag: retrieved at least this often and adopted less than this fraction of the time.
    static constexpr long kReviewMinRetrievals = 5;
    static constexpr double kReviewMaxAdoptionRate = 0.2;

    static double adoptionWeight(bool declared, bool evidenced);
    // Q ← Q + α·a·(r − Q), clamped to [kMinQ, kMaxQ]. a = 0 leaves Q unchanged.
    static double updatedQ(double q, double weight, double reward, double alpha = kDefaultAlpha);
    static double clampQ(double q);

    // Draft and repair stages: +1 when the candidate compiled and verified, −1 otherwise.
    static double feasibilityReward(bool success);
    // Optimize stage: tanh(ln(speedup)), speedup = previous best latency / new latency, so it lies in
    // (−1, 1) and is 0 for no change; −1 when the optimisation broke correctness (or speedup ≤ 0).
    static double optimizeReward(double speedup, bool stillCorrect);

    // Trial entries (lessons the agent distilled itself): retrieved with a lower prior, subtracted
    // from their retrieval score, until their learned value decides. After kTrialVerdictAdoptions
    // adoptions in a stage, Q >= kTrialPromoteQ promotes the entry to approved and
    // Q <= kTrialRetireQ retires it to archived (TrialLifecycle). A person may decide earlier.
    static constexpr double kTrialScorePenalty = 0.15;
    static constexpr long kTrialVerdictAdoptions = 3;
    static constexpr double kTrialPromoteQ = 0.3;
    static constexpr double kTrialRetireQ = -0.2;

    static bool flaggedForReview(long retrieved, long adopted);
};

} // namespace sage::memory
