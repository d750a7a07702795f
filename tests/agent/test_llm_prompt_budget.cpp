// Prompt sizes on the real platform card (docs/kernel-api.md) and the real task suite: every stage
// of every task fits a 16k window with 4k of output; the draft and repair prompts of the
// elementwise tasks fit an 8k window with 2k of output. Also what the budget keeps and drops: the
// card sections a category or device needs, examples only with room, reference and baseline first
// to go, sections appended to the card later, and a device without DataCopyPad.
#include "sage_agent/PromptPreview.h"
#include "sage_memory/ExperienceStore.h"
#include "sage_npu/DeviceProfile.h"
#include "sage_toolchain/DeviceCatalog.h"

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
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

const nlohmann::json* section(const agent::PromptPreview& p, const std::string& prefix) {
    for (const auto& s : p.sizes["sections"])
        if (s["name"].get<std::string>().rfind(prefix, 0) == 0) return &s;
    return nullptr;
}

bool included(const agent::PromptPreview& p, const std::string& prefix) {
    const auto* s = section(p, prefix);
    return s && (*s)["included"].get<bool>();
}

} // namespace

class TestLlmPromptBudget : public QObject {
    Q_OBJECT
    eval::TaskSet tasks_;
    std::string card_;
    std::optional<toolchain::DeviceCatalog> devices_;
    QTemporaryDir dir_;
    std::unique_ptr<memory::ExperienceStore> memory_;
    std::vector<nlohmann::json> samples_;  // real tokenizer counts of prompt text (data/token_samples)
    double smallestRealRatio_ = 1e9;

    agent::PromptPreview preview(const eval::Task& t, memory::Stage stage, int context, int maxTokens,
                                 const std::string& device = "ascend910b1-sim", const std::string* card = nullptr) {
        agent::PromptPreviewRequest r;
        r.task = &t;
        r.device = &devices_->get(device);
        r.stage = stage;
        r.platformCard = card ? *card : card_;
        r.llm.contextTokens = context;
        r.llm.maxTokens = maxTokens;
        r.memory = memory_.get();
        return agent::previewPrompt(r);
    }

    const eval::Task& task(const std::string& name) {
        const auto* t = tasks_.find(name);
        if (!t) qFatal("task %s missing", name.c_str());
        return *t;
    }

private slots:
    void initTestCase() {
        tasks_ = eval::TaskSet::load({SAGE_TASKS_DIR});
        QVERIFY(tasks_.tasks.size() >= 30);
        card_ = readFile(SAGE_CARD_PATH);
        QVERIFY2(card_.size() > 30000, "the real platform card, not a stub");
        devices_ = toolchain::DeviceCatalog::loadDirectory(std::string(SAGE_TASKS_DIR) + "/../devices");
        QVERIFY(dir_.isValid());
        memory_ = std::make_unique<memory::ExperienceStore>((dir_.path() + "/mem.db").toStdString());
        QVERIFY(memory_->importFrom(SAGE_SEED_PACK).imported > 10);
        std::istringstream counts(readFile(std::string(SAGE_TOKEN_SAMPLES) + "/counts.jsonl"));
        for (std::string line; std::getline(counts, line);)
            if (!line.empty()) samples_.push_back(nlohmann::json::parse(line));
        QVERIFY(samples_.size() >= 5);
        for (const auto& s : samples_)
            smallestRealRatio_ = std::min(smallestRealRatio_, s["chars"].get<double>() /
                                                                   std::max(s["llama3"].get<int>(), s["o200k"].get<int>()));
    }

    void everyStageOfEveryCategoryFits16k_data() {
        QTest::addColumn<QString>("category");
        QTest::addColumn<int>("stage");
        std::set<std::string> categories;
        for (const auto& t : tasks_.tasks) categories.insert(t.category);
        QVERIFY(categories.size() >= 8);
        for (const auto& c : categories)
            for (auto s : {memory::Stage::Draft, memory::Stage::Repair, memory::Stage::Optimize})
                QTest::newRow((c + "/" + std::string(memory::toString(s))).c_str()) << QString::fromStdString(c) << int(s);
    }

