// Red-team suite: hostile kernels, written here, that try to leave the sandbox by every route we
// know. Each case runs the kernel through the sandbox layer alone (compile + sandboxed run, the
// source check skipped, because the check is only a friendly early message) and asserts the
// status, that nothing was created outside the sandbox, that no process is left, and that the
// next evaluation is fine. See docs/security.md for what each layer guarantees.
#include "sage_config.h"
#include "sage_eval/CompatScan.h"
#include "sage_eval/Evaluator.h"
#include "sage_eval/ProfileAnalyzer.h"
#include "sage_eval/RunCache.h"
#include "sage_toolchain/ProcessCgroup.h"

#include <QtTest>

#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <set>
#include <unistd.h>

using namespace sage;
namespace fs = std::filesystem;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Every process whose parent chain leads to this test process.
std::set<int> descendants() {
    std::map<int, int> parent;
    DIR* d = opendir("/proc");
    while (dirent* e = d ? readdir(d) : nullptr) {
        int pid = std::atoi(e->d_name);
        if (pid <= 0) continue;
        std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
        size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        int ppid = 0;
        char state = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && state != 'Z') parent[pid] = ppid;
    }
    if (d) closedir(d);
    std::set<int> out;
    const int self = getpid();
    for (auto [pid, pp] : parent) {
        for (int p = pp, hops = 0; p > 1 && hops < 64; p = parent.count(p) ? parent[p] : 0, ++hops)
            if (p == self) {
                out.insert(pid);
                break;
            }
    }
    return out;
}

// The eval suite's working vadd kernel (tests/eval/data/kernels/good.cpp) with hostile code
// added at file scope, at the start of the host side and at the start of the kernel body.
std::string kernel(const std::string& top, const std::string& host, const std::string& inKernel = "") {
    static const std::string good = readFile(std::string(SAGE_EVAL_TEST_KERNELS) + "/good.cpp");
    std::string s = top + "\n" + good;
    const std::string hostOpen = "SAGE_HOST(ctx) {", kernelOpen = "uint32_t n = *reinterpret_cast<uint32_t*>(tiling);";
    size_t h = s.find(hostOpen), k = s.find(kernelOpen);
    if (h == std::string::npos || k == std::string::npos) qFatal("good.cpp changed shape: update the red-team template");
    s.insert(h + hostOpen.size(), "\n" + host + "\n");
    s.insert(k + kernelOpen.size(), "\n" + inKernel + "\n");
    return s;
}

// A destructor that rewrites every file the runner writes (result JSON and outputs) with a
// forged success at 42 cycles.
std::string forgingDestructor() {
    return kernel("%:include <fcntl.h>\n"
                  "%:include <unistd.h>\n"
                  "__attribute__((destructor)) static void forge() {\n"
                  "  static const char j[] = \"{\\\"status\\\":\\\"ok\\\",\\\"message\\\":\\\"forged\\\",\\\"launches\\\":[{\\\"kernel\\\":\\\"vadd\\\",\\\"total_cycles\\\":42}]}\";\n"
                  "  for (int fd = 3; fd < 1024; ++fd) {\n"
                  "    int fl = (fcntl)(fd, F_GETFL);\n"
                  "    if (fl >= 0 && (fl & O_ACCMODE) == O_WRONLY) { (pwrite)(fd, j, sizeof j - 1, 0); (ftruncate)(fd, sizeof j - 1); }\n"
                  "  }\n"
                  "}\n",
                  "");
}
const char* kFakeKey = "sk-test-sage-redteam-4f1c9e";

} // namespace

