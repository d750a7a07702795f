// Structural transforms and knob inference of the built-in policy, each on source in -> source out
// -> compile -> verify through the real pipeline, including kernels a transform must refuse; and
// the sample-style add kernel (eight blocks, one buffer, no annotations) made >= 1.3x faster by a
// short sequence of the policy's own proposals.
#include "TransformFixture.h"

#include "sage_agent/KernelComposer.h"
#include "sage_agent/Tunables.h"
#include "transforms/KernelFacts.h"

#include <set>

using namespace sage;
using nlohmann::json;

class TestTransforms : public QObject {
    Q_OBJECT
    test::Pipeline p_;
    std::string sample_, tail_;

    std::optional<agent::BuiltinPolicy::Move> apply(const std::string& src, const json& action, std::string* why = nullptr,
                                                    const char* device = "ascend910b1-sim") {
        return agent::BuiltinPolicy::apply(src, action, nullptr, &p_.device(device), why);
    }
    static json transform(const char* name, const char* direction = nullptr) {
        json a = {{"type", "transform"}, {"name", name}};
        if (direction) a["direction"] = direction;
        return a;
    }

    // Drafts `name`, applies multi_core and checks the spread kernel verifies on more than one core
    // and is at least 4x faster. Returns the spread source ("" on failure).
    std::string spreadsAndSpeedsUp(const eval::TaskSet& suite, const char* name) {
        const eval::Task* task = suite.find(name);
        if (!task) return "";
        const auto draft = agent::composeDraft(*task, p_.device(), {});
        std::string why;
        auto m = draft.ok ? apply(draft.source, transform("multi_core"), &why) : std::nullopt;
        if (!m) {
            qWarning("%s: %s %s", name, draft.error.c_str(), why.c_str());
            return "";
        }
        eval::EvalRequest req;
        req.seeds = 1;
        req.source = draft.source;
        const auto before = p_.evaluator->evaluate(*task, req);
        req.source = m->source;
        const auto after = p_.evaluator->evaluate(*task, req);
        const bool ok = before.success() && after.success() && after.profile.coresUsed > 1 &&
                        after.profile.totalCycles * 4 < before.profile.totalCycles;
        if (!ok) qWarning("%s: %s", name, after.toJson().dump(1).substr(0, 3000).c_str());
        return ok ? m->source : "";
    }

private slots:
    void initTestCase() {
        p_.init();
        QVERIFY2(p_.tasks.find("sadd") && p_.tasks.find("tadd"), p_.tasks.errors.empty() ? "" : p_.tasks.errors[0].c_str());
        sample_ = p_.task("sadd").baselineSource;  // the sample-style add kernel
        tail_ = p_.task("tadd").baselineSource;    // any-length add with count-form copies
    }

    void knobsAreInferredWithoutAnnotations() {
        auto knobs = agent::inferKnobs(sample_);
        auto role = [&](const char* name) {
            auto k = agent::findTunable(knobs, name);
            return k ? k->role : std::string("<none>");
        };
        QCOMPARE(role("USE_CORE_NUM"), std::string("block"));  // passed as the launch's block_dim
        QCOMPARE(role("TILE_NUM"), std::string("tile_count"));
        QCOMPARE(role("BUFFER_NUM"), std::string("buffer"));
        QVERIFY(!agent::findTunable(knobs, "BLOCK_LENGTH"));  // derived, not a literal
        QCOMPARE(role("TOTAL_LENGTH"), std::string("<none>"));   // `48 * 8192` is not a literal either
        // UB the three queues reserve: 3 x 1 x (393216 / 8 / 8) halves.
        QCOMPARE(agent::kernel::ubBytes(sample_).value_or(-1), 3LL * 6144 * 2);
        // A literal launch argument and a runtime tile size.
        auto tk = agent::inferKnobs(tail_);
        QCOMPARE(agent::findTunable(tk, "block_dim")->value, 1LL);
        QCOMPARE(agent::findTunable(tk, "TILE")->role, std::string("tile"));
        // Hostile text never crashes and yields nothing.
        QVERIFY(agent::inferKnobs(std::string(5000, '(') + "constexpr int X = ;").empty());
        QVERIFY(!agent::kernel::evaluate("1 / 0", {}));
        QVERIFY(!agent::kernel::evaluate(std::string(300, '('), {}));
    }

