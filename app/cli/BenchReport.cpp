#include "cli/BenchReport.h"

#include "cli/BenchStatistics.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <iostream>
#include <map>

namespace sage::cli {
using nlohmann::json;

namespace {

double num(const json& row, const char* key) {
    const auto it = row.find(key);
    return it != row.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string pairKey(const json& row) { return row.value("task", "") + "#" + std::to_string(row.value("seed", 0)); }

// How far a run's best kernel is from the best known for its task, log2(best / best known): 0 at
// the best known, 1 at twice its cycles. A run with no correct kernel counts as the baseline; with
// no baseline either it has no value and leaves the pair out.
std::optional<double> bestVersusBestKnown(const json& r) {
    const double known = num(r, "best_known_cycles");
    if (known <= 0) return std::nullopt;
    const double best = r.value("correct", false) ? num(r, "best_cycles") : num(r, "baseline_cycles");
    if (best <= 0) return std::nullopt;
    return std::log2(best / known);
}

} // namespace

void BenchReport::annotateBestKnown(json& rows, int budget) {
    std::map<std::string, double> best;
    auto consider = [&](const std::string& task, double cycles) {
        if (cycles <= 0) return;
        auto [it, fresh] = best.emplace(task, cycles);
        if (!fresh) it->second = std::min(it->second, cycles);
    };
    for (const auto& r : rows) {
        consider(r.value("task", ""), num(r, "best_cycles"));
        consider(r.value("task", ""), num(r, "expert_cycles"));
    }
    for (auto& r : rows) {
        const auto it = best.find(r.value("task", ""));
        int reached = -1;
        if (it != best.end() && r.contains("trajectory"))
            for (std::size_t i = 0; i < r["trajectory"].size(); ++i) {
                const double c = r["trajectory"][i].get<double>();
                if (c > 0 && c <= it->second / 0.95) {
                    reached = static_cast<int>(i) + 1;
                    break;
                }
            }
        r["best_known_cycles"] = it != best.end() ? it->second : 0.0;
        r["iterations_to_95_best"] = reached > 0 ? reached : budget + 1;  // never = budget + 1 (censored)
        r["reached_95_best"] = reached > 0;
    }
}

json BenchReport::aggregate(const json& rows, int budget) {
    (void)budget;
    std::vector<double> sFirst, sBase, sExpert, roof, it95, traps, applied;
    double compiled = 0, correct = 0, candidates = 0, candCompiled = 0, candCorrect = 0, repairs = 0, repaired = 0;
    double withExpert = 0, faults = 0, faultsRepaired = 0;
    const std::vector<double> ps = {0.0, 0.8, 1.0, 2.0};
    std::vector<double> fastBase(ps.size(), 0.0), fastExpert(ps.size(), 0.0);
    for (const auto& r : rows) {
        compiled += r.value("compiled", false);
        const bool ok = r.value("correct", false);
        correct += ok;
        candidates += num(r, "candidates");
        candCompiled += num(r, "candidates_compiled");
        candCorrect += num(r, "candidates_correct");
        repairs += num(r, "repair_iterations");
        repaired += num(r, "repairs_succeeded");
        if (r.contains("injected_fault") && r["injected_fault"].is_string()) {
            ++faults;
            faultsRepaired += r.value("fault_repaired", false);
        }
        traps.push_back(num(r, "trap_adoptions"));
        applied.push_back(num(r, "trap_applied"));
        it95.push_back(r.contains("iterations_to_95_best") ? num(r, "iterations_to_95_best") : double(budget + 1));
        const bool hasExpert = num(r, "expert_cycles") > 0;
        withExpert += hasExpert;
        if (!ok) continue;
        const double sb = num(r, "speedup_vs_baseline"), se = num(r, "speedup_vs_expert");
        for (std::size_t i = 0; i < ps.size(); ++i) {
            fastBase[i] += sb > ps[i];
            if (hasExpert) fastExpert[i] += se > ps[i];
        }
        sBase.push_back(sb);
        sFirst.push_back(num(r, "speedup_vs_first_correct"));
        if (hasExpert) sExpert.push_back(se);
        roof.push_back(num(r, "roofline_fraction"));
    }
    const double n = rows.empty() ? 1 : double(rows.size());
    json fast = json::object(), fastE = json::object();
    for (std::size_t i = 0; i < ps.size(); ++i) {
        char key[32];
        std::snprintf(key, sizeof key, "fast_%g", ps[i]);
        fast[key] = fastBase[i] / n;
        fastE[key] = withExpert > 0 ? json(fastExpert[i] / withExpert) : json(nullptr);
    }
    return {{"runs", rows.size()},
            {"compile_rate", compiled / n},
            {"correct_rate", correct / n},
            {"candidate_compile_rate", candidates > 0 ? candCompiled / candidates : 0.0},
            {"candidate_correct_rate", candidates > 0 ? candCorrect / candidates : 0.0},
            {"fast_p_vs_baseline", fast},
            {"fast_p_vs_expert", fastE},
            {"runs_with_expert", withExpert},
            {"median_speedup_vs_first_correct", BenchStatistics::median(sFirst)},
            {"geomean_speedup_vs_first_correct", BenchStatistics::geometricMean(sFirst)},
            {"median_speedup_vs_baseline", BenchStatistics::median(sBase)},
            {"median_speedup_vs_expert", BenchStatistics::median(sExpert)},
            {"median_roofline_fraction", BenchStatistics::median(roof)},
            {"repair_iterations", repairs},
            {"repairs_succeeded", repaired},
            {"repair_success_rate", repairs > 0 ? json(repaired / repairs) : json(nullptr)},
            {"faults_injected", faults},
            {"faults_repaired", faultsRepaired},
            {"mean_trap_adoptions_per_run", BenchStatistics::mean(traps)},
            {"mean_trap_applications_per_run", BenchStatistics::mean(applied)},
            {"mean_iterations_to_95_best", BenchStatistics::mean(it95)}};
}

json BenchReport::paired(const json& rowsA, const json& rowsB, const std::string& labelA, const std::string& labelB,
                         std::uint64_t seed) {
    std::map<std::string, const json*> a;
    for (const auto& r : rowsA) a[pairKey(r)] = &r;
    struct Metric {
        const char* name;
        std::optional<double> (*value)(const json&);
    };
    const Metric metrics[] = {
        {"trap_adoptions", [](const json& r) -> std::optional<double> { return num(r, "trap_adoptions"); }},
        {"iterations_to_95_best", [](const json& r) -> std::optional<double> { return num(r, "iterations_to_95_best"); }},
        {"log2_speedup_vs_first_correct",
         [](const json& r) -> std::optional<double> {
             return num(r, "speedup_vs_first_correct") > 0 ? std::log2(num(r, "speedup_vs_first_correct")) : 0.0;
         }},
        {"log2_best_vs_best_known", bestVersusBestKnown},
        {"correct", [](const json& r) -> std::optional<double> { return r.value("correct", false) ? 1.0 : 0.0; }},
    };
    json out = {{"a", labelA}, {"b", labelB}, {"difference", "b - a"},
                {"interval", "two-way cluster bootstrap 95 % (tasks and seeds resampled)"}, {"metrics", json::object()}};
    int pairs = 0;
    for (const Metric& m : metrics) {
        std::vector<ClusteredValue> d;
        double sumA = 0, sumB = 0;
        for (const auto& r : rowsB) {
            const auto it = a.find(pairKey(r));
            if (it == a.end()) continue;
            const auto va = m.value(*it->second), vb = m.value(r);
            if (!va || !vb) continue;
            d.push_back({r.value("task", ""), r.value("seed", std::uint64_t(0)), *vb - *va});
            sumA += *va;
            sumB += *vb;
        }
        pairs = std::max(pairs, static_cast<int>(d.size()));
        const ConfidenceInterval ci = BenchStatistics::clusterBootstrap(d, seed);
        out["metrics"][m.name] = {{"mean_a", d.empty() ? 0.0 : sumA / double(d.size())},
                                  {"mean_b", d.empty() ? 0.0 : sumB / double(d.size())},
                                  {"mean_difference", ci.mean},
                                  {"ci95_low", ci.low},
                                  {"ci95_high", ci.high},
                                  {"excludes_zero", ci.excludesZero()},
                                  {"pairs", ci.n}};
    }
    out["pairs"] = pairs;
    return out;
}

void BenchReport::truncateToBudget(json& rows, int budget) {
    for (auto& r : rows) {
        if (!r.contains("trajectory") || !r["trajectory"].is_array() || budget < 1) continue;
        json& t = r["trajectory"];
        if (t.size() > static_cast<std::size_t>(budget)) t.erase(t.begin() + budget, t.end());
        const double best = t.empty() ? 0.0 : t.back().get<double>();
        int first = -1;
        for (std::size_t i = 0; i < t.size() && first < 0; ++i)
            if (t[i].get<double>() > 0) first = static_cast<int>(i);
        const double firstCycles = first >= 0 ? t[static_cast<std::size_t>(first)].get<double>() : 0.0;
        const bool correct = best > 0;
        auto ratio = [&](const char* key) { return correct && num(r, key) > 0 ? num(r, key) / best : 0.0; };
        r["correct"] = correct;
        r["best_cycles"] = static_cast<std::uint64_t>(best);
        r["first_correct_cycles"] = static_cast<std::uint64_t>(firstCycles);
        r["iterations"] = std::min(r.value("iterations", budget), budget);
        r["iterations_to_first_correct"] = correct ? first + 1 : -1;
        r["speedup_vs_baseline"] = ratio("baseline_cycles");
        r["speedup_vs_expert"] = ratio("expert_cycles");
        r["speedup_vs_first_correct"] = correct ? firstCycles / best : 0.0;
        r["truncated_to_budget"] = budget;
    }
}

void BenchReport::printAggregateLine(const std::string& label, const json& a) {
    auto f = [&](const char* key) { return a.contains(key) && a[key].is_number() ? a[key].get<double>() : 0.0; };
    std::printf("%-28s runs %3d  compile %.2f correct %.2f (candidates %.2f/%.2f)  x first %.2f  x base %.2f  "
                "x expert %.2f  fast1 base %.2f expert %s  repairs %.0f ok %.0f  traps/run %.2f  it->95%% %.2f\n",
                label.c_str(), a.value("runs", 0), f("compile_rate"), f("correct_rate"), f("candidate_compile_rate"),
                f("candidate_correct_rate"), f("median_speedup_vs_first_correct"), f("median_speedup_vs_baseline"),
                f("median_speedup_vs_expert"), a["fast_p_vs_baseline"].value("fast_1", 0.0),
                a["fast_p_vs_expert"]["fast_1"].is_number() ? std::to_string(a["fast_p_vs_expert"]["fast_1"].get<double>()).substr(0, 4).c_str()
                                                            : "n/a",
                f("repair_iterations"), f("repairs_succeeded"), f("mean_trap_adoptions_per_run"),
                f("mean_iterations_to_95_best"));
    if (f("faults_injected") > 0)
        std::printf("%-28s injected faults %.0f, repaired %.0f\n", "", f("faults_injected"), f("faults_repaired"));
}

void BenchReport::printPaired(const json& p) {
    std::printf("paired %s - %s over %d task x seed pairs (two-way cluster bootstrap 95%% CI of the mean difference):\n",
                p.value("b", "").c_str(), p.value("a", "").c_str(), p.value("pairs", 0));
    for (const auto& [name, m] : p["metrics"].items())
        std::printf("  %-32s a %8.3f  b %8.3f  diff %+8.3f  [%+8.3f, %+8.3f]%s\n", name.c_str(), m["mean_a"].get<double>(),
                    m["mean_b"].get<double>(), m["mean_difference"].get<double>(), m["ci95_low"].get<double>(),
                    m["ci95_high"].get<double>(), m["excludes_zero"].get<bool>() ? "  excludes 0" : "");
}

} // namespace sage::cli