class TestRedTeamKernels : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    toolchain::ToolPaths paths_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    std::unique_ptr<toolchain::Compiler> compiler_;
    std::unique_ptr<toolchain::Sandbox> sandbox_;
    eval::TaskSet tasks_;
    std::string marker_;  // a unique path outside the sandbox that no kernel may create

    const eval::Task& vadd() { return *tasks_.find("vadd"); }

    struct Outcome {
        bool compiled = false;
        std::string status, message, all;  // `all`: everything the caller got back, for leak checks
        uint64_t cycles = 0;               // the run's reported total cycles
        std::vector<toolchain::Diagnostic> diagnostics;
        std::string memoryLimit, cgroupUnavailable;  // how the runner bounded memory
        std::string cacheKey;                        // the compile's cache key
    };

    // The sandbox layer alone: compile, then run the first case in the sandbox.
    Outcome runRaw(const std::string& source, double timeout = 20, uint64_t memoryBytes = 0) {
        Outcome o;
        const auto& task = vadd();
        const auto& device = evaluator_->devices().get(toolchain::DeviceCatalog::kDefaultDevice);
        toolchain::CompileRequest cr;
        cr.source = source;
        cr.displayName = "kernel.cpp";
        cr.prelude = task.preludeFor(source);
        cr.npuArch = device.npuArch;
        cr.deviceId = device.id;
        auto compiled = compiler_->compile(cr);
        o.cacheKey = compiler_->cacheKey(cr);
        o.compiled = compiled.ok;
        o.diagnostics = compiled.diagnostics;
        for (const auto& d : compiled.diagnostics) o.all += d.message + "\n";
        if (!compiled.ok) {
            o.status = "compile_error";
            return o;
        }
        const eval::TaskCase& c = task.cases.front();
        toolchain::SandboxInput in;
        in.spec.id = c.name;
        in.spec.tensors = task.tensorsFor(c);
        in.spec.dims = c.dims;
        in.spec.attrs = task.attrs;
        for (const auto& t : in.spec.tensors)
            if (!t.output) in.inputs[t.name].assign(toolchain::elementCount(t.shape) * toolchain::dtypeBytes(t.dtype), 0);
        toolchain::RunJob job;
        job.mode = "kernel";
        job.sharedObject = compiled.sharedObject;
        job.device = nlohmann::json::parse(std::ifstream(paths_.devicesDir() + "/" + device.id + ".json"));
        toolchain::SandboxOptions opts;
        opts.timeoutSeconds = timeout;
        if (memoryBytes) {  // a tight budget: cgroup memory.max, and RLIMIT_AS twice that
            opts.memoryBytes = memoryBytes;
            opts.addressSpaceBytes = 2 * memoryBytes;
        }
        auto report = sandbox_->run(job, {in}, opts);
        o.memoryLimit = report.memoryLimit;
        o.cgroupUnavailable = report.cgroupUnavailable;
        o.status = std::string(toString(report.runs.at(0).status));
        o.message = report.runs.at(0).message;
        for (const auto& l : report.runs[0].launches) o.cycles += l.totalCycles;
        o.all += o.message + "\n" + report.stderrTail;
        for (const auto& [name, bytes] : report.runs[0].outputs) o.all += std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return o;
    }

    // What every case asserts besides its status.
    void assertContained(const Outcome& o) {
        QVERIFY2(!fs::exists(marker_), ("a kernel created " + marker_ + " outside the sandbox").c_str());
        QVERIFY2(o.all.find("root:x:0:0") == std::string::npos, "the content of /etc/passwd reached the caller");
        QVERIFY2(o.all.find(kFakeKey) == std::string::npos, "the caller's API key reached the caller's results");
        auto left = descendants();
        QVERIFY2(left.empty(), ("processes outlived the evaluation: " + std::to_string(left.size())).c_str());
        eval::EvalRequest req;
        req.source = kernel("", "");
        req.seeds = 1;
        auto ev = evaluator_->evaluate(vadd(), req);
        QVERIFY2(ev.success(), ev.toJson().dump().c_str());
    }

    void expectViolation(const std::string& source, const char* syscallHint = nullptr) {
        Outcome o = runRaw(source);
        QVERIFY2(o.compiled, o.all.c_str());
        QVERIFY2(o.status == "sandbox_violation", (o.status + ": " + o.all).c_str());
        if (syscallHint) QVERIFY2(o.message.find(syscallHint) != std::string::npos, o.message.c_str());
        assertContained(o);
    }

    // Reads after loading are a violation; in ASan builds the runtime needs read-only opens,
    // so there the read only finds no /etc (docs/security.md) and nothing may come back.
    void expectReadBlocked(const std::string& source) {
#if SAGE_SANITIZED
        Outcome o = runRaw(source);
        QVERIFY2(o.compiled, o.all.c_str());
        assertContained(o);
#else
        expectViolation(source, "open");
#endif
    }

    std::string q(const std::string& s) { return "\"" + s + "\""; }

    // An op tree under the test's folder, with `secret` a folder outside it holding files the
    // compiler must never see; returns the tree's root.
    fs::path opTreeWithSecretOutside() {
        const fs::path base = cache_.filePath("linked-project").toStdString();
        fs::remove_all(base);
        fs::create_directories(base / "secret");
        std::ofstream(base / "secret" / "secret.h") << "#error SECRET-HEADER-7f3a\n";
        std::ofstream(base / "secret" / "kernel.cpp") << "#error SECRET-KERNEL-7f3a\n";
        fs::create_directories(base / "tree" / "common");
        fs::create_directories(base / "tree" / "myop" / "op_kernel");
        return base / "tree";
    }
    eval::CompatFile scanCompat(const fs::path& tree, const fs::path& file) {
        const auto& device = evaluator_->devices().get(toolchain::DeviceCatalog::kDefaultDevice);
        eval::CompatScanner scanner(*compiler_, device.npuArch, device.id);
        return scanner.scanFile(tree.string(), file.string());
    }
    // vadd with the output written by plain C++ through the GM pointers: on the host side, or in
    // the kernel body instead of DataCopy.
    std::string plainStoresKernel(bool inKernel) {
        const std::string sum = "for (uint32_t i = 0; i < n; ++i) zp[i] = xp[i] + yp[i];";
        return std::string("#include \"kernel_operator.h\"\n") +
               "extern \"C\" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {\n"
               "  uint32_t n = *reinterpret_cast<uint32_t*>(tiling);\n"
               "  float* xp = (float*)x; float* yp = (float*)y; float* zp = (float*)z;\n" +
               (inKernel ? "  if (AscendC::GetBlockIdx() == 0) " + sum : "  (void)n; (void)xp; (void)yp; (void)zp;") +
               "\n}\nSAGE_HOST(ctx) {\n  uint32_t n = (uint32_t)ctx.numel(\"x\");\n" +
               (inKernel ? "" : "  float* xp = (float*)ctx.gm(\"x\"); float* yp = (float*)ctx.gm(\"y\"); float* zp = (float*)ctx.gm(\"z\");\n  " + sum + "\n") +
               "  ICPU_RUN_KF(vadd, 1, ctx.gm(\"x\"), ctx.gm(\"y\"), ctx.gm(\"z\"), ctx.tiling(n));\n}\n";
    }
    uint64_t runCacheEntries() { return eval::RunCache((fs::path(paths_.cacheDir) / "runs").string()).usage().entries; }
    void expectUnaccounted(const std::string& source) {
        const uint64_t before = runCacheEntries();
        eval::EvalRequest req;
        req.source = source;
        req.seeds = 1;
        auto ev = evaluator_->evaluate(vadd(), req);
        QVERIFY2(ev.compile.ok, ev.toJson().dump().c_str());
        QCOMPARE(std::string(toString(ev.run.status)), std::string(toString(toolchain::RunStatus::UnaccountedOutput)));
        QVERIFY(!ev.success());
        QVERIFY2(ev.run.message.find("not written by any simulated instruction") != std::string::npos, ev.run.message.c_str());
        QCOMPARE(runCacheEntries(), before);  // nothing of such a run is reused
        auto again = evaluator_->evaluate(vadd(), req);
        QCOMPARE(std::string(toString(again.run.status)), std::string(toString(toolchain::RunStatus::UnaccountedOutput)));
    }
