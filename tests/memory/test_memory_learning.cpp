// Adoption-aware value learning: adoption weights from declared/evidenced signals, the Q update,
// rewards, counters, the review flag, the memory modes, and the evidence matcher.
#include "MemoryTestSupport.h"

#include "sage_memory/EvidenceMatcher.h"

#include <cmath>

using namespace sage::memory;
using namespace sage::memory::test;

namespace {
bool near(double a, double b) { return std::abs(a - b) < 1e-12; }
}

class TestMemoryLearning : public QObject, private ScratchDir {
    Q_OBJECT

private slots:
    void weightsAndRewards() {
        QCOMPARE(ValueModel::adoptionWeight(true, true), 1.0);
        QCOMPARE(ValueModel::adoptionWeight(false, true), 0.6);
        QCOMPARE(ValueModel::adoptionWeight(true, false), 0.3);
        QCOMPARE(ValueModel::adoptionWeight(false, false), 0.0);
        QVERIFY(near(ValueModel::updatedQ(0.0, 1.0, 1.0), 0.3));
        QVERIFY(near(ValueModel::updatedQ(0.0, 0.6, 1.0), 0.18));
        QVERIFY(near(ValueModel::updatedQ(0.5, 0.3, -1.0), 0.5 + 0.3 * 0.3 * (-1.5)));
        QCOMPARE(ValueModel::updatedQ(0.42, 0.0, 1.0), 0.42);
        QCOMPARE(ValueModel::feasibilityReward(true), 1.0);
        QCOMPARE(ValueModel::feasibilityReward(false), -1.0);
        QVERIFY(near(ValueModel::optimizeReward(2.0, true), 0.6));  // tanh(ln 2) = 3/5
        QVERIFY(near(ValueModel::optimizeReward(0.5, true), -0.6));
        QCOMPARE(ValueModel::optimizeReward(1.0, true), 0.0);
        QCOMPARE(ValueModel::optimizeReward(10.0, false), -1.0);
        QCOMPARE(ValueModel::optimizeReward(0.0, true), -1.0);
        QCOMPARE(ValueModel::optimizeReward(std::nan(""), true), -1.0);
        QVERIFY(ValueModel::optimizeReward(1e9, true) <= 1.0);
        QVERIFY(!ValueModel::flaggedForReview(4, 0));
        QVERIFY(ValueModel::flaggedForReview(5, 0));
        QVERIFY(!ValueModel::flaggedForReview(5, 1));  // 0.2 is not below 0.2
        QVERIFY(ValueModel::flaggedForReview(10, 1));
    }

    void memoryModeSpelling() {
        QVERIFY(parseEnum<MemoryMode>("all-retrieved") == MemoryMode::AllRetrieved);
        QVERIFY(parseEnum<MemoryMode>("all_retrieved") == MemoryMode::AllRetrieved);
        QVERIFY(parseEnum<MemoryMode>("adoption") == MemoryMode::Adoption);
        QVERIFY(!parseEnum<MemoryMode>("Adoption"));
        QCOMPARE(std::string(toString(MemoryMode::Similarity)), std::string("similarity"));
        QVERIFY(expectMemoryError([] { requireEnum<MemoryMode>("magic"); }).code() == MemoryError::Code::InvalidInput);
        QCOMPARE(creditWeight(MemoryMode::AllRetrieved, 0.0), 1.0);
        QCOMPARE(creditWeight(MemoryMode::Adoption, 0.3), 0.3);
        QCOMPARE(creditWeight(MemoryMode::Similarity, 1.0), 0.0);
        QCOMPARE(creditWeight(MemoryMode::Off, 1.0), 0.0);
    }

