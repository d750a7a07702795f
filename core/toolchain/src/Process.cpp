#include "sage_toolchain/Process.h"

#include "sage_config.h"
#include "sage_toolchain/ProcessCgroup.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace sage::toolchain {
namespace {

std::string readBounded(const std::string& path, size_t limit) {
    std::ifstream in(path, std::ios::binary);
    std::string s(limit, '\0');
    in.read(s.data(), std::streamsize(limit));
    s.resize(size_t(in.gcount()));
    if (in.peek() != EOF) s += "\n[output truncated]";
    return s;
}

void setLimit(int resource, uint64_t value) {
    if (value == 0) return;
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = value;
    setrlimit(resource, &rl);
}

// The bwrap command line that confines spec.argv (see Confinement in Process.h).
std::vector<std::string> confinedArgv(const ProcessSpec& spec, const std::string& bwrap) {
    namespace fs = std::filesystem;
    std::vector<std::string> a = {bwrap, "--unshare-all", "--uid", "65534", "--gid", "65534", "--die-with-parent",
                                  "--new-session", "--cap-drop", "ALL", "--ro-bind", "/usr", "/usr"};
    // Merged-/usr systems link /lib, /bin... into /usr; others get them bound read-only.
    for (const char* top : {"/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"}) {
        std::error_code ec;
        if (fs::is_symlink(top, ec)) a.insert(a.end(), {"--symlink", fs::read_symlink(top, ec).string(), top});
        else if (fs::is_directory(top, ec)) a.insert(a.end(), {"--ro-bind", top, top});
    }
    a.insert(a.end(), {"--dev", "/dev", "--size", std::to_string(spec.confine.tmpBytes), "--tmpfs", "/tmp"});
    if (spec.confine.procfs) a.insert(a.end(), {"--proc", "/proc"});
    for (const auto& p : spec.confine.readOnly) a.insert(a.end(), {"--ro-bind-try", p, p});
    for (const auto& p : spec.confine.writable) a.insert(a.end(), {"--bind", p, p});
    if (!spec.workDir.empty()) a.insert(a.end(), {"--chdir", spec.workDir});
    a.push_back("--");
    a.insert(a.end(), spec.argv.begin(), spec.argv.end());
    return a;
}

// What the child of runProcess needs, all prepared before the clone: the child may only make
// system calls (it runs on the parent's memory until execve).
struct ChildSetup {
    const ProcessSpec* spec;
    bool confine;
    const char* outPath;
    const char* errPath;
    char* const* argv;
    char* const* envp;
    int errPipe;
    int cgroupProcs;  // the group's cgroup.procs, or -1
    sigset_t callerMask;
};

int startChild(void* arg) {
    const auto& c = *static_cast<const ChildSetup*>(arg);
    const ProcessSpec& spec = *c.spec;
    // Default dispositions before unblocking: a handler of the parent must not run here.
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction sa {};
        if (sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL) {
            sa.sa_handler = SIG_DFL;
            sa.sa_flags = 0;
            sigaction(sig, &sa, nullptr);
        }
    }
    sigprocmask(SIG_SETMASK, &c.callerMask, nullptr);
    setpgid(0, 0);
    int netOk = 0;  // bit 0: network isolated; bit 1: in the cgroup
    if (c.confine) netOk = 1;  // bwrap --unshare-all
    else if (spec.isolateNetwork && unshare(CLONE_NEWNET) == 0) netOk = 1;
    // Into the group before exec, so that nothing of the tree ever runs outside it.
    if (c.cgroupProcs >= 0 && write(c.cgroupProcs, "0", 1) == 1) netOk |= 2;
    setLimit(RLIMIT_AS, spec.limits.addressSpaceBytes);
    setLimit(RLIMIT_CPU, spec.limits.cpuSeconds);
    setLimit(RLIMIT_FSIZE, spec.limits.fileSizeBytes);
    setLimit(RLIMIT_NPROC, spec.limits.maxProcesses);
    setLimit(RLIMIT_CORE, 1);  // no core dumps from crashing kernels
    if (spec.niceness > 0) setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + spec.niceness);
    if (!spec.workDir.empty() && chdir(spec.workDir.c_str()) != 0) _exit(126);
    int in = open("/dev/null", O_RDONLY);
    int out = open(c.outPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(c.errPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (write(c.errPipe, &netOk, sizeof netOk) < 0) _exit(126);
    keepOnlyStandardDescriptors();  // errPipe is close-on-exec already
    execve(c.argv[0], c.argv, c.envp);
    int e = errno;
    if (write(c.errPipe, &e, sizeof e) < 0) _exit(127);
    _exit(127);
}

// Waits for pid until it exits, the timeout passes or *cancel is set. The exit wakes the wait at
// once through a pidfd (polling with sleeps added up to 13 ms to every process: about 5 % of an
// agent bench); cancellation is checked every 20 ms. Returns false on timeout or cancel.
bool awaitExit(pid_t pid, int& status, double timeoutSeconds, const std::atomic<bool>* cancel,
               std::chrono::steady_clock::time_point t0) {
    auto remaining = [&] {
        return timeoutSeconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const int pidfd = int(syscall(SYS_pidfd_open, pid, 0));  // glibc 2.36 declares pidfd_open without C linkage
    auto sleep = std::chrono::microseconds(200);
    bool exited = false;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            break;
        }
        const double left = remaining();
        if (left <= 0 || (cancel && cancel->load())) break;
        if (pidfd >= 0) {
            struct pollfd p {pidfd, POLLIN, 0};
            const int slice = int(std::min(left * 1000.0 + 1.0, cancel ? 20.0 : 1000.0));
            poll(&p, 1, slice);
        } else {  // no pidfd (a kernel before 5.3): poll the child with growing sleeps
            std::this_thread::sleep_for(sleep);
            if (sleep < std::chrono::milliseconds(10)) sleep *= 2;
        }
    }
    if (pidfd >= 0) close(pidfd);
    return exited;
}

