// The experiment's statistics (issue 12) on known data: the paired bootstrap is deterministic for
// a seed, a clearly positive paired difference excludes 0 and a symmetric one does not; the
// report metrics (iterations to 95 % of best known, fast_p against baseline and expert, repair
// success, pairing by task x seed) follow their definitions.
#include "cli/BenchReport.h"
#include "cli/BenchStatistics.h"

#include <QtTest>

#include <cmath>

using sage::cli::BenchReport;
using sage::cli::BenchStatistics;
using nlohmann::json;

class TestBenchStatistics : public QObject {
    Q_OBJECT

private slots:
    void bootstrapIsDeterministicForASeed() {
        const std::vector<double> d = {1, 2, 0, 3, 1, 2, 2, 1, 0, 4};
        const auto a = BenchStatistics::pairedBootstrap(d, 42);
        const auto b = BenchStatistics::pairedBootstrap(d, 42);
        QCOMPARE(a.low, b.low);
        QCOMPARE(a.high, b.high);
        QCOMPARE(a.mean, 1.6);
        QVERIFY(a.low < a.mean && a.mean < a.high);
        // The interval is that of the mean: narrower than the data's range, wider than a point.
        QVERIFY(a.low > 0.0 && a.high < 4.0 && a.high - a.low > 0.1);
    }

    void clearDifferenceExcludesZero() {
        // Every pair improves by 2 to 4: the whole interval lies above 0.
        const std::vector<double> d = {2, 3, 4, 2, 3, 4, 3, 2, 4, 3};
        const auto ci = BenchStatistics::pairedBootstrap(d, 7);
        QVERIFY(ci.excludesZero());
        QVERIFY(ci.low >= 2.0 && ci.high <= 4.0);
    }

    void symmetricDifferenceDoesNotExcludeZero() {
        const std::vector<double> d = {1, -1, 2, -2, 3, -3, 1, -1, 0, 0};
        const auto ci = BenchStatistics::pairedBootstrap(d, 7);
        QCOMPARE(ci.mean, 0.0);
        QVERIFY(!ci.excludesZero());
        QVERIFY(ci.low < 0.0 && ci.high > 0.0);
        QVERIFY(!BenchStatistics::pairedBootstrap({}, 1).excludesZero());  // no pairs: no claim
    }

    void quantilesAndMeans() {
        QCOMPARE(BenchStatistics::median({3, 1, 2}), 2.0);
        QCOMPARE(BenchStatistics::median({4, 1, 2, 3}), 2.5);
        QVERIFY(std::abs(BenchStatistics::geometricMean({1, 4}) - 2.0) < 1e-12);
        QCOMPARE(BenchStatistics::geometricMean({1, 0}), 0.0);
    }

    // The two-way cluster bootstrap against the analytic case: differences that depend only on the
    // task (d = a_t, a_t = +-1, population sd 1) have a mean whose standard error is 1/sqrt(T),
    // however many seeds each task ran; the pairwise bootstrap would pretend it is 1/sqrt(T*S).
    void clusterBootstrapMatchesTheAnalyticTaskEffect() {
        const int tasks = 30, seeds = 5;
        std::vector<sage::cli::ClusteredValue> values;
        std::vector<double> flat;
        for (int t = 0; t < tasks; ++t)
            for (int s = 0; s < seeds; ++s) {
                values.push_back({"task" + std::to_string(t), std::uint64_t(s), t % 2 ? -1.0 : 1.0});
                flat.push_back(values.back().value);
            }
        const auto cluster = BenchStatistics::clusterBootstrap(values, 11);
        QCOMPARE(cluster.n, tasks * seeds);
        QCOMPARE(cluster.mean, 0.0);
        const double expected = 1.959964 / std::sqrt(double(tasks));
        const double half = (cluster.high - cluster.low) / 2.0;
        QVERIFY2(std::abs(half / expected - 1.0) < 0.15, qPrintable(QString("half-width %1, analytic %2").arg(half).arg(expected)));
        const auto naive = BenchStatistics::pairedBootstrap(flat, 11);
        QVERIFY2((cluster.high - cluster.low) / (naive.high - naive.low) > 1.8,
                 "resampling pairs understates the uncertainty of a task effect by about sqrt(seeds)");
        QCOMPARE(BenchStatistics::clusterBootstrap(values, 11).low, cluster.low);  // deterministic for a seed
    }

    // The same for an effect of the seed (each seed's runs share one learned memory): SE 1/sqrt(S).
    void clusterBootstrapMatchesTheAnalyticSeedEffect() {
        const int tasks = 20, seeds = 10;
        std::vector<sage::cli::ClusteredValue> values;
        for (int t = 0; t < tasks; ++t)
            for (int s = 0; s < seeds; ++s) values.push_back({"task" + std::to_string(t), std::uint64_t(s), s % 2 ? -1.0 : 1.0});
        const auto ci = BenchStatistics::clusterBootstrap(values, 5);
        const double expected = 1.959964 / std::sqrt(double(seeds));
        const double half = (ci.high - ci.low) / 2.0;
        QVERIFY2(std::abs(half / expected - 1.0) < 0.2, qPrintable(QString("half-width %1, analytic %2").arg(half).arg(expected)));
        QVERIFY(!ci.excludesZero());
        // A clear effect everywhere still excludes 0.
        for (auto& v : values) v.value += 3.0;
        QVERIFY(BenchStatistics::clusterBootstrap(values, 5).excludesZero());
    }

