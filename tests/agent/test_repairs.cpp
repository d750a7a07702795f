// Repairs of the built-in policy: each diagnostic kind is injected into a small kernel written
// for this test, and one proposal of the policy (memory off, repair stage) must turn it into a
// kernel that compiles and verifies through the real pipeline. The distilled lesson carries the
// executed action, so it repairs the same failure again when retrieved.
#include "TransformFixture.h"
#include "repair/SourceScope.h"

using namespace sage;
using test::replaced;

class TestRepairs : public QObject {
    Q_OBJECT
    test::Pipeline p_;
    std::string sample_, barrier_;

    // Evaluates `broken`, checks it fails with `kind`, proposes one repair and checks it verifies.
    void repairsInOne(const char* task, const std::string& broken, const std::string& kind, const std::string& moveHas) {
        auto before = p_.evaluate(task, broken);
        QVERIFY2(!before.success(), kind.c_str());
        QVERIFY2(test::hasKind(before, kind) || (kind == "wrong_result" && before.run.status == toolchain::RunStatus::Ok && !before.verify.pass),
                 before.toJson().dump(1).substr(0, 3000).c_str());
        auto prop = p_.propose(task, broken, before, memory::Stage::Repair);
        QVERIFY2(prop.ok, (prop.error + "\n" + before.toJson()["compile"].dump(1).substr(0, 2000)).c_str());
        QVERIFY2(prop.move.find(moveHas) != std::string::npos, prop.move.c_str());
        auto after = p_.evaluate(task, prop.source);
        QVERIFY2(after.success(), (prop.move + "\n" + after.toJson().dump(1).substr(0, 3000)).c_str());
    }

private slots:
    void initTestCase() {
        p_.init();
        QVERIFY(p_.tasks.find("sadd") && p_.tasks.find("tadd"));
        sample_ = p_.task("sadd").baselineSource;
        barrier_ = test::readData("barrier_add.cpp");
        QVERIFY(!barrier_.empty());
    }

    void compileErrorMisspelledApi() {
        repairsInOne("sadd", replaced(sample_, "Add(c, a, b, TILE_LENGTH);", "Addd(c, a, b, TILE_LENGTH);"), "compile_error",
                     "'Addd' -> 'Add'");
    }
    void compileErrorMissingTemplateArgument() {
        repairsInOne("sadd", replaced(sample_, "LocalTensor<half> c = qz.DeQue<half>();", "LocalTensor<half> c = qz.DeQue();"),
                     "compile_error", "DeQue<half>");
    }
    void capacityExceeded() {
        repairsInOne("sadd", replaced(sample_, "TILE_NUM = 8;", "TILE_NUM = 1;"), "capacity_exceeded", "tile_num 1 -> 2");
    }
    void raceBetweenCopyInAndVector() {
        // Without the first barrier the add reads what MTE2 is still writing.
        std::string broken = replaced(barrier_, "        PipeBarrier<PIPE_ALL>();\n        Add(", "        Add(");
        repairsInOne("tadd", broken, "race_raw", "MTE2->V");
    }
    void raceBetweenVectorAndCopyOut() {
        std::string broken = replaced(barrier_, "        PipeBarrier<PIPE_ALL>();\n        DataCopyPad(zGm", "        DataCopyPad(zGm");
        repairsInOne("tadd", broken, "race_raw", "V->MTE3");
    }
    void deadlockWaitWithoutSet() {
        std::string broken = replaced(barrier_, "        PipeBarrier<PIPE_ALL>();\n        Add(",
                                      "        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        Add(");
        repairsInOne("tadd", broken, "deadlock", "SetFlag before");
    }
    void flagSetTwiceBeforeItsWait() {
        std::string broken = replaced(barrier_, "        PipeBarrier<PIPE_ALL>();\n        Add(",
                                      "        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
                                      "        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        Add(");
        repairsInOne("tadd", broken, "flag_unpaired", "WaitFlag before");
    }
    void unalignedTailCopy() {
        repairsInOne("tadd", p_.task("tadd").baselineSource, "wrong_result", "DataCopyPad");
    }