    void retrievedButNotAdoptedNeverMoves() {
        ExperienceStore store(location("ignored.db"));
        const std::int64_t used = store.add(entry("used", "double buffer the queues"));
        const std::int64_t ignored = store.add(entry("ignored", "something the policy never uses"));
        const double rewards[] = {1.0, -1.0, 1.0, 1.0, -1.0, 0.6, -0.2, 1.0};
        int iteration = 0;
        for (const double r : rewards) {
            ++iteration;
            store.recordRetrievals(1, iteration, Stage::Repair, shown(store, {used, ignored}));
            const CreditReport report = store.recordOutcome(1, iteration, {{used, true, true}}, outcomeOf(r));
            QCOMPARE(report.records.size(), std::size_t(2));
            QCOMPARE(*report.records[1].adoptionWeight, 0.0);
            QCOMPARE(*report.records[1].qBefore, *report.records[1].qAfter);
        }
        const StageStats s = store.stats(ignored).at(Stage::Repair);
        QCOMPARE(s.q, 0.0);
        QCOMPARE(s.retrieved, std::int64_t(8));
        QCOMPARE(s.ignored, std::int64_t(8));
        QCOMPARE(s.adopted, std::int64_t(0));
        QCOMPARE(s.rewardSum, 0.0);
        QVERIFY(store.qHistory(ignored).empty());
        // The adopted entry learned, and its counters add up.
        const StageStats u = store.stats(used).at(Stage::Repair);
        QVERIFY(u.q != 0.0);
        QCOMPARE(u.adopted, std::int64_t(8));
        QCOMPARE(u.successes, std::int64_t(5));
        QVERIFY(near(u.meanReward(), (1 - 1 + 1 + 1 - 1 + 0.6 - 0.2 + 1) / 8.0));
        QCOMPARE(store.qHistory(used).size(), std::size_t(8));
        // Other stages are untouched.
        QCOMPARE(store.stats(used).at(Stage::Optimize), StageStats{Stage::Optimize});
        // Ignored often => flagged for review; the adopted one is not.
        const auto flagged = store.flaggedForReview();
        QCOMPARE(flagged.size(), std::size_t(1));
        QCOMPARE(flagged[0].id, ignored);
    }

    void controlModesCreditDifferently() {
        ExperienceStore store(location("modes.db"));
        const std::int64_t a = store.add(entry("a", "alpha"));
        const std::int64_t b = store.add(entry("b", "beta"));
        // all_retrieved (EvoKernel control): the unadopted entry is credited at weight 1.
        store.recordRetrievals(1, 1, Stage::Repair, shown(store, {a, b}));
        auto report = store.recordOutcome(1, 1, {{a, true, true}}, outcomeOf(1.0, MemoryMode::AllRetrieved));
        QVERIFY(near(store.stats(b).at(Stage::Repair).q, 0.3));
        QCOMPARE(*report.records[1].creditWeight, 1.0);
        QCOMPARE(store.stats(b).at(Stage::Repair).ignored, std::int64_t(1));  // counters still tell the truth
        // similarity: counters move, values do not.
        store.recordRetrievals(1, 2, Stage::Repair, shown(store, {a, b}));
        store.recordOutcome(1, 2, {{a, true, true}}, outcomeOf(-1.0, MemoryMode::Similarity));
        QVERIFY(near(store.stats(a).at(Stage::Repair).q, 0.3));
        QCOMPARE(store.stats(a).at(Stage::Repair).adopted, std::int64_t(2));
    }

