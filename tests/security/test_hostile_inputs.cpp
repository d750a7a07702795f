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
#include "sage_toolchain/DeviceCatalog.h"

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
