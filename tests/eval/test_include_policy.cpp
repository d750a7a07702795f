// The include rules of the kernel source policy (issue 13, part 2): op-directory headers,
// kernel_tiling/kernel_tiling.h and the lib/ headers we ship are allowed; anything else is
// refused with the reason and the line.
#include "sage_toolchain/SourcePolicy.h"

#include <QFileInfo>

#include <algorithm>
#include <QtTest>

using sage::toolchain::SourcePolicy;

class TestIncludePolicy : public QObject {
    Q_OBJECT

    static const sage::toolchain::Diagnostic* at(const std::vector<sage::toolchain::Diagnostic>& d, int line) {
        for (const auto& x : d)
            if (x.line == line && x.kind == sage::toolchain::DiagnosticKind::RejectedInclude) return &x;
        return nullptr;
    }

private slots:
    void kernelTilingHeaderIsAllowedEverywhere() {
        auto d = SourcePolicy::check("#include \"kernel_operator.h\"\n#include \"kernel_tiling/kernel_tiling.h\"\n",
                                     "k.cpp");
        QVERIFY(d.empty());
    }
    void shippedHeadersExistInTheKernelIncludeDir() {
        for (const auto& h : SourcePolicy::shippedAscendHeaders())
            QVERIFY2(QFileInfo::exists(QString(SAGE_NPU_INCLUDE_DIR) + "/" + QString::fromStdString(h)), h.c_str());
    }
    void localHeaderAllowedOnlyWhenTheOpDirectoryHasIt() {
        const std::string src = "#include \"kernel_operator.h\"\n#include \"add_tiling.h\"\n"
                                "#include \"../op_host/add_tiling.h\"\n";
        auto single = SourcePolicy::check(src, "add.cpp");
        const auto* d = at(single, 2);
        QVERIFY(d);
        QVERIFY2(d->message.find("sage op DIR") != std::string::npos, d->message.c_str());
        QVERIFY(at(single, 3));
        auto inProject = SourcePolicy::check(src, "add.cpp", {"add_tiling.h", "../op_host/add_tiling.h"});
        QVERIFY(inProject.empty());
        // A header of the op directory is quoted; the same name in <> is not the local file.
        auto angled = SourcePolicy::check("#include <add_tiling.h>\n", "add.cpp", {"add_tiling.h"});
        QVERIFY(at(angled, 1));
    }
    void refusalsSayWhyAndWhere() {
        const std::string src = "#include \"kernel_operator.h\"\n"
                                "#include \"lib/softmax/not_here.h\"\n"
                                "#include \"register/tilingdata_base.h\"\n"
                                "#include <fstream>\n";
        auto d = SourcePolicy::check(src, "k.cpp");
        QCOMPARE(std::count_if(d.begin(), d.end(), [](const auto& x) { return x.kind == sage::toolchain::DiagnosticKind::RejectedInclude; }), 3L);
        QVERIFY2(at(d, 2) && at(d, 2)->message.find("library header the simulator does not implement") !=
                                 std::string::npos, at(d, 2) ? at(d, 2)->message.c_str() : "none");
        QVERIFY2(at(d, 3) && at(d, 3)->message.find("CANN host header") != std::string::npos,
                 at(d, 3) ? at(d, 3)->message.c_str() : "none");
        QVERIFY(at(d, 4) && at(d, 4)->message.find("not a header a kernel may use") != std::string::npos);
        QCOMPARE(at(d, 4)->column, 1);
    }
    void localHeaderTextIsCheckedLikeAKernel() {
        // OpProject runs check() on each local header too: a header may not smuggle in a refused API.
        auto d = SourcePolicy::check("inline int f() { return system(\"ls\"); }\n", "op_kernel/common.h");
        QCOMPARE(d.size(), size_t(1));
        QVERIFY(d[0].kind == sage::toolchain::DiagnosticKind::RejectedApi);
        QCOMPARE(d[0].file, std::string("op_kernel/common.h"));
    }
};

QTEST_MAIN(TestIncludePolicy)
#include "test_include_policy.moc"
