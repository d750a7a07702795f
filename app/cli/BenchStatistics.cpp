#include "cli/BenchStatistics.h"

#include <algorithm>
#include <map>
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

namespace {

ConfidenceInterval intervalOf(std::vector<double> means, double mean, int n, double level) {
    ConfidenceInterval ci;
    ci.mean = mean;
    ci.n = n;
    std::sort(means.begin(), means.end());
    const double tail = (1.0 - level) / 2.0;
    ci.low = BenchStatistics::quantile(means, tail);
    ci.high = BenchStatistics::quantile(means, 1.0 - tail);
    return ci;
}

} // namespace

ConfidenceInterval BenchStatistics::clusterBootstrap(const std::vector<ClusteredValue>& values, std::uint64_t seed,
                                                     double level, int resamples) {
    ConfidenceInterval empty;
    if (values.empty()) return empty;
    std::map<std::string, std::size_t> taskIndex;
    std::map<std::uint64_t, std::size_t> seedIndex;
    for (const auto& v : values) {
        taskIndex.emplace(v.task, taskIndex.size());
        seedIndex.emplace(v.seed, seedIndex.size());
    }
    std::vector<double> all;
    std::vector<std::pair<std::size_t, std::size_t>> cells;  // (task, seed) index of each value
    for (const auto& v : values) {
        all.push_back(v.value);
        cells.emplace_back(taskIndex[v.task], seedIndex[v.seed]);
    }
    std::mt19937_64 rng(seed);
    std::vector<double> taskWeight(taskIndex.size()), seedWeight(seedIndex.size()), means;
    means.reserve(static_cast<std::size_t>(std::max(1, resamples)));
    while (means.size() < static_cast<std::size_t>(std::max(1, resamples))) {
        std::fill(taskWeight.begin(), taskWeight.end(), 0.0);
        std::fill(seedWeight.begin(), seedWeight.end(), 0.0);
        for (std::size_t i = 0; i < taskWeight.size(); ++i) taskWeight[rng() % taskWeight.size()] += 1.0;
        for (std::size_t i = 0; i < seedWeight.size(); ++i) seedWeight[rng() % seedWeight.size()] += 1.0;
        double sum = 0.0, weight = 0.0;
        for (std::size_t k = 0; k < values.size(); ++k) {
            const double w = taskWeight[cells[k].first] * seedWeight[cells[k].second];
            sum += w * values[k].value;
            weight += w;
        }
        if (weight > 0.0) means.push_back(sum / weight);  // a draw that hit no cell says nothing: drawn again
    }
    return intervalOf(std::move(means), mean(all), static_cast<int>(values.size()), level);
}

} // namespace sage::cli
