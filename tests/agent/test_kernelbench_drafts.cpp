// The compute constructs added for KernelBench level 1 — the "window" kind (convolution,
// transposed convolution, pooling) and the matmul layouts (float32 operands, batches, flattened
// leading axes, transposed and triangular operands, a diagonal left operand): the built-in draft
// of each compiles and verifies through the real evaluation pipeline on the small and tail cases
// of a task that uses it (on the 910B, and a representative set on the 310P, which has no
// DataCopyPad), and a misused spec is refused at load (or by the composer) with the
// file and the field.
#include "AgentTestSupport.h"
#include "sage_agent/KernelComposer.h"
#include "sage_npu/DeviceProfile.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace sage;
namespace fs = std::filesystem;

class TestKernelbenchDrafts : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet tasks_;

    // A task of the port without its perf case (the construct, not the timing, is under test).
    eval::Task smallCases(const std::string& name) {
        const eval::Task* t = tasks_.find(name);
        if (!t) return {};
        eval::Task s = *t;
        s.cases.erase(std::remove_if(s.cases.begin(), s.cases.end(), [](const eval::TaskCase& c) { return c.perf; }),
                      s.cases.end());
        return s;
    }

    // Empty when the built-in draft of `t` on `device` compiles, runs and verifies on every case;
    // else what went wrong.
    QString draftFailure(const eval::Task& t, const std::string& device) {
        agent::DraftResult d = agent::composeDraft(t, evaluator_->devices().get(device), {});
        if (!d.ok) return QString::fromStdString("no draft: " + d.error);
        eval::EvalRequest req;
        req.source = d.source;
        req.kernelName = "draft.cpp";
        req.deviceId = device;
        req.seeds = 1;
        eval::Evaluation ev = evaluator_->evaluate(t, req);
        if (!ev.compile.ok)
            return QString::fromStdString(ev.compile.diagnostics.empty() ? "compile failed" : ev.compile.diagnostics[0].message);
        if (ev.run.status != toolchain::RunStatus::Ok) return QString::fromStdString("run: " + ev.run.message);
        if (ev.verify.cases.empty()) return "no case verified";
        for (const auto& c : ev.verify.cases)
            for (const auto& o : c.outputs)
                if (!o.pass) return QString::fromStdString(c.caseName + ": " + o.reason);
        return {};
    }

    std::string writeTask(const std::string& name, const std::string& json) {
        fs::path d = fs::path(dir_.path().toStdString()) / "bad" / name;
        fs::create_directories(d);
        std::ofstream(d / "task.json") << json;
        std::ofstream(d / "reference.cpp") << "// unused\n";
        return d.string();
    }

    // A 2-D convolution task whose compute.window is `window` (and "out" is `out`).
    std::string convTask(const std::string& name, const std::string& window, const std::string& out = "acc") {
        return writeTask(name, R"J({"name":")J" + name + R"J(","category":"convolution","description":"d","split":"train",
            "inputs":[{"name":"x","dtype":"float32","shape":["N","Cin","H","W"]},
                      {"name":"weight","dtype":"float32","shape":["Cout","Cin","k0","k1"]},
                      {"name":"bias","dtype":"float32","shape":["Cout"]}],
            "outputs":[{"name":"y","dtype":"float32","shape":["N","Cout","H - k0 + 1","W - k1 + 1"]}],
            "attrs":{"k0":3,"k1":3,"s0":1,"s1":1,"p0":0,"p1":0,"Cin":2,"Cout":4,"groups":1,"half":0.5},
            "cases":[{"name":"small","dims":{"N":1,"H":8,"W":8},"perf":true}],
            "compute":{"kind":"window","window":)J" + window + R"J(,"out":{"y":")J" + out + R"J("}}})J");
    }

    // Empty when loading `dir` is refused naming its task.json and `field`; else what happened.
    QString loadRefusal(const std::string& dir, const std::string& field) {
        try {
            eval::Task::loadDirectory(dir);
            return "the bad spec was accepted";
        } catch (const eval::TaskError& e) {
            const std::string m = e.what();
            if (m.find(dir + "/task.json") == std::string::npos || m.find("field '" + field + "'") == std::string::npos)
                return QString::fromStdString("refused without naming the file and field '" + field + "': " + m);
        }
        return {};
    }

    // A float32 matmul task a [M, K] x b [K, N]; `extra` goes into the compute spec.
    std::string matmulTask(const std::string& name, const std::string& extra) {
        return writeTask(name, R"J({"name":")J" + name + R"J(","category":"matmul","description":"d","split":"train",
            "inputs":[{"name":"a","dtype":"float32","shape":["M","K"]},{"name":"b","dtype":"float32","shape":["K","N"]}],
            "outputs":[{"name":"c","dtype":"float32","shape":["M","N"]}],
            "cases":[{"name":"small","dims":{"M":32,"K":16,"N":24},"perf":true}],
            "compute":{"kind":"matmul","compute_dtype":"float16","a":"a","b":"b",)J" + extra + R"J("out":{"c":"acc"}}})J");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        evaluator_ = evaluatorCachedIn(dir_.path());
        tasks_ = eval::TaskSet::load({SAGE_SOURCE_DIR "/resources/kernelbench/level1"});
        QVERIFY2(tasks_.errors.empty(), tasks_.errors.empty() ? "" : tasks_.errors.front().c_str());
    }

    void draftVerifies_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("device");
        // One task per construct: 1-D/2-D/3-D, bias, stride, padding, dilation, groups,
        // depthwise, pointwise, transposed (strided, dilated, grouped, output padding), pools.
        for (const char* n : {"kb67_conv1d", "kb50_conv2d_square_bias", "kb54_conv3d_square", "kb76_conv1d_dilated_strided",
                              "kb80_conv2d_dilated_padded", "kb82_conv_depthwise2d_square", "kb87_conv_pointwise2d",
                              "kb79_conv_transpose1d_padded_strided_dilated", "kb75_conv_transpose2d_strided_grouped_dilated",
                              "kb72_conv_transpose3d_strided_grouped", "kb41_max_pool_1d", "kb42_max_pool_2d",
                              "kb46_avg_pool_3d", "kb45_avg_pool_2d", "kb66_conv3d_asym_both",
                              // matmul layouts
                              "kb01_square_matmul", "kb04_matvec", "kb03_batched_matmul", "kb10_matmul_3d_by_2d",
                              "kb11_matmul_4d_by_2d", "kb12_diag_matmul", "kb14_matmul_upper_triangular",
                              "kb15_matmul_lower_triangular", "kb16_matmul_transposed_a", "kb17_matmul_transposed_b",
                              "kb18_matmul_transposed_both", "kb13_matmul_symmetric"})
            QTest::newRow(n) << n << "ascend910b1-sim";
        // 310P has no DataCopyPad: ragged output chunks end in an overlapping 32-byte unit, weight
        // rows and operand rows are read as whole units (kb66's small case has output slices of
        // 4 outputs, chunked as blocks of slices; kb87's 1-tap weight rows end inside a unit;
        // kb08's tail case has odd row lengths everywhere).
        for (const char* n : {"kb50_conv2d_square_bias", "kb66_conv3d_asym_both", "kb76_conv1d_dilated_strided",
                              "kb82_conv_depthwise2d_square", "kb87_conv_pointwise2d", "kb75_conv_transpose2d_strided_grouped_dilated",
                              "kb43_max_pool_3d", "kb45_avg_pool_2d", "kb08_matmul_irregular", "kb04_matvec",
                              "kb12_diag_matmul", "kb13_matmul_symmetric", "kb15_matmul_lower_triangular"})
            QTest::newRow((std::string(n) + " on 310P").c_str()) << n << "ascend310p3-sim";
    }
    void draftVerifies() {
        QFETCH(QString, task);
        QFETCH(QString, device);
        eval::Task t = smallCases(task.toStdString());
        QVERIFY2(!t.name.empty(), qPrintable("no task " + task));
        QVERIFY(t.compute.present);
        const QString failure = draftFailure(t, device.toStdString());
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    // Shapes below one 32-byte unit where it matters: operand rows and diagonal rows shorter than
    // a unit, output planes of 1 or 2 outputs (alone, or packed with the group's other channels).
    // On the 310P these take the element-by-element and packed paths; the 910B is the control.
    void tinyShapesVerify_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("dims");
        QTest::newRow("upper triangle, rows of 12") << "kb14_matmul_upper_triangular" << "N=12";
        QTest::newRow("symmetric, rows of 12") << "kb13_matmul_symmetric" << "N=12";
        QTest::newRow("lower triangle, rows of 20") << "kb15_matmul_lower_triangular" << "N=20";
        QTest::newRow("matvec, 15 and 5 elements") << "kb04_matvec" << "M=3,K=5";
        QTest::newRow("diagonal, rows of 5") << "kb12_diag_matmul" << "N=3,M=5";
        QTest::newRow("depthwise, 1 output per plane") << "kb82_conv_depthwise2d_square" << "N=1,H=3,W=3";
        QTest::newRow("conv1d, 2 outputs per plane") << "kb76_conv1d_dilated_strided" << "N=2,L=12";
        QTest::newRow("max pool 3d, 1 output per plane") << "kb43_max_pool_3d" << "N=1,C=3,D=2,H=2,W=2";
    }
    void tinyShapesVerify() {
        QFETCH(QString, task);
        QFETCH(QString, dims);
        eval::Task t = smallCases(task.toStdString());
        QVERIFY2(!t.name.empty(), qPrintable("no task " + task));
        eval::TaskCase tiny{"tiny", t.cases.front().dims, false};
        for (const QString& kv : dims.split(',')) tiny.dims[kv.section('=', 0, 0).toStdString()] = kv.section('=', 1).toLongLong();
        t.cases = {tiny};
        for (const char* device : {"ascend310p3-sim", "ascend910b1-sim"}) {
            const QString failure = draftFailure(t, device);
            QVERIFY2(failure.isEmpty(), qPrintable(QString(device) + ": " + failure));
        }
    }

    void badWindowSpecsNameFileAndField_data() {
        QTest::addColumn<QString>("window");
        QTest::addColumn<QString>("field");
        const QString geo = R"J("kernel":["k0","k1"])J";
        QTest::newRow("not an object") << R"J("conv")J" << "compute.window";
        QTest::newRow("unknown op") << R"J({"op":"unfold","input":"x",)J" + geo + "}" << "compute.window.op";
        QTest::newRow("input not an input") << R"J({"op":"max_pool","input":"z",)J" + geo + "}" << "compute.window.input";
        QTest::newRow("conv without weight") << R"J({"op":"conv","input":"x",)J" + geo + "}" << "compute.window.weight";
        QTest::newRow("pool with weight") << R"J({"op":"avg_pool","input":"x","weight":"weight",)J" + geo + "}"
                                          << "compute.window.weight";
        QTest::newRow("pool with groups") << R"J({"op":"max_pool","input":"x","groups":2,)J" + geo + "}"
                                          << "compute.window.groups";
        QTest::newRow("no kernel") << R"J({"op":"max_pool","input":"x"})J" << "compute.window.kernel";
        QTest::newRow("four axes") << R"J({"op":"max_pool","input":"x","kernel":[1,2,3,4]})J" << "compute.window.kernel";
        QTest::newRow("stride length") << R"J({"op":"max_pool","input":"x","stride":[1],)J" + geo + "}"
                                       << "compute.window.stride";
        QTest::newRow("unknown attr") << R"J({"op":"max_pool","input":"x","padding":["p0","q1"],)J" + geo + "}"
                                      << "compute.window.padding[1]";
        QTest::newRow("negative") << R"J({"op":"max_pool","input":"x","dilation":[1,-2],)J" + geo + "}"
                                  << "compute.window.dilation[1]";
        QTest::newRow("output padding on conv")
            << R"J({"op":"conv","input":"x","weight":"weight","output_padding":[0,0],)J" + geo + "}"
            << "compute.window.output_padding";
        QTest::newRow("same tensor twice") << R"J({"op":"conv","input":"x","weight":"x",)J" + geo + "}" << "compute.window";
        QTest::newRow("unknown field") << R"J({"op":"max_pool","input":"x","ceil_mode":true,)J" + geo + "}"
                                       << "compute.window.ceil_mode";
    }
    void badWindowSpecsNameFileAndField() {
        QFETCH(QString, window);
        QFETCH(QString, field);
        const QString why = loadRefusal(convTask("spec", window.toStdString()), field.toStdString());
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void windowFieldOutsideWindowKindIsRefused() {
        const std::string dir = writeTask("elementwise", R"J({"name":"e","category":"activation","description":"d",
            "split":"train","inputs":[{"name":"x","dtype":"float32","shape":["N"]}],
            "outputs":[{"name":"y","dtype":"float32","shape":["N"]}],"cases":[{"name":"small","dims":{"N":64},"perf":true}],
            "compute":{"kind":"elementwise","window":{"op":"max_pool","input":"x","kernel":[2]},"out":{"y":"x"}}})J");
        const QString why = loadRefusal(dir, "compute.window");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void badMatmulLayoutsNameTheField_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("field");
        QTest::newRow("not an object") << R"J("transposed")J" << "compute.layout";
        QTest::newRow("unknown field") << R"J({"conjugate_a":true})J" << "compute.layout.conjugate_a";
        QTest::newRow("not a boolean") << R"J({"transpose_a":"yes"})J" << "compute.layout.transpose_a";
        QTest::newRow("bad triangle") << R"J({"triangular":"diagonal"})J" << "compute.layout.triangular";
        QTest::newRow("diagonal and transposed") << R"J({"diagonal_a":true,"transpose_b":true})J" << "compute.layout.diagonal_a";
        QTest::newRow("symmetric and transposed") << R"J({"symmetric":true,"transpose_b":true})J" << "compute.layout.symmetric";
        QTest::newRow("triangle and transposed") << R"J({"triangular":"upper","transpose_a":true})J" << "compute.layout.triangular";
    }
    void badMatmulLayoutsNameTheField() {
        QFETCH(QString, layout);
        QFETCH(QString, field);
        const QString why = loadRefusal(matmulTask("layout", R"J("layout":)J" + layout.toStdString() + ","), field.toStdString());
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Layouts that load but whose shapes do not fit: the composer names the field.
    void composerRefusesMatmulShapes() {
        const npu::DeviceProfile& dev = evaluator_->devices().get("ascend910b1-sim");
        // a [M, K] x b [K, N] declared with transpose_a: a would be [K, M], the K axes differ.
        auto d = agent::composeDraft(eval::Task::loadDirectory(matmulTask("trans", R"J("layout":{"transpose_a":true},)J")), dev, {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("field 'compute.a'") != std::string::npos, d.error.c_str());
        // A triangle of non-square operands.
        d = agent::composeDraft(eval::Task::loadDirectory(matmulTask("tri", R"J("layout":{"triangular":"lower"},)J")), dev, {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("field 'compute.a'") != std::string::npos, d.error.c_str());
        // A diagonal a must be a vector.
        d = agent::composeDraft(eval::Task::loadDirectory(matmulTask("diag", R"J("layout":{"diagonal_a":true},)J")), dev, {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("field 'compute.layout.diagonal_a'") != std::string::npos, d.error.c_str());
        // The plain spec drafts (the control).
        d = agent::composeDraft(eval::Task::loadDirectory(matmulTask("plain", "")), dev, {});
        QVERIFY2(d.ok, d.error.c_str());
    }

    // Specs that load but that the composer cannot draft: refused with the field, not a crash.
    void composerRefusesWhatItCannotDraft_data() {
        QTest::addColumn<QString>("window");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("field");
        QTest::newRow("epilogue") << R"J({"op":"conv","input":"x","weight":"weight","kernel":["k0","k1"]})J"
                                  << "relu(acc)" << "compute.out.y";
        QTest::newRow("fractional attr") << R"J({"op":"conv","input":"x","weight":"weight","kernel":["k0","half"]})J"
                                         << "acc" << "compute.window.kernel[1]";
        QTest::newRow("zero stride") << R"J({"op":"conv","input":"x","weight":"weight","kernel":["k0","k1"],"stride":[1,0]})J"
                                     << "acc" << "compute.window.stride[1]";
        QTest::newRow("wrong rank") << R"J({"op":"conv","input":"x","weight":"weight","kernel":["k0"]})J"
                                    << "acc" << "compute.window.input";
        QTest::newRow("valid, with bias (control)") << R"J({"op":"conv","input":"x","weight":"weight","bias":"bias","kernel":["k0","k1"]})J"
                                          << "acc" << "";
        QTest::newRow("transposed padding") << R"J({"op":"conv_transpose","input":"x","weight":"weight","kernel":["k0","k1"],"padding":[3,0]})J"
                                            << "acc" << "compute.window.padding[0]";
        QTest::newRow("groups not dividing") << R"J({"op":"conv","input":"x","weight":"weight","kernel":["k0","k1"],"groups":3})J"
                                             << "acc" << "compute.window.groups";
    }
    void composerRefusesWhatItCannotDraft() {
        QFETCH(QString, window);
        QFETCH(QString, out);
        QFETCH(QString, field);
        const std::string dir = convTask("draft", window.toStdString(), out.toStdString());
        eval::Task t = eval::Task::loadDirectory(dir);
        agent::DraftResult d = agent::composeDraft(t, evaluator_->devices().get("ascend910b1-sim"), {});
        if (field.isEmpty()) {  // a valid spec: the control row
            QVERIFY2(d.ok, d.error.c_str());
            return;
        }
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("task.json") != std::string::npos, d.error.c_str());
        QVERIFY2(d.error.find("field '" + field.toStdString() + "'") != std::string::npos, d.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestKernelbenchDrafts)
#include "test_kernelbench_drafts.moc"
