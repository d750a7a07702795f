// The agent loop driven by the LLM policy against the scripted server: a draft that does not
// compile, its repair, then a faster variant (more blocks) — evaluated through the real pipeline,
// with memory consulted, the adoption credited and the distilled lessons stored as pending.
#include "AgentTestSupport.h"
#include "ScriptedLlmServer.h"
#include "sage_agent/AgentLoop.h"
#include "sage_agent/LlmPolicy.h"
#include "sage_memory/MemorySchema.h"

#include <QtTest/QtTest>

using namespace sage;
using sage::test::ScriptedLlmServer;

namespace {

#define CHECK_CONTAINS(hay, needle)                                                                            \
    QVERIFY2(std::string(hay).find(needle) != std::string::npos,                                               \
             (std::string("expected '") + (needle) + "' in:\n" + std::string(hay).substr(0, 3000)).c_str())
#define CHECK_NOT_CONTAINS(hay, needle)                                                                        \
    QVERIFY2(std::string(hay).find(needle) == std::string::npos,                                               \
             (std::string("did not expect '") + (needle) + "' in:\n" + std::string(hay).substr(0, 3000)).c_str())

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    size_t p = s.find(from);
    if (p != std::string::npos) s.replace(p, from.size(), to);
    return s;
}

// vadd split over 8 blocks; each block's share starts on a 32-byte boundary, tails via DataCopyPad.
const char* kFastVadd = R"(#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 1024;
constexpr uint32_t BLOCKS = 8;

extern "C" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    uint32_t per = (n + GetBlockNum() - 1) / GetBlockNum();
    per = (per + 7) / 8 * 8;
    uint32_t start = per * GetBlockIdx();
    uint32_t end = start + per < n ? start + per : n;
    if (start >= end) return;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, TILE * sizeof(float));
    pipe.InitBuffer(qy, 2, TILE * sizeof(float));
    pipe.InitBuffer(qz, 2, TILE * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    gz.SetGlobalBuffer((__gm__ float*)z, n);
    for (uint32_t off = start; off < end; off += TILE) {
        uint32_t len = end - off < TILE ? end - off : TILE;
        DataCopyExtParams p{1, len * 4, 0, 0, 0};
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopyPad(a, gx[off], p, DataCopyPadExtParams<float>{});
        DataCopyPad(b, gy[off], p, DataCopyPadExtParams<float>{});
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, b, len);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopyPad(gz[off], c, p);
        qz.FreeTensor(c);
    }
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(vadd, BLOCKS, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
)";

std::string reply(const std::string& source, const std::string& adopted, const std::string& rationale) {
    return "```cpp\n" + source + "```\nADOPTED: " + adopted + "\nRATIONALE: " + rationale + "\n";
}

std::string lessonJson(const std::string& title) {
    return nlohmann::json{{"title", title},
                          {"content", "When an elementwise kernel runs on one block, split the elements over many."},
                          {"kind", "optimization"},
                          {"evidence_pattern", "GetBlockIdx"}}
        .dump();
}

} // namespace