    void everyStageOfEveryCategoryFits16k() {
        QFETCH(QString, category);
        QFETCH(int, stage);
        int largest = 0;
        for (const auto& t : tasks_.tasks) {
            if (t.category != category.toStdString()) continue;
            for (const char* device : {"ascend910b1-sim", "ascend310p3-sim"}) {
                const auto p = preview(t, memory::Stage(stage), 16384, 4096, device);
                const std::string what = t.name + " on " + device + ":\n" + p.table;
                QVERIFY2(!p.overflow, what.c_str());
                QVERIFY2(p.promptTokens <= 16384 - 4096, what.c_str());
                QVERIFY2(included(p, "card: 3. TPipe"), what.c_str());  // the core card is always there
                QVERIFY2(included(p, "task"), what.c_str());
                largest = std::max(largest, p.promptTokens);
            }
        }
        QVERIFY(largest > 4000);  // the prompts are real, not empty shells
    }

    void elementwiseDraftAndRepairFit8k_data() {
        QTest::addColumn<int>("stage");
        QTest::newRow("draft") << int(memory::Stage::Draft);
        QTest::newRow("repair") << int(memory::Stage::Repair);
    }

    void elementwiseDraftAndRepairFit8k() {
        QFETCH(int, stage);
        size_t n = 0;
        for (const auto& t : tasks_.tasks) {
            if (t.category != "elementwise") continue;
            ++n;
            const auto p = preview(t, memory::Stage(stage), 8192, 2048);
            QVERIFY2(!p.overflow && p.promptTokens <= 8192 - 2048, (t.name + ":\n" + p.table).c_str());
            QVERIFY(included(p, "parent") == (stage != int(memory::Stage::Draft)));
            if (stage == int(memory::Stage::Repair)) QVERIFY(included(p, "evaluation"));
        }
        QVERIFY(n >= 4);
    }

    void theCategoryAndStagePickTheCardSections() {
        const auto gemm = preview(task("gemm"), memory::Stage::Draft, 32768, 4096);
        QVERIFY(included(gemm, "card: 11. Cube"));
        const auto add = preview(task("add"), memory::Stage::Draft, 32768, 4096);
        QVERIFY(!section(add, "card: 11. Cube"));  // never offered to a vector task
        QVERIFY(included(add, "card: 15. Two complete kernels / Example 1: elementwise"));
        QVERIFY(!section(add, "card: 15. Two complete kernels / Example 2"));
        const auto rowSum = preview(task("row_sum"), memory::Stage::Draft, 32768, 4096);
        QCOMPARE((*section(rowSum, "card: 8. Reductions"))["priority"].get<std::string>(), std::string("task-card"));
        QVERIFY(included(rowSum, "card: 15. Two complete kernels / Example 2"));
        const auto repair = preview(task("add"), memory::Stage::Repair, 32768, 4096);
        QCOMPARE((*section(repair, "card: 13. Diagnostics"))["priority"].get<std::string>(), std::string("task-card"));
        const auto optimize = preview(task("add"), memory::Stage::Optimize, 32768, 4096);
        QCOMPARE((*section(optimize, "card: 14. Cost model"))["priority"].get<std::string>(), std::string("task-card"));
        // Every prompt names the device and the task's input ranges.
        QVERIFY(add.system.find("## Device: ") != std::string::npos);
        QVERIFY(preview(task("log"), memory::Stage::Draft, 32768, 4096).user.find("(always positive)") != std::string::npos);
    }

    void aTightBudgetDropsExamplesThenReferenceAndBaselineFirst() {
        const auto& t = task("sub");
        const auto wide = preview(t, memory::Stage::Draft, 32768, 4096);
        QVERIFY(included(wide, "baseline") && included(wide, "reference") && included(wide, "card: 15."));
        const auto tight = preview(t, memory::Stage::Draft, 8192, 2048);
        QVERIFY(!included(tight, "card: 15. Two complete kernels / Example"));
        QVERIFY(!included(tight, "baseline"));
        // The small reference may still fill what is left, but never at the expense of a section
        // that ranks above it: every such section that was dropped is larger than the reference
        // (packing goes by rank, so when it was considered it had at least the reference's room).
        // Whether it fits exactly depends on the card's size, which other work changes.
        if (included(tight, "reference")) {
            const auto refChars = (*section(tight, "reference"))["chars"].get<size_t>();
            const std::set<std::string> above = {"required", "memory", "history", "core-card", "task-card", "memory-detail", "optional-card"};
            for (const auto& s : tight.sizes["sections"])
                if (!s["included"].get<bool>() && above.count(s["priority"].get<std::string>()))
                    QVERIFY2(s["chars"].get<size_t>() > refChars, s["name"].get<std::string>().c_str());
        }
        // At 8k the core card no longer fits whole (issue 30: memory and the task come first); its
        // first pieces stay.
        QVERIFY(included(tight, "card: 1. Programming model / Kernel entry"));
        QVERIFY(included(tight, "card: 3. TPipe"));
        // The sizes add up to what is sent.
        size_t chars = 0;
        for (const auto& s : tight.sizes["sections"])
            if (s["included"].get<bool>()) chars += s["chars"].get<size_t>();
        QCOMPARE(chars, tight.system.size() + tight.user.size());
    }

