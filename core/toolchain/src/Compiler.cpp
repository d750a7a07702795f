#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/CacheTrim.h"

#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"
#include "sage_toolchain/Process.h"
#include "sage_toolchain/ProjectPaths.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sage::toolchain {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Digest of every kernel header, so that a changed API invalidates cached kernels.
std::string digestHeaders(const std::string& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file() && e.path().extension() == ".h") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ContentHash h;
    for (const auto& f : files) h.add(f.filename().string()).add(readTextFile(f.string()));
    return h.hex();
}

constexpr double kCompileSeconds = 120;
// Compiles nobody waits for yet (the precompiled header, the agent's speculative candidate) run
// at the lowest CPU priority: only on cores the evaluations leave idle.
constexpr int kBackgroundNiceness = 19;
constexpr uint64_t kCompileMemoryBytes = 1ull << 30;
// The whole compile (driver, cc1plus, as, gold) where a cgroup v2 group is available.
constexpr uint64_t kCompileGroupMemoryBytes = 2ull << 30;
constexpr uint64_t kMaxKernelObjectBytes = 64ull << 20;
// The folder of the work directory that holds a request's staged files (CompileRequest::staged).
constexpr const char* kStageFolder = "stage";

// The compiler runs confined like the runner (docs/security.md): it sees /usr, the kernel
// headers, the runtime library and its own work directory, with memory, CPU, file-size and
// process limits; it needs fork/exec for cc1plus, as and ld, which the namespaces contain.
void confineCompiler(ProcessSpec& spec, const ToolPaths& paths, const std::string& work) {
    spec.confine.enabled = true;
    spec.confine.readOnly = {paths.npuInclude, paths.libDir};
    // /usr/bin/c++ leads through /etc/alternatives, which the sandbox does not show.
    std::error_code ec;
    const fs::path real = fs::canonical(paths.compiler, ec);
    if (!ec && !spec.argv.empty()) spec.argv[0] = real.string();
    const fs::path cxx = (ec ? fs::path(paths.compiler) : real).parent_path();
    if (!cxx.empty() && cxx.string().rfind("/usr/", 0) != 0) spec.confine.readOnly.push_back(cxx.string());
    spec.confine.writable = {work};
    spec.env = {"TMPDIR=/tmp"};
    // ASan builds reserve huge shadows only in sanitized binaries; gcc itself is not sanitized.
    spec.limits.addressSpaceBytes = kCompileMemoryBytes;
    spec.limits.cpuSeconds = uint64_t(kCompileSeconds) + 5;
    spec.limits.fileSizeBytes = 512ull << 20;
    spec.limits.maxProcesses = 64;
    spec.limits.groupMemoryBytes = kCompileGroupMemoryBytes;
    spec.limits.groupProcesses = 64;
}

std::string uniqueSuffix() {
    static std::mt19937_64 rng(std::random_device{}());
    return std::to_string(::getpid()) + "." + std::to_string(rng());
}

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Starts `argv` detached (double fork: the grandchild is reparented, nobody has to wait for it).
void spawnDetached(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t child = ::fork();
    if (child == 0) {
        ::setsid();
        if (::fork() == 0) {
            int devnull = ::open("/dev/null", O_RDWR);
            if (devnull >= 0) {
                ::dup2(devnull, 0);
                ::dup2(devnull, 1);
                ::dup2(devnull, 2);
            }
            keepOnlyStandardDescriptors();
            ::execv(args[0], args.data());
        }
        ::_exit(0);
    }
    if (child > 0) ::waitpid(child, nullptr, 0);
}