    void setConstantRespectsTheUbBudgetAndExactSplits() {
        std::string why;
        QVERIFY(apply(sample_, {{"type", "set_constant"}, {"name", "USE_CORE_NUM"}, {"value", 16}}));
        QVERIFY(!apply(sample_, {{"type", "set_constant"}, {"name", "USE_CORE_NUM"}, {"value", 7}}, &why));
        QVERIFY2(why.find("BLOCK_LENGTH") != std::string::npos, why.c_str());  // 393216 / 7 is not even
        QVERIFY(!apply(sample_, {{"type", "set_constant"}, {"name", "TILE_NUM"}, {"value", 1}}, &why));
        QVERIFY2(why.find("UB") != std::string::npos, why.c_str());  // 3 x 96 KB
        QVERIFY(!apply(sample_, {{"type", "set_constant"}, {"name", "USE_CORE_NUM"}, {"value", 64}}, &why));
        QVERIFY2(why.find("cores") != std::string::npos, why.c_str());
        // Roles as names, and the old action types on inferred knobs.
        auto m = apply(sample_, {{"type", "step_tunable"}, {"name", "@tile_count"}, {"direction", "down"}});
        QVERIFY(m && m->source.find("TILE_NUM = 4;") != std::string::npos);
        QVERIFY(apply(sample_, {{"type", "scale_tunable"}, {"name", "BUFFER_NUM"}, {"factor", 2}}));
        QVERIFY(!apply(sample_, {{"type", "no_such_type"}, {"name", "BUFFER_NUM"}}));
        QVERIFY(!apply(sample_, json::array()));
    }

    void multiCoreRaisesBlockDimAndVerifies() {
        auto before = p_.evaluate("sadd", sample_);
        QVERIFY2(before.success(), before.toJson().dump(1).c_str());
        auto m = apply(sample_, transform("multi_core"));
        QVERIFY(m);
        QVERIFY2(m->source.find("USE_CORE_NUM = 48;") != std::string::npos, m->description.c_str());
        auto after = p_.evaluate("sadd", m->source);
        QVERIFY2(after.success(), after.toJson().dump(1).c_str());
        QCOMPARE(after.profile.coresUsed, 48u);
        // Down as well.
        auto fewer = apply(sample_, transform("multi_core", "down"));
        QVERIFY(fewer && fewer->source.find("USE_CORE_NUM = 4;") != std::string::npos);
        QVERIFY(p_.evaluate("sadd", fewer->source).success());
        // A single-core elementwise kernel gets the split written in (with exact tails first).
        auto exact = apply(tail_, transform("align_tail"));
        QVERIFY(exact);
        auto split = apply(exact->source, transform("multi_core"));
        QVERIFY(split);
        QVERIFY(split->source.find("GetBlockIdx()") != std::string::npos);
        auto spread = p_.evaluate("tadd", split->source);
        QVERIFY2(spread.success(), (spread.toJson().dump(1).substr(0, 3000) + split->source).c_str());
        QCOMPARE(spread.profile.coresUsed, 48u);
        // Refused: GlobalTensors of different lengths (not elementwise), or a length whose
        // definition it cannot find.
        std::string why;
        QVERIFY(!apply(test::replaced(exact->source, "zGm.SetGlobalBuffer((__gm__ half*)z, n);", "zGm.SetGlobalBuffer((__gm__ half*)z, 1);"),
                       transform("multi_core"), &why));
        QVERIFY2(why.find("GetBlockIdx") != std::string::npos && why.find("differ") != std::string::npos, why.c_str());
        QVERIFY(!apply(test::replaced(exact->source, "uint32_t n) {", "const uint32_t& n) {"), transform("multi_core"), &why));
        QVERIFY2(why.find("cannot find") != std::string::npos, why.c_str());
    }

