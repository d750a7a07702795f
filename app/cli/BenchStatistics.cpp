#include "cli/BenchStatistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace sage::cli {

double BenchStatistics::mean(const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double BenchStatistics::median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return quantile(v, 0.5);
}

double BenchStatistics::geometricMean(const std::vector<double>& v) {
    if (v.empty()) return 0.0;
    double logSum = 0.0;
    for (double x : v) {
        if (!(x > 0.0)) return 0.0;
        logSum += std::log(x);
    }
    return std::exp(logSum / static_cast<double>(v.size()));
}

double BenchStatistics::quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

ConfidenceInterval BenchStatistics::pairedBootstrap(const std::vector<double>& d, std::uint64_t seed, double level,
                                                    int resamples) {
    ConfidenceInterval ci;
    ci.n = static_cast<int>(d.size());
    ci.mean = mean(d);
    if (d.empty()) return ci;
    std::mt19937_64 rng(seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(std::max(1, resamples)));
    for (int r = 0; r < std::max(1, resamples); ++r) {
        double sum = 0.0;
        for (std::size_t i = 0; i < d.size(); ++i) sum += d[static_cast<std::size_t>(rng() % d.size())];
        means.push_back(sum / static_cast<double>(d.size()));
    }
    std::sort(means.begin(), means.end());
    const double tail = (1.0 - level) / 2.0;
    ci.low = quantile(means, tail);
    ci.high = quantile(means, 1.0 - tail);
    return ci;
}

} // namespace sage::cli
