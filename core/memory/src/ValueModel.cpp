#include "sage_memory/ValueModel.h"

#include <algorithm>
#include <cmath>

namespace sage::memory {

double ValueModel::adoptionWeight(bool declared, bool evidenced) {
    if (declared && evidenced) return kWeightDeclaredAndEvidenced;
    if (evidenced) return kWeightEvidencedOnly;
    if (declared) return kWeightDeclaredOnly;
    return kWeightNeither;
}

double ValueModel::clampQ(double q) { return std::clamp(q, kMinQ, kMaxQ); }

double ValueModel::updatedQ(double q, double weight, double reward, double alpha) {
    if (weight <= 0.0) return q;
    return clampQ(q + alpha * weight * (reward - q));
}

double ValueModel::feasibilityReward(bool success) { return success ? 1.0 : -1.0; }

double ValueModel::optimizeReward(double speedup, bool stillCorrect) {
    if (!stillCorrect || !(speedup > 0.0) || !std::isfinite(speedup)) return -1.0;
    return std::tanh(std::log(speedup));
}

bool ValueModel::flaggedForReview(long retrieved, long adopted) {
    return retrieved >= kReviewMinRetrievals &&
           static_cast<double>(adopted) < kReviewMaxAdoptionRate * static_cast<double>(retrieved);
}

} // namespace sage::memory