    void declaredOnlyWeighsLessThanEvidenced() {
        ExperienceStore store(location("weights.db"));
        Experience buffers = entry("double-buffer", "Use two buffers per queue.", Stage::Optimize);
        buffers.evidencePattern = R"(InitBuffer\(\s*\w+\s*,\s*2\s*,)";
        Experience reduce = entry("whole-reduce", "Use WholeReduceSum for row sums.", Stage::Optimize);
        reduce.evidencePattern = "WholeReduceSum";
        Experience both = entry("tile-size", "Double the tile length.", Stage::Optimize);
        both.codeIdiom = "tileLength  *=   2;";
        const std::int64_t idBuffers = store.add(buffers);
        const std::int64_t idReduce = store.add(reduce);
        const std::int64_t idBoth = store.add(both);
        const std::string diff =
            "--- a/kernel.cpp\n+++ b/kernel.cpp\n@@ -10,3 +10,4 @@\n"
            "-    pipe.InitBuffer(inQueueX, 1, bytes);\n"
            "+    pipe.InitBuffer(inQueueX, 2, bytes);\n"
            "+    tileLength *= 2;\n"
            "     // WholeReduceSum is not used here; this context line must not count\n";
        const std::string added = EvidenceMatcher::addedLinesFromDiff(diff);
        const auto retrieved = shown(store, {idBuffers, idReduce, idBoth});
        // The policy declares it used the reduce entry (it did not) and the tile entry (it did).
        const auto adoptions = AdoptionLedger::assess(retrieved, {idReduce, idBoth}, added);
        QCOMPARE(adoptions.size(), std::size_t(3));
        QVERIFY(!adoptions[0].declared && adoptions[0].evidenced);
        QVERIFY(adoptions[1].declared && !adoptions[1].evidenced);
        QVERIFY(adoptions[2].declared && adoptions[2].evidenced);
        store.recordRetrievals(3, 1, Stage::Optimize, retrieved);
        const double reward = ValueModel::optimizeReward(2.0, true);
        const CreditReport report = store.recordOutcome(3, 1, adoptions, outcomeOf(reward));
        const double wEvidenced = *report.records[0].adoptionWeight;
        const double wDeclared = *report.records[1].adoptionWeight;
        const double wBoth = *report.records[2].adoptionWeight;
        QVERIFY(wDeclared < wEvidenced);
        QVERIFY(wEvidenced < wBoth);
        QCOMPARE(wDeclared, ValueModel::kWeightDeclaredOnly);
        const double qEvidenced = store.stats(idBuffers).at(Stage::Optimize).q;
        const double qDeclared = store.stats(idReduce).at(Stage::Optimize).q;
        const double qBoth = store.stats(idBoth).at(Stage::Optimize).q;
        QVERIFY(near(qEvidenced, 0.3 * 0.6 * reward));
        QVERIFY(near(qDeclared, 0.3 * 0.3 * reward));
        QVERIFY(near(qBoth, 0.3 * 1.0 * reward));
        QVERIFY(qDeclared < qEvidenced && qEvidenced < qBoth);
        // The records keep both signals.
        const auto records = store.ledger().retrievals(3, 1);
        QVERIFY(*records[1].declared && !*records[1].evidenced);
    }

    void documentedWorkedExample() {  // docs/memory.md, "Worked example"
        ExperienceStore store(location("example.db"));
        const std::int64_t a = store.add(entry("ub-budget-910b-184kb", "Halve TILE_LENGTH.", Stage::Repair));
        const std::int64_t b = store.add(entry("cube-l0-tile-capacity", "Fit base tiles in L0.", Stage::Repair));
        const std::int64_t c = store.add(entry("ub-address-32b-aligned", "Align offsets.", Stage::Repair));
        StageStats seeded;
        seeded.stage = Stage::Repair;
        seeded.q = 0.51;
        store.repository().saveStageStats(b, seeded);
        store.recordRetrievals(1, 1, Stage::Repair, shown(store, {a, b, c}));
        store.recordOutcome(1, 1, {{a, true, true}, {b, true, false}}, outcomeOf(1.0));
        QVERIFY(near(store.stats(a).at(Stage::Repair).q, 0.3));
        QVERIFY(near(store.stats(b).at(Stage::Repair).q, 0.51 + 0.3 * 0.3 * (1 - 0.51)));
        QCOMPARE(store.stats(c).at(Stage::Repair).q, 0.0);
        QCOMPARE(store.stats(c).at(Stage::Repair).ignored, std::int64_t(1));
        QVERIFY(std::abs(ValueModel::optimizeReward(1.7, true) - (1.7 * 1.7 - 1) / (1.7 * 1.7 + 1)) < 1e-12);
    }

