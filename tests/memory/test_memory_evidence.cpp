// Precise evidence (issue 12): RE2 patterns validated on every way in, hostile patterns that
// cannot hang, direction-aware evidence for constant edits, patterns that need a *new* match,
// the evidence basis on the adoption record; the applicability filter; chunked imports that let a
// concurrent writer in; duplicate-lesson credit by memory mode.
#include "MemoryTestSupport.h"

#include "sage_memory/ConstantEdit.h"
#include "sage_memory/Database.h"
#include "sage_memory/EvidenceMatcher.h"
#include "sage_memory/EvidencePattern.h"
#include "sage_memory/JsonlExchange.h"
#include "sage_memory/MemorySchema.h"
#include "sage_memory/Transaction.h"

using namespace sage::memory;
using namespace sage::memory::test;
using nlohmann::json;

namespace {

const char* kKernel =
    "constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024}\n"
    "constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}\n"
    "constexpr uint32_t BLOCK_DIM = 8;      // @tunable block_dim {1, 2, 4, 8, 16, 48}\n"
    "uint32_t tailLen = total % TILE_LENGTH;\n";

std::string withLine(std::string text, const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
    return text;
}

Experience withAction(const std::string& title, json action, const std::string& pattern) {
    Experience e = entry(title, "advice for " + title, Stage::Optimize);
    e.action = std::move(action);
    e.evidencePattern = pattern;
    return e;
}

} // namespace

class TestMemoryEvidence : public QObject, ScratchDir {
    Q_OBJECT

private slots:
    void badPatternsAreRefusedOnEveryWayIn() {
        ExperienceStore store(location("patterns.db"));
        Experience e = entry("broken-pattern", "x");
        e.evidencePattern = "InitBuffer(q, 2";
        const MemoryError added = expectMemoryError([&] { store.add(e); });
        QVERIFY2(std::string(added.what()).find("broken-pattern") != std::string::npos, added.what());
        QVERIFY2(std::string(added.what()).find("InitBuffer(q, 2") != std::string::npos, added.what());
        QVERIFY2(std::string(added.what()).find("RE2") != std::string::npos, added.what());
        // Lookbehind is ECMAScript, not RE2: refused with the same kind of message.
        QVERIFY(EvidencePattern::problem(std::string("(?<") + "=x)y").has_value());
        QVERIFY(!EvidencePattern::problem(R"(InitBuffer\([^,]+,\s*(2|BUFFER_NUM)\s*,)").has_value());

        const std::string file = path("bad.jsonl");
        writeBytes(file, json{{"title", "fine"}, {"content", "ok"}}.dump() + "\n" +
                             json{{"title", "bad-one"}, {"content", "c"}, {"evidence_pattern", "a)b"}}.dump() + "\n");
        const MemoryError imported = expectMemoryError([&] { store.importFrom(file); });
        QVERIFY2(std::string(imported.what()).find("bad.jsonl:2") != std::string::npos, imported.what());
        QVERIFY2(std::string(imported.what()).find("a)b") != std::string::npos, imported.what());
        QCOMPARE(store.count(), std::int64_t(0));  // a bad line imports nothing

        const std::int64_t id = store.add(entry("editable", "y"));
        ExperiencePatch patch;
        patch.evidencePattern = "([unclosed";
        const MemoryError edited = expectMemoryError([&] { store.edit(id, patch); });
        QVERIFY2(std::string(edited.what()).find("([unclosed") != std::string::npos, edited.what());
        QCOMPARE(store.get(id).evidencePattern, std::string());
    }

    void hostilePatternDoesNotHang() {
        // Catastrophic for a backtracking engine: linear for RE2, and accepted as valid.
        const std::string hostile = "([ -~]*)*QQQ";
        QVERIFY(!EvidencePattern::problem(hostile).has_value());
        const std::string line(200000, 'a');
        QVERIFY(!EvidencePattern::matchesAny(hostile, line));
        QVERIFY(EvidencePattern::matchesAny(hostile, line + "QQQ"));
        Experience e = entry("hostile", "z");
        e.evidencePattern = hostile;
        ExperienceStore store(location("hostile.db"));
        const std::int64_t id = store.add(e);
        const Evidence ev = EvidenceMatcher::assess(store.get(id), CandidateChange{"", line});
        QVERIFY(!ev.evidenced);
        QCOMPARE(std::string(toString(ev.basis)), std::string("pattern"));
    }

