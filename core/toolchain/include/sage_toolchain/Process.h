// Runs a program in a child process with resource limits, its own process group, a wall-clock
// timeout that kills the whole group, no stdin, and bounded capture of stdout/stderr.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::toolchain {

struct ProcessLimits {
    uint64_t addressSpaceBytes = 0;  // RLIMIT_AS; 0 = unlimited
    uint64_t cpuSeconds = 0;         // RLIMIT_CPU
    uint64_t fileSizeBytes = 0;      // RLIMIT_FSIZE
    uint64_t maxProcesses = 0;       // RLIMIT_NPROC (not enforced for root by the kernel)
};

struct ProcessSpec {
    std::vector<std::string> argv;
    std::string workDir;            // the child's cwd; stdout/stderr are captured into files here
    std::vector<std::string> env;   // extra NAME=VALUE entries
    double timeoutSeconds = 60;
    ProcessLimits limits;
    bool isolateNetwork = false;    // new network namespace when the system permits it
    size_t captureLimit = 1 << 20;  // bytes kept of each of stdout and stderr
    const std::atomic<bool>* cancel = nullptr;
};

struct ProcessResult {
    bool started = false;
    int exitCode = -1;     // when exited normally
    int signal = 0;        // when killed by a signal
    bool timedOut = false;
    bool cancelled = false;
    bool networkIsolated = false;
    double wallSeconds = 0;
    std::string out, err;
    std::string startError;
};

ProcessResult runProcess(const ProcessSpec& spec);
std::string signalName(int sig);

} // namespace sage::toolchain
