// `sage compat`'s scanner over fixtures written here: an op project (tiling header, op
// definition, local header), a refused include, a missing API, and a file that is not a kernel.
#include "sage_eval/CompatScan.h"
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