class TestLlmLoop : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::Task task_;

    // The LLM policy against `server`, memory off, one seed, short timeouts; tests set the rest.
    static agent::AgentSettings llmSettings(const ScriptedLlmServer& server, int budget) {
        agent::AgentSettings s;
        s.policy = "llm";
        s.budget = budget;
        s.memoryMode = memory::MemoryMode::Off;
        s.seeds = 1;
        s.llm.baseUrl = server.baseUrl();
        s.llm.apiKeyEnv = "SAGE_TEST_UNSET_KEY_VARIABLE";
        s.llm.timeoutSeconds = 10;
        s.llm.retryBaseSeconds = 0.05;
        return s;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        evaluator_ = evaluatorCachedIn(dir_.path());
        task_ = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
    }

    void draftRepairOptimiseThroughTheModel() {
        auto db = std::make_shared<memory::Database>(
            (dir_.path() + "/llm.db").toStdString(),
            std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
        agent::RunStore runs(db);
        memory::ExperienceStore mem(db);
        memory::Experience e;
        e.title = "Split elementwise work over many blocks";
        e.kind = memory::ExperienceKind::Optimization;
        e.stage = memory::Stage::Optimize;
        e.trigger.category = "elementwise";
        e.trigger.bottleneck = "under_parallelized";
        e.content = "When one block does all the work, raise blockDim and split N by GetBlockIdx/GetBlockNum.";
        e.evidencePattern = "GetBlockIdx";
        e.status = memory::ExperienceStatus::Approved;
        e.origin = memory::Origin::Human;
        const int64_t blocksId = mem.add(e);

        const std::string baseline = task_.baselineSource;
        const std::string broken = replaced(baseline, "Add(c, a, b, len);", "Add(c, a, bb, len);");
        QVERIFY(broken != baseline);

        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(reply(broken, "none", "A first draft.")),
                       ScriptedLlmServer::sse(reply(baseline, "none", "Fixed the typo bb -> b.")),
                       ScriptedLlmServer::sse(reply(kFastVadd, std::to_string(blocksId) + ", 424242",
                                                    "Split the work over 8 blocks and double-buffered."))});
        server.scriptNonStreaming({ScriptedLlmServer::json(lessonJson("Declare every tensor you use")),
                                   ScriptedLlmServer::json(lessonJson("Split elementwise kernels over blocks"))});

        agent::AgentSettings s = llmSettings(server, 3);
        s.memoryMode = memory::MemoryMode::Adoption;
        s.targetRooflineFraction = 0.99;
        s.patience = 8;
        s.llm.model = "scripted";
        agent::AgentLoop loop(*evaluator_, agent::makePolicy(s), s);
        int tokens = 0;
        loop.addObserver([&](const agent::AgentEvent& ev) { tokens += ev.type == agent::AgentEventType::Token; });
        auto sum = loop.run(task_, runs, &mem);

        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), size_t(3));
        QVERIFY(its[0].stage == memory::Stage::Draft);
        QVERIFY(its[1].stage == memory::Stage::Repair);
        QVERIFY(its[2].stage == memory::Stage::Optimize);
        QCOMPARE(std::string(toString(its[0].status)), std::string(toString(agent::IterationStatus::CompileError)));
        QVERIFY2(its[1].correct, std::string(toString(its[1].status)).c_str());
        QVERIFY2(its[2].correct, its[2].evaluation ? its[2].evaluation->toJson().dump().substr(0, 2000).c_str() : "not evaluated");
        QCOMPARE(its[1].parent, 0);
        QCOMPARE(its[2].parent, 1);
        QVERIFY2(its[2].cycles * 2 < its[1].cycles,
                 (std::to_string(its[2].cycles) + " vs " + std::to_string(its[1].cycles)).c_str());
        QCOMPARE(sum.firstCorrectIteration, 1);
        QCOMPARE(sum.bestIteration, 2);
        QVERIFY(tokens > 10);

        // What the model was told, iteration by iteration.
        CHECK_CONTAINS(its[0].prompt, "Kernel API of the simulated NPU");  // the platform card
        CHECK_CONTAINS(its[1].prompt, "Compile: FAILED");
        CHECK_CONTAINS(its[1].prompt, "bb");
        CHECK_CONTAINS(its[2].prompt, "bottleneck: under_parallelized");
        CHECK_CONTAINS(its[2].prompt, "[E" + std::to_string(blocksId) + "]");
        CHECK_CONTAINS(its[2].response, "RATIONALE: Split the work over 8 blocks");
        QCOMPARE(its[2].rationale, std::string("Split the work over 8 blocks and double-buffered."));

        // The declared adoption (the unknown id 424242 is ignored) is credited.
        bool credited = false;
        for (const auto& a : its[2].adoptions)
            if (a.id == blocksId) {
                credited = a.declared;
                QVERIFY(a.qAfter.value_or(0) > a.qBefore.value_or(0));
            }
        QVERIFY2(credited, agent::toJson(its[2])["adoptions"].dump().c_str());
        for (const auto& a : its[2].adoptions) QVERIFY(a.id != 424242);

        // Both the repair and the >= 5 % gain were distilled into pending lessons.
        QCOMPARE(its[1].proposed.size(), size_t(1));
        QCOMPARE(its[2].proposed.size(), size_t(1));
        const auto lesson = mem.get(its[2].proposed[0].id);
        QCOMPARE(lesson.title, std::string("Split elementwise kernels over blocks"));
        QVERIFY(lesson.status == memory::ExperienceStatus::Trial);
        size_t plain = 0;
        for (const auto& r : server.requests()) plain += r.body.value("stream", true) == false;
        QCOMPARE(plain, size_t(2));
    }

    // The replies real models send: a diff where a file was due, a lone function, a file without the
    // adoption line, a reasoning model's answer after a lone </think>. Format problems are answered
    // in the same iteration and the run still ends with a correct kernel, within an 8k window.
    void formatProblemsAreFedBackWithinTheIteration() {
        auto db = std::make_shared<memory::Database>(
            (dir_.path() + "/format.db").toStdString(),
            std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
        agent::RunStore runs(db);
        const std::string baseline = task_.baselineSource;
        const std::string broken = replaced(baseline, "Add(c, a, b, len);", "Add(c, a, bb, len);");
        QVERIFY(broken != baseline);
        const std::string diffReply =
            "Change the host side to 8 blocks:\n```diff\n--- a/kernel.cpp\n+++ b/kernel.cpp\n@@ -40 +40 @@\n"
            "-    ICPU_RUN_KF(vadd, 1, ctx.gm(\"x\"), ctx.gm(\"y\"), ctx.gm(\"z\"), ctx.tiling(n));\n"
            "+    ICPU_RUN_KF(vadd, 8, ctx.gm(\"x\"), ctx.gm(\"y\"), ctx.gm(\"z\"), ctx.tiling(n));\n```\nADOPTED: none\n";
        const std::string partialReply =
            "Here is the compute step:\n```cpp\n__aicore__ inline void Compute() {\n    Add(c, a, b, len);\n}\n```\n"
            "ADOPTED: none\n";
        const std::string noAdoptionReply = "```cpp\n" + broken + "```\nRATIONALE: a plain first draft.\n";
        const std::string reasoningReply =
            "The compile error says bb is undeclared. Earlier draft:\n```cpp\n" + broken +
            "```\nThe fix is one token.\n</think>\n\n<<<<<<< SEARCH\n        Add(c, a, bb, len);  // COMPUTE\n=======\n"
            "        Add(c, a, b, len);  // COMPUTE\n>>>>>>> REPLACE\n\nADOPTED: none\nRATIONALE: fixed the typo bb -> b.\n";
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(diffReply), ScriptedLlmServer::sse(partialReply),
                       ScriptedLlmServer::sse(noAdoptionReply), ScriptedLlmServer::sse(reasoningReply)});

        agent::AgentSettings s = llmSettings(server, 2);
        s.llm.contextTokens = 8192;
        s.llm.maxTokens = 2048;
        agent::AgentLoop loop(*evaluator_, agent::makePolicy(s), s);
        auto sum = loop.run(task_, runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), size_t(2));
        QCOMPARE(std::string(toString(its[0].status)), std::string(toString(agent::IterationStatus::CompileError)));  // the no-adoption draft was kept
        QVERIFY2(its[1].correct, std::string(toString(its[1].status)).c_str());
        QCOMPARE(its[1].source + (its[1].source.back() == '\n' ? "" : "\n"),
                 baseline + (baseline.back() == '\n' ? "" : "\n"));
        QCOMPARE(sum.firstCorrectIteration, 1);
        QCOMPARE(its[1].rationale, std::string("fixed the typo bb -> b."));

        // The stored run shows the exchange: the rejected replies and the feedback naming each problem.
        CHECK_CONTAINS(its[0].prompt, "### assistant (reply 1, not usable)\nChange the host side to 8 blocks");
        CHECK_CONTAINS(its[0].prompt, "### user (feedback 1)\nYour reply cannot be used: the reply edits a parent, "
                                      "but there is none in the draft stage");
        CHECK_CONTAINS(its[0].prompt, "### user (feedback 2)\nYour reply cannot be used: the code block is a fragment");
        QCOMPARE(its[0].response, noAdoptionReply);
        QCOMPARE(its[1].response, reasoningReply);
        CHECK_CONTAINS(its[1].prompt, "- #0 draft \"a plain first draft\": compile_error");  // the attempt history
        CHECK_NOT_CONTAINS(its[1].prompt, "Profile (case");  // the broken draft never ran

        // Four requests, each within the 8k window minus the reply's 2k.
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(4));
        for (const auto& r : reqs) {
            size_t chars = 0;
            for (const auto& m : r.body["messages"]) chars += m["content"].get<std::string>().size();
            QVERIFY2(chars / 3.5 <= 8192 - 2048, std::to_string(chars).c_str());
            QCOMPARE(r.body["max_tokens"].get<int>(), 2048);
        }
        QCOMPARE(reqs[2].body["messages"].size(), size_t(6));  // system, user, 2 x (reply, feedback)
    }

    // An 8k model behind a vLLM-style server whose tokenizer counts denser than the client's
    // estimate: the first request is refused with HTTP 400, the policy shrinks the prompt from the
    // count in the refusal and retries once, the run log says so, and the run goes on; the next
    // iteration's request fits at once (issue 30).
    void aContextLengthRefusalShrinksAndTheRunContinues() {
        auto db = std::make_shared<memory::Database>(
            (dir_.path() + "/context.db").toStdString(),
            std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
        agent::RunStore runs(db);
        ScriptedLlmServer server;
        auto limited = [](const std::string& text) {
            return ScriptedLlmServer::contextLimited(8192, 2.2, ScriptedLlmServer::sse(text));
        };
        const std::string faster = task_.baselineSource + "// another candidate\n";
        server.script({limited(reply(task_.baselineSource, "none", "The baseline.")),
                       limited(reply(task_.baselineSource, "none", "The baseline.")),
                       limited(reply(faster, "none", "A variant."))});
        agent::AgentSettings s = llmSettings(server, 2);
        s.llm.contextTokens = 8192;
        s.llm.maxTokens = 2048;
        std::vector<std::string> notices;
        agent::AgentLoop loop(*evaluator_, agent::makePolicy(s), s);
        loop.addObserver([&](const agent::AgentEvent& e) {
            if (e.type == agent::AgentEventType::Notice) notices.push_back(e.text);
        });
        auto sum = loop.run(task_, runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), size_t(2));
        QVERIFY2(its[0].correct, its[0].error.c_str());
        QCOMPARE(server.requests().size(), size_t(3));  // refused once, then every request fits
        QCOMPARE(notices.size(), size_t(1));
        CHECK_CONTAINS(notices[0], "maximum context length is 8192 tokens");
        CHECK_CONTAINS(its[0].prompt, "### request log");
        QVERIFY(its[1].prompt.find("### request log") == std::string::npos);
        QCOMPARE(std::string(toString(its[1].status)), std::string(toString(agent::IterationStatus::Ok)));
    }

    // `ADOPTED: E9999, E31337` names only ids the prompt never showed (issue 47, item 6): nothing
    // is credited, and the stored iteration says so in its notes, where replay and the GUI show it.
    void adoptedIdsNeverShownAreNotedInTheStoredIteration() {
        auto db = std::make_shared<memory::Database>(
            (dir_.path() + "/unshown.db").toStdString(),
            std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
        agent::RunStore runs(db);
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(reply(task_.baselineSource, "E9999, E31337", "The baseline."))});
        agent::AgentSettings s = llmSettings(server, 1);
        agent::AgentLoop loop(*evaluator_, agent::makePolicy(s), s);
        auto sum = loop.run(task_, runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), size_t(1));
        QVERIFY2(its[0].correct, its[0].error.c_str());
        QVERIFY(its[0].adoptions.empty());
        QCOMPARE(its[0].notes.size(), size_t(1));
        CHECK_CONTAINS(its[0].notes[0], "E9999, E31337");
        CHECK_CONTAINS(its[0].notes[0], "not shown in this prompt; not counted as adopted");
        QVERIFY(agent::toJson(its[0])["notes"] == nlohmann::json(its[0].notes));
    }

    void aBrokenReplyIsMarkedAndTheRunContinues() {
        auto db = std::make_shared<memory::Database>(
            (dir_.path() + "/broken.db").toStdString(),
            std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
        agent::RunStore runs(db);
        ScriptedLlmServer server;
        // Iteration 0: three replies without code (the first two answered with feedback), then a 429.
        server.script({ScriptedLlmServer::sse("I would rather not write code today."),
                       ScriptedLlmServer::sse("Still no code."), ScriptedLlmServer::sse("No."),
                       ScriptedLlmServer::status(429, R"({"error":{"message":"slow down"}})"),
                       ScriptedLlmServer::sse(reply(task_.baselineSource, "none", "The baseline."))});
        agent::AgentSettings s = llmSettings(server, 2);
        agent::AgentLoop loop(*evaluator_, agent::makePolicy(s), s);
        auto sum = loop.run(task_, runs, nullptr);
        auto its = runs.iterations(sum.runId);
        QCOMPARE(its.size(), size_t(2));
        QCOMPARE(std::string(toString(its[0].status)), std::string(toString(agent::IterationStatus::PolicyError)));
        CHECK_CONTAINS(its[0].error, "breaks the contract");
        QCOMPARE(its[0].response, std::string("No."));
        CHECK_CONTAINS(its[0].prompt, "### assistant (reply 1, not usable)\nI would rather not write code today.");
        CHECK_CONTAINS(its[0].prompt, "### user (feedback 2)\nYour reply cannot be used: no ```cpp code block");
        QVERIFY(its[1].correct);  // after a 429 and a retry
        QCOMPARE(sum.firstCorrectIteration, 1);
        // The lost iteration is in the next prompt's history with what was wrong (issue 30).
        CHECK_CONTAINS(its[1].prompt, "- #0 draft \"(no usable reply)\": policy_error; reply refused: no ```cpp code block");
    }
};

QTEST_GUILESS_MAIN(TestLlmLoop)
#include "test_llm_loop.moc"