// Replaces every -I folder of `req` outside the kernel headers by where it really is, so that the
// sandbox binds that folder and nothing else; "" when all are fine, else why one is refused
// (it leaves the project, or it is a link and no project was named).
std::string resolveIncludeFolders(CompileRequest& req, const std::string& npuInclude) {
    for (auto& f : req.extraFlags) {
        if (f.rfind("-I", 0) != 0 || f.size() <= 2) continue;
        const std::string dir = f.substr(2);
        std::string why, real;
        std::error_code ec;
        if (dir.rfind(npuInclude, 0) == 0 || !fs::exists(dir, ec)) continue;  // our own headers; GCC skips a missing one
        if (!req.projectRoot.empty()) {
            real = resolveInside(dir, req.projectRoot, why);
        } else {
            real = fs::canonical(dir, ec).string();
            if (!ec && real != fs::absolute(dir).lexically_normal().string())
                why = "the include folder " + dir + " is a link (to " + real + "); name the project it belongs to";
        }
        if (!why.empty()) return why;
        f = "-I" + real;
    }
    return "";
}

// "" when `path` is a plain relative path inside the staging folder, else why not: a staged file
// may only land inside it (its name comes from an op tree someone else wrote).
std::string stagedPathProblem(const std::string& path) {
    const fs::path p(path);
    if (path.empty() || p.is_absolute()) return "the staged path '" + printable(path) + "' is not relative";
    for (const auto& part : p)
        if (part == ".." || part == "." || part.empty())
            return "the staged path '" + printable(path) + "' leaves the staging folder";
    for (unsigned char c : path)
        if (c < 0x20 || c == 0x7f || c == '\\') return "the staged path '" + printable(path) + "' holds a control character or a backslash";
    return "";
}

std::string stagedFilesProblem(const CompileRequest& req) {
    for (const auto& f : req.staged)
        if (std::string why = stagedPathProblem(f.path); !why.empty()) return why;
    if (!req.staged.empty() && !req.stagedDir.empty()) return stagedPathProblem(req.stagedDir);
    return "";
}

} // namespace

namespace {
// The header a compile's PCH holds: the kernel API, or the reference API for a task's reference.
std::string pchHeader(const CompileRequest& req) { return req.isReference ? "sage_reference.h" : "kernel_operator.h"; }

// The two standard headers every draft includes after kernel_operator.h. Parsing them after the
// precompiled header cost about 40 % of a draft's compile, so a second PCH variant holds them too.
// It is used only for a source that includes both itself: declaring <cmath>'s names for any other
// source would break kernels whose entry is called like a C library function (an op `sin`).
constexpr const char* kCommonStdHeaders = "#include <cmath>\n#include <cstring>\n";

bool includesCommonStd(const CompileRequest& req) {
    if (req.isReference) return false;
    static const std::regex cmath(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<cmath>)"),
        cstring(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<cstring>)");
    return std::regex_search(req.source, cmath) && std::regex_search(req.source, cstring);
}
} // namespace

std::pair<std::vector<std::string>, std::string> Compiler::pchFlagsAndKey(const CompileRequest& req, bool withStd) const {
    // GCC uses a .gch only when it was built with the same options: one PCH per flag set. Include
    // directories are not among those options, and the header's own includes resolve next to it
    // (or are standard headers), so an op project's folders (`sage compat`, `sage op`) are left
    // out: a scan of 500 projects builds one 32 MB header instead of 500.
    std::vector<std::string> f;
    for (const auto& x : flags(req)) {
        if (x == "-shared" || x == "-include" || x == "prelude.h") continue;
        if (x.rfind("-I", 0) == 0 && x.compare(2, paths_.npuInclude.size(), paths_.npuInclude) != 0) continue;
        f.push_back(x);
    }
    ContentHash h;
    h.add("pch-v2").add(pchHeader(req)).add(withStd ? "with-std" : "plain");
    h.add(paths_.compiler).add(headerDigest_);
    for (const auto& x : f) h.add(x);
    return {f, h.hex()};
}

