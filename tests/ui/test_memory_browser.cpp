// The memory browser over a real SQLite store: seeding a new database, the pending-review queue
// and its badge, the detail pane, and curation (approve, reject, edit) landing in the database.
// Every database call runs on the MemoryService's thread; the test reads the file back through
// its own connection.
#include "sage_memory/ExperienceStore.h"
#include "ui/ExperienceDetailView.h"
#include "ui/ExperienceFilterProxy.h"
#include "ui/ExperienceTableModel.h"
#include "ui/MemoryBrowser.h"
#include "ui/MemoryService.h"
#include "ui/ReviewQueue.h"

#include <QAbstractItemModelTester>

#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QtTest>

using namespace sage;
using namespace sage::ui;

class TestMemoryBrowser : public QObject {
    Q_OBJECT
    QTemporaryDir root_;
    int n_ = 0;

    // A fresh database with one approved and one pending entry (the pending one learned in a run).
    std::pair<QString, int64_t> makeDb() {
        const QString path = root_.path() + QString("/m%1.db").arg(++n_);
        memory::ExperienceStore store(path.toStdString());
        memory::Experience a;
        a.title = "Approved rule";
        a.content = "Keep DataCopy lengths a multiple of 32 bytes.";
        a.status = memory::ExperienceStatus::Approved;
        a.stage = memory::Stage::Repair;
        store.add(a);
        memory::Experience p;
        p.title = "Pending lesson: double buffering";
        p.content = "With BUFFER_NUM = 2 the **MTE2** copy of the next tile overlaps the vector op.";
        p.stage = memory::Stage::Optimize;
        p.trigger.category = "elementwise";
        p.trigger.bottleneck = "mte2_bound";
        memory::Provenance prov;
        prov.task = "add";
        prov.run = 4;
        prov.iteration = 2;
        prov.diff = "-constexpr int32_t BUFFER_NUM = 1;\n+constexpr int32_t BUFFER_NUM = 2;";
        p.provenance.push_back(prov);
        const int64_t id = store.add(p);
        return {path, id};
    }

private slots:
    void initTestCase() { QVERIFY(root_.isValid()); }

