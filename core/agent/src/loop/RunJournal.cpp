#include "loop/RunJournal.h"

namespace sage::agent {

RunJournal::RunJournal(RunStore& runs, RunRecord run) : runs_(runs), run_(std::move(run)) {
    run_.status = AgentRunStatus::Running;
    run_.id = runs_.createRun(run_);
    sum_.runId = run_.id;
}

void RunJournal::tally(const IterationRecord& rec) {
    sum_.iterations = rec.index + 1;
    if (rec.status == IterationStatus::PolicyError) ++sum_.policyErrors;
    if (rec.duplicateOf >= 0) ++sum_.duplicates;
    const bool evaluated = rec.evaluation && rec.duplicateOf < 0;
    if (!evaluated) return;
    ++sum_.evaluations;
    if (rec.index == 0) sum_.draftCorrect = rec.correct;
    if (rec.stage == memory::Stage::Repair) {
        ++sum_.repairIterations;
        sum_.repairsCorrect += rec.correct;
    }
    if (rec.status == IterationStatus::CompileError || rec.status == IterationStatus::Rejected) ++sum_.compileErrors;
    else if (rec.status == IterationStatus::WrongResult) ++sum_.wrongResults;
    else if (!rec.correct && rec.status != IterationStatus::Cancelled) ++sum_.runtimeErrors;
    if (rec.correct) {
        if (sum_.firstCorrectIteration < 0) {
            sum_.firstCorrectIteration = rec.index;
            sum_.firstCorrectCycles = rec.cycles;
        }
        if (rec.rooflineFraction >= 0.8 && sum_.iterationsToTargetRoofline < 0) sum_.iterationsToTargetRoofline = rec.index;
    }
}

void RunJournal::record(const IterationRecord& rec, const Frontier& frontier) {
    runs_.addIteration(rec);
    tally(rec);
    run_.bestIteration = frontier.best() >= 0 ? frontier.node(frontier.best()).iteration : -1;
    run_.firstCorrectIteration = sum_.firstCorrectIteration;
    runs_.updateRun(run_);
}

void RunJournal::finish(AgentRunStatus status, const std::string& stopReason, const Frontier& frontier) {
    if (const int best = frontier.best(); best >= 0) {
        const auto& b = frontier.node(best).evaluation;
        sum_.bestIteration = b.profile.present ? frontier.node(best).iteration : -1;
        sum_.bestCycles = b.profile.totalCycles;
        sum_.bestRooflineFraction = b.profile.rooflineFraction;
        sum_.speedupVsFirstCorrect = b.profile.totalCycles ? double(sum_.firstCorrectCycles) / double(b.profile.totalCycles) : 0;
    }
    sum_.status = status;
    sum_.stopReason = stopReason;
    run_.status = status;
    run_.stopReason = stopReason;
    run_.bestIteration = sum_.bestIteration;
    runs_.updateRun(run_);
}

} // namespace sage::agent
