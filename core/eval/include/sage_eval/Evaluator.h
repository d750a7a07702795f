// The one evaluation pipeline: check -> compile -> run (sandboxed) -> verify -> profile.
// Used the same way by the CLI, the workbench and the agent. Thread-safe: evaluate() may be
// called from several threads (each call uses its own sandbox directory).
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/Sandbox.h"

#include <atomic>
#include <mutex>

namespace sage::eval {

struct EvalRequest {
    std::string source;
    std::string kernelName = "kernel.cpp";  // how diagnostics name the file
    std::string deviceId = toolchain::DeviceCatalog::kDefaultDevice;
    size_t seeds = 3;                // how many of the task's seeds to verify (at least 1)
    bool profile = true;
    double timeoutSeconds = 60;
    size_t maxEvents = 2'000'000;
    const std::atomic<bool>* cancel = nullptr;
    bool compileOnly = false;        // check and compile, then return (run.status stays "not_run")
};

class Evaluator {
public:
    Evaluator(toolchain::ToolPaths paths, toolchain::DeviceCatalog devices);
    static Evaluator fromEnvironment();  // build-time paths, resources/devices
    Evaluation evaluate(const Task& task, const EvalRequest& req) const;
    const toolchain::DeviceCatalog& devices() const { return devices_; }
    const toolchain::ToolPaths& paths() const { return paths_; }

private:
    // Reference outputs per (case, seed), already cast to each output's dtype, and output name, computed once and cached on disk.
    using RefKey = std::pair<std::string, uint64_t>;
    std::map<RefKey, std::map<std::string, std::vector<double>>> references(
        const Task& task, const std::vector<RefKey>& runs, const EvalRequest& req, std::string& error) const;

    // Inputs are generated once per (task, case, seed, tensor) and kept in the cache directory.
    std::string inputFile(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) const;
    toolchain::SandboxInput sandboxInput(const Task& task, const TaskCase& c, uint64_t seed) const;

    toolchain::ToolPaths paths_;
    toolchain::DeviceCatalog devices_;
    toolchain::Compiler compiler_;
    toolchain::Sandbox sandbox_;
};

} // namespace sage::eval