std::string Compiler::pchBuildCommand(const std::vector<std::string>& f, const std::string& header, bool withStd,
                                      const std::string& dir, const std::string& lock) const {
    const fs::path tmp = dir + ".tmp." + uniqueSuffix();
    std::error_code ec;
    fs::create_directories(tmp, ec);
    // The stub is what GCC reads when the .gch is unusable: the real header, so a compile is never wrong.
    writeFile((tmp / header).string(),
              "#include \"" + paths_.npuInclude + "/" + header + "\"\n" + (withStd ? kCommonStdHeaders : ""));
    // Precompiling the stub (not the header itself) keeps GCC from warning "#pragma once in main file".
    std::vector<std::string> words = {paths_.compiler};
    words.insert(words.end(), f.begin(), f.end());
    for (const auto& w : {std::string("-x"), std::string("c++-header"), (tmp / header).string(), std::string("-o"),
                          (tmp / (header + ".gch")).string()})
        words.push_back(w);
    std::string cmd;
    for (const auto& w : words) cmd.append(cmd.empty() ? "" : " ").append(shellQuote(w));
    cmd.append(" && mv -T ").append(shellQuote(tmp.string())).append(" ").append(shellQuote(dir));
    cmd.append("; rm -rf ").append(shellQuote(tmp.string()));
    if (!lock.empty()) cmd.append(" ").append(shellQuote(lock));
    return cmd;
}

std::string Compiler::precompiledHeader(const CompileRequest& req) const {
    if (std::getenv("SAGE_NO_PCH")) return "";
    const bool withStd = includesCommonStd(req);
    const auto [f, key] = pchFlagsAndKey(req, withStd);
    const std::string header = pchHeader(req);
    std::error_code ec;
    // Built with the toolchain (sage-prebuild-pch), read-only: the first compile of a fresh cache uses it.
    const fs::path prebuilt = fs::path(paths_.libDir) / "pch" / key;
    if (fs::exists(prebuilt / (header + ".gch"), ec)) return (prebuilt / header).string();
    const fs::path dir = fs::path(paths_.cacheDir) / "pch" / key;
    if (fs::exists(dir / (header + ".gch"), ec)) {
        markUsed(dir);
        return (dir / header).string();
    }
    // Not built yet: build it in the background (about 0.5 s of CPU) so that this compile, often
    // the first of a cold evaluation, does not wait; later compiles use it. One builder at a time.
    const fs::path lock = dir.string() + ".building";
    fs::create_directories(lock.parent_path(), ec);
    if (fs::exists(lock, ec)) {
        auto age = fs::file_time_type::clock::now() - fs::last_write_time(lock, ec);
        if (age < std::chrono::minutes(5)) return "";
        fs::remove_all(lock, ec);  // a builder that died
    }
    if (!fs::create_directory(lock, ec)) return "";
    trimCacheFolderSometimes(dir.parent_path());  // 32 MB a header: the folder grows fastest
    // Lowest priority: it must not slow down the evaluation that is running now.
    spawnDetached({"/bin/sh", "-c",
                   "nice -n " + std::to_string(kBackgroundNiceness) + " " +
                       pchBuildCommand(f, header, withStd, dir.string(), lock.string())});
    return "";
}

bool Compiler::prebuildHeader(int npuArch, bool reference, bool withStd, std::string* error) const {
    CompileRequest req;
    req.npuArch = npuArch;
    req.isReference = reference;
    const auto [f, key] = pchFlagsAndKey(req, withStd);
    const std::string header = pchHeader(req);
    const fs::path dir = fs::path(paths_.libDir) / "pch" / key;
    std::error_code ec;
    if (fs::exists(dir / (header + ".gch"), ec)) return true;
    fs::create_directories(dir.parent_path(), ec);
    const int rc = std::system(pchBuildCommand(f, header, withStd, dir.string(), "").c_str());
    if (rc != 0 || !fs::exists(dir / (header + ".gch"), ec)) {
        if (error)
            *error = "building the precompiled " + header + (reference ? "" : " for __NPU_ARCH__=" + std::to_string(npuArch)) +
                     " in " + dir.string() + " failed (exit status " + std::to_string(rc) + ")";
        return false;
    }
    return true;
}

