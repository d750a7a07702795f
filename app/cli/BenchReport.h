// BenchReport: the metrics of one agent run (a row) and of a set of runs, as the field measures
// them (issue 11 part 5, issue 12):
//   per row   compiled / correct, speedup over the agent's own first correct candidate, over the
//             baseline and versus the expert kernel (tuned.cpp), candidate compile/correct rates,
//             repair iterations and how many succeeded, trap adoptions (iterations in which an entry
//             of the trap pack was declared or evidenced), and the best-so-far cycles per iteration;
//   aggregate compile and correct rates, fast_p for p = 0, 0.8, 1, 2 against the baseline and
//             against the expert (KernelBench: correct and reference/agent cycles > p), medians and
//             geometric means of the speedups, repair success rate, mean trap adoptions per run,
//             mean iterations to 95 % of the best known cycles (never = budget + 1);
//   paired    per (task, seed) differences of two sets of rows, with two-way cluster bootstrap 95 %
//             intervals (tasks and seeds resampled: BenchStatistics::clusterBootstrap).
// The best known cycles of a task are the minimum over every row given (and the expert kernel).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sage::cli {

class BenchReport {
public:
    // Fills "iterations_to_95_best" in every row from its "trajectory" and the best known cycles
    // of its task over all rows (and their "expert_cycles").
    static void annotateBestKnown(nlohmann::json& rows, int budget);
    static nlohmann::json aggregate(const nlohmann::json& rows, int budget);
    // Rows of B minus rows of A, paired by task × seed; metrics: trap adoptions, iterations to 95 %
    // of best, best speedup vs first correct (log2), correct. Intervals seeded by `seed`.
    static nlohmann::json paired(const nlohmann::json& rowsA, const nlohmann::json& rowsB, const std::string& labelA,
                                 const std::string& labelB, std::uint64_t seed);
    // The rows as if each run had stopped after `budget` iterations: the trajectory (best correct
    // cycles so far, per iteration) is cut there and the outcome fields are derived from what is
    // left. A run is a prefix of a longer run with the same settings (nothing the policy does
    // depends on the budget), so budget 6 is read off the budget-12 runs.
    static void truncateToBudget(nlohmann::json& rows, int budget);
    static void printAggregateLine(const std::string& label, const nlohmann::json& aggregate);
    static void printPaired(const nlohmann::json& paired);
};

} // namespace sage::cli