// The inherited environment (unless confined: then PATH and LANG only), with spec.env's
// NAME=VALUE entries replacing same-named ones.
std::vector<std::string> childEnvironment(const ProcessSpec& spec, bool confine) {
    auto nameOf = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
    std::vector<std::string> envStore;
    if (confine || !spec.inheritEnvironment) envStore = {"PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C"};
    for (char** e = environ; !confine && spec.inheritEnvironment && e && *e; ++e) {
        std::string kv(*e);
        bool overridden = false;
        for (const auto& x : spec.env) overridden |= nameOf(x) == nameOf(kv);
        if (!overridden) envStore.push_back(std::move(kv));
    }
    for (const auto& e : spec.env) {
        std::erase_if(envStore, [&](const std::string& kv) { return nameOf(kv) == nameOf(e); });
        envStore.push_back(e);
    }
    return envStore;
}

// The NULL-terminated array execve takes.
std::vector<char*> pointersTo(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Waits for the child (awaitExit); on timeout or cancel kills its process group. Returns the
// wait status and sets the wall time, timedOut and cancelled.
int awaitOrKill(pid_t pid, const ProcessSpec& spec, std::chrono::steady_clock::time_point t0, ProcessResult& r) {
    int status = 0;
    if (!awaitExit(pid, status, spec.timeoutSeconds, spec.cancel, t0)) {
        const bool cancel = spec.cancel && spec.cancel->load();
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        r.timedOut = !cancel;
        r.cancelled = cancel;
    }
    kill(-pid, SIGKILL);  // anything the child left behind in its group
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return status;
}

// bwrap itself failed (exit 1, "bwrap: ..." on stderr): the process never started.
void explainBubblewrapFailure(ProcessResult& r, const std::string& program) {
    r.started = false;
    const std::string why = r.err.substr(7, r.err.find('\n') - 7);
    const bool namespaces = why.find("namespace") != std::string::npos || why.find("uid map") != std::string::npos ||
                            why.find("not permitted") != std::string::npos;
    r.startError = "the sandbox (bubblewrap) could not start " + program + ": " + why +
                   (namespaces ? ". It needs user namespaces: run as root, or enable them for users "
                                 "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0); in a "
                                 "container, allow unshare/clone of namespaces in its seccomp profile"
                               : "");
}

} // namespace

void keepOnlyStandardDescriptors() {
    // One system call on Linux 5.11+; before that, every possible descriptor by hand (no
    // /proc walk: the caller may be a vfork child that must not allocate).
    if (syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC) == 0) return;
    struct rlimit rl {};
    const long top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? long(rl.rlim_cur) : 65536;
    for (long fd = 3; fd < std::min(top, 1l << 20); ++fd) {
        const int flags = fcntl(int(fd), F_GETFD);
        if (flags >= 0) fcntl(int(fd), F_SETFD, flags | FD_CLOEXEC);
    }
}

std::string bubblewrapPath() {
    if (const char* e = std::getenv("SAGE_BWRAP"); e && *e) return access(e, X_OK) == 0 ? e : "";
    if (const char* path = std::getenv("PATH")) {
        std::string p(path);
        for (size_t start = 0; start <= p.size();) {
            size_t end = p.find(':', start);
            if (end == std::string::npos) end = p.size();
            std::string cand = p.substr(start, end - start) + "/bwrap";
            if (end > start && access(cand.c_str(), X_OK) == 0) return cand;
            start = end + 1;
        }
    }
    return access("/usr/bin/bwrap", X_OK) == 0 ? "/usr/bin/bwrap" : "";
}