    void constantEditsMustGoTheActionsWay() {
        const Experience raise = withAction("raise-block-dim", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", "cores"}},
                                            "GetBlockNum\\(\\)|BLOCK_DIM");
        const Experience shrink = withAction("trap-block-dim-2", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", 2}},
                                             "BLOCK_DIM");
        const Experience bigger = withAction("bigger-tiles", {{"type", "scale_tunable"}, {"name", "TILE_LENGTH"}, {"factor", 2}},
                                             "TILE_LENGTH|tileLength");
        const Experience buffers = withAction("double-buffer", {{"type", "set_tunable"}, {"name", "buffer_num"}, {"value", 2}},
                                              "BUFFER_NUM\\s*=\\s*2");
        const std::string lowered = withLine(kKernel, "BLOCK_DIM = 8;", "BLOCK_DIM = 2;");
        const std::string raised = withLine(kKernel, "BLOCK_DIM = 8;", "BLOCK_DIM = 48;");
        std::string detail;

        // Lowering BLOCK_DIM is no evidence for "raise it", though the pattern names BLOCK_DIM.
        Evidence ev = EvidenceMatcher::assess(raise, CandidateChange::between(kKernel, lowered));
        QVERIFY2(!ev.evidenced, ev.detail.c_str());
        QCOMPARE(std::string(toString(ev.basis)), std::string("constant_edit"));
        QVERIFY2(ev.detail.find("8 -> 2") != std::string::npos, ev.detail.c_str());
        QVERIFY(EvidenceMatcher::assess(raise, CandidateChange::between(kKernel, raised)).evidenced);
        // "set to 2" is evidenced by a change to 2 only, not by the raise.
        QVERIFY(EvidenceMatcher::assess(shrink, CandidateChange::between(kKernel, lowered)).evidenced);
        QVERIFY(!EvidenceMatcher::assess(shrink, CandidateChange::between(kKernel, raised)).evidenced);
        // scale factor 2: up is evidence, down is not; the @tunable key names the constant too.
        const std::string up = withLine(kKernel, "TILE_LENGTH = 256;", "TILE_LENGTH = 512;");
        const std::string down = withLine(kKernel, "TILE_LENGTH = 256;", "TILE_LENGTH = 128;");
        QVERIFY(EvidenceMatcher::assess(bigger, CandidateChange::between(kKernel, up)).evidenced);
        QVERIFY(!EvidenceMatcher::assess(bigger, CandidateChange::between(kKernel, down)).evidenced);
        QVERIFY(EvidenceMatcher::assess(buffers, CandidateChange::between(
                                                     kKernel, withLine(kKernel, "BUFFER_NUM = 1;", "BUFFER_NUM = 2;")))
                    .evidenced);
        // A new line that merely mentions the constant is no constant edit.
        const std::string mention = std::string(kKernel) + "uint32_t cores = BLOCK_DIM * 2;  // GetBlockNum()\n";
        QVERIFY(!EvidenceMatcher::assess(raise, CandidateChange::between(kKernel, mention)).evidenced);
        // From a unified diff (removed and added lines).
        const std::string diff = "--- a/kernel.cpp\n+++ b/kernel.cpp\n@@ -3 +3 @@\n"
                                 "-constexpr uint32_t BLOCK_DIM = 8;      // @tunable block_dim {1, 2, 4, 8, 16, 48}\n"
                                 "+constexpr uint32_t BLOCK_DIM = 2;      // @tunable block_dim {1, 2, 4, 8, 16, 48}\n";
        QVERIFY(!EvidenceMatcher::assess(raise, CandidateChange::fromDiff(diff)).evidenced);
        QVERIFY(EvidenceMatcher::assess(shrink, CandidateChange::fromDiff(diff)).evidenced);
        QVERIFY(ConstantEdit::evidenced(raise.action, "BLOCK_DIM = 1; // @tunable block_dim {1, 8, 48}",
                                        "BLOCK_DIM = 48; // @tunable block_dim {1, 8, 48}", &detail));
        QVERIFY(!ConstantEdit::evidenced(raise.action, "BLOCK_DIM = 1; // @tunable block_dim {1, 8, 48}",
                                         "BLOCK_DIM = 8; // @tunable block_dim {1, 8, 48}", &detail));  // not the max
    }

