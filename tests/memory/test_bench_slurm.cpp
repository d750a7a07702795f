// `sage bench` as a Slurm job array on a shared PostgreSQL memory (issue 16), for real: on the
// one-node Slurm and the throw-away PostgreSQL cluster that ctest fixtures start, submit-bench.sh
// submits the learning job, a 2-shard array of 2 measured tasks and the dependent merge; the merged
// report must agree with a single `sage bench` process with the same options, task by task.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <cstdlib>

class TestBenchSlurm : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    // Small on purpose: one task to learn on, two to measure, four iterations each.
    const QStringList benchArgs_{"--split", "test", "--learn-on", "train", "--only", "add,axpy,mul", "--budget", "4"};

    static QString env(const char* name) { return QString::fromLocal8Bit(qgetenv(name)); }

    QString memory(const QString& schema) const {
        return env("SAGE_TEST_PG_URL") + "&options=-csearch_path%3D" + schema +
               QString::number(QCoreApplication::applicationPid());
    }

    struct Run {
        int code = -1;
        QString out, err;
    };
    static Run run(const QString& program, const QStringList& args, int timeoutMs = 300000) {
        QProcess p;
        p.start(program, args);
        Run r;
        if (!p.waitForFinished(timeoutMs)) p.kill();
        r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }
    QString logs(const QString& folder) const {
        QString text;
        for (const QString& name : QDir(folder).entryList({"*.out"})) {
            QFile f(folder + "/" + name);
            if (f.open(QIODevice::ReadOnly)) text += "--- " + name + "\n" + QString::fromUtf8(f.readAll().right(3000));
        }
        return text;
    }
    static QMap<QString, QJsonObject> rowsByTask(const QJsonObject& report) {
        QMap<QString, QJsonObject> rows;
        for (const auto& row : report["tasks"].toArray()) rows[row.toObject()["task"].toString()] = row.toObject();
        return rows;
    }

