#include "sage_agent/AgentLoop.h"

#include "SourceDiff.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_memory/AdoptionLedger.h"
#include "sage_memory/MemorySchema.h"
#include "sage_memory/ValueModel.h"

#include <chrono>
#include <cmath>
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
            {"status", status},
            {"stop_reason", stopReason},
            {"best",
             {{"iteration", bestIteration},
              {"cycles", bestCycles},
              {"roofline_fraction", bestRooflineFraction},
              {"speedup_vs_first_correct", speedupVsFirstCorrect}}},
            {"iterations_to_0_8_roofline", iterationsToTargetRoofline}};
}

namespace {

const char* stageName(memory::Stage s) {
    switch (s) {
    case memory::Stage::Draft: return "draft";
    case memory::Stage::Repair: return "repair";
    case memory::Stage::Optimize: return "optimize";
    default: return "any";
    }
}

std::string platformCard(const toolchain::ToolPaths& paths) {
    std::ifstream in(paths.resources + "/../docs/kernel-api.md");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// What failed, as diagnostics for retrieval: the simulator's and the compiler's, or wrong_result.
std::vector<memory::Diagnostic> failureOf(const eval::Evaluation& ev) {
    std::vector<memory::Diagnostic> out;
    for (const auto& d : ev.compile.diagnostics)
        if (d.severity == "error") out.push_back({d.kind == "compile_error" ? "compile_error" : d.kind, d.message});
    for (const auto& d : ev.run.diagnostics)
        if (d.severity == "error") out.push_back({d.kind, d.message});
    if (ev.compile.ok && ev.run.status == "ok" && !ev.verify.pass) out.push_back({"wrong_result", "verification failed"});
    if (ev.run.status == "timeout" || ev.run.status == "crash" || ev.run.status == "oom")
        out.push_back({ev.run.status, ev.run.message});
    return out;
}

std::string statusOf(const eval::Evaluation& ev) {
    if (!ev.compile.ok) return ev.run.status == "rejected" ? "rejected" : "compile_error";
    if (ev.run.status != "ok") return ev.run.status;
    return ev.verify.pass ? "ok" : "wrong_result";
}

// The compact record of an evaluated iteration that later policy calls see.
AttemptRecord attemptOf(const IterationRecord& rec, const eval::Evaluation& ev, const std::vector<int64_t>& adopted) {
    AttemptRecord a;
    a.iteration = rec.index;
    a.stage = rec.stage;
    a.parent = rec.parent;
    a.move = rec.move;
    a.status = rec.status;
    a.correct = rec.correct;
    a.cycles = ev.run.status == "ok" ? ev.profile.totalCycles : 0;
    auto describe = [](const toolchain::Diagnostic& d) {
        return d.kind + (d.line > 0 ? " at line " + std::to_string(d.line) : std::string()) + ": " + d.message;
    };
    for (const auto* list : {&ev.compile.diagnostics, &ev.run.diagnostics})
        for (const auto& d : *list)
            if (a.firstDiagnostic.empty() && d.severity == "error") a.firstDiagnostic = describe(d);
    if (a.firstDiagnostic.empty() && ev.run.status == "ok" && !ev.verify.pass) a.firstDiagnostic = "wrong_result: verification failed";
    a.adoptedIds = adopted;
    a.sourceKey = sourceKey(rec.source);
    return a;
}

} // namespace

struct AgentLoop::Impl {
    const eval::Evaluator& evaluator;
    std::unique_ptr<Policy> policy;
    AgentSettings settings;
    std::vector<AgentObserver> observers;

    mutable std::mutex mu;
    std::condition_variable cv;
    State state = State::Idle;
    bool pauseRequested = false;
    bool stepping = false;
    std::optional<std::string> pendingEdit;
    std::atomic<bool> cancel{false};
    std::thread thread;
    std::optional<RunSummary> summary;
    std::unique_ptr<eval::Task> ownedTask;

    Impl(const eval::Evaluator& e, std::unique_ptr<Policy> p, AgentSettings s)
        : evaluator(e), policy(std::move(p)), settings(std::move(s)) {}

