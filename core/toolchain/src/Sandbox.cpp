#include "sage_toolchain/Sandbox.h"

#include "sage_config.h"
#include "sage_json/BoundedJson.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/ProjectPaths.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <seccomp.h>
#include <sstream>

namespace sage::toolchain {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// "sage-runner: sandbox violation: syscall 257" -> "openat (syscall 257)". Only the last line
// counts: the runner's handler writes it and exits, so a line the kernel printed earlier to fake
// another name is never the last one.
std::string blockedSyscall(const std::string& err) {
    const std::string marker = "sage-runner: sandbox violation: syscall ";
    const size_t lastLine = err.rfind('\n', err.size() >= 2 ? err.size() - 2 : 0);
    const size_t at = lastLine == std::string::npos ? 0 : lastLine + 1;
    if (err.compare(at, marker.size(), marker) != 0) return "";
    int nr = std::atoi(err.c_str() + at + marker.size());
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    std::string out = (name ? std::string(name) : std::string("unknown")) + " (syscall " + std::to_string(nr) + ")";
    std::free(name);
    return out;
}

RunStatus failureStatus(const ProcessResult& pr, uint64_t memoryBytes, std::string& message, const std::string& err) {
    if (pr.exitCode == 4 || pr.signal == SIGSYS) {
        std::string sc = blockedSyscall(err);
        if (sc.empty() && pr.signal == SIGSYS) sc = "killed by SIGSYS while it blocked signals (creating a thread?)";
        message = "sandbox violation: the kernel made a system call the sandbox blocks" +
                  (sc.empty() ? std::string() : ": " + sc) +
                  ". Kernels may compute and use the simulator only: no files, processes, threads or network";
        return RunStatus::SandboxViolation;
    }
    if (pr.exitCode == 6) {
        message = "the kernel raised SIGSYS itself (no system call was blocked): a kernel may not signal itself";
        return RunStatus::Error;
    }
    if (pr.exitCode == 5) {
        message = "the sandbox could not install its seccomp filter, so the kernel was not run: " + err.substr(0, 2000);
        return RunStatus::Error;
    }
    if (pr.cancelled) {
        message = "cancelled";
        return RunStatus::Cancelled;
    }
    if (pr.timedOut || pr.signal == SIGXCPU) {
        message = "the run did not finish in time (wall-clock or CPU limit): an infinite loop or a hang?";
        return RunStatus::Timeout;
    }
    if (pr.memoryLimitHit) {
        message = "the run ran out of memory: it used more than the " + std::to_string(memoryBytes >> 20) +
                  " MiB its cgroup allows (memory.max) and was stopped";
        return RunStatus::Oom;
    }
    if (pr.exitCode == 3) {
        message = "the run ran out of memory (an allocation failed under the sandbox's address-space limit, RLIMIT_AS)";
        return RunStatus::Oom;
    }
    if (pr.signal) {
        message = "the kernel crashed with " + signalName(pr.signal) +
                  (pr.signal == SIGSEGV   ? " (invalid memory access: a null or wild pointer?)"
                   : pr.signal == SIGXFSZ ? " (a file grew past the job's limit: megabytes printed to stdout or stderr?)"
                                          : "");
        return RunStatus::Crash;
    }
    message = "the runner failed (exit " + std::to_string(pr.exitCode) + "): " + err.substr(0, 2000);
    return RunStatus::Error;
}

// The most a run's result JSON may hold: the figures and diagnostics, plus the timeline when the
// run records one (about 60 bytes per event, at most job.maxEvents). A larger file was written by
// the kernel and is refused before it is parsed (a 24 MiB document costs the host gigabytes).
uint64_t resultBytesBound(const RunJob& job, const RunSpec& run) {
    return (8ull << 20) + (run.timeline ? uint64_t(job.maxEvents) * 128 : 0);
}

// Which bound a failed allocation ran into, for the `oom` message the runner wrote.
std::string memoryBound(const ProcessResult& pr, const SandboxOptions& opts) {
    if (pr.memoryLimit == "cgroup")
        return ": the run's cgroup allows " + std::to_string(opts.memoryBytes >> 20) + " MiB (memory.max)";
    return ": the sandbox's address-space limit is " + std::to_string(opts.addressSpaceBytes >> 20) +
           " MiB (RLIMIT_AS; no cgroup: " + pr.cgroupUnavailable + ")";
}

uint64_t tensorBytes(const TensorSpec& t) { return elementCount(t.shape) * dtypeBytes(t.dtype); }

// The largest file the runner has to write for this job: no file of the job may grow beyond it.
uint64_t largestJobFile(const RunJob& job) {
    uint64_t most = 0;
    for (const auto& r : job.runs) {
        most = std::max(most, resultBytesBound(job, r));
        for (const auto& t : r.tensors)
            if (t.output) most = std::max(most, tensorBytes(t));
    }
    return most;
}

// The job's files live in a directory only this user can enter.
fs::path privateRunDirectory() {
    std::string tmpl = (fs::temp_directory_path() / "sage-run-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a private temporary directory in " +
                                                        fs::temp_directory_path().string());
    const fs::path dir = tmpl;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
    return dir;
}

// The job's runs from the inputs: every tensor gets a file name, input data is written to `dir`
// (or read in place from a cached input file).
void stageInputs(RunJob& job, const std::vector<SandboxInput>& inputs, const fs::path& dir) {
    job.runs.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
        RunSpec spec = inputs[i].spec;
        for (auto& t : spec.tensors) {
            if (t.file.empty()) t.file = (t.output ? "out_" : "in_") + std::to_string(i) + "_" + t.name + ".bin";
            if (!t.output && inputs[i].inputFiles.count(t.name)) {
                t.file = inputs[i].inputFiles.at(t.name);
            } else if (!t.output) {
                auto it = inputs[i].inputs.find(t.name);
                if (it == inputs[i].inputs.end()) throw std::runtime_error("no data for input tensor '" + t.name + "'");
                writeFile((dir / t.file).string(), it->second.data(), it->second.size());
            }
        }
        job.runs.push_back(spec);
    }
}