    void patternsNeedANewMatch() {
        Experience tail = entry("tail-by-pad", "Handle the tail with DataCopyPad.");
        tail.action = {{"type", "transform"}, {"name", "datacopy_pad_tail"}};
        tail.evidencePattern = "DataCopyPad|tail";
        // A changed line that keeps "tail" is no evidence; a new DataCopyPad is.
        const std::string changed = withLine(kKernel, "total % TILE_LENGTH", "(total + 1) % TILE_LENGTH");
        QVERIFY(!EvidenceMatcher::assess(tail, CandidateChange::between(kKernel, changed)).evidenced);
        const std::string padded = std::string(kKernel) + "    AscendC::DataCopyPad(dst, src, params, pad);\n";
        const Evidence ev = EvidenceMatcher::assess(tail, CandidateChange::between(kKernel, padded));
        QVERIFY(ev.evidenced);
        QCOMPARE(std::string(toString(ev.basis)), std::string("pattern"));
        // Nothing to check: unverifiable, never evidenced.
        const Evidence none = EvidenceMatcher::assess(entry("prose", "just words"), CandidateChange::between(kKernel, padded));
        QVERIFY(!none.evidenced);
        QCOMPARE(std::string(toString(none.basis)), std::string("unverifiable"));
    }

    void adoptionRecordKeepsTheBasis() {
        ExperienceStore store(location("basis.db"));
        const std::int64_t raise = store.add(withAction(
            "raise", {{"type", "set_tunable"}, {"name", "BLOCK_DIM"}, {"value", "cores"}}, "BLOCK_DIM"));
        const std::int64_t prose = store.add(entry("prose", "words only", Stage::Optimize));
        std::vector<ScoredExperience> shown;
        for (std::int64_t id : {raise, prose}) {
            ScoredExperience s;
            s.experience = store.get(id);
            s.rank = static_cast<int>(shown.size()) + 1;
            shown.push_back(s);
        }
        const std::string lowered = withLine(kKernel, "BLOCK_DIM = 8;", "BLOCK_DIM = 2;");
        // The policy claims both; the code lowered BLOCK_DIM.
        const auto adoptionSignals = AdoptionLedger::assess(shown, {raise, prose}, kKernel, lowered);
        store.recordRetrievals(7, 1, Stage::Optimize, shown);
        IterationOutcome outcome;
        outcome.reward = 0.5;
        const CreditReport report = store.recordOutcome(7, 1, adoptionSignals, outcome);
        QCOMPARE(*report.records[0].adoptionWeight, ValueModel::adoptionWeight(true, false));  // 0.3, not 1.0
        QCOMPARE(report.records[0].evidenceBasis, std::string("constant_edit"));
        QCOMPARE(report.records[1].evidenceBasis, std::string("unverifiable"));
        const auto stored = store.ledger().retrievals(7, 1);
        QCOMPARE(stored[0].evidenceBasis, std::string("constant_edit"));
        QVERIFY(stored[0].evidenceDetail.find("8 -> 2") != std::string::npos);
    }

    void applicabilityFiltersRetrieval() {
        ExperienceStore store(location("applies.db"));
        Experience p310 = entry("datacopypad-missing-310p", "DataCopyPad does not exist here: compile error.", Stage::Repair,
                                {"", "compile_error", ""});
        p310.appliesTo.devices = {"ascend310p3-sim"};
        Experience cube = entry("cube-only-compile", "Mmad needs L0 tensors: compile error otherwise.", Stage::Repair,
                                {"", "compile_error", ""});
        cube.appliesTo.categories = {"matmul"};
        const std::int64_t a = store.add(p310);
        const std::int64_t b = store.add(cube);
        RetrievalContext ctx;
        ctx.stage = Stage::Repair;
        ctx.diagnostics = {{"compile_error", "no member named DataCopyPad"}};
        auto ids = [&](const std::string& device, const std::string& category) {
            ctx.device = device;
            ctx.category = category;
            std::vector<std::int64_t> out;
            for (const auto& s : store.retrieve(ctx)) out.push_back(s.experience.id);
            std::sort(out.begin(), out.end());
            return out;
        };
        QCOMPARE(ids("ascend910b1-sim", "activation"), std::vector<std::int64_t>{});
        QCOMPARE(ids("ascend310p3-sim", "activation"), std::vector<std::int64_t>{a});
        QCOMPARE(ids("ascend910b1-sim", "matmul"), std::vector<std::int64_t>{b});
        QCOMPARE(ids("ascend310p3-sim", "matmul"), (std::vector<std::int64_t>{a, b}));
        QCOMPARE(ids("", ""), (std::vector<std::int64_t>{a, b}));  // a context that does not say: no filter
        // Round trip through export/import keeps the field; bad values are refused with the field name.
        store.exportTo(path("applies.jsonl"));
        ExperienceStore copy(location("applies-copy.db"));
        copy.importFrom(path("applies.jsonl"));
        QCOMPARE(copy.get(a).appliesTo.devices, std::vector<std::string>{"ascend310p3-sim"});
        QCOMPARE(readBytes(path("applies.jsonl")), [&] {
            copy.exportTo(path("applies-again.jsonl"));
            return readBytes(path("applies-again.jsonl"));
        }());
        writeBytes(path("bad-applies.jsonl"),
                   json{{"title", "t"}, {"content", "c"}, {"applies_to", {{"devices", "310p"}}}}.dump() + "\n");
        const MemoryError e = expectMemoryError([&] { copy.importFrom(path("bad-applies.jsonl")); });
        QVERIFY2(std::string(e.what()).find("applies_to.devices") != std::string::npos, e.what());
    }

