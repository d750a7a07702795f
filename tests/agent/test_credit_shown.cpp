// Credit only what the policy saw and used (issue 27, point 3), for both policies. An entry that
// was retrieved but cut from the LLM's prompt by the context budget gets no credit although the
// candidate's code matches its evidence pattern (and declaring it does not help); an iteration in
// which no experience was shown credits nothing; the built-in policy, which considers every entry
// it retrieved, credits only retrieved entries. Credit goes through the loop's own CreditAssigner
// into a real ExperienceStore.
#include "ScriptedLlmServer.h"
#include "PromptBuilder.h"
#include "loop/CreditAssigner.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/LlmPolicy.h"
#include "sage_memory/ExperienceStore.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <QtTest/QtTest>

#include <algorithm>

using namespace sage;
using sage::test::ScriptedLlmServer;

namespace {

// "E12" (built by appending: GCC 12 warns falsely on "E" + std::to_string(...)).
std::string eid(int64_t id) {
    std::string s = "E";
    s += std::to_string(id);
    return s;
}

bool contains(const std::vector<int64_t>& ids, int64_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

const agent::AdoptionRecord* recordOf(const std::vector<agent::AdoptionRecord>& records, int64_t id) {
    for (const auto& r : records)
        if (r.id == id) return &r;
    return nullptr;
}

} // namespace

class TestCreditShown : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<memory::ExperienceStore> store_;
    eval::Task task_;
    std::optional<toolchain::DeviceCatalog> devices_;
    std::vector<int64_t> ids_;  // four optimise entries, each with a pattern the reply's kernel matches
    int64_t run_ = 100;

    int64_t addEntry(const std::string& title, const std::string& marker) {
        memory::Experience e;
        e.title = title;
        e.kind = memory::ExperienceKind::Optimization;
        e.stage = memory::Stage::Optimize;
        e.trigger.bottleneck = "memory_bound";
        e.content = "When the profile says memory_bound, apply " + marker + " to the inner loop. " +
                    std::string(300, 'x');
        e.evidencePattern = marker;
        e.status = memory::ExperienceStatus::Approved;
        e.origin = memory::Origin::Human;
        return store_->add(e);
    }

    std::vector<memory::ScoredExperience> retrieved(const std::vector<int64_t>& ids) {
        std::vector<memory::ScoredExperience> out;
        for (size_t i = 0; i < ids.size(); ++i) {
            memory::ScoredExperience s;
            s.experience = store_->get(ids[i]);
            s.rank = int(i + 1);
            s.score = 1.0 - 0.1 * double(i);
            s.q = 0.0;
            out.push_back(s);
        }
        return out;
    }

    agent::PolicyContext context(const std::vector<memory::ScoredExperience>& r) {
        agent::PolicyContext ctx;
        ctx.task = &task_;
        ctx.stage = memory::Stage::Optimize;
        ctx.iteration = 3;
        ctx.parentSource = task_.baselineSource;
        ctx.platformCard = "## 1. Programming model\n\nTQue, DataCopy, Add.\n";
        ctx.retrieved = r;
        return ctx;
    }

    // The smallest window at which the first entry is shown, or the largest at which none is.
    int windowWhere(const agent::PolicyContext& ctx, int maxTokens, bool firstShown) {
        int last = 0;
        for (int context = maxTokens + 256; context < maxTokens + 20000; context += 16) {
            const auto parts = agent::prompt::build(ctx, {context, maxTokens});
            if (parts.layout.overflow) continue;
            const bool shown = contains(parts.layout.shownExperiences, ctx.retrieved[0].experience.id);
            if (firstShown && shown) return context;
            if (!firstShown && !shown) last = context;
            if (!firstShown && shown) return last;
        }
        return 0;
    }

    std::string replyMatchingEveryPattern(const std::string& adopted) {
        std::string kernel = task_.baselineSource + "\n// MarkerAlpha MarkerBeta MarkerGamma MarkerDelta\n";
        return "```cpp\n" + kernel + "```\nADOPTED: " + adopted + "\nRATIONALE: applied the markers.\n";
    }

    agent::PolicyProposal proposeAt(const agent::PolicyContext& ctx, int context, const std::string& adopted) {
        ScriptedLlmServer server;
        server.script({ScriptedLlmServer::sse(replyMatchingEveryPattern(adopted))});
        agent::LlmSettings s = server.llmSettings();
        s.contextTokens = context;
        s.maxTokens = 512;
        s.maxRetries = 0;
        agent::LlmPolicy policy(s);
        return policy.propose(ctx);
    }

    std::vector<agent::AdoptionRecord> credit(const std::vector<memory::ScoredExperience>& r,
                                              const agent::PolicyProposal& p, const std::string& parent) {
        const int64_t run = ++run_;
        if (!r.empty()) store_->recordRetrievals(run, 3, memory::Stage::Optimize, r);
        agent::AgentSettings settings;
        settings.memoryMode = memory::MemoryMode::Adoption;
        const agent::IterationValue value = agent::valueOf(memory::Stage::Optimize, true, 2000, 1000);
        return agent::assignCredit(store_.get(), true, settings, run, 3, r, p.adoptedIds, p.shownIds, parent, p.source,
                                   value);
    }

