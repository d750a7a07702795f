// `sage bench` reports, per useful entry and its trap twin, what adopting each did while learning
// (issue 12): how often it was adopted, how many of those adoptions made the kernel faster, and the
// mean reward. That is what tells a harmful trap from one that only looks harmful, so the pack of
// the experiment can be checked on the run itself.
#include <QProcess>
#include <QtTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

class TestBenchTwinReport : public QObject {
    Q_OBJECT

private slots:
    void eachTwinsOutcomesWhileLearningAreReported() {
        QProcess p;
        p.start(QStringLiteral(SAGE_CLI_PATH),
                {"bench", "--split", "test", "--learn-on", "train", "--only", "add,mul", "--policy", "builtin",
                 "--memory-mode", "adoption", "--seed-pack", QStringLiteral(SAGE_TWIN_PACK), "--seed", "1", "--budget",
                 "4", "--json"});
        QVERIFY(p.waitForFinished(600000));
        QCOMPARE(p.exitCode(), 0);
        const json report = json::parse(p.readAllStandardOutput().toStdString());
        const json& gaps = report.at("q_gap_after_learning").at("adoption");
        QCOMPARE(gaps.size(), size_t(1));  // one seed
        const json& pair = gaps[0].at("per_pair").at(0);
        QCOMPARE(pair.at("useful").get<std::string>(), std::string("spread-over-all-cores"));
        QCOMPARE(pair.at("trap").get<std::string>(), std::string("spread-with-smallest-tiles"));
        for (const char* side : {"useful", "trap"}) {
            const json& o = pair.at(std::string(side) + "_outcomes");
            // Under adoption-aware credit every adoption is one credited outcome.
            QCOMPARE(o.at("adoptions").get<int>(), pair.at(std::string(side) + "_adopted").get<int>());
            QVERIFY(o.at("gained").get<int>() <= o.at("adoptions").get<int>());
        }
        // Splitting a single-core draft over the cores always gains; the smallest tile never does.
        const json& useful = pair.at("useful_outcomes");
        QVERIFY2(useful.at("adoptions").get<int>() >= 1, useful.dump().c_str());
        QCOMPARE(useful.at("gained").get<int>(), useful.at("adoptions").get<int>());
        QVERIFY(useful.at("mean_reward").get<double>() > 0.5);
        const json& trap = pair.at("trap_outcomes");
        if (trap.at("adoptions").get<int>() > 0) {
            QCOMPARE(trap.at("gained").get<int>(), 0);
            QVERIFY2(trap.at("mean_reward").get<double>() < 0.0, trap.dump().c_str());
        } else {
            QVERIFY(trap.at("mean_reward").is_null());  // no adoption: no mean to report
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchTwinReport)
#include "test_bench_twin_report.moc"
