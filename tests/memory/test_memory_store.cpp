// Entries and curation: storing every field, validation, revisions on every change, merge,
// delete, dedup of proposals, list filters and the overview.
#include "MemoryTestSupport.h"

#include "sage_memory/ExperiencePatch.h"

using namespace sage::memory;
using namespace sage::memory::test;

class TestMemoryStore : public QObject, private ScratchDir {
    Q_OBJECT

private slots:
    void storesEveryField() {
        ExperienceStore store(location("fields.db"));
        Experience e = entry("ub-budget", "Keep **UB** under 184 KB.", Stage::Optimize,
                             {"reduction", "capacity_exceeded", "mte2_bound"}, ExperienceStatus::Pending);
        e.kind = ExperienceKind::Pitfall;
        e.codeIdiom = "pipe.InitBuffer(q, 2, bytes);";
        e.evidencePattern = R"(InitBuffer\(\w+,\s*2)";
        e.action = {{"type", "scale_tunable"}, {"name", "TILE_LENGTH"}, {"factor", 0.5}};
        e.origin = Origin::Agent;
        e.pinned = true;
        e.provenance = {{"softmax", 7, 3, "--- a\n+++ b\n+x", "learned"}, {"", std::nullopt, std::nullopt, "", ""}};
        const std::int64_t id = store.add(e);
        QVERIFY(id > 0);
        const Experience back = store.get(id);
        QCOMPARE(back.title, e.title);
        QCOMPARE(back.content, e.content);
        QVERIFY(back.kind == ExperienceKind::Pitfall);
        QVERIFY(back.stage == Stage::Optimize);
        QVERIFY(back.trigger == e.trigger);
        QCOMPARE(back.codeIdiom, e.codeIdiom);
        QCOMPARE(back.evidencePattern, e.evidencePattern);
        QCOMPARE(back.action, e.action);
        QVERIFY(back.status == ExperienceStatus::Pending);
        QVERIFY(back.origin == Origin::Agent);
        QVERIFY(back.pinned);
        QVERIFY(back.provenance == e.provenance);
        QVERIFY(!back.createdAt.empty());
        QCOMPARE(back.createdAt, back.updatedAt);
        QCOMPARE(store.count(), std::int64_t(1));
    }

