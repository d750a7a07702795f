// The conductor: opens the run (RunJournal), then per iteration waits at the engineer's
// checkpoint (RunControl) and runs one iteration (IterationRunner: stage, candidate, evaluation,
// credit, lesson, frontier, stop rules) until a stop rule, the budget or a cancel ends the run.
#include "sage_agent/AgentLoop.h"

#include "loop/IterationRunner.h"
#include "loop/RunControl.h"
#include "loop/RunJournal.h"
#include "sage_memory/AdoptionLedger.h"
#include "sage_memory/MemoryError.h"
#include "sage_memory/MemorySchema.h"
#include "sage_memory/ValueModel.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <algorithm>
#include <chrono>

namespace sage::agent {
using nlohmann::json;

double stageReward(memory::Stage stage, bool success, double speedup) {
    if (stage == memory::Stage::Optimize) return memory::ValueModel::optimizeReward(speedup, success);
    return memory::ValueModel::feasibilityReward(success);
}

json RunSummary::toJson() const {
    return {{"run_id", runId},
            {"iterations", iterations},
            {"first_correct_iteration", firstCorrectIteration},
            {"first_correct_cycles", firstCorrectCycles},
            {"status", toString(status)},
            {"stop_reason", stopReason},
            {"best",
             {{"iteration", bestIteration},
              {"cycles", bestCycles},
              {"roofline_fraction", bestRooflineFraction},
              {"speedup_vs_first_correct", speedupVsFirstCorrect}}},
            {"iterations_to_0_8_roofline", iterationsToTargetRoofline},
            {"draft_correct", draftCorrect},
            {"evaluations", evaluations},
            {"repair_iterations", repairIterations},
            {"repairs_correct", repairsCorrect},
            {"compile_errors", compileErrors},
            {"wrong_results", wrongResults},
            {"runtime_errors", runtimeErrors},
            {"policy_errors", policyErrors},
            {"duplicates", duplicates}};
}

struct AgentLoop::Impl {
    const eval::Evaluator& evaluator;
    std::unique_ptr<Policy> policy;
    AgentSettings settings;
    std::vector<AgentObserver> observers;
    RunControl control;
    std::thread thread;
    mutable std::mutex summaryMu;
    std::optional<RunSummary> summary;
    std::unique_ptr<eval::Task> ownedTask;
    std::optional<std::pair<std::string, std::string>> start;  // source, label
    std::shared_ptr<RewardShuffle> shuffle;

    Impl(const eval::Evaluator& e, std::unique_ptr<Policy> p, AgentSettings s)
        : evaluator(e), policy(std::move(p)), settings(std::move(s)) {}

    void emit(AgentEvent e) {
        for (auto& o : observers) o(e);
    }
    void setSummary(RunSummary s) {
        std::lock_guard<std::mutex> g(summaryMu);
        summary = std::move(s);
    }

