#include "sage_toolchain/ProcessCgroup.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace sage::toolchain {
namespace {

std::string readSmall(const std::string& path) {
    std::ifstream in(path);
    std::string s(4096, '\0');
    in.read(s.data(), std::streamsize(s.size()));
    s.resize(size_t(in.gcount()));
    return s;
}

// Writes a control file; the errno text on failure ("" on success).
std::string writeControl(const std::string& path, const std::string& value) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    const bool ok = ::write(fd, value.data(), value.size()) == ssize_t(value.size());
    const int e = errno;
    ::close(fd);
    return ok ? "" : std::strerror(e);
}

bool hasWord(const std::string& list, const std::string& word) {
    std::istringstream in(list);
    for (std::string w; in >> w;)
        if (w == word) return true;
    return false;
}

// The mount point and root of the first cgroup2 mount in /proc/self/mountinfo.
bool cgroup2Mount(std::string& mountPoint, std::string& root) {
    std::ifstream in("/proc/self/mountinfo");
    for (std::string line; std::getline(in, line);) {
        const size_t dash = line.find(" - ");
        if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) continue;
        std::istringstream fields(line.substr(0, dash));
        std::string id, parent, device;
        if (fields >> id >> parent >> device >> root >> mountPoint) return true;
    }
    return false;
}

// Makes `controller` available to the children of `group` (true when it already is).
bool enableForChildren(const std::string& group, const std::string& controller) {
    if (hasWord(readSmall(group + "/cgroup.subtree_control"), controller)) return true;
    return writeControl(group + "/cgroup.subtree_control", "+" + controller).empty();
}

} // namespace

std::string ProcessCgroup::ownGroup(std::string& why) {
    std::ifstream in("/proc/self/cgroup");
    std::string relative;
    for (std::string line; std::getline(in, line);)
        if (line.rfind("0::", 0) == 0) relative = line.substr(3);
    std::string mountPoint, root;
    if (relative.empty() || !cgroup2Mount(mountPoint, root)) {
        why = "the system has no cgroup v2 hierarchy for this process (cgroup v1 only)";
        return "";
    }
    if (root != "/" && relative.rfind(root, 0) == 0) relative.erase(0, root.size());
    if (relative == "/") relative.clear();
    return mountPoint + relative;
}

std::unique_ptr<ProcessCgroup> ProcessCgroup::create(uint64_t memoryBytes, uint64_t maxProcesses, std::string& why) {
    if (const char* off = std::getenv("SAGE_NO_CGROUP"); off && *off && std::string(off) != "0") {
        why = "SAGE_NO_CGROUP is set";
        return nullptr;
    }
    const std::string parent = ownGroup(why);
    if (parent.empty()) return nullptr;
    if (!hasWord(readSmall(parent + "/cgroup.controllers"), "memory")) {
        why = "the cgroup v2 group " + parent + " has no memory controller (it is bound to cgroup v1, or not delegated)";
        return nullptr;
    }
    if (!enableForChildren(parent, "memory")) {
        why = "cannot enable the memory controller below " + parent +
              " (not writable, or the group holds processes itself): start sage in a delegated cgroup, e.g. "
              "systemd-run --user --scope -p Delegate=yes";
        return nullptr;
    }
    const bool pids = enableForChildren(parent, "pids");
    static std::atomic<unsigned> serial{0};
    const std::string path = parent + "/sage-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
    if (::mkdir(path.c_str(), 0700) != 0) {
        why = "cannot create the cgroup " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    std::string error = writeControl(path + "/memory.max", std::to_string(memoryBytes));
    writeControl(path + "/memory.swap.max", "0");  // absent without swap accounting: memory.max still binds
    if (error.empty() && pids && maxProcesses) error = writeControl(path + "/pids.max", std::to_string(maxProcesses));
    const int procs = error.empty() ? ::open((path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC) : -1;
    if (procs < 0) {
        why = "cannot set up the cgroup " + path + ": " + (error.empty() ? std::strerror(errno) : error);
        ::rmdir(path.c_str());
        return nullptr;
    }
    return std::unique_ptr<ProcessCgroup>(new ProcessCgroup(path, procs, memoryBytes));
}

bool ProcessCgroup::memoryLimitHit() const {
    std::istringstream in(readSmall(path_ + "/memory.events"));
    for (std::string key; in >> key;) {
        uint64_t n = 0;
        in >> n;
        if (key == "oom_kill" && n > 0) return true;
    }
    return false;
}

ProcessCgroup::~ProcessCgroup() {
    ::close(procs_);
    // The tree is normally gone already (its pid namespace died with it); cgroup.kill (Linux
    // 5.14) ends anything left, then the group is removed once the kernel reports it empty.
    writeControl(path_ + "/cgroup.kill", "1");
    for (int attempt = 0; attempt < 200; ++attempt) {
        if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) return;
        if (errno != EBUSY) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

} // namespace sage::toolchain