    void emit(AgentEvent e) {
        for (auto& o : observers) o(e);
    }
    void setState(State s) {
        std::lock_guard<std::mutex> g(mu);
        state = s;
        cv.notify_all();
    }
    // Blocks between iterations while paused. Returns an edit to apply, if the engineer made one.
    std::optional<std::string> checkpoint(int64_t runId, int iteration) {
        std::unique_lock<std::mutex> lk(mu);
        if (stepping) {  // a step ran one iteration: pause again
            stepping = false;
            pauseRequested = true;
        }
        if (!pauseRequested || cancel) return std::nullopt;
        state = State::Paused;
        cv.notify_all();
        lk.unlock();
        emit({AgentEventType::Paused, runId, iteration, "", "paused", {}});
        lk.lock();
        // An edit submitted while paused is applied when the engineer resumes (or steps).
        cv.wait(lk, [&] { return !pauseRequested || cancel; });
        std::optional<std::string> edit = std::move(pendingEdit);
        pendingEdit.reset();
        state = State::Running;
        lk.unlock();
        emit({AgentEventType::Resumed, runId, iteration, "", edit ? "resumed with an edit" : "resumed", {}});
        return edit;
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

RunSummary AgentLoop::run(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory) {
    impl_->setState(State::Running);
    RunSummary s = impl_->loop(task, runs, memory);
    runId_ = s.runId;
    {
        std::lock_guard<std::mutex> g(impl_->mu);
        impl_->summary = s;
    }
    impl_->setState(State::Finished);
    return s;
}

void AgentLoop::start(const eval::Task& task, const std::string& dbPath, bool startPaused) {
    if (impl_->thread.joinable()) throw std::logic_error("AgentLoop::start called twice");
    impl_->ownedTask = std::make_unique<eval::Task>(task);
    {
        std::lock_guard<std::mutex> g(impl_->mu);
        impl_->pauseRequested = startPaused;
        impl_->state = State::Running;
    }
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
            impl_->emit({AgentEventType::Error, runId_.load(), 0, "", std::string("the run stopped: ") + e.what(), {}});
            RunSummary s;
            s.status = "failed";
            s.stopReason = e.what();
            std::lock_guard<std::mutex> g(impl_->mu);
            impl_->summary = s;
            impl_->state = State::Finished;
            impl_->cv.notify_all();
            impl_->emit({AgentEventType::RunFinished, runId_.load(), 0, "", "failed", s.toJson()});
        }
    });
}

void AgentLoop::pause() {
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->pauseRequested = true;
}
void AgentLoop::step() {
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->stepping = true;
    impl_->pauseRequested = false;
    impl_->cv.notify_all();
}
void AgentLoop::resume() {
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->pauseRequested = false;
    impl_->stepping = false;
    impl_->cv.notify_all();
}
void AgentLoop::cancel() {
    impl_->cancel = true;
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->cv.notify_all();
}
bool AgentLoop::submitEdit(const std::string& source) {
    std::lock_guard<std::mutex> g(impl_->mu);
    if (impl_->state != State::Paused) return false;
    impl_->pendingEdit = source;
    impl_->cv.notify_all();
    return true;
}
AgentLoop::State AgentLoop::state() const {
    std::lock_guard<std::mutex> g(impl_->mu);
    return impl_->state;
}
void AgentLoop::wait() {
    if (impl_->thread.joinable()) impl_->thread.join();
}
std::optional<RunSummary> AgentLoop::summary() const {
    std::lock_guard<std::mutex> g(impl_->mu);
    return impl_->summary;
}

