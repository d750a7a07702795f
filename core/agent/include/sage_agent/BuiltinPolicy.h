// The built-in policy: needs no model. It edits only what kernels declare tunable
// (`// @tunable name {values}`) and applies a small set of documented transforms.
//
// Every move is an experience's action: {"type":"set_tunable","name":"BUFFER_NUM","value":2},
// {"type":"scale_tunable","name":"TILE_LENGTH","factor":2}, {"type":"step_tunable","name":..,
// "direction":"up"|"down"}, {"type":"transform","name":"insert_barrier"}. Memory decides which
// to try first: the retrieved entries' actions, in retrieval order, come before the fallback;
// adopting an entry means applying its action. The fallback (memory off, or nothing applicable)
// is a fixed order: repairs by diagnostic kind (shrink the memory tunables on capacity_exceeded,
// a barrier before a racing line), and for optimisation each tunable in file order, one allowed
// step up. A move whose resulting source was already evaluated in the run is never proposed.
#pragma once

#include "sage_agent/Policy.h"
#include "sage_agent/Tunables.h"

namespace sage::agent {

class BuiltinPolicy : public Policy {
public:
    std::string name() const override { return "builtin"; }
    nlohmann::json settings() const override;
    PolicyProposal propose(const PolicyContext& ctx) override;
    std::optional<Lesson> distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                  const eval::Evaluation& before, const eval::Evaluation& after) override;

    struct Move {
        std::string source, description;
        nlohmann::json action;
        int64_t experienceId = 0;
    };
    // Applies one action to `source`; nullopt when it does not apply (unknown tunable, no change,
    // value not allowed, unsupported transform).
    static std::optional<Move> apply(const std::string& source, const nlohmann::json& action,
                                     const eval::Evaluation* parent);
};

std::string sourceKey(const std::string& source);  // content hash used for "already tried"

} // namespace sage::agent