    void outcomeBookkeepingIsStrict() {
        ExperienceStore store(location("strict.db"));
        const std::int64_t a = store.add(entry("a", "alpha"));
        const std::int64_t b = store.add(entry("b", "beta"));
        store.recordRetrievals(5, 1, Stage::Draft, shown(store, {a}));
        auto error = expectMemoryError([&] { store.recordRetrievals(5, 1, Stage::Draft, shown(store, {a})); });
        QVERIFY(error.code() == MemoryError::Code::Conflict);
        QCOMPARE(store.stats(a).at(Stage::Draft).retrieved, std::int64_t(1));  // the failed call changed nothing
        ScoredExperience ghost;
        ghost.experience.id = 777;
        error = expectMemoryError([&] { store.recordRetrievals(5, 2, Stage::Draft, {ghost}); });
        QVERIFY(error.code() == MemoryError::Code::NotFound);
        error = expectMemoryError([&] { store.recordRetrievals(5, 2, Stage::Any, shown(store, {a})); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);

        const CreditReport report = store.recordOutcome(5, 1, {{a, true, false}, {b, true, true}}, outcomeOf(1.0));
        QCOMPARE(report.notRetrieved, std::vector<std::int64_t>{b});
        QCOMPARE(store.stats(b), ExperienceStats{});
        error = expectMemoryError([&] { store.recordOutcome(5, 1, {{a, true, true}}, outcomeOf(1.0)); });
        QVERIFY(error.code() == MemoryError::Code::Conflict);
        QVERIFY(std::string(error.what()).find("already recorded") != std::string::npos);
        QCOMPARE(store.stats(a).at(Stage::Draft).adopted, std::int64_t(1));
        error = expectMemoryError([&] { store.recordOutcome(5, 9, {}, outcomeOf(3.0)); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        IterationOutcome badAlpha = outcomeOf(1.0);
        badAlpha.alpha = 0.0;
        QVERIFY(expectMemoryError([&] { store.recordOutcome(5, 9, {}, badAlpha); }).code() ==
                MemoryError::Code::InvalidInput);
        // An iteration with no retrievals has nothing to credit.
        QVERIFY(store.recordOutcome(6, 1, {}, outcomeOf(1.0)).records.empty());
    }

    void trialEntriesArePromotedOrRetiredByTheirLearnedValue() {
        ExperienceStore store(location("trial.db"));
        auto onTrial = [&](const std::string& title) {
            return store.add(entry(title, "a lesson the agent learned: " + title, Stage::Optimize, {}, ExperienceStatus::Trial));
        };
        const std::int64_t good = onTrial("good move"), bad = onTrial("bad move"), mixed = onTrial("mixed move");
        const std::int64_t reviewed = onTrial("reviewed move");
        QVERIFY(store.reject(reviewed, {"reviewer", "a person decided first"}));
        const std::vector<std::pair<std::int64_t, double>> plan = {{good, 0.9}, {bad, -0.9}, {mixed, 0.2}, {reviewed, 0.9}};
        int iteration = 0;
        // Two adoptions each: still on trial (the verdict needs kTrialVerdictAdoptions).
        for (int round = 0; round < ValueModel::kTrialVerdictAdoptions; ++round) {
            if (round == ValueModel::kTrialVerdictAdoptions - 1) {
                QCOMPARE(std::string(toString(store.get(good).status)), std::string(toString(ExperienceStatus::Trial)));
                QCOMPARE(std::string(toString(store.get(bad).status)), std::string(toString(ExperienceStatus::Trial)));
            }
            for (const auto& [id, reward] : plan) {
                ++iteration;
                store.recordRetrievals(7, iteration, Stage::Optimize, shown(store, {id}));
                store.recordOutcome(7, iteration, {{id, true, true}}, outcomeOf(reward));
            }
        }
        QCOMPARE(std::string(toString(store.get(good).status)), std::string(toString(ExperienceStatus::Approved)));
        QCOMPARE(std::string(toString(store.get(bad).status)), std::string(toString(ExperienceStatus::Archived)));
        QCOMPARE(std::string(toString(store.get(mixed).status)), std::string(toString(ExperienceStatus::Trial)));  // Q ~0.13: not yet decided
        QCOMPARE(std::string(toString(store.get(reviewed).status)), std::string(toString(ExperienceStatus::Rejected)));  // the person's decision stands
        const auto audit = store.auditLog(good, 1);
        QCOMPARE(audit.size(), std::size_t(1));
        QCOMPARE(audit.front().author, std::string(TrialLifecycle::kAuthor));
        QVERIFY2(audit.front().reason.find("promoted from trial") != std::string::npos, audit.front().reason.c_str());
        QVERIFY(store.auditLog(bad, 1).front().reason.find("retired from trial") != std::string::npos);
        // Under similarity nothing is credited, so nothing is decided.
        const std::int64_t idle = onTrial("idle move");
        for (int round = 0; round < 5; ++round) {
            ++iteration;
            store.recordRetrievals(7, iteration, Stage::Optimize, shown(store, {idle}));
            store.recordOutcome(7, iteration, {{idle, true, true}}, outcomeOf(1.0, MemoryMode::Similarity));
        }
        QCOMPARE(std::string(toString(store.get(idle).status)), std::string(toString(ExperienceStatus::Trial)));
    }

    // An entry the policy never saw (cut from an LLM prompt) is credited in no mode, all_retrieved
    // included: credit is for what the policy could have acted on.
    void anEntryNotShownIsCreditedInNoMode() {
        ExperienceStore store(location("notshown.db"));
        const std::int64_t seen = store.add(entry("seen", "shown and used"));
        const std::int64_t cut = store.add(entry("cut", "retrieved, cut from the prompt"));
        store.recordRetrievals(8, 1, Stage::Repair, shown(store, {seen, cut}));
        const CreditReport report = store.recordOutcome(
            8, 1, {{seen, true, true}, AdoptionSignal{cut, false, false, kNotShownBasis, "cut"}},
            outcomeOf(1.0, MemoryMode::AllRetrieved));
        QCOMPARE(report.records.size(), std::size_t(2));
        QVERIFY(store.stats(seen).at(Stage::Repair).q > 0.0);
        QCOMPARE(store.stats(cut).at(Stage::Repair).q, 0.0);
    }

    void evidenceMatcher() {
        const std::string diff = "--- a/k.cpp\n+++ b/k.cpp\n@@ -1 +1,2 @@\n-old\n+++counter;\n+  DataCopy(x, y, 64);\r\n";
        QCOMPARE(EvidenceMatcher::addedLinesFromDiff(diff), std::string("++counter;\n  DataCopy(x, y, 64);"));
        QCOMPARE(EvidenceMatcher::addedLines("a\nb\nb\n", "a\nb\nb\nb\nc\n"), std::string("b\nc"));
        QCOMPARE(EvidenceMatcher::addedLines("same\n", "same\n"), std::string());
        QVERIFY(EvidenceMatcher::patternMatches(R"(DataCopy\(\w+,)", "  DataCopy(x, y, 64);"));
        QVERIFY(!EvidenceMatcher::patternMatches(R"(^DataCopy)", "  DataCopy(x, y, 64);"));
        QVERIFY(EvidenceMatcher::patternMatches("InitBuffer(q, 2", "pipe.InitBuffer(q, 2, n);"));  // invalid regex: literal
        QVERIFY(!EvidenceMatcher::patternMatches("InitBuffer(q, 2", "pipe.InitBuffer(q, 1, n);"));
        QVERIFY(!EvidenceMatcher::patternMatches("", "anything"));
        QVERIFY(EvidenceMatcher::idiomMatches("for (i = 0;\n     i < n; ++i)", "  for (i = 0; i < n;\n ++i) {"));
        QVERIFY(!EvidenceMatcher::idiomMatches("   \n", "x"));
        Experience e = entry("t", "c");
        QVERIFY(!EvidenceMatcher::isEvidenced(e, "anything"));
        e.codeIdiom = "WaitFlag<HardEvent::MTE2_V>(id);";
        QVERIFY(EvidenceMatcher::isEvidenced(e, "  WaitFlag<HardEvent::MTE2_V>(id);"));
        e.evidencePattern = "never-there";
        QVERIFY(EvidenceMatcher::isEvidenced(e, "  WaitFlag<HardEvent::MTE2_V>(id);"));  // idiom still counts
    }
};

QTEST_APPLESS_MAIN(TestMemoryLearning)
#include "test_memory_learning.moc"
