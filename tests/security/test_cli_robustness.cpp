// Command-line robustness items of the sandbox issue that a user meets directly: `sage tasks`
// exits non-zero when it had to skip a broken task folder (so scripts notice), and
// `sage-workbench --help` prints its help without a display instead of aborting in Qt's platform
// plugin.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

class TestCliRobustness : public QObject {
    Q_OBJECT

    struct Run {
        int code = -1;
        QString out, err;
    };
    static Run run(const QString& program, const QStringList& args, const QProcessEnvironment& env) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(program, args);
        Run r;
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private slots:
    void tasksExitsNonZeroWhenItSkipsABrokenTask() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir(dir.path()).mkpath("broken");
        std::ofstream(dir.filePath("broken/task.json").toStdString()) << "{\"name\": \"broken\", \"perf\": ";
        const auto env = QProcessEnvironment::systemEnvironment();
        const Run bad = run(QStringLiteral(SAGE_CLI_PATH), {"tasks", "--tasks", dir.path()}, env);
        QVERIFY2(bad.code != 0 && bad.code != -1, qPrintable(bad.out + bad.err));
        QVERIFY2(bad.err.contains("broken"), qPrintable(bad.err));  // it names what it skipped
        const Run good = run(QStringLiteral(SAGE_CLI_PATH), {"tasks"}, env);
        QCOMPARE(good.code, 0);  // the shipped suite alone is fine
    }

    void workbenchHelpNeedsNoDisplay() {
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.remove("QT_QPA_PLATFORM");
        const Run r = run(QStringLiteral(SAGE_WORKBENCH_PATH), {"--help"}, env);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2((r.out + r.err).contains("--screenshot"), qPrintable(r.out + r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliRobustness)
#include "test_cli_robustness.moc"
