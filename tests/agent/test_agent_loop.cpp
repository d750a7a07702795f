// The agent loop with the built-in policy: draft -> optimise -> a move that overflows UB -> its
// repair -> more optimisation; pause, step, resume, cancel and edit-then-resume from another
// thread; a replay equals what the observers saw; adoption-aware credit in the stored run.
#include "sage_agent/AgentLoop.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/Tunables.h"
#include "sage_memory/MemorySchema.h"

#include <QtTest>

#include <mutex>

using namespace sage;

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

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.binDir = SAGE_TEST_BIN_DIR;
        paths.cacheDir = (dir_.path() + "/cache").toStdString();
        evaluator_ = std::make_unique<eval::Evaluator>(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
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
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), settings(memory::MemoryMode::Adoption));
        auto sum = loop.run(task("vtune"), runs, &mem);
        auto its = runs.iterations(sum.runId);
        QVERIFY(its.size() >= 6);
        QCOMPARE(its[0].stage, std::string("draft"));
        QVERIFY(its[0].correct);
        int broken = -1;
        for (const auto& it : its)
            if (it.status == "sim_error" && it.evaluation.dump().find("capacity_exceeded") != std::string::npos) {
                broken = it.index;
                break;
            }
        QVERIFY2(broken > 0, "the memory entry should have grown the tile past the UB");
        QCOMPARE(its[size_t(broken)].stage, std::string("optimize"));
        QCOMPARE(its[size_t(broken + 1)].stage, std::string("repair"));
        QVERIFY(its[size_t(broken + 1)].correct);
        QCOMPARE(its[size_t(broken + 1)].parent, broken);
        bool optimisedAfter = false;
        for (size_t i = size_t(broken + 2); i < its.size(); ++i) optimisedAfter |= its[i].stage == "optimize";
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
        loop.addObserver([&](const agent::AgentEvent& e) {
            if (e.type == agent::AgentEventType::IterationFinished) seen.push_back(e.data);
        });
        auto sum = loop.run(task("vtune"), runs, &mem);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), seen.size());
        for (size_t i = 0; i < its.size(); ++i) {
            auto stored = agent::toJson(its[i]);
            for (const char* k : {"index", "stage", "move", "source", "diff", "status", "cycles", "reward", "adoptions"})
                QVERIFY2(stored[k] == seen[i][k], k);
        }
        // Adoption-aware credit: only entries with weight > 0 moved.
        bool sawAdoption = false;
        for (const auto& it : its)
            for (const auto& a : it.adoptions) {
                if (a["weight"].get<double>() > 0) sawAdoption = true;
                else QCOMPARE(a["q_before"].get<double>(), a["q_after"].get<double>());
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
        QVERIFY(!loop.submitEdit("not while running?") || loop.state() == agent::AgentLoop::State::Paused);
        loop.step();  // one iteration, then paused again
        QTRY_COMPARE_WITH_TIMEOUT(count(agent::AgentEventType::IterationFinished), 1L, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(int(loop.state()), int(agent::AgentLoop::State::Paused), 10000);
        QTest::qWait(300);
        QCOMPARE(count(agent::AgentEventType::IterationFinished), 1L);  // stays paused
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

    void cancelKillsAnInFlightEvaluation() {
        agent::AgentSettings s = settings();
        s.evalTimeoutSeconds = 60;
        agent::AgentLoop loop(*evaluator_, std::make_unique<agent::BuiltinPolicy>(), s);
        loop.start(task("vhang"), dbPath("cancel.db"));
        QTest::qWait(1500);  // the draft's evaluation is spinning in its sandbox
        QElapsedTimer t;
        t.start();
        loop.cancel();
        loop.wait();
        QVERIFY(t.elapsed() < 5000);
        QCOMPARE(loop.summary()->status, std::string("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestAgentLoop)
#include "test_agent_loop.moc"