    // The composer's drafts keep their length in a member set in Init: multi_core writes the split
    // there, on both devices, and the spread kernel verifies on every core it uses.
    void multiCoreSplitsTheComposersDraft() {
        const auto paths = toolchain::ToolPaths::fromEnvironment();
        const auto suite = eval::TaskSet::load({paths.resources + "/tasks"});
        const eval::Task* elu = suite.find("elu");
        QVERIFY(elu);
        for (const char* dev : {"ascend910b1-sim", "ascend310p3-sim"}) {
            const auto draft = agent::composeDraft(*elu, p_.device(dev), {});
            QVERIFY2(draft.ok, draft.error.c_str());
            QVERIFY(draft.source.find("GetBlockIdx") == std::string::npos);
            std::string why;
            auto m = apply(draft.source, transform("multi_core"), &why, dev);
            QVERIFY2(m, why.c_str());
            QVERIFY(m->source.find("GetBlockIdx()") != std::string::npos);
            eval::EvalRequest req;
            req.deviceId = dev;
            req.seeds = 1;
            req.source = draft.source;
            const auto before = p_.evaluator->evaluate(*elu, req);
            req.source = m->source;
            const auto after = p_.evaluator->evaluate(*elu, req);
            QVERIFY2(before.success() && after.success(), after.toJson().dump(1).substr(0, 3000).c_str());
            QVERIFY(after.profile.coresUsed > 1);
            QVERIFY(after.profile.totalCycles < before.profile.totalCycles);
        }
    }

    // Row-wise drafts (a reduction, a normalisation with a broadcast weight, a loss with an integer
    // target per row and a mean over the rows) deal their rows to the cores by GetBlockIdx, so
    // multi_core only raises BLOCK_DIM; a matmul draft gets a round-robin of its output tiles:
    // every core verifies its share, and it is faster.
    // A single-core row-wise kernel gets the split written in (sageRow0); one with a GlobalTensor
    // of any other length (a scalar result) is refused.
    void multiCoreSplitsTheRowsOfARowwiseDraft() {
        const auto paths = toolchain::ToolPaths::fromEnvironment();
        const auto suite = eval::TaskSet::load({paths.resources + "/tasks"});
        for (const char* name : {"row_max", "rmsnorm", "cross_entropy"}) {
            const std::string spread = spreadsAndSpeedsUp(suite, name);
            QVERIFY2(!spread.empty() && spread.find("BLOCK_DIM = 1;") == std::string::npos &&
                         spread.find("constexpr uint32_t BLOCK_DIM = ") != std::string::npos,
                     name);
        }
        // The matmul draft deals its output tiles round-robin itself; without that line (a cube
        // kernel on one core, as an engineer might write it) multi_core writes the deal in.
        const std::string gemm = spreadsAndSpeedsUp(suite, "gemm");
        QVERIFY(gemm.find("% GetBlockNum() != GetBlockIdx()) continue;") != std::string::npos);
        const auto gemmDraft = agent::composeDraft(*suite.find("gemm"), p_.device(), {});
        const std::string dealt = "            if (((m0 / TILE_M) * ((N + TILE_N - 1) / TILE_N) + n0 / TILE_N) % GetBlockNum() != "
                                  "GetBlockIdx()) continue;\n";
        const std::string oneCore = test::replaced(gemmDraft.source, dealt, "");
        QVERIFY(oneCore != gemmDraft.source && oneCore.find("GetBlockIdx") == std::string::npos);
        auto tiles = apply(oneCore, transform("multi_core"));
        QVERIFY(tiles && tiles->source.find("% AscendC::GetBlockNum() != AscendC::GetBlockIdx()) continue;") != std::string::npos);
        const eval::Task* rowMax = suite.find("row_max");
        const auto draft = agent::composeDraft(*rowMax, p_.device(), {});
        // The same kernel on one core, as an engineer might write it: no GetBlockIdx.
        std::string single = test::replaced(draft.source, "GetBlockIdx() * per < rows_ ? GetBlockIdx() * per : rows_", "0");
        single = test::replaced(single, "uint32_t per = (rows_ + GetBlockNum() - 1) / GetBlockNum();", "uint32_t per = rows_;");
        QVERIFY(single.find("GetBlockIdx") == std::string::npos);
        auto split = apply(single, transform("multi_core"));
        QVERIFY(split && split->source.find("sageRow0") != std::string::npos);
        {
            eval::EvalRequest req;
            req.seeds = 1;
            req.source = split->source;
            const auto ev = p_.evaluator->evaluate(*rowMax, req);
            QVERIFY2(ev.success() && ev.profile.coresUsed > 1, ev.toJson().dump(1).substr(0, 3000).c_str());
        }
        std::string scalar = test::replaced(single, "yGm_.SetGlobalBuffer((__gm__ half*)gm_y, rows_);",
                                            "yGm_.SetGlobalBuffer((__gm__ half*)gm_y, 1);");
        QVERIFY(scalar != draft.source);
        std::string why;
        QVERIFY(!apply(scalar, transform("multi_core"), &why));
        QVERIFY2(why.find("length `1`") != std::string::npos, why.c_str());
    }

