// The reply parser over a corpus of realistic replies (tests/agent/data/llm_replies, written by
// generate.py there): instruction-following models, reasoning models (<think> pairs and a lone
// </think>), fence variants, SEARCH/REPLACE blocks and unified diffs applied to a parent, partial
// files, JSON adoption trailers and odd adoption lines. corpus.json states for each reply whether
// it is usable, what the candidate must (not) contain, the adopted ids and whether the adoption was
// readable, or which problem the feedback must name.
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