std::string signalName(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGTERM: return "SIGTERM";
    case SIGSYS: return "SIGSYS";
    default: return "signal " + std::to_string(sig);
    }
}

ProcessResult runProcess(const ProcessSpec& spec) {
    ProcessResult r;
    if (spec.argv.empty()) {
        r.startError = "no program given";
        return r;
    }
    const std::string outPath = spec.workDir + "/.stdout", errPath = spec.workDir + "/.stderr";
    // Everything the child needs is prepared before fork: after fork only syscalls are safe.
    std::vector<std::string> argStore = spec.argv;
    const bool confine = spec.confine.enabled;
    if (confine) {
        const std::string bwrap = bubblewrapPath();
        if (bwrap.empty()) {
            r.startError = "the sandbox needs bubblewrap (bwrap), which is not installed: install the Debian package "
                           "'bubblewrap' (scripts/install-deps.sh) or set SAGE_BWRAP to its path";
            return r;
        }
        argStore = confinedArgv(spec, bwrap);
    }
    std::vector<std::string> envStore = childEnvironment(spec, confine);
    std::vector<char*> argv = pointersTo(argStore), envp = pointersTo(envStore);
    int errPipe[2];
    if (pipe2(errPipe, O_CLOEXEC) != 0) {
        r.startError = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    std::unique_ptr<ProcessCgroup> group;
    if (spec.limits.groupMemoryBytes)
        group = ProcessCgroup::create(spec.limits.groupMemoryBytes, spec.limits.groupProcesses, r.cgroupUnavailable);
    ChildSetup setup{&spec, confine, outPath.c_str(), errPath.c_str(), argv.data(), envp.data(), errPipe[1],
                     group ? group->procsDescriptor() : -1, {}};
    // The child shares the parent's memory until it execs (CLONE_VM | CLONE_VFORK, as posix_spawn
    // does): a fork would copy the page tables of a process that holds hundreds of MB of tensors,
    // and every later write of the parent would then fault a page copy. Signals stay blocked until
    // the child has restored the caller's mask, so no handler runs on the shared memory.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &setup.callerMask);
    auto t0 = std::chrono::steady_clock::now();
#if SAGE_SANITIZED
    // Sanitizer runtimes do not support instrumented code in a child that shares their memory.
    pid_t pid = fork();
    if (pid == 0) startChild(&setup);
#else
    std::vector<char> childStack(64 * 1024);
    pid_t pid = clone(startChild, childStack.data() + childStack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, &setup);
#endif
    const int cloneErrno = errno;
    pthread_sigmask(SIG_SETMASK, &setup.callerMask, nullptr);
    if (pid < 0) {
        r.startError = std::string("clone: ") + std::strerror(cloneErrno);
        close(errPipe[0]);
        close(errPipe[1]);
        return r;
    }
    close(errPipe[1]);
    int netOk = 0, execErr = 0;
    if (read(errPipe[0], &netOk, sizeof netOk) == sizeof netOk) r.networkIsolated = (netOk & 1) != 0;
    if (spec.limits.groupMemoryBytes) r.memoryLimit = (netOk & 2) ? "cgroup" : "rlimit";
    if (group && !(netOk & 2)) r.cgroupUnavailable = "the child could not move itself into " + group->path();
    if (read(errPipe[0], &execErr, sizeof execErr) == sizeof execErr) {
        r.startError = "cannot run " + spec.argv[0] + ": " + std::strerror(execErr);
    }
    close(errPipe[0]);
    r.started = r.startError.empty();
    const int status = awaitOrKill(pid, spec, t0, r);
    r.memoryLimitHit = group && (netOk & 2) && group->memoryLimitHit();
    group.reset();  // whatever the tree left behind is killed with its group
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = readBounded(outPath, spec.captureLimit);
    r.err = readBounded(errPath, spec.captureLimit);
    r.confined = confine;
    if (confine && r.exitCode > 128 && r.exitCode < 128 + 65) {  // bwrap reports a child's signal as 128 + n
        r.signal = r.exitCode - 128;
        r.exitCode = -1;
    }
    if (confine && r.exitCode == 1 && r.err.rfind("bwrap: ", 0) == 0) explainBubblewrapFailure(r, spec.argv[0]);
    unlink(outPath.c_str());
    unlink(errPath.c_str());
    return r;
}

} // namespace sage::toolchain
