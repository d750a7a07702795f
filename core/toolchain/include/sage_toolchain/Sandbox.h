// Runs a job in the sandboxed runner process: a private temporary directory, resource limits,
// a wall-clock timeout that kills the whole process group, no stdin, a fresh network namespace
// when permitted, and seccomp inside. A crashing or hanging kernel never harms the caller.
#pragma once

#include "Process.h"
#include "RunJob.h"
#include "ToolPaths.h"

#include <atomic>
#include <map>
#include <string>
#include <vector>

namespace sage::toolchain {

struct SandboxOptions {
    double timeoutSeconds = 60;
    uint64_t addressSpaceBytes = 8ull << 30;
    // The memory of the runner's whole tree, where a cgroup v2 group can be made (ProcessCgroup);
    // elsewhere addressSpaceBytes alone bounds it.
    uint64_t memoryBytes = 4ull << 30;
    uint64_t fileSizeBytes = 2ull << 30;
    const std::atomic<bool>* cancel = nullptr;
    // An existing directory of the caller's: each run's output files are moved there (under
    // names unique to this run) instead of being deleted with the private directory, so that the
    // caller can link them into a cache without copying tens of MB. On another filesystem (the
    // move fails) the outputs stay mapped from the deleted files, as when this is empty.
    std::string keepOutputsIn;
};

struct SandboxInput {
    RunSpec spec;  // tensor files are names relative to the sandbox directory (set by the caller or defaulted)
    std::map<std::string, std::vector<uint8_t>> inputs;  // raw bytes per input tensor, or:
    std::map<std::string, std::string> inputFiles;       // an existing file per input tensor (read in place)
};

struct SandboxReport {
    std::vector<RunResult> runs;
    bool networkIsolated = false;
    double seconds = 0;
    std::string stderrTail;  // the runner's stderr (bounded), for crash reports
    // How the run's memory was bounded: "cgroup" (memory.max of its group) or "rlimit"
    // (RLIMIT_AS only; cgroupUnavailable says why).
    std::string memoryLimit, cgroupUnavailable;
};

class Sandbox {
public:
    explicit Sandbox(ToolPaths paths) : paths_(std::move(paths)) {}
    // job.runs is replaced by the specs of `inputs`; outputs come back as Blobs mapping the
    // runner's files (no copy; see SandboxOptions::keepOutputsIn).
    SandboxReport run(RunJob job, const std::vector<SandboxInput>& inputs, const SandboxOptions& opts) const;

private:
    ToolPaths paths_;
};

} // namespace sage::toolchain
