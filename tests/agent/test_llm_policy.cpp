// The LLM policy against a local scripted OpenAI-compatible server (127.0.0.1, random port):
// streaming, retries on 429/5xx, 4xx errors, contract violations, cancel, timeout, API-key
// hygiene; plus unit tests of the reply parser and the prompt.
#include "ScriptedLlmServer.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/LlmPolicy.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

using namespace sage;
using sage::test::ScriptedLlmServer;

namespace {

#define CHECK_CONTAINS(hay, needle)                                                                            \
    QVERIFY2(std::string(hay).find(needle) != std::string::npos,                                               \
             (std::string("expected '") + (needle) + "' in:\n" + std::string(hay).substr(0, 3000)).c_str())
#define CHECK_NOT_CONTAINS(hay, needle)                                                                        \
    QVERIFY2(std::string(hay).find(needle) == std::string::npos,                                               \
             (std::string("did not expect '") + (needle) + "' in:\n" + std::string(hay).substr(0, 3000)).c_str())

memory::ScoredExperience experience(int64_t id, const std::string& title, const std::string& content,
                                    const std::string& idiom = "") {
    memory::ScoredExperience s;
    s.experience.id = id;
    s.experience.title = title;
    s.experience.content = content;
    s.experience.codeIdiom = idiom;
    s.experience.kind = memory::ExperienceKind::Optimization;
    s.experience.stage = memory::Stage::Optimize;
    s.experience.trigger.bottleneck = "under_parallelized";
    s.score = 0.8;
    s.q = 0.4;
    return s;
}

std::string kernelReply(const std::string& source, const std::string& adopted, const std::string& rationale) {
    return "Here is the improved kernel.\n\n```cpp\n" + source + "```\n\nADOPTED: " + adopted + "\nRATIONALE: " +
           rationale + "\n";
}

} // namespace

class TestLlmPolicy : public QObject {
    Q_OBJECT

    eval::Task task_;
    std::string baseline_;

    agent::LlmSettings settingsFor(const ScriptedLlmServer& server) { return server.llmSettings(); }

    agent::PolicyContext context(memory::Stage stage = memory::Stage::Optimize) {
        agent::PolicyContext ctx;
        ctx.task = &task_;
        ctx.stage = stage;
        ctx.iteration = 3;
        ctx.parentSource = baseline_ + "// the parent differs from the baseline the scripted replies send\n";
        ctx.platformCard = "PLATFORM-CARD: TQue, DataCopy, Add (test card)";
        ctx.retrieved = {experience(12, "Raise blockDim when under-parallelised", "Split the elements over 48 blocks."),
                         experience(7, "Double-buffer the input queues", "InitBuffer(q, 2, bytes).",
                                    "pipe.InitBuffer(qx, 2, TILE * sizeof(float));")};
        return ctx;
    }

    static eval::Evaluation failedCompile() {
        eval::Evaluation ev;
        ev.kernel = "kernel.cpp";
        ev.compile.ok = false;
        toolchain::Diagnostic d;
        d.kind = toolchain::DiagnosticKind::CompileError;
        d.severity = toolchain::Severity::Error;
        d.file = "kernel.cpp";
        d.line = 12;
        d.column = 5;
        d.message = "use of undeclared identifier 'qw'";
        ev.compile.diagnostics.push_back(d);
        ev.run.message = "not run: the kernel does not compile";
        return ev;
    }

    static eval::Evaluation profiled() {
        eval::Evaluation ev;
        ev.kernel = "kernel.cpp";
        ev.compile.ok = true;
        ev.run.status = toolchain::RunStatus::Ok;
        ev.verify.ran = true;
        ev.verify.pass = false;
        eval::CaseCheck cc;
        cc.caseName = "tail";
        cc.seed = 1;
        eval::OutputCheck oc;
        oc.name = "z";
        oc.dtype = "float32";
        oc.checked = 1001;
        oc.mismatches = 9;
        oc.maxAbsError = 3.5;
        oc.maxRelError = 1.0;
        oc.atol = 1e-5;
        oc.rtol = 1e-5;
        oc.reason = "9 elements at the tail were never written";
        oc.firstMismatches.push_back({{992}, 1.25, 0.0, 1.25, 1.0});
        cc.outputs.push_back(oc);
        ev.verify.cases.push_back(cc);
        toolchain::Diagnostic race;
        race.kind = toolchain::DiagnosticKind::RaceRaw;
        race.severity = toolchain::Severity::Warning;
        race.file = "kernel.cpp";
        race.line = 27;
        race.message = "vector reads UB written by MTE2 without a flag";
        ev.run.diagnostics.push_back(race);
        auto& p = ev.profile;
        p.present = true;
        p.caseName = "perf";
        p.totalCycles = 123456;
        p.timeUs = 68.6;
        p.blockDim = 1;
        p.coresUsed = 1;
        p.rooflineCycles = 4321;
        p.rooflineFraction = 0.035;
        p.bottleneck = "under_parallelized";
        p.advice = "Few cores are busy: raise blockDim.";
        p.pipeRatios = {{"mte2_ratio", 0.61}, {"vec_ratio", 0.12}, {"scalar_ratio", 0.05}};
        p.lines = {{21, 50000, 64}, {27, 20000, 64}, {32, 10000, 64}};
        return ev;
    }

private slots:
    void initTestCase() {
        task_ = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        baseline_ = task_.baselineSource;
        QVERIFY(!baseline_.empty());
    }

