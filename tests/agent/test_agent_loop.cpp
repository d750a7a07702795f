// The agent loop with the built-in policy: draft -> optimise -> a move that overflows UB -> its
// repair -> more optimisation; pause, step, resume, cancel and edit-then-resume from another
// thread; a replay equals what the observers saw; adoption-aware credit in the stored run.
// With scripted policies: the frontier moves on when the policy is exhausted on a node, a source
// is never evaluated twice, policy errors count toward patience, a run can start from a given
// kernel (core API and `sage run --kernel`), and runs of a dead process are marked interrupted.
#include "AgentTestSupport.h"
#include "sage_agent/AgentLoop.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/Tunables.h"
#include "sage_memory/MemorySchema.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <QProcess>
#include <QUuid>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

using namespace sage;

namespace {

// A policy scripted by a function of the context: what the loop asked, and what it answers.
class ScriptedPolicy : public agent::Policy {
public:
    using Script = std::function<agent::PolicyProposal(const agent::PolicyContext&)>;
    explicit ScriptedPolicy(Script s) : script_(std::move(s)) {}
    std::string name() const override { return "scripted"; }
    nlohmann::json settings() const override { return nlohmann::json::object(); }
    agent::PolicyProposal propose(const agent::PolicyContext& ctx) override {
        asked.push_back({ctx.stage, ctx.parentSource});
        return script_(ctx);
    }
    std::optional<agent::Lesson> distill(const agent::PolicyContext&, const agent::PolicyProposal&,
                                         const eval::Evaluation&, const eval::Evaluation&) override {
        return std::nullopt;
    }
    std::vector<std::pair<memory::Stage, std::string>> asked;

private:
    Script script_;
};

agent::PolicyProposal candidate(const std::string& source, const std::string& move) {
    agent::PolicyProposal p;
    p.ok = true;
    p.source = source;
    p.move = move;
    return p;
}
agent::PolicyProposal exhausted() {
    agent::PolicyProposal p;
    p.exhausted = true;
    p.error = "no untried move";
    return p;
}

} // namespace

