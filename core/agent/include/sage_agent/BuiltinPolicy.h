// The built-in policy: needs no model. It changes the knobs it infers from the code (Tunables.h:
// constants that size tiles, buffers and blocks, `@tunable` hints) and applies structural
// transforms and repairs (core/agent/src/transforms, core/agent/src/repair).
//
// Every move is an experience's action: {"type":"set_constant","name":"TILE_LENGTH","value":4096},
// {"type":"set_tunable",...}, {"type":"scale_tunable","name":..,"factor":2}, {"type":"step_tunable",
// "name":..,"direction":"up"|"down"}, {"type":"transform","name":"double_buffer"} (see
// transforms::all() for the names). A knob name may be a role: "@tile", "@tile_count", "@buffer",
// "@block". All applicable moves are collected (candidates()): those backed by retrieved entries,
// ordered by retrieval score (which includes the learned Q), then the fallback moves (repairs by
// diagnostic kind; every structural transform and every knob one step up and down, in a neutral
// order seeded per run: neutralOrder). propose() takes the first, or with probability ctx.epsilon
// a uniformly random one (deterministic in ctx.seed). The policy holds no ranking of its own of
// which optimisation pays off: that knowledge comes from memory (docs/builtin-policy.md).
// Fallback knob moves must fit the device (UB, cores, even splits); a memory entry's knob action is
// applied as written, so a harmful entry shows its harm and its learned value can drop.
// An optimisation move whose source was already evaluated in the run is never proposed.
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
        double score = 0.0;  // retrieval score of the backing entry (0 for a fallback move)
        double q = 0.0;      // learned value of the backing entry for this stage (0 for a fallback move)
    };
    // Applies one action to `source`; nullopt when it does not apply (unknown knob, no change,
    // value not allowed or, with checkFeasible, infeasible on `device`; a transform that refuses the
    // kernel). `why`, when given, receives the reason.
    static std::optional<Move> apply(const std::string& source, const nlohmann::json& action,
                                     const eval::Evaluation* parent, const npu::DeviceProfile* device = nullptr,
                                     std::string* why = nullptr, bool checkFeasible = true);
    // Every applicable, untried move for the parent in ctx: memory-backed ones by descending
    // score, then the fallback ones; one per resulting source.
    static std::vector<Move> candidates(const PolicyContext& ctx);
};

std::string sourceKey(const std::string& source);  // content hash used for "already tried"

// The actions in a neutral order: by a hash of the run's seed and the action's JSON. Fixed within a
// run, different between seeds, tuned on no task.
std::vector<nlohmann::json> neutralOrder(std::vector<nlohmann::json> actions, uint64_t runSeed);

} // namespace sage::agent
