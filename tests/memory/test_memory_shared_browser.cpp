// Two workbenches on one PostgreSQL memory (issue 16): an approval made in one MemoryService shows
// up in the other's table model — with who made it — without reopening anything, through
// LISTEN/NOTIFY. Registered only as a PostgreSQL test (test_memory_shared_browser_pg): a SQLite
// file has nobody to notify.
#include "MemoryTestSupport.h"

#include "ui/ExperienceTableModel.h"
#include "ui/MemoryService.h"

#include <QSignalSpy>

using namespace sage;
using namespace sage::memory::test;
using sage::ui::ExperienceList;
using sage::ui::ExperienceTableModel;
using sage::ui::MemoryService;

class TestMemorySharedBrowser : public QObject, ScratchDir {
    Q_OBJECT

    static const memory::ExperienceSummary* find(const ExperienceTableModel& model, std::int64_t id) {
        const int row = model.rowOf(id);
        return row < 0 ? nullptr : model.entry(row);
    }

private slots:
    void initTestCase() {
        if (postgresTestUrl().empty())
            QFAIL("this test needs a PostgreSQL server: run it through ctest (test_memory_shared_browser_pg), which "
                  "sets SAGE_TEST_PG_URL");
    }

    void approvalInOneWorkbenchShowsInTheOther() {
        const std::string where = location("team.db");
        std::int64_t id = 0;
        {
            memory::ExperienceStore setup(where);
            id = setup.add(entry("pair-flags", "Pair SetFlag with WaitFlag on the same event.", memory::Stage::Repair,
                                 {}, memory::ExperienceStatus::Pending));
        }
        MemoryService alice, bob;
        ExperienceTableModel bobsModel;
        connect(&bob, &MemoryService::listed, &bobsModel,
                [&](ExperienceList entries, int, int) { bobsModel.setEntries(entries); });
        QSignalSpy aliceOpened(&alice, &MemoryService::opened), bobOpened(&bob, &MemoryService::opened);
        QSignalSpy bobListed(&bob, &MemoryService::listed);
        QSignalSpy bobHeard(&bob, &MemoryService::changedElsewhere), aliceHeard(&alice, &MemoryService::changedElsewhere);
        alice.open(QString::fromStdString(where));
        bob.open(QString::fromStdString(where));
        QVERIFY(aliceOpened.wait(10000) || aliceOpened.count() == 1);
        QTRY_COMPARE_WITH_TIMEOUT(bobOpened.count(), 1, 10000);
        QVERIFY2(bobOpened.first().at(0).toBool(), qPrintable(bobOpened.first().at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(find(bobsModel, id) != nullptr, 10000);
        QVERIFY(find(bobsModel, id)->status == memory::ExperienceStatus::Pending);

        qputenv("USER", "alice");  // MemoryService::author()
        alice.approve(id, "checked on the 910B");
        // Bob did nothing: his model follows the server, and says who approved.
        QTRY_VERIFY_WITH_TIMEOUT(find(bobsModel, id) && find(bobsModel, id)->status == memory::ExperienceStatus::Approved,
                                 10000);
        QCOMPARE(find(bobsModel, id)->lastChangedBy, std::string("alice"));
        const QModelIndex status = bobsModel.index(bobsModel.rowOf(id), ExperienceTableModel::StatusColumn);
        QCOMPARE(bobsModel.data(status, ExperienceTableModel::ChangedByRole).toString(), QString("alice"));
        QVERIFY2(bobsModel.data(status, Qt::ToolTipRole).toString().contains("approved by alice"),
                 qPrintable(bobsModel.data(status, Qt::ToolTipRole).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(!bobHeard.isEmpty(), 10000);
        QCOMPARE(bobHeard.first().at(0).toLongLong(), qint64(id));
        QCOMPARE(bobHeard.first().at(1).toString(), QString("alice"));
        QCOMPARE(bobHeard.first().at(2).toString(), QString("approved"));
        // Alice's own change is not news to Alice: that is shown by the order of events below (the
        // first change Alice hears of is Carol's), not by waiting a while for nothing.
        QVERIFY(aliceHeard.isEmpty());

        // A client outside any workbench (a CLI, a bench shard) is heard too.
        {
            memory::ExperienceStore cli(where);
            cli.reject(id, {"carol", "duplicate of #2"});
        }
        QTRY_VERIFY_WITH_TIMEOUT(find(bobsModel, id) && find(bobsModel, id)->status == memory::ExperienceStatus::Rejected,
                                 10000);
        QCOMPARE(find(bobsModel, id)->lastChangedBy, std::string("carol"));
        QTRY_VERIFY_WITH_TIMEOUT(!aliceHeard.isEmpty(), 10000);
        QCOMPARE(aliceHeard.size(), 1);  // Carol's change only; her own approval came before and was not heard
        QCOMPARE(aliceHeard.last().at(1).toString(), QString("carol"));
        QCOMPARE(aliceHeard.last().at(2).toString(), QString("rejected"));
    }
};

QTEST_MAIN(TestMemorySharedBrowser)
#include "test_memory_shared_browser.moc"