    RunSummary loop(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory);
};

AgentLoop::AgentLoop(const eval::Evaluator& evaluator, std::unique_ptr<Policy> policy, AgentSettings settings)
    : impl_(std::make_unique<Impl>(evaluator, std::move(policy), std::move(settings))) {}

AgentLoop::~AgentLoop() {
    cancel();
    if (impl_->thread.joinable()) impl_->thread.join();
}

void AgentLoop::addObserver(AgentObserver o) { impl_->observers.push_back(std::move(o)); }

bool startsFromKernel(const eval::Task& task, const std::string& text) {
    return text.find_first_not_of(" \t\r\n") != std::string::npos && text != task.baselineSource;
}

void AgentLoop::setStartCandidate(std::string source, std::string label) {
    impl_->start = std::make_pair(std::move(source), std::move(label));
}

void AgentLoop::setRewardShuffle(std::shared_ptr<RewardShuffle> shuffle) { impl_->shuffle = std::move(shuffle); }

RunSummary AgentLoop::run(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory) {
    impl_->control.setState(State::Running);
    RunSummary s = impl_->loop(task, runs, memory);
    runId_ = s.runId;
    impl_->setSummary(s);
    impl_->control.setState(State::Finished);
    return s;
}

void AgentLoop::start(const eval::Task& task, const std::string& dbPath, bool startPaused) {
    if (impl_->thread.joinable()) throw std::logic_error("AgentLoop::start called twice");
    impl_->ownedTask = std::make_unique<eval::Task>(task);
    impl_->control.setPausedAtStart(startPaused);
    impl_->thread = std::thread([this, dbPath] {
        try {
            // SQLite connections belong to one thread: this thread opens its own.
            auto db = std::make_shared<memory::Database>(dbPath, std::vector<memory::SchemaModule>{
                                                                     memory::MemorySchema::module(), AgentSchema::module()});
            RunStore runs(db);
            std::unique_ptr<memory::ExperienceStore> mem;
            if (memory::retrieves(impl_->settings.memoryMode)) mem = std::make_unique<memory::ExperienceStore>(db);
            run(*impl_->ownedTask, runs, mem.get());
        } catch (const std::exception& e) {
            impl_->emit({AgentEventType::Error, runId_.load(), 0, std::nullopt, std::string("the run stopped: ") + e.what(), {}, {}});
            RunSummary s;
            s.status = AgentRunStatus::Failed;
            s.stopReason = e.what();
            impl_->setSummary(s);
            impl_->control.setState(State::Finished);
            impl_->emit({AgentEventType::RunFinished, runId_.load(), 0, std::nullopt, "failed", {}, std::make_shared<const RunSummary>(s)});
        }
    });
}

void AgentLoop::pause() { impl_->control.pause(); }
void AgentLoop::step() { impl_->control.step(); }
void AgentLoop::resume() { impl_->control.resume(); }
void AgentLoop::cancel() { impl_->control.requestCancel(); }
bool AgentLoop::submitEdit(const std::string& source) { return impl_->control.submitEdit(source); }
AgentLoop::State AgentLoop::state() const { return impl_->control.state(); }
void AgentLoop::wait() {
    if (impl_->thread.joinable()) impl_->thread.join();
}
std::optional<RunSummary> AgentLoop::summary() const {
    std::lock_guard<std::mutex> g(impl_->summaryMu);
    return impl_->summary;
}

RunSummary AgentLoop::Impl::loop(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory) {
    const bool useMemory = memory && memory::retrieves(settings.memoryMode);
    // Work folders of evaluations killed with an earlier run (no live evaluation is that old).
    toolchain::removeStaleWorkDirs(evaluator.paths(),
                                   std::chrono::seconds(std::max<long>(900, long(4 * settings.evalTimeoutSeconds))));
    RunRecord record;
    record.task = task.name;
    record.device = settings.device;
    record.policy = policy->name();
    record.memoryMode = std::string(memory::toString(settings.memoryMode));
    record.settings = settings.toJson();
    record.settings["policy_settings"] = policy->settings();
    if (start) record.settings["start"] = start->second;
    RunJournal journal(runs, record);
    const int64_t runId = journal.runId();
    emit({AgentEventType::RunStarted, runId, 0, std::nullopt, task.name, {}, {}});
    const std::atomic<bool>& cancel = *control.cancelFlag();
    IterationRunner iteration({evaluator, *policy, settings, task, useMemory ? memory : nullptr,
                               useMemory && settings.learn, cancel, [this](AgentEvent e) { emit(std::move(e)); }, start,
                               shuffle.get()},
                              journal);
    std::string stopReason = "budget exhausted";
    try {
        for (int i = 0; i < settings.budget; ++i) {
            std::optional<std::string> edit = control.checkpoint(
                [&] { emit({AgentEventType::Paused, runId, i, std::nullopt, "paused", {}, {}}); },
                [&](bool edited) {
                    emit({AgentEventType::Resumed, runId, i, std::nullopt, edited ? "resumed with an edit" : "resumed", {}, {}});
                });
            if (cancel) {
                stopReason = "cancelled";
                break;
            }
            if (auto why = iteration.run(i, edit)) {
                stopReason = *why;
                break;
            }
        }
    } catch (const std::exception& e) {
        // The stored run must not read "running" forever while this process lives on (GUI). A run
        // whose database went away is interrupted, not failed: its iterations are kept and its
        // retrievals that will get no outcome are closed, once the server answers again (issue 31).
        const auto* memoryError = dynamic_cast<const memory::MemoryError*>(&e);
        const bool unavailable = memoryError && memoryError->code() == memory::MemoryError::Code::Unavailable;
        try {
            journal.finish(unavailable ? AgentRunStatus::Interrupted : AgentRunStatus::Failed, std::string("the run stopped: ") + e.what(),
                           iteration.frontier());
            if (unavailable) memory::AdoptionLedger::closeUnresolved(*runs.database(), runId);
        } catch (const std::exception&) {
            if (!unavailable) throw;  // still unreachable: the next store to open marks the run (RunStore)
        }
        throw;
    }
    if (cancel) stopReason = "cancelled";
    journal.finish(cancel ? AgentRunStatus::Cancelled : AgentRunStatus::Finished, stopReason, iteration.frontier());
    RunSummary sum = journal.summary();
    emit({AgentEventType::RunFinished, runId, sum.iterations, std::nullopt, stopReason, {}, std::make_shared<const RunSummary>(sum)});
    return sum;
}

} // namespace sage::agent
