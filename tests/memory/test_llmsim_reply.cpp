// The scripted LLM arm (issue 12): it reads the experience blocks and the parent kernel from a
// prompt, applies one entry's action, and declares (or does not declare) what it applied, so the
// adoption weights 1.0, 0.6 and 0.3 all occur. Deterministic for (seed, prompt).
#include "ScriptedReply.h"

#include <QtTest>

using sage::llmsim::ScriptedReply;
using nlohmann::json;

namespace {

const char* kPrompt =
    "## Task: add\n\n## Parent candidate (line numbers added for reference; do not copy them)\n\n```cpp\n"
    " 1 | constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512}\n"
    " 2 | constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}\n"
    " 3 | constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 2, 8}\n"
    "```\n\n## Experiences retrieved from memory\n\n"
    "Lessons from earlier runs, best match first.\n\n"
    "[E12] multicore-raise-block-dim (optimization, stage optimize; bottleneck under_parallelized; value +0.00)\n"
    "Use every core.\n\n"
    "#7 double-buffer-initbuffer-2 (optimization)\nTwo buffers.\nAction: {\"type\":\"set_tunable\",\"name\":\"BUFFER_NUM\",\"value\":2}\n\n"
    "[E30] prose-only (insight)\nJust words.\n\n## Your job (optimize)\n\nMake it faster.\n";

} // namespace

class TestLlmsimReply : public QObject {
    Q_OBJECT

private slots:
    void parsesBlocksAndParent() {
        const auto blocks = ScriptedReply::parseExperiences(kPrompt);
        QCOMPARE(blocks.size(), std::size_t(3));
        QCOMPARE(blocks[0].id, std::int64_t(12));
        QCOMPARE(blocks[0].title, std::string("multicore-raise-block-dim"));
        QVERIFY(blocks[0].action.is_null());  // not in the prompt: comes from the pack
        QCOMPARE(blocks[1].id, std::int64_t(7));
        QCOMPARE(blocks[1].action["name"].get<std::string>(), std::string("BUFFER_NUM"));
        const std::string parent = ScriptedReply::parentKernel(kPrompt);
        QVERIFY(parent.rfind("constexpr uint32_t TILE_LENGTH = 256;", 0) == 0);  // numbers stripped
        QVERIFY(ScriptedReply::parentKernel("no kernel here").empty());
    }

    void appliesAndDeclaresByTheOdds() {
        const std::map<std::string, json> pack = {
            {"multicore-raise-block-dim", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", "cores"}}}};
        int applied = 0, declaredApplied = 0;
        for (std::uint64_t seed = 0; seed < 40; ++seed) {
            ScriptedReply model({seed, 0.0, 0.0}, pack);
            const auto c = model.answer(kPrompt);
            QVERIFY(c.applied == 12 || c.applied == 7);
            ++applied;
            declaredApplied += c.declared == std::vector<std::int64_t>{c.applied};
            QVERIFY(c.reply.find("```cpp\n") != std::string::npos);
            QVERIFY(c.reply.find("ADOPTED: E" + std::to_string(c.applied)) != std::string::npos);
            if (c.applied == 12) QVERIFY(c.reply.find("BLOCK_DIM = 8;") != std::string::npos);
            if (c.applied == 7) QVERIFY(c.reply.find("BUFFER_NUM = 2;") != std::string::npos);
            QCOMPARE(model.answer(kPrompt).reply, c.reply);  // deterministic
        }
        QCOMPARE(declaredApplied, applied);
        // Never declares: evidence only. Always adds a false claim: one entry it did not apply.
        ScriptedReply silent({3, 1.0, 0.0}, pack);
        const auto s = silent.answer(kPrompt);
        QVERIFY(s.applied != 0);
        QVERIFY(s.declared.empty());
        QVERIFY(s.reply.find("ADOPTED: none") != std::string::npos);
        ScriptedReply claims({3, 0.0, 1.0}, pack);
        const auto f = claims.answer(kPrompt);
        QCOMPARE(f.declared.size(), std::size_t(2));
        QVERIFY(f.declared[1] != f.applied);
    }

    // Entries under the prompt's "avoid" heading (negative learned value) are left alone unless a
    // reply ignores the instruction, which happens with probability ignoreAvoid.
    void leavesAvoidedEntriesAloneByTheOdds() {
        std::string prompt = kPrompt;
        prompt.insert(prompt.find("## Your job"),
                      "## Experiences to avoid\n\nTheir learned value is negative.\n\n"
                      "[E40] shrink-block-dim (optimization, stage optimize; value -0.40)\nUse two cores.\n\n");
        const auto blocks = ScriptedReply::parseExperiences(prompt);
        QCOMPARE(blocks.size(), std::size_t(4));
        QVERIFY(!blocks[0].avoid && !blocks[2].avoid);
        QVERIFY(blocks[3].avoid);
        QCOMPARE(blocks[3].id, std::int64_t(40));
        const std::map<std::string, json> pack = {
            {"shrink-block-dim", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", 2}}}};
        int avoidedApplied = 0, ignoringApplied = 0;
        for (std::uint64_t seed = 0; seed < 100; ++seed) {
            avoidedApplied += ScriptedReply({seed, 0.0, 0.0, 0.0}, pack).answer(prompt).applied == 40;
            ignoringApplied += ScriptedReply({seed, 0.0, 0.0, 1.0}, pack).answer(prompt).applied == 40;
        }
        QCOMPARE(avoidedApplied, 0);
        QVERIFY2(ignoringApplied > 0, std::to_string(ignoringApplied).c_str());
    }

    void rankBiasFavoursTheTopEntry() {
        const std::map<std::string, json> pack = {
            {"multicore-raise-block-dim", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", "cores"}}}};
        int top = 0;
        for (std::uint64_t seed = 0; seed < 200; ++seed) top += ScriptedReply({seed, 0.0, 0.0}, pack).answer(kPrompt).applied == 12;
        QVERIFY2(top > 100 && top < 200, std::to_string(top).c_str());  // weights 1/2 vs 1/4: about 2/3, both occur
    }
};

QTEST_GUILESS_MAIN(TestLlmsimReply)
#include "test_llmsim_reply.moc"
