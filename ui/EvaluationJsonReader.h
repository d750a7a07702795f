// Reads a stored evaluation (Evaluation::toJson(), as the run store keeps it per iteration) back
// into an Evaluation for display: diagnostics, run status, verification per case and output,
// and the profile summary. Timeline events are not stored, so the profile has no launches.
#pragma once

#include "sage_eval/Evaluation.h"

#include <nlohmann/json.hpp>

namespace sage::ui {

class EvaluationJsonReader {
public:
    static eval::Evaluation read(const nlohmann::json& j);
};

} // namespace sage::ui
