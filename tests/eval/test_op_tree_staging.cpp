// Includes that leave an op's folder but stay in its op tree resolve as CANN's build stages the
// tree (issue 46, item 1): "../inc/x.h" is common/inc/op_kernel/x.h, "../<op>/x.h" a sibling op's
// op_kernel/x.h; a link out of the tree is still refused and never read. Op trees written here.
#include "sage_eval/CompatScan.h"
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/ToolPaths.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace sage;
namespace fs = std::filesystem;

class TestOpTreeStaging : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    toolchain::ToolPaths paths_;

    static void write(const fs::path& p, const std::string& text) {
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
    }
    // An op tree: the shared kernel headers in common/inc/op_kernel, a sibling op `sib` whose
    // header includes them by their staged path, and `myop` (norm/myop) whose kernel reaches both.
    fs::path writeTree(const std::string& name) {
        const fs::path tree = fs::path(dir_.path().toStdString()) / name;
        fs::remove_all(tree);
        write(tree / "common/inc/op_kernel/platform.h",
              "#ifndef TEST_PLATFORM_H\n#define TEST_PLATFORM_H\n#include \"nn_utils.h\"\n"
              "constexpr int kPlatformMark = 7 + kUtilsMark;\n#endif\n");
        write(tree / "common/inc/op_kernel/nn_utils.h", "#pragma once\nconstexpr int kUtilsMark = 3;\n");
        write(tree / "norm/sib/op_kernel/sib_base.h",
              "#pragma once\n#include \"../inc/platform.h\"\nconstexpr int kSibMark = kPlatformMark + 1;\n");
        // A path from the file itself that stays inside the tree resolves too.
        write(tree / "norm/myop/op_kernel/arch35/myop_impl.h",
              "#pragma once\n#include \"../../../../common/inc/op_kernel/platform.h\"\n"
              "constexpr int kImplMark = kPlatformMark * 2;\n");
        write(tree / "norm/myop/op_kernel/myop.cpp",
              "#include \"kernel_operator.h\"\n#include \"../inc/platform.h\"\n#include \"../sib/sib_base.h\"\n"
              "#include \"arch35/myop_impl.h\"\n"
              "static_assert(kSibMark == 11 && kImplMark == 20, \"the tree's own headers were compiled\");\n"
              "extern \"C\" __global__ __aicore__ void myop(GM_ADDR x) { (void)x; }\n");
        return tree;
    }
    eval::CompatFile scan(const fs::path& tree, const fs::path& file) {
        toolchain::Compiler compiler(paths_);
        eval::CompatScanner scanner(compiler, 2201, "ascend910b1-sim");
        return scanner.scanFile(tree.string(), file.string());
    }

    // A host tiling header declaring `structName` with one uint32_t `field`, registered for `opClass`.
    static std::string tilingHeader(const std::string& structName, const std::string& field, const std::string& opClass) {
        return "#pragma once\n#include \"register/tilingdata_base.h\"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(" + structName +
               ")\nTILING_DATA_FIELD_DEF(uint32_t, " + field + ");\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(" + opClass + ", " +
               structName + ")\n}\n";
    }
    // A kernel `entry` that reads its tiling with `getTiling` (into t) and touches t.<field>.
    static std::string kernelReading(const std::string& entry, const std::string& getTiling, const std::string& field) {
        return "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void " + entry + "(GM_ADDR x, GM_ADDR tiling) {\n    " +
               getTiling + ";\n    (void)t." + field + ";\n    (void)x;\n}\n";
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        paths_ = toolchain::ToolPaths::fromEnvironment();
        paths_.cacheDir = dir_.filePath("cache").toStdString();
    }

    void includesUpToTheTreesCommonFolderResolve() {
        const fs::path tree = writeTree("resolves");
        const fs::path kernel = tree / "norm/myop/op_kernel/myop.cpp";
        const eval::OpKernelBuild b = eval::prepareOpKernel(tree.string(), kernel.string(), paths_.npuInclude);
        QVERIFY2(b.refused.empty(), b.refused.empty() ? "" : b.refused.front().message.c_str());
        // The files the compiler reads from the stage, under the paths CANN's build copies them to.
        std::set<std::string> staged;
        for (const auto& f : b.request.staged) staged.insert(f.path);
        QCOMPARE(staged, (std::set<std::string>{"inc/platform.h", "inc/nn_utils.h", "sib/sib_base.h"}));
        QCOMPARE(b.request.stagedDir, std::string("myop"));
        const eval::CompatFile r = scan(tree, kernel);
        QVERIFY2(r.parsed && r.compiled, r.firstError.c_str());
    }

    // CANN's common/inc/op_kernel/platform.h includes the basic API by its bare name
    // ("kernel_basic_intf.h", basic_api/ being on CANN's include path): it must reach the simulator's API.
    void sharedHeaderReachesTheBasicApiByBareName() {
        const fs::path tree = writeTree("bare_basic_api");
        write(tree / "common/inc/op_kernel/platform.h",
              "#pragma once\n#include \"kernel_basic_intf.h\"\n#include \"nn_utils.h\"\n"
              "constexpr int kPlatformMark = 7 + kUtilsMark;\n"
              "template <typename T> __aicore__ inline uint32_t BlockBytes() { return AscendC::ONE_BLK_SIZE; }\n");
        const eval::CompatFile r = scan(tree, tree / "norm/myop/op_kernel/myop.cpp");
        QVERIFY2(r.parsed && r.compiled, r.firstError.c_str());
    }

    // Tiling structs where CANN's ops keep them (issue 46, item 3): the op's op_host/arch22/ for a
    // 910B (arch35/ is another architecture's and stays out), or, for a family, the header of a
    // sibling op that registers the op's class (ops-nn's foreach_utils/op_host/foreach_tiling_def.h).
    void tilingStructsAreFoundInTheArchFolderAndTheFamilysSibling() {
        const fs::path tree = writeTree("tiling_places");
        write(tree / "norm/myop/op_host/arch22/myop_tiling.h", tilingHeader("MyopArch22Tiling", "mark22", "Myop"));
        write(tree / "norm/myop/op_host/arch35/myop_tiling_arch35.h", "#error ARCH35-HEADER-IN-A-910B-BUILD\n");
        write(tree / "norm/myop/op_kernel/myop.cpp", kernelReading("myop", "GET_TILING_DATA(t, tiling)", "mark22"));
        const eval::CompatFile own = scan(tree, tree / "norm/myop/op_kernel/myop.cpp");
        QVERIFY2(own.parsed && own.compiled, own.firstError.c_str());
        // A family member with no tiling header of its own.
        write(tree / "norm/fam_utils/op_host/fam_tiling_def.h", tilingHeader("FamCommonTiling", "famMark", "FamAbs"));
        write(tree / "norm/fam_abs/op_host/fam_abs_def.cpp", "// the definition only\n");
        write(tree / "norm/fam_abs/op_kernel/fam_abs.cpp",
              kernelReading("fam_abs", "GET_TILING_DATA_WITH_STRUCT(FamCommonTiling, t, tiling)", "famMark"));
        const eval::CompatFile family = scan(tree, tree / "norm/fam_abs/op_kernel/fam_abs.cpp");
        QVERIFY2(family.parsed && family.compiled, family.firstError.c_str());
    }

    // A header of the op's own op_kernel/ that the kernel finds next to itself (read from the tree,
    // not the stage) may still climb by its staged path, as CANN compiles it from the stage
    // (ops-nn's rms_norm/op_kernel/arch35/*.h: "../../norm_common/reduce_common_regbase.h"). Such
    // includes sit in another architecture's #if branch: the policy accepts them, the 910B compile
    // never opens them. One that leads to no file of the tree is still refused, with its name.
    void anOwnHeaderMayIncludeByItsStagedPath() {
        const fs::path tree = writeTree("own_header_staged");
        write(tree / "norm/norm_shared/op_kernel/reduce_shared.h", "#pragma once\nconstexpr int kSharedMark = 5;\n");
        write(tree / "norm/myop/op_kernel/arch35/myop_regbase.h",
              "#pragma once\n#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510\n"
              "#include \"../../norm_shared/reduce_shared.h\"\n#endif\nconstexpr int kRegbaseMark = 1;\n");
        write(tree / "norm/myop/op_kernel/myop.cpp",
              "#include \"kernel_operator.h\"\n#include \"arch35/myop_regbase.h\"\n"
              "static_assert(kRegbaseMark == 1, \"the op's header was compiled\");\n"
              "extern \"C\" __global__ __aicore__ void myop(GM_ADDR x) { (void)x; }\n");
        const fs::path kernel = tree / "norm/myop/op_kernel/myop.cpp";
        const eval::OpKernelBuild b = eval::prepareOpKernel(tree.string(), kernel.string(), paths_.npuInclude);
        QVERIFY2(b.refused.empty(), b.refused.empty() ? "" : b.refused.front().message.c_str());
        std::set<std::string> staged;
        for (const auto& f : b.request.staged) staged.insert(f.path);
        QVERIFY(staged.count("norm_shared/reduce_shared.h"));
        const eval::CompatFile r = scan(tree, kernel);
        QVERIFY2(r.parsed && r.compiled, r.firstError.c_str());
        // A staged path that leads nowhere is refused and named.
        write(tree / "norm/myop/op_kernel/arch35/myop_regbase.h",
              "#pragma once\n#include \"../../norm_missing/reduce_shared.h\"\nconstexpr int kRegbaseMark = 1;\n");
        const eval::OpKernelBuild bad = eval::prepareOpKernel(tree.string(), kernel.string(), paths_.npuInclude);
        QVERIFY(!bad.refused.empty());
        QVERIFY2(bad.refused.front().message.find("norm_missing/reduce_shared.h") != std::string::npos,
                 bad.refused.front().message.c_str());
    }

    void linkOutOfTheTreeIsRefused() {
        const fs::path tree = writeTree("linked");
        const fs::path secret = tree.parent_path() / "secret-outside";
        write(secret / "platform.h", "#error SECRET-HEADER-46\n");
        write(secret / "sib_base.h", "#error SECRET-SIBLING-46\n");
        // The shared folder is a link out of the tree.
        fs::remove_all(tree / "common/inc/op_kernel");
        fs::create_directory_symlink(secret, tree / "common/inc/op_kernel");
        const eval::CompatFile shared = scan(tree, tree / "norm/myop/op_kernel/myop.cpp");
        QVERIFY(!shared.parsed && !shared.compiled);
        QVERIFY2(shared.firstError.find("resolves to no file of the op tree") != std::string::npos, shared.firstError.c_str());
        QVERIFY2(shared.firstError.find("SECRET") == std::string::npos, shared.firstError.c_str());
        // A sibling's header linked out of the tree: the same.
        write(tree / "norm/other/op_kernel/other.cpp",
              "#include \"kernel_operator.h\"\n#include \"../sib/sib_base.h\"\n"
              "extern \"C\" __global__ __aicore__ void other(GM_ADDR x) { (void)x; }\n");
        fs::remove(tree / "norm/sib/op_kernel/sib_base.h");
        fs::create_symlink(secret / "sib_base.h", tree / "norm/sib/op_kernel/sib_base.h");
        const eval::CompatFile sibling = scan(tree, tree / "norm/other/op_kernel/other.cpp");
        QVERIFY(!sibling.parsed && !sibling.compiled);
        QVERIFY2(sibling.firstError.find("other.cpp:2:") != std::string::npos, sibling.firstError.c_str());
        QVERIFY2(sibling.firstError.find("SECRET") == std::string::npos, sibling.firstError.c_str());
    }

    // The compiler sees the staged text it is given (part of the cache key), and nothing outside its stage.
    void compilerCompilesTheStagedText() {
        toolchain::Compiler compiler(paths_);
        toolchain::CompileRequest cr;
        cr.source = "#include \"../inc/p.h\"\nstatic_assert(kStaged == 5, \"staged text\");\n";
        cr.displayName = "k.cpp";
        cr.staged = {{"inc/p.h", "constexpr int kStaged = 5;\n"}};
        cr.stagedDir = "myop";
        auto ok = compiler.compile(cr);
        QVERIFY2(ok.ok, ok.diagnostics.empty() ? "" : ok.diagnostics.front().message.c_str());
        cr.staged[0].text = "constexpr int kStaged = 6;\n";
        auto changed = compiler.compile(cr);
        QVERIFY(!changed.ok);
        QVERIFY(!changed.cached);
        cr.staged[0].path = "../inc/p.h";
        auto escaped = compiler.compile(cr);
        QVERIFY(!escaped.ok);
        QVERIFY2(!escaped.diagnostics.empty() && escaped.diagnostics[0].message.find("leaves the staging folder") != std::string::npos,
                 escaped.diagnostics.empty() ? "" : escaped.diagnostics[0].message.c_str());
    }
};

QTEST_MAIN(TestOpTreeStaging)
#include "test_op_tree_staging.moc"