Compiler::Compiler(ToolPaths paths) : paths_(std::move(paths)), headerDigest_(digestHeaders(paths_.npuInclude)) {}

std::vector<std::string> Compiler::flags(const CompileRequest& req) const {
    std::vector<std::string> f = {"-std=c++20", "-O1", "-fPIC", "-shared", "-I" + paths_.npuInclude,
                                  "-include", "prelude.h"};
    if (!req.isReference) f.push_back("-D__NPU_ARCH__=" + std::to_string(req.npuArch));
    for (const auto& x : req.extraFlags) f.push_back(x);
    // Relative to the work directory the compiler runs in: the same flag (and cache key) for every compile.
    if (!req.staged.empty() && !req.stagedDir.empty()) f.push_back("-I" + (fs::path(kStageFolder) / req.stagedDir).string());
    return f;
}

std::string Compiler::cacheKey(const CompileRequest& req) const {
    ContentHash h;
    h.add(req.source).add(req.prelude);
    for (const auto& u : req.units) h.add("unit").add(u);
    h.add(req.deviceId).add(std::to_string(req.npuArch));
    h.add(req.isReference ? "reference" : "kernel").add(paths_.compiler).add(headerDigest_);
    for (const auto& f : flags(req)) h.add(f);
    for (const auto& f : req.staged) h.add(f.path).add(f.text);
    // What the confined compiler can see decides what compiles (an include outside the shown
    // folders fails): bump this when the compiler's sandbox changes, so no stale result is reused.
    h.add("confinement-v2");
    return h.hex();
}

namespace {

// A finished compile in the cache (its result and, when it compiled, its kernel.so), or nothing
// when there is none or it is damaged: then it is compiled again.
std::optional<CompileResult> cachedResult(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir / "result.json", ec)) return std::nullopt;
    try {
        json j = json::parse(readTextFile((dir / "result.json").string()));
        CompileResult res;
        res.ok = j.at("ok").get<bool>();
        for (const auto& d : j.at("diagnostics")) res.diagnostics.push_back(diagnosticFromJson(d));
        res.sharedObject = res.ok ? (dir / "kernel.so").string() : "";
        res.cached = true;
        if (!res.ok || fs::exists(res.sharedObject, ec)) {
            markUsed(dir);
            return res;
        }
    } catch (const std::exception&) {
        // A damaged cache entry is rebuilt.
    }
    return std::nullopt;
}

// The work-directory file of the request's `i`-th further translation unit (CompileRequest::units).
std::string unitFileName(size_t i) { return "unit" + std::to_string(i + 1) + ".cpp"; }

// The confined compiler call that turns `srcName` in `work` into kernel.so.
ProcessSpec compileSpec(const ToolPaths& paths, const CompileRequest& req, const std::vector<std::string>& flags,
                        const std::string& pch, const std::string& srcName, const fs::path& work) {
    ProcessSpec spec;
    spec.argv = {paths.compiler};
    for (const auto& f : flags) spec.argv.push_back(f);
    spec.argv.insert(spec.argv.end(), {"-fdiagnostics-format=json", srcName});
    for (size_t i = 0; i < req.units.size(); ++i) spec.argv.push_back(unitFileName(i));
    spec.argv.insert(spec.argv.end(), {"-o", "kernel.so", "-L" + paths.libDir,
                                       "-Wl,-rpath," + paths.libDir, "-lsage_npu",
                                       // gold links a kernel in about a third of BFD ld's time (binutils ships both).
                                       "-fuse-ld=gold"});
    spec.workDir = work.string();
    spec.timeoutSeconds = kCompileSeconds;
    spec.captureLimit = 4 << 20;
    spec.cancel = req.cancel;
    if (req.background) spec.niceness = kBackgroundNiceness;
    confineCompiler(spec, paths, work.string());
    // The precompiled header lives in the cache, outside the work directory: show it read-only.
    if (!pch.empty()) spec.confine.readOnly.push_back(fs::path(pch).parent_path().string());
    // Include directories the caller added (an op project's own folders, for `sage compat`) are
    // shown read-only too; the candidate itself cannot add any (it has no say over the flags).
    for (const auto& f : req.extraFlags)
        if (f.size() > 3 && f.rfind("-I/", 0) == 0) spec.confine.readOnly.push_back(f.substr(2));
    return spec;
}

