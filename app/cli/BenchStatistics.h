// BenchStatistics: the numbers of the memory experiment, kept free of I/O so a test can check
// them on known data. Paired bootstrap: resample the paired differences (task × seed) with
// replacement, take the mean of each resample, and report the 2.5 % and 97.5 % quantiles.
// Deterministic for a seed (std::mt19937_64, indices from the raw engine output).
#pragma once

#include <cstdint>
#include <vector>

namespace sage::cli {

struct ConfidenceInterval {
    double mean = 0.0;  // of the differences
    double low = 0.0;   // lower bound of the interval
    double high = 0.0;  // upper bound
    int n = 0;          // number of pairs
    bool excludesZero() const { return n > 0 && (low > 0.0 || high < 0.0); }
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
    // The q-quantile (0..1) of sorted values, linear interpolation.
    static double quantile(const std::vector<double>& sorted, double q);
};

} // namespace sage::cli
