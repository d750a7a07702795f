// `sage tasks [--tasks DIR] [--tasks-only] [--json]`: list the task suite.
// `sage tasks --check`: run every task's reference on its own (ReferenceCheck); exit 1 if one fails.
// A CANN Bench folder (`--tasks <checkout>/tasks`): its operators, whether the agent drafts each,
// and with --check every golden on every case that fits (docs/cann-bench.md).
// `sage tasks --report [--out FILE] [--device ID] [--seeds N] [--jobs N]`: evaluate every baseline and
// tuned kernel and write the suite report (default docs/tasks.md, relative to the working directory).
// Exit code of --report: 0 when every kernel verifies, 1 otherwise (the report is written either way).
// Both forms exit 1 when a broken task folder was skipped (after listing or reporting the rest).
#include "cli/output_file.h"
#include "cli/cann_bench_cli.h"
#include "cli/command_registry.h"
#include "cli/task_options.h"
#include "cli/tasks_report.h"

#include "sage_eval/Evaluator.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

namespace sage::cli {
namespace {

struct TasksOptions {
    TaskOptions tasks;
    bool json = false;
    bool report = false;
    bool check = false;
    std::string out = "docs/tasks.md";
    std::string device = toolchain::DeviceCatalog::kDefaultDevice;
    size_t seeds = 3;
    unsigned jobs = 0;  // 0: one per hardware thread, at most 2
};

void list(const eval::TaskSet& set, bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& t : set.tasks) {
            nlohmann::json cases = nlohmann::json::array();
            for (const auto& c : t.cases) cases.push_back({{"name", c.name}, {"dims", c.dims}, {"perf", c.perf}});
            nlohmann::json row = {{"name", t.name},       {"category", t.category},
                                  {"split", t.split},     {"cases", cases},
                                  {"has_tuned", !t.tunedSource.empty()}, {"has_compute", t.compute.present}};
            if (!t.computeGap.empty()) row["compute_gap"] = t.computeGap;
            out.push_back(row);
        }
        std::cout << out.dump(2) << "\n";
        return;
    }
    size_t gaps = 0, width = 24;
    for (const auto& t : set.tasks) width = std::max(width, t.name.size() + 2);
    for (const auto& t : set.tasks) {
        std::cout << std::left << std::setw(int(width)) << t.name << std::setw(15) << t.category << std::setw(6) << t.split
                  << t.cases.size() << " cases" << (t.tunedSource.empty() ? "" : ", tuned kernel");
        if (!t.compute.present) {
            ++gaps;
            std::cout << ", no compute spec" << (t.computeGap.empty() ? "" : ": " + t.computeGap);
        }
        std::cout << "\n";
    }
    std::cout << set.tasks.size() << " tasks";
    if (gaps) std::cout << " (" << gaps << " without a compute spec: they load and evaluate with their reference)";
    std::cout << "\n";
}

// Every task's reference on its own: compiles, runs on every case, gives finite, varying outputs.
void check(const eval::TaskSet& set, const TasksOptions& o) {
    eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
    eval::EvalRequest req;
    req.deviceId = o.device;
    size_t failed = 0;
    for (const auto& t : set.tasks) {
        const eval::ReferenceCheck r = evaluator.checkReference(t, req);
        std::cout << "  " << std::left << std::setw(44) << t.name << (r.ok ? "ok" : "FAIL: " + r.problem) << std::endl;
        failed += r.ok ? 0 : 1;
    }
    std::cout << set.tasks.size() - failed << " of " << set.tasks.size() << " references pass the self-check\n";
    if (failed) {
        std::cerr << "sage: error: " << failed << " reference(s) failed: fix reference.cpp of each (see above)\n";
        throw CLI::RuntimeError(1);
    }
}

void report(const eval::TaskSet& set, const TasksOptions& o) {
    eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
    try {
        evaluator.devices().get(o.device);
    } catch (const std::exception& e) {
        std::cerr << "sage: error: " << e.what() << "\n";
        throw CLI::RuntimeError(2);
    }
    const OutputFile out = OutputFile::prepare(o.out, "--out");
    unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
    std::cout << "evaluating " << set.tasks.size() << " tasks (baseline and tuned kernels, " << o.seeds
              << " seeds, " << jobs << " at a time)\n";
    auto line = [](const KernelOutcome& k) {
        if (!k.present) return std::string("-");
        if (!k.pass) return "FAIL (" + k.status + ")";
        return std::to_string(k.cycles) + " cyc";
    };
    SuiteReport r = evaluateSuite(set, evaluator, o.device, o.seeds, jobs, [&](const TaskOutcome& t) {
        std::cout << "  " << std::left << std::setw(18) << t.task->name << " baseline " << std::setw(14)
                  << line(t.baseline) << " tuned " << line(t.tuned);
        if (t.speedup() > 0) std::cout << "  (" << std::fixed << std::setprecision(1) << t.speedup() << "x)";
        std::cout << std::endl;
    });
    out.write(renderTasksMarkdown(r));
    std::cout << "median baseline roofline fraction " << std::setprecision(3) << r.medianBaselineRoofline() << "\n"
              << "report written to " << o.out << "\n";
    if (!r.allPass()) {
        std::cerr << "sage: some kernels failed verification (see " << o.out << ")\n";
        throw CLI::RuntimeError(1);
    }
}

} // namespace

void registerTasksCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("tasks", "List the tasks (name, category, split, cases), or evaluate them all");
    auto o = std::make_shared<TasksOptions>();
    o->tasks.add(cmd);
    cmd->add_flag("--json", o->json, "Print a JSON array of {name, category, split, cases, has_tuned}");
    cmd->add_flag("--report", o->report,
                  "Evaluate every baseline and tuned kernel and write the suite report (markdown)");
    cmd->add_flag("--check", o->check,
                  "Run every task's reference on each case (first seed): it must compile, run and give finite, "
                  "non-constant outputs");
    cmd->add_option("--out", o->out, "Report file (default docs/tasks.md, relative to the working directory)");
    cmd->add_option("--device", o->device, "Device profile id for --report (see `sage devices`)");
    cmd->add_option("--seeds", o->seeds, "Input seeds verified per case for --report (default 3)");
    cmd->add_option("--jobs", o->jobs, "Evaluations run at the same time for --report (default: up to 2)");
    cmd->callback([o] {
        auto set = o->tasks.load();
        if (hasBenchTasks(set)) {  // a CANN Bench folder: its goldens are its references
            if (o->report) {
                std::cerr << "sage: error: --report evaluates our tasks' baseline and tuned kernels; CANN Bench has none. "
                             "Use `sage bench --tasks DIR` to run the agent on its operators\n";
                throw CLI::RuntimeError(2);
            }
            if (o->check) checkBenchGoldens(set);
            else listBenchTasks(set, o->json);
        } else if (o->report) report(set, *o);
        else if (o->check) check(set, *o);
        else list(set, o->json);
        if (!set.errors.empty()) {  // the warnings above name each folder and what is wrong
            std::cerr << "sage: error: " << set.errors.size()
                      << " broken task folder(s) skipped (see the warnings above): fix or remove them\n";
            throw CLI::RuntimeError(1);
        }
    });
}

} // namespace sage::cli