void addError(CompileResult& res, const std::string& display, const std::string& message) {
    res.diagnostics.push_back({DiagnosticKind::CompileError, Severity::Error, display, 0, 0, message, {}});
}

// A compile that hit a limit (time, memory, object size) fails with a diagnostic that says which.
// Hitting a limit depends on the machine and its load, not only on the source: such a failure is
// reported but never cached (returns true), so the next attempt compiles again.
bool reportLimits(CompileResult& res, const ProcessResult& pr, const fs::path& object, const std::string& display) {
    const bool outOfMemory = pr.err.find("out of memory") != std::string::npos ||
                             pr.err.find("virtual memory exhausted") != std::string::npos ||
                             pr.err.find("std::bad_alloc") != std::string::npos || pr.memoryLimitHit;
    // A candidate that inflates its object (a 400 MB array) is refused, not kept in the cache.
    std::error_code sizeEc;
    const uint64_t objectBytes = res.ok ? fs::file_size(object, sizeEc) : 0;
    const bool oversized = !sizeEc && objectBytes > kMaxKernelObjectBytes;
    if (oversized) {
        res.ok = false;
        addError(res, display,
                 "the compiled kernel holds " + std::to_string(objectBytes >> 20) + " MiB, more than the " +
                     std::to_string(kMaxKernelObjectBytes >> 20) +
                     " MiB a kernel may: a huge static array? Allocate data on the device instead");
    }
    if (pr.timedOut || pr.signal == SIGXCPU)
        addError(res, display,
                 "the compiler took longer than " + std::to_string(int(kCompileSeconds)) +
                     " s (a template or constexpr recursion that never ends?)");
    else if (outOfMemory || pr.signal)
        addError(res, display,
                 "the compiler ran out of memory (limit " +
                     std::to_string((pr.memoryLimit == "cgroup" ? kCompileGroupMemoryBytes : kCompileMemoryBytes) >> 20) +
                     " MiB" + (pr.memoryLimit == "cgroup" ? " for the whole compile" : "") + ") or was killed" +
                     (pr.signal ? " by " + signalName(pr.signal) : "") + ": a template or constexpr bomb?");
    return pr.timedOut || pr.signal || pr.cancelled || outOfMemory || oversized;
}

// Errors inside our headers (e.g. a dtype static_assert) are moved to the candidate line that
// instantiated them, found in a quick text-format pass of the same compile.
void moveHeaderErrorsToCandidate(CompileResult& res, const ProcessSpec& spec, const std::vector<std::string>& flags,
                                 const std::string& srcName, const std::string& display) {
    bool headerErrors = false;
    for (const auto& d : res.diagnostics) headerErrors |= d.severity == toolchain::Severity::Error && d.file != display;
    if (res.ok || !headerErrors) return;
    ProcessSpec text = spec;
    text.argv = {spec.argv[0]};  // the resolved compiler path
    for (const auto& f : flags)
        if (f != "-shared") text.argv.push_back(f);
    text.argv.insert(text.argv.end(), {"-fsyntax-only", srcName});
    ProcessResult tr = runProcess(text);
    auto sites = instantiationSites(tr.err, srcName);
    size_t k = 0;
    for (auto& d : res.diagnostics) {
        if (d.severity != toolchain::Severity::Error || d.file == display || k >= sites.size()) continue;
        d.notes.insert(d.notes.begin(), {d.file, d.line, d.column, "the check that failed is here"});
        d.file = display;
        d.line = sites[k].first;
        d.column = sites[k].second;
        ++k;
    }
}

