// `sage compat`'s scanner over fixtures written here: an op project (tiling header, op
// definition, local header), a refused include, a missing API, and a file that is not a kernel.
#include "sage_eval/CompatScan.h"
#include "sage_eval/KernelSourceKind.h"
#include "sage_toolchain/ToolPaths.h"

#include <QtTest>

#include <algorithm>

using namespace sage;

class TestCompatScan : public QObject {
    Q_OBJECT

    static const eval::CompatFile* file(const eval::CompatReport& r, const std::string& path) {
        for (const auto& f : r.files)
            if (f.path == path) return &f;
        return nullptr;
    }

private slots:
    void scansOpProjectsAndLooseKernels() {
        toolchain::Compiler compiler(toolchain::ToolPaths::fromEnvironment());
        eval::CompatScanner scanner(compiler, 2201, "ascend910b1-sim");
        auto r = scanner.scan(SAGE_COMPAT_DATA_DIR);
        QCOMPARE(r.files.size(), size_t(4));  // notes.cpp has no kernel entry

        // A family op: tiling class and kernel header from the family's common/inc, DTYPE_X and
        // DTYPE_SCALAR from the first data type its op_host names.
        const auto* fam = file(r, "family/ops/fam_neg/op_kernel/fam_neg.cpp");
        QVERIFY(fam);
        QVERIFY2(fam->parsed && fam->compiled, fam->firstError.c_str());

        const auto* op = file(r, "scale_op/op_kernel/scale_op.cpp");
        QVERIFY(op);
        QVERIFY2(op->parsed && op->compiled, op->firstError.c_str());
        QCOMPARE(op->hostTiling, std::string("n/a"));

        const auto* refused = file(r, "loose/refused_include.cpp");
        QVERIFY(refused && !refused->parsed && !refused->compiled);
        QVERIFY2(refused->firstError.find(":3:") != std::string::npos &&
                     refused->firstError.find("does not implement") != std::string::npos,
                 refused->firstError.c_str());

        const auto* missing = file(r, "loose/missing_api.cpp");
        QVERIFY(missing && missing->parsed && !missing->compiled);
        QVERIFY(std::find(missing->missing.begin(), missing->missing.end(), "NotAnAscendApi") != missing->missing.end());
        QCOMPARE(r.missingCounts.at("NotAnAscendApi"), 1);

        auto j = r.toJson();
        QCOMPARE(j["totals"]["files"].get<int>(), 4);
        QCOMPARE(j["totals"]["parsed"].get<int>(), 3);
        QCOMPARE(j["totals"]["compiled"].get<int>(), 2);
        QVERIFY(r.toText().find("4 kernel files: 3 parsed (75 %), 2 compiled (50 %)") != std::string::npos);
    }
    // A launcher main.cpp is host code: listed apart, not a failed kernel. A kernel file holding
    // its own `<<<>>>` wrapper and an `.asc` program compile for their device part.
    void separatesHostLaunchersFromKernels() {
        toolchain::Compiler compiler(toolchain::ToolPaths::fromEnvironment());
        eval::CompatScanner scanner(compiler, 2201, "ascend910b1-sim");
        auto r = scanner.scan(SAGE_COMPAT_LAUNCH_DATA_DIR);
        QCOMPARE(r.files.size(), size_t(2));
        QCOMPARE(r.hostFiles.size(), size_t(1));
        QCOMPARE(r.hostFiles[0].path, std::string("add_launch/main.cpp"));
        QVERIFY2(r.hostFiles[0].reason.find("acl/acl.h") != std::string::npos, r.hostFiles[0].reason.c_str());

        const auto* withLaunch = file(r, "add_launch/add_kernel.cpp");
        QVERIFY(withLaunch);
        QCOMPARE(withLaunch->kind, std::string("program"));
        QVERIFY2(withLaunch->parsed && withLaunch->compiled, withLaunch->firstError.c_str());

        const auto* asc = file(r, "asc_add/asc_add.asc");
        QVERIFY(asc);
        QCOMPARE(asc->kind, std::string("program"));
        QVERIFY2(asc->parsed && asc->compiled, asc->firstError.c_str());

        auto j = r.toJson();
        QCOMPARE(j["totals"]["files"].get<int>(), 2);
        QCOMPARE(j["totals"]["compiled"].get<int>(), 2);
        QCOMPARE(j["totals"]["host_files"].get<int>(), 1);
        QCOMPARE(j["host_files"][0]["path"].get<std::string>(), std::string("add_launch/main.cpp"));
        const std::string text = r.toText();
        QVERIFY2(text.find("2 kernel files: 2 parsed (100 %), 2 compiled (100 %)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("1 host launchers") != std::string::npos, text.c_str());
    }
    void classifiesKernelSources() {
        using eval::KernelSourceKind;
        const std::string kernel = "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { }\n";
        QCOMPARE(eval::classifyKernelSource("k.cpp", kernel).kind, KernelSourceKind::Kernel);
        QCOMPARE(eval::classifyKernelSource("k.asc", kernel).kind, KernelSourceKind::Program);
        QCOMPARE(eval::classifyKernelSource("k.cpp", kernel + "void run(void* s) { k<<<8, nullptr, s>>>(nullptr); }\n").kind,
                 KernelSourceKind::Program);
        // Declares the kernel and drives it: a launcher, whichever host code gives it away.
        const std::string decl = "extern \"C\" __global__ __aicore__ void k(GM_ADDR x);\n";
        auto launcher = eval::classifyKernelSource("main.cpp", decl + "int main() { aclrtSetDevice(0); }\n");
        QCOMPARE(launcher.kind, KernelSourceKind::HostLauncher);
        QVERIFY2(launcher.hostMarker.find("aclrtSetDevice") != std::string::npos, launcher.hostMarker.c_str());
        QCOMPARE(eval::classifyKernelSource("t.cpp", "#include \"tikicpulib.h\"\n" + decl).kind, KernelSourceKind::HostLauncher);
        QCOMPARE(eval::classifyKernelSource("t.cpp", decl + "void t() { ICPU_RUN_KF(k, 8, nullptr); }").kind,
                 KernelSourceKind::HostLauncher);
        // Host code named only in comments and strings is no host code.
        QCOMPARE(eval::classifyKernelSource("k.cpp", kernel + "// k<<<8, 0, s>>>(x); aclInit(nullptr);\n"
                                                              "const char* s = \"#include <acl/acl.h>\";\n").kind,
                 KernelSourceKind::Kernel);
        QCOMPARE(eval::classifyKernelSource("", "").kind, KernelSourceKind::Kernel);
        QVERIFY(eval::definesKernelEntry(kernel));
        QVERIFY(!eval::definesKernelEntry(decl));
    }
    void deviceSourceDropsTheHostPart() {
        const std::string program =
            "#include \"acl/acl.h\"\n"                                      // 1
            "#include \"kernel_operator.h\"\n"                              // 2
            "namespace util { int twice(int v) { return 2 * v; } }\n"       // 3
            "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { if (x) { } }\n"  // 4
            "namespace host { void launch(void* s) { k<<<1, nullptr, s>>>(nullptr); } }\n"  // 5
            "#ifndef SKIP\n"                                                 // 6
            "int main() {\n  aclInit(nullptr);\n  return 0;\n}\n"           // 7-10
            "#endif\n";                                                      // 11
        const std::string device = eval::deviceSourceOf(program);
        QCOMPARE(device.size(), program.size());
        QCOMPARE(std::count(device.begin(), device.end(), '\n'), std::count(program.begin(), program.end(), '\n'));
        QVERIFY(device.find("acl/acl.h") == std::string::npos);
        QVERIFY(device.find("#include \"kernel_operator.h\"") != std::string::npos);
        QVERIFY(device.find("int twice(int v) { return 2 * v; }") != std::string::npos);
        QVERIFY(device.find("void k(GM_ADDR x) { if (x) { } }") != std::string::npos);
        QVERIFY(device.find("<<<") == std::string::npos && device.find("launch") == std::string::npos);
        QVERIFY(device.find("main") == std::string::npos && device.find("aclInit") == std::string::npos);
        QVERIFY(device.find("#ifndef SKIP") != std::string::npos && device.find("#endif") != std::string::npos);
        // A host tiling helper (no launch of its own) is host code too; a device helper is kept.
        const std::string withTiling = eval::deviceSourceOf(
            "#include \"tiling/tiling_api.h\"\n"
            "static int tile() { matmul_tiling::MultiCoreMatmulTiling api; return 0; }\n"
            "__aicore__ inline int half_of(int v) { return v / 2; }\n");
        QVERIFY(withTiling.find("tiling_api") == std::string::npos);
        QVERIFY(withTiling.find("MultiCoreMatmulTiling") == std::string::npos);
        QVERIFY(withTiling.find("half_of(int v) { return v / 2; }") != std::string::npos);
        // A function that calls host code (a tiling helper) is host code as well, however deep.
        const std::string chain = eval::deviceSourceOf(
            "struct Tiling { int n; };\n"
            "void ComputeTiling(Tiling& t) { std::vector<int> v{8}; t.n = v[0]; }\n"
            "void Prepare(Tiling& t) { ComputeTiling(t); }\n"
            "int Generate() { Tiling t; Prepare(t); return t.n; }\n"
            "__aicore__ inline int twice(int v) { return 2 * v; }\n"
            "__aicore__ inline int quad(int v) { return twice(twice(v)); }\n");
        QVERIFY2(chain.find("ComputeTiling") == std::string::npos && chain.find("Prepare") == std::string::npos &&
                     chain.find("Generate") == std::string::npos,
                 chain.c_str());
        QVERIFY(chain.find("struct Tiling { int n; };") != std::string::npos);
        QVERIFY(chain.find("quad(int v) { return twice(twice(v)); }") != std::string::npos);
        // Host types and variables go too: a struct of host buffers (a runtime stream, host
        // vectors), a global string, and the function that only takes that struct; a device class
        // and a device struct whose member shares a host function's name are kept.
        const std::string types = eval::deviceSourceOf(
            "struct Buffers { float* x = nullptr; aclrtStream stream = nullptr; };\n"
            "struct Golden {\n std::vector<float> values;\n};\n"
            "static std::string g_name = \"case\";\n"
            "static const uint32_t kTile = 64;\n"
            "void Release(Buffers& b) { b.x = nullptr; }\n"
            "int Fill(const ge::Shape& shape) { return 0; }\n"
            "template <typename T> class KernelX { public: __aicore__ void Fill() { n = kTile; } int n; };\n"
            "struct Params { int Fill; };\n");
        for (const char* gone : {"aclrtStream", "Buffers", "std::vector", "Golden", "g_name", "Release", "ge::Shape"})
            QVERIFY2(types.find(gone) == std::string::npos, (std::string(gone) + " kept in:\n" + types).c_str());
        QVERIFY2(types.find("static const uint32_t kTile = 64;") != std::string::npos, types.c_str());
        QVERIFY2(types.find("class KernelX { public: __aicore__ void Fill() { n = kTile; } int n; };") != std::string::npos,
                 types.c_str());
        QVERIFY2(types.find("struct Params { int Fill; };") != std::string::npos, types.c_str());
        // A kernel whose head is chosen by #if/#else keeps its body when a host function follows.
        const std::string split = eval::deviceSourceOf(
            "#if MODE == 2\nextern \"C\" __global__ __cube__ void k(GM_ADDR a)\n#else\n"
            "extern \"C\" __global__ __aicore__ void k(GM_ADDR a)\n#endif\n{\n    Run(a);\n}\n"
            "int Host() { std::vector<int> v; return 0; }\n");
        QVERIFY2(split.find("Run(a);") != std::string::npos, split.c_str());
        QVERIFY2(split.find("Host") == std::string::npos, split.c_str());
        // Unbalanced braces and empty text neither crash nor loop.
        QVERIFY(eval::deviceSourceOf("int main() { aclInit(nullptr);").find("aclInit") == std::string::npos);
        QCOMPARE(eval::deviceSourceOf(""), std::string());
        QCOMPARE(eval::deviceSourceOf("}}} {"), std::string("}}} {"));
    }
    void buildDefinitionsComeFromCacheVariables() {
        const std::string cmake = "set(SCENARIO_NUM \"4\" CACHE STRING \"case\")\n"
                                  "set(MODE fast)\n"
                                  "set(EVIL \"1;system(x)\")\n"
                                  "add_definitions(-DSCENARIO_NUM=${SCENARIO_NUM})\n"
                                  "target_compile_definitions(t PRIVATE MODE_NAME=${MODE} EVIL=${EVIL} UNSET=${NOPE})\n";
        const std::string defs = eval::buildDefinitionsOf(cmake);
        QVERIFY2(defs.find("#define SCENARIO_NUM 4\n") != std::string::npos, defs.c_str());
        QVERIFY2(defs.find("#define MODE_NAME fast\n") != std::string::npos, defs.c_str());
        QVERIFY2(defs.find("EVIL") == std::string::npos, defs.c_str());  // not a plain token: left out
        QVERIFY2(defs.find("UNSET") == std::string::npos, defs.c_str());   // no default to pass on
        QCOMPARE(eval::buildDefinitionsOf(""), std::string());
        // A variable the user must pass, checked against a list of valid values: the first one.
        const std::string required = "if(NOT DEFINED CASE_ID)\n  message(FATAL_ERROR \"pass -DCASE_ID\")\nendif()\n"
                                     "set(VALID_CASES 3 5 7)\nif(NOT CASE_ID IN_LIST VALID_CASES)\nendif()\n"
                                     "target_compile_definitions(t PRIVATE CASE_ID=${CASE_ID} OTHER=${OTHER})\n";
        const std::string requiredDefs = eval::buildDefinitionsOf(required);
        QVERIFY2(requiredDefs.find("#define CASE_ID 3\n") != std::string::npos, requiredDefs.c_str());
        QVERIFY2(requiredDefs.find("OTHER") == std::string::npos, requiredDefs.c_str());
        const std::string equalChecks = "if(NOT DEFINED MODE_NO)\nendif()\nif(NOT MODE_NO EQUAL 2 AND NOT MODE_NO EQUAL 4)\n"
                                        "endif()\ntarget_compile_definitions(t PRIVATE MODE_NO=${MODE_NO})\n";
        QVERIFY2(eval::buildDefinitionsOf(equalChecks).find("#define MODE_NO 2\n") != std::string::npos,
                 eval::buildDefinitionsOf(equalChecks).c_str());
    }
    void missingIdentifierPatterns() {
        using S = eval::CompatScanner;
        QCOMPARE(S::missingIdentifiers("‘BroadCast’ was not declared in this scope").at(0), std::string("BroadCast"));
        QCOMPARE(S::missingIdentifiers("'Mean' is not a member of 'AscendC'").at(0), std::string("Mean"));
        QCOMPARE(S::missingIdentifiers("‘AscendC::MaskMode’ has not been declared").at(0), std::string("MaskMode"));
        QCOMPARE(S::missingIdentifiers("no matching function for call to ‘Gather<float>(int)’").at(0),
                 std::string("Gather"));
        QVERIFY(S::missingIdentifiers("expected ‘;’ before ‘}’ token").empty());
    }
};

QTEST_MAIN(TestCompatScan)
#include "test_compat_scan.moc"