private slots:
    void initTestCase() {
        if (env("SAGE_SKIP_SLURM_TESTS") == "1" || env("SAGE_SKIP_PG_TESTS") == "1") {
            std::fprintf(stderr, "SKIP: SAGE_SKIP_SLURM_TESTS/SAGE_SKIP_PG_TESTS=1: skipped on request\n");
            std::fflush(stderr);
            std::_Exit(77);
        }
        if (env("SAGE_TEST_PG_URL").isEmpty() || env("SLURM_CONF").isEmpty())
            QFAIL("needs the PostgreSQL and Slurm fixtures: run through ctest (test_bench_slurm)");
    }

    void shardedRunAgreesWithASingleProcess() {
        // 1. The reference: one process, learning then measuring, in a memory of its own.
        const Run single = run(SAGE_CLI_PATH, QStringList{"bench"} + benchArgs_ << "--db" << memory("single") << "--json");
        QVERIFY2(single.code == 0, qPrintable(single.err.right(3000)));
        const QJsonObject reference = QJsonDocument::fromJson(single.out.toUtf8()).object();
        QCOMPARE(reference["tasks"].toArray().size(), 2);

        // 2. The same on Slurm: learn once, two shards, merge.
        const QString out = dir_.filePath("slurm");
        const Run submit = run("sh", QStringList{SAGE_SLURM_DIR "/submit-bench.sh", "--shards", "2", "--out", out,
                                                 "--db", memory("shared"), "--sage", SAGE_CLI_PATH, "--"}
                                         << benchArgs_);
        QVERIFY2(submit.code == 0, qPrintable(submit.err));
        QVERIFY2(submit.out.contains("array="), qPrintable(submit.out));
        const QString merged = out + "/merged.json";
        QElapsedTimer waited;
        waited.start();
        while (!QFile::exists(merged)) {
            const Run queue = run("squeue", {"-h", "-o", "%i %T %r"}, 30000);
            if (queue.out.contains("DependencyNeverSatisfied"))
                QFAIL(qPrintable("a job failed; its dependants can never start:\n" + queue.out + logs(out)));
            if (waited.elapsed() > 480000) QFAIL(qPrintable("no merged report after 8 minutes:\n" + queue.out + logs(out)));
            QTest::qWait(500);
        }
        QFile file(merged);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject sharded = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(sharded["shard"].toString(), QString("merged"));

        // 3. Task by task the same figures (the run ids are the database's and may differ).
        const auto want = rowsByTask(reference), got = rowsByTask(sharded);
        QCOMPARE(got.keys(), want.keys());
        for (const QString& task : want.keys()) {
            QJsonObject a = want[task], b = got[task];
            a.remove("run_id");
            b.remove("run_id");
            QVERIFY2(a == b, qPrintable(task + ":\nsingle  " + QJsonDocument(a).toJson(QJsonDocument::Compact) +
                                        "\nsharded " + QJsonDocument(b).toJson(QJsonDocument::Compact)));
        }
        // The aggregate is recomputed from the same rows: equal up to the order of summation.
        const QJsonObject aggA = reference["aggregate"].toObject(), aggB = sharded["aggregate"].toObject();
        QVERIFY(!aggA.isEmpty());
        QCOMPARE(aggB.keys(), aggA.keys());
        std::function<void(const QJsonValue&, const QJsonValue&, const QString&)> same =
            [&](const QJsonValue& x, const QJsonValue& y, const QString& where) {
                if (x.isDouble() && y.isDouble()) {
                    QVERIFY2(std::abs(x.toDouble() - y.toDouble()) <= 1e-9 * std::max(1.0, std::abs(x.toDouble())),
                             qPrintable(where));
                } else if (x.isObject() && y.isObject()) {
                    for (const QString& k : x.toObject().keys()) same(x.toObject()[k], y.toObject()[k], where + "." + k);
                } else if (x.isArray() && y.isArray()) {
                    QCOMPARE(x.toArray().size(), y.toArray().size());
                    for (int i = 0; i < x.toArray().size(); ++i) same(x.toArray()[i], y.toArray()[i], where + "[]");
                } else {
                    QVERIFY2(x == y, qPrintable(where));
                }
            };
        same(aggA, aggB, "aggregate");

        // 4. A shard refuses a memory that no learning job filled (a mistyped schema, a failed job).
        const Run orphan = run(SAGE_CLI_PATH, QStringList{"bench"} + benchArgs_ << "--db" << memory("empty") << "--phase"
                                                                      << "measure" << "--shard" << "0/2");
        QCOMPARE(orphan.code, 2);
        QVERIFY2(orphan.err.contains("no finished learning phase") && orphan.err.contains("--phase learn"),
                 qPrintable(orphan.err));
    }

    // A learning job that fails (here: the memory of the run above has learned already) cancels the
    // shards and the merge (afterok + --kill-on-invalid-dep=yes) instead of leaving them pending
    // forever, and bench-status.sh says which job failed and why (issue 31).
    void failedLearningJobCancelsItsDependents() {
        const QString out = dir_.filePath("failed");
        const Run submit = run("sh", QStringList{SAGE_SLURM_DIR "/submit-bench.sh", "--shards", "2", "--out", out,
                                                 "--db", memory("shared"), "--sage", SAGE_CLI_PATH, "--"}
                                         << benchArgs_);
        QVERIFY2(submit.code == 0, qPrintable(submit.err));
        Run status;
        QElapsedTimer waited;
        waited.start();
        do {  // exit 3: jobs still pending or running
            QTest::qWait(500);
            status = run("sh", {SAGE_SLURM_DIR "/bench-status.sh", out}, 30000);
            // Slurm cancels the dependents of a failed job a moment after the failure: until then
            // they are still "PENDING (Dependency)" although the failure is already reported.
        } while ((status.code == 3 || status.out.contains("PENDING (Dependency)")) && waited.elapsed() < 300000);
        QVERIFY2(status.code == 1, qPrintable(QString::number(status.code) + "\n" + status.out + status.err + logs(out)));
        QVERIFY2(status.out.contains("learn job") && status.out.contains("FAILED") &&
                     status.out.contains("has learned already"),
                 qPrintable(status.out));
        QVERIFY2(status.out.contains("array job") && status.out.contains("cancelled: a job it depends on failed"),
                 qPrintable(status.out));
        QVERIFY2(status.out.contains("merge job"), qPrintable(status.out));
        QVERIFY(!QFile::exists(out + "/merged.json"));
        const Run queue = run("squeue", {"-h", "-o", "%i %T %r"}, 30000);
        QVERIFY2(!queue.out.contains("DependencyNeverSatisfied"), qPrintable(queue.out));  // nothing left pending
    }

    // The merge names every missing shard report with its job's output file.
    void mergeNamesEachMissingShard() {
        const QString out = dir_.filePath("partial");
        QVERIFY(QDir().mkpath(out));
        QProcess merge;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("SAGE", SAGE_CLI_PATH);
        env.insert("SAGE_BENCH_OUT", out);
        env.insert("SAGE_BENCH_SHARDS", "3");
        env.remove("SAGE_BENCH_ARRAY_JOB");
        merge.setProcessEnvironment(env);
        merge.start("sh", {SAGE_SLURM_DIR "/bench-merge.sbatch"});
        QVERIFY(merge.waitForFinished(60000));
        QCOMPARE(merge.exitCode(), 1);
        const QString err = QString::fromUtf8(merge.readAllStandardError());
        for (int i = 0; i < 3; ++i)
            QVERIFY2(err.contains(QString("shard %1 of 3 wrote no %2/shard-%1.json: see %2/shard-%1.out").arg(i).arg(out)),
                     qPrintable(err));
        QVERIFY2(err.contains("3 of 3 shard reports missing; nothing merged"), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestBenchSlurm)
#include "test_bench_slurm.moc"
