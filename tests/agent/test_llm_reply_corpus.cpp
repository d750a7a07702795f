// The reply parser over a corpus of realistic replies (tests/agent/data/llm_replies, written by
// generate.py there): instruction-following models, reasoning models (<think> pairs and a lone
// </think>), fence variants, SEARCH/REPLACE blocks and unified diffs applied to a parent, partial
// files, JSON adoption trailers and odd adoption lines. corpus.json states for each reply whether
// it is usable, what the candidate must (not) contain, the adopted ids and whether the adoption was
// readable, or which problem the feedback must name. The shapes that live in the HTTP answer, not
// in the text (reasoning_content only, tool calls with null content, empty choices, a UTF-8
// character split across two SSE deltas), and what the policy answers to each, are driven
// through a scripted server below.
#include "ScriptedLlmServer.h"
#include "sage_agent/LlmPolicy.h"
#include "sage_eval/Task.h"

#include <QtTest/QtTest>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace sage;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::string kDir = SAGE_LLM_REPLIES_DIR;

using sage::test::ScriptedLlmServer;

// JSON string content with quotes, backslashes and newlines escaped but every other byte kept
// raw, as a server that cuts a UTF-8 character between two deltas sends it.
std::string rawJsonString(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

std::string sseEvent(const std::string& deltaJson, const std::string& finish = "") {
    return "data: {\"choices\":[{\"index\":0,\"delta\":" + deltaJson + ",\"finish_reason\":" +
           (finish.empty() ? std::string("null") : "\"" + finish + "\"") + "}]}\n\n";
}

ScriptedLlmServer::Step rawSse(const std::string& body) {
    return ScriptedLlmServer::status(200, body, "text/event-stream");
}

// The last user message of a recorded request: the feedback the model was given.
std::string lastUserMessage(const ScriptedLlmServer::Recorded& r) {
    std::string last;
    for (const auto& m : r.body["messages"])
        if (m["role"] == "user") last = m["content"].get<std::string>();
    return last;
}

} // namespace

class TestLlmReplyCorpus : public QObject {
    Q_OBJECT
    std::string parent_;
    nlohmann::json corpus_;

private slots:
    void initTestCase() {
        parent_ = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd").baselineSource;
        QVERIFY(!parent_.empty());
        corpus_ = nlohmann::json::parse(readFile(kDir + "/corpus.json"));
        QVERIFY(corpus_.is_array());
        QVERIFY2(corpus_.size() >= 40, std::to_string(corpus_.size()).c_str());
        std::set<std::string> families;
        for (const auto& c : corpus_) families.insert(c["family"].get<std::string>());
        QVERIFY(families.size() >= 5);
    }