private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        qputenv("SAGE_FAKE_KEY", kFakeKey);
        qputenv("OPENAI_API_KEY", kFakeKey);
        paths_ = toolchain::ToolPaths::fromEnvironment();
        paths_.binDir = SAGE_TEST_BIN_DIR;
        paths_.cacheDir = cache_.path().toStdString();
        evaluator_ = std::make_unique<eval::Evaluator>(paths_, toolchain::DeviceCatalog::loadDirectory(paths_.devicesDir()));
        compiler_ = std::make_unique<toolchain::Compiler>(paths_);
        sandbox_ = std::make_unique<toolchain::Sandbox>(paths_);
        tasks_ = eval::TaskSet::load({std::string(SAGE_EVAL_TEST_TASKS)});
        QVERIFY(tasks_.find("vadd"));
        marker_ = (fs::temp_directory_path() / ("sage-redteam-" + std::to_string(std::random_device{}()))).string();
    }
    void init() { fs::remove(marker_); }

    // --- files, by every route ---------------------------------------------------------------
    void writeTmpThroughParenthesisedFopen() {
        expectViolation(kernel("#include <cstdio>\n", "FILE* f = (fopen)(" + q(marker_) + ", \"w\"); if (f) fputs(\"x\", f);"),
                        "open");
    }
    void readPasswdThroughFunctionPointer() {
        expectReadBlocked(kernel("#include <fcntl.h>\n#include <unistd.h>\n#include <stdexcept>\n",
                               "auto op = &::open; int fd = op(\"/etc/passwd\", O_RDONLY); char b[64] = {};"
                               "if (fd >= 0 && ::read(fd, b, 63) > 0) throw std::runtime_error(b);"));
    }
    void openatThroughSyscall() {
        expectViolation(kernel("#include <fcntl.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n",
                               "auto sc = &::syscall; sc(SYS_openat, AT_FDCWD, " + q(marker_) + ", O_WRONLY | O_CREAT, 0644);"),
                        "openat");
    }
    void writeThroughIostream() {
        expectViolation(kernel("#include <fstream>\n", "std::ofstream out(" + q(marker_) + "); out << \"x\";"), "open");
    }
    void readThroughIostreamIsBlockedToo() {
        expectReadBlocked(kernel("#include <fstream>\n#include <string>\n#include <stdexcept>\n",
                               "std::ifstream in(\"/etc/passwd\"); std::string s; std::getline(in, s);"
                               "if (!s.empty()) throw std::runtime_error(s);"));
    }
    void digraphIncludeAndMacroInclude() {
        expectViolation(kernel("%:include <cstdio>\n#define HDR <fcntl.h>\n#include HDR\n",
                               "int fd = (open)(" + q(marker_) + ", O_WRONLY | O_CREAT, 0600); (void)fd;"),
                        "open");
    }
    void inlineAsmSyscallSplitByBackslashNewline() {
#if defined(__x86_64__)
        // openat(AT_FDCWD, marker, O_WRONLY|O_CREAT, 0600) with the syscall instruction itself.
        expectViolation(kernel("", "long r; const char* p = " + q(marker_) +
                                       "; register long r10 __asm__(\"r10\") = 0600;\n"
                                       "__as\\\nm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(257), \"D\"(-100), \"S\"(p), "
                                       "\"d\"(0101), \"r\"(r10) : \"rcx\", \"r11\", \"memory\"); (void)r;"),
                        "openat");
#else
        QSKIP("the inline-assembly case is written for x86-64");
#endif
    }

    // --- descriptors the caller holds ------------------------------------------------------
    void inheritedDescriptorIsNotReachable() {
        // A shell that starts `sage eval 77>file` leaves fd 77 open in every process it starts.
        const std::string host = cache_.filePath("caller-held.txt").toStdString();
        std::ofstream(host) << "caller data\n";
        const int fd = ::open(host.c_str(), O_WRONLY | O_APPEND);  // inheritable: no O_CLOEXEC
        QVERIFY(fd >= 0);
        QVERIFY(::dup2(fd, 77) == 77);
        ::close(fd);
        Outcome o = runRaw(kernel("#include <unistd.h>\n#include <stdexcept>\n",
                                  "auto w = &::write; if (w(77, \"PWNED\\n\", 6) == 6) throw std::runtime_error(\"fd 77 was writable\");"));
        ::close(77);
        QCOMPARE(readFile(host), std::string("caller data\n"));
        QVERIFY2(o.status == "ok", (o.status + ": " + o.all).c_str());  // write(77) failed with EBADF
        assertContained(o);
    }

    // --- op projects with links out of the project ----------------------------------------
    void symlinkedIncludeFolderIsNotMounted() {
        const fs::path tree = opTreeWithSecretOutside();
        fs::create_directory_symlink(tree.parent_path() / "secret", tree / "common" / "inc");
        // A macro include passes the source check (it is a courtesy, not a boundary).
        std::ofstream(tree / "myop" / "op_kernel" / "k.cpp")
            << "#include \"kernel_operator.h\"\n#define HDR \"secret.h\"\n#include HDR\n"
               "extern \"C\" __global__ __aicore__ void myop(GM_ADDR x) {}\n";
        const eval::CompatFile r = scanCompat(tree, tree / "myop" / "op_kernel" / "k.cpp");
        QVERIFY(!r.compiled);
        QVERIFY2(r.firstError.find("SECRET-HEADER") == std::string::npos, r.firstError.c_str());
        // The same folder handed to the compiler directly is refused with the reason.
        toolchain::CompileRequest cr;
        cr.source = "#include \"secret.h\"\n";
        cr.displayName = "k.cpp";
        cr.projectRoot = tree.string();
        cr.extraFlags = {"-I" + (tree / "common" / "inc").string()};
        auto compiled = compiler_->compile(cr);
        QVERIFY(!compiled.ok);
        QVERIFY(!compiled.diagnostics.empty());
        QVERIFY2(compiled.diagnostics[0].message.find("outside the project") != std::string::npos,
                 compiled.diagnostics[0].message.c_str());
        for (const auto& d : compiled.diagnostics) QVERIFY2(d.message.find("SECRET") == std::string::npos, d.message.c_str());
    }
    void symlinkedKernelFileIsNotRead() {
        const fs::path tree = opTreeWithSecretOutside();
        fs::create_symlink(tree.parent_path() / "secret" / "kernel.cpp", tree / "myop" / "op_kernel" / "k.cpp");
        const eval::CompatFile r = scanCompat(tree, tree / "myop" / "op_kernel" / "k.cpp");
        QVERIFY(!r.compiled);
        QVERIFY2(r.firstError.find("SECRET-KERNEL") == std::string::npos, r.firstError.c_str());
        QVERIFY2(r.firstError.find("outside the project") != std::string::npos, r.firstError.c_str());
    }

    // --- processes, threads, network ---------------------------------------------------------
    void execIsBlocked() {
        expectViolation(kernel("#include <unistd.h>\n",
                               "char* argv[] = {(char*)\"/bin/sh\", nullptr}; auto ex = &::execv; ex(\"/bin/sh\", argv);"),
                        "exec");
    }
    void forkIsBlocked() {
        expectViolation(kernel("#include <unistd.h>\n", "auto f = &::fork; if (f() == 0) { auto s = &::setsid; s(); for (;;) {} }"),
                        "clone");
    }
    void threadIsBlocked() {
        expectViolation(kernel("#include <thread>\n", "std::thread t([] {}); t.join();"));
    }
    void socketIsBlocked() {
        expectViolation(kernel("#include <sys/socket.h>\n", "auto s = &::socket; s(AF_INET, SOCK_STREAM, 0);"), "socket");
    }

    // --- code that runs outside the host function -------------------------------------------
    void constructorIsCovered() {
        expectViolation(kernel("#include <cstdio>\n__attribute__((constructor)) static void early() { FILE* f = "
                               "(fopen)(" + q(marker_) + ", \"w\"); if (f) fclose(f); }\n", ""),
                        "open");
    }
    void constructorReadingPasswdSeesNoEtc() {
        // While the loader runs, read-only opens are allowed; /etc is not in the sandbox at all.
        Outcome o = runRaw(kernel("#include <cstdio>\n#include <stdexcept>\nstatic char g[128];\n__attribute__((constructor)) static void early() {"
                                  " FILE* f = (fopen)(\"/etc/passwd\", \"r\"); if (f) { fgets(g, 127, f); fclose(f); } }\n",
                                  "if (g[0]) throw std::runtime_error(g);"));
        QVERIFY2(o.status == "ok", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }
    void destructorNeverRuns() {
        // The runner ends through exit_group once the last result is written: no destructor of
        // the candidate runs at all, so none can leave the sandbox or touch a result.
        Outcome o = runRaw(kernel("#include <cstdio>\n__attribute__((destructor)) static void late() { FILE* f = "
                                  "(fopen)(" + q(marker_) + ", \"w\"); if (f) fclose(f); }\n", ""));
        QVERIFY2(o.status == "ok", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }

    // --- results come from the simulated device ---------------------------------------------
    void plainStoresOnTheHostSideAreNotTheDevices() { expectUnaccounted(plainStoresKernel(false)); }
    void plainStoresInTheKernelAreNotTheDevices() { expectUnaccounted(plainStoresKernel(true)); }
    void destructorCannotRewriteTheResult() {
        Outcome o = runRaw(forgingDestructor());
        QVERIFY2(o.status == "ok", (o.status + ": " + o.all).c_str());
        QVERIFY2(o.message != "forged", o.all.c_str());
        QVERIFY2(o.cycles > 42, std::to_string(o.cycles).c_str());
        // Through the pipeline twice (the second from the run cache): the simulated figures.
        for (int pass = 0; pass < 2; ++pass) {
            eval::EvalRequest req;
            req.source = forgingDestructor();
            req.seeds = 1;
            auto ev = evaluator_->evaluate(vadd(), req);
            QVERIFY2(ev.success(), ev.toJson().dump().c_str());
            QVERIFY2(ev.profile.totalCycles >= ev.profile.rooflineCycles, ev.toJson().dump().c_str());
        }
        assertContained(o);
    }
    void impossibleCyclesAreRejected() {
        // A result below the roofline of its own tensors cannot come from the device.
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        toolchain::LaunchResult l;
        l.totalCycles = 42;
        r.launches.push_back(l);
        toolchain::RunSpec spec;
        spec.tensors.push_back({"z", "float32", {1 << 20}, true, ""});
        const auto& device = evaluator_->devices().get(toolchain::DeviceCatalog::kDefaultDevice);
        QVERIFY(eval::rejectImpossibleResult(r, spec, device));
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::ImpossibleResult)));
        QVERIFY2(r.message.find("below the roofline") != std::string::npos, r.message.c_str());
        QVERIFY(!eval::RunCache::cacheable(r.status));
    }
    void aRunFasterThanHbmIsPossibleWhenItsDataFitsInL2() {
        // A repeated launch whose footprint the L2 holds beats the HBM bound, not the L2's.
        const auto& device = evaluator_->devices().get("ascend910b2-sim");
        QVERIFY(device.l2Bytes > 0);
        toolchain::RunSpec spec;
        spec.tensors.push_back({"z", "float32", {1 << 20}, true, ""});
        const double bytes = 4.0 * (1 << 20);
        toolchain::RunResult r;
        r.status = toolchain::RunStatus::Ok;
        toolchain::LaunchResult l;
        l.gmFootprintBytes = uint64_t(bytes);
        l.totalCycles = uint64_t(bytes / device.chipGmBytesPerCycle) - 1;  // below HBM's bound
        r.launches.push_back(l);
        QVERIFY2(!eval::rejectImpossibleResult(r, spec, device), r.message.c_str());
        r.launches[0].totalCycles = uint64_t(bytes / device.l2BytesPerCycle) / 2;  // below the L2's too
        QVERIFY(eval::rejectImpossibleResult(r, spec, device));
        r.status = toolchain::RunStatus::Ok;
        r.launches[0].gmFootprintBytes = 64ull << 30;  // a footprint far beyond L2: about HBM's bound
        r.launches[0].totalCycles = uint64_t(0.9 * bytes / device.chipGmBytesPerCycle);
        QVERIFY(eval::rejectImpossibleResult(r, spec, device));
    }

    // --- a violation cannot hide itself ------------------------------------------------------
    void patchedExitCannotHideAViolation() {
#if defined(__x86_64__)
        // Overwrite libc's _exit with exit_group(0), then make a blocked call: a handler that left
        // through _exit would report a clean exit.
        expectViolation(kernel("#include <sys/mman.h>\n#include <fcntl.h>\n#include <unistd.h>\n#include <cstring>\n#include <cstdint>\n",
                               "uintptr_t f = reinterpret_cast<uintptr_t>(&::_exit); auto mp = &::mprotect;\n"
                               "mp(reinterpret_cast<void*>(f & ~uintptr_t(4095)), 8192, PROT_READ | PROT_WRITE | PROT_EXEC);\n"
                               "static const unsigned char code[] = {0x31, 0xff, 0xb8, 0xe7, 0, 0, 0, 0x0f, 0x05};\n"
                               "std::memcpy(reinterpret_cast<void*>(f), code, sizeof code);\n"
                               "auto op = &::open; op(" + q(marker_) + ", O_WRONLY | O_CREAT, 0600);"));
#else
        QSKIP("the machine code patched in is x86-64");
#endif
    }
    void printedViolationLineDoesNotDecideTheStatus() {
        Outcome o = runRaw(kernel("#include <cstdio>\n",
                                  "std::fputs(\"sage-runner: sandbox violation: syscall 59\\n\", stderr);"));
        QVERIFY2(o.status == "ok", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }

    // --- the caller's environment -----------------------------------------------------------
    void environmentHoldsNoSecret() {
        // The kernel dumps its whole environment into the evaluation's message.
        const std::string src = kernel("extern char** environ;\n#include <string>\n#include <stdexcept>\n",
                                       "std::string all = \"ENV:\"; for (char** e = environ; *e; ++e) all += std::string(*e) + \";\";"
                                       "throw std::runtime_error(all);");
        Outcome o = runRaw(src);
        QVERIFY2(o.all.find("ENV:") != std::string::npos, o.all.c_str());
        QVERIFY2(o.all.find("LANG=C") != std::string::npos, o.all.c_str());  // the dump did happen
        QVERIFY(o.all.find("SAGE_FAKE_KEY") == std::string::npos);
        eval::EvalRequest req;
        req.source = src;
        req.seeds = 1;
        auto ev = evaluator_->evaluate(vadd(), req);
        const std::string json = ev.toJson().dump();
        QVERIFY2(json.find(kFakeKey) == std::string::npos, json.c_str());
        assertContained(o);
    }

    // --- resources ----------------------------------------------------------------------------
    void hugeAllocationInTheKernelIsOom() {
#if SAGE_SANITIZED
        QSKIP("ASan reports a failed operator new itself instead of throwing std::bad_alloc");
#endif
        Outcome o = runRaw(kernel("#include <new>\n", "", "volatile char* big = new char[1ull << 42]; big[0] = 1;"));
        QVERIFY2(o.status == "oom", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }
    // Allocates and touches 64 GiB in 64 MiB steps under a 512 MiB budget: stopped as `oom` by
    // whichever bound the machine offers, and the runner says which one it was.
    void memoryBombIsStoppedAndSaysHow() {
        std::string why;
        const bool cgroup = toolchain::ProcessCgroup::create(512ull << 20, 0, why) != nullptr;
#if SAGE_SANITIZED
        if (!cgroup) QSKIP("ASan builds have no RLIMIT_AS, and this machine no cgroup v2 memory control");
#endif
        qInfo("cgroup v2 memory control: %s", cgroup ? "available" : why.c_str());
        // The group found from /proc/self/cgroup and mountinfo is a real cgroup v2 folder.
        std::string noGroup;
        const std::string own = toolchain::ProcessCgroup::ownGroup(noGroup);
        QVERIFY2(own.empty() ? !noGroup.empty() : fs::exists(own + "/cgroup.controllers"), (own + noGroup).c_str());
        const std::string src = kernel("#include <cstring>\nstatic char* volatile sink;\n",
                                       "for (int i = 0; i < 1024; ++i) { char* p = new char[64u << 20]; std::memset(p, i, 64u << 20); sink = p; }");
        Outcome o = runRaw(src, 60, 512ull << 20);
        QVERIFY2(o.status == "oom", (o.status + ": " + o.all).c_str());
        QCOMPARE(o.memoryLimit, std::string(cgroup ? "cgroup" : "rlimit"));
        if (cgroup) {
            QVERIFY2(o.message.find("512 MiB its cgroup allows (memory.max)") != std::string::npos, o.message.c_str());
        } else {
            QVERIFY2(o.message.find("RLIMIT_AS") != std::string::npos, o.message.c_str());
            QVERIFY(!o.cgroupUnavailable.empty());
        }
        assertContained(o);
        // Where cgroups are forced off, the fallback still stops it.
        qputenv("SAGE_NO_CGROUP", "1");
        Outcome fallback = runRaw(src, 60, 512ull << 20);
        qunsetenv("SAGE_NO_CGROUP");
        QVERIFY2(fallback.status == "oom", (fallback.status + ": " + fallback.all).c_str());
        QCOMPARE(fallback.memoryLimit, std::string("rlimit"));
        QCOMPARE(fallback.cgroupUnavailable, std::string("SAGE_NO_CGROUP is set"));
        assertContained(fallback);
    }
    // 1.4 GiB printed by the kernel: stdout is a file of the job folder, capped like every file
    // of the job (RLIMIT_FSIZE at the job's largest file), so the host's disk never sees it.
    void outputFloodIsStoppedByTheFileLimit() {
        Outcome o = runRaw(kernel("#include <cstdio>\n#include <vector>\n",
                                  "std::vector<char> mb(1u << 20, 'x'); for (int i = 0; i < 1400; ++i) std::fwrite(mb.data(), 1, mb.size(), stdout);"));
        QVERIFY2(o.status == "crash", (o.status + ": " + o.all).c_str());
        QVERIFY2(o.message.find("SIGXFSZ") != std::string::npos && o.message.find("grew past the job's limit") != std::string::npos,
                 o.message.c_str());
        assertContained(o);
    }
    // A kernel whose object is 80 MiB (a huge initialised array) is refused and not cached.
    void hugeObjectIsRefusedAndNotCached() {
        Outcome o = runRaw(kernel("__attribute__((used)) static char big[80u << 20] = {1};\n", ""));
        QCOMPARE(o.status, std::string("compile_error"));
        QVERIFY2(o.all.find("more than the 64 MiB a kernel may") != std::string::npos, o.all.c_str());
        QVERIFY2(!fs::exists(fs::path(paths_.cacheDir) / "kernels" / o.cacheKey), "an oversized kernel was cached");
        assertContained(o);
    }
    void stackBombIsACrash() {
        Outcome o = runRaw(kernel("static int deep(volatile int n) { volatile char pad[4096]; pad[0] = char(n); return deep(n + 1) + pad[0]; }\n",
                                  "deep(0);"));
        QVERIFY2(o.status == "crash", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }
    void endlessLoopTimesOut() {
        Outcome o = runRaw(kernel("", "for (volatile int i = 0;; i = i + 1) {}"), 2.0);
        QVERIFY2(o.status == "timeout", (o.status + ": " + o.all).c_str());
        assertContained(o);
    }
    void templateBombIsAClearCompileErrorAndNotCached() {
        const std::string src = kernel(
            "template <int N, unsigned long M> struct Grow { static constexpr unsigned long value = "
            "Grow<N - 1, 2 * M>::value + Grow<N - 1, 2 * M + 1>::value; };\n"
            "template <unsigned long M> struct Grow<0, M> { static constexpr unsigned long value = M; };\n"
            "static_assert(Grow<30, 1>::value != 0);\n",
            "");
        Outcome o = runRaw(src);
        QCOMPARE(o.status, std::string("compile_error"));
        QVERIFY2(o.all.find("ran out of memory") != std::string::npos || o.all.find("took longer") != std::string::npos,
                 o.all.c_str());
        toolchain::CompileRequest cr;
        cr.source = src;
        cr.displayName = "kernel.cpp";
        cr.prelude = vadd().preludeFor(src);
        const auto& device = evaluator_->devices().get(toolchain::DeviceCatalog::kDefaultDevice);
        cr.npuArch = device.npuArch;
        cr.deviceId = device.id;
        QVERIFY2(!fs::exists(fs::path(paths_.cacheDir) / "kernels" / compiler_->cacheKey(cr)),
                 "a compile that hit a limit was cached as a permanent failure");
        assertContained(o);
    }
    void constexprBombIsACompileError() {
        Outcome o = runRaw(kernel("constexpr long spin() { long s = 0; for (long i = 0; i < (1L << 40); ++i) s += i; return s; }\n"
                                  "static_assert(spin() != 1);\n",
                                  ""));
        QCOMPARE(o.status, std::string("compile_error"));
        assertContained(o);
    }

    // --- no namespaces, no run ------------------------------------------------------------------
    void unavailableNamespacesAreAClearError() {
        // A bwrap that fails the way it does where user namespaces are disabled.
        const std::string fake = cache_.filePath("fake-bwrap").toStdString();
        std::ofstream(fake) << "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n";
        fs::permissions(fake, fs::perms::owner_all);
        qputenv("SAGE_BWRAP", QByteArray::fromStdString(fake));
        std::string error;
        try {
            runRaw(kernel("// unique: namespaces\n", ""));
        } catch (const std::exception& e) {
            error = e.what();
        }
        qunsetenv("SAGE_BWRAP");
        QVERIFY2(error.find("could not start") != std::string::npos, error.c_str());
        QVERIFY2(error.find("user namespaces") != std::string::npos, error.c_str());
        assertContained({});
    }

    // --- through the whole pipeline, the source check first ----------------------------------
    void pipelineStopsTheSameKernels() {
        eval::EvalRequest req;
        req.seeds = 1;
        req.source = kernel("#include <cstdio>\n", "FILE* f = (fopen)(" + q(marker_) + ", \"w\"); if (f) fputs(\"x\", f);");
        auto ev = evaluator_->evaluate(vadd(), req);
        QVERIFY2(ev.run.status == toolchain::RunStatus::SandboxViolation || ev.run.status == toolchain::RunStatus::Rejected,
                 std::string(toString(ev.run.status)).c_str());
        QVERIFY(!ev.success());
        assertContained({});
    }
};

QTEST_GUILESS_MAIN(TestRedTeamKernels)
#include "test_redteam_kernels.moc"
