// One memory, several database roles (issue 31), against the built `sage` on the test server
// (fixture sage_pg): `sage memory team init` as the administrator creates the schema, the tables,
// two roles and their grants; then each role, connecting as itself, runs the agent and curates,
// and the audit log shows the database account next to the declared name, which a member can
// neither forge nor rewrite.
#include "CliProcess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

class TestMemoryTeamRoles : public QObject {
    Q_OBJECT

    using Run = sage::test::CliRun;
    static Run sage(const QStringList& args) { return sage::test::runProgram(SAGE_CLI_PATH, args); }
    static QJsonDocument json(const Run& r) { return QJsonDocument::fromJson(r.out.toUtf8()); }

    const QString suffix_ = QString::number(QCoreApplication::applicationPid());
    const QString schema_ = "team" + suffix_;
    const QString alice_ = "alice" + suffix_, bob_ = "bob" + suffix_;
    QString admin_; // the test server's URL: the superuser "sage"

    // The URL a member uses: the server, the member's own role, the team's schema.
    QString as(const QString& role) const {
        QString url = admin_;
        url.replace("user=sage", "user=" + role);
        return url + "&options=-csearch_path%3D" + schema_;
    }

  private slots:
    void initTestCase() {
        sage::test::skipWhenPostgresTestsAreOff();
        admin_ = QString::fromUtf8(qgetenv("SAGE_TEST_PG_URL"));
        if (admin_.isEmpty() || !admin_.contains("user=sage"))
            QFAIL("needs the PostgreSQL fixture: run through ctest (test_memory_team_roles)");
    }

    void teamInitLetsTwoRolesRunAndCurate() {
        Run r = sage({"memory", "team", "init", "--db", admin_, "--schema", schema_, "--role", alice_,
                      "--role", bob_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject setup = json(r).object();
        QCOMPARE(setup["roles_created"].toArray().size(), 2);
        QVERIFY(setup["tables"].toInt() >=
                10); // the memory's and the agent's tables, made by the administrator

        // Alice seeds the memory and runs the agent; Bob curates and runs too.
        r = sage({"memory", "--db", as(alice_), "import", SAGE_SEED_PACK, "--by", "alice"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = sage({"memory", "--db", as(bob_), "add", "--title", "bob-note", "--content", "Pad the tail.",
                  "--by", "bob"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString added = r.out.section('#', 1).section(' ', 0, 0);
        r = sage({"memory", "--db", as(alice_), "approve", added, "--by", "bob-impersonated-by-alice"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = sage({"memory", "--db", as(bob_), "edit", added, "--content", "Pad the tail to 32 bytes.", "--by",
                  "bob"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const QString& role : {alice_, bob_}) {
            r = sage({"run", "--task", "add", "--budget", "2", "--no-speculate", "--db", as(role), "--json"});
            QVERIFY2(r.code == 0 || r.code == 1, qPrintable(role + ": " + r.err));
            QVERIFY2(json(r).object()["run_id"].toInt() > 0, qPrintable(r.out));
        }

        // The audit says who, as declared and as the database knows them.
        r = sage({"memory", "--db", as(bob_), "audit", added, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray audit = json(r).array();
        QCOMPARE(audit.size(), 3); // edited, approved, added: newest first
        QCOMPARE(audit[0].toObject()["account"].toString(), bob_);
        QCOMPARE(audit[1].toObject()["author"].toString(), QString("bob-impersonated-by-alice"));
        QCOMPARE(audit[1].toObject()["account"].toString(), alice_);
        QCOMPARE(audit[2].toObject()["action"].toString(), QString("added"));
        QCOMPARE(audit[2].toObject()["account"].toString(), bob_);
        r = sage({"memory", "--db", as(bob_), "audit", added});
        QVERIFY2(r.out.contains("approved by bob-impersonated-by-alice [account " + alice_ + "]"),
                 qPrintable(r.out));
    }

    void membersCannotRewriteTheAuditLog() {
        // psql as a member: the grants leave the audit log append-only for members.
        QProcess psql;
        psql.start("psql", {as(bob_), "-v", "ON_ERROR_STOP=1", "-c", "DELETE FROM memory_audit"});
        QVERIFY(psql.waitForFinished(60000));
        QVERIFY(psql.exitCode() != 0);
        QVERIFY2(QString::fromUtf8(psql.readAllStandardError()).contains("permission denied"),
                 "a member could delete audit lines");
    }

    void teamInitRefusesBadNames() {
        const Run r = sage({"memory", "team", "init", "--db", admin_, "--schema", "x; DROP", "--role", "r"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("schema 'x; DROP' is not a plain identifier"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestMemoryTeamRoles)
#include "test_memory_team_roles.moc"
