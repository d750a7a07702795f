// The task-suite report behind `sage tasks --report`: evaluate every task's baseline.cpp and
// tuned.cpp through the one evaluation pipeline (every case, every seed, profile of the perf
// case) and render docs/tasks.md from the results.
#pragma once

#include "sage_eval/Evaluator.h"
#include "sage_eval/Task.h"

#include <functional>
#include <string>
#include <vector>

namespace sage::cli {

// One kernel's evaluation, reduced to what the report shows.
struct KernelOutcome {
    bool present = false;   // false: the task has no such kernel (no tuned.cpp)
    bool pass = false;      // compiled, ran and verified on every case and seed
    std::string status;     // "pass", or the first thing that failed (compile, run status, verify)
    uint64_t cycles = 0;    // simulated cycles of the perf case
    double roofline = 0;    // roofline fraction of the perf case
    std::string bottleneck;
    double seconds = 0;     // wall-clock time of the evaluation
};

struct TaskOutcome {
    const eval::Task* task = nullptr;
    KernelOutcome baseline, tuned;
    // Baseline cycles / tuned cycles on the perf case; 0 without a passing tuned kernel.
    double speedup() const;
};

struct SuiteReport {
    std::string device;
    size_t seeds = 3;
    std::vector<TaskOutcome> tasks;  // in the task set's order
    double medianBaselineRoofline() const;
    bool allPass() const;
};

// Evaluates every baseline and tuned kernel of `set`, `jobs` evaluations at a time. `progress`
// is called (from the calling thread) after each task with its outcome.
SuiteReport evaluateSuite(const eval::TaskSet& set, const eval::Evaluator& evaluator, const std::string& device,
                          size_t seeds, unsigned jobs,
                          const std::function<void(const TaskOutcome&)>& progress = nullptr);

// Summarises one evaluation (exposed for tests and other front ends).
KernelOutcome summarize(const eval::Evaluation& ev);

// docs/tasks.md: the per-task table, the suite summary and "How to add a task".
std::string renderTasksMarkdown(const SuiteReport& report);

} // namespace sage::cli