    // ---------- parseReply ----------

    void parsesAWellFormedReply() {
        auto r = agent::LlmPolicy::parseReply(
            "Some thoughts.\n```cpp\n#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k() {}\n```\n"
            "**ADOPTED:** E12, [E7], #3\nRATIONALE: Raised the block count\nso that 48 cores work.\n\nTrailing words.");
        QVERIFY2(r.ok, r.error.c_str());
        CHECK_CONTAINS(r.source, "__global__ __aicore__ void k()");
        QCOMPARE(r.adopted, (std::vector<int64_t>{12, 7, 3}));
        QCOMPARE(r.rationale, std::string("Raised the block count so that 48 cores work."));
    }

    void acceptsOtherFenceSpellingsAndNone() {
        for (const char* fence : {"```c++", "```", "```cpp title=kernel.cpp", "~~~cpp"}) {
            std::string close = std::string(fence).substr(0, 3);
            auto r = agent::LlmPolicy::parseReply(std::string(fence) + "\nSAGE_HOST(ctx) {}\n" + close +
                                                  "\nADOPTED: none\nRATIONALE: nothing adopted.");
            QVERIFY2(r.ok, (std::string(fence) + ": " + r.error).c_str());
            QVERIFY(r.adopted.empty());
            QCOMPARE(r.source, std::string("SAGE_HOST(ctx) {}\n"));
        }
    }

    void reportsContractViolations() {
        struct Case { std::string reply, expected; };
        const std::vector<Case> cases = {
            {"", "empty"},
            {"I think you should add double buffering.\nADOPTED: 12", "no ```cpp code block"},
            {"```json\n{\"a\": 1}\n```\nADOPTED: none", "found ```json"},
            {"```cpp\n\n```\nADOPTED: none", "code block is empty"},
            {"```cpp\n__global__ __aicore__ void a() {\n  int x = 1;\n", "not closed"},
        };
        for (const auto& c : cases) {
            auto r = agent::LlmPolicy::parseReply(c.reply);
            QVERIFY2(!r.ok, c.reply.c_str());
            CHECK_CONTAINS(r.error, c.expected);
        }
    }