    void rejectsInvalidEntries() {
        ExperienceStore store(location("invalid.db"));
        auto error = expectMemoryError([&] { store.add(entry("", "content")); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        QVERIFY(std::string(error.what()).find("title is empty") != std::string::npos);
        error = expectMemoryError([&] { store.add(entry("t", "   \n")); });
        QVERIFY(std::string(error.what()).find("content is empty") != std::string::npos);
        Experience bad = entry("t", "c");
        bad.action = nlohmann::json::array({1, 2});
        error = expectMemoryError([&] { store.add(bad); });
        QVERIFY(std::string(error.what()).find("action must be a JSON object") != std::string::npos);
        QCOMPARE(store.count(), std::int64_t(0));
        error = expectMemoryError([&] { store.get(42); });
        QVERIFY(error.code() == MemoryError::Code::NotFound);
        QVERIFY(std::string(error.what()).find("no experience #42") != std::string::npos);
        const std::int64_t id = store.add(entry("t", "c"));
        Experience clash = entry("u", "d");
        clash.id = id;
        error = expectMemoryError([&] { store.add(clash); });
        QVERIFY(error.code() == MemoryError::Code::Conflict);
    }

    void curationKeepsRevisions() {
        ExperienceStore store(location("curation.db"));
        const std::int64_t id = store.add(entry("old-title", "old content", Stage::Repair, {}, ExperienceStatus::Pending));
        QVERIFY(store.approve(id, {"alice", "checked on hardware"}));
        QVERIFY(!store.approve(id, {"alice", "again"}));  // no change, no revision
        ExperiencePatch patch;
        patch.title = "new-title";
        patch.content = "new content";
        patch.diagnostic = "race_raw";
        const auto changed = store.edit(id, patch, {"bob", "clearer"});
        QCOMPARE(changed.size(), std::size_t(3));
        QVERIFY(store.edit(id, patch, {"bob", "same again"}).empty());
        QVERIFY(store.setPinned(id, true, {"carol", ""}));
        QVERIFY(store.reject(id));
        QVERIFY(store.archive(id));

        const auto revisions = store.revisions(id);
        QCOMPARE(revisions.size(), std::size_t(5));
        QCOMPARE(revisions[0].revision, 1);
        QCOMPARE(revisions[0].author, std::string("alice"));
        QCOMPARE(revisions[0].reason, std::string("checked on hardware"));
        QCOMPARE(revisions[0].previous["status"].get<std::string>(), std::string("pending"));
        QCOMPARE(revisions[1].author, std::string("bob"));
        QCOMPARE(revisions[1].previous["title"].get<std::string>(), std::string("old-title"));
        QCOMPARE(revisions[1].previous["content"].get<std::string>(), std::string("old content"));
        QCOMPARE(revisions[2].reason, std::string("pinned"));  // default reason names the operation
        QCOMPARE(revisions[3].previous["status"].get<std::string>(), std::string("approved"));
        QCOMPARE(revisions[4].previous["status"].get<std::string>(), std::string("rejected"));
        QVERIFY(!revisions[4].at.empty());

        const Experience now = store.get(id);
        QCOMPARE(now.title, std::string("new-title"));
        QCOMPARE(now.trigger.diagnostic, std::string("race_raw"));
        QVERIFY(now.status == ExperienceStatus::Archived);
        QVERIFY(now.pinned);

        ExperiencePatch emptyTitle;
        emptyTitle.title = "";
        auto error = expectMemoryError([&] { store.edit(id, emptyTitle); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        QCOMPARE(store.get(id).title, std::string("new-title"));
        QCOMPARE(store.revisions(id).size(), std::size_t(5));
    }

    void patchFromJsonChecksFields() {
        const auto patch = ExperiencePatch::fromJson(
            {{"title", "t"}, {"trigger", {{"bottleneck", "vector_bound"}}}, {"action", nullptr}, {"pinned", true}});
        QVERIFY(patch.title && patch.bottleneck && patch.action && patch.pinned);
        QVERIFY(!patch.category && !patch.content);
        auto error = expectMemoryError([] { ExperiencePatch::fromJson({{"id", 3}}); });
        QVERIFY(std::string(error.what()).find("cannot be edited") != std::string::npos);
        error = expectMemoryError([] { ExperiencePatch::fromJson({{"stage", "later"}}); });
        QVERIFY(std::string(error.what()).find("draft, repair, optimize, any") != std::string::npos);
        error = expectMemoryError([] { ExperiencePatch::fromJson({{"title", 5}}); });
        QVERIFY(std::string(error.what()).find("must be a string") != std::string::npos);
        error = expectMemoryError([] { ExperiencePatch::fromJson({{"action", "x"}}); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        error = expectMemoryError([] { ExperiencePatch::fromJson(nlohmann::json::array()); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
    }

    void mergeCombinesStatsAndKeepsBothHistories() {
        ExperienceStore store(location("merge.db"));
        Experience a = entry("pair-flags", "Pair every SetFlag with a WaitFlag.", Stage::Repair, {"", "flag_unpaired", ""});
        a.provenance = {{"relu", 1, 2, "+SetFlag", ""}};
        Experience b = entry("flags-must-match", "WaitFlag needs the same HardEvent as SetFlag.", Stage::Repair,
                             {"", "flag_unpaired", ""});
        b.provenance = {{"gelu", 4, 5, "+WaitFlag", ""}};
        b.evidencePattern = "WaitFlag";
        b.action = {{"type", "transform"}, {"name", "pair_flags"}};
        const std::int64_t ida = store.add(a);
        const std::int64_t idb = store.add(b);
        store.edit(ida, [] { ExperiencePatch p; p.content = "Pair every SetFlag with exactly one WaitFlag."; return p; }(),
                   {"alice", "precise"});
        store.edit(idb, [] { ExperiencePatch p; p.title = "flags-same-event"; return p; }(), {"bob", "rename"});
        // Learn: A adopted twice with success, B adopted once with failure and ignored once.
        store.recordRetrievals(1, 1, Stage::Repair, shown(store, {ida, idb}));
        store.recordOutcome(1, 1, {{ida, true, true}, {idb, true, true}}, outcomeOf(-1.0));
        store.recordRetrievals(1, 2, Stage::Repair, shown(store, {ida, idb}));
        store.recordOutcome(1, 2, {{ida, true, true}}, outcomeOf(1.0));
        store.recordRetrievals(1, 3, Stage::Repair, shown(store, {ida}));
        store.recordOutcome(1, 3, {{ida, true, true}}, outcomeOf(1.0));
        const StageStats sa = store.stats(ida).at(Stage::Repair);
        const StageStats sb = store.stats(idb).at(Stage::Repair);
        const auto historyA = store.qHistory(ida, false);
        const auto historyB = store.qHistory(idb, false);
        QCOMPARE(historyA.size(), std::size_t(3));
        QCOMPARE(historyB.size(), std::size_t(1));

        store.merge(ida, idb, {"carol", "same rule"});

        const StageStats merged = store.stats(ida).at(Stage::Repair);
        QCOMPARE(merged.retrieved, sa.retrieved + sb.retrieved);
        QCOMPARE(merged.adopted, sa.adopted + sb.adopted);
        QCOMPARE(merged.ignored, sa.ignored + sb.ignored);
        QCOMPARE(merged.successes, sa.successes + sb.successes);
        QCOMPARE(merged.rewardSum, sa.rewardSum + sb.rewardSum);
        const double expectedQ = (sa.q * sa.adopted + sb.q * sb.adopted) / double(sa.adopted + sb.adopted);
        QVERIFY(std::abs(merged.q - expectedQ) < 1e-12);

        const Experience keptEntry = store.get(ida);
        const Experience archived = store.get(idb);
        QVERIFY(archived.status == ExperienceStatus::Archived);
        QCOMPARE(*archived.mergedInto, ida);
        QCOMPARE(keptEntry.evidencePattern, std::string("WaitFlag"));  // empty field filled from B
        QCOMPARE(keptEntry.action, b.action);
        QCOMPARE(keptEntry.provenance.size(), std::size_t(2));
        QCOMPARE(keptEntry.provenance[1].task, std::string("gelu"));
        QVERIFY(keptEntry.provenance[1].note.find("merged from #" + std::to_string(idb)) != std::string::npos);

        // Both histories: A's own points, B's points and the merge point, all reachable from A.
        const auto all = store.qHistory(ida);
        QCOMPARE(all.size(), historyA.size() + historyB.size() + 1);
        int fromB = 0;
        for (const ValuePoint& p : all) fromB += p.experienceId == idb;
        QCOMPARE(fromB, 1);
        QCOMPARE(all.back().cause, std::string("merge"));
        QCOMPARE(store.qHistory(idb, false).size(), historyB.size());
        // Both revision histories are kept, each with a merge revision on top.
        const auto revA = store.revisions(ida);
        const auto revB = store.revisions(idb);
        QCOMPARE(revA.size(), std::size_t(2));
        QCOMPARE(revB.size(), std::size_t(2));
        QCOMPARE(revA[0].author, std::string("alice"));
        QCOMPARE(revB[0].author, std::string("bob"));
        QVERIFY(revA[1].reason.find("merged #" + std::to_string(idb)) != std::string::npos);
        QVERIFY(revB[1].reason.find("merged into #" + std::to_string(ida)) != std::string::npos);
        // B's retrieval records stay with B.
        QCOMPARE(store.ledger().retrievalsOf(idb).size(), std::size_t(2));

        auto error = expectMemoryError([&] { store.merge(ida, idb); });
        QVERIFY(error.code() == MemoryError::Code::Conflict);
        error = expectMemoryError([&] { store.merge(ida, ida); });
        QVERIFY(error.code() == MemoryError::Code::InvalidInput);
        error = expectMemoryError([&] { store.merge(ida, 999); });
        QVERIFY(error.code() == MemoryError::Code::NotFound);
    }

    void deleteRemovesEverything() {
        ExperienceStore store(location("delete.db"));
        const std::int64_t a = store.add(entry("a", "alpha"));
        const std::int64_t b = store.add(entry("b", "beta"));
        store.recordRetrievals(1, 1, Stage::Repair, shown(store, {a, b}));
        store.recordOutcome(1, 1, {{b, true, true}}, outcomeOf(1.0));
        store.merge(a, b);
        store.remove(a);
        QVERIFY(!store.find(a));
        QVERIFY(!store.get(b).mergedInto);  // the link is dropped, the archived entry stays
        QVERIFY(store.revisions(a).empty());
        QVERIFY(store.qHistory(a).empty());
        QVERIFY(store.ledger().retrievalsOf(a).empty());
        QCOMPARE(store.ledger().retrievalsOf(b).size(), std::size_t(1));
        QVERIFY(expectMemoryError([&] { store.remove(a); }).code() == MemoryError::Code::NotFound);
        QVERIFY(store.database().integrityCheck() == std::vector<std::string>{"ok"});
    }

    void dedupCreditsInsteadOfDuplicating() {
        ExperienceStore store(location("dedup.db"));
        Experience rule = entry("halve-tile-on-overflow", "When UB capacity is exceeded halve TILE_LENGTH.",
                                Stage::Repair, {"", "capacity_exceeded", ""});
        rule.action = {{"type", "scale_tunable"}, {"name", "TILE_LENGTH"}, {"factor", 0.5}};
        const std::int64_t id = store.add(rule);

        // Same trigger and action, other words.
        Proposal same;
        same.experience = entry("tile-too-big", "Overflowing the unified buffer: use smaller tiles.", Stage::Repair,
                                {"", "capacity_exceeded", ""}, ExperienceStatus::Approved);
        same.experience.action = {{"factor", 0.5}, {"name", "TILE_LENGTH"}, {"type", "scale_tunable"}};  // key order differs
        same.experience.provenance = {{"softmax", 9, 4, "+tile /= 2", ""}};
        same.stage = Stage::Repair;
        same.reward = 1.0;
        const ProposalResult first = store.addProposed(same);
        QVERIFY(first.deduplicated);
        QCOMPARE(first.id, id);
        QCOMPARE(store.count(), std::int64_t(1));
        QVERIFY(std::abs(store.stats(id).at(Stage::Repair).q - 0.1) < 1e-12);  // 0.1·r
        const auto history = store.qHistory(id);
        QCOMPARE(history.size(), std::size_t(1));
        QCOMPARE(history[0].cause, std::string("dedup"));
        QCOMPARE(*history[0].run, std::int64_t(9));
        QCOMPARE(store.get(id).provenance.size(), std::size_t(1));
        QVERIFY(store.get(id).provenance[0].note.find("duplicate proposal") != std::string::npos);

        // Near-identical text (Jaccard >= 0.85), no action: credited too, with a negative reward.
        Proposal text;
        text.experience = entry("halve-tile-on-overflow", "When UB capacity is exceeded, halve the TILE_LENGTH.",
                                Stage::Repair);
        text.stage = Stage::Repair;
        text.reward = -1.0;
        const ProposalResult second = store.addProposed(text);
        QVERIFY(second.deduplicated);
        QCOMPARE(second.id, id);
        QVERIFY(second.similarity >= ValueModel::kDedupJaccard);
        QVERIFY(std::abs(store.stats(id).at(Stage::Repair).q - 0.0) < 1e-12);
        QCOMPARE(store.count(), std::int64_t(1));

        // Something new is stored as pending, whatever status it claimed.
        Proposal fresh;
        fresh.experience = entry("pair-flags", "Each SetFlag needs a WaitFlag with the same event.", Stage::Repair,
                                 {"", "flag_unpaired", ""}, ExperienceStatus::Approved);
        fresh.stage = Stage::Repair;
        fresh.reward = 1.0;
        const ProposalResult third = store.addProposed(fresh);
        QVERIFY(!third.deduplicated);
        QVERIFY(third.id != id);
        QVERIFY(store.get(third.id).status == ExperienceStatus::Pending);
        QCOMPARE(store.count(), std::int64_t(2));

        // Archived entries do not absorb proposals.
        store.archive(third.id);
        const ProposalResult again = store.addProposed(fresh);
        QVERIFY(!again.deduplicated);
        QCOMPARE(store.count(), std::int64_t(3));

        Proposal bad = fresh;
        bad.stage = Stage::Any;
        QVERIFY(expectMemoryError([&] { store.addProposed(bad); }).code() == MemoryError::Code::InvalidInput);
        bad.stage = Stage::Repair;
        bad.reward = 2.0;
        QVERIFY(expectMemoryError([&] { store.addProposed(bad); }).code() == MemoryError::Code::InvalidInput);
    }

    void listFiltersAndOverview() {
        ExperienceStore store(location("list.db"));
        const std::int64_t a = store.add(entry("alpha", "double buffering", Stage::Optimize));
        const std::int64_t b = store.add(entry("beta", "queue depth", Stage::Repair, {}, ExperienceStatus::Pending));
        Experience c = entry("gamma", "cube tiles", Stage::Draft);
        c.kind = ExperienceKind::ApiUsage;
        c.origin = Origin::Seed;
        c.pinned = true;
        store.add(c);
        ExperienceFilter filter;
        filter.status = ExperienceStatus::Pending;
        QCOMPARE(store.list(filter).size(), std::size_t(1));
        QCOMPARE(store.list(filter)[0].id, b);
        filter = {};
        filter.kind = ExperienceKind::ApiUsage;
        QCOMPARE(store.list(filter).size(), std::size_t(1));
        filter = {};
        filter.pinnedOnly = true;
        QCOMPARE(store.list(filter).size(), std::size_t(1));
        filter = {};
        filter.text = "buffering \"OR* (";
        QCOMPARE(store.list(filter).size(), std::size_t(1));
        QCOMPARE(store.list(filter)[0].id, a);
        filter = {};
        filter.limit = 2;
        filter.offset = 1;
        QCOMPARE(store.list(filter).size(), std::size_t(2));
        QCOMPARE(store.list(filter)[0].id, b);

        const StoreOverview o = store.overview();
        QCOMPARE(o.entries, std::int64_t(3));
        QCOMPARE(o.byStatus.at("approved"), std::int64_t(2));
        QCOMPARE(o.byStatus.at("rejected"), std::int64_t(0));
        QCOMPARE(o.byStage.at("draft"), std::int64_t(1));
        QCOMPARE(o.byOrigin.at("seed"), std::int64_t(1));
        QCOMPARE(o.pinned, std::int64_t(1));
        QCOMPARE(o.toJson()["entries"].get<int>(), 3);
    }
};

QTEST_APPLESS_MAIN(TestMemoryStore)
#include "test_memory_store.moc"
