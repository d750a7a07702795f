// `sage eval --task NAME [--kernel FILE] [--device ID] [--trace FILE] [--csv FILE] [--json]`:
// compile, run, verify and profile a kernel (the task's baseline when --kernel is absent).
// Exit code 0 iff it compiles, runs and verifies; 1 otherwise; 2 for bad arguments.
#include "cli/command_registry.h"
#include "cli/output_file.h"
#include "cli/kernel_file.h"
#include "cli/task_options.h"

#include "sage_eval/Evaluator.h"
#include "sage_eval/TraceExport.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace sage::cli {
namespace {

struct EvalOptions {
    TaskOptions tasks;
    std::string task, kernel, device = toolchain::DeviceCatalog::kDefaultDevice, trace, csv;
    size_t seeds = 3;
    double timeout = 60;
    bool json = false;
};

std::string readKernel(const std::string& path) { return readKernelFile(path); }

void printHuman(const eval::Evaluation& ev) {
    auto diag = [](const toolchain::Diagnostic& d) {
        std::cout << "    " << d.file << ":" << d.line << ":" << d.column << ": " << toString(d.severity) << ": " << d.message
                  << "\n";
        for (const auto& n : d.notes)
            if (n.line) std::cout << "      note: " << n.file << ":" << n.line << ": " << n.message << "\n";
    };
    std::cout << "task " << ev.task << " on " << ev.device << ", kernel " << ev.kernel << "\n";
    std::cout << "compile  " << (ev.compile.ok ? "ok" : "FAILED") << " (" << std::fixed << std::setprecision(2)
              << ev.compile.seconds << " s" << (ev.compile.cached ? ", cached" : "") << ")\n";
    for (const auto& d : ev.compile.diagnostics) diag(d);
    std::cout << "run      " << toString(ev.run.status) << " (" << ev.run.runs.size() << " runs, " << ev.run.seconds << " s)"
              << (ev.run.message.empty() ? "" : ": " + ev.run.message) << "\n";
    for (const auto& d : ev.run.diagnostics) diag(d);
    if (ev.verify.ran) {
        std::cout << "verify   " << (ev.verify.pass ? "PASS" : "FAIL") << " (" << ev.verify.cases.size()
                  << " case x seed runs)\n";
        for (const auto& c : ev.verify.cases)
            for (const auto& o : c.outputs)
                if (!o.pass) std::cout << "    " << c.caseName << "/seed" << c.seed << ": " << o.reason << "\n";
    }
    if (ev.profile.present) {
        const auto& p = ev.profile;
        std::cout << "profile  " << p.caseName << " case: " << p.totalCycles << " cycles (" << p.timeUs << " us) on "
                  << p.coresUsed << " cores; roofline " << p.rooflineCycles << " cycles, fraction "
                  << std::setprecision(3) << p.rooflineFraction << "\n";
        std::cout << "         bottleneck " << p.bottleneck << ": " << p.advice << "\n         ";
        for (const auto& [k, v] : p.pipeRatios) std::cout << k << " " << std::setprecision(2) << v << "  ";
        std::cout << "memory_bound " << p.memoryBound << "\n";
        std::cout << "         hot lines:";
        for (size_t i = 0; i < p.lines.size() && i < 5; ++i)
            std::cout << " " << p.lines[i].line << " (" << p.lines[i].cycles << " cyc)";
        std::cout << "\n";
    }
    std::cout << (ev.success() ? "RESULT: PASS" : "RESULT: FAIL") << " (" << std::setprecision(2) << ev.seconds
              << " s)\n";
}

} // namespace

void registerEvalCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("eval", "Compile, run, verify and profile a kernel on a task");
    auto o = std::make_shared<EvalOptions>();
    o->tasks.add(cmd);
    cmd->add_option("--task", o->task, "Task name (see `sage tasks`)")->required();
    cmd->add_option("--kernel", o->kernel, "Kernel source file (default: the task's baseline.cpp)");
    cmd->add_option("--device", o->device, "Device profile id (see `sage devices`)");
    cmd->add_option("--trace", o->trace, "Write a Chrome-trace JSON of the perf case (opens in Perfetto)");
    cmd->add_option("--csv", o->csv, "Write an op_summary-like CSV");
    cmd->add_option("--seeds", o->seeds, "Input seeds verified per case (default 3)");
    cmd->add_option("--timeout", o->timeout, "Wall-clock limit of the run in seconds (default 60)");
    cmd->add_flag("--json", o->json, "Print the evaluation as JSON");
    cmd->callback([o] {
        auto set = o->tasks.load();
        const auto& task = o->tasks.find(set, o->task);
        eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
        try {
            evaluator.devices().get(o->device);
        } catch (const std::exception& e) {
            std::cerr << "sage: error: " << e.what() << "\n";
            throw CLI::RuntimeError(2);
        }
        const OutputFile trace = OutputFile::prepare(o->trace, "--trace");
        const OutputFile csv = OutputFile::prepare(o->csv, "--csv");
        eval::EvalRequest req;
        req.source = o->kernel.empty() ? task.baselineSource : readKernel(o->kernel);
        req.kernelName = o->kernel.empty() ? "baseline.cpp" : std::filesystem::path(o->kernel).filename().string();
        req.deviceId = o->device;
        req.seeds = o->seeds;
        req.timeoutSeconds = o->timeout;
        eval::Evaluation ev = evaluator.evaluate(task, req);
        if (!o->trace.empty()) {
            trace.write(eval::chromeTrace(ev).dump());
            if (!o->json) std::cout << "trace written to " << o->trace << "\n";
        }
        csv.write(eval::opSummaryCsv(ev));
        if (o->json) std::cout << ev.toJson().dump(2) << "\n";
        else printHuman(ev);
        if (!ev.success()) throw CLI::RuntimeError(1);
    });
}

} // namespace sage::cli
