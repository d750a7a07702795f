// Misuse of the atvoss vector operator templates is a compile error that says what is wrong:
// kernels with a malformed DAG are compiled through the toolchain (as `sage eval` compiles a
// candidate) and the first diagnostic is checked.
#include "sage_toolchain/Compiler.h"
#include "sage_toolchain/ToolPaths.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace sage;

namespace {
const char* kHeader = R"(#include "kernel_operator.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/reduce/reduce_sch.h"
using namespace Ops::Base;
)";

// A DAG with an output, wrapped so that each case replaces one part.
std::string kernel(const std::string& dag, const std::string& body) {
    return std::string(kHeader) + dag +
           "\nextern \"C\" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {\n"
           "    EleBaseTilingData t{};\n" +
           body + "\n}\n";
}
const char* kGoodDag = R"(
using X = Bind<Vec::CopyIn<float>, Placeholder::In0<float>>;
using E = Bind<Vec::Exp<float>, X>;
using Y = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, E>;
using Good = DAGSch<Elems<Y>>;
)";
} // namespace

class TestNpuApiAtvossMisuse : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string firstError(const std::string& source) {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.cacheDir = (dir_.path() + "/cache").toStdString();
        const toolchain::Compiler compiler(paths);
        toolchain::CompileRequest req;
        req.deviceId = "ascend910b1-sim";
        req.source = source;
        auto r = compiler.compile(req);
        if (r.ok) return "";
        std::string all;
        for (const auto& d : r.diagnostics) all += d.message + "\n";
        return all;
    }

private slots:
    void aWellFormedDagCompiles() {
        const std::string e = firstError(kernel(kGoodDag, "ElementwiseSch<0UL, Good> s(t); s.Init(x, y); s.Process();"));
        QVERIFY2(e.empty(), e.c_str());
    }
    void anOutputThatIsNotCopiedOutIsRefused() {
        const std::string dag = std::string(kGoodDag) + "using Bad = DAGSch<Elems<E>>;\n";
        const std::string e = firstError(kernel(dag, "ElementwiseSch<0UL, Bad> s(t); s.Init(x, y); s.Process();"));
        QVERIFY2(e.find("must be a Bind<Vec::CopyOut") != std::string::npos, e.c_str());
    }
    void anOutputIndexBoundTwiceOrSkippedIsRefused() {
        const std::string dag = std::string(kGoodDag) +
                                "using Y1 = Bind<Vec::CopyOut<float>, Placeholder::Out1<float>, X>;\n"
                                "using Bad = DAGSch<Elems<Y1>>;\n";
        const std::string e = firstError(kernel(dag, "ElementwiseSch<0UL, Bad> s(t); s.Init(x, y); s.Process();"));
        QVERIFY2(e.find("Out0, Out1, ... each exactly once") != std::string::npos, e.c_str());
    }
    void theWrongNumberOfGmAddressesIsRefused() {
        const std::string e = firstError(kernel(kGoodDag, "ElementwiseSch<0UL, Good> s(t); s.Init(x, y, z); s.Process();"));
        QVERIFY2(e.find("number of GM addresses passed does not match") != std::string::npos, e.c_str());
    }
    void aReductionOutsideTheReduceScheduleIsRefused() {
        const std::string dag = std::string(kGoodDag) +
                                "using S = Bind<Vec::ReduceSumOp<float>, X>;\n"
                                "using Ys = Bind<Vec::CopyOut<float>, Placeholder::Out0<float>, S>;\n"
                                "using Bad = DAGSch<Elems<Ys>>;\n";
        const std::string e = firstError(kernel(dag, "ElementwiseSch<0UL, Bad> s(t); s.Init(x, y); s.Process();"));
        QVERIFY2(e.find("needs the reduce schedule") != std::string::npos, e.c_str());
    }
    void aReduceDagWithoutAReductionIsRefused() {
        const std::string e = firstError(kernel(
            kGoodDag, "TPipe p; ReduceOpTilingData r{}; ReduceSch<0, 0, 0, Good> s(&r); s.Init(&p, x, y); s.Process();"));
        QVERIFY2(e.find("exactly one Vec::Reduce*Op") != std::string::npos, e.c_str());
    }
    void setVarBeyondTheDagsVarsIsRefused() {
        const std::string e = firstError(
            kernel(kGoodDag, "ElementwiseSch<0UL, Good> s(t); s.SetVar<float, 2>(1.0f); s.Init(x, y); s.Process();"));
        QVERIFY2(e.find("no Placeholder::Var with this N") != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNpuApiAtvossMisuse)
#include "test_npu_api_atvoss_misuse.moc"