// The confined, limited runner process for `job` in `dir`.
ProcessSpec runnerSpec(const ToolPaths& paths, const RunJob& job, const fs::path& dir, const SandboxOptions& opts) {
    ProcessSpec ps;
    ps.argv = {paths.binDir + "/sage-runner", "job.json"};
    ps.workDir = dir.string();
    ps.timeoutSeconds = opts.timeoutSeconds;
    // ASan reserves terabytes of address space for its shadow; a limit would break sanitized builds.
    ps.limits.addressSpaceBytes = SAGE_SANITIZED ? 0 : opts.addressSpaceBytes;
    ps.limits.cpuSeconds = uint64_t(opts.timeoutSeconds) + 2;
    ps.limits.fileSizeBytes = std::min<uint64_t>(opts.fileSizeBytes, largestJobFile(job));
    ps.limits.maxProcesses = 256;
    ps.limits.groupMemoryBytes = opts.memoryBytes;
    ps.limits.groupProcesses = 64;  // tasks, threads included: bwrap and the runner (which may create none)
    ps.isolateNetwork = true;
    ps.cancel = opts.cancel;
    // Inside the namespaces the runner sees /usr, the runtime, the candidate and its inputs
    // read-only, and its own directory; /tmp is a private tmpfs. No caller environment.
    ps.confine.enabled = true;
    ps.confine.procfs = SAGE_SANITIZED;
    ps.confine.readOnly = {paths.binDir, paths.libDir, job.sharedObject};
    for (const auto& r : job.runs)
        for (const auto& t : r.tensors)
            if (!t.output && fs::path(t.file).is_absolute()) ps.confine.readOnly.push_back(t.file);
    ps.confine.writable = {dir.string()};
    ps.env = {"TMPDIR=/tmp"};
#if SAGE_SANITIZED
    // Let a kernel's crash end as a signal and a failed allocation return null (-> oom), as in
    // normal builds, instead of ASan reporting and exiting first.
    const char* asan = std::getenv("ASAN_OPTIONS");
    ps.env.push_back(std::string("ASAN_OPTIONS=") + (asan ? std::string(asan) + ":" : "") +
                     "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:allocator_may_return_null=1:detect_leaks=0");
#endif
    return ps;
}

// Status, message, figures and launches from a result file the runner wrote (and the kernel may
// have written into: bounded, parsed as hostile input, texts made printable).
void readResultFile(RunResult& r, const fs::path& resultPath, uint64_t resultSize, uint64_t bound) {
    try {
        if (resultSize > bound)
            throw std::runtime_error("it holds " + std::to_string(resultSize) + " bytes, more than the " +
                                     std::to_string(bound) + " a run's result may hold (the kernel wrote into it?)");
        auto bytes = readBinaryFile(resultPath.string());
        // The kernel can write into its result file: bounded like any outside JSON.
        json j = sage_json::parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "runner result");
        std::string unknown;
        r.status = runStatusFrom(j.value("status", "error"), &unknown);
        // The kernel chooses these texts (an exception's what(), an ASSERT message): one
        // line each, so none can forge a line of a text report ("RESULT: PASS").
        r.message = printable(j.value("message", ""));
        if (!unknown.empty()) r.message = printable(unknown) + ": " + r.message;
        r.seconds = j.value("seconds", 0.0);
        r.extra = j.value("extra", json());
        for (const auto& l : j.value("launches", json::array())) {
            r.launches.push_back(launchResultFromJson(l));
            for (auto& d : r.launches.back().diagnostics) d.message = printable(d.message);
        }
    } catch (const std::exception& e) {
        r.status = RunStatus::Error;
        r.message = std::string("unreadable runner result: ") + e.what();
    }
}