class TestAgentLoop : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet tasks_;

    std::string dbPath(const char* name) { return (dir_.path() + "/" + name).toStdString(); }
    std::shared_ptr<memory::Database> openDb(const char* name) {
        return std::make_shared<memory::Database>(
            dbPath(name), std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
    }
    agent::AgentSettings settings(memory::MemoryMode mode = memory::MemoryMode::Off) {
        agent::AgentSettings s;
        s.memoryMode = mode;
        s.budget = 8;
        s.revertBrokenOptimizations = false;  // repair broken optimisations
        s.targetRooflineFraction = 0.99;
        s.patience = 8;
        s.seeds = 1;
        return s;
    }
    const eval::Task& task(const char* name) { return *tasks_.find(name); }

    // A run of `policy` on vtune, with the number of candidates the loop evaluated.
    struct CountedRun {
        agent::RunSummary summary;
        std::vector<agent::IterationRecord> iterations;
        int evaluations = 0;
    };
    CountedRun runCounting(std::unique_ptr<agent::Policy> policy, const agent::AgentSettings& s, const char* dbName) {
        auto db = openDb(dbName);
        agent::RunStore runs(db);
        agent::AgentLoop loop(*evaluator_, std::move(policy), s);
        CountedRun out;
        loop.addObserver([&](const agent::AgentEvent& e) { out.evaluations += e.type == agent::AgentEventType::EvaluationDone; });
        out.summary = loop.run(task("vtune"), runs, nullptr);
        out.iterations = runs.iterations(out.summary.runId);
        return out;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        evaluator_ = evaluatorCachedIn(dir_.path());
        tasks_ = eval::TaskSet::load({std::string(SAGE_TEST_DATA_DIR) + "/tasks"});
        QVERIFY(tasks_.find("vtune") && tasks_.find("vhang"));
    }

    void tunablesParseAndRewrite() {
        const std::string src = task("vtune").baselineSource;
        auto ts = agent::parseTunables(src);
        QCOMPARE(ts.size(), size_t(3));
        QCOMPARE(ts[1].key, std::string("tile_length"));
        QCOMPARE(ts[1].value, 1024LL);
        QCOMPARE(ts[1].allowed, (std::vector<long long>{1024, 4096, 16384}));
        auto changed = agent::setTunable(src, ts[1], 4096);
        auto again = agent::parseTunables(changed);
        QCOMPARE(again[1].value, 4096LL);
        QCOMPARE(again[0].value, 1LL);
        QVERIFY(changed.find("// @tunable tile_length {1024, 4096, 16384}") != std::string::npos);
        QVERIFY(!agent::BuiltinPolicy::apply(src, {{"type", "set_tunable"}, {"name", "TILE_LENGTH"}, {"value", 999}}, nullptr));
        QVERIFY(agent::BuiltinPolicy::apply(src, {{"type", "scale_tunable"}, {"name", "TILE_LENGTH"}, {"factor", 4}}, nullptr));
    }

    // An engineer's kernel that divides its work by USE_CORE_NUM while its launch fixes 8 cores with
    // a literal: the policy's own moves never change one without the other (the launch contract),
    // and a direct edit of either alone is refused with a reason.
    void theLaunchContractIsRespected() {
        std::string src = task("vtune").baselineSource;
        auto replace = [&](const std::string& from, const std::string& to) {
            const auto at = src.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            src.replace(at, from.size(), to);
        };
        replace("constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 4}", "constexpr uint32_t USE_CORE_NUM = 8;");
        replace("uint32_t per = (n + GetBlockNum() - 1) / GetBlockNum();", "uint32_t per = (n + USE_CORE_NUM - 1) / USE_CORE_NUM;");
        replace("ICPU_RUN_KF(vtune, BLOCK_DIM,", "ICPU_RUN_KF(vtune, 8,");
        const auto device = evaluator_->devices().get("ascend910b1-sim");
        agent::PolicyContext ctx;
        ctx.task = &task("vtune");
        ctx.device = &device;
        ctx.stage = memory::Stage::Optimize;
        ctx.parentSource = src;
        const auto moves = agent::BuiltinPolicy::candidates(ctx);
        QVERIFY2(!moves.empty(), "tile and buffer moves remain");
        for (const auto& m : moves) {
            QVERIFY2(m.source.find("USE_CORE_NUM = 8;") != std::string::npos, m.description.c_str());
            QVERIFY2(m.source.find("ICPU_RUN_KF(vtune, 8,") != std::string::npos, m.description.c_str());
        }
        const auto knobs = agent::inferKnobs(src);
        const auto cores = agent::findTunable(knobs, "USE_CORE_NUM");
        QVERIFY(cores && cores->role == "block");
        const std::string edited = agent::setTunable(src, *cores, 16);
        QVERIFY(edited != src);
        const std::string why = agent::infeasibility(src, edited, &device);
        QVERIFY2(why.find("USE_CORE_NUM") != std::string::npos && why.find("launch") != std::string::npos, why.c_str());
        const auto launch = agent::findTunable(knobs, "block_dim");
        QVERIFY(launch);
        QVERIFY(!agent::infeasibility(src, agent::setTunable(src, *launch, 16), &device).empty());
        // The same kernel with both in step (the launch passes the constant) may change them together.
        std::string tied = src;
        tied.replace(tied.find("ICPU_RUN_KF(vtune, 8,"), std::string("ICPU_RUN_KF(vtune, 8,").size(), "ICPU_RUN_KF(vtune, USE_CORE_NUM,");
        const auto tiedCores = agent::findTunable(agent::inferKnobs(tied), "USE_CORE_NUM");
        QVERIFY(tiedCores);
        QCOMPARE(agent::infeasibility(tied, agent::setTunable(tied, *tiedCores, 16), &device), std::string());
    }

    void draftRepairAndOptimise() {
        auto db = openDb("repair.db");
        agent::RunStore runs(db);
        // The built-in fallback never proposes a tile it can tell overflows the UB, but a memory
        // entry's action is applied as written: this one grows the tile past the UB.
        memory::ExperienceStore mem(db);
        memory::Experience grow;
        grow.title = "grow the tile to 16384";
        grow.stage = memory::Stage::Optimize;
        grow.trigger.category = "elementwise";
        grow.content = "Bigger tiles mean fewer iterations.";
        grow.action = {{"type", "set_tunable"}, {"name", "TILE_LENGTH"}, {"value", 16384}};
        grow.status = memory::ExperienceStatus::Approved;
        mem.add(grow);
        // Budget 12: the policy's own moves come in a neutral order, so the repair may come late.
        auto s = settings(memory::MemoryMode::Adoption);
        s.budget = 12;
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        auto sum = loop.run(task("vtune"), runs, &mem);
        auto its = runs.iterations(sum.runId);
        QVERIFY(its.size() >= 6);
        QVERIFY(its[0].stage == memory::Stage::Draft);
        QVERIFY(its[0].correct);
        int broken = -1;
        for (const auto& it : its)
            if (it.status == agent::IterationStatus::SimError && it.evaluation && it.evaluation->toJson().dump().find("capacity_exceeded") != std::string::npos) {
                broken = it.index;
                break;
            }
        QVERIFY2(broken > 0, "the memory entry should have grown the tile past the UB");
        QVERIFY(its[size_t(broken)].stage == memory::Stage::Optimize);
        QVERIFY(its[size_t(broken + 1)].stage == memory::Stage::Repair);
        QVERIFY(its[size_t(broken + 1)].correct);
        QCOMPARE(its[size_t(broken + 1)].parent, broken);
        bool optimisedAfter = false;
        for (size_t i = size_t(broken + 2); i < its.size(); ++i) optimisedAfter |= its[i].stage == memory::Stage::Optimize;
        QVERIFY(optimisedAfter);
        QVERIFY(sum.speedupVsFirstCorrect > 2.0);
        QCOMPARE(sum.firstCorrectIteration, 0);
        QVERIFY(its[size_t(sum.bestIteration)].correct);
        // the replay is what was stored, move by move
        for (const auto& it : its) QVERIFY(!it.source.empty() && !it.move.empty());
    }

    void replayEqualsWhatObserversSaw() {
        auto db = openDb("replay.db");
        agent::RunStore runs(db);
        memory::ExperienceStore mem(db);
        mem.importFrom(toolchain::ToolPaths::fromEnvironment().resources + "/memory/seed.jsonl");
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), settings(memory::MemoryMode::Adoption));
        std::vector<nlohmann::json> seen;
        std::vector<std::shared_ptr<const agent::IterationRecord>> evaluated, credited;
        std::shared_ptr<const agent::RunSummary> finished;
        loop.addObserver([&](const agent::AgentEvent& e) {
            using T = agent::AgentEventType;
            if (e.type == T::IterationFinished && e.record) seen.push_back(agent::toJson(*e.record));
            if (e.type == T::EvaluationDone) evaluated.push_back(e.record);
            if (e.type == T::MemoryUpdated) credited.push_back(e.record);
            if (e.type == T::RunFinished) finished = e.summary;
        });
        auto sum = loop.run(task("vtune"), runs, &mem);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), seen.size());
        // The typed payloads: the run's summary, each evaluation's verdict and each credit report
        // are what was stored.
        QVERIFY(finished);
        QCOMPARE(finished->bestIteration, sum.bestIteration);
        QCOMPARE(finished->bestCycles, sum.bestCycles);
        QVERIFY(!evaluated.empty() && !credited.empty());
        for (const auto& r : evaluated) {
            QVERIFY(r);
            const auto& stored = its[size_t(r->index)];
            QVERIFY(r->status == stored.status);
            QCOMPARE(r->correct, stored.correct);
            QCOMPARE(r->cycles, stored.cycles);
        }
        for (const auto& r : credited) {
            QVERIFY(r);
            const auto& stored = its[size_t(r->index)];
            QCOMPARE(r->adoptions.size(), stored.adoptions.size());
            for (size_t k = 0; k < r->adoptions.size(); ++k) {
                QCOMPARE(r->adoptions[k].id, stored.adoptions[k].id);
                QCOMPARE(r->adoptions[k].qAfter, stored.adoptions[k].qAfter);
            }
        }
        for (size_t i = 0; i < its.size(); ++i) {
            auto stored = agent::toJson(its[i]);
            for (const char* k : {"index", "stage", "move", "source", "diff", "status", "cycles", "reward", "adoptions"})
                QVERIFY2(stored[k] == seen[i][k], k);
        }
        // Adoption-aware credit: only entries with weight > 0 moved.
        bool sawAdoption = false;
        for (const auto& it : its)
            for (const auto& a : it.adoptions) {
                if (!a.weight) {  // declared without a credit report (nothing retrieved was assessed)
                    QVERIFY(!a.qBefore && !a.qAfter);
                    continue;
                }
                if (*a.weight > 0) sawAdoption = true;
                else QCOMPARE(a.qBefore.value_or(-1), a.qAfter.value_or(-2));
            }
        QVERIFY(sawAdoption);
    }

    void pauseStepEditResumeOnItsOwnThread() {
        agent::AgentSettings s = settings();
        s.budget = 4;
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        std::mutex m;
        std::vector<agent::AgentEvent> events;
        loop.addObserver([&](const agent::AgentEvent& e) {
            std::lock_guard<std::mutex> g(m);
            events.push_back(e);
        });
        auto count = [&](agent::AgentEventType t) {
            std::lock_guard<std::mutex> g(m);
            return std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.type == t; });
        };
        loop.start(task("vtune"), dbPath("thread.db"), /*startPaused=*/true);
        QTRY_COMPARE_WITH_TIMEOUT(int(loop.state()), int(agent::AgentLoop::State::Paused), 10000);
        QCOMPARE(count(agent::AgentEventType::IterationFinished), 0L);
        loop.step();  // one iteration, then paused again
        QTRY_COMPARE_WITH_TIMEOUT(count(agent::AgentEventType::IterationFinished), 1L, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(int(loop.state()), int(agent::AgentLoop::State::Paused), 10000);
        // Stays paused: no time to wait out. The edit is only taken while paused, and it must be the
        // second iteration (its[1] below); an iteration of the agent's own after the step would come first.
        QCOMPARE(count(agent::AgentEventType::IterationFinished), 1L);
        // The engineer edits: four blocks instead of one.
        std::string edited = task("vtune").baselineSource;
        auto ts = agent::parseTunables(edited);
        edited = agent::setTunable(edited, ts[2], 4);
        QVERIFY(loop.submitEdit(edited));
        loop.resume();
        loop.wait();
        auto sum = loop.summary();
        QVERIFY(sum.has_value());
        auto db = openDb("thread.db");
        agent::RunStore runs(db);
        auto its = runs.iterations(sum->runId);
        QVERIFY(its.size() >= 3);
        QCOMPARE(its[1].origin, std::string("human"));
        QCOMPARE(its[1].source, edited);
        QVERIFY(its[1].correct);
        QCOMPARE(its[2].parent, 1);  // the loop continued from the engineer's candidate
        QCOMPARE(its[2].origin, std::string("policy"));
    }

    void anEditIsRefusedUnlessPaused() {
        agent::AgentSettings s = settings();
        s.budget = 2;
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        QVERIFY(!loop.submitEdit("before the run"));  // idle
        loop.start(task("vtune"), dbPath("edit.db"), /*startPaused=*/true);
        QTRY_COMPARE_WITH_TIMEOUT(int(loop.state()), int(agent::AgentLoop::State::Paused), 10000);
        loop.resume();
        loop.wait();
        QCOMPARE(int(loop.state()), int(agent::AgentLoop::State::Finished));
        QVERIFY(!loop.submitEdit("after the run"));  // finished
    }

    void cancelKillsAnInFlightEvaluation() {
        agent::AgentSettings s = settings();
        s.evalTimeoutSeconds = 600;  // far longer than the test: only the cancel can end the evaluation
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        std::atomic<int> evaluationsDone{0}, started{0};
        loop.addObserver([&](const agent::AgentEvent& e) {
            if (e.type == agent::AgentEventType::IterationStarted) ++started;
            if (e.type == agent::AgentEventType::EvaluationDone) ++evaluationsDone;
        });
        loop.start(task("vhang"), dbPath("cancel.db"));
        QTRY_COMPARE_WITH_TIMEOUT(started.load(), 1, 30000);  // the draft's evaluation is under way
        loop.cancel();
        loop.wait();  // returns although the kernel never ends by itself
        QVERIFY(loop.summary()->status == agent::AgentRunStatus::Cancelled);
        auto db = openDb("cancel.db");
        agent::RunStore runs(db);
        auto its = runs.iterations(loop.summary()->runId);
        QVERIFY(its.size() <= 1);
        if (!its.empty()) QCOMPARE(std::string(toString(its[0].status)), std::string(toString(agent::IterationStatus::Cancelled)));
        QVERIFY(runs.run(loop.summary()->runId)->status == agent::AgentRunStatus::Cancelled);
    }

    // The frontier: when the policy has no further move from the best candidate, the run goes on
    // from the next correct one instead of ending.
    void frontierMovesOnWhenThePolicyIsExhaustedOnANode() {
        const std::string a = task("vtune").baselineSource;
        const auto ts = agent::parseTunables(a);
        const std::string fast = agent::setTunable(a, ts[2], 4);      // four blocks: the best
        const std::string other = agent::setTunable(a, ts[0], 2);     // double buffering from the draft
        auto policy = std::make_unique<ScriptedPolicy>([&](const agent::PolicyContext& ctx) {
            if (ctx.stage == memory::Stage::Draft) return candidate(a, "draft");
            if (ctx.parentSource == a && !std::count(ctx.triedMoves.begin(), ctx.triedMoves.end(), agent::sourceKey(fast)))
                return candidate(fast, "blocks 1 -> 4");
            if (ctx.parentSource == a && !std::count(ctx.triedMoves.begin(), ctx.triedMoves.end(), agent::sourceKey(other)))
                return candidate(other, "buffer_num 1 -> 2");
            return exhausted();
        });
        auto* script = policy.get();
        agent::AgentSettings s = settings();
        s.budget = 10;
        auto db = openDb("frontier.db");
        agent::RunStore runs(db);
        agent::AgentLoop loop(*evaluator_, std::move(policy), s);
        auto sum = loop.run(task("vtune"), runs, nullptr);
        auto its = runs.iterations(sum.runId);
        // draft, blocks from the draft, buffering from the draft (after the best was exhausted), and
        // the last ask, stored: no move from iteration 2 (next in cycle order), then none from 0.
        QCOMPARE(its.size(), size_t(4));
        QVERIFY(its[1].correct && its[2].correct);
        QVERIFY(its[1].cycles < its[0].cycles);
        QCOMPARE(its[1].parent, 0);
        // Asked from the best (iteration 1), exhausted there; the frontier moved back to iteration 0.
        QCOMPARE(its[2].parent, 0);
        QCOMPARE(its[2].source, other);
        QVERIFY2(its[2].rationale.find("no further move from iteration 1") != std::string::npos, its[2].rationale.c_str());
        QCOMPARE(std::string(toString(its[3].status)), std::string(toString(agent::IterationStatus::Exhausted)));
        QVERIFY2(its[3].rationale.find("no further move from iteration 2; continuing from iteration 0") != std::string::npos,
                 its[3].rationale.c_str());
        bool askedFromBest = false;
        for (const auto& [stage, parent] : script->asked) askedFromBest |= parent == fast;
        QVERIFY(askedFromBest);
        // Every node exhausted: the run ends saying so, not "budget exhausted".
        QVERIFY2(sum.stopReason.find("no open candidate") != std::string::npos, sum.stopReason.c_str());
        QCOMPARE(sum.bestIteration, 1);
    }

    void anEvaluatedSourceIsNeverEvaluatedTwice() {
        const std::string a = task("vtune").baselineSource;
        const std::string b = agent::setTunable(a, agent::parseTunables(a)[2], 4);
        auto policy = std::make_unique<ScriptedPolicy>([&](const agent::PolicyContext& ctx) {
            if (ctx.stage == memory::Stage::Draft) return candidate(a, "draft");
            return candidate(b, "blocks 1 -> 4");  // the same proposal every time (a forgetful model)
        });
        agent::AgentSettings s = settings();
        s.budget = 6;
        s.patience = 3;
        auto [sum, its, evaluations] = runCounting(std::move(policy), s, "dup.db");
        QCOMPARE(evaluations, 2);  // a and b, once each
        QVERIFY(its.size() >= 3);
        QCOMPARE(its[1].duplicateOf, -1);
        for (size_t i = 2; i < its.size(); ++i) {
            QCOMPARE(its[i].duplicateOf, 1);
            QCOMPARE(its[i].source, b);
            QCOMPARE(its[i].cycles, its[1].cycles);  // the earlier result, reused
        }
        // Duplicates are iterations without gain: patience ends the run before the budget.
        QCOMPARE(int(its.size()), 1 + 1 + s.patience);
        QVERIFY2(sum.stopReason.find("no improvement") != std::string::npos, sum.stopReason.c_str());
        QCOMPARE(sum.duplicates, s.patience);
        QCOMPARE(sum.evaluations, 2);
    }

    // While a candidate is evaluated, the policy's likely next candidate is compiled on the core
    // the compile leaves idle: its own evaluation then starts from a compile-cache hit. Off, it
    // compiles from scratch. Either way the loop evaluates exactly what the policy proposed.
    // While a candidate that does not gain is evaluated (here: a comment-only edit, same cycles),
    // the policy's likely next candidate is compiled, so its evaluation starts from a cache hit.
    void theLikelyNextCandidateIsCompiledWhileThisOneRuns() {
        for (bool speculate : {true, false}) {
            const std::string nonce = "// speculation test " + std::to_string(speculate) + " " +
                                      QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString() + "\n";
            const std::string a = task("vtune").baselineSource + nonce;
            const std::string same = a + "// the same kernel, reworded\n";
            const std::string b = agent::setTunable(a, agent::parseTunables(a)[2], 4);
            const std::string never = agent::setTunable(a, agent::parseTunables(a)[2], 8);
            auto policy = std::make_unique<ScriptedPolicy>([&](const agent::PolicyContext& ctx) {
                if (ctx.stage == memory::Stage::Draft) return candidate(a, "draft");
                if (ctx.history.size() == 1) {
                    auto p = candidate(same, "comment only");
                    p.likelyNext = b;
                    return p;
                }
                if (ctx.history.size() == 2) {
                    auto p = candidate(b, "blocks 1 -> 4");
                    p.likelyNext = never;  // speculated, never proposed: not evaluated
                    return p;
                }
                return exhausted();
            });
            agent::AgentSettings s = settings();
            s.speculate = speculate;
            auto [sum, its, evaluations] = runCounting(std::move(policy), s, speculate ? "speculate-on.db" : "speculate-off.db");
            QVERIFY(its.size() >= 3);
            QCOMPARE(evaluations, 3);
            QCOMPARE(its[1].cycles, its[0].cycles);  // no gain: the parent stays, so b is what comes next
            QCOMPARE(its[2].source, b);
            QVERIFY(its[2].correct);
            QVERIFY(its[1].evaluation && its[2].evaluation);
            QCOMPARE(its[1].evaluation->compile.cached, false);
            QCOMPARE(its[2].evaluation->compile.cached, speculate);
        }
    }

    void policyErrorsCountTowardPatience() {
        const std::string a = task("vtune").baselineSource;
        auto policy = std::make_unique<ScriptedPolicy>([&](const agent::PolicyContext& ctx) {
            if (ctx.stage == memory::Stage::Draft) return candidate(a, "draft");
            agent::PolicyProposal p;
            p.error = "HTTP 503 from the model server";
            return p;
        });
        agent::AgentSettings s = settings();
        s.budget = 50;
        s.patience = 3;
        auto db = openDb("errors.db");
        agent::RunStore runs(db);
        agent::AgentLoop loop(*evaluator_, std::move(policy), s);
        auto sum = loop.run(task("vtune"), runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(int(its.size()), 1 + s.patience);
        for (size_t i = 1; i < its.size(); ++i) QCOMPARE(std::string(toString(its[i].status)), std::string(toString(agent::IterationStatus::PolicyError)));
        QVERIFY2(sum.stopReason.find("3 policy calls in a row failed") != std::string::npos, sum.stopReason.c_str());
        QVERIFY(sum.stopReason.find("HTTP 503") != std::string::npos);
        QCOMPARE(sum.policyErrors, 3);
        QCOMPARE(sum.firstCorrectIteration, 0);
    }

    void aRunStartsFromTheGivenKernel() {
        const std::string mine = agent::setTunable(task("vtune").baselineSource, agent::parseTunables(task("vtune").baselineSource)[2], 4);
        agent::AgentSettings s = settings();
        s.budget = 3;
        auto db = openDb("start.db");
        agent::RunStore runs(db);
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        loop.setStartCandidate(mine, "file mine.cpp");
        auto sum = loop.run(task("vtune"), runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QVERIFY(its.size() >= 2);
        QCOMPARE(its[0].origin, std::string("engineer"));
        QCOMPARE(its[0].source, mine);
        QCOMPARE(its[0].move, std::string("start from file mine.cpp"));
        QVERIFY(its[0].correct && its[0].evaluation);
        QCOMPARE(its[1].parent, 0);
        QVERIFY(its[1].stage == memory::Stage::Optimize);
        QVERIFY(sum.draftCorrect);
    }

    void sageRunKernelStartsFromTheFileAndRefusesADirectory() {
        const QString db = dir_.path() + "/cli.db";
        const QString file = dir_.path() + "/start_kernel.cpp";
        const std::string mine = agent::setTunable(task("vtune").baselineSource, agent::parseTunables(task("vtune").baselineSource)[0], 2);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(mine.c_str());
        }
        auto sage = [&](const QStringList& args, QString* out, QString* err) {
            QProcess p;
            p.start(QStringLiteral(SAGE_CLI_PATH), args);
            if (!p.waitForFinished(600000)) p.kill();
            *out = QString::fromUtf8(p.readAllStandardOutput());
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        const QStringList common = {"run", "--tasks", QStringLiteral(SAGE_TEST_DATA_DIR) + "/tasks", "--task", "vtune",
                                    "--memory-mode", "off", "--db", db, "--budget", "2", "--json"};
        QString out, err;
        QCOMPARE(sage(common + QStringList{"--kernel", dir_.path()}, &out, &err), 2);
        QVERIFY2(err.contains("is a directory"), qPrintable(err));
        QCOMPARE(sage(common + QStringList{"--kernel", dir_.path() + "/missing.cpp"}, &out, &err), 2);
        QVERIFY2(err.contains("does not exist"), qPrintable(err));
        QCOMPARE(sage(common + QStringList{"--kernel", file}, &out, &err), 0);
        const auto summary = nlohmann::json::parse(out.toStdString());
        QVERIFY(summary["draft_correct"].get<bool>());
        auto runsDb = openDb("cli.db");
        agent::RunStore runs(runsDb);
        auto its = runs.iterations(summary["run_id"].get<int64_t>());
        QVERIFY(!its.empty());
        QCOMPARE(its[0].origin, std::string("engineer"));
        QCOMPARE(its[0].source, mine);
    }

    void workFoldersOfDeadEvaluationsAreRemoved() {
        namespace fs = std::filesystem;
        const pid_t child = fork();
        if (child == 0) _exit(0);
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        const fs::path tmp = (dir_.path() + "/tmp").toStdString(), cache = (dir_.path() + "/stalecache").toStdString();
        const fs::path oldRun = tmp / "sage-run-old", newRun = tmp / "sage-run-new", other = tmp / "not-ours";
        const fs::path deadCompile = cache / "kernels" / ("abc.tmp." + std::to_string(child) + ".7");
        const fs::path liveCompile = cache / "kernels" / ("abc.tmp." + std::to_string(getpid()) + ".7");
        const fs::path entry = cache / "kernels" / "abc";
        const fs::path deadOutputs = cache / "runs" / ("outputs.tmp." + std::to_string(child) + ".3");
        const fs::path liveOutputs = cache / "runs" / ("outputs.tmp." + std::to_string(getpid()) + ".3");
        for (const auto& d : {oldRun, newRun, other, deadCompile, liveCompile, entry, deadOutputs, liveOutputs})
            fs::create_directories(d);
        std::ofstream(oldRun / "in_0_x.bin") << "leftover";
        // A run-cache blob staged as a file (linked or written, not yet renamed into place).
        fs::create_directories(cache / "runs" / "blobs");
        const fs::path deadBlob = cache / "runs" / "blobs" / ("f00d.tmp." + std::to_string(child) + ".1");
        const fs::path liveBlob = cache / "runs" / "blobs" / ("f00d.tmp." + std::to_string(getpid()) + ".1");
        const fs::path storedBlob = cache / "runs" / "blobs" / "f00d.bin";
        for (const auto& f : {deadBlob, liveBlob, storedBlob}) std::ofstream(f) << "bytes";
        const auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
        fs::last_write_time(oldRun, hourAgo);
        fs::last_write_time(other, hourAgo);
        const QByteArray savedTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", QByteArray::fromStdString(tmp.string()));
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.cacheDir = cache.string();
        const size_t removed = toolchain::removeStaleWorkDirs(paths, std::chrono::minutes(15));
        if (savedTmp.isEmpty()) qunsetenv("TMPDIR");
        else qputenv("TMPDIR", savedTmp);
        QCOMPARE(removed, size_t(4));
        QVERIFY(!fs::exists(oldRun) && !fs::exists(deadCompile) && !fs::exists(deadOutputs) && !fs::exists(deadBlob));
        QVERIFY(fs::exists(liveBlob) && fs::exists(storedBlob));
        QVERIFY(fs::exists(liveOutputs));
        QVERIFY(fs::exists(newRun));       // may belong to a live evaluation
        QVERIFY(fs::exists(liveCompile));  // its process (this one) is alive
        QVERIFY(fs::exists(other) && fs::exists(entry));  // not ours to touch
    }

    void runsOfADeadProcessAreMarkedInterruptedAtOpen() {
        const pid_t child = fork();
        if (child == 0) _exit(0);
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);  // its pid now names no process
        const pid_t zombie = fork();  // ended but not reaped yet: still dead
        if (zombie == 0) _exit(0);
        QVERIFY(zombie > 0);
        QTRY_VERIFY(!toolchain::processAlive(zombie));
        {
            auto db = openDb("killed.db");
            agent::RunStore runs(db);
            agent::RunRecord dead;
            dead.task = "vtune";
            dead.device = "ascend910b1-sim";
            dead.policy = "builtin";
            dead.memoryMode = "off";
            dead.status = agent::AgentRunStatus::Running;
            dead.settings = nlohmann::json::object();
            dead.ownerPid = child;
            agent::RunRecord live = dead;
            live.ownerPid = getpid();
            agent::RunRecord killed = dead;
            killed.ownerPid = zombie;
            QVERIFY(runs.createRun(dead) > 0);
            QVERIFY(runs.createRun(live) > 0);
            QVERIFY(runs.createRun(killed) > 0);
            QVERIFY(runs.interruptedAtOpen().empty());
        }
        auto db = openDb("killed.db");
        agent::RunStore runs(db);
        QCOMPARE(runs.interruptedAtOpen().size(), size_t(2));
        const auto all = runs.runs();
        QCOMPARE(all.size(), size_t(3));
        QVERIFY(all[0].status == agent::AgentRunStatus::Interrupted);
        QVERIFY(all[0].stopReason.find("killed or crashed") != std::string::npos);
        QVERIFY(!all[0].finishedAt.empty());
        QVERIFY(all[1].status == agent::AgentRunStatus::Running);  // this process is alive: not touched
        QVERIFY(all[2].status == agent::AgentRunStatus::Interrupted);
        QCOMPARE(waitpid(zombie, &status, 0), zombie);
    }

    // An iteration's status is stored by its name (the spelling earlier versions wrote, so their
    // databases load); a name no version wrote reads as error, and the record's error keeps it.
    void iterationStatusIsStoredByName() {
        QCOMPARE(std::string(toString(agent::iterationStatusOf(toolchain::RunStatus::Timeout))), std::string("timeout"));
        for (int i = 0; i <= int(agent::IterationStatus::Exhausted); ++i) {
            const auto status = agent::IterationStatus(i);
            QVERIFY2(agent::parseIterationStatus(toString(status)) == status, std::string(toString(status)).c_str());
        }
        auto db = openDb("status.db");
        agent::RunStore runs(db);
        agent::RunRecord run;
        run.task = "vtune";
        run.status = agent::AgentRunStatus::Finished;
        run.settings = nlohmann::json::object();
        const int64_t runId = runs.createRun(run);
        agent::IterationRecord it;
        it.runId = runId;
        it.evaluation = eval::Evaluation{};
        it.evaluation->compile.ok = true;
        it.evaluation->profile.present = true;
        it.evaluation->profile.totalCycles = 4321;
        it.timings = nlohmann::json::object();
        it.status = agent::IterationStatus::WrongResult;
        runs.addIteration(it);
        it.index = 1;
        it.status = agent::IterationStatus::PolicyError;
        it.error = "HTTP 500";
        runs.addIteration(it);
        auto st = db->prepare("SELECT status FROM agent_iteration WHERE run_id=? ORDER BY idx");
        st.bind(1, runId);
        QVERIFY(st.step());
        QCOMPARE(st.text(0), std::string("wrong_result"));
        db->exec("UPDATE agent_iteration SET status='vanished' WHERE idx=1 AND run_id=" + std::to_string(runId));
        db->exec("UPDATE agent_iteration SET evaluation='{\"compile\": {' WHERE idx=0 AND run_id=" + std::to_string(runId));
        const auto back = runs.iterations(runId);
        QCOMPARE(back.size(), size_t(2));
        // The evaluation reads back typed; a damaged one reads as none instead of failing the listing.
        QVERIFY(!back[0].evaluation);
        QVERIFY(back[1].evaluation && back[1].evaluation->compile.ok);
        QCOMPARE(back[1].evaluation->profile.totalCycles, uint64_t(4321));
        QCOMPARE(std::string(toString(back[0].status)), std::string(toString(agent::IterationStatus::WrongResult)));
        QCOMPARE(std::string(toString(back[1].status)), std::string(toString(agent::IterationStatus::Error)));
        QVERIFY2(back[1].error.find("'vanished'") != std::string::npos && back[1].error.find("HTTP 500") != std::string::npos,
                 back[1].error.c_str());

        // The run's own status likewise: every name reads back, and one no version wrote reads as
        // failed with the stop reason saying what was stored.
        for (int i = 0; i <= int(agent::AgentRunStatus::Interrupted); ++i) {
            const auto status = agent::AgentRunStatus(i);
            QVERIFY2(agent::parseAgentRunStatus(toString(status)) == status, std::string(toString(status)).c_str());
        }
        QVERIFY(runs.runs().at(0).status == agent::AgentRunStatus::Finished);
        db->exec("UPDATE agent_run SET status='paused_forever', stop_reason='budget' WHERE id=" + std::to_string(runId));
        const auto stored = runs.runs().at(0);
        QVERIFY(stored.status == agent::AgentRunStatus::Failed);
        QVERIFY2(stored.stopReason.find("'paused_forever'") != std::string::npos && stored.stopReason.find("budget") != std::string::npos,
                 stored.stopReason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAgentLoop)
#include "test_agent_loop.moc"
