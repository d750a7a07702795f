// The conductor: each iteration asks StageChooser what to do and from which frontier node, gets a
// candidate (the engineer's starting kernel, an edit, or the policy's proposal), evaluates it
// unless the run already did, credits what was adopted, distils a lesson, grows the frontier,
// stores the iteration and checks the stop rules. The steps live in src/loop/.
#include "sage_agent/AgentLoop.h"

#include "SourceDiff.h"
#include "loop/CreditAssigner.h"
#include "loop/EvaluationStep.h"
#include "loop/Frontier.h"
#include "loop/LessonDistiller.h"
#include "loop/RetrievalStep.h"
#include "loop/RunControl.h"
#include "loop/RunJournal.h"
#include "loop/StageChooser.h"
#include "loop/StopRules.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_memory/MemorySchema.h"
#include "sage_memory/ValueModel.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace sage::agent {
using nlohmann::json;
using Clock = std::chrono::steady_clock;

double stageReward(const std::string& stage, bool success, double speedup) {
    if (stage == "optimize") return memory::ValueModel::optimizeReward(speedup, success);
    return memory::ValueModel::feasibilityReward(success);
}

json RunSummary::toJson() const {
    return {{"run_id", runId},
            {"iterations", iterations},
            {"first_correct_iteration", firstCorrectIteration},
            {"first_correct_cycles", firstCorrectCycles},
            {"status", status},
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

namespace {

std::string platformCard(const toolchain::ToolPaths& paths) {
    std::ifstream in(paths.resources + "/../docs/kernel-api.md");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

} // namespace

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

void AgentLoop::setStartCandidate(std::string source, std::string label) {
    impl_->start = std::make_pair(std::move(source), std::move(label));
}

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
            impl_->emit({AgentEventType::Error, runId_.load(), 0, "", std::string("the run stopped: ") + e.what(), {}, {}});
            RunSummary s;
            s.status = "failed";
            s.stopReason = e.what();
            impl_->setSummary(s);
            impl_->control.setState(State::Finished);
            impl_->emit({AgentEventType::RunFinished, runId_.load(), 0, "", "failed", s.toJson(), {}});
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
    const bool learn = useMemory && settings.learn && memory::learnsValues(settings.memoryMode);
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
    emit({AgentEventType::RunStarted, runId, 0, "", task.name, journal.run().settings, {}});
    const std::string card = platformCard(evaluator.paths());
    const npu::DeviceProfile& device = evaluator.devices().get(settings.device);
    const std::atomic<bool>& cancel = *control.cancelFlag();

    Frontier frontier;
    StopRules stop(settings);
    std::vector<AttemptRecord> history;
    std::string stopReason = "budget exhausted";
    memory::Stage prevStage = memory::Stage::Any;

    for (int i = 0; i < settings.budget; ++i) {
        std::optional<std::string> edit = control.checkpoint(
            [&] { emit({AgentEventType::Paused, runId, i, "", "paused", {}, {}}); },
            [&](bool edited) { emit({AgentEventType::Resumed, runId, i, "", edited ? "resumed with an edit" : "resumed", {}, {}}); });
        if (cancel) {
            stopReason = "cancelled";
            break;
        }
        const auto tIter = Clock::now();
        // A candidate not from the policy: the engineer's starting kernel (iteration 0) or an edit.
        std::optional<PolicyProposal> given;
        std::string origin = "policy";
        if (i == 0 && start) {
            given = PolicyProposal{};
            given->source = start->first;
            given->move = "start from " + start->second;
            origin = "engineer";
        } else if (edit) {
            given = PolicyProposal{};
            given->source = *edit;
            given->move = "engineer's edit";
            origin = "human";
        }
        if (given) given->ok = true;

        auto choice = chooseStage(frontier, settings);
        if (!choice && given) choice = StageChoice{memory::Stage::Optimize, frontier.latest()};
        if (!choice) {
            stopReason = "no open candidate left: the policy has no further move from any correct candidate";
            break;
        }

        IterationRecord rec;
        rec.runId = runId;
        rec.index = i;
        rec.origin = origin;
        std::vector<memory::ScoredExperience> retrieved;
        PolicyContext ctx;
        PolicyProposal prop;
        std::string frontierNote;
        auto tRetrieved = Clock::now();
        // Ask the policy; when it has no further move from a frontier node, close that node and
        // ask again from the next one (same iteration: nothing was evaluated).
        for (bool firstAsk = true;; firstAsk = false) {
            const memory::Stage stage = choice->stage;
            const Candidate* parent = choice->parent >= 0 ? &frontier.node(choice->parent) : nullptr;
            if (firstAsk) {
                if (stage != prevStage) emit({AgentEventType::StageChanged, runId, i, stageName(stage), stageName(stage), {}, {}});
                emit({AgentEventType::IterationStarted, runId, i, stageName(stage), "", {}, {}});
            }
            prevStage = stage;
            rec.stage = stageName(stage);
            rec.parent = parent ? parent->iteration : -1;
            if (given) {
                prop = *given;
                break;
            }
            retrieved = useMemory ? retrieveFor(*memory, settings, task, stage, parent ? &parent->evaluation : nullptr, runId, i)
                                  : std::vector<memory::ScoredExperience>{};
            tRetrieved = Clock::now();
            ctx = PolicyContext{};
            ctx.task = &task;
            ctx.device = &device;
            ctx.stage = stage;
            ctx.iteration = i;
            ctx.parentSource = parent ? parent->source : "";
            ctx.parentEvaluation = parent ? &parent->evaluation : nullptr;
            ctx.bestEvaluation = frontier.best() >= 0 ? &frontier.node(frontier.best()).evaluation : nullptr;
            ctx.retrieved = retrieved;
            ctx.platformCard = card;
            ctx.triedMoves = frontier.keys();
            ctx.history = history;
            ctx.seed = settings.seed * 1000003ull + uint64_t(runId) * 131ull + uint64_t(i) * 7919ull + 17ull;
            ctx.epsilon = settings.epsilon;
            ctx.cancel = &cancel;
            ctx.onToken = [&](const std::string& t) { emit({AgentEventType::Token, runId, i, rec.stage, t, {}, {}}); };
            prop = policy->propose(ctx);
            if (prop.ok || !prop.exhausted || cancel || choice->parent < 0) break;
            frontier.close(choice->parent);
            auto next = chooseStage(frontier, settings);
            if (!next) break;
            frontierNote += "(frontier: no further move from iteration " + std::to_string(parent->iteration) +
                            "; continuing from iteration " + std::to_string(frontier.node(next->parent).iteration) + ")\n";
            choice = next;
        }
        const memory::Stage stage = choice->stage;
        const Candidate* parent = choice->parent >= 0 ? &frontier.node(choice->parent) : nullptr;
        if (useMemory && !retrieved.empty()) memory->recordRetrievals(runId, i, stage, retrieved);
        rec.retrievals = toRecords(retrieved);
        rec.prompt = prop.prompt;
        rec.response = prop.response;
        rec.rationale = frontierNote + prop.rationale;
        rec.move = prop.move;
        const auto tProposed = Clock::now();
        json timings = {{"retrieve", seconds(tIter, tRetrieved)}, {"policy", seconds(tRetrieved, tProposed)}};
        auto finishIteration = [&] {
            rec.timings = timings;
            journal.record(rec, frontier);
            auto shared = std::make_shared<const IterationRecord>(rec);
            emit({AgentEventType::IterationFinished, runId, i, rec.stage, rec.status, toJson(rec), shared});
        };

        if (!prop.ok) {
            rec.error = prop.error;
            rec.status = cancel ? "cancelled" : prop.exhausted ? "exhausted" : "policy_error";
            if (rec.move.empty()) rec.move = prop.exhausted ? "(no untried move)" : "(no candidate)";
            rec.source = parent ? parent->source : "";
            if (!prop.exhausted) emit({AgentEventType::Error, runId, i, rec.stage, prop.error, {}, {}});
            if (!prop.exhausted && !cancel) stop.policyFailed(prop.error);
            finishIteration();
            if (cancel) {
                stopReason = "cancelled";
                break;
            }
            if (prop.exhausted) {
                stopReason = frontier.size() ? "no open candidate left: the policy has no further move from any correct candidate (" +
                                                   prop.error + ")"
                                             : "policy has no further move: " + prop.error;
                break;
            }
            if (auto why = stop.reason(-1)) {
                stopReason = *why;
                break;
            }
            continue;
        }
        stop.policyAnswered();
        rec.source = prop.source;
        rec.diff = unifiedDiff(parent ? parent->source : "", prop.source);
        const std::string key = sourceKey(prop.source);

        // Never evaluate the same source twice in a run: the earlier result stands.
        if (const int seen = frontier.find(key); seen >= 0) {
            const Candidate& earlier = frontier.node(seen);
            rec.duplicateOf = earlier.iteration;
            recordEvaluation(rec, earlier.evaluation);
            rec.move += " (same source as iteration " + std::to_string(earlier.iteration) + ", not evaluated again)";
            rec.reward = 0;
            for (int64_t id : prop.adoptedIds) rec.adoptions.push_back({id, true, false, std::nullopt, 0, std::nullopt, std::nullopt});
            history.push_back(attemptOf(rec, earlier.evaluation, prop.adoptedIds));
            frontier.revisit(seen);
            // A repair that only returns to a broken source has nothing left for its parent.
            if (stage == memory::Stage::Repair && !earlier.correct) {
                frontier.close(choice->parent);
                frontier.close(seen);
            }
            stop.optimisation(false);  // a duplicate is an iteration without gain, whatever the stage
            timings["total"] = seconds(tIter, Clock::now());
            finishIteration();
            const int best = frontier.best();
            if (auto why = stop.reason(best >= 0 ? frontier.node(best).evaluation.profile.rooflineFraction : -1)) {
                stopReason = *why;
                break;
            }
            continue;
        }

        eval::Evaluation ev = evaluateCandidate(evaluator, task, prop.source, settings, &cancel);
        const auto tEvaluated = Clock::now();
        recordEvaluation(rec, ev);
        const bool correct = rec.correct;
        emit({AgentEventType::EvaluationDone, runId, i, rec.stage, rec.status,
              {{"status", rec.status}, {"correct", correct}, {"cycles", rec.cycles}, {"roofline_fraction", rec.rooflineFraction}},
              {}});
        if (cancel && ev.run.status == "cancelled") {
            rec.error = "cancelled during evaluation";
            rec.status = "cancelled";
            journal.record(rec, frontier);
            stopReason = "cancelled";
            break;
        }

        const IterationValue value = valueOf(stage, correct, parent ? parent->cycles() : 0, ev.profile.totalCycles);
        rec.reward = value.reward;
        rec.adoptions = assignCredit(memory, learn && !given, settings, runId, i, retrieved, prop.adoptedIds, rec.diff, value);
        if (learn && !given && !retrieved.empty()) {
            json credit = json::array();
            for (const auto& a : rec.adoptions) credit.push_back(toJson(a));
            emit({AgentEventType::MemoryUpdated, runId, i, rec.stage, "", credit, {}});
        }
        if (useMemory && settings.learn && !given && parent && lessonWorthy(stage, correct, value.speedup))
            distilLesson(*policy, *memory, ctx, prop, parent->evaluation, ev, rec);

        history.push_back(attemptOf(rec, ev, prop.adoptedIds));
        const int bestBefore = frontier.best();
        const uint64_t bestCyclesBefore = bestBefore >= 0 ? frontier.node(bestBefore).cycles() : 0;
        frontier.add({prop.source, key, ev, correct, i, origin == "human", false});
        if (stage == memory::Stage::Optimize)
            stop.optimisation(correct && (bestBefore < 0 || double(ev.profile.totalCycles) < 0.99 * double(bestCyclesBefore)));
        timings["evaluate"] = seconds(tProposed, tEvaluated);
        timings["total"] = seconds(tIter, Clock::now());
        timings["phases"] = ev.phaseSeconds;
        finishIteration();

        const int best = frontier.best();
        if (auto why = stop.reason(best >= 0 ? frontier.node(best).evaluation.profile.rooflineFraction : -1)) {
            stopReason = *why;
            break;
        }
    }
    journal.finish(cancel ? "cancelled" : "finished", stopReason, frontier);
    RunSummary sum = journal.summary();
    emit({AgentEventType::RunFinished, runId, sum.iterations, "", stopReason, sum.toJson(), {}});
    return sum;
}

} // namespace sage::agent
