// Runs a program in a child process with resource limits, its own process group, a wall-clock
// timeout that kills the whole group, no stdin, and bounded capture of stdout/stderr; when
// `confine` is set, inside bubblewrap namespaces (see docs/security.md).
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
    uint64_t maxProcesses = 0;       // RLIMIT_NPROC (not enforced for root by the kernel: confine too)
    // A cgroup v2 group of the process and all its children (ProcessCgroup): memory.max and
    // pids.max, where cgroup v2 memory control is available; 0 = no group.
    uint64_t groupMemoryBytes = 0;
    uint64_t groupProcesses = 0;
};

// A bubblewrap confinement: new user, pid, mount, network, IPC and UTS namespaces, uid/gid 65534,
// no capabilities, a root holding only read-only /usr (and the /lib, /bin links), a minimal /dev,
// a private /tmp tmpfs, and the listed host paths bound at the same place. No /etc, no home.
// Everything in the pid namespace dies with the process (bwrap --die-with-parent + pid namespace).
struct Confinement {
    bool enabled = false;
    std::vector<std::string> readOnly;  // host paths bound read-only (missing ones are skipped)
    std::vector<std::string> writable;  // host paths bound read-write (the work directory)
    bool procfs = false;                // a /proc of the new pid namespace (sanitizer runtimes need it)
    uint64_t tmpBytes = 256ull << 20;   // size of the private /tmp (a tmpfs: it would fill the host's memory)
};

struct ProcessSpec {
    std::vector<std::string> argv;
    std::string workDir;            // the child's cwd; stdout/stderr are captured into files here
    std::vector<std::string> env;   // extra NAME=VALUE entries
    // Confined processes never inherit the caller's environment: they get PATH, LANG=C and `env`.
    bool inheritEnvironment = true;
    Confinement confine;
    double timeoutSeconds = 60;
    ProcessLimits limits;
    bool isolateNetwork = false;    // new network namespace when the system permits it
    size_t captureLimit = 1 << 20;  // bytes kept of each of stdout and stderr
    const std::atomic<bool>* cancel = nullptr;
    int niceness = 0;  // added to the caller's nice value (19: runs only on otherwise idle cores)
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
    bool confined = false;  // ran inside the bubblewrap namespaces
    // How memory was bounded: "cgroup" (groupMemoryBytes for the whole tree) or "rlimit"
    // (RLIMIT_AS per process; cgroupUnavailable says why no group), "" when no group was asked for.
    std::string memoryLimit;
    std::string cgroupUnavailable;
    bool memoryLimitHit = false;  // the group's OOM killer stopped a process
};

// Every child (compiler, runner, reference, host tiling) starts with only stdin, stdout and
// stderr: a descriptor the caller holds (a shell's `77>file`, a database, a socket) would
// otherwise reach the kernel, whose seccomp filter allows write(2) on any descriptor it has.
ProcessResult runProcess(const ProcessSpec& spec);
// Marks every descriptor from 3 up close-on-exec. Async-signal-safe: for a child between fork
// (or vfork) and exec.
void keepOnlyStandardDescriptors();
std::string signalName(int sig);
// The bubblewrap binary ($SAGE_BWRAP, else bwrap on PATH, else /usr/bin/bwrap); empty when absent.
std::string bubblewrapPath();

} // namespace sage::toolchain
