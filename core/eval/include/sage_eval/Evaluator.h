// The one evaluation pipeline: check -> compile -> run (sandboxed) -> verify -> profile.
// Used the same way by the CLI, the workbench and the agent. Thread-safe: evaluate() may be
// called from several threads (each call uses its own sandbox directory).
#pragma once

#include "sage_eval/Evaluation.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/Blob.h"
#include "sage_toolchain/Sandbox.h"

#include <atomic>
#include <map>
#include <optional>
#include <memory>
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
    bool compileOnly = false;        // check and compile, then return (run.status stays NotRun)
    size_t runProcesses = 0;         // sandboxed runner processes for the case x seed runs (0: one per core)
    bool reuseRuns = true;           // reuse the cached result of an identical (binary, inputs, device) run
    // An op project (`sage op`, OpProject.h): the prelude that stands for the real build's
    // generated files (replaces the task's), include folders of the project, the local headers
    // the source policy allows, and per case the launch its own host tiling computed.
    std::optional<std::string> prelude;
    std::vector<std::string> extraFlags;
    std::vector<std::string> localHeaders;
    // The project files the real build stages next to the kernel (toolchain::CompileRequest::staged).
    std::vector<toolchain::StagedFile> staged;
    std::string stagedDir;
    std::map<std::string, nlohmann::json> caseLaunch;
};

// A task's reference checked on its own (`sage tasks --check`): it compiles, runs on every case
// with the task's first seed, and every output is finite and, where it has more than one element,
// not constant (a reference that ignores its inputs would make every kernel look right or wrong).
struct ReferenceCheck {
    bool ok = false;
    std::string problem;  // what failed and where ("case 'tail', output 'y': NaN at element 12")
};

class Evaluator {
public:
    Evaluator(toolchain::ToolPaths paths, toolchain::DeviceCatalog devices);
    static Evaluator fromEnvironment();  // build-time paths, resources/devices
    Evaluation evaluate(const Task& task, const EvalRequest& req) const;
    // Compiles what evaluate(task, req) would compile, into the compile cache, and nothing else:
    // a later evaluate() of the same source then starts from a cache hit. Best effort (a source
    // the policy rejects or that does not compile only leaves its cached diagnostics); returns
    // whether a binary is now cached. The agent uses it on the core a compile leaves idle: it
    // runs at the lowest CPU priority and stops when req.cancel becomes true.
    bool precompile(const Task& task, const EvalRequest& req) const;
    ReferenceCheck checkReference(const Task& task, const EvalRequest& req) const;
    const toolchain::DeviceCatalog& devices() const { return devices_; }
    const toolchain::ToolPaths& paths() const { return paths_; }

private:
    // Reference outputs per (case, seed) and output name, stored in each output's dtype, computed
    // once and cached on disk (raw little-endian files, memory-mapped when read back).
    using RefKey = std::pair<std::string, uint64_t>;
    using Tensors = std::map<std::string, toolchain::Blob>;
    std::map<RefKey, Tensors> references(const Task& task, const std::vector<RefKey>& runs, const EvalRequest& req,
                                         const std::atomic<bool>& stop, std::string& error) const;
    // Runs the kernel on every input, reusing cached results; outputs per run.
    toolchain::SandboxReport runKernel(const toolchain::CompileResult& compiled, const toolchain::RunJob& job,
                                       const std::vector<toolchain::SandboxInput>& inputs, const EvalRequest& req,
                                       std::vector<Tensors>& outputs) const;
    const std::string& runtimeDigest() const;  // libsage_npu.so + sage-runner, hashed once
    nlohmann::json deviceJson(const std::string& id) const;  // the device profile's JSON file
    // A CANN Bench task (Task::bench): its golden, one binary per case variant, its criterion
    // (EvaluatorGolden.cpp). `ev` holds what evaluate() filled before it branched.
    Evaluation evaluateWithGolden(const Task& task, const EvalRequest& req, Evaluation ev) const;
    toolchain::CompileRequest compileRequest(const Task& task, const EvalRequest& req) const;

    // Inputs are generated once per (task, case, seed, tensor) and kept in the cache directory.
    std::string inputFile(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) const;
    toolchain::SandboxInput sandboxInput(const Task& task, const TaskCase& c, uint64_t seed) const;

    toolchain::ToolPaths paths_;
    toolchain::DeviceCatalog devices_;
    toolchain::Compiler compiler_;
    toolchain::Sandbox sandbox_;
    struct Lazy;
    std::shared_ptr<Lazy> lazy_;
};

} // namespace sage::eval