// The finished work directory becomes the cache entry `dir` (unless another process was first).
void storeInCache(CompileResult& res, const fs::path& work, const fs::path& dir) {
    json out = {{"ok", res.ok}, {"diagnostics", json::array()}};
    for (const auto& d : res.diagnostics) out["diagnostics"].push_back(toJson(d));
    writeFile((work / "result.json").string(), out.dump());
    std::error_code ec;
    fs::remove(work / "prelude.h", ec);
    fs::remove_all(work / kStageFolder, ec);  // copies of project files: the key already stands for them
    fs::rename(work, dir, ec);
    if (ec) fs::remove_all(work, ec);  // another process cached the same key first: use theirs
    trimCacheFolderSometimes(dir.parent_path());
    res.sharedObject = res.ok ? (dir / "kernel.so").string() : "";
}

} // namespace

CompileResult Compiler::compile(const CompileRequest& request) const {
    auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    CompileResult res;
    CompileRequest resolved = request;
    std::string refused = stagedFilesProblem(request);
    if (refused.empty()) refused = resolveIncludeFolders(resolved, paths_.npuInclude);
    if (!refused.empty()) {
        addError(res, request.displayName.empty() ? "kernel.cpp" : request.displayName, refused);
        return res;
    }
    const CompileRequest& req = resolved;
    res.cacheKey = cacheKey(req);
    const fs::path dir = fs::path(paths_.cacheDir) / "kernels" / res.cacheKey;
    const std::string display = req.displayName.empty() ? "kernel.cpp" : req.displayName;
    if (auto cached = cachedResult(dir)) {
        cached->cacheKey = res.cacheKey;
        cached->seconds = elapsed();
        return *cached;
    }
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot create the compile cache " + dir.parent_path().string() + ": " + ec.message());
    const fs::path work = dir.string() + ".tmp." + uniqueSuffix();
    fs::create_directories(work);
    const std::string srcName = req.isReference ? "reference.cpp" : "kernel.cpp";
    writeFile((work / srcName).string(), req.source);
    for (size_t i = 0; i < req.units.size(); ++i) writeFile((work / unitFileName(i)).string(), req.units[i]);
    // The candidate's own staged folder must exist for "../x" to lead anywhere from it.
    if (!req.staged.empty() && !req.stagedDir.empty()) fs::create_directories(work / kStageFolder / req.stagedDir);
    for (const auto& f : req.staged) {
        fs::create_directories((work / kStageFolder / f.path).parent_path());
        writeFile((work / kStageFolder / f.path).string(), f.text);
    }
    // With the precompiled header included first, the prelude comes after the header's
    // default SAGE_TILING_TYPE, so it replaces it instead of redefining it. Same binary either way.
    const std::string pch = precompiledHeader(req);
    const bool setsTiling = req.prelude.find("#define SAGE_TILING_TYPE") != std::string::npos;
    writeFile((work / "prelude.h").string(), (!pch.empty() && setsTiling ? "#undef SAGE_TILING_TYPE\n" : "") + req.prelude);
    std::vector<std::string> compileFlags;
    for (const auto& f : flags(req)) {
        if (f == "-include" && !pch.empty()) compileFlags.insert(compileFlags.end(), {"-include", pch});
        compileFlags.push_back(f);
    }
    const ProcessSpec spec = compileSpec(paths_, req, compileFlags, pch, srcName, work);
    ProcessResult pr = runProcess(spec);
    if (!pr.started) {
        fs::remove_all(work, ec);
        throw std::runtime_error("the host compiler could not be started: " + pr.startError);
    }
    res.diagnostics = parseGccJsonDiagnostics(pr.err, srcName, display);
    res.ok = pr.exitCode == 0 && !pr.timedOut && !pr.signal;
    const bool transient = reportLimits(res, pr, work / "kernel.so", display);
    moveHeaderErrorsToCandidate(res, spec, compileFlags, srcName, display);
    if (!res.ok && res.diagnostics.empty())
        addError(res, display, "the compiler failed without a diagnostic: " + pr.err.substr(0, 2000));
    if (transient) {
        fs::remove_all(work, ec);
        res.seconds = elapsed();
        return res;
    }
    storeInCache(res, work, dir);
    res.seconds = elapsed();
    return res;
}

