#include "sage_toolchain/Process.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sched.h>
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
    a.insert(a.end(), {"--dev", "/dev", "--tmpfs", "/tmp"});
    if (spec.confine.procfs) a.insert(a.end(), {"--proc", "/proc"});
    for (const auto& p : spec.confine.readOnly) a.insert(a.end(), {"--ro-bind-try", p, p});
    for (const auto& p : spec.confine.writable) a.insert(a.end(), {"--bind", p, p});
    if (!spec.workDir.empty()) a.insert(a.end(), {"--chdir", spec.workDir});
    a.push_back("--");
    a.insert(a.end(), spec.argv.begin(), spec.argv.end());
    return a;
}

} // namespace

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
    std::vector<char*> argv;
    for (const auto& a : argStore) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The inherited environment (unless confined: then PATH and LANG only), with spec.env's
    // NAME=VALUE entries replacing same-named ones.
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
    std::vector<char*> envp;
    for (auto& e : envStore) envp.push_back(e.data());
    envp.push_back(nullptr);
    int errPipe[2];
    if (pipe2(errPipe, O_CLOEXEC) != 0) {
        r.startError = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid < 0) {
        r.startError = std::string("fork: ") + std::strerror(errno);
        close(errPipe[0]);
        close(errPipe[1]);
        return r;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int netOk = 0;
        if (confine) netOk = 1;  // bwrap --unshare-all
        else if (spec.isolateNetwork && unshare(CLONE_NEWNET) == 0) netOk = 1;
        setLimit(RLIMIT_AS, spec.limits.addressSpaceBytes);
        setLimit(RLIMIT_CPU, spec.limits.cpuSeconds);
        setLimit(RLIMIT_FSIZE, spec.limits.fileSizeBytes);
        setLimit(RLIMIT_NPROC, spec.limits.maxProcesses);
        setLimit(RLIMIT_CORE, 1);  // no core dumps from crashing kernels
        if (!spec.workDir.empty() && chdir(spec.workDir.c_str()) != 0) _exit(126);
        int in = open("/dev/null", O_RDONLY);
        int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || err < 0) _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        if (write(errPipe[1], &netOk, sizeof netOk) < 0) _exit(126);
        execve(argv[0], argv.data(), envp.data());
        int e = errno;
        if (write(errPipe[1], &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    close(errPipe[1]);
    int netOk = 0, execErr = 0;
    if (read(errPipe[0], &netOk, sizeof netOk) == sizeof netOk) r.networkIsolated = netOk == 1;
    if (read(errPipe[0], &execErr, sizeof execErr) == sizeof execErr) {
        r.startError = "cannot run " + spec.argv[0] + ": " + std::strerror(execErr);
    }
    close(errPipe[0]);
    r.started = r.startError.empty();
    int status = 0;
    auto sleep = std::chrono::microseconds(200);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        bool cancel = spec.cancel && spec.cancel->load();
        if (elapsed > spec.timeoutSeconds || cancel) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.timedOut = !cancel;
            r.cancelled = cancel;
            break;
        }
        std::this_thread::sleep_for(sleep);
        if (sleep < std::chrono::milliseconds(10)) sleep *= 2;
    }
    kill(-pid, SIGKILL);  // anything the child left behind in its group
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = readBounded(outPath, spec.captureLimit);
    r.err = readBounded(errPath, spec.captureLimit);
    r.confined = confine;
    if (confine && r.exitCode > 128 && r.exitCode < 128 + 65) {  // bwrap reports a child's signal as 128 + n
        r.signal = r.exitCode - 128;
        r.exitCode = -1;
    }
    if (confine && r.exitCode == 1 && r.err.rfind("bwrap: ", 0) == 0) {
        r.started = false;
        const std::string why = r.err.substr(7, r.err.find('\n') - 7);
        const bool namespaces = why.find("namespace") != std::string::npos || why.find("uid map") != std::string::npos ||
                                why.find("not permitted") != std::string::npos;
        r.startError = "the sandbox (bubblewrap) could not start " + spec.argv[0] + ": " + why +
                       (namespaces ? ". It needs user namespaces: run as root, or enable them for users "
                                     "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0); in a "
                                     "container, allow unshare/clone of namespaces in its seccomp profile"
                                   : "");
    }
    unlink(outPath.c_str());
    unlink(errPath.c_str());
    return r;
}

} // namespace sage::toolchain
