#include "cli/cann_bench_cli.h"

#include "sage_eval/CannBench.h"
#include "sage_eval/CannScore.h"
#include "sage_eval/GoldenRunner.h"
#include "sage_toolchain/ToolPaths.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>

namespace sage::cli {
using nlohmann::json;

bool hasBenchTasks(const eval::TaskSet& set) {
    for (const auto& t : set.tasks)
        if (t.bench) return true;
    return false;
}

void listBenchTasks(const eval::TaskSet& set, bool asJson) {
    json out = json::array();
    size_t drafts = 0;
    for (const auto& t : set.tasks) {
        if (!t.bench) continue;
        size_t measured = 0, timed = 0;
        for (const auto& c : t.bench->cases) {
            timed += c.timing.has_value();
            measured += c.timing && c.timing->measured;
        }
        const std::string status = t.computeGap.empty() ? "drafts" : t.computeGap;
        drafts += t.computeGap.empty();
        out.push_back({{"name", t.name}, {"level", t.bench->level}, {"operator", t.bench->proto.name},
                       {"category", t.category}, {"cases", t.cases.size()}, {"timed_cases", timed},
                       {"measured_baselines", measured}, {"drafts", t.computeGap.empty()}, {"status", status}});
    }
    if (asJson) {
        std::cout << out.dump(2) << "\n";
        return;
    }
    for (const auto& r : out)
        std::cout << std::left << std::setw(8) << r["level"].get<std::string>() << std::setw(36) << r["name"].get<std::string>()
                  << std::setw(17) << r["category"].get<std::string>() << std::setw(3) << r["cases"].get<size_t>() << " cases, "
                  << std::setw(2) << r["measured_baselines"].get<size_t>() << " measured  " << r["status"].get<std::string>() << "\n";
    std::cout << out.size() << " CANN Bench operators; the built-in policy drafts " << drafts << "\n";
}

void requireGoldenPython(const eval::TaskSet& set) {
    if (!hasBenchTasks(set)) return;
    const std::string problem = eval::GoldenRunner(toolchain::ToolPaths::fromEnvironment()).pythonProblem();
    if (problem.empty()) return;
    std::cerr << "sage: error: " << problem << "\n";
    throw CLI::RuntimeError(2);
}

void checkBenchGoldens(const eval::TaskSet& set) {
    requireGoldenPython(set);
    const eval::GoldenRunner runner(toolchain::ToolPaths::fromEnvironment());
    size_t ran = 0, failed = 0, skipped = 0, ops = 0;
    for (const auto& t : set.tasks) {
        if (!t.bench) continue;
        ++ops;
        std::vector<std::pair<const eval::cannbench::BenchCase*, uint64_t>> runs;
        std::string skips;
        for (const auto& c : t.bench->cases) {
            if (c.largestInputBytes() > eval::kMaxGoldenTensorBytes) {
                ++skipped;
                skips += " " + c.name() + " (" + std::to_string(c.largestInputBytes() >> 20) + " MiB)";
                continue;
            }
            runs.push_back({&c, t.seeds.front()});
        }
        const auto t0 = std::chrono::steady_clock::now();
        const auto results = runner.prepare(*t.bench, runs, {});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        size_t bad = 0, cached = 0;
        std::string firstError;
        for (size_t i = 0; i < results.size(); ++i) {
            cached += results[i].cached;
            if (!results[i].ok) {
                ++bad;
                if (firstError.empty()) firstError = runs[i].first->name() + ": " + results[i].error;
            }
        }
        ran += results.size() - bad;
        failed += bad;
        std::cout << "  " << std::left << std::setw(8) << t.bench->level << std::setw(36) << t.name << results.size() - bad << " of "
                  << t.bench->cases.size() << " goldens ran" << (cached ? " (" + std::to_string(cached) + " cached)" : "")
                  << std::fixed << std::setprecision(1) << ", " << seconds << " s";
        if (!skips.empty()) std::cout << "; skipped, an input over 2 GiB:" << skips;
        if (bad) std::cout << "; FAILED " << bad << ", first: " << firstError;
        std::cout << std::endl;
    }
    std::cout << ops << " operators: " << ran << " goldens ran, " << failed << " failed, " << skipped
              << " cases skipped (an input over 2 GiB)\n";
    if (failed) {
        std::cerr << "sage: error: " << failed << " golden run(s) failed (see above)\n";
        throw CLI::RuntimeError(1);
    }
}

json summariseBenchScores(const json& rows) {
    json ops = json::array();
    std::vector<eval::OperatorScore> scores;
    for (const auto& r : rows) {
        if (!r.contains("cann")) continue;
        const json& c = r["cann"];
        scores.push_back({r.value("task", ""), c.value("level", ""), c.value("score", 0.0)});
        ops.push_back({{"operator", r.value("task", "")}, {"level", c.value("level", "")}, {"score", c.value("score", 0.0)},
                       {"mean_hap", c.value("mean_hap", json())}, {"accurate_cases", c.value("accurate_cases", 0)},
                       {"cases", c["cases"].size()}});
    }
    if (scores.empty()) return nullptr;
    const auto levels = eval::levelSums(scores);
    double total = 0;
    for (const auto& [level, sum] : levels) total += sum;
    return {{"operators", ops}, {"levels", levels}, {"total", total}};
}

void printBenchScores(const json& rows) {
    const json summary = summariseBenchScores(rows);
    if (summary.is_null()) return;
    for (const auto& r : rows) {
        if (!r.contains("cann")) continue;
        const json& c = r["cann"];
        std::printf("\n%s (%s): score %.1f, %d of %zu cases accurate\n", r.value("task", "").c_str(), c.value("level", "").c_str(),
                    c.value("score", 0.0), c.value("accurate_cases", 0), c["cases"].size());
        std::printf("  %-8s %-8s %12s %12s %10s %7s\n", "case", "accurate", "sim us", "CANN us", "bound us", "HAP");
        for (const auto& k : c["cases"]) {
            auto cell = [&](const char* key, int precision) {
                if (!k.contains(key) || !k[key].is_number()) return std::string("-");
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.*f", precision, k[key].get<double>());
                return std::string(buf);
            };
            const std::string tail = k.contains("skipped") ? "  " + k.value("skipped", "") : (k.value("measured", true) ? "" : "  (baseline derived)");
            std::printf("  %-8s %-8s %12s %12s %10s %7s%s\n", k.value("case", "").c_str(), k.value("accurate", false) ? "yes" : "no",
                        cell("device_us", 2).c_str(), cell("baseline_us", 2).c_str(), cell("hw_us", 2).c_str(), cell("hap", 3).c_str(),
                        tail.c_str());
        }
    }
    std::printf("\nCANN Bench scores (the simulated device's times against the metadata's):\n");
    for (const auto& o : summary["operators"])
        std::printf("  %-8s %-34s %6.1f\n", o.value("level", "").c_str(), o.value("operator", "").c_str(), o.value("score", 0.0));
    for (const auto& [level, sum] : summary["levels"].items())
        std::printf("  %-8s level sum %33.1f\n", level.empty() ? "(none)" : level.c_str(), sum.get<double>());
    std::printf("  total %39.1f\n", summary.value("total", 0.0));
}

} // namespace sage::cli
