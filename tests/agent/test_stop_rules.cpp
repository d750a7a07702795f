// When a run stops before its budget (StopRules): patience counts optimisation iterations in a
// row without a >= 1% gain over the best; an iteration of any stage that gained starts it again,
// so a repair that improved the best is never followed by "no improvement" at once.
#include "loop/StopRules.h"

#include <QtTest>

using namespace sage::agent;

class TestStopRules : public QObject {
    Q_OBJECT
private slots:
    void patienceCountsOptimisationsWithoutGain() {
        AgentSettings s;
        s.patience = 3;
        StopRules rules(s);
        for (int i = 0; i < 2; ++i) rules.evaluated(true, false);
        QVERIFY(!rules.reason(0.1));
        rules.evaluated(true, false);
        const auto why = rules.reason(0.1);
        QVERIFY(why && why->find("no improvement for 3") != std::string::npos);
    }

    void aRepairThatGainedStartsTheCountAgain() {
        AgentSettings s;
        s.patience = 3;
        StopRules rules(s);
        rules.evaluated(true, false);
        rules.evaluated(true, false);
        rules.evaluated(false, true);  // a repair improved the best
        rules.evaluated(true, false);
        QVERIFY(!rules.reason(0.1));
        rules.evaluated(false, false);  // a repair without gain does not count
        rules.evaluated(true, false);
        QVERIFY(!rules.reason(0.1));
        rules.evaluated(true, false);
        QVERIFY(rules.reason(0.1).has_value());
    }

    void targetRooflineStopsAtOnce() {
        AgentSettings s;
        s.targetRooflineFraction = 0.5;
        StopRules rules(s);
        QVERIFY(!rules.reason(-1));
        QCOMPARE(*rules.reason(0.6), std::string("target roofline fraction reached"));
    }
};

QTEST_MAIN(TestStopRules)
#include "test_stop_rules.moc"
