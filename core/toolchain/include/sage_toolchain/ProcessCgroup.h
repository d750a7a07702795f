// A cgroup v2 group of its own for one confined process tree (compiler, runner): memory.max bounds
// the memory of the whole tree (RLIMIT_AS bounds one process's address space only, and not at all
// in sanitized builds), pids.max its processes. Created under the caller's own cgroup where that
// is writable and has the memory controller (root, or a delegated cgroup such as a systemd
// `Delegate=yes` scope); elsewhere create() says why and the caller keeps its rlimits (the
// documented fallback, docs/security.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace sage::toolchain {

class ProcessCgroup {
public:
    // A new empty group with the given limits, or null with `why` set when cgroup v2 memory
    // control is not available to this process. SAGE_NO_CGROUP=1 forces the fallback.
    static std::unique_ptr<ProcessCgroup> create(uint64_t memoryBytes, uint64_t maxProcesses, std::string& why);
    // Kills what is left in the group and removes it.
    ~ProcessCgroup();
    ProcessCgroup(const ProcessCgroup&) = delete;
    ProcessCgroup& operator=(const ProcessCgroup&) = delete;

    // cgroup.procs, open for writing: a child writes "0" into it to move itself in before exec.
    int procsDescriptor() const { return procs_; }
    // Whether the kernel's OOM killer stopped a process of the group (memory.events oom_kill).
    bool memoryLimitHit() const;
    uint64_t memoryBytes() const { return memoryBytes_; }
    const std::string& path() const { return path_; }

    // The caller's own cgroup v2 folder ("" with `why` when the system has no cgroup v2 for it).
    static std::string ownGroup(std::string& why);

private:
    ProcessCgroup(std::string path, int procs, uint64_t memoryBytes) : path_(std::move(path)), procs_(procs), memoryBytes_(memoryBytes) {}
    std::string path_;
    int procs_ = -1;
    uint64_t memoryBytes_ = 0;
};

} // namespace sage::toolchain
