#include "loop/LessonDistiller.h"

#include "loop/EvaluationStep.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::agent {

bool lessonWorthy(memory::Stage stage, bool correct, double speedup) {
    return (stage == memory::Stage::Repair && correct) || (stage == memory::Stage::Optimize && correct && speedup >= 1.05);
}

void distilLesson(Policy& policy, memory::ExperienceStore& memory, const PolicyContext& ctx,
                  const PolicyProposal& proposal, const eval::Evaluation& before, const eval::Evaluation& after,
                  memory::MemoryMode mode, double reward, IterationRecord& rec) {
    auto lesson = policy.distill(ctx, proposal, before, after);
    if (!lesson) return;
    memory::Proposal p;
    p.experience.title = lesson->title;
    p.experience.content = lesson->content;
    p.experience.kind = lesson->kind == "repair_rule" ? memory::ExperienceKind::RepairRule
                        : lesson->kind == "pitfall"   ? memory::ExperienceKind::Pitfall
                        : lesson->kind == "insight"   ? memory::ExperienceKind::Insight
                                                      : memory::ExperienceKind::Optimization;
    p.experience.stage = ctx.stage;
    p.experience.trigger.category = ctx.task->category;
    if (ctx.stage == memory::Stage::Repair) {
        auto f = failureOf(before);
        p.experience.trigger.diagnostic = f.empty() ? "" : f.front().kind;
    } else {
        p.experience.trigger.bottleneck = before.profile.bottleneck;
    }
    p.experience.action = lesson->action;
    p.experience.evidencePattern = lesson->evidencePattern;
    // On trial: later runs retrieve it (with a lower prior) without waiting for a person, and its
    // learned value promotes or retires it. It holds for the device it was learned on only.
    p.experience.status = memory::ExperienceStatus::Trial;
    if (ctx.device) p.experience.appliesTo.devices = {ctx.device->id};
    p.experience.origin = memory::Origin::Agent;
    memory::Provenance prov;
    prov.task = ctx.task->name;
    prov.run = rec.runId;
    prov.iteration = rec.index;
    prov.diff = rec.diff;
    p.experience.provenance.push_back(prov);
    p.stage = ctx.stage;
    p.reward = reward;
    p.mode = mode;  // duplicate-lesson credit follows the mode's credit rule
    try {
        auto res = memory.addProposed(p);
        rec.proposed.push_back({res.id, lesson->title, res.deduplicated, res.reason});
    } catch (const std::exception& e) {
        rec.error = std::string("could not store the proposed experience: ") + e.what();
    }
}

} // namespace sage::agent
