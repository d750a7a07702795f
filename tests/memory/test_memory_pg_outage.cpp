// A PostgreSQL memory through real operations (issue 31), against the built `sage` and a server of
// this suite's own (pg_test_server.sh in a folder of its own, so restarting it disturbs no other
// suite): a restart during `sage run` does not end the run; an outage longer than the reconnect
// budget ends it `interrupted` (exit 6) with its iterations kept and no retrieval left awaiting an
// outcome; a host that accepts connections and never answers fails within the connect timeout.
#include "CliProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

class TestMemoryPgOutage : public QObject {
    Q_OBJECT

    QString serverDir_ = QString("/tmp/sage-pg-outage-%1").arg(QCoreApplication::applicationPid());
    QString url_;
    int schemas_ = 0;

    using Run = sage::test::CliRun;

    static QProcessEnvironment environment(const QMap<QString, QString>& extra = {}) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("PGCONNECT_TIMEOUT");
        env.remove("SAGE_PG_RECONNECT_SECONDS");
        for (auto it = extra.begin(); it != extra.end(); ++it)
            env.insert(it.key(), it.value());
        return env;
    }
    static Run finish(QProcess& p, int timeoutMs = 300000) { return sage::test::finishProcess(p, timeoutMs); }
    static Run sage(const QStringList& args, const QMap<QString, QString>& env = {}) {
        return sage::test::runProgram(SAGE_CLI_PATH, args, environment(env));
    }
    Run server(const QString& action) const {
        return sage::test::runProgram("sh", {PG_TEST_SERVER_SCRIPT, action, serverDir_},
                                      QProcessEnvironment::systemEnvironment(), {}, 120000);
    }
    QString freshMemory() { return url_ + "&options=-csearch_path%3Doutage" + QString::number(++schemas_); }

    // Starts `sage run` and returns once it has begun its second iteration (the run is stored and
    // has retrieved from memory), so that what the test does next happens in the middle of the run.
    // softmax: a task whose runs last several iterations (add reaches the target roofline at iteration 1).
    void startRun(QProcess& run, const QString& db, const QMap<QString, QString>& env = {}) {
        run.setProcessEnvironment(environment(env));
        run.start(SAGE_CLI_PATH, {"run", "--task", "softmax", "--budget", "12", "--no-speculate", "--db", db});
        QString seen;
        while (!seen.contains("[1]") && run.state() != QProcess::NotRunning && run.waitForReadyRead(120000))
            seen += QString::fromUtf8(run.readAllStandardOutput());
        QVERIFY2(seen.contains("[1]"),
                 qPrintable("the run did not reach iteration 1:\n" + seen + run.readAllStandardError()));
    }

    QJsonObject replay(const QString& db) {
        const Run r = sage({"replay", "1", "--db", db, "--json"});
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }
    QJsonObject stats(const QString& db) {
        const Run r = sage({"memory", "--db", db, "stats", "--json"});
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }

  private slots:
    void initTestCase() {
        sage::test::skipWhenPostgresTestsAreOff();
        const Run started = server("start");
        QVERIFY2(started.code == 0, qPrintable(started.err));
        url_ = QString("postgresql:///sage?host=%1&user=sage").arg(serverDir_);
    }
    void cleanupTestCase() { server("stop"); }

    void restartDuringARunDoesNotEndIt() {
        const QString db = freshMemory();
        QProcess run;
        startRun(run, db);
        const Run restarted = server("restart");
        QVERIFY2(restarted.code == 0, qPrintable(restarted.err));
        QVERIFY2(run.state() != QProcess::NotRunning,
                 "the run ended before the restart: give it a larger budget");
        const Run ended = finish(run);
        // Usually the restart meets the run between writes: the connection is opened again and the
        // run goes on (exit 0: a correct kernel, 1: none within the budget). Should the restart cut
        // one of its transactions, the run ends interrupted (exit 6) with its iterations kept.
        // Never exit 2 (bad arguments), never a run left "running".
        const QJsonObject stored = replay(db);
        if (ended.code == 6) {
            QVERIFY2(ended.err.contains("inside a transaction"), qPrintable(ended.err));
            QCOMPARE(stored["status"].toString(), QString("interrupted"));
        } else {
            QVERIFY2(ended.code == 0 || ended.code == 1, qPrintable(QString::number(ended.code) + "\n" + ended.err));
            QCOMPARE(stored["status"].toString(), QString("finished"));
            QVERIFY(stored["iterations"].toArray().size() > 2);  // it went on writing after the restart
        }
        const QJsonObject memory = stats(db);  // nothing left awaiting an outcome, either way
        QVERIFY(memory["retrievals"].toInt() > 0);
        QCOMPARE(memory["resolved"].toInt(), memory["retrievals"].toInt());
    }

    void outageLongerThanTheBudgetInterruptsTheRun() {
        const QString db = freshMemory();
        QProcess run;
        startRun(run, db, {{"SAGE_PG_RECONNECT_SECONDS", "1"}});
        const Run down = server("down");
        QVERIFY2(down.code == 0, qPrintable(down.err));
        const Run ended = finish(run);
        const Run up = server("up");
        QVERIFY2(up.code == 0, qPrintable(up.err));
        QCOMPARE(ended.code, 6); // "database unavailable", not 2 (bad arguments)
        // Usually the outage meets the run between writes (it waits the budget, then gives up); should
        // it cut a transaction, the message says so instead. Either way it names the server.
        QVERIFY2((ended.err.contains("could not connect again within 1 s") &&
                  ended.err.contains("SAGE_PG_RECONNECT_SECONDS")) ||
                     ended.err.contains("inside a transaction"),
                 qPrintable(ended.err));
        QVERIFY2(ended.err.contains("lost the connection to the PostgreSQL server"), qPrintable(ended.err));
        // The next client to open the memory finds the run interrupted, its iterations kept, and
        // closes the retrievals that will never get an outcome.
        const QJsonObject stored = replay(db);
        QCOMPARE(stored["status"].toString(), QString("interrupted"));
        QVERIFY(stored["iterations"].toArray().size() >= 1);
        const QJsonObject memory = stats(db);
        QVERIFY(memory["retrievals"].toInt() > 0);
        QCOMPARE(memory["resolved"].toInt(), memory["retrievals"].toInt());
    }

    void hungServerFailsWithinTheConnectTimeout() {
        // A listener that never accepts: the kernel completes the TCP handshake, nobody answers.
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 8), 0);
        socklen_t length = sizeof address;
        QCOMPARE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
        const QString host = QString("postgresql://sage@127.0.0.1:%1/sage").arg(ntohs(address.sin_port));

        Run r = sage({"memory", "--db", host + "?connect_timeout=2", "list"});
        QCOMPARE(r.code, 6);
        QVERIFY2(r.err.contains("did not answer within 2 s") && r.err.contains("connect_timeout"),
                 qPrintable(r.err));
        r = sage({"memory", "--db", host, "list"}); // the default limit, named in the message
        QCOMPARE(r.code, 6);
        QVERIFY2(r.err.contains("did not answer within 10 s"), qPrintable(r.err));
        r = sage({"run", "--task", "add", "--budget", "1", "--db", host + "?connect_timeout=1"});
        QCOMPARE(r.code, 6);
        QVERIFY2(r.err.contains("did not answer within 1 s"), qPrintable(r.err));
        ::close(listener);
    }
};

QTEST_GUILESS_MAIN(TestMemoryPgOutage)
#include "test_memory_pg_outage.moc"