RunSummary AgentLoop::Impl::loop(const eval::Task& task, RunStore& runs, memory::ExperienceStore* memory) {
    const bool useMemory = memory && memory::retrieves(settings.memoryMode);
    const bool learn = useMemory && settings.learn && memory::learnsValues(settings.memoryMode);
    RunRecord run;
    run.task = task.name;
    run.device = settings.device;
    run.policy = policy->name();
    run.memoryMode = std::string(memory::toString(settings.memoryMode));
    run.status = "running";
    run.settings = settings.toJson();
    run.settings["policy_settings"] = policy->settings();
    run.id = runs.createRun(run);
    RunSummary sum;
    sum.runId = run.id;
    emit({AgentEventType::RunStarted, run.id, 0, "", task.name, run.settings});
    const std::string card = platformCard(evaluator.paths());

    struct Node {
        std::string source;
        eval::Evaluation ev;
        bool correct = false;
        int iteration = 0;
        bool human = false;
    };
    std::vector<Node> nodes;
    std::vector<std::string> tried;
    std::vector<AttemptRecord> history;
    const npu::DeviceProfile& device = evaluator.devices().get(settings.device);
    int best = -1, anchor = -1, sinceGain = 0;  // node indices; anchor: where optimisation continues from
    std::string stopReason = "budget exhausted";
    memory::Stage prevStage = memory::Stage::Any;

    for (int i = 0; i < settings.budget; ++i) {
        std::optional<std::string> edit = checkpoint(run.id, i);
        if (cancel) {
            stopReason = "cancelled";
            break;
        }
        const auto tIter = Clock::now();
        const Node* last = nodes.empty() ? nullptr : &nodes.back();
        // Stage: draft first; repair while the latest candidate is broken (unless we revert to the
        // best correct one); optimise from the best correct candidate otherwise.
        memory::Stage stage = memory::Stage::Draft;
        int parent = -1;
        if (last) {
            bool revert = best >= 0 && settings.revertBrokenOptimizations && !last->human;
            if (!last->correct && !revert) {
                stage = memory::Stage::Repair;
                parent = int(nodes.size()) - 1;
            } else {
                stage = memory::Stage::Optimize;
                parent = anchor;
            }
        }
        if (stage != prevStage)
            emit({AgentEventType::StageChanged, run.id, i, stageName(stage), stageName(stage), {}});
        prevStage = stage;
        emit({AgentEventType::IterationStarted, run.id, i, stageName(stage), "", {}});

        IterationRecord rec;
        rec.runId = run.id;
        rec.index = i;
        rec.parent = parent >= 0 ? nodes[size_t(parent)].iteration : -1;
        rec.stage = stageName(stage);
        rec.origin = edit ? "human" : "policy";
        rec.retrievals = json::array();
        rec.adoptions = json::array();
        rec.proposed = json::array();
        const std::string parentSource = parent >= 0 ? nodes[size_t(parent)].source : "";
        const eval::Evaluation* parentEv = parent >= 0 ? &nodes[size_t(parent)].ev : nullptr;

        // Retrieve (not for human edits: nothing is adopted from memory by a person here).
        std::vector<memory::ScoredExperience> retrieved;
        if (useMemory && !edit) {
            memory::RetrievalContext rc;
            rc.stage = stage;
            rc.category = task.category;
            rc.device = settings.device;
            rc.description = task.description;
            if (parentEv) {
                rc.diagnostics = failureOf(*parentEv);
                rc.bottleneck = parentEv->profile.bottleneck;
            }
            rc.includePending = settings.includePending;
            rc.limit = settings.retrieveLimit;
            rc.epsilon = settings.epsilon;
            rc.seed = settings.seed * 1000003ull + uint64_t(run.id) * 131ull + uint64_t(i);
            rc.mode = settings.memoryMode;
            retrieved = memory->retrieve(rc);
            memory->recordRetrievals(run.id, i, stage, retrieved);
            for (const auto& r : retrieved)
                rec.retrievals.push_back({{"id", r.experience.id}, {"title", r.experience.title}, {"rank", r.rank},
                                          {"score", r.score}, {"similarity", r.similarity}, {"q", r.q},
                                          {"explored", r.explored}, {"action", r.experience.action}});
        }
        const auto tRetrieved = Clock::now();

        PolicyContext ctx;
        ctx.task = &task;
        ctx.device = &device;
        ctx.stage = stage;
        ctx.iteration = i;
        ctx.parentSource = parentSource;
        ctx.parentEvaluation = parentEv;
        ctx.bestEvaluation = best >= 0 ? &nodes[size_t(best)].ev : nullptr;
        ctx.retrieved = retrieved;
        ctx.platformCard = card;
        ctx.triedMoves = tried;
        ctx.history = history;
        ctx.seed = settings.seed * 1000003ull + uint64_t(run.id) * 131ull + uint64_t(i) * 7919ull + 17ull;
        ctx.epsilon = settings.epsilon;
        ctx.cancel = &cancel;
        ctx.onToken = [&](const std::string& t) { emit({AgentEventType::Token, run.id, i, rec.stage, t, {}}); };
        PolicyProposal prop;
        if (edit) {
            prop.ok = true;
            prop.source = *edit;
            prop.move = "engineer's edit";
        } else {
            prop = policy->propose(ctx);
        }
        rec.prompt = prop.prompt;
        rec.response = prop.response;
        rec.rationale = prop.rationale;
        rec.move = prop.move;
        const auto tProposed = Clock::now();
        if (!prop.ok) {
            rec.error = prop.error;
            rec.status = cancel ? "cancelled" : prop.exhausted ? "exhausted" : "policy_error";
            if (rec.move.empty()) rec.move = prop.exhausted ? "(no untried move)" : "(no candidate)";
            rec.source = parentSource;
            rec.evaluation = nullptr;
            rec.timings = {{"retrieve", std::chrono::duration<double>(tRetrieved - tIter).count()},
                           {"policy", std::chrono::duration<double>(tProposed - tRetrieved).count()}};
            runs.addIteration(rec);
            if (!prop.exhausted) emit({AgentEventType::Error, run.id, i, rec.stage, prop.error, {}});
            emit({AgentEventType::IterationFinished, run.id, i, rec.stage, rec.status, toJson(rec)});
            sum.iterations = i + 1;
            if (cancel) {
                stopReason = "cancelled";
                break;
            }
            if (prop.exhausted) {
                stopReason = "policy has no further move: " + prop.error;
                break;
            }
            continue;
        }
        tried.push_back(sourceKey(prop.source));
        rec.source = prop.source;
        rec.diff = unifiedDiff(parentSource, prop.source);

        eval::EvalRequest req;
        req.source = prop.source;
        req.kernelName = "kernel.cpp";
        req.deviceId = settings.device;
        req.seeds = settings.seeds;
        req.timeoutSeconds = settings.evalTimeoutSeconds;
        req.cancel = &cancel;
        eval::Evaluation ev = evaluator.evaluate(task, req);
        const auto tEvaluated = Clock::now();
        const bool correct = ev.success();
        rec.evaluation = ev.toJson();
        rec.status = statusOf(ev);
        rec.correct = correct;
        rec.cycles = ev.profile.totalCycles;
        rec.rooflineFraction = ev.profile.rooflineFraction;
        emit({AgentEventType::EvaluationDone, run.id, i, rec.stage, rec.status,
              {{"status", rec.status}, {"correct", correct}, {"cycles", rec.cycles}, {"roofline_fraction", rec.rooflineFraction}}});
        if (cancel && ev.run.status == "cancelled") {
            rec.error = "cancelled during evaluation";
            runs.addIteration(rec);
            sum.iterations = i + 1;
            stopReason = "cancelled";
            break;
        }

        // Reward: feasibility for draft/repair, bounded log-speedup for optimisation.
        double speedup = 1.0;
        if (stage == memory::Stage::Optimize && correct && parentEv && ev.profile.totalCycles)
            speedup = double(parentEv->profile.totalCycles) / double(ev.profile.totalCycles);
        rec.reward = stageReward(rec.stage, correct, speedup);
        const bool success = stage == memory::Stage::Optimize ? (correct && speedup > 1.0) : correct;

        // Credit only what was adopted (declared by the policy, checked against the diff).
        if (learn && !retrieved.empty()) {
            auto signals = memory::AdoptionLedger::assess(retrieved, prop.adoptedIds, parentSource, prop.source);
            memory::IterationOutcome outcome;
            outcome.reward = rec.reward;
            outcome.success = success;
            outcome.mode = settings.memoryMode;
            auto report = memory->recordOutcome(run.id, i, signals, outcome);
            for (const auto& r : report.records)
                rec.adoptions.push_back({{"id", r.experienceId}, {"declared", r.declared.value_or(false)},
                                         {"evidenced", r.evidenced.value_or(false)}, {"weight", r.adoptionWeight.value_or(0)},
                                         {"credit", r.creditWeight.value_or(0)}, {"q_before", r.qBefore.value_or(0)},
                                         {"q_after", r.qAfter.value_or(0)}});
            emit({AgentEventType::MemoryUpdated, run.id, i, rec.stage, "", rec.adoptions});
        } else {
            for (int64_t id : prop.adoptedIds) rec.adoptions.push_back({{"id", id}, {"declared", true}});
        }

        // Distil a lesson from a repair that worked or an optimisation that gained >= 5%.
        const bool lessonWorthy = !edit && parentEv &&
                                  ((stage == memory::Stage::Repair && correct) ||
                                   (stage == memory::Stage::Optimize && correct && speedup >= 1.05));
        if (useMemory && settings.learn && lessonWorthy) {
            if (auto lesson = policy->distill(ctx, prop, *parentEv, ev)) {
                memory::Proposal p;
                p.experience.title = lesson->title;
                p.experience.content = lesson->content;
                p.experience.kind = lesson->kind == "repair_rule" ? memory::ExperienceKind::RepairRule
                                    : lesson->kind == "pitfall"   ? memory::ExperienceKind::Pitfall
                                    : lesson->kind == "insight"   ? memory::ExperienceKind::Insight
                                                                  : memory::ExperienceKind::Optimization;
                p.experience.stage = stage;
                p.experience.trigger.category = task.category;
                if (stage == memory::Stage::Repair) {
                    auto f = failureOf(*parentEv);
                    p.experience.trigger.diagnostic = f.empty() ? "" : f.front().kind;
                } else {
                    p.experience.trigger.bottleneck = parentEv->profile.bottleneck;
                }
                p.experience.action = lesson->action;
                p.experience.evidencePattern = lesson->evidencePattern;
                p.experience.status = memory::ExperienceStatus::Pending;
                p.experience.origin = memory::Origin::Agent;
                memory::Provenance prov;
                prov.task = task.name;
                prov.run = run.id;
                prov.iteration = i;
                prov.diff = rec.diff;
                p.experience.provenance.push_back(prov);
                p.stage = stage;
                p.reward = rec.reward;
                p.mode = settings.memoryMode;
                try {
                    auto res = memory->addProposed(p);
                    rec.proposed.push_back({{"id", res.id}, {"title", lesson->title}, {"deduplicated", res.deduplicated},
                                            {"reason", res.reason}});
                } catch (const std::exception& e) {
                    rec.error = std::string("could not store the proposed experience: ") + e.what();
                }
            }
        }

        history.push_back(attemptOf(rec, ev, prop.adoptedIds));
        nodes.push_back({prop.source, ev, correct, i, edit.has_value()});
        const int idx = int(nodes.size()) - 1;
        if (correct) {
            if (sum.firstCorrectIteration < 0) {
                sum.firstCorrectIteration = i;
                sum.firstCorrectCycles = ev.profile.totalCycles;
            }
            bool better = best < 0 || ev.profile.totalCycles < nodes[size_t(best)].ev.profile.totalCycles;
            bool significant = best < 0 || double(ev.profile.totalCycles) < 0.99 * double(nodes[size_t(best)].ev.profile.totalCycles);
            if (better) best = idx;
            // Optimisation continues from the best candidate, or from an engineer's correct edit.
            anchor = (better || edit) ? idx : anchor;
            if (stage == memory::Stage::Optimize) sinceGain = significant ? 0 : sinceGain + 1;
            if (ev.profile.rooflineFraction >= 0.8 && sum.iterationsToTargetRoofline < 0) sum.iterationsToTargetRoofline = i;
        } else if (stage == memory::Stage::Optimize) {
            ++sinceGain;
        }
        rec.timings = {{"retrieve", std::chrono::duration<double>(tRetrieved - tIter).count()},
                       {"policy", std::chrono::duration<double>(tProposed - tRetrieved).count()},
                       {"evaluate", std::chrono::duration<double>(tEvaluated - tProposed).count()},
                       {"total", std::chrono::duration<double>(Clock::now() - tIter).count()},
                       {"phases", ev.phaseSeconds}};
        runs.addIteration(rec);
        sum.iterations = i + 1;
        run.bestIteration = best >= 0 ? nodes[size_t(best)].iteration : -1;
        run.firstCorrectIteration = sum.firstCorrectIteration;
        runs.updateRun(run);
        emit({AgentEventType::IterationFinished, run.id, i, rec.stage, rec.status, toJson(rec)});

        if (best >= 0 && nodes[size_t(best)].ev.profile.rooflineFraction >= settings.targetRooflineFraction) {
            stopReason = "target roofline fraction reached";
            break;
        }
        if (sinceGain >= settings.patience) {
            stopReason = "no improvement for " + std::to_string(settings.patience) + " optimisation iterations";
            break;
        }
    }
    if (best >= 0) {
        const auto& b = nodes[size_t(best)].ev;
        sum.bestIteration = b.profile.present ? nodes[size_t(best)].iteration : -1;
        sum.bestCycles = b.profile.totalCycles;
        sum.bestRooflineFraction = b.profile.rooflineFraction;
        sum.speedupVsFirstCorrect = b.profile.totalCycles ? double(sum.firstCorrectCycles) / double(b.profile.totalCycles) : 0;
    }
    sum.status = cancel ? "cancelled" : "finished";
    sum.stopReason = stopReason;
    run.status = sum.status;
    run.stopReason = stopReason;
    run.bestIteration = sum.bestIteration;
    runs.updateRun(run);
    emit({AgentEventType::RunFinished, run.id, sum.iterations, "", stopReason, sum.toJson()});
    return sum;
}


} // namespace sage::agent