    void doubleBufferThroughKnobOrLiteral() {
        auto m = apply(sample_, transform("double_buffer"));
        QVERIFY(m && m->source.find("BUFFER_NUM = 2;") != std::string::npos);
        auto ev = p_.evaluate("sadd", m->source);
        QVERIFY2(ev.success(), ev.toJson().dump(1).c_str());
        std::string why;
        QVERIFY(!apply(m->source, transform("double_buffer"), &why));  // already two
        QVERIFY(apply(m->source, transform("double_buffer", "down")));
        // Literal buffer counts in InitBuffer.
        auto lit = apply(tail_, transform("double_buffer"));
        QVERIFY(lit);
        QCOMPARE(lit->source.find("InitBuffer(qx, 1,"), std::string::npos);
        QVERIFY(lit->source.find("InitBuffer(qx, 2,") != std::string::npos);
        QCOMPARE(std::string(toString(p_.evaluate("tadd", lit->source).run.status)), std::string(toString(toolchain::RunStatus::Ok)));
        // Two buffers that would overflow the UB (3 queues x 2 x 64 KB): the tile constant that
        // sizes them is halved until they fit, and the kernel still runs.
        std::string big = test::replaced(tail_, "TILE = 1024;", "TILE = 32768;");
        auto fitted = apply(big, transform("double_buffer"), &why);
        QVERIFY2(fitted, why.c_str());
        QVERIFY2(fitted->description.find("to fit the UB") != std::string::npos,
                 fitted->description.c_str());
        QVERIFY(fitted->source.find("InitBuffer(qx, 2,") != std::string::npos);
        const auto fittedKb = agent::kernel::ubBytes(fitted->source);
        QVERIFY(fittedKb && *fittedKb <= (long long)p_.device().ubUsableBytes);
        QCOMPARE(std::string(toString(p_.evaluate("tadd", fitted->source).run.status)), std::string(toString(toolchain::RunStatus::Ok)));  // (its tail is wrong by design)
        // Refused when no tile constant sizes the buffers (literal byte counts): nothing to halve.
        std::string literal = big;
        for (int i = 0; i < 3; ++i) literal = test::replaced(literal, "1, TILE * sizeof(half)", "1, 32768 * sizeof(half)");
        QVERIFY(!apply(literal, transform("double_buffer"), &why));
        QVERIFY2(why.find("UB") != std::string::npos, why.c_str());
    }

    // A file with two launches (a cube kernel and its vector epilogue, both on BLOCK_DIM cores, as
    // the matmul draft writes them): raising BLOCK_DIM keeps the launch contract, so multi_core
    // applies; a block constant no launch passes still may not change alone.
    void multiCoreRaisesTheBlockDimOfEveryLaunch() {
        const auto suite = eval::TaskSet::load({toolchain::ToolPaths::fromEnvironment().resources + "/tasks"});
        const eval::Task* task = suite.find("gemm_bias_relu");
        QVERIFY(task);
        const auto draft = agent::composeDraft(*task, p_.device(), {});
        QVERIFY2(draft.ok, draft.error.c_str());
        std::string why;
        auto m = apply(draft.source, transform("multi_core"), &why);
        QVERIFY2(m, why.c_str());
        QVERIFY2(m->source.find("BLOCK_DIM = 1;") == std::string::npos, m->description.c_str());
        const std::string stray = test::replaced(draft.source, "constexpr uint32_t BLOCK_DIM = 1;",
                                                 "constexpr uint32_t CORE_NUM = 1;\nconstexpr uint32_t BLOCK_DIM = 1;");
        const auto knob = agent::findTunable(agent::inferKnobs(stray), "CORE_NUM");
        QVERIFY(knob && knob->role == "block");
        QVERIFY(!agent::infeasibility(stray, agent::setTunable(stray, *knob, 8), &p_.device()).empty());
    }