    void runsReadAtASmallerBudget() {
        json rows = json::array({json{{"task", "add"}, {"seed", 1}, {"trajectory", {0, 500, 100, 90}}, {"iterations", 4},
                                      {"correct", true}, {"best_cycles", 90}, {"baseline_cycles", 1000},
                                      {"expert_cycles", 100}}});
        json two = rows;
        BenchReport::truncateToBudget(two, 2);
        QCOMPARE(two[0]["trajectory"].size(), std::size_t(2));
        QCOMPARE(two[0]["best_cycles"].get<std::uint64_t>(), std::uint64_t(500));
        QCOMPARE(two[0]["correct"].get<bool>(), true);
        QCOMPARE(two[0]["iterations_to_first_correct"].get<int>(), 2);
        QCOMPARE(two[0]["speedup_vs_baseline"].get<double>(), 2.0);
        QCOMPARE(two[0]["iterations"].get<int>(), 2);
        json one = rows;
        BenchReport::truncateToBudget(one, 1);
        QCOMPARE(one[0]["correct"].get<bool>(), false);
        QCOMPARE(one[0]["speedup_vs_expert"].get<double>(), 0.0);
        json all = rows;
        BenchReport::truncateToBudget(all, 12);  // a budget beyond the run changes nothing it measured
        QCOMPARE(all[0]["best_cycles"].get<std::uint64_t>(), std::uint64_t(90));
        QCOMPARE(all[0]["trajectory"].size(), std::size_t(4));
    }

    void reportMetricsFollowTheirDefinitions() {
        auto row = [](const char* task, int seed, const char* mode, json trajectory, double best, double expert,
                      int traps) {
            return json{{"task", task}, {"seed", seed}, {"memory_mode", mode}, {"correct", best > 0},
                        {"compiled", true}, {"best_cycles", best}, {"expert_cycles", expert},
                        {"speedup_vs_baseline", best > 0 ? 1000.0 / best : 0.0},
                        {"speedup_vs_expert", best > 0 && expert > 0 ? expert / best : 0.0},
                        {"speedup_vs_first_correct", 2.0}, {"trajectory", trajectory}, {"trap_adoptions", traps},
                        {"candidates", 4}, {"candidates_compiled", 3}, {"candidates_correct", 2},
                        {"repair_iterations", 2}, {"repairs_succeeded", 1}};
        };
        json rows = json::array({row("add", 0, "adoption", {0, 500, 100}, 100, 120, 0),
                                 row("add", 0, "all_retrieved", {0, 500, 500, 200}, 200, 120, 2),
                                 row("add", 1, "adoption", {0, 104}, 104, 120, 1),
                                 row("add", 1, "all_retrieved", {0, 0, 0, 0}, 0, 120, 3)});
        BenchReport::annotateBestKnown(rows, 4);
        // Best known = 100; 95 % of it = cycles <= 105.26.
        QCOMPARE(rows[0]["iterations_to_95_best"].get<int>(), 3);
        QCOMPARE(rows[1]["iterations_to_95_best"].get<int>(), 5);  // never: budget + 1
        QCOMPARE(rows[2]["iterations_to_95_best"].get<int>(), 2);
        const json a = BenchReport::aggregate(rows, 4);
        QCOMPARE(a["correct_rate"].get<double>(), 0.75);
        QCOMPARE(a["candidate_compile_rate"].get<double>(), 0.75);
        QCOMPARE(a["repair_success_rate"].get<double>(), 0.5);
        // vs expert (120 cycles): 100 and 104 beat it, 200 does not; the incorrect run counts as not fast.
        QCOMPARE(a["fast_p_vs_expert"]["fast_1"].get<double>(), 0.5);
        QCOMPARE(a["fast_p_vs_expert"]["fast_0.8"].get<double>(), 0.5);  // 120/200 = 0.6 < 0.8
        QCOMPARE(a["mean_trap_adoptions_per_run"].get<double>(), 1.5);
        json ad = json::array({rows[0], rows[2]}), all = json::array({rows[1], rows[3]});
        const json p = BenchReport::paired(ad, all, "adoption", "all_retrieved", 1);
        QCOMPARE(p["pairs"].get<int>(), 2);
        QCOMPARE(p["metrics"]["trap_adoptions"]["mean_difference"].get<double>(), 2.0);  // (2-0 + 3-1) / 2
        QCOMPARE(p["metrics"]["iterations_to_95_best"]["mean_difference"].get<double>(), 2.5);  // (5-3 + 5-2) / 2
    }
};

QTEST_GUILESS_MAIN(TestBenchStatistics)
#include "test_bench_statistics.moc"