    double q(int64_t id) { return store_->repository().stageStats(id, memory::Stage::Optimize).q; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<memory::ExperienceStore>((dir_.path() + "/mem.db").toStdString());
        ids_ = {addEntry("Alpha: use the alpha marker", "MarkerAlpha"), addEntry("Beta: use the beta marker", "MarkerBeta"),
                addEntry("Gamma: use the gamma marker", "MarkerGamma"), addEntry("Delta: use the delta marker", "MarkerDelta")};
        task_ = eval::Task::loadDirectory(std::string(SAGE_EVAL_TASKS_DIR) + "/vadd");
        QVERIFY(!task_.baselineSource.empty());
        devices_ = toolchain::DeviceCatalog::loadDirectory(toolchain::ToolPaths::fromEnvironment().devicesDir());
    }

    // The fourth entry is cut by the budget (the top three are memory priority); the reply's code
    // matches all four patterns and declares the cut one: only the shown, evidenced ones gain.
    void llmAnEntryCutFromThePromptGetsNoCredit() {
        const auto r = retrieved(ids_);
        const auto ctx = context(r);
        const int window = windowWhere(ctx, 512, /*firstShown=*/true);
        QVERIFY2(window > 0, "no window shows the first entry");
        const int64_t cut = ids_[3];
        const auto proposal = proposeAt(ctx, window + 200, eid(ids_[0]) + ", " + eid(cut));
        QVERIFY2(proposal.ok, proposal.error.c_str());
        QVERIFY(proposal.shownIds.has_value());
        QVERIFY2(contains(*proposal.shownIds, ids_[0]), proposal.prompt.c_str());
        QVERIFY2(!contains(*proposal.shownIds, cut), "the setup must cut the fourth entry from the prompt");
        QVERIFY(proposal.prompt.find("[E" + std::to_string(cut) + "]") == std::string::npos);
        // Declaring an entry it was not shown is reported and not counted.
        QCOMPARE(proposal.adoptedIds, std::vector<int64_t>{ids_[0]});
        QCOMPARE(proposal.declaredNotShown, std::vector<int64_t>{cut});
        QVERIFY(!proposal.notes.empty());
        QVERIFY(proposal.notes[0].find(eid(cut)) != std::string::npos);

        const double qCutBefore = q(cut), qShownBefore = q(ids_[0]);
        const auto records = credit(r, proposal, ctx.parentSource);
        const auto* cutRecord = recordOf(records, cut);
        QVERIFY(cutRecord);
        QVERIFY(!cutRecord->evidenced);  // the code matches its pattern, but it was not shown
        QCOMPARE(cutRecord->weight.value_or(-1), 0.0);
        QCOMPARE(q(cut), qCutBefore);
        const auto* shown = recordOf(records, ids_[0]);
        QVERIFY(shown && shown->declared && shown->evidenced);  // the control: a shown entry is credited
        QVERIFY(shown->weight.value_or(0) > 0);
        QVERIFY(q(ids_[0]) > qShownBefore);
    }

    // A window that leaves no room for any experience: nothing is credited, whatever the code shows.
    void llmNoExperienceShownCreditsNothing() {
        const auto r = retrieved(ids_);
        const auto ctx = context(r);
        const int window = windowWhere(ctx, 512, /*firstShown=*/false);
        QVERIFY2(window > 0, "no window fits the required parts without an experience");
        std::vector<double> before;
        for (int64_t id : ids_) before.push_back(q(id));
        const auto proposal = proposeAt(ctx, window, eid(ids_[0]));
        QVERIFY2(proposal.ok, proposal.error.c_str());
        QVERIFY(proposal.shownIds && proposal.shownIds->empty());
        QVERIFY(proposal.adoptedIds.empty());
        const auto records = credit(r, proposal, ctx.parentSource);
        QCOMPARE(records.size(), ids_.size());
        for (size_t i = 0; i < ids_.size(); ++i) {
            const auto* rec = recordOf(records, ids_[i]);
            QVERIFY(rec && !rec->declared && !rec->evidenced && rec->weight.value_or(-1) == 0.0);
            QCOMPARE(q(ids_[i]), before[i]);
        }
    }

    // The built-in policy considers every entry it retrieved (shownIds unset): a retrieved entry
    // the candidate evidences is credited, one that was not retrieved is not, and with nothing
    // retrieved nothing is.
    void builtinCreditsOnlyRetrievedEntries() {
        agent::BuiltinPolicy builtin;
        auto ctx = context(retrieved({ids_[1]}));
        ctx.stage = memory::Stage::Draft;
        ctx.parentSource.clear();
        ctx.device = &devices_->get("ascend910b1-sim");
        auto proposal = builtin.propose(ctx);
        QVERIFY2(proposal.ok, proposal.error.c_str());
        QVERIFY(!proposal.shownIds.has_value());
        proposal.source += "\n// MarkerBeta MarkerGamma\n";  // evidence for the retrieved and a non-retrieved entry
        const double qGamma = q(ids_[2]);
        const auto records = credit(ctx.retrieved, proposal, "");
        QCOMPARE(records.size(), size_t(1));
        QVERIFY(records[0].id == ids_[1] && records[0].evidenced && records[0].weight.value_or(0) > 0);
        QCOMPARE(q(ids_[2]), qGamma);

        const double qBeta = q(ids_[1]);
        const auto none = credit({}, proposal, "");
        for (const auto& rec : none) QVERIFY(rec.weight.value_or(0) == 0);
        QCOMPARE(q(ids_[1]), qBeta);
        QCOMPARE(q(ids_[2]), qGamma);
    }
};

QTEST_GUILESS_MAIN(TestCreditShown)
#include "test_credit_shown.moc"