    void tileFromUbTakesTheLargestFittingTile() {
        auto m = apply(sample_, transform("tile_from_ub"));
        QVERIFY(m);
        QVERIFY2(m->source.find("TILE_NUM = 2;") != std::string::npos, m->description.c_str());  // 1 would need 288 KB
        auto ev = p_.evaluate("sadd", m->source);
        QVERIFY2(ev.success(), ev.toJson().dump(1).c_str());
        auto smaller = apply(sample_, transform("tile_from_ub", "down"));
        QVERIFY(smaller && smaller->source.find("TILE_NUM = 16;") != std::string::npos);
        QVERIFY(p_.evaluate("sadd", smaller->source).success());
        // Refused when the buffer sizes are known only at run time.
        std::string runtime = test::replaced(tail_, "pipe.InitBuffer(qx, 1, TILE * sizeof(half));",
                                             "pipe.InitBuffer(qx, 1, n * sizeof(half));");
        std::string why;
        QVERIFY(!apply(runtime, transform("tile_from_ub"), &why));
        QVERIFY2(why.find("not computable") != std::string::npos, why.c_str());
    }

    void preciseSyncReplacesPipeAll() {
        // A barrier between the copy-in and the add of a TBuf-based kernel.
        std::string src = test::readData("barrier_add.cpp");
        auto before = p_.evaluate("tadd", src);
        QVERIFY2(before.success(), before.toJson().dump(1).c_str());
        auto m = apply(src, transform("precise_sync"));
        QVERIFY(m);
        QVERIFY(m->source.find("HardEvent::MTE2_V") != std::string::npos);
        QVERIFY(m->source.find("HardEvent::V_MTE3") != std::string::npos);
        auto after = p_.evaluate("tadd", m->source);
        QVERIFY2(after.success(), after.toJson().dump(1).c_str());
        QVERIFY(after.profile.totalCycles <= before.profile.totalCycles);
        // Refused: no barrier at all, or one whose neighbours name no pipe.
        std::string why;
        QVERIFY(!apply(tail_, transform("precise_sync"), &why));
        std::string odd = test::replaced(tail_, "for (uint32_t off = 0;", "AscendC::PipeBarrier<PIPE_ALL>();\n        for (uint32_t off = 0;");
        QVERIFY(!apply(odd, transform("precise_sync"), &why));
    }

    void alignTailUsesDataCopyPadOnlyWhereItExists() {
        auto broken = p_.evaluate("tadd", tail_);
        QVERIFY(!broken.success());  // the 5003-element case loses its last elements
        auto m = apply(tail_, transform("align_tail"));
        QVERIFY(m);
        QVERIFY(m->source.find("DataCopyPad(a, xGm[off]") != std::string::npos);
        auto fixed = p_.evaluate("tadd", m->source);
        QVERIFY2(fixed.success(), fixed.toJson().dump(1).c_str());
        // 310P has no DataCopyPad: an aligned main part plus a scalar tail instead.
        QVERIFY(!p_.evaluate("tadd", tail_, "ascend310p3-sim").success());
        auto split = apply(tail_, transform("align_tail"), nullptr, "ascend310p3-sim");
        QVERIFY(split);
        QCOMPARE(split->source.find("DataCopyPad("), std::string::npos);
        auto onP = p_.evaluate("tadd", split->source, "ascend310p3-sim");
        QVERIFY2(onP.success(), (onP.toJson().dump(1).substr(0, 3000) + split->source).c_str());
        std::string why;
        QVERIFY(!apply(sample_, transform("align_tail"), &why));  // every count is a 32-byte multiple
        QVERIFY2(why.find("no count-form DataCopy") != std::string::npos, why.c_str());
    }

    // A copy on a one-line block (`{ DataCopy(...); qx.EnQue(a); }`): the rewrite's note must not
    // comment out the rest of the line, so the repaired kernel compiles and verifies.
    void alignTailKeepsAOneLineBlockCompiling() {
        std::string oneLine = test::replaced(tail_, "            DataCopy(a, xGm[off], len);\n", "");
        oneLine = test::replaced(oneLine, "            qx.EnQue(a);\n", "            { DataCopy(a, xGm[off], len); qx.EnQue(a); }\n");
        QVERIFY(oneLine.find("{ DataCopy(a, xGm[off], len); qx.EnQue(a); }") != std::string::npos);
        auto m = apply(oneLine, transform("align_tail"));
        QVERIFY(m);
        QVERIFY2(m->source.find("qx.EnQue(a); }") != std::string::npos, m->source.c_str());
        const auto fixed = p_.evaluate("tadd", m->source);
        QVERIFY2(fixed.compile.ok && fixed.success(), fixed.toJson().dump(1).substr(0, 3000).c_str());
    }

