// Hostile outside input: JSON nested 300,000 levels deep from every place the workbench reads
// JSON (a model server's reply, error body and SSE events, a memory import, a task file, a device
// profile), and a hostile OpenAI-compatible server (malformed, hanging, truncated, echoing the
// key). Every case ends in a clear error naming its source, never a crash.
#include "ScriptedLlmServer.h"
#include "core/agent/src/OpenAiClient.h"
#include "sage_eval/Task.h"
#include "sage_json/BoundedJson.h"
#include "sage_memory/Database.h"
#include "sage_memory/ExperienceRepository.h"
#include "sage_memory/JsonlExchange.h"
#include "sage_memory/MemoryError.h"
#include "sage_memory/MemorySchema.h"
#include "sage_eval/CompatScan.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/Expression.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace sage;
using sage::test::ScriptedLlmServer;

namespace {

constexpr size_t kDeep = 300'000;

std::string deepArrays() { return std::string(kDeep, '[') + std::string(kDeep, ']'); }
std::string deepObjects() {
    std::string s;
    for (size_t i = 0; i < kDeep; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(kDeep, '}');
    return s;
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

} // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    const std::string key_ = "sk-test-sage-hostile-9b2d71";

    agent::LlmSettings settingsFor(const ScriptedLlmServer& server, double timeout = 10) {
        agent::LlmSettings s;
        s.baseUrl = server.baseUrl();
        s.timeoutSeconds = timeout;
        s.maxRetries = 0;
        s.retryBaseSeconds = 0.01;
        s.apiKeyEnv = "SAGE_FAKE_KEY";
        return s;
    }
    agent::ChatResult ask(ScriptedLlmServer& server, bool stream, double timeout = 10) {
        agent::OpenAiClient client(settingsFor(server, timeout));
        return client.complete({{"user", "write a kernel"}}, stream, nullptr);
    }
    static ScriptedLlmServer::Step raw(int status, std::string body, std::string type = "application/json") {
        return ScriptedLlmServer::status(status, std::move(body), std::move(type));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("SAGE_FAKE_KEY", QByteArray::fromStdString(key_));
    }

    // --- the depth check itself --------------------------------------------------------------
    void depthCheckCountsArraysAndObjectsButNotStrings() {
        QVERIFY(sage_json::firstTooDeep(deepArrays()) != std::string_view::npos);
        QVERIFY(sage_json::firstTooDeep(deepObjects()) != std::string_view::npos);
        // Brackets inside strings (escaped quotes included) never count.
        const std::string inString = "{\"s\":\"" + std::string(kDeep, '[') + "\\\"" + std::string(kDeep, '{') + "\"}";
        QCOMPARE(sage_json::firstTooDeep(inString), std::string_view::npos);
        QVERIFY(sage_json::parse(inString, "test").at("s").get<std::string>().size() > kDeep);
        // Exactly the limit is fine; one more is refused.
        const size_t n = sage_json::kMaxDepth;
        QVERIFY(!sage_json::parse(std::string(n, '[') + std::string(n, ']'), "test").is_discarded());
        QVERIFY(sage_json::parseOrDiscarded(std::string(n + 1, '[') + std::string(n + 1, ']')).is_discarded());
        try {
            sage_json::parse(deepObjects(), "my-source.json");
            QFAIL("a 300,000-deep document was accepted");
        } catch (const sage_json::TooDeep& e) {
            QVERIFY2(std::string(e.what()).find("my-source.json") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("nested deeper") != std::string::npos, e.what());
        }
    }

    // --- files --------------------------------------------------------------------------------
    void deepDeviceProfileIsAClearError() {
        const std::string path = dir_.filePath("deep.json").toStdString();
        writeText(path, deepArrays());
        try {
            toolchain::DeviceCatalog::loadFile(path);
            QFAIL("a deep device profile was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("nested deeper") != std::string::npos, e.what());
        }
    }
    void deepTaskFileIsAClearError() {
        const QString taskDir = dir_.filePath("tasks/deep_task");
        QVERIFY(QDir().mkpath(taskDir));
        writeText((taskDir + "/task.json").toStdString(), deepObjects());
        auto set = eval::TaskSet::load({dir_.filePath("tasks").toStdString()});
        QCOMPARE(set.errors.size(), size_t(1));
        QVERIFY2(set.errors[0].find("deep_task/task.json") != std::string::npos, set.errors[0].c_str());
        QVERIFY2(set.errors[0].find("nested deeper") != std::string::npos, set.errors[0].c_str());
    }
    void deepMemoryImportLineIsAClearError() {
        memory::Database db(dir_.filePath("memory.db").toStdString(), {memory::MemorySchema::module()});
        memory::ExperienceRepository repo(db);
        memory::JsonlExchange exchange(repo);
        std::stringstream in("{\"title\":\"fine\",\"content\":\"fine\"}\n" + deepArrays() + "\n");
        try {
            exchange.read(in, "hostile.jsonl");
            QFAIL("a deep import line was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("nested deeper") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("hostile.jsonl") != std::string::npos, e.what());
        }
    }

    // --- expressions, import lines, file names ------------------------------------------------
    void millionDeepShapeExpressionIsAClearError() {
        const auto none = [](const std::string&) -> std::optional<double> { return std::nullopt; };
        const std::string million = std::string(1'000'000, '(') + "1" + std::string(1'000'000, ')');
        QVERIFY_THROWS_EXCEPTION(toolchain::ExpressionError, toolchain::evaluate(million, none));
        try {
            toolchain::evaluate(million, none);
        } catch (const toolchain::ExpressionError& e) {
            QVERIFY2(std::string(e.what()).find("longer than") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).size() < 500, "the error quotes the whole expression");
        }
        const std::string deep = std::string(1000, '(') + "1" + std::string(1000, ')');
        try {
            toolchain::evaluate(deep, none);
            QFAIL("a 1000-deep expression was evaluated");
        } catch (const toolchain::ExpressionError& e) {
            QVERIFY2(std::string(e.what()).find("nested deeper") != std::string::npos, e.what());
        }
        QCOMPARE(toolchain::evaluate("((2 + 3)) * -(-4)", none), 20.0);  // ordinary nesting still works
        // Through a task file: the shape of a tensor.
        const QString taskDir = dir_.filePath("tasks-expr/deep_shape");
        QVERIFY(QDir().mkpath(taskDir));
        writeText((taskDir + "/task.json").toStdString(),
                  "{\"name\":\"deep_shape\",\"category\":\"elementwise\",\"description\":\"d\",\"inputs\":[{\"name\":\"x\","
                  "\"dtype\":\"float32\",\"shape\":[\"" + std::string(1'000'000, '(') + "N" + std::string(1'000'000, ')') +
                  "\"]}],\"outputs\":[{\"name\":\"z\",\"dtype\":\"float32\",\"shape\":[\"N\"]}],"
                  "\"cases\":[{\"name\":\"small\",\"dims\":{\"N\":8},\"perf\":true}]}");
        auto set = eval::TaskSet::load({dir_.filePath("tasks-expr").toStdString()});
        if (set.errors.empty()) {
            const eval::Task* task = set.find("deep_shape");
            QVERIFY(task);
            QVERIFY_THROWS_EXCEPTION(toolchain::ExpressionError, task->tensorsFor(task->cases.front()));
        }
    }
    void hugeMemoryImportLineIsRefusedUnread() {
        memory::Database db(dir_.filePath("memory-huge.db").toStdString(), {memory::MemorySchema::module()});
        memory::ExperienceRepository repo(db);
        memory::JsonlExchange exchange(repo);
        // A valid entry of 6 MiB: far beyond any exported entry.
        std::stringstream big("{\"title\":\"t\",\"content\":\"" + std::string(6 << 20, 'a') + "\"}\n");
        try {
            exchange.read(big, "huge.jsonl");
            QFAIL("a 6 MiB import line was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("huge.jsonl:1") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("longer than") != std::string::npos, e.what());
        }
        // An invalid line under the cap is reported without echoing it whole.
        std::stringstream bad("{\"title\":\"" + std::string(3 << 20, 'b') + "\n");
        try {
            exchange.read(bad, "bad.jsonl");
            QFAIL("an invalid import line was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("bad.jsonl:1") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).size() < 2000,
                     ("the error echoes the line: " + std::to_string(std::string(e.what()).size()) + " bytes").c_str());
        }
        QCOMPARE(repo.count(), 0);
    }
    void newlineFileNamesCannotInjectCode() {
        // An op project whose op_host header's name carries a directive of its own.
        const std::string op = dir_.filePath("ops/evil_op").toStdString();
        std::filesystem::create_directories(op + "/op_host");
        std::filesystem::create_directories(op + "/op_kernel");
        writeText(op + "/op_host/t.h\n#error INJECTED", "BEGIN_TILING_DATA_DEF(EvilTiling)\nEND_TILING_DATA_DEF;\n");
        writeText(op + "/op_kernel/k.cpp", "#include \"kernel_operator.h\"\n");
        const auto build = eval::prepareOpKernel(dir_.filePath("ops").toStdString(), op + "/op_kernel/k.cpp", "/nonexistent");
        QVERIFY2(build.request.prelude.find("\n#error INJECTED") == std::string::npos, build.request.prelude.c_str());
    }
    void newlineFileNamesCannotForgeReportLines() {
        eval::CompatReport report;
        eval::CompatFile f;
        f.path = "ops/x/op_kernel/k\nRESULT: PASS\n.cpp";
        f.firstError = "k.cpp:1: boom\nRESULT: PASS";
        report.files.push_back(f);
        const std::string text = report.toText();
        QVERIFY2(text.find("\nRESULT: PASS") == std::string::npos, text.c_str());
        QVERIFY2(text.find("k\\nRESULT: PASS") != std::string::npos, text.c_str());  // shown, escaped
    }

    // --- a hostile model server ----------------------------------------------------------------
    void deepReplyBodyIsAClearError() {
        ScriptedLlmServer server;
        server.script({raw(200, deepObjects())});
        auto r = ask(server, false);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("not chat-completions JSON") != std::string::npos, r.error.c_str());
    }
    void deepErrorBodyIsAClearError() {
        ScriptedLlmServer server;
        server.script({raw(500, deepArrays())});
        auto r = ask(server, false);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("500") != std::string::npos, r.error.c_str());
    }
    void deepSseEventIsAClearError() {
        ScriptedLlmServer server;
        server.script({raw(200, "data: " + deepObjects() + "\n\ndata: [DONE]\n\n", "text/event-stream")});
        auto r = ask(server, true);
        QVERIFY2(!r.ok || r.content.empty(), r.error.c_str());
    }
    void malformedReplyIsAClearError() {
        ScriptedLlmServer server;
        server.script({raw(200, "{\"choices\": [ {\"message\": ")});
        auto r = ask(server, false);
        QVERIFY(!r.ok);
        QVERIFY2(!r.error.empty(), "no error message for a malformed reply");
    }
    void truncatedStreamIsReported() {
        ScriptedLlmServer server;
        server.script({raw(200, ScriptedLlmServer::sseStream("half a kernel").substr(0, 60), "text/event-stream")});
        auto r = ask(server, true);
        QVERIFY2(!r.ok, r.content.c_str());
        QVERIFY(!r.error.empty());
    }
    void hangingServerTimesOut() {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::delayed(30, ScriptedLlmServer::json("late"))});
        auto r = ask(server, false, 1.0);
        QVERIFY(!r.ok);
        QVERIFY(r.timedOut);
    }
    void keyEchoedByTheServerIsRedacted() {
        ScriptedLlmServer server;
        server.script({raw(401, R"({"error":{"message":"bad key )" + key_ + R"("}})")});
        auto r = ask(server, false);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find(key_) == std::string::npos, r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "test_hostile_inputs.moc"
