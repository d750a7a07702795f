// `sage replay` tells declared and code-matched adoption apart (issue 30, point 5): a reply that
// said `ADOPTED: none` whose code matched two entries shows them as code-matched, never as
// adopted; declared ids are listed as declared, with a mark when the code shows no sign of them.
// Ids declared but never shown are no adoption: the iteration's note under its line says so.
// The stored run is written through RunStore and read back by the real CLI.
#include "sage_agent/RunStore.h"
#include "sage_memory/MemorySchema.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace sage;

class TestReplayAdoption : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString replay(const QString& db, int64_t run) {
        QProcess p;
        p.start(QStringLiteral(SAGE_CLI_PATH), {"replay", QString::number(run), "--db", db});
        if (!p.waitForFinished(60000)) p.kill();
        return QString::fromUtf8(p.readAllStandardOutput()) + QString::fromUtf8(p.readAllStandardError());
    }

private slots:
    void declaredAndCodeMatchedAreToldApart() {
        QVERIFY(dir_.isValid());
        const QString path = dir_.path() + "/runs.db";
        int64_t runId = 0;
        {
            auto db = std::make_shared<memory::Database>(
                path.toStdString(),
                std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
            agent::RunStore runs(db);
            agent::RunRecord run;
            run.task = "vadd";
            run.device = "ascend910b1-sim";
            run.policy = "llm";
            run.memoryMode = "adoption";
            run.status = agent::AgentRunStatus::Finished;
            run.settings = nlohmann::json::object();
            runId = runs.createRun(run);
            agent::IterationRecord none;  // the reply said ADOPTED: none; the code matched #8 and #5
            none.runId = runId;
            none.index = 0;
            none.stage = memory::Stage::Optimize;
            none.origin = "policy";
            none.move = "tile 2048";
            none.status = agent::IterationStatus::Ok;
            none.adoptions = {{8, false, true, 0.6, 0.6, 0.1, 0.2}, {5, false, true, 0.6, 0.6, 0.0, 0.1},
                              {44, false, false, 0.0, 0.0, 0.0, 0.0}};
            runs.addIteration(none);
            agent::IterationRecord declared = none;  // declared #12 (in the code) and #7 (not)
            declared.index = 1;
            declared.adoptions = {{12, true, true, 1.0, 1.0, 0.0, 0.3}, {7, true, false, 0.3, 0.3, 0.0, 0.1}};
            runs.addIteration(declared);
            agent::IterationRecord unshown = none;  // ADOPTED: E9999, E31337, neither shown (issue 47)
            unshown.index = 2;
            unshown.adoptions = {};
            unshown.notes = {"the reply declared E9999, E31337, which were not shown in this prompt; not counted as adopted"};
            runs.addIteration(unshown);
        }
        const QString out = replay(path, runId);
        const QStringList lines = out.split('\n');
        QString first, second, third, thirdNote;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString& l = lines[i];
            if (l.startsWith("  0 ")) first = l;
            if (l.startsWith("  1 ")) second = l;
            if (l.startsWith("  2 ")) {
                third = l;
                if (i + 1 < lines.size()) thirdNote = lines[i + 1];
            }
        }
        QVERIFY2(!first.isEmpty() && !second.isEmpty(), qPrintable(out));
        QVERIFY2(first.contains("code-matched, not declared #8 #5"), qPrintable(first));
        QVERIFY2(!first.contains("adopted") && !first.contains(QRegularExpression("(?<!not )declared #")), qPrintable(first));
        QVERIFY2(!first.contains("#44"), qPrintable(first));
        QVERIFY2(second.contains("declared #12 #7 (not in the code)"), qPrintable(second));
        QVERIFY2(!second.contains("code-matched"), qPrintable(second));
        // Ids the reply declared but was never shown are not adoptions; the note under the line says so.
        QVERIFY2(!third.isEmpty() && !third.contains("declared"), qPrintable(out));
        QVERIFY2(thirdNote.trimmed().startsWith("note: the reply declared E9999, E31337") &&
                     thirdNote.contains("not counted as adopted"),
                 qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestReplayAdoption)
#include "test_replay_adoption.moc"
