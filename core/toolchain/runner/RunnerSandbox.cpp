#include "RunnerSandbox.h"

#include "sage_config.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <stdexcept>
#include <unistd.h>

namespace sage::runner {
namespace {

std::map<std::string, int>& files() {
    static std::map<std::string, int> f;
    return f;
}

void openOne(const std::string& path, bool write) {
    if (files().count(path)) return;
    int fd = write ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
                   : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    files()[path] = fd;
}

// Async-signal-safe: formats the number by hand and writes with write(2) only. A SIGSYS the
// kernel raised itself (kill, tgkill) is no violation: it ends the run with its own exit code.
void onBlockedSyscall(int, siginfo_t* info, void*) {
    constexpr int kSeccompCode = 1;  // SYS_SECCOMP (asm-generic/siginfo.h): raised by the filter itself
    if (info->si_code != kSeccompCode) exitNow(kSelfRaisedSigsysExit);
    char buf[96] = "sage-runner: sandbox violation: syscall ";
    size_t n = std::strlen(buf);
    char digits[16];
    int d = 0;
    unsigned v = unsigned(info->si_syscall);
    do digits[d++] = char('0' + v % 10);
    while ((v /= 10) && d < 15);
    while (d) buf[n++] = digits[--d];
    buf[n++] = '\n';
    ssize_t ignored = ::write(2, buf, n);
    (void)ignored;
    exitNow(kViolationExit);
}

} // namespace

void exitNow(int code) {
    for (;;) {
#if defined(__x86_64__)
        long ignored;
        __asm__ volatile("syscall" : "=a"(ignored) : "a"(long(SYS_exit_group)), "D"(long(code)) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
        register long x8 __asm__("x8") = SYS_exit_group;
        register long x0 __asm__("x0") = code;
        __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8) : "memory");
#else
        ::syscall(SYS_exit_group, code);
#endif
    }
}

void openJobFiles(const toolchain::RunJob& job) {
    for (size_t i = 0; i < job.runs.size(); ++i) {
        for (const auto& t : job.runs[i].tensors) openOne(t.file, t.output);
        openOne("result_" + std::to_string(i) + ".json", true);
    }
}

int jobFile(const std::string& path) {
    auto it = files().find(path);
    if (it == files().end()) throw std::runtime_error("the job declares no file " + path);
    return it->second;
}

void readJobFileInto(const std::string& path, void* dst, uint64_t expected) {
    int fd = jobFile(path);
    auto* p = static_cast<uint8_t*>(dst);
    uint64_t got = 0;
    while (got < expected) {
        ssize_t r = ::pread(fd, p + got, size_t(expected - got), off_t(got));
        if (r <= 0) break;
        got += uint64_t(r);
    }
    if (got != expected)
        throw std::runtime_error("input file " + path + " holds fewer than the " + std::to_string(expected) +
                                 " bytes expected");
}

std::vector<uint8_t> readJobFile(const std::string& path, uint64_t expected) {
    std::vector<uint8_t> data(expected);
    readJobFileInto(path, data.data(), expected);
    return data;
}

void writeJobFile(const std::string& path, const void* data, size_t n) {
    int fd = jobFile(path);
    const char* p = static_cast<const char*>(data);
    size_t done = 0;
    while (done < n) {
        ssize_t w = ::pwrite(fd, p + done, n - done, off_t(done));
        if (w <= 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        done += size_t(w);
    }
    if (::ftruncate(fd, off_t(n)) != 0) throw std::runtime_error("cannot truncate " + path);
    ::close(fd);
    files().erase(path);
}

bool installFilter(FilterStage stage, std::string& error) {
    // Once, before the first filter: afterwards the filter itself forbids touching SIGSYS.
    static bool handlerInstalled = false;
    struct sigaction sa {};
    sa.sa_sigaction = onBlockedSyscall;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (!handlerInstalled && sigaction(SIGSYS, &sa, nullptr) == 0) handlerInstalled = true;
    if (!handlerInstalled) {
        error = std::string("sigaction(SIGSYS): ") + std::strerror(errno);
        return false;
    }
    // Default deny: anything not listed traps into onBlockedSyscall.
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
    if (!ctx) {
        error = "seccomp_init failed";
        return false;
    }
    // Memory, time, signals to itself, I/O on descriptors it already holds: what the simulator,
    // libstdc++ and a kernel legitimately need. No open, no process or thread creation, no network.
    for (int sc : {SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(pread64), SCMP_SYS(pwrite64), SCMP_SYS(readv),
                   SCMP_SYS(writev), SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx),
                   SCMP_SYS(lseek), SCMP_SYS(ftruncate), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(madvise), SCMP_SYS(rt_sigreturn),
                   SCMP_SYS(rt_sigprocmask), SCMP_SYS(sigaltstack), SCMP_SYS(exit), SCMP_SYS(exit_group),
                   SCMP_SYS(futex), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(clock_gettime),
                   SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday),
                   SCMP_SYS(getrandom), SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(rseq),
                   SCMP_SYS(set_robust_list), SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid),
                   SCMP_SYS(getegid), SCMP_SYS(getcwd), SCMP_SYS(uname)})
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, sc, 0);  // a syscall missing on this architecture is skipped
    // Descriptor flags, but no duplicate of a job file that would outlive writeJobFile's close.
    for (int cmd : {F_GETFD, F_SETFD, F_GETFL, F_SETFL})
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, scmp_datum_t(cmd)));
    // Memory; executable only while the loader maps the candidate. Afterwards no page becomes
    // executable (W^X), so neither the runner's SIGSYS handler nor libc can be patched.
    if (stage == FilterStage::Loading || SAGE_SANITIZED) {
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 0);
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 0);
    } else {
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, scmp_datum_t(PROT_EXEC), 0));
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, scmp_datum_t(PROT_EXEC), 0));
    }
    // Signal handlers, except a kernel replacing the SIGSYS handler to hide a violation.
    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1, SCMP_A0(SCMP_CMP_NE, SIGSYS));
    // abort() and raise() signal the process itself; nothing else.
    const auto self = scmp_datum_t(getpid());
    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, self));
    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, self));
    // getrlimit through prlimit64 with no new limit.
    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, SCMP_A2(SCMP_CMP_EQ, 0));
    // isatty() probes of stdio: answer "not a terminal" instead of trapping.
    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0);
    // The dynamic loader opens the candidate read-only; nothing may be created or written. ASan's
    // runtime also reads /proc/self/maps at any time, so sanitized builds keep this in Running
    // too (the mount namespace still shows no /etc and no home; docs/security.md).
    if (SAGE_SANITIZED) {  // ASan probes memory with a pipe (IsAccessibleMemoryRange)
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pipe2), 0);
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pipe), 0);
    }
    if (stage == FilterStage::Loading || SAGE_SANITIZED) {
        const scmp_datum_t writeish = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, writeish, 0));
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, writeish, 0));
    }
    if (stage == FilterStage::Loading) {
        // Loading the Running filter on top (a further filter can only narrow what is allowed).
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 0);
        seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NO_NEW_PRIVS));
    }
    int rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        error = std::string("seccomp_load: ") + std::strerror(-rc);
        return false;
    }
    return true;
}

} // namespace sage::runner