// The output tensors run `i` wrote, mapped (moved to opts.keepOutputsIn first when the caller
// keeps them); an output of the wrong size turns the run into an error.
void collectOutputs(RunResult& r, const RunSpec& run, size_t i, const fs::path& dir, const SandboxOptions& opts) {
    for (const auto& t : run.tensors) {
        fs::path file = dir / t.file;
        std::error_code outEc;
        if (!t.output || !fs::exists(file, outEc)) continue;
        const uint64_t size = fs::file_size(file, outEc);
        if (!outEc && size == 0) continue;  // never written: the run ended before its outputs
        if (outEc || size != tensorBytes(t)) {
            r.status = RunStatus::Error;
            r.message = "output '" + t.name + "' holds " + std::to_string(size) + " bytes instead of " +
                        std::to_string(tensorBytes(t)) + " (the kernel wrote into the runner's files?)";
            continue;
        }
        if (!opts.keepOutputsIn.empty()) {
            const fs::path kept = fs::path(opts.keepOutputsIn) / (dir.filename().string() + "." + std::to_string(i) + "." + t.name + ".bin");
            std::error_code mec;
            fs::rename(file, kept, mec);
            if (!mec) file = kept;
        }
        r.outputs[t.name] = Blob::map(file.string());
    }
}

} // namespace

SandboxReport Sandbox::run(RunJob job, const std::vector<SandboxInput>& inputs, const SandboxOptions& opts) const {
    auto t0 = std::chrono::steady_clock::now();
    SandboxReport report;
    const fs::path dir = privateRunDirectory();
    stageInputs(job, inputs, dir);
    std::ofstream(dir / "job.json") << toJson(job).dump();
    ProcessResult pr = runProcess(runnerSpec(paths_, job, dir, opts));
    if (!pr.started) {
        fs::remove_all(dir);
        throw std::runtime_error("cannot start the sandboxed runner: " + pr.startError);
    }
    report.networkIsolated = pr.networkIsolated;
    report.memoryLimit = pr.memoryLimit;
    report.cgroupUnavailable = pr.cgroupUnavailable;
    report.stderrTail = pr.err.size() > 4000 ? pr.err.substr(pr.err.size() - 4000) : pr.err;
    bool failedBefore = false;
    RunStatus failStatus = RunStatus::Error;
    std::string failMessage;
    for (size_t i = 0; i < job.runs.size(); ++i) {
        RunResult r;
        r.id = job.runs[i].id;
        fs::path resultPath = dir / ("result_" + std::to_string(i) + ".json");
        std::error_code sizeEc;
        // The runner pre-creates every result file; an empty one means the run never finished.
        const uint64_t resultSize = fs::file_size(resultPath, sizeEc);
        if (!failedBefore && !sizeEc && resultSize > 0) {
            readResultFile(r, resultPath, resultSize, resultBytesBound(job, job.runs[i]));
            if (r.status == RunStatus::Oom) r.message += memoryBound(pr, opts);
            collectOutputs(r, job.runs[i], i, dir, opts);
        } else if (!failedBefore) {
            failStatus = failureStatus(pr, opts.memoryBytes, failMessage, pr.err);
            failedBefore = true;
            r.status = failStatus;
            r.message = failMessage;
        } else {
            r.status = failStatus;
            r.message = "not run: an earlier run in the same evaluation ended with '" + std::string(toString(failStatus)) + "'";
        }
        report.runs.push_back(std::move(r));
    }
    // A blocked syscall after the last result (a destructor, an atexit handler) still taints
    // every run of the evaluation: the kernel tried to leave the sandbox.
    if (!failedBefore && (pr.exitCode == 4 || pr.signal == SIGSYS)) {
        std::string message;
        const RunStatus status = failureStatus(pr, opts.memoryBytes, message, pr.err);
        for (auto& r : report.runs) {
            r.status = status;
            r.message = message;
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
}

} // namespace sage::toolchain