namespace {
// Where the JSON array opening at `start` closes (brackets inside strings do not count), or npos.
size_t endOfJsonArray(const std::string& text, size_t start) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (size_t i = start; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return c == ']' ? i : std::string::npos;
        }
    }
    return std::string::npos;
}
} // namespace

std::vector<Diagnostic> parseGccJsonDiagnostics(const std::string& text, const std::string& candidatePath,
                                                const std::string& displayName) {
    std::vector<Diagnostic> out;
    // Each translation unit prints one JSON array (a request with several units prints several);
    // the linker may add plain text after them. Every array is parsed, the text around skipped.
    json arr = json::array();
    for (size_t start = text.find('['); start != std::string::npos; start = text.find('[', start + 1)) {
        const size_t end = endOfJsonArray(text, start);
        if (end == std::string::npos) continue;
        try {
            for (auto& e : json::parse(text.substr(start, end - start + 1))) arr.push_back(std::move(e));
            start = end;
        } catch (const std::exception&) {
        }
    }
    auto place = [&](const json& e, std::string& file, int& line, int& col) {
        file.clear();
        line = col = 0;
        if (!e.contains("locations") || e["locations"].empty()) return;
        const json& caret = e["locations"][0]["caret"];
        file = caret.value("file", "");
        line = caret.value("line", 0);
        col = caret.value("column", 0);
        if (fs::path(file).filename() == fs::path(candidatePath).filename()) file = displayName;
        else file = fs::path(file).filename().string();
    };
    for (const auto& e : arr) {
        Diagnostic d;
        std::string kind = e.value("kind", "error");
        if (kind == "note") continue;
        d.severity = kind == "warning" ? Severity::Warning : Severity::Error;  // gcc's notes travel inside their error
        d.kind = d.severity == toolchain::Severity::Warning ? DiagnosticKind::CompileWarning : DiagnosticKind::CompileError;
        d.message = e.value("message", "");
        place(e, d.file, d.line, d.column);
        for (const auto& c : e.value("children", json::array())) {
            DiagnosticNote n;
            place(c, n.file, n.line, n.column);
            n.message = c.value("message", "");
            d.notes.push_back(n);
        }
        out.push_back(std::move(d));
    }
    // Linker errors (undefined references) are plain text.
    static const std::regex undefinedRef(R"(undefined reference to `([^']+)')");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), undefinedRef); it != std::sregex_iterator(); ++it)
        out.push_back({DiagnosticKind::LinkError, Severity::Error, displayName, 0, 0,
                       "undefined reference to '" + (*it)[1].str() +
                           "': the kernel calls a function that is declared but not defined or not supported by the "
                           "simulator",
                       {}});
    return out;
}

std::vector<std::pair<int, int>> instantiationSites(const std::string& text, const std::string& candidatePath) {
    std::vector<std::pair<int, int>> sites;
    const std::string name = fs::path(candidatePath).filename().string();
    static const std::regex site(R"(([^\s:]+):(\d+):(\d+):\s+required from here)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), site); it != std::sregex_iterator(); ++it) {
        if (fs::path((*it)[1].str()).filename() != name) continue;
        std::pair<int, int> p{std::stoi((*it)[2].str()), std::stoi((*it)[3].str())};
        if (sites.empty() || sites.back() != p) sites.push_back(p);
    }
    return sites;
}

} // namespace sage::toolchain