    // A kernel that never asks which block it is: raising block_dim only launches copies of the same
    // work (identical cycles), so the move is not offered; after the multi-core split it is.
    void launchCountOnlyMoveIsNotTried() {
        QVERIFY(tail_.find("GetBlockIdx") == std::string::npos);
        std::string why;
        QVERIFY(apply(tail_, {{"type", "step_tunable"}, {"name", "block_dim"}, {"direction", "up"}}, &why));  // possible as written
        const auto ev = p_.evaluate("tadd", tail_);
        const agent::PolicyContext ctx = p_.context("tadd", tail_, ev, memory::Stage::Optimize);
        // ... but never among the policy's own moves: the multi-core split is (it writes the
        // GetBlockIdx split along with the block count), the bare knob step is not.
        for (const auto& m : agent::BuiltinPolicy::candidates(ctx)) {
            const bool bareStep = m.description.rfind("block_dim ", 0) == 0;
            QVERIFY2(!bareStep, m.description.c_str());
        }
        auto split = apply(sample_, transform("multi_core"));
        QVERIFY(split);
        QVERIFY(split->source.find("GetBlockIdx") != std::string::npos);
        const bool stepped = bool(apply(split->source, {{"type", "step_tunable"}, {"name", "block_dim"}, {"direction", "down"}}, &why));
        QVERIFY2(stepped || why.find("changes only the launch count") == std::string::npos, why.c_str());
    }

    // A float16 input and an int8 mask (two element sizes, one length): each core takes a share that
    // starts on a 32-byte block of both (32 elements), and the split kernel verifies on several cores.
    void multiCoreSplitsTensorsOfTwoElementSizes() {
        const std::string one = p_.task("tmask").baselineSource;
        QVERIFY(p_.evaluate("tmask", one).success());
        std::string why;
        auto split = apply(one, transform("multi_core"), &why);
        QVERIFY2(split, why.c_str());
        QVERIFY2(split->source.find("(32 * AscendC::GetBlockNum())") != std::string::npos, split->source.c_str());
        const auto ev = p_.evaluate("tmask", split->source);
        QVERIFY2(ev.success(), ev.toJson().dump(1).substr(0, 3000).c_str());
        QVERIFY(ev.profile.blockDim > 1);
        QVERIFY(ev.profile.totalCycles < p_.evaluate("tmask", one).profile.totalCycles);
    }

    // The copies sit in template helpers that reuse the names dst and src (a local destination in
    // one, a GM destination in the next, element type T): each is rewritten by the declaration in
    // its own helper, and the result verifies on both devices.
    void alignTailRewritesTemplateCopyHelpers() {
        std::string helpers = test::replaced(tail_, "DataCopy(a, xGm[off], len);", "Load(a, xGm, off, len);");
        helpers = test::replaced(helpers, "DataCopy(b, yGm[off], len);", "Load(b, yGm, off, len);");
        helpers = test::replaced(helpers, "DataCopy(zGm[off], c, len);", "Store(zGm, c, off, len);");
        helpers = test::replaced(helpers, "\nprivate:\n", R"(
    template <typename T>
    __aicore__ inline void Load(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t off, uint32_t len) {
        DataCopy(dst, src[off], len);
    }
    template <typename T>
    __aicore__ inline void Store(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t off, uint32_t len) {
        DataCopy(dst[off], src, len);
    }

private:
)");
        QVERIFY(!p_.evaluate("tadd", helpers).success());
        for (const char* device : {"ascend910b1-sim", "ascend310p3-sim"}) {
            auto m = apply(helpers, transform("align_tail"), nullptr, device);
            QVERIFY2(m, device);
            QCOMPARE(m->description.find("2 unaligned DataCopy") != std::string::npos, true);
            auto fixed = p_.evaluate("tadd", m->source, device);
            QVERIFY2(fixed.success(), (std::string(device) + "\n" + fixed.toJson()["run"].dump().substr(0, 1500) + "\n" +
                                       fixed.toJson()["compile"].dump().substr(0, 800) + m->source).c_str());
        }
    }

