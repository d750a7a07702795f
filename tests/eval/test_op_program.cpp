// `sage op PROGRAM.asc`: single-file programs written here (tests/eval/data/programs) run as a
// whole on the simulator through the ACL shim — a program that checks its own result, and one
// that reads input/ and writes an output file compared with a golden file — and the verdicts and
// errors for a failing self-check, a wrong or missing golden file, an uncompared output, a
// missing input, an out-of-bounds kernel, no main, and host code the policy refuses.
#include "sage_eval/CompatScan.h"
#include "sage_eval/KernelSourceKind.h"
#include "sage_eval/OpProgram.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/TensorCodec.h"
#include "sage_config.h"

#include "FixtureEdit.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <algorithm>
#include <filesystem>

using namespace sage;
namespace fs = std::filesystem;

class TestOpProgram : public QObject {
    Q_OBJECT

    std::unique_ptr<eval::Evaluator> evaluator_;
    const std::string data_ = SAGE_PROGRAM_DATA_DIR;
    static constexpr int kScaleElements = 2 * 2048;

    std::string copyProgram(const QTemporaryDir& tmp, const std::string& name) {
        const fs::path dst = fs::path(tmp.path().toStdString()) / name;
        fs::copy(fs::path(data_) / name, dst, fs::copy_options::recursive);
        return dst.string();
    }
    static void replaceIn(const std::string& file, const std::string& from, const std::string& to) {
        replaceInFixture(file, from, to);
    }
    // input/x.bin and output/golden.bin (y = 2x + 1, exact in float16) for the scale program.
    static void writeScaleData(const std::string& dir, int wrongElement = -1) {
        std::vector<double> x(kScaleElements), y(kScaleElements);
        for (int i = 0; i < kScaleElements; ++i) {
            x[size_t(i)] = (i % 64) * 0.25 - 8.0;
            y[size_t(i)] = 2 * x[size_t(i)] + 1 + (i == wrongElement ? 3.0 : 0.0);
        }
        fs::create_directories(fs::path(dir) / "input");
        fs::create_directories(fs::path(dir) / "output");
        const auto xb = toolchain::encodeTensor("float16", x), yb = toolchain::encodeTensor("float16", y);
        toolchain::writeFile(dir + "/input/x.bin", xb.data(), xb.size());
        toolchain::writeFile(dir + "/output/golden.bin", yb.data(), yb.size());
    }
    eval::ProgramReport run(const std::string& file, const std::vector<std::string>& compares = {}) {
        eval::ProgramRunOptions o;
        o.timeoutSeconds = 120;
        for (const auto& c : compares) o.compares.push_back(eval::parseProgramCompare(c));
        return eval::runProgram(*evaluator_, file, o);
    }

private slots:
    void initTestCase() {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.binDir = SAGE_TEST_BIN_DIR;
        evaluator_ = std::make_unique<eval::Evaluator>(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
    }

    void rewritesLaunchesAndMainKeepingLines() {
        const std::string text = "template <int N> __global__ __aicore__ void k(float* x) {}\n"
                                 "int main(int argc, char** argv) {\n"
                                 "    ns::k<4>  <<<8, nullptr,\n stream>>>(p);\n"
                                 "    return 0;\n}\n";
        const auto p = eval::programSourceOf(text);
        QVERIFY2(p.error.empty(), p.error.c_str());
        QCOMPARE(p.launches, 1);
        QVERIFY(p.source.find("::sage::asc::launcher(ns::k<4>  , \"ns::k\", ::std::source_location::current(), 8, "
                              "nullptr,\n stream)(") != std::string::npos);
        QVERIFY(p.source.find("int sage_asc_main(int argc") != std::string::npos);
        QVERIFY(p.source.find("<<<") == std::string::npos);
        // Lines are kept: the return statement is still on line 5 (the entry is appended after).
        const std::string upToReturn = p.source.substr(0, p.source.find("return 0;"));
        QCOMPARE(std::count(upToReturn.begin(), upToReturn.end(), '\n'), 4L);
        QVERIFY(p.source.find("SAGE_ASC_PROGRAM_ENTRY(sage_asc_main)") != std::string::npos);
    }

    void simtKernelLaunchRunsThreads() {
        // A __global__ kernel without a core qualifier is a SIMT kernel: <<<grid, threads, ubuf,
        // stream>>>, passed wrapped so that a template's arguments are deduced from the call.
        const std::string text = "template <typename T> __global__ __launch_bounds__(64) void g(T* x) {}\n"
                                 "__global__ __aicore__ void v(float* x) {}\n"
                                 "template <int N>\n__vector__ __global__ void w(float* x) {}\n"
                                 "int main() {\n"
                                 "    g<<<4, 64, 0, stream>>>(p);\n"
                                 "    v<<<4, 0, stream>>>(p);\n"
                                 "    w<8><<<4, 0, stream>>>(p);\n"
                                 "    return 0;\n}\n";
        const auto p = eval::programSourceOf(text);
        QVERIFY2(p.error.empty(), p.error.c_str());
        QCOMPARE(p.launches, 3);
        // A core qualifier before __global__ (as AscendC's add example writes it) is a SIMD kernel too.
        QVERIFY2(p.source.find("::sage::asc::launcher(w<8>, \"w\"") != std::string::npos, p.source.c_str());
        QVERIFY2(p.source.find("::sage::asc::simtLauncher([](auto... a) { g(a...); }, \"g\", "
                               "::std::source_location::current(), 4, 64, 0, stream)(p)") != std::string::npos,
                 p.source.c_str());
        QVERIFY(p.source.find("::sage::asc::launcher(v, \"v\"") != std::string::npos);
    }

    void simtProgramRunsEveryThreadAndVerifies() {
        QTemporaryDir tmp;
        // In a folder of its own: the program's parent folder is searched for shared headers.
        const std::string dir = tmp.path().toStdString() + "/scale";
        fs::create_directories(dir);
        const std::string file = dir + "/scale.asc";
        std::ofstream(file) << "#include <cstdio>\n#include \"acl/acl.h\"\n"
                               "__global__ void scale(float* x, float* y, uint32_t n) {\n"
                               "    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n) y[i] = 3.0f * x[i];\n}\n"
                               "int main() {\n"
                               "    const uint32_t n = 1000;\n"
                               "    float *x = nullptr, *y = nullptr;\n"
                               "    aclrtMalloc((void**)&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);\n"
                               "    aclrtMalloc((void**)&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);\n"
                               "    float hx[1000], hy[1000];\n"
                               "    for (uint32_t i = 0; i < n; ++i) hx[i] = float(i) - 300.0f;\n"
                               "    aclrtMemcpy(x, n * 4, hx, n * 4, ACL_MEMCPY_HOST_TO_DEVICE);\n"
                               "    scale<<<3, 352, 0, nullptr>>>(x, y, n);\n"
                               "    aclrtMemcpy(hy, n * 4, y, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);\n"
                               "    for (uint32_t i = 0; i < n; ++i) if (hy[i] != 3.0f * hx[i]) return 1;\n"
                               "    return 0;\n}\n";
        const auto r = run(file);
        QVERIFY2(r.verified(), r.toText().c_str());
        QCOMPARE(r.exitCode.value_or(-1), 0);
        QCOMPARE(r.launches, 1);
    }

    void refusesProgramsItCannotRun() {
        QVERIFY(eval::programSourceOf("__global__ void k() {}\nvoid f() {}\n").error.find("no main()") !=
                std::string::npos);
        const auto bad = eval::programSourceOf("int main() {\n  <<<1, nullptr, s>>>(x);\n}\n");
        QVERIFY2(bad.error.find("line 2") != std::string::npos, bad.error.c_str());
        QVERIFY(bad.source.empty());
        // A main in a comment or a string is no main.
        QVERIFY(!eval::programSourceOf("// int main() {}\nconst char* s = \"int main(\";\n").error.empty());
    }

    void parsesCompareArguments() {
        const auto c = eval::parseProgramCompare("output/y.bin=output/golden.bin:float16");
        QCOMPARE(c.output, std::string("output/y.bin"));
        QCOMPARE(c.golden, std::string("output/golden.bin"));
        QCOMPARE(c.dtype, std::string("float16"));
        QCOMPARE(eval::parseProgramCompare("a.bin=b.bin").dtype, std::string("float32"));
        for (const char* bad : {"output.bin", "=golden.bin", "out.bin=", "a=b:float99", "/etc/x=b", "a=../b.bin"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, eval::parseProgramCompare(bad));
    }

    void selfCheckingProgramVerifies() {
        const auto r = run(data_ + "/vadd/vadd.asc");
        QVERIFY2(r.verified(), r.toText().c_str());
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::Ok)));
        QCOMPARE(r.exitCode.value_or(-1), 0);
        QCOMPARE(r.launches, 1);
        QVERIFY(r.cycles > 0);
        QVERIFY2(r.console.find("all 4096 elements match") != std::string::npos, r.console.c_str());
    }

    void failingSelfCheckIsNotVerified() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "vadd");
        replaceIn(dir + "/vadd.asc", "AscendC::Add(z, x, y", "AscendC::Sub(z, x, y");
        const auto r = run(dir + "/vadd.asc");
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::Ok)));
        QCOMPARE(r.exitCode.value_or(-1), 1);
        QVERIFY(!r.verified());
        QVERIFY2(r.console.find("mismatch at") != std::string::npos, r.console.c_str());
    }

    void stagedFilesAreComparedWithGolden() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "scale_files");
        writeScaleData(dir);
        const auto r = run(dir + "/scale.asc", {"output/y.bin=output/golden.bin:float16"});
        QVERIFY2(r.verified(), r.toText().c_str());
        QCOMPARE(r.inputs, std::vector<std::string>{"input/x.bin"});
        QCOMPARE(r.checks.size(), size_t(1));
        QVERIFY(r.checks[0].pass);
        QCOMPARE(r.checks[0].checked, uint64_t(kScaleElements));
        QCOMPARE(r.launches, 1);
    }

    void wrongGoldenElementFails() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "scale_files");
        writeScaleData(dir, 77);
        const auto r = run(dir + "/scale.asc", {"./output/y.bin=output/golden.bin:float16"});
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::Ok)));
        QCOMPARE(r.checks.size(), size_t(1));
        QVERIFY(!r.checks[0].pass);
        QCOMPARE(r.checks[0].mismatches, uint64_t(1));
        QVERIFY(!r.verified());
    }

    void uncomparedOutputIsNotVerified() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "scale_files");
        writeScaleData(dir);
        const auto r = run(dir + "/scale.asc");
        QCOMPARE(r.exitCode.value_or(-1), 0);
        QCOMPARE(r.unkeptWrites, 1);
        QVERIFY(!r.verified());
        QVERIFY2(r.toText().find("--compare") != std::string::npos, r.toText().c_str());
    }

    void missingInputOrGoldenIsReported() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "scale_files");
        // No golden file: refused before anything runs.
        auto r = run(dir + "/scale.asc", {"output/y.bin=output/golden.bin:float16"});
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::BadInput)));
        QVERIFY2(r.message.find("golden.bin") != std::string::npos, r.message.c_str());
        // A golden file but no input/: the program's ReadFile fails and its main says so.
        fs::create_directories(fs::path(dir) / "output");
        toolchain::writeFile(dir + "/output/golden.bin", std::string(kScaleElements * 2, '\0'));
        r = run(dir + "/scale.asc", {"output/y.bin=output/golden.bin:float16"});
        QCOMPARE(r.exitCode.value_or(-1), 1);
        QVERIFY(!r.verified());
        QVERIFY2(r.console.find("input/x.bin") != std::string::npos, r.console.c_str());
    }

    void outOfBoundsKernelIsASimulatorError() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "vadd");
        replaceIn(dir + "/vadd.asc", "aclrtMalloc((void**)&outDev, bytes,", "aclrtMalloc((void**)&outDev, bytes / 2,");
        const auto r = run(dir + "/vadd.asc");
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::SimError)));
        QVERIFY(!r.verified());
    }

    // `sage compat --whole-programs`: a program compiles with its template kernel instantiated by
    // its launch, so a broken kernel body fails there and not in the device-part count; a kernel
    // file without main is still compiled for its device part.
    void compatWholeProgramsInstantiateKernels() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "vadd");
        replaceIn(dir + "/vadd.asc", "AscendC::Add(z, x, y, perBlock);",
                  "static_assert(perBlock == 1, \"fails once instantiated\");");
        toolchain::writeFile(dir + "/kernel_only.asc", "#include \"kernel_operator.h\"\n"
                                                       "__global__ __aicore__ void only_kernel(GM_ADDR x) {}\n");
        toolchain::Compiler compiler(evaluator_->paths());
        eval::CompatScanner scanner(compiler, 2201, "ascend910b1-sim");
        auto fileOf = [&](const std::string& name) {
            for (const auto& f : scanner.scan(dir).files)
                if (f.path == name) return f;
            return eval::CompatFile{};
        };
        QVERIFY(fileOf("vadd.asc").compiled);  // device part: the template body is never instantiated
        scanner.wholePrograms = true;
        const auto whole = fileOf("vadd.asc");
        QVERIFY(whole.whole && !whole.compiled);
        QVERIFY2(whole.firstError.find("fails once instantiated") != std::string::npos, whole.firstError.c_str());
        const auto kernelOnly = fileOf("kernel_only.asc");
        QVERIFY(kernelOnly.compiled && !kernelOnly.whole);
    }

    void programsTheSourcePolicyRefuses() {
        QTemporaryDir tmp;
        const std::string dir = copyProgram(tmp, "vadd");
        replaceIn(dir + "/vadd.asc", "int main()", "int start()");
        auto r = run(dir + "/vadd.asc");
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::Rejected)));
        QVERIFY2(r.message.find("no main()") != std::string::npos, r.message.c_str());
        replaceIn(dir + "/vadd.asc", "int start()\n{", "int main()\n{\n    std::ifstream in(\"/etc/passwd\");");
        r = run(dir + "/vadd.asc");
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::Rejected)));
        QVERIFY2(r.message.find("file streams") != std::string::npos, r.message.c_str());
        r = run(dir + "/missing.asc");
        QCOMPARE(std::string(toString(r.status)), std::string(toString(toolchain::RunStatus::BadInput)));
    }
};

QTEST_GUILESS_MAIN(TestOpProgram)
#include "test_op_program.moc"
