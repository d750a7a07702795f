// BenchStatistics: the numbers of the memory experiment, kept free of I/O so a test can check
// them on known data. Deterministic for a seed (std::mt19937_64, indices from the raw engine output).
//
// Two bootstraps of the mean of paired differences, each reporting the 2.5 % and 97.5 % quantiles
// of the resampled means:
//   pairedBootstrap   resamples the differences one by one: right only when they are independent;
//   clusterBootstrap  resamples tasks and seeds, each with replacement and independently, and weights
//                     every (task, seed) cell by how often both were drawn (the two-way "pigeonhole"
//                     bootstrap, Owen 2007). A bench's runs are not independent: the runs of one seed
//                     share one learned memory, and the runs of one task share its difficulty, so
//                     this is the interval the reports use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sage::cli {

struct ConfidenceInterval {
    double mean = 0.0;  // of the differences
    double low = 0.0;   // lower bound of the interval
    double high = 0.0;  // upper bound
    int n = 0;          // number of pairs
    bool excludesZero() const { return n > 0 && (low > 0.0 || high < 0.0); }
};

// One paired difference and the two clusters it belongs to.
struct ClusteredValue {
    std::string task;
    std::uint64_t seed = 0;
    double value = 0.0;
};

class BenchStatistics {
public:
    static constexpr int kResamples = 4000;

    static double mean(const std::vector<double>& values);
    static double median(std::vector<double> values);
    static double geometricMean(const std::vector<double>& positive);  // 0 when empty or any value <= 0
    // The percentile bootstrap interval of the mean of `differences` at `level` (e.g. 0.95).
    static ConfidenceInterval pairedBootstrap(const std::vector<double>& differences, std::uint64_t seed,
                                              double level = 0.95, int resamples = kResamples);
    // The two-way cluster bootstrap interval of the mean over (task, seed) cells; n = cells.
    static ConfidenceInterval clusterBootstrap(const std::vector<ClusteredValue>& values, std::uint64_t seed,
                                               double level = 0.95, int resamples = kResamples);
    // The q-quantile (0..1) of sorted values, linear interpolation.
    static double quantile(const std::vector<double>& sorted, double q);
};

} // namespace sage::cli
