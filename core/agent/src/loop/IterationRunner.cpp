#include "loop/IterationRunner.h"

#include "SourceDiff.h"
#include "loop/CreditAssigner.h"
#include "loop/EvaluationStep.h"
#include "loop/LessonDistiller.h"
#include "loop/RetrievalStep.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/PromptPreview.h"
#include "sage_memory/WriteRetry.h"


namespace sage::agent {
using nlohmann::json;

namespace {

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

AdoptionRecord declaredOnly(int64_t id) { return {id, true, false, std::nullopt, 0, std::nullopt, std::nullopt}; }

} // namespace

IterationRunner::IterationRunner(RunContext ctx, RunJournal& journal)
    : ctx_(std::move(ctx)), journal_(journal), device_(ctx_.evaluator.devices().get(ctx_.settings.device)),
      card_(readPlatformCard(ctx_.evaluator.paths())), stop_(ctx_.settings) {}

std::optional<std::string> IterationRunner::stopReason() const {
    const int best = frontier_.best();
    return stop_.reason(best >= 0 ? frontier_.node(best).evaluation.profile.rooflineFraction : -1);
}

void IterationRunner::store(IterationRecord& rec) {
    journal_.record(rec, frontier_);
    auto shared = std::make_shared<const IterationRecord>(rec);
    ctx_.emit({AgentEventType::IterationFinished, rec.runId, rec.index, rec.stage, std::string(toString(rec.status)), shared, {}});
}

PolicyContext IterationRunner::contextFor(int i, const StageChoice& choice,
                                          const std::vector<memory::ScoredExperience>& retrieved) {
    const Candidate* parent = choice.parent >= 0 ? &frontier_.node(choice.parent) : nullptr;
    PolicyContext c;
    c.task = &ctx_.task;
    c.device = &device_;
    c.stage = choice.stage;
    c.iteration = i;
    c.parentSource = parent ? parent->source : "";
    c.parentEvaluation = parent ? &parent->evaluation : nullptr;
    c.bestEvaluation = frontier_.best() >= 0 ? &frontier_.node(frontier_.best()).evaluation : nullptr;
    c.retrieved = retrieved;
    c.platformCard = card_;
    c.triedMoves = frontier_.keys();
    c.history = history_;
    c.seed = ctx_.settings.seed * 1000003ull + uint64_t(journal_.runId()) * 131ull + uint64_t(i) * 7919ull + 17ull;
    c.runSeed = ctx_.settings.seed * 1000003ull + std::stoull(sourceKey(ctx_.task.name).substr(0, 15), nullptr, 16);
    c.epsilon = ctx_.settings.epsilon;
    c.cancel = &ctx_.cancel;
    const int64_t runId = journal_.runId();
    auto emit = ctx_.emit;
    const memory::Stage stage = choice.stage;
    c.onToken = [emit, runId, i, stage](const std::string& t) { emit({AgentEventType::Token, runId, i, stage, t, {}, {}}); };
    c.onNotice = [emit, runId, i, stage](const std::string& t) { emit({AgentEventType::Notice, runId, i, stage, t, {}, {}}); };
    return c;
}

// Asks the policy; when it has no further move from a frontier node, that node is closed and the
// policy is asked again from the next one (the same iteration: nothing was evaluated meanwhile).
IterationRunner::Asked IterationRunner::ask(int i, StageChoice choice, IterationRecord& rec) {
    Asked a;
    std::string note;
    for (;;) {
        const Candidate* parent = choice.parent >= 0 ? &frontier_.node(choice.parent) : nullptr;
        rec.stage = choice.stage;
        rec.parent = parent ? parent->iteration : -1;
        a.retrieved = ctx_.memory ? retrieveFor(*ctx_.memory, ctx_.settings, ctx_.task, choice.stage,
                                                parent ? &parent->evaluation : nullptr, journal_.runId(), i)
                                  : std::vector<memory::ScoredExperience>{};
        a.retrievedAt = Clock::now();
        a.context = contextFor(i, choice, a.retrieved);
        a.proposal = ctx_.policy.propose(a.context);
        a.choice = choice;
        if (a.proposal.ok || !a.proposal.exhausted || ctx_.cancel || !parent) break;
        frontier_.close(choice.parent);
        auto next = chooseStage(frontier_, ctx_.settings);
        if (!next) break;
        note += "(frontier: no further move from iteration " + std::to_string(parent->iteration) +
                "; continuing from iteration " + std::to_string(frontier_.node(next->parent).iteration) + ")\n";
        choice = *next;
    }
    a.proposal.rationale = note + a.proposal.rationale;
    return a;
}

std::optional<std::string> IterationRunner::run(int i, const std::optional<std::string>& edit) {
    const auto started = Clock::now();
    IterationRecord rec;
    rec.runId = journal_.runId();
    rec.index = i;
    rec.origin = "policy";
    // A candidate not from the policy: the engineer's starting kernel (iteration 0) or an edit.
    std::optional<PolicyProposal> given;
    if ((i == 0 && ctx_.start) || edit) {
        given = PolicyProposal{};
        given->ok = true;
        const bool fromStart = i == 0 && ctx_.start;
        given->source = fromStart ? ctx_.start->first : *edit;
        given->move = fromStart ? "start from " + ctx_.start->second : "engineer's edit";
        rec.origin = fromStart ? "engineer" : "human";
    }
    auto choice = chooseStage(frontier_, ctx_.settings);
    if (!choice && given) choice = StageChoice{memory::Stage::Optimize, frontier_.latest()};
    if (!choice) return "no open candidate left: the policy has no further move from any correct candidate";
    const memory::Stage stage = choice->stage;
    if (stage != prevStage_) ctx_.emit({AgentEventType::StageChanged, rec.runId, i, stage, stageName(stage), {}, {}});
    ctx_.emit({AgentEventType::IterationStarted, rec.runId, i, stage, "", {}, {}});

    Asked asked;
    if (given) {
        rec.stage = stage;
        rec.parent = choice->parent >= 0 ? frontier_.node(choice->parent).iteration : -1;
        asked.choice = *choice;
        asked.proposal = *given;
        asked.retrievedAt = started;
    } else {
        asked = ask(i, *choice, rec);
    }
    prevStage_ = asked.choice.stage;
    const PolicyProposal& prop = asked.proposal;
    const Candidate* parent = asked.choice.parent >= 0 ? &frontier_.node(asked.choice.parent) : nullptr;
    // The retrievals the policy finally worked from, recorded once for the iteration's credit.
    if (ctx_.memory && !asked.retrieved.empty())
        memory::retryingWrite(ctx_.memory->database(), [&] {  // a cut transaction: once more (issue 31)
            ctx_.memory->recordRetrievals(rec.runId, i, asked.choice.stage, asked.retrieved);
        });
    rec.retrievals = toRecords(asked.retrieved);
    rec.prompt = prop.prompt;
    rec.response = prop.response;
    rec.rationale = prop.rationale;
    rec.notes = prop.notes;
    rec.move = prop.move;
    const auto proposedAt = Clock::now();
    rec.timings = {{"retrieve", seconds(started, asked.retrievedAt)}, {"policy", seconds(asked.retrievedAt, proposedAt)}};

    if (!prop.ok) return noCandidate(rec, prop, parent);
    stop_.policyAnswered();
    rec.source = prop.source;
    rec.diff = unifiedDiff(parent ? parent->source : "", prop.source);
    std::optional<std::string> why;
    if (const int seen = frontier_.find(sourceKey(prop.source)); seen >= 0) why = reuse(rec, asked, seen);
    else why = evaluate(rec, asked, given.has_value(), proposedAt);
    return why;
}

std::optional<std::string> IterationRunner::noCandidate(IterationRecord& rec, const PolicyProposal& prop,
                                                        const Candidate* parent) {
    rec.error = prop.error;
    rec.status = ctx_.cancel ? IterationStatus::Cancelled : prop.exhausted ? IterationStatus::Exhausted : IterationStatus::PolicyError;
    if (rec.move.empty()) rec.move = prop.exhausted ? "(no untried move)" : "(no candidate)";
    rec.source = parent ? parent->source : "";
    if (!prop.exhausted && !ctx_.cancel) {
        // The next prompt lists the lost iteration with what was wrong, so the model does not
        // repeat the same bad reply.
        AttemptRecord lost;
        lost.iteration = rec.index;
        lost.stage = rec.stage;
        lost.parent = rec.parent;
        lost.move = "(no usable reply)";
        lost.status = rec.status;
        const std::string prefix = "the model's reply breaks the contract: ";
        lost.firstDiagnostic = prop.error.rfind(prefix, 0) == 0 ? "reply refused: " + prop.error.substr(prefix.size())
                                                                : prop.error;
        history_.push_back(lost);
    }
    if (!prop.exhausted) ctx_.emit({AgentEventType::Error, rec.runId, rec.index, rec.stage, prop.error, {}, {}});
    if (!prop.exhausted && !ctx_.cancel) stop_.policyFailed(prop.error);
    store(rec);
    if (ctx_.cancel) return "cancelled";
    if (prop.exhausted)
        return frontier_.size() ? "no open candidate left: the policy has no further move from any correct candidate (" +
                                      prop.error + ")"
                                : "policy has no further move: " + prop.error;
    return stop_.reason(-1);  // only the policy-error rule can fire here
}

// Never evaluate the same source twice in a run: the earlier result stands, and the iteration
// counts as one without gain.
std::optional<std::string> IterationRunner::reuse(IterationRecord& rec, const Asked& asked, int seen) {
    const Candidate& earlier = frontier_.node(seen);
    rec.duplicateOf = earlier.iteration;
    recordEvaluation(rec, earlier.evaluation);
    rec.move += " (same source as iteration " + std::to_string(earlier.iteration) + ", not evaluated again)";
    rec.reward = 0;
    for (int64_t id : asked.proposal.adoptedIds) rec.adoptions.push_back(declaredOnly(id));
    history_.push_back(attemptOf(rec, earlier.evaluation, asked.proposal.adoptedIds));
    frontier_.revisit(seen);
    // A repair that only returns to a broken source leaves nothing to repair there.
    if (asked.choice.stage == memory::Stage::Repair && !earlier.correct) {
        frontier_.close(asked.choice.parent);
        frontier_.close(seen);
    }
    stop_.optimisation(false);
    rec.timings["total"] = rec.timings["retrieve"].get<double>() + rec.timings["policy"].get<double>();
    store(rec);
    return stopReason();
}

std::optional<std::string> IterationRunner::evaluate(IterationRecord& rec, const Asked& asked, bool given,
                                                     Clock::time_point proposedAt) {
    const PolicyProposal& prop = asked.proposal;
    const memory::Stage stage = asked.choice.stage;
    const Candidate* parent = asked.choice.parent >= 0 ? &frontier_.node(asked.choice.parent) : nullptr;
    std::future<void> speculation;
    std::atomic<bool> dropSpeculation{false};
    if (ctx_.settings.speculate && !prop.likelyNext.empty())
        speculation = precompileCandidate(ctx_.evaluator, ctx_.task, prop.likelyNext, ctx_.settings, &dropSpeculation);
    eval::Evaluation ev = evaluateCandidate(ctx_.evaluator, ctx_.task, prop.source, ctx_.settings, &ctx_.cancel);
    if (speculation.valid()) {
        // The likely next candidate is the parent's next move should this one not gain. When it
        // does gain, the next proposal starts from it instead, and whatever is left of that
        // compile would only take CPU from the evaluations to come.
        const bool gained = ev.success() && (!parent || ev.profile.totalCycles < parent->cycles());
        if (gained || ctx_.cancel) dropSpeculation = true;
        speculation.wait();
    }
    const auto evaluatedAt = Clock::now();
    recordEvaluation(rec, ev);
    const bool correct = rec.correct;
    const std::string status(toString(rec.status));
    ctx_.emit({AgentEventType::EvaluationDone, rec.runId, rec.index, rec.stage, status, std::make_shared<const IterationRecord>(rec), {}});
    if (ctx_.cancel && ev.run.status == toolchain::RunStatus::Cancelled) {
        rec.error = "cancelled during evaluation";
        rec.status = IterationStatus::Cancelled;
        journal_.record(rec, frontier_);
        return "cancelled";
    }

    const IterationValue value = valueOf(stage, correct, parent ? parent->cycles() : 0, ev.profile.totalCycles);
    rec.reward = value.reward;
    // What memory is credited with: the real outcome, or under the shuffled-reward control that of
    // another iteration (the run itself keeps and reports the real one).
    CreditedOutcome credited{correct, value.speedup, value.reward, value.success};
    if (ctx_.shuffle && ctx_.learn && !given) credited = ctx_.shuffle->draw(stage, credited);
    const bool learnHere = ctx_.learn && memory::learnsValues(ctx_.settings.memoryMode) && !given;
    rec.adoptions = assignCredit(ctx_.memory, learnHere, ctx_.settings, rec.runId, rec.index, asked.retrieved,
                                 prop.adoptedIds, prop.shownIds, parent ? parent->source : std::string(), prop.source,
                                 IterationValue{credited.speedup, credited.reward, credited.success});
    if (learnHere && !asked.retrieved.empty())
        ctx_.emit({AgentEventType::MemoryUpdated, rec.runId, rec.index, rec.stage, "", std::make_shared<const IterationRecord>(rec), {}});
    if (ctx_.memory && ctx_.learn && !given && parent && lessonWorthy(stage, credited.correct, credited.speedup))
        distilLesson(ctx_.policy, *ctx_.memory, asked.context, prop, parent->evaluation, ev, ctx_.settings.memoryMode,
                     credited.reward, rec);

    history_.push_back(attemptOf(rec, ev, prop.adoptedIds));
    const int bestBefore = frontier_.best();
    const uint64_t bestCyclesBefore = bestBefore >= 0 ? frontier_.node(bestBefore).cycles() : 0;
    frontier_.add({prop.source, sourceKey(prop.source), ev, correct, rec.index, rec.origin == "human", false});
    stop_.evaluated(stage == memory::Stage::Optimize,
                    correct && (bestBefore < 0 || double(ev.profile.totalCycles) < 0.99 * double(bestCyclesBefore)));
    rec.timings["evaluate"] = seconds(proposedAt, evaluatedAt);
    rec.timings["total"] = rec.timings["retrieve"].get<double>() + rec.timings["policy"].get<double>() +
                           seconds(proposedAt, Clock::now());
    rec.timings["phases"] = ev.phaseSeconds;
    store(rec);
    return stopReason();
}

} // namespace sage::agent
