// Output files named on the command line (issue 31), against the built `sage`: a missing folder is
// created and the report lands in it; a path that cannot be written is refused before any work
// starts, with the path, the option and what to do, and a non-zero exit. Never exit 0 with nothing
// written (a Slurm shard would look successful and its results would be lost).
#include "CliProcess.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

class TestBenchOutputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    using Run = sage::test::CliRun;
    Run sage(const QStringList& args) {
        return sage::test::runProgram(SAGE_CLI_PATH, args, QProcessEnvironment::systemEnvironment(),
                                      dir_.path());
    }
    // One task, one iteration, no memory: the smallest bench there is.
    const QStringList bench_{"bench",    "--split", "all",           "--only", "add",
                             "--budget", "1",       "--memory-mode", "off"};

  private slots:
    void benchCreatesAMissingFolderForItsReport() {
        const QString report = dir_.filePath("runs/exp4/shard-0.json");
        const Run r = sage(QStringList(bench_) << "--out" << report);
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
        QFile file(report);
        QVERIFY2(file.open(QIODevice::ReadOnly), "no report written");
        const QJsonObject written = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(written["tasks"].toArray().size(), 1);
        QVERIFY(QDir(dir_.filePath("runs/exp4")).entryList(QDir::Files | QDir::Hidden).size() ==
                1); // no temp left
    }

    void benchRefusesAnUnwritableReportBeforeWorking() {
        QFile blocker(dir_.filePath("not-a-folder"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        Run r = sage(QStringList(bench_) << "--out" << dir_.filePath("not-a-folder/shard-0.json"));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out") && r.err.contains("not-a-folder") &&
                     r.err.contains("Nothing was run"),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("measuring"), qPrintable(r.err)); // refused before any task ran
        r = sage(QStringList(bench_) << "--out" << dir_.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is a folder"), qPrintable(r.err));
    }

    void evalRefusesAnUnwritableTrace() {
        QFile blocker(dir_.filePath("not-a-folder"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const Run r = sage({"eval", "--task", "add", "--trace", dir_.filePath("not-a-folder/add.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--trace") && r.err.contains("cannot create the folder"), qPrintable(r.err));
        QVERIFY(!r.out.contains("RESULT")); // nothing was evaluated
    }
};

QTEST_GUILESS_MAIN(TestBenchOutputs)
#include "test_bench_outputs.moc"
