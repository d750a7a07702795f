// Team curation on one memory (issue 16), on SQLite and (test_memory_team_pg) on PostgreSQL:
// the audit log says who did what, a stale edit fails with a message naming who changed the entry,
// and on PostgreSQL another client hears every change (LISTEN/NOTIFY).
#include "MemoryTestSupport.h"

#include "sage_memory/ChangeListener.h"

using namespace sage::memory;
using namespace sage::memory::test;

class TestMemoryTeam : public QObject, ScratchDir {
    Q_OBJECT

private slots:
    void auditLogSaysWhoDidWhat() {
        ExperienceStore store(location("audit.db"));
        const std::int64_t a = store.add(entry("pair-flags", "Pair SetFlag with WaitFlag.", Stage::Repair, {},
                                               ExperienceStatus::Pending));
        const std::int64_t b = store.add(entry("pair-flags-too", "Pair every SetFlag with a WaitFlag."));
        QVERIFY(store.auditLog().empty());
        QVERIFY(store.approve(a, {"alice", ""}));
        ExperiencePatch patch;
        patch.content = "Pair each SetFlag with a WaitFlag on the same event.";
        QVERIFY(!store.edit(a, patch, {"bob", "clearer"}).empty());
        store.merge(a, b, {"carol", "same lesson"});
        store.remove(b, {"dave", ""});
        QVERIFY(!store.approve(a, {"erin", ""}));  // already approved: nothing changes, nothing recorded

        const auto log = store.auditLog();
        QCOMPARE(log.size(), std::size_t(5));
        QCOMPARE(log[0].action, std::string("deleted"));
        QCOMPARE(log[0].author, std::string("dave"));
        QCOMPARE(log[0].experienceId, b);
        QCOMPARE(log[1].action, std::string("merged"));
        QCOMPARE(log[1].author, std::string("carol"));
        QCOMPARE(log[2].action, std::string("merged"));
        QCOMPARE(log[3].action, std::string("edited"));
        QCOMPARE(log[3].author, std::string("bob"));
        QCOMPARE(log[3].reason, std::string("clearer"));
        QCOMPARE(log[4].action, std::string("approved"));
        QCOMPARE(log[4].author, std::string("alice"));
        QCOMPARE(log[4].revision, 1);
        QVERIFY(log[4].at.size() == 24 && log[4].at.back() == 'Z');
        const auto onlyA = store.auditLog(a);
        QCOMPARE(onlyA.size(), std::size_t(3));  // approved, edited, merged
        QCOMPARE(store.get(a).revision, 3);
        QCOMPARE(store.list().front().lastChangedBy, std::string("carol"));
        QCOMPARE(store.auditLog(0, 2).size(), std::size_t(2));
    }

    void staleEditFailsAndSaysWhoChangedIt() {
        ExperienceStore mine(location("stale.db"));
        ExperienceStore theirs(location("stale.db"));  // a colleague's client on the same memory
        const std::int64_t id = mine.add(entry("queue-depth", "Keep EnQue within the queue depth.", Stage::Repair, {},
                                               ExperienceStatus::Pending));
        const Experience read = mine.get(id);
        QCOMPARE(read.revision, 0);

        QVERIFY(theirs.approve(id, {"bob", "looks right"}));
        ExperiencePatch patch;
        patch.title = "queue-depth-rule";
        ChangeNote note{"alice", "", read.revision};
        const MemoryError stale = expectMemoryError([&] { mine.edit(id, patch, note); });
        QVERIFY(stale.code() == MemoryError::Code::Conflict);
        const std::string message = stale.what();
        QVERIFY2(message.find("bob approved it") != std::string::npos, message.c_str());
        QVERIFY2(message.find("revision 0") != std::string::npos && message.find("now revision 1") != std::string::npos,
                 message.c_str());
        QVERIFY2(message.find("Reload") != std::string::npos && message.find("Nothing was saved") != std::string::npos,
                 message.c_str());
        QCOMPARE(mine.get(id).title, std::string("queue-depth"));  // the stale edit changed nothing
        QCOMPARE(mine.auditLog(id).size(), std::size_t(1));

        note.expectedRevision = mine.get(id).revision;  // reloaded: now it goes through
        QCOMPARE(mine.edit(id, patch, note), std::vector<std::string>{"title"});
        QCOMPARE(theirs.get(id).title, std::string("queue-depth-rule"));
        QCOMPARE(theirs.get(id).revision, 2);
        // A stale delete is refused the same way; without an expected revision, no check.
        const MemoryError staleDelete = expectMemoryError([&] { theirs.remove(id, {"bob", "", 1}); });
        QVERIFY(staleDelete.code() == MemoryError::Code::Conflict);
        QVERIFY(theirs.find(id).has_value());
    }

    void otherClientsHearEveryChange() {
        const std::string where = location("listen.db");
        ExperienceStore writer(where);
        auto listener = ChangeListener::open(where);
        if (postgresTestUrl().empty()) {
            QVERIFY(!listener);  // a SQLite file has no server to notify anyone
            return;
        }
        QVERIFY(listener);
        QVERIFY(listener->takeChanges().empty());
        const std::int64_t id = writer.add(entry("notify", "Heard by the other client.", Stage::Repair, {},
                                                 ExperienceStatus::Pending));
        QCOMPARE(listener->waitForChanges(10000), std::set<std::int64_t>{id});
        {
            Transaction tx(writer.database());  // nothing is heard before the commit
            writer.approve(id, {"alice", ""});
            QVERIFY(listener->waitForChanges(200).empty());
            tx.commit();
        }
        QCOMPARE(listener->waitForChanges(10000), std::set<std::int64_t>{id});
        // Another memory (schema) in the same database is another channel.
        ExperienceStore elsewhere(location("listen-other.db"));
        elsewhere.add(entry("elsewhere", "Not heard by the first listener."));
        QVERIFY(listener->waitForChanges(300).empty());
    }
};

QTEST_GUILESS_MAIN(TestMemoryTeam)
#include "test_memory_team.moc"