    void newDatabaseIsSeeded() {
        MemoryService service;
        QSignalSpy opened(&service, &MemoryService::opened);
        QSignalSpy listed(&service, &MemoryService::listed);
        const QString path = root_.path() + "/seeded.db";
        service.open(path, QStringLiteral(SAGE_SOURCE_DIR "/resources/memory/seed.jsonl"));
        QVERIFY(opened.wait(30000));
        QVERIFY2(opened.first().at(0).toBool(), qPrintable(opened.first().at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(listed.count() > 0, 30000);  // may already have arrived with `opened`
        const auto entries = listed.first().at(0).value<ExperienceList>();
        QVERIFY(entries && entries->size() > 10);
        memory::ExperienceStore check(path.toStdString());
        QCOMPARE(size_t(check.count()), entries->size());
    }

    void pendingExperienceIsApprovedInTheDatabase() {
        auto [path, pendingId] = makeDb();
        MemoryService service;
        MemoryBrowser browser(&service);
        browser.resize(1200, 700);
        browser.show();
        QSignalSpy pendingChanged(&browser, &MemoryBrowser::pendingCountChanged);
        service.open(path);
        QTRY_COMPARE_WITH_TIMEOUT(browser.model()->rowCount(), 2, 30000);
        QCOMPARE(browser.pendingCount(), 1);
        auto* queue = browser.findChild<QToolButton*>("pendingQueueButton");
        QVERIFY(queue);
        QCOMPARE(queue->text(), QString("Review queue (1)"));

        // The review queue shows only the pending entry.
        QTest::mouseClick(queue, Qt::LeftButton);
        QCOMPARE(browser.proxy()->rowCount(), 1);
        QCOMPARE(browser.proxy()->index(0, 0).data(ExperienceTableModel::IdRole).toLongLong(), qint64(pendingId));
        const QRect cell = browser.view()->visualRect(browser.proxy()->index(0, ExperienceTableModel::TitleColumn));
        QTest::mouseClick(browser.view()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(browser.selectedId(), qint64(pendingId));

        // The detail pane renders the content, trigger and provenance with its iteration link.
        QTRY_VERIFY_WITH_TIMEOUT(browser.detailView()->detail() != nullptr, 30000);
        const QString html = browser.detailView()->text()->toHtml();
        QVERIFY(html.contains("double buffering"));
        QVERIFY(html.contains("mte2_bound"));
        QVERIFY(html.contains("sage://iteration/4/2"));
        QSignalSpy link(&browser, &MemoryBrowser::iterationLinkActivated);
        emit browser.detailView()->text()->anchorClicked(QUrl("sage://iteration/4/2"));
        QCOMPARE(link.count(), 1);
        QCOMPARE(link.first().at(0).toLongLong(), 4ll);

        auto* approve = browser.findChild<QPushButton*>("approveButton");
        QVERIFY(approve && approve->isEnabled());
        QTest::mouseClick(approve, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(browser.pendingCount(), 0, 30000);
        QCOMPARE(queue->text(), QString("Review queue (0)"));
        QVERIFY(pendingChanged.count() >= 1);
        {
            memory::ExperienceStore check(path.toStdString());
            QCOMPARE(int(check.get(pendingId).status), int(memory::ExperienceStatus::Approved));
            const auto revisions = check.revisions(pendingId);
            QCOMPARE(revisions.size(), size_t(1));  // who approved it and when is kept
        }
    }

    // The detail pane says where adopting the entry helped: each adopting iteration with its
    // reward, linked to the iteration; an entry retrieved but never adopted says so.
    void detailShowsWhereAdoptingItHelped() {
        auto [path, pendingId] = makeDb();
        int64_t unused = 0;
        {
            memory::ExperienceStore store(path.toStdString());
            memory::Experience other = store.get(pendingId);
            other.id = 0;
            other.title = "never adopted";
            other.content = "retrieved beside the other one, never used";
            unused = store.add(other);
            std::vector<memory::ScoredExperience> shown(2);
            shown[0].experience = store.get(pendingId);
            shown[1].experience = store.get(unused);
            store.recordRetrievals(9, 3, memory::Stage::Optimize, shown);
            memory::IterationOutcome gain;
            gain.reward = 0.6;
            gain.success = true;
            store.recordOutcome(9, 3, {{pendingId, true, true}}, gain);
        }
        MemoryService service;
        QSignalSpy opened(&service, &MemoryService::opened);
        service.open(path);
        QVERIFY(opened.wait(30000));
        QSignalSpy loaded(&service, &MemoryService::detailLoaded);
        ExperienceDetailView view;
        service.loadDetail(pendingId);
        QVERIFY(loaded.wait(30000));
        view.setDetail(loaded.first().at(1).value<std::shared_ptr<const ExperienceDetail>>());
        const QString html = view.text()->toHtml();
        QVERIFY2(html.contains("Where adopting it helped"), qPrintable(html));
        QVERIFY(html.contains("sage://iteration/9/3"));
        QVERIFY(html.contains("0.60"));
        QVERIFY(html.contains("helped in 1"));
        service.loadDetail(unused);
        QVERIFY(loaded.wait(30000));
        view.setDetail(loaded.last().at(1).value<std::shared_ptr<const ExperienceDetail>>());
        QVERIFY(view.text()->toHtml().contains("not adopted yet"));
    }

    void rejectAndEditReachTheDatabase() {
        auto [path, id] = makeDb();
        MemoryService service;
        MemoryBrowser browser(&service);
        service.open(path);
        QTRY_COMPARE_WITH_TIMEOUT(browser.model()->rowCount(), 2, 30000);
        QVERIFY(browser.selectExperience(id));
        browser.rejectSelected();
        QTRY_VERIFY_WITH_TIMEOUT(memory::ExperienceStore(path.toStdString()).get(id).status == memory::ExperienceStatus::Rejected, 30000);
        memory::ExperiencePatch patch;
        patch.title = "Double-buffer MTE2-bound elementwise kernels";
        // The reject's own `changed` may still be queued, so wait on the database, not on a signal.
        service.edit(id, patch, "clearer title");
        QTRY_COMPARE_WITH_TIMEOUT(memory::ExperienceStore(path.toStdString()).get(id).title, *patch.title, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(browser.model()->index(browser.model()->rowOf(id), ExperienceTableModel::TitleColumn).data().toString(),
                                  QString::fromStdString(*patch.title), 30000);
        // Text search reaches the content through the store's full-text index.
        auto* search = browser.findChild<QLineEdit*>("experienceSearch");
        QVERIFY(search);
        search->setText("overlaps");
        QCOMPARE(browser.proxy()->rowCount(), 0);  // in no title or trigger ...
        QTRY_COMPARE_WITH_TIMEOUT(browser.proxy()->rowCount(), 1, 30000);  // ... but in the content
        search->clear();
        QCOMPARE(browser.proxy()->rowCount(), 2);
    }

    // Three entries to review and one approved; the queue is opened, then worked through.
    void reviewQueueAdvancesAfterApproveAndReject() {
        const QString path = root_.path() + "/queue.db";
        std::vector<int64_t> pendingIds;
        {
            memory::ExperienceStore store(path.toStdString());
            // Fields from std::string, not string literals: GCC 12 warns falsely (-Wrestrict) on the latter here.
            auto entry = [](std::string title, memory::ExperienceStatus status) {
                memory::Experience e;
                e.content = title + ": what to do";
                e.title = std::move(title);
                e.status = status;
                return e;
            };
            store.add(entry(std::string("Already approved"), memory::ExperienceStatus::Approved));
            // The third is a lesson the agent learned itself, on trial: it waits for review too.
            for (int i = 1; i <= 3; ++i)
                pendingIds.push_back(store.add(entry("Lesson " + std::to_string(i),
                                                     i == 3 ? memory::ExperienceStatus::Trial : memory::ExperienceStatus::Pending)));
        }
        QVERIFY(awaitsReview(memory::ExperienceStatus::Pending));
        QVERIFY(!awaitsReview(memory::ExperienceStatus::Approved));
        QVERIFY(awaitsReview(memory::ExperienceStatus::Trial));  // agent-learned lessons on trial are reviewed too
        MemoryService service;
        MemoryBrowser browser(&service);
        QAbstractItemModelTester tester(browser.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        browser.resize(1200, 700);
        browser.show();
        service.open(path);
        QTRY_COMPARE_WITH_TIMEOUT(browser.model()->rowCount(), 4, 30000);
        QCOMPARE(browser.pendingCount(), 3);

        // Opening the queue selects its first entry.
        auto* queue = browser.findChild<QToolButton*>("pendingQueueButton");
        QTest::mouseClick(queue, Qt::LeftButton);
        QVERIFY(browser.reviewQueueShown());
        QCOMPARE(browser.proxy()->rowCount(), 3);
        QCOMPARE(browser.selectedId(), qint64(pendingIds[0]));

        // Approve: the queue stays, the next entry is selected.
        QTest::mouseClick(browser.findChild<QPushButton*>("approveButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(browser.pendingCount(), 2, 30000);
        QVERIFY(browser.reviewQueueShown());
        QCOMPARE(browser.proxy()->rowCount(), 2);
        QCOMPARE(browser.selectedId(), qint64(pendingIds[1]));

        // Reject: the same.
        QTest::mouseClick(browser.findChild<QPushButton*>("rejectButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(browser.pendingCount(), 1, 30000);
        QVERIFY(browser.reviewQueueShown());
        QCOMPARE(browser.proxy()->rowCount(), 1);
        QCOMPARE(browser.selectedId(), qint64(pendingIds[2]));

        // The last one: the queue is empty, nothing is selected, and the filter is still the queue.
        QTest::mouseClick(browser.findChild<QPushButton*>("approveButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(browser.pendingCount(), 0, 30000);
        QCOMPARE(browser.proxy()->rowCount(), 0);
        QCOMPARE(browser.selectedId(), qint64(0));
        QVERIFY(browser.reviewQueueShown());
        memory::ExperienceStore check(path.toStdString());
        QCOMPARE(int(check.get(pendingIds[1]).status), int(memory::ExperienceStatus::Rejected));
        QCOMPARE(int(check.get(pendingIds[2]).status), int(memory::ExperienceStatus::Approved));
    }

    void aBadFileIsReportedNotFatal() {
        const QString path = root_.path() + "/not-a-db.db";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not sqlite at all, not even close................................................");
        f.close();
        MemoryService service;
        QSignalSpy opened(&service, &MemoryService::opened);
        service.open(path);
        QVERIFY(opened.wait(30000));
        QVERIFY(!opened.first().at(0).toBool());
        QVERIFY(!opened.first().at(1).toString().isEmpty());
        QSignalSpy failed(&service, &MemoryService::failed);
        service.refresh();
        QVERIFY(failed.wait(30000));
    }
};

QTEST_MAIN(TestMemoryBrowser)
#include "test_memory_browser.moc"