    void parsesEveryReply_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expectation");
        for (const auto& c : corpus_) {
            const std::string file = c["file"];
            QTest::newRow(file.c_str()) << QString::fromStdString(file) << QString::fromStdString(c.dump());
        }
    }

    void parsesEveryReply() {
        QFETCH(QString, file);
        QFETCH(QString, expectation);
        const auto e = nlohmann::json::parse(expectation.toStdString());
        const std::string reply = readFile(kDir + "/" + file.toStdString());
        QVERIFY2(!reply.empty(), "reply file missing or empty");
        const auto r = agent::LlmPolicy::parseReply(reply, e.value("parent", true) ? parent_ : std::string());
        const std::string where = file.toStdString() + ": " + (r.ok ? "ok" : r.error);
        QCOMPARE(r.ok, e["ok"].get<bool>());
        if (!r.ok) {
            QVERIFY2(r.source.empty(), where.c_str());
            const std::string want = e["error"];
            QVERIFY2(r.error.find(want) != std::string::npos, (where + "\n  expected: " + want).c_str());
            return;
        }
        QVERIFY2(r.error.empty(), where.c_str());
        for (const auto& s : e.value("contains", nlohmann::json::array()))
            QVERIFY2(r.source.find(s.get<std::string>()) != std::string::npos,
                     (where + ": source lacks " + s.get<std::string>() + "\n" + r.source).c_str());
        for (const auto& s : e.value("not_contains", nlohmann::json::array()))
            QVERIFY2(r.source.find(s.get<std::string>()) == std::string::npos,
                     (where + ": source has " + s.get<std::string>()).c_str());
        // Whatever was taken is a kernel file, never a fragment.
        QVERIFY2(r.source.find("__aicore__") != std::string::npos || r.source.find("SAGE_HOST") != std::string::npos,
                 where.c_str());
        if (e.contains("adopted")) QCOMPARE(r.adopted, e["adopted"].get<std::vector<int64_t>>());
        if (e.contains("adoption_known")) QCOMPARE(r.adoptionKnown, e["adoption_known"].get<bool>());
        QCOMPARE(r.edited, e.value("edited", false));
        if (e.contains("rationale"))
            QVERIFY2(r.rationale.find(e["rationale"].get<std::string>()) != std::string::npos, r.rationale.c_str());
    }

    // An edit reply applied to the parent reproduces the parent everywhere outside the edit.
    void editsKeepTheRestOfTheParent() {
        const std::string reply = "<<<<<<< SEARCH\n        Add(c, a, b, len);  // COMPUTE\n=======\n        Add(c, b, a, len);\n"
                                  ">>>>>>> REPLACE\nADOPTED: none\n";
        const auto r = agent::LlmPolicy::parseReply(reply, parent_);
        QVERIFY2(r.ok, r.error.c_str());
        std::string expected = parent_;
        expected.replace(expected.find("Add(c, a, b, len);  // COMPUTE"), 30, "Add(c, b, a, len);");
        if (expected.back() != '\n') expected += "\n";
        QCOMPARE(r.source, expected);
    }

    // ---- shapes in the HTTP answer, through the policy and a scripted server ----

    agent::LlmSettings settingsFor(const ScriptedLlmServer& server) {
        agent::LlmSettings s = server.llmSettings();
        s.maxTokens = 1024;
        s.maxRetries = 2;
        return s;
    }

    agent::PolicyContext context(const eval::Task& task) {
        agent::PolicyContext ctx;
        ctx.task = &task;
        ctx.stage = memory::Stage::Optimize;
        ctx.parentSource = parent_;
        ctx.platformCard = "## 1. Programming model\n\nTQue, DataCopy.\n";
        memory::ScoredExperience e;
        e.experience.id = 7;
        e.experience.title = "Double-buffer the input queues";
        e.experience.content = "InitBuffer(q, 2, bytes).";
        ctx.retrieved = {e};
        return ctx;
    }

    std::string goodReply(const std::string& adopted = "E7") {
        return "```cpp\n" + parent_ + "// MARK-GOOD\n```\nADOPTED: " + adopted + "\nRATIONALE: r\n";
    }

    // All tokens went to reasoning_content, the answer is empty: the model is told so and answers.
    void serverReasoningOnlyGetsFeedback() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        ScriptedLlmServer server;
        const std::string thinking = sseEvent(R"({"role":"assistant","content":null,"reasoning_content":"Let me think about tiles..."})") +
                                     sseEvent(R"({"reasoning_content":" more thinking"})", "length") + "data: [DONE]\n\n";
        server.script({rawSse(thinking), ScriptedLlmServer::sse(goodReply())});
        agent::LlmPolicy policy(settingsFor(server));
        const auto p = policy.propose(context(task));
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.source.find("MARK-GOOD") != std::string::npos);
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(2));
        const std::string feedback = lastUserMessage(reqs[1]);
        QVERIFY2(feedback.find("spent its reply on reasoning") != std::string::npos, feedback.c_str());
        QVERIFY2(feedback.find("finish_reason length") != std::string::npos, feedback.c_str());
        QVERIFY(feedback.find("answer directly") != std::string::npos);
    }

    // content null with tool_calls: no tools exist here, and the model is told to answer in text.
    void serverToolCallsGetFeedback() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        ScriptedLlmServer server;
        const nlohmann::json toolCall = {
            {"choices", {{{"index", 0}, {"finish_reason", "tool_calls"},
                          {"message", {{"role", "assistant"}, {"content", nullptr},
                                       {"tool_calls", {{{"id", "c1"}, {"type", "function"},
                                                        {"function", {{"name", "write_file"}, {"arguments", "{}"}}}}}}}}}}}};
        server.script({ScriptedLlmServer::status(200, toolCall.dump()), ScriptedLlmServer::sse(goodReply())});
        agent::LlmPolicy policy(settingsFor(server));
        const auto p = policy.propose(context(task));
        QVERIFY2(p.ok, p.error.c_str());
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), size_t(2));
        const std::string feedback = lastUserMessage(reqs[1]);
        QVERIFY2(feedback.find("answered with tool calls and no text") != std::string::npos, feedback.c_str());
        QVERIFY(feedback.find("no tools are available here") != std::string::npos);
    }

    // An empty choices array is retried; when it stays empty, the error says what it was.
    void serverEmptyChoicesAreRetriedThenNamed() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        const std::string empty = R"({"id":"x","object":"chat.completion","choices":[]})";
        {
            ScriptedLlmServer server;
            server.script({ScriptedLlmServer::status(200, empty), ScriptedLlmServer::sse(goodReply())});
            const auto p = agent::LlmPolicy(settingsFor(server)).propose(context(task));
            QVERIFY2(p.ok, p.error.c_str());
            QCOMPARE(server.requests().size(), size_t(2));
        }
        ScriptedLlmServer server;
        const auto step = ScriptedLlmServer::status(200, empty);
        server.script({step, step, step, step});
        const auto p = agent::LlmPolicy(settingsFor(server)).propose(context(task));
        QVERIFY(!p.ok);
        QVERIFY2(p.error.find("empty choices array after 3 attempts") != std::string::npos, p.error.c_str());
    }

    // A character cut between two deltas (raw bytes in each JSON string) keeps every byte, in the
    // reply and in what is streamed to the panel.
    void serverSplitUtf8KeepsEveryByte() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        const std::string reply = goodReply() + "Note: caf\xC3\xA9 \xE2\x86\x92 tiles \xF0\x9F\x9A\x80 done\n";
        std::string body;
        for (size_t i = 0; i < reply.size(); i += 7)  // 7-byte deltas cut through every multi-byte character
            body += sseEvent("{\"content\":\"" + rawJsonString(reply.substr(i, 7)) + "\"}");
        body += sseEvent("{}", "stop") + "data: [DONE]\n\n";
        ScriptedLlmServer server;
        server.script({rawSse(body)});
        auto ctx = context(task);
        std::string streamed;
        ctx.onToken = [&](const std::string& t) { streamed += t; };
        const auto p = agent::LlmPolicy(settingsFor(server)).propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(p.response, reply);
        QCOMPARE(streamed, reply);
    }

    // A reply cut at max_tokens inside the code gets feedback that says so, not "no code block".
    void serverReplyCutAtMaxTokensGetsTruthfulFeedback() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        const std::string cut = "```cpp\n" + parent_.substr(0, 200);
        std::string body = sseEvent("{\"content\":\"" + rawJsonString(cut) + "\"}", "length") + "data: [DONE]\n\n";
        ScriptedLlmServer server;
        server.script({rawSse(body), ScriptedLlmServer::sse(goodReply())});
        const auto p = agent::LlmPolicy(settingsFor(server)).propose(context(task));
        QVERIFY2(p.ok, p.error.c_str());
        const std::string feedback = lastUserMessage(server.requests()[1]);
        QVERIFY2(feedback.find("not closed: the reply was cut off") != std::string::npos, feedback.c_str());
        QVERIFY(feedback.find("stopped at max_tokens = 1024") != std::string::npos);
        QVERIFY(feedback.find("no usable") == std::string::npos);
    }

    // A placeholder reply is answered with feedback and never becomes the candidate; ADOPTED: E9999
    // (never shown) is reported and not counted.
    void serverPlaceholderRefusedAndUnknownIdReported() {
        const auto task = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        std::string placeholder = parent_;
        placeholder.replace(placeholder.find("Add(c, a, b, len);  // COMPUTE"), 30, "// ... rest unchanged");
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse("```cpp\n" + placeholder + "```\nADOPTED: none\n"),
                       ScriptedLlmServer::sse(goodReply("E7, E9999"))});
        auto ctx = context(task);
        std::vector<std::string> notices;
        ctx.onNotice = [&](const std::string& n) { notices.push_back(n); };
        const auto p = agent::LlmPolicy(settingsFor(server)).propose(ctx);
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.source.find("rest unchanged") == std::string::npos);
        QVERIFY(lastUserMessage(server.requests()[1]).find("placeholder") != std::string::npos);
        QCOMPARE(p.adoptedIds, std::vector<int64_t>{7});
        QCOMPARE(p.declaredNotShown, std::vector<int64_t>{9999});
        QCOMPARE(notices.size(), size_t(1));
        QVERIFY2(notices[0].find("E9999") != std::string::npos && notices[0].find("not shown") != std::string::npos,
                 notices[0].c_str());
    }

    // Hostile input: huge, binary and deeply nested replies end in a verdict, not a crash.
    void hostileRepliesDoNotCrash() {
        for (const std::string& reply :
             {std::string(200000, '`'), std::string("\0\x01\xff```cpp\n\xfe\n```", 14), std::string(50000, '{'),
              std::string("<<<<<<< SEARCH\n") + std::string(10000, '\n') + "=======\n>>>>>>> REPLACE\n",
              std::string("</think>") + std::string(1000, '<') + "think>",
              "```cpp\n" + std::string(300000, 'x') + "\n```\nADOPTED: " + std::string(300000, '7') + "\n",
              "ADOPTED: none\n{\"adopted\": [" + std::string(300000, ' ') + "]}\n"}) {
            const auto r = agent::LlmPolicy::parseReply(reply, parent_);
            QVERIFY(!r.ok);
            QVERIFY(!r.error.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TestLlmReplyCorpus)
#include "test_llm_reply_corpus.moc"