    void candidatesChooseByScoreWithSeededExploration() {
        auto ev = p_.evaluate("sadd", sample_);
        agent::PolicyContext ctx = p_.context("sadd", sample_, ev, memory::Stage::Optimize);
        auto entry = [](int64_t id, double score, json action) {
            memory::ScoredExperience r;
            r.experience.id = id;
            r.experience.action = std::move(action);
            r.score = score;
            return r;
        };
        ctx.retrieved = {entry(1, 0.2, transform("double_buffer")), entry(2, 0.9, transform("tile_from_ub")),
                         entry(3, 0.5, {{"type", "set_tunable"}, {"name", "NO_SUCH"}, {"value", 2}})};
        auto all = agent::BuiltinPolicy::candidates(ctx);
        QVERIFY(all.size() > 4);
        QCOMPARE(all[0].experienceId, int64_t(2));  // highest score first
        QCOMPARE(all[1].experienceId, int64_t(1));
        QCOMPARE(all[2].experienceId, int64_t(0));  // then the fallback (multi_core)
        agent::BuiltinPolicy policy;
        QCOMPARE(policy.propose(ctx).adoptedIds, std::vector<int64_t>{2});
        // A higher learned value reorders the choice.
        ctx.retrieved[0].score = 1.5;
        QCOMPARE(policy.propose(ctx).adoptedIds, std::vector<int64_t>{1});
        // Exploration: reproducible per seed, and over seeds it reaches other moves.
        ctx.epsilon = 1.0;
        std::set<std::string> picked;
        for (uint64_t seed = 0; seed < 12; ++seed) {
            ctx.seed = seed;
            auto a = policy.propose(ctx), b = policy.propose(ctx);
            QCOMPARE(a.source, b.source);
            picked.insert(a.move);
        }
        QVERIFY(picked.size() >= 3);
        // A kind of fallback move that gained nothing earlier in the run goes after the others.
        ctx.retrieved.clear();
        ctx.history = {agent::AttemptRecord{0, memory::Stage::Draft, -1, "draft", agent::IterationStatus::Ok, true, 1000, "", {}, ""},
                       agent::AttemptRecord{1, memory::Stage::Optimize, 0, "more cores: USE_CORE_NUM 8 -> 48", agent::IterationStatus::Ok, true, 1000, "", {}, ""}};
        auto demoted = agent::BuiltinPolicy::candidates(ctx);
        QVERIFY(demoted.front().description.rfind("more cores", 0) != 0);
        QVERIFY(std::any_of(demoted.begin(), demoted.end(), [](const auto& m) { return m.description.rfind("more cores", 0) == 0; }));
        ctx.history.clear();
        // Never an already-tried source.
        ctx.epsilon = 0;
        ctx.triedMoves = {agent::sourceKey(all[0].source)};
        QVERIFY(policy.propose(ctx).source != all[0].source);
    }

    // The sample-style add kernel: proposals of the policy (memory off), each evaluated, the best
    // correct one kept as the parent; >= 1.3x fewer cycles within a run's default budget of moves
    // (the policy tries its own moves in a neutral order, so which come first depends on the seed).
    void sampleStyleAddImprovesByPolicyMoves() {
        std::string best = sample_;
        auto bestEv = p_.evaluate("sadd", best);
        QVERIFY(bestEv.success());
        const uint64_t start = bestEv.profile.totalCycles;
        std::vector<std::string> tried = {agent::sourceKey(best)};
        std::vector<std::string> moves;
        for (int i = 0; i < 12; ++i) {
            auto prop = p_.propose("sadd", best, bestEv, memory::Stage::Optimize, "ascend910b1-sim", tried);
            if (!prop.ok) break;
            tried.push_back(agent::sourceKey(prop.source));
            auto ev = p_.evaluate("sadd", prop.source);
            moves.push_back(prop.move + (ev.success() ? " ok " + std::to_string(ev.profile.totalCycles) : " failed"));
            if (ev.success() && ev.profile.totalCycles < bestEv.profile.totalCycles) {
                best = prop.source;
                bestEv = ev;
            }
        }
        const double speedup = double(start) / double(bestEv.profile.totalCycles);
        std::string log;
        for (const auto& m : moves) log += m + "; ";
        qInfo("sample-style add: %llu -> %llu cycles (%.2fx) via %s", (unsigned long long)start,
              (unsigned long long)bestEv.profile.totalCycles, speedup, log.c_str());
        QVERIFY2(speedup >= 1.3, log.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTransforms)
#include "test_transforms.moc"