    // The seed pack's repair entries carry the same executable actions: retrieved for a failure of
    // their diagnostic kind, the policy adopts one and the kernel verifies.
    void seedRepairEntriesAreExecutable() {
        std::ifstream in(std::string(SAGE_SOURCE_DIR) + "/resources/memory/seed.jsonl");
        QVERIFY(in.good());
        std::vector<nlohmann::json> entries;
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) entries.push_back(nlohmann::json::parse(line));
        const std::string noFirstBarrier = "        PipeBarrier<PIPE_ALL>();\n        Add(";
        const std::vector<std::tuple<std::string, const char*, std::string>> cases = {
            {"race_raw", "tadd", replaced(barrier_, noFirstBarrier, "        Add(")},
            {"deadlock", "tadd", replaced(barrier_, noFirstBarrier, "        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        Add(")},
            {"flag_unpaired", "tadd",
             replaced(barrier_, noFirstBarrier,
                      "        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
                      "        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n        Add(")},
            {"compile_error", "sadd", replaced(sample_, "Add(c, a, b, TILE_LENGTH);", "Addd(c, a, b, TILE_LENGTH);")},
            {"datacopy_not_32b_multiple", "tadd", p_.task("tadd").baselineSource},
        };
        for (const auto& [kind, task, broken] : cases) {
            auto before = p_.evaluate(task, broken);
            agent::PolicyContext ctx;
            ctx.task = &p_.task(task);
            ctx.device = &p_.device();
            ctx.stage = memory::Stage::Repair;
            ctx.parentSource = broken;
            ctx.parentEvaluation = &before;
            int64_t id = 0;
            for (size_t i = 0; i < entries.size(); ++i)
                if (entries[i]["trigger"].value("diagnostic", "") == kind && entries[i]["action"].is_object()) {
                    memory::ScoredExperience r;
                    r.experience.id = int64_t(i + 1);
                    r.experience.action = entries[i]["action"];
                    r.score = 1.0 - 0.01 * double(ctx.retrieved.size());
                    ctx.retrieved.push_back(r);
                }
            QVERIFY2(!ctx.retrieved.empty(), ("no seed entry with an action for " + kind).c_str());
            agent::BuiltinPolicy policy;
            auto prop = policy.propose(ctx);
            QVERIFY2(prop.ok && !prop.adoptedIds.empty(), (kind + ": " + prop.error + " " + prop.rationale).c_str());
            id = prop.adoptedIds.front();
            auto after = p_.evaluate(task, prop.source);
            QVERIFY2(after.success(), (kind + " via " + entries[size_t(id - 1)]["title"].get<std::string>()).c_str());
        }
    }

    void apiUnsupportedOnTheDevice() {
        // DataCopyPad does not exist on 310P: the compile fails in the API header.
        auto before = p_.evaluate("tadd", barrier_, "ascend310p3-sim");
        QVERIFY(!before.compile.ok);
        QVERIFY(before.toJson().dump().find("not supported on this device") != std::string::npos);
        auto prop = p_.propose("tadd", barrier_, before, memory::Stage::Repair, "ascend310p3-sim");
        QVERIFY2(prop.ok, prop.error.c_str());
        QCOMPARE(prop.source.find("DataCopyPad("), std::string::npos);
        auto after = p_.evaluate("tadd", prop.source, "ascend310p3-sim");
        QVERIFY2(after.success(), (prop.move + "\n" + after.toJson().dump(1).substr(0, 3000)).c_str());
        // On 910B the same kernel is left alone.
        std::string why;
        QVERIFY(!agent::BuiltinPolicy::apply(barrier_, {{"type", "transform"}, {"name", "replace_datacopy_pad"}}, &before,
                                             &p_.device(), &why));
    }

    void noRepairForAKindWithoutOne() {
        // A block's GlobalTensor base shifted in SetGlobalBuffer: every access of the tensor uses the
        // same index as the others (gm_offset_consensus refuses) and there is no tail to pad, so no
        // repair applies and the policy says so instead of guessing.
        auto ev = p_.evaluate("sadd", replaced(sample_, "BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);\n        yGm",
                                               "BLOCK_LENGTH * GetBlockIdx() + 64, BLOCK_LENGTH);\n        yGm"));
        QVERIFY(!ev.success());
        auto prop = p_.propose("sadd", sample_, ev, memory::Stage::Repair);
        QVERIFY(!prop.ok);
        QVERIFY(prop.exhausted);
    }

    // The function-scope reader the inserting repairs use: braces in comments and strings do not
    // count, control statements are not functions, and unbalanced text gives "not found".
    void sourceScopeReadsFunctionsAndToleratesHostileText() {
        using agent::repair::enclosingFunction;
        using agent::repair::lastMention;
        const std::vector<std::string> lines = {
            "class K {",                                      // 0
            "    __aicore__ inline void CopyIn(uint32_t n) {",  // 1
            "        auto t = q.AllocTensor<half>();  // { not a brace",  // 2
            "        if (n > 0) {",                           // 3
            "            DataCopy(t, g[0], n);",              // 4
            "        }",                                      // 5
            "        const char* s = \"}\";",                 // 6
            "    }",                                          // 7
            "};"};                                            // 8
        auto fn = enclosingFunction(lines, 4);
        QVERIFY(fn);
        QCOMPARE(fn->first, size_t(1));
        QCOMPARE(fn->second, size_t(7));
        QCOMPARE(*lastMention(lines, 2, 7, "t"), size_t(4));
        QVERIFY(!lastMention(lines, 2, 7, "nothing"));
        QVERIFY(!enclosingFunction(lines, 0));    // the class line is in no function
        QVERIFY(!enclosingFunction(lines, 99));   // outside the text
        QVERIFY(!enclosingFunction({"}", "void f() {", "x;"}, 2));  // unbalanced
        QVERIFY(!enclosingFunction({}, 0));
    }

    void distilledLessonIsExecutable() {
        std::string broken = replaced(barrier_, "        PipeBarrier<PIPE_ALL>();\n        Add(", "        Add(");
        auto before = p_.evaluate("tadd", broken);
        agent::PolicyContext ctx;
        ctx.task = &p_.task("tadd");
        ctx.device = &p_.device();
        ctx.stage = memory::Stage::Repair;
        ctx.parentSource = broken;
        ctx.parentEvaluation = &before;
        agent::BuiltinPolicy policy;
        auto prop = policy.propose(ctx);
        QVERIFY(prop.ok);
        auto after = p_.evaluate("tadd", prop.source);
        QVERIFY(after.success());
        auto lesson = policy.distill(ctx, prop, before, after);
        QVERIFY(lesson);
        QCOMPARE(lesson->kind, std::string("repair_rule"));
        QCOMPARE(lesson->action, prop.action);
        QVERIFY(lesson->title.find("race_raw") != std::string::npos);
        // Retrieved later, the lesson's action is applied and reproduces the repair.
        memory::ScoredExperience r;
        r.experience.id = 42;
        r.experience.action = lesson->action;
        r.score = 1.0;
        ctx.retrieved = {r};
        auto again = policy.propose(ctx);
        QCOMPARE(again.adoptedIds, std::vector<int64_t>{42});
        QCOMPARE(again.source, prop.source);
    }
};

QTEST_GUILESS_MAIN(TestRepairs)
#include "test_repairs.moc"