    void toleratesIdiomsDuplicatesThinkingAndLineNumbers() {
        // A kernel file plus a snippet: the file is taken.
        auto r = agent::LlmPolicy::parseReply("```cpp\nDataCopy(a, b, n);\n```\n```cpp\n#include \"kernel_operator.h\"\n"
                                              "__global__ __aicore__ void k() {}\n```\nADOPTED: 4\nRATIONALE: r");
        QVERIFY2(r.ok, r.error.c_str());
        CHECK_CONTAINS(r.source, "kernel_operator.h");
        // The same file twice is not a conflict.
        r = agent::LlmPolicy::parseReply("```cpp\n__global__ __aicore__ void k() {}\n```\nagain:\n```cpp\n__global__ __aicore__ void k() {}\n```\n"
                                         "ADOPTED: none");
        QVERIFY2(r.ok, r.error.c_str());
        // Thinking is ignored (its code block would otherwise conflict).
        r = agent::LlmPolicy::parseReply("<think>maybe ```cpp\n__global__ __aicore__ void old() {}\n```\n</think>\n"
                                         "```cpp\n__global__ __aicore__ void k() {}\n```\nADOPTED: 1\nRATIONALE: r");
        QVERIFY2(r.ok, r.error.c_str());
        CHECK_CONTAINS(r.source, "void k()");
        // Line numbers copied from the prompt are removed.
        r = agent::LlmPolicy::parseReply("```cpp\n 9 | #include \"kernel_operator.h\"\n10 |\n11 | __global__ __aicore__ void k() {}\n```\n"
                                         "ADOPTED: none");
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.source, std::string("#include \"kernel_operator.h\"\n\n__global__ __aicore__ void k() {}\n"));
    }

    // ---------- prompt ----------

    void promptHoldsEverythingTheModelNeeds() {
        auto ctx = context(memory::Stage::Repair);
        auto ev = failedCompile();
        ctx.parentEvaluation = &ev;
        agent::AttemptRecord a;
        a.iteration = 2;
        a.stage = memory::Stage::Optimize;
        a.parent = 1;
        a.move = "block_dim 1 -> 8";
        a.status = agent::IterationStatus::CompileError;
        a.firstDiagnostic = "compile_error at line 12: use of undeclared identifier 'qw'";
        a.adoptedIds = {12};
        ctx.history = {a};
        const std::string p = agent::LlmPolicy::buildPrompt(ctx);
        CHECK_CONTAINS(p, "expert AscendC kernel engineer");
        CHECK_CONTAINS(p, "PLATFORM-CARD: TQue, DataCopy, Add");
        CHECK_CONTAINS(p, "Task: vadd");
        CHECK_CONTAINS(p, "z = x + y over N float32 values");
        CHECK_CONTAINS(p, "- x: float32 [N]");
        CHECK_CONTAINS(p, "- z: float32 [N]");
        CHECK_CONTAINS(p, "tail: N = 1001");
        CHECK_CONTAINS(p, "for (size_t i = 0; i < z.size(); ++i)");  // reference semantics
        CHECK_CONTAINS(p, " 1 | #include \"kernel_operator.h\"");     // numbered parent
        CHECK_CONTAINS(p, "Add(c, a, b, len);  // COMPUTE");
        CHECK_CONTAINS(p, "kernel.cpp:12:5: error: use of undeclared identifier 'qw'");
        CHECK_CONTAINS(p, "[E12] Raise blockDim when under-parallelised");
        CHECK_CONTAINS(p, "[E7] Double-buffer the input queues");
        CHECK_CONTAINS(p, "pipe.InitBuffer(qx, 2, TILE * sizeof(float));");
        CHECK_CONTAINS(p, "- #2 optimize of #1 \"block_dim 1 -> 8\": compile_error; compile_error at line 12");
        CHECK_CONTAINS(p, "adopted E12");
        CHECK_CONTAINS(p, "smallest change");  // repair instruction
        CHECK_CONTAINS(p, "ADOPTED: E12, E7");
        CHECK_CONTAINS(p, "<<<<<<< SEARCH");
        CHECK_CONTAINS(p, "RATIONALE:");
    }

    // The prompt's value floor (issue 12): an entry whose learned value is negative is listed under
    // "Experiences to avoid", without its code idiom; the others stay where the model is asked to
    // apply what fits. With every entry below the floor, the main list says so instead of "none".
    void entriesWithANegativeValueAreListedToAvoid() {
        auto ctx = context();
        ctx.retrieved[1].q = -0.4;
        std::string p = agent::LlmPolicy::buildPrompt(ctx);
        const size_t retrieved = p.find("## Experiences retrieved from memory");
        const size_t avoid = p.find("## Experiences to avoid");
        QVERIFY(retrieved != std::string::npos && avoid != std::string::npos && retrieved < avoid);
        const size_t e12 = p.find("[E12] Raise blockDim"), e7 = p.find("[E7] Double-buffer the input queues");
        QVERIFY(e12 > retrieved && e12 < avoid);
        QVERIFY(e7 > avoid);
        CHECK_CONTAINS(p, "value -0.4)");
        QVERIFY(p.find("pipe.InitBuffer(qx, 2, TILE * sizeof(float));") == std::string::npos);
        ctx.retrieved[0].q = -0.1;
        p = agent::LlmPolicy::buildPrompt(ctx);
        CHECK_CONTAINS(p, "none with a non-negative learned value");
        QVERIFY(p.find("(none retrieved for this step)") == std::string::npos);
        ctx.retrieved[0].q = ctx.retrieved[1].q = 0.0;  // never credited (similarity mode): all offered
        p = agent::LlmPolicy::buildPrompt(ctx);
        QVERIFY(p.find("## Experiences to avoid") == std::string::npos);
        CHECK_CONTAINS(p, "pipe.InitBuffer(qx, 2, TILE * sizeof(float));");
    }

    void evaluationSummaryIsCondensedAndReadable() {
        const auto ev = profiled();
        const std::string s = agent::LlmPolicy::evaluationSummary(ev, baseline_);
        CHECK_CONTAINS(s, "Compile: ok");
        CHECK_CONTAINS(s, "kernel.cpp:27: warning [race_raw]: vector reads UB written by MTE2");
        CHECK_CONTAINS(s, "Verification: FAIL");
        CHECK_CONTAINS(s, "case tail seed 1, output z (float32): 9 of 1001 elements wrong");
        CHECK_CONTAINS(s, "at [992]: expected 1.25, got 0");
        CHECK_CONTAINS(s, "123456 cycles");
        CHECK_CONTAINS(s, "blockDim 1 on 1 cores");
        CHECK_CONTAINS(s, "bottleneck: under_parallelized — Few cores are busy");
        CHECK_CONTAINS(s, "mte2 61%");
        CHECK_CONTAINS(s, "roofline: 4% of the best possible");
        CHECK_CONTAINS(s, "line 21: 62%");
        // hot lines carry their source text
        const std::string line21 = [&] {
            std::istringstream in(baseline_);
            std::string l;
            for (int i = 0; i < 21 && std::getline(in, l); ++i) {}
            return l.substr(l.find_first_not_of(' '));
        }();
        CHECK_CONTAINS(s, "> " + line21);
        QVERIFY(s.size() < 3000);
        // A failed compile shows only the compile section.
        const std::string c = agent::LlmPolicy::evaluationSummary(failedCompile(), baseline_);
        CHECK_CONTAINS(c, "Compile: FAILED with 1 error");
        CHECK_NOT_CONTAINS(c, "Profile");
    }

    void evaluationSummaryFoldsSeedsNamesKernelLinesAndLabelsCycles() {
        // Two seeds failing the same case and output make one block.
        auto ev = profiled();
        auto second = ev.verify.cases[0];
        second.seed = 2;
        ev.verify.cases.push_back(second);
        ev.profile.coresUsed = 8;
        ev.profile.blockDim = 8;
        std::string s = agent::LlmPolicy::evaluationSummary(ev, baseline_);
        CHECK_CONTAINS(s, "case tail seeds 1, 2, output z (float32): 9 of 1001 elements wrong");
        QCOMPARE(s.find("case tail seed"), s.rfind("case tail seed"));
        CHECK_CONTAINS(s, "line 21: 62%, 6250 cycles per core");  // 50000 summed over 8 cores
        CHECK_CONTAINS(s, "cycles per core = the line's busy cycles summed over 8 cores / 8");
        CHECK_CONTAINS(s, "memory-bound ratio = MTE2 (GM->UB) busy time");
        CHECK_CONTAINS(s, "pipe overlap = sum of all pipes' busy time / core time");
        // A kernel that stopped on a simulator error shows no profile.
        ev.run.status = toolchain::RunStatus::SimError;
        s = agent::LlmPolicy::evaluationSummary(ev, baseline_);
        CHECK_CONTAINS(s, "Profile: not shown");
        CHECK_NOT_CONTAINS(s, "cycles per core");
        // An error inside a header shows the kernel line that triggered it.
        eval::Evaluation header = failedCompile();
        header.compile.diagnostics[0].file = "kernel_operator.h";
        header.compile.diagnostics[0].line = 812;
        header.compile.diagnostics[0].notes = {{"kernel.cpp", 28, 9, "in instantiation of function template requested here"}};
        s = agent::LlmPolicy::evaluationSummary(header, baseline_);
        CHECK_CONTAINS(s, "kernel_operator.h:812:5: error: use of undeclared identifier 'qw'");
        CHECK_CONTAINS(s, "note: kernel.cpp:28: in instantiation");
        CHECK_CONTAINS(s, "> kernel.cpp line 28: Add(c, a, b, len);  // COMPUTE");
    }

    // ---------- against the scripted server ----------

    void streamsAReplyAndParsesIt() {
        ScriptedLlmServer server;
        const std::string reply = kernelReply(baseline_, "12, 99", "Kept the baseline; raised nothing.");
        server.script({ScriptedLlmServer::sse(reply, 13, 1)});
        agent::LlmPolicy policy(settingsFor(server));
        auto ctx = context();
        std::vector<std::string> pieces;
        ctx.onToken = [&](const std::string& t) { pieces.push_back(t); };
        auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY2(pieces.size() > 5, std::to_string(pieces.size()).c_str());
        std::string joined;
        for (const auto& t : pieces) joined += t;
        QCOMPARE(joined, reply);  // every piece, in order
        QCOMPARE(p.response, reply);
        QCOMPARE(p.source, baseline_);
        QCOMPARE(p.adoptedIds, (std::vector<int64_t>{12}));  // 99 was never retrieved
        QCOMPARE(p.rationale, std::string("Kept the baseline; raised nothing."));
        CHECK_CONTAINS(p.prompt, "PLATFORM-CARD");
        auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(1));
        const auto& body = reqs[0].body;
        QCOMPARE(body["model"].get<std::string>(), std::string("test-model"));
        QCOMPARE(body["stream"].get<bool>(), true);
        QCOMPARE(body["max_tokens"].get<int>(), 2048);
        QCOMPARE(body["messages"][0]["role"].get<std::string>(), std::string("system"));
        CHECK_CONTAINS(body["messages"][0]["content"].get<std::string>(), "PLATFORM-CARD");
        CHECK_CONTAINS(body["messages"][1]["content"].get<std::string>(), "[E12]");
        QVERIFY(reqs[0].authorization.empty());  // no key variable set
        CHECK_CONTAINS(reqs[0].accept, "text/event-stream");
    }

    void retriesAfter429ThenSucceedsWithJsonFallback() {
        ScriptedLlmServer server;
        const std::string reply = kernelReply(baseline_, "none", "ok");
        server.script({ScriptedLlmServer::status(429, R"({"error":{"message":"slow down"}})"),
                       ScriptedLlmServer::json(reply)});
        agent::LlmPolicy policy(settingsFor(server));
        auto ctx = context();
        std::vector<std::string> pieces;
        ctx.onToken = [&](const std::string& t) { pieces.push_back(t); };
        auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(server.requests().size(), size_t(2));
        QCOMPARE(pieces.size(), size_t(1));  // a JSON answer arrives as one piece
        QCOMPARE(p.source, baseline_);
        QVERIFY(p.adoptedIds.empty());
    }

    void honoursRetryAfter() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::status(503, "busy", "text/plain", {{"Retry-After", "1"}}),
                       ScriptedLlmServer::json(kernelReply(baseline_, "none", "ok"))});
        agent::LlmPolicy policy(settingsFor(server));
        auto p = policy.propose(context());
        QVERIFY2(p.ok, p.error.c_str());
        // The wait is what the run log says was waited (timings belong in benchmarks, not tests).
        std::string notes;
        for (const auto& n : p.notes) notes += n + "\n";
        QVERIFY2(notes.find("retry after") != std::string::npos && notes.find("waiting") != std::string::npos, notes.c_str());
        QCOMPARE(server.requests().size(), size_t(2));
    }

    // A Retry-After far beyond the cap is waited only up to llm.max_retry_after_seconds, and the
    // run log says so.
    void capsAndReportsRetryAfter() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::status(429, R"({"error":{"message":"quota"}})", "application/json",
                                                 {{"Retry-After", "3600"}}),
                       ScriptedLlmServer::json(kernelReply(baseline_, "none", "ok"))});
        auto settings = settingsFor(server);
        settings.maxRetryAfterSeconds = 0.05;
        agent::LlmPolicy policy(settings);
        auto ctx = context();
        std::vector<std::string> notices;
        ctx.onNotice = [&](const std::string& n) { notices.push_back(n); };
        auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(notices.size(), size_t(1));
        CHECK_CONTAINS(notices[0], "HTTP 429 Too Many Requests");
        CHECK_CONTAINS(notices[0], "asks to retry after 3600 s; waiting 0.05 s (capped by llm.max_retry_after_seconds)");
        CHECK_CONTAINS(p.prompt, "### request log");
    }

    void gives500UpAfterMaxRetries() {
        ScriptedLlmServer server;
        std::vector<ScriptedLlmServer::Step> steps;
        for (int i = 0; i < 6; ++i) steps.push_back(ScriptedLlmServer::status(500, R"({"error":{"message":"boom"}})"));
        server.script(steps);
        auto settings = settingsFor(server);
        agent::LlmPolicy policy(settings);
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        QCOMPARE(server.requests().size(), size_t(settings.maxRetries + 1));
        CHECK_CONTAINS(p.error, "HTTP 500");
        CHECK_CONTAINS(p.error, "boom");
        CHECK_CONTAINS(p.error, "after 4 attempts");
    }

    void reports400WithoutRetrying() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::status(400, R"({"error":{"message":"model 'test-model' does not exist"}})"),
                       ScriptedLlmServer::json("never reached")});
        agent::LlmPolicy policy(settingsFor(server));
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        QCOMPARE(server.requests().size(), size_t(1));
        CHECK_CONTAINS(p.error, "HTTP 400 Bad Request");
        CHECK_CONTAINS(p.error, "model 'test-model' does not exist");
        CHECK_CONTAINS(p.error, "rejected");
    }

    void marksMalformedReplies() {
        ScriptedLlmServer server;
        // A reply without code is answered with feedback in the same iteration, at most kFormatRetries times.
        server.script({ScriptedLlmServer::sse("Sorry, I cannot help with kernels today."),
                       ScriptedLlmServer::sse("Still no."), ScriptedLlmServer::sse("No code from me."),
                       ScriptedLlmServer::status(200, "<html>oops</html>", "text/html"),
                       ScriptedLlmServer::status(200, "data: {not json\n\ndata: [DONE]\n\n", "text/event-stream")});
        agent::LlmPolicy policy(settingsFor(server));
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "breaks the contract");
        CHECK_CONTAINS(p.error, "no ```cpp code block");
        CHECK_CONTAINS(p.error, "after 2 feedback rounds");
        QCOMPARE(p.response, std::string("No code from me."));
        CHECK_CONTAINS(p.prompt, "### assistant (reply 1, not usable)\nSorry, I cannot help with kernels today.");
        CHECK_CONTAINS(p.prompt, "### user (feedback 1)\nYour reply cannot be used: no ```cpp code block");
        CHECK_CONTAINS(p.prompt, "### assistant (reply 2, not usable)\nStill no.");
        {
            const auto reqs = server.requests();
            QCOMPARE(reqs.size(), size_t(3));
            const auto& msgs = reqs[2].body["messages"];
            QCOMPARE(msgs.size(), size_t(6));
            QCOMPARE(msgs[2]["role"].get<std::string>(), std::string("assistant"));
            QCOMPARE(msgs[3]["role"].get<std::string>(), std::string("user"));
            CHECK_CONTAINS(msgs[3]["content"].get<std::string>(), "no ```cpp code block");
        }
        p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "not chat-completions JSON");
        p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "streamed no text");
        CHECK_CONTAINS(p.error, "1 malformed");
    }

    void cancelAbortsASlowReplyPromptly() {
        ScriptedLlmServer server;
        // 50 pieces of 40 characters, trickling for ~12 s if nobody cancels.
        constexpr int kPieces = 50;
        server.script({ScriptedLlmServer::sse(std::string(kPieces * 40, 'x'), 60, 100)});
        agent::LlmPolicy policy(settingsFor(server));
        auto ctx = context();
        std::atomic<bool> cancel{false};
        std::atomic<int> tokens{0};
        ctx.cancel = &cancel;
        // The engineer cancels once the reply is streaming (the first piece is the event, not a clock).
        ctx.onToken = [&](const std::string&) {
            ++tokens;
            cancel = true;
        };
        auto p = policy.propose(ctx);
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "cancelled");
        // Promptly: the request ended mid-stream, not after the whole reply had trickled in.
        QVERIFY2(tokens > 0 && tokens < kPieces, std::to_string(tokens).c_str());
    }

    void cancelAbortsABackoffWait() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::status(429, "wait", "text/plain", {{"Retry-After", "30"}})});
        agent::LlmPolicy policy(settingsFor(server));
        auto ctx = context();
        std::atomic<bool> cancel{false};
        ctx.cancel = &cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        auto p = policy.propose(ctx);
        canceller.join();
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "cancelled");
    }

    void timesOut() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::delayed(4, ScriptedLlmServer::json("late"))});
        auto settings = settingsFor(server);
        settings.timeoutSeconds = 0.5;
        agent::LlmPolicy policy(settings);
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "timed out after 0.5 s");  // the configured timeout ended it
        QCOMPARE(server.requests().size(), size_t(1));  // a timeout is not retried
    }

    // A vLLM-style server counts denser than the client's estimate and refuses with HTTP 400: the
    // policy learns the ratio from the count in the refusal, sends a smaller prompt once, says so
    // in the run log, and the iteration goes on.
    void aContextLengthRefusalShrinksThePromptAndRetriesOnce() {
        auto ctx = context();
        for (int i = 0; i < 5; ++i)
            ctx.retrieved.push_back(experience(40 + i, "Extra lesson " + std::to_string(i), std::string(500, char('a' + i))));
        const size_t chars = agent::LlmPolicy::buildPrompt(ctx).size();
        ScriptedLlmServer server;
        auto settings = settingsFor(server);
        settings.maxTokens = 1024;
        settings.contextTokens = int(double(chars) / 2.3) + settings.maxTokens;
        const auto reply = ScriptedLlmServer::sse(kernelReply(baseline_ + "// smaller\n", "none", "fits now"));
        server.script({ScriptedLlmServer::contextLimited(settings.contextTokens, 2.0, reply),
                       ScriptedLlmServer::contextLimited(settings.contextTokens, 2.0, reply)});
        agent::LlmPolicy policy(settings);
        std::vector<std::string> notices;
        ctx.onNotice = [&](const std::string& n) { notices.push_back(n); };
        const auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(2));
        auto textOf = [](const nlohmann::json& body) {
            size_t n = 0;
            for (const auto& m : body["messages"]) n += m["content"].get<std::string>().size();
            return n;
        };
        QVERIFY(textOf(reqs[1].body) < textOf(reqs[0].body));
        QCOMPARE(notices.size(), size_t(1));
        CHECK_CONTAINS(notices[0], "refused the prompt as too long");
        CHECK_CONTAINS(notices[0], "retrying once");
        CHECK_CONTAINS(p.prompt, "### request log");
        QVERIFY(policy.charsPerToken() < 2.0);
    }

    void aSecondRefusalEndsTheIterationWithoutAThirdRequest() {
        ScriptedLlmServer server;
        auto settings = settingsFor(server);
        settings.contextTokens = 8192;
        settings.maxTokens = 1024;
        const auto never = ScriptedLlmServer::contextLimited(100, 2.0, ScriptedLlmServer::json("unreachable"));
        server.script({never, never, never});
        agent::LlmPolicy policy(settings);
        const auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "longer than its context window");
        CHECK_CONTAINS(p.error, "maximum context length is 100 tokens");
        QCOMPARE(server.requests().size(), size_t(2));
    }

    // Required parts that cannot fit are not sent at all: the error says what to change.
    void aPromptOverTheBudgetIsNeverSent() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::json("unreachable")});
        auto settings = settingsFor(server);
        settings.contextTokens = 2048;
        settings.maxTokens = 1536;
        auto ctx = context();
        ctx.parentSource += std::string(6000, ' ') + "\n";
        agent::LlmPolicy policy(settings);
        const auto p = policy.propose(ctx);
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "does not fit the context window");
        CHECK_CONTAINS(p.error, "raise --llm-context or lower --llm-max-tokens");
        QCOMPARE(server.requests().size(), size_t(0));
    }

    // A server that accepts the connection and never answers: the idle clock ends the request (not
    // the total cap, which is far away), once, with a message that names the setting.
    void aServerThatNeverAnswersFailsAtTheIdleTimeout() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::delayed(60, ScriptedLlmServer::json("late")),
                       ScriptedLlmServer::json("never reached")});
        auto settings = settingsFor(server);
        settings.idleTimeoutSeconds = 0.3;
        settings.timeoutSeconds = 3600;
        agent::LlmPolicy policy(settings);
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "sent nothing for 0.3 s after the request was sent");
        CHECK_CONTAINS(p.error, "llm.idle_timeout_seconds ended the request");
        CHECK_NOT_CONTAINS(p.error, "llm.timeout_seconds");
        QCOMPARE(server.requests().size(), size_t(1));  // a dead server is not asked again
    }

    // A slow model that keeps streaming outlives the idle timeout: only silence ends a request.
    void aSlowSteadyStreamIsNotCutByTheIdleTimeout() {
        ScriptedLlmServer server;
        const std::string reply = kernelReply(baseline_ + "// slow\n", "none", "slow but steady");
        server.script({ScriptedLlmServer::sse(reply, reply.size() / 40 + 1, 40)});  // ~40 writes, 40 ms apart
        auto settings = settingsFor(server);
        settings.idleTimeoutSeconds = 1.0;
        agent::LlmPolicy policy(settings);
        auto p = policy.propose(context());
        QVERIFY2(p.ok, p.error.c_str());
        CHECK_CONTAINS(p.source, "// slow");
    }

    // A reply over the size cap is cut off with an error that names the cap.
    void aReplyOverTheSizeCapIsCutOff() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(std::string(300000, 'x'), 4096)});
        auto settings = settingsFor(server);
        settings.maxReplyBytes = 100000;
        agent::LlmPolicy policy(settings);
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "exceeded 100000 bytes (llm.max_reply_bytes)");
    }

    void reportsARefusedConnection() {
        std::string url;
        {
            ScriptedLlmServer gone;
            url = gone.baseUrl();
        }
        agent::LlmSettings s;
        s.baseUrl = url;
        s.timeoutSeconds = 5;
        s.retryBaseSeconds = 0.01;
        agent::LlmPolicy policy(s);
        auto p = policy.propose(context());
        QVERIFY(!p.ok);
        CHECK_CONTAINS(p.error, "cannot connect to " + url + "/chat/completions");
    }

    void aKernelAlreadyEvaluatedIsAnsweredWithFeedback() {
        ScriptedLlmServer server;
        const std::string other = baseline_ + "// another change\n";
        server.script({ScriptedLlmServer::sse(kernelReply(baseline_, "E12", "same again")),
                       ScriptedLlmServer::sse(kernelReply(other, "E12", "something new"))});
        agent::LlmPolicy policy(settingsFor(server));
        auto ctx = context();
        agent::AttemptRecord a;
        a.iteration = 1;
        a.stage = memory::Stage::Optimize;
        a.status = agent::IterationStatus::Ok;
        a.correct = true;
        a.cycles = 4242;
        a.sourceKey = agent::sourceKey(baseline_);
        ctx.history = {a};
        ctx.triedMoves = {a.sourceKey};
        auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(p.source, other);
        QCOMPARE(server.requests().size(), size_t(2));
        CHECK_CONTAINS(p.prompt, "### user (feedback 1)\nYour reply cannot be used: this kernel is identical to one already "
                                 "evaluated in this run (iteration 1: ok, 4242 cycles)");
        QCOMPARE(p.response, kernelReply(other, "E12", "something new"));
    }

    void aReplyWithoutAdoptionIsKeptAndMarkedUnknown() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse("```cpp\n" + baseline_ + "```\nRATIONALE: no adoption line.\n")});
        agent::LlmPolicy policy(settingsFor(server));
        auto p = policy.propose(context());
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.adoptionUnknown);
        QVERIFY(p.adoptedIds.empty());
        QCOMPARE(server.requests().size(), size_t(1));  // no feedback round for a missing adoption
    }

    void theRequestUsesTheEndpointSettings() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(kernelReply(baseline_, "none", "ok"))});
        auto settings = settingsFor(server);
        settings.contextTokens = 8192;
        settings.maxTokens = 1536;
        settings.temperature = 0.7;
        agent::LlmPolicy policy(settings);
        auto ctx = context();
        ctx.platformCard = std::string(200000, 'c');  // a card far beyond the window: required parts still go
        auto p = policy.propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(1));
        const auto& body = reqs[0].body;
        QVERIFY2(body.is_object(), body.dump().substr(0, 200).c_str());
        QCOMPARE(body["max_tokens"].get<int>(), 1536);
        QCOMPARE(body["temperature"].get<double>(), 0.7);
        CHECK_CONTAINS(p.prompt, "### prompt sizes");
        CHECK_CONTAINS(p.prompt, "of a budget of 6656");
        QCOMPARE(policy.settings()["context_tokens"].get<int>(), 8192);
        // Stored with the run settings, never with the key.
        agent::AgentSettings s;
        s.llm = settings;
        const auto back = agent::AgentSettings::fromJson(s.toJson());
        QCOMPARE(back.llm.contextTokens, 8192);
        QCOMPARE(back.llm.maxTokens, 1536);
        QCOMPARE(back.llm.temperature, 0.7);
    }

    void apiKeyIsSentButNeverLeaks() {
        const std::string key = "sk-test-0123456789-secret";
        qputenv("SAGE_TEST_LLM_KEY", QByteArray::fromStdString(key));
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::status(401, R"({"error":{"message":"Incorrect API key provided: )" + key + R"("}})"),
                       ScriptedLlmServer::sse(kernelReply(baseline_, "7", "echo " + key), 13, 0, 7)});
        auto settings = settingsFor(server);
        settings.apiKeyEnv = "SAGE_TEST_LLM_KEY";
        agent::LlmPolicy policy(settings);
        auto denied = policy.propose(context());
        auto ctx = context();
        std::string streamed;
        ctx.onToken = [&](const std::string& t) { streamed += t; };
        auto accepted = policy.propose(ctx);  // the reply echoes the key, split across deltas
        qunsetenv("SAGE_TEST_LLM_KEY");

        auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(2));
        for (const auto& r : reqs) {
            QCOMPARE(r.authorization, "Bearer " + key);
            CHECK_NOT_CONTAINS(r.body.dump(), key);
        }
        QVERIFY(!denied.ok);
        CHECK_CONTAINS(denied.error, "HTTP 401");
        CHECK_CONTAINS(denied.error, "[redacted]");
        CHECK_CONTAINS(denied.error, "$SAGE_TEST_LLM_KEY");
        QVERIFY2(accepted.ok, accepted.error.c_str());
        for (const auto& p : {denied, accepted})
            for (const auto& text : {p.error, p.prompt, p.response, p.rationale, p.source, p.move})
                CHECK_NOT_CONTAINS(text, key);
        CHECK_NOT_CONTAINS(policy.settings().dump(), key);
        CHECK_NOT_CONTAINS(streamed, key);
        CHECK_CONTAINS(streamed, "echo [redacted]");
        QCOMPARE(streamed, accepted.response);
    }

    void distillsALessonOrNothing() {
        ScriptedLlmServer server;
        server.script(
            {ScriptedLlmServer::json("Sure!\n```json\n{\"title\": \"Split over all vector cores\", \"content\": \"When an "
                                     "elementwise kernel runs on one block, split N over 48 blocks.\", \"kind\": "
                                     "\"optimisation\", \"evidence_pattern\": \"GetBlockIdx\\\\(\\\\)\",}\n```"),
             ScriptedLlmServer::json("I learned a lot."), ScriptedLlmServer::status(500, "down")});
        auto settings = settingsFor(server);
        settings.maxRetries = 0;
        agent::LlmPolicy policy(settings);
        auto ctx = context();
        agent::PolicyProposal proposal;
        proposal.ok = true;
        proposal.source = baseline_ + "// faster\n";
        proposal.rationale = "More blocks.";
        auto before = profiled(), after = profiled();
        after.profile.totalCycles = 12345;
        auto lesson = policy.distill(ctx, proposal, before, after);
        QVERIFY(lesson.has_value());
        QCOMPARE(lesson->title, std::string("Split over all vector cores"));
        CHECK_CONTAINS(lesson->content, "48 blocks");
        QCOMPARE(lesson->kind, std::string("optimization"));
        QCOMPARE(lesson->evidencePattern, std::string("GetBlockIdx\\(\\)"));
        auto reqs = server.requests();
        QCOMPARE(reqs[0].body["stream"].get<bool>(), false);
        const std::string asked = reqs[0].body["messages"][1]["content"].get<std::string>();
        CHECK_CONTAINS(asked, "+// faster");       // the diff
        CHECK_CONTAINS(asked, "Speedup: 10x");
        QVERIFY(!policy.distill(ctx, proposal, before, after).has_value());  // no JSON
        QVERIFY(!policy.distill(ctx, proposal, before, after).has_value());  // HTTP 500
    }
};

QTEST_APPLESS_MAIN(TestLlmPolicy)
#include "test_llm_policy.moc"