    void longImportLetsAConcurrentWriterIn() {
        const std::string file = path("big.jsonl");
        {
            std::ofstream out(file);
            for (int i = 0; i < 450; ++i)
                out << json{{"title", "entry-" + std::to_string(i)}, {"content", "content number " + std::to_string(i)}}.dump()
                    << "\n";
        }
        auto importerDb = std::make_shared<Database>(location("chunks.db"), std::vector<SchemaModule>{MemorySchema::module()});
        ExperienceStore importer(importerDb);
        auto writerDb = std::make_shared<Database>(location("chunks.db"), std::vector<SchemaModule>{MemorySchema::module()});
        // Fail at once instead of waiting: shows who holds the lock.
        writerDb->exec(writerDb->isPostgres() ? "SET lock_timeout = 1" : "PRAGMA busy_timeout = 0");
        ExperienceStore writer(writerDb);
        // The test can fail: while the importer holds a transaction, the other connection cannot write.
        {
            Transaction held(*importerDb);
            importer.add(entry("held", "inside a transaction"));
            const MemoryError locked = expectMemoryError([&] { writer.add(entry("blocked", "should not get in")); });
            QVERIFY2(std::string(locked.what()).find("locked") != std::string::npos ||
                         std::string(locked.what()).find("busy") != std::string::npos,
                     locked.what());
            held.commit();
        }
        // From here the writer waits for its turn as any client does: between two chunks it must get
        // one (if the importer kept the lock across chunks, this wait would time out and fail). A
        // 1 ms limit would also fail on a brief, legitimate hold by a loaded server.
        writerDb->exec(writerDb->isPostgres() ? "SET lock_timeout = 30000" : "PRAGMA busy_timeout = 30000");
        std::vector<int> progress;
        importer.exchange().setChunkSize(100);
        importer.exchange().setChunkObserver([&](int written) {
            progress.push_back(written);
            writer.add(entry("concurrent-" + std::to_string(written), "written between two import chunks"));
        });
        const ImportReport report = importer.exchange().importFrom(file);
        QCOMPARE(report.imported, 450);
        QCOMPARE(progress, (std::vector<int>{100, 200, 300, 400, 450}));
        QCOMPARE(writer.count(), std::int64_t(1 + 450 + 5));
        // Validation still comes first: a bad last line imports nothing.
        writeBytes(path("bad-last.jsonl"), json{{"title", "new-a"}, {"content", "a"}}.dump() + "\n" +
                                               json{{"title", ""}, {"content", "b"}}.dump() + "\n");
        const MemoryError bad = expectMemoryError([&] { importer.importFrom(path("bad-last.jsonl")); });
        QVERIFY2(std::string(bad.what()).find("bad-last.jsonl:2") != std::string::npos, bad.what());
        QCOMPARE(writer.count(), std::int64_t(1 + 450 + 5));
    }

    void duplicateLessonCreditFollowsTheMode() {
        for (const MemoryMode mode : {MemoryMode::Adoption, MemoryMode::AllRetrieved, MemoryMode::Similarity}) {
            ExperienceStore store(path((std::string("dedup-") + std::string(toString(mode)) + ".db").c_str()));
            Experience seed = withAction("double-buffer", {{"type", "set_tunable"}, {"name", "BUFFER_NUM"}, {"value", 2}}, "");
            seed.trigger.bottleneck = "mte2_bound";
            const std::int64_t id = store.add(seed);
            Proposal p;
            p.experience = seed;
            p.experience.title = "mte2_bound: buffer_num 1 -> 2";
            p.experience.content = "a lesson with the same trigger and action";
            p.experience.provenance = {Provenance{"add", 3, 2, "", ""}};
            p.stage = Stage::Optimize;
            p.reward = 0.6;
            p.mode = mode;
            const ProposalResult r = store.addProposed(p);
            QVERIFY(r.deduplicated);
            QCOMPARE(r.id, id);
            const double q = store.stats(id).at(Stage::Optimize).q;
            if (learnsValues(mode)) QVERIFY2(std::abs(q - 0.06) < 1e-9, toString(mode).data());
            else QCOMPARE(q, 0.0);
            QCOMPARE(store.get(id).provenance.size(), std::size_t(1));  // provenance grows in every mode
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryEvidence)
#include "test_memory_evidence.moc"
