// Persistence: JSON Lines round trip, import errors and renumbering, crash safety under SIGKILL,
// refusal of damaged / foreign / newer files without touching them, schema modules of other
// parts of SAGE, and the seed pack.
#include "MemoryTestSupport.h"

#include "sage_memory/MemorySchema.h"
#include "sage_memory/TriggerVocabulary.h"

#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

using namespace sage::memory;
using namespace sage::memory::test;
namespace fs = std::filesystem;

namespace {

void rawExec(const std::string& file, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

// Opening must throw `code`, name the file, say nothing changed, and leave every byte in place.
void expectRefusedUnchanged(const std::string& file, MemoryError::Code code, const std::string& mention) {
    const std::string before = readBytes(file);
    const bool hadSideFiles = fs::exists(file + "-wal") || fs::exists(file + "-shm");
    const MemoryError error = expectMemoryError([&] { ExperienceStore store(file); });
    const std::string message = error.what();
    QVERIFY2(error.code() == code, message.c_str());
    QVERIFY2(message.find(file) != std::string::npos, message.c_str());
    QVERIFY2(message.find("Nothing was changed") != std::string::npos, message.c_str());
    QVERIFY2(message.find(mention) != std::string::npos, message.c_str());
    QVERIFY(readBytes(file) == before);
    if (!hadSideFiles) QVERIFY(!fs::exists(file + "-wal") && !fs::exists(file + "-shm"));  // not even those
}

bool readId(int fd, std::int64_t& id) {
    std::size_t got = 0;
    auto* bytes = reinterpret_cast<char*>(&id);
    while (got < sizeof id) {
        const ssize_t n = ::read(fd, bytes + got, sizeof id - got);
        if (n <= 0) return false;
        got += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

class TestMemoryPersistence : public QObject, private ScratchDir {
    Q_OBJECT

    // A memory that exercises every exported field: seed entries, learned values, revisions,
    // merges, dedup credits, provenance with diffs, unicode, pins and an id gap.
    std::int64_t gapId_ = 0;  // the id fillRichStore deleted to leave a gap

    void fillRichStore(ExperienceStore& store) {
        store.importFrom(SAGE_SEED_PACK);
        Experience e = entry("unicode-\xE2\x9C\x93", "Content with \"quotes\", tabs\t, newlines\nand \xE4\xB8\xAD\xE6\x96\x87.",
                             Stage::Optimize, {"matmul", "", "cube_bound"});
        e.action = {{"type", "set_tunable"}, {"name", "BASE_K"}, {"value", 64}};
        e.provenance = {{"matmul_fp16", 3, 17, "--- a/k.cpp\n+++ b/k.cpp\n@@ -1 +1 @@\n-int k = 32;\n+int k = 64;\n", ""}};
        const std::int64_t unicode = store.add(e);
        const std::int64_t gone = store.add(entry("to-delete", "Deleted to leave an id gap."));
        store.remove(gone);
        gapId_ = gone;
        RetrievalContext ctx;
        ctx.stage = Stage::Repair;
        ctx.diagnostics = {{"capacity_exceeded", "UB overflow"}, {"flag_unpaired", "SetFlag without WaitFlag"}};
        for (int i = 1; i <= 4; ++i) {
            const auto found = store.retrieve(ctx);
            store.recordRetrievals(1, i, Stage::Repair, found);
            store.recordOutcome(1, i, {{found[0].experience.id, true, i % 2 == 0}, {found[1].experience.id, false, true}},
                                outcomeOf(i % 3 == 0 ? -1.0 : 1.0));
        }
        store.recordRetrievals(2, 1, Stage::Optimize, shown(store, {unicode}));
        store.recordOutcome(2, 1, {{unicode, true, true}}, outcomeOf(ValueModel::optimizeReward(1.7, true)));
        ExperiencePatch patch;
        patch.content = "Edited \xE2\x80\x94 with a revision.";
        store.edit(unicode, patch, {"dana", "clarify"});
        store.setPinned(3, true, {"erin", "important"});
        store.reject(7, {"erin", "too vague"});
        store.merge(4, 31, {"finn", "both about capacity"});
        Proposal duplicate;
        duplicate.experience = store.get(1);
        duplicate.experience.provenance = {{"add", 5, 2, "+aligned", ""}};
        duplicate.stage = Stage::Repair;
        duplicate.reward = 1.0;
        QVERIFY(store.addProposed(duplicate).deduplicated);
    }

private slots:
    void exportImportRoundTripsExactly() {
        const std::string first = path("round1.jsonl");
        const std::string second = path("round2.jsonl");
        ExperienceStore source(path("source.db"));
        fillRichStore(source);
        const int exported = source.exportTo(first);
        QCOMPARE(std::int64_t(exported), source.count());

        ExperienceStore copy(path("copy.db"));
        const ImportReport report = copy.importFrom(first);
        QCOMPARE(report.imported, exported);
        QCOMPARE(report.renumbered, 0);
        QCOMPARE(report.skipped, 0);
        copy.exportTo(second);
        const std::string a = readBytes(first);
        QVERIFY(a.size() > 10000);
        QVERIFY(a == readBytes(second));

        // And the stores agree entry by entry, not only as text.
        for (const ExperienceSummary& s : source.list()) {
            const Experience x = source.get(s.id);
            const Experience y = copy.get(s.id);
            QCOMPARE(x.toJson(), y.toJson());
            QCOMPARE(source.stats(s.id), copy.stats(s.id));
            QCOMPARE(source.revisions(s.id), copy.revisions(s.id));
            QCOMPARE(source.qHistory(s.id, false), copy.qHistory(s.id, false));
        }
        QVERIFY(gapId_ > 0);
        QVERIFY(!copy.find(gapId_));  // the id gap survives
        QCOMPARE(*copy.get(31).mergedInto, std::int64_t(4));
    }

    void importErrorsNameTheLineAndImportNothing() {
        ExperienceStore store(path("badimport.db"));
        auto error = expectMemoryError([&] { store.importFrom(std::string(SAGE_TEST_DATA_DIR) + "/bad_kind.jsonl"); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        QVERIFY2(std::string(error.what()).find("bad_kind.jsonl:3: kind 'recipe' is not known") != std::string::npos,
                 error.what());
        QCOMPARE(store.count(), std::int64_t(0));
        error = expectMemoryError([&] { store.importFrom(std::string(SAGE_TEST_DATA_DIR) + "/not_json.jsonl"); });
        QVERIFY2(std::string(error.what()).find("not_json.jsonl:2: not valid JSON") != std::string::npos, error.what());
        QCOMPARE(store.count(), std::int64_t(0));
        error = expectMemoryError([&] { store.importFrom(path("missing.jsonl")); });
        QVERIFY(error.code() == MemoryError::Code::Io);
    }

    void importKeepsFreeIdsAndRenumbersTakenOnes() {
        ExperienceStore store(path("renumber.db"));
        const std::int64_t existing = store.add(entry("already-here", "Owns id 1."));
        QCOMPARE(existing, std::int64_t(1));
        const ImportReport report = store.importFrom(std::string(SAGE_TEST_DATA_DIR) + "/renumber.jsonl");
        QCOMPARE(report.imported, 2);
        QCOMPARE(report.renumbered, 2);
        QCOMPARE(report.notes.size(), std::size_t(2));
        ExperienceFilter filter;
        filter.text = "merged child";
        const auto child = store.list(filter);
        QCOMPARE(child.size(), std::size_t(1));
        filter.text = "taken";
        const auto parent = store.list(filter);
        QCOMPARE(parent.size(), std::size_t(1));
        QCOMPARE(*child[0].mergedInto, parent[0].id);  // the link follows the renumbered entry
        // Importing the same file again adds nothing.
        const ImportReport again = store.importFrom(std::string(SAGE_TEST_DATA_DIR) + "/renumber.jsonl");
        QCOMPARE(again.imported, 0);
        QCOMPARE(again.skipped, 2);
        QCOMPARE(store.count(), std::int64_t(3));
    }

    void killedWriterLeavesEveryCommittedRow() {
        const std::string file = path("crash.db");
        std::set<std::int64_t> committed;
        const int killAfter[] = {60, 150, 260};
        for (const int target : killAfter) {
            int fds[2];
            QCOMPARE(::pipe(fds), 0);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                ::close(fds[0]);
                try {
                    ExperienceStore store(file);
                    for (int i = 0;; ++i) {
                        Experience e = entry("crash-" + std::to_string(target) + "-" + std::to_string(i),
                                             std::string(3000, 'c') + std::to_string(i));
                        e.provenance = {{"crash", target, i, std::string(8000, 'd'), ""}};
                        const std::int64_t id = store.add(e);
                        store.recordRetrievals(target, i, Stage::Repair, shown(store, {id}));
                        store.recordOutcome(target, i, {{id, true, true}}, outcomeOf(1.0));
                        // Reported only after the commits, before the next write starts.
                        if (::write(fds[1], &id, sizeof id) != static_cast<ssize_t>(sizeof id)) ::_exit(2);
                    }
                } catch (...) {
                }
                ::_exit(1);
            }
            ::close(fds[1]);
            std::int64_t id = 0;
            int seen = 0;
            while (seen < target && readId(fds[0], id)) {
                committed.insert(id);
                ++seen;
            }
            QCOMPARE(seen, target);
            ::usleep(static_cast<useconds_t>(137 * target % 900));  // land somewhere inside a transaction
            QCOMPARE(::kill(child, SIGKILL), 0);
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
            while (readId(fds[0], id)) committed.insert(id);  // reported just before the kill
            ::close(fds[0]);
        }
        ExperienceStore store(file);
        QCOMPARE(store.database().integrityCheck(), std::vector<std::string>{"ok"});
        for (const std::int64_t id : committed) {
            const auto e = store.find(id);
            QVERIFY2(e.has_value(), ("committed entry #" + std::to_string(id) + " is missing").c_str());
            QCOMPARE(e->provenance.size(), std::size_t(1));
            QCOMPARE(store.stats(id).at(Stage::Repair).adopted, std::int64_t(1));
        }
        QVERIFY(store.count() >= static_cast<std::int64_t>(committed.size()));
        QVERIFY(store.count() <= static_cast<std::int64_t>(committed.size()) + 3);  // at most one per kill
    }

    void damagedFilesAreRefusedUnchanged() {
        const std::string garbage = path("garbage.db");
        writeBytes(garbage, std::string(4096, 'G'));
        expectRefusedUnchanged(garbage, MemoryError::Code::NotADatabase, "is not a SQLite database");

        const std::string good = path("good.db");
        {
            ExperienceStore store(good);
            store.importFrom(SAGE_SEED_PACK);
        }
        const std::string bytes = readBytes(good);
        QVERIFY(bytes.size() > 3 * 4096);

        const std::string truncated = path("truncated.db");
        writeBytes(truncated, bytes.substr(0, 60));
        expectRefusedUnchanged(truncated, MemoryError::Code::NotADatabase, "is not a SQLite database");

        const std::string badHeader = path("badheader.db");
        std::string header = bytes;
        for (std::size_t i = 16; i < 100; ++i) header[i] = static_cast<char>(0xEE);
        writeBytes(badHeader, header);
        expectRefusedUnchanged(badHeader, MemoryError::Code::NotADatabase, "damaged");

        const std::string badPages = path("badpages.db");
        std::string pages = bytes;
        for (std::size_t i = 4096; i < 3 * 4096; ++i) pages[i] = static_cast<char>(0xA5);
        writeBytes(badPages, pages);
        expectRefusedUnchanged(badPages, MemoryError::Code::NotADatabase, "damaged");

        const MemoryError dirError = expectMemoryError([&] { ExperienceStore store(root()); });
        QVERIFY(std::string(dirError.what()).find("is a directory") != std::string::npos);
    }

    void newerAndForeignFilesAreRefusedUnchanged() {
        const std::string newer = path("newer.db");
        {
            ExperienceStore store(newer);
            store.add(entry("kept", "Still here after the refusal."));
        }
        rawExec(newer, "PRAGMA user_version = 99");
        expectRefusedUnchanged(newer, MemoryError::Code::SchemaTooNew, "schema version 99");
        const MemoryError error = expectMemoryError([&] { ExperienceStore store(newer); });
        QVERIFY(std::string(error.what()).find("understands versions up to " +
                                                std::to_string(MemorySchema::latestVersion())) != std::string::npos);
        QVERIFY(std::string(error.what()).find("export") != std::string::npos);  // what to do

        const std::string foreign = path("foreign.db");
        rawExec(foreign, "CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);");
        expectRefusedUnchanged(foreign, MemoryError::Code::InvalidInput, "another program");
    }

    void otherModulesBringTheirOwnTables() {
        const std::string file = path("modules.db");
        const SchemaModule agent{"agent_test",
                                 {{1, "runs", "CREATE TABLE test_runs(id INTEGER PRIMARY KEY, task TEXT NOT NULL);"},
                                  {2, "iterations",
                                   "CREATE TABLE test_iterations(run INTEGER NOT NULL REFERENCES test_runs(id), n INTEGER);"}}};
        {
            auto db = std::make_shared<Database>(file, std::vector<SchemaModule>{MemorySchema::module(), agent});
            ExperienceStore store(db);
            store.add(entry("shared", "One file, two modules."));
            db->exec("INSERT INTO test_runs(task) VALUES ('softmax'); INSERT INTO test_iterations VALUES (1, 1);");
            QCOMPARE(db->schemaVersion("agent_test"), 2);
            QCOMPARE(db->schemaVersion("memory"), MemorySchema::latestVersion());
            // Foreign keys are on.
            QVERIFY(expectMemoryError([&] { db->exec("INSERT INTO test_iterations VALUES (42, 1)"); }).code() ==
                    MemoryError::Code::Sqlite);
        }
        {
            ExperienceStore memoryOnly(file);  // a build without the agent module still opens it
            QCOMPARE(memoryOnly.count(), std::int64_t(1));
        }
        const SchemaModule olderAgent{"agent_test", {agent.migrations[0]}};
        const std::string before = readBytes(file);
        const MemoryError error = expectMemoryError(
            [&] { Database db(file, {MemorySchema::module(), olderAgent}); });
        QVERIFY(error.code() == MemoryError::Code::SchemaTooNew);
        QVERIFY(std::string(error.what()).find("module 'agent_test'") != std::string::npos);
        QVERIFY(readBytes(file) == before);
        QVERIFY(expectMemoryError([&] { Database db(file, {SchemaModule{"bad name;", {}}}); }).code() ==
                MemoryError::Code::InvalidInput);
    }

    void seedPackLoads() {
        ExperienceStore store(path("seed.db"));
        const ImportReport report = store.importFrom(SAGE_SEED_PACK);
        QVERIFY(report.imported >= 25);
        QCOMPARE(report.skipped, 0);
        // Every action type the built-in policy executes (docs/builtin-policy.md): knob moves,
        // transforms and repairs, and the draft stage's skeletons and API idioms.
        const std::set<std::string> actionTypes{"set_tunable", "scale_tunable", "step_tunable", "set_constant",
                                                "transform", "repair", "skeleton", "api_idiom"};
        std::set<std::string> titles;
        std::set<std::string> coveredDiagnostics;
        for (const ExperienceSummary& s : store.list()) {
            const Experience e = store.get(s.id);
            QVERIFY2(e.status == ExperienceStatus::Approved, e.title.c_str());
            QVERIFY(e.origin == Origin::Seed);
            QVERIFY2(std::regex_match(e.title, std::regex("[a-z0-9_]+(-[a-z0-9_]+)*")), e.title.c_str());
            QVERIFY2(titles.insert(e.title).second, ("duplicate title " + e.title).c_str());
            const auto unknown = TriggerVocabulary::unknownValues(e.trigger);
            QVERIFY2(unknown.empty(), (e.title + ": " + (unknown.empty() ? "" : unknown.front())).c_str());
            // Draft-stage skeletons and API idioms apply to every task that needs them; the rest
            // name what triggers them.
            if (e.stage != Stage::Draft) QVERIFY2(!e.trigger.empty(), ("no trigger: " + e.title).c_str());
            QVERIFY2(!e.evidencePattern.empty() || !e.codeIdiom.empty(), ("no evidence: " + e.title).c_str());
            try {
                std::regex(e.evidencePattern, std::regex::ECMAScript);
            } catch (const std::regex_error&) {
                QFAIL(("evidence pattern is not a valid regex: " + e.title).c_str());
            }
            if (!e.action.is_null()) QVERIFY2(actionTypes.count(e.action.value("type", "")), e.title.c_str());
            QVERIFY(e.content.size() > 80);
            coveredDiagnostics.insert(e.trigger.diagnostic);
        }
        for (const char* needed : {"capacity_exceeded", "datacopy_not_32b_multiple", "misaligned_address", "race_raw",
                                   "flag_unpaired", "repeat_exceeds_255", "unsupported_dtype", "deque_empty"})
            QVERIFY2(coveredDiagnostics.count(needed), needed);
        // The right rule comes first for a typical repair context.
        RetrievalContext ctx;
        ctx.stage = Stage::Repair;
        ctx.category = "elementwise";
        ctx.diagnostics = {{"datacopy_not_32b_multiple", "DataCopy of 100 bytes is not a multiple of 32 bytes"}};
        const auto found = store.retrieve(ctx);
        QVERIFY(!found.empty());
        QCOMPARE(found[0].experience.trigger.diagnostic, std::string("datacopy_not_32b_multiple"));
        // A second import adds nothing.
        QCOMPARE(store.importFrom(SAGE_SEED_PACK).skipped, report.imported);
    }
};

QTEST_APPLESS_MAIN(TestMemoryPersistence)
#include "test_memory_persistence.moc"