    // Issue 30: an 8k model with 2k of reply. Every stage of add, softmax, layernorm and
    // gemm_bias_relu fits under the policy's estimate AND under a bound calibrated on real
    // tokenizers: the smallest characters-per-token ratio Llama-3 and o200k gave on any sample of
    // our prompt text (data/token_samples, counted by bench/llmsim/tokens/count-tokens.cjs; the
    // densest sample is a numbered kernel). The optimise prompt still carries >= 3 experiences.
    void fourTasksFit8kAndKeepTheirMemory_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<int>("stage");
        for (const char* t : {"add", "softmax", "layernorm", "gemm_bias_relu"})
            for (auto s : {memory::Stage::Draft, memory::Stage::Repair, memory::Stage::Optimize})
                QTest::newRow((std::string(t) + "/" + std::string(memory::toString(s))).c_str()) << QString(t) << int(s);
    }

    void fourTasksFit8kAndKeepTheirMemory() {
        QFETCH(QString, task);
        QFETCH(int, stage);
        const auto p = preview(this->task(task.toStdString()), memory::Stage(stage), 8192, 2048);
        const std::string what = task.toStdString() + ":\n" + p.table;
        QVERIFY2(!p.overflow && p.promptTokens <= 8192 - 2048, what.c_str());
        const double realTokens = double(p.system.size() + p.user.size()) / smallestRealRatio_ + 2 * 8;
        QVERIFY2(realTokens <= 8192 - 2048, (std::to_string(realTokens) + " calibrated tokens\n" + what).c_str());
        if (memory::Stage(stage) == memory::Stage::Optimize)
            QVERIFY2(p.sizes["shown_experiences"].size() >= 3, what.c_str());
    }

    // The estimate never counts fewer tokens than a real tokenizer on our prompt text.
    void theEstimateNeverUndercountsRealTokenizers() {
        const auto p = preview(task("add"), memory::Stage::Draft, 8192, 2048);
        const double ratio = p.sizes["chars_per_token"].get<double>();
        QVERIFY(ratio <= smallestRealRatio_);
        for (const auto& s : samples_) {
            const std::string text = readFile(std::string(SAGE_TOKEN_SAMPLES) + "/" + s["file"].get<std::string>());
            QCOMPARE(text.size(), s["chars"].get<size_t>());  // the counts belong to this text
            const int real = std::max(s["llama3"].get<int>(), s["o200k"].get<int>());
            QVERIFY2(std::ceil(double(text.size()) / ratio) >= real, s.dump().c_str());
        }
    }

    void aDeviceWithoutDataCopyPadIsNotOfferedIt() {
        const auto p = preview(task("leaky_relu"), memory::Stage::Draft, 32768, 4096, "ascend310p3-sim");
        QVERIFY(!section(p, "card: 5. Data movement / Unaligned lengths"));
        QVERIFY(p.system.find("DataCopyPad (and DataCopyExtParams/DataCopyPadExtParams) does NOT exist") != std::string::npos);
        QVERIFY(p.system.find("bfloat16 does NOT exist") != std::string::npos);
        QVERIFY(p.user.find("DataCopyPad(") == std::string::npos);  // no baseline that cannot compile there
        QVERIFY(p.system.find("Ascend310P3") != std::string::npos);
    }

    void sectionsAppendedToTheCardAreOfferedWhenThereIsRoom() {
        const std::string extended = card_ + "\n## 17. Custom operators\n\nA section added later." + std::string(400, '.') + "\n";
        const auto& t = task("add");
        const auto wide = preview(t, memory::Stage::Draft, 32768, 4096, "ascend910b1-sim", &extended);
        QVERIFY(included(wide, "card: 17. Custom operators"));
        const auto tight = preview(t, memory::Stage::Draft, 8192, 2048, "ascend910b1-sim", &extended);
        QVERIFY(!included(tight, "card: 17. Custom operators"));
        QVERIFY(tight.promptTokens <= 8192 - 2048);
    }
};

QTEST_GUILESS_MAIN(TestLlmPromptBudget)
#include "test_llm_prompt_budget.moc"
