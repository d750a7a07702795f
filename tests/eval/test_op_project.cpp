// `sage op` over an op project written here (tests/eval/data/ops/tiny_scale_add): the op's own
// host tiling runs in the sandbox and decides block dim, tiling key and workspace per case; and
// the errors for a project without op_host, a TilingFunc that fails, host code that leaves the
// sandbox, and a spec naming an input the op does not have.
#include "sage_eval/OpProject.h"
#include "sage_toolchain/Files.h"
#include "sage_config.h"

#include "FixtureEdit.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace sage;
namespace fs = std::filesystem;

class TestOpProject : public QObject {
    Q_OBJECT

    std::unique_ptr<eval::Evaluator> evaluator_;
    const std::string fixture_ = SAGE_OP_DATA_DIR "/tiny_scale_add";

    // A writable copy of the fixture, to break one thing in it.
    std::string copyFixture(const QTemporaryDir& tmp) {
        const fs::path dst = fs::path(tmp.path().toStdString()) / "tiny_scale_add";
        fs::copy(fixture_, dst, fs::copy_options::recursive);
        return dst.string();
    }
    static void replaceIn(const std::string& file, const std::string& from, const std::string& to) {
        replaceInFixture(file, from, to);
    }
    eval::OpRunReport run(const std::string& project, const std::string& spec) {
        eval::OpRunOptions o;
        o.timeoutSeconds = 120;
        return eval::OpRunner(*evaluator_).run(eval::OpProject::open(project), eval::OpSpec::loadDirectory(spec), o);
    }

private slots:
    void initTestCase() {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.binDir = SAGE_TEST_BIN_DIR;
        evaluator_ = std::make_unique<eval::Evaluator>(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
    }

    void hostTilingDecidesKeyBlockDimAndWorkspace() {
        auto r = run(fixture_, fixture_ + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
        QCOMPARE(r.op, std::string("TinyScaleAdd"));
        QCOMPARE(r.configs.size(), size_t(2));  // two attribute configurations, alpha 0.5 and 2
        for (const auto& c : r.configs) {
            QCOMPARE(c.tilings.size(), size_t(2));
            const auto& aligned = c.tilings[0];
            const auto& tail = c.tilings[1];
            QCOMPARE(aligned.caseName, std::string("aligned"));
            QCOMPARE(aligned.tilingKey, uint64_t(1));
            QCOMPARE(aligned.blockDim, 4u);           // 4096 elements, 1024 per block
            QCOMPARE(aligned.workspaceBytes, uint64_t(0));
            QCOMPARE(tail.tilingKey, uint64_t(2));
            QCOMPARE(tail.blockDim, 3u);              // 3001 elements
            QCOMPARE(tail.workspaceBytes, uint64_t(3 * 1008 * 4));  // blocks x perBlock x float
            QCOMPARE(aligned.tilingBytes, uint64_t(28));  // 3 scalars + uint32_t[4]
            QVERIFY(c.evaluation.verify.pass);
        }
        // The op definition comes from the op itself.
        QCOMPARE(r.opDef["inputs"].size(), size_t(2));
        QCOMPARE(r.opDef["attrs"][0]["name"].get<std::string>(), std::string("alpha"));
        QVERIFY(r.toJson()["host_tiling_ran"].get<bool>());
    }

    void aWrongReferenceFailsVerification() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        replaceIn(p + "/spec/reference.cpp", "x[i] + alpha * y[i]", "x[i] - alpha * y[i]");
        auto r = run(p, p + "/spec");
        QVERIFY(r.hostTilingRan());
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("do not match the reference") != std::string::npos, r.error.c_str());
    }

    void aKernelHeaderNextToTheProjectDoesNotShadowTheSimulators() {
        // Family headers are looked up next to the op directory; kernel_operator.h never is.
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        fs::create_directories(fs::path(tmp.path().toStdString()) / "stray");
        toolchain::writeFile((fs::path(tmp.path().toStdString()) / "stray" / "kernel_operator.h").string(),
                             "#include \"/usr/include/stdio.h\"\n");  // an include the source policy refuses
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
    }

    void missingOpHostIsRefused() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        fs::remove_all(p + "/op_host");
        try {
            eval::OpProject::open(p);
            QFAIL("a project without op_host opened");
        } catch (const eval::OpProjectError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("op_host") != std::string::npos && m.find("no host source") != std::string::npos, m.c_str());
        }
    }

    void failingTilingFunctionNamesTheCase() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        replaceIn(p + "/spec/task.json", "\"attrs\": {\"alpha\": 2}", "\"attrs\": {\"alpha\": -1}");
        auto r = run(p, p + "/spec");
        QVERIFY(!r.pass());
        QVERIFY(!r.hostTilingRan());
        QVERIFY2(r.error.find("config 'alpha2', case 'aligned'") != std::string::npos &&
                     r.error.find("GRAPH_FAILED") != std::string::npos,
                 r.error.c_str());
    }

    // CANN's current repositories: a templated kernel entry, a plain tiling struct filled through
    // GetTilingData<T>(), the log/log.h checks and the Ops::Base helpers (fixture tiny_axpy_tpl).
    void templatedEntryAndStructTilingRun() {
        const std::string p = SAGE_OP_DATA_DIR "/tiny_axpy_tpl";
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
        QCOMPARE(r.configs.size(), size_t(1));
        QCOMPARE(r.configs[0].tilings[0].blockDim, 4u);  // 4096 elements, 1024 per block
        QCOMPARE(r.configs[0].tilings[0].tilingBytes, uint64_t(sizeof(uint32_t) * 2 + sizeof(float)));
    }
    void templatedEntryRunsTheFirstDeclaredInstantiation() {
        QTemporaryDir tmp;
        const fs::path dst = fs::path(tmp.path().toStdString()) / "tiny_axpy_tpl";
        fs::copy(SAGE_OP_DATA_DIR "/tiny_axpy_tpl", dst, fs::copy_options::recursive);
        // The kernel asserts mode == 3: with 5 declared first, the instantiation that runs stops.
        for (int declaration = 0; declaration < 2; ++declaration)
            replaceIn((dst / "op_kernel/tiny_axpy_tpl_tiling_key.h").string(), "UI_LIST, 3, 5", "UI_LIST, 5, 3");
        auto r = run(dst.string(), dst.string() + "/spec");
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("sim_error") != std::string::npos, r.error.c_str());
    }
    void opCheckIfLogsWhyTheTilingFailed() {
        QTemporaryDir tmp;
        const fs::path dst = fs::path(tmp.path().toStdString()) / "tiny_axpy_tpl";
        fs::copy(SAGE_OP_DATA_DIR "/tiny_axpy_tpl", dst, fs::copy_options::recursive);
        replaceIn((dst / "spec/task.json").string(), "\"alpha\": 0.5", "\"alpha\": -1");
        auto r = run(dst.string(), dst.string() + "/spec");
        QVERIFY(!r.hostTilingRan());
        QVERIFY2(r.error.find("alpha -1.0 is refused") != std::string::npos, r.error.c_str());
    }
    void hostCodeThatOpensAFileIsStoppedBySandbox() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        replaceIn(p + "/op_host/tiny_scale_add.cpp", "if (alpha == -1.0f) return ge::GRAPH_FAILED;",
                  "if (std::fopen(\"/etc/hostname\", \"r\")) return ge::GRAPH_FAILED;");
        auto r = run(p, p + "/spec");
#if SAGE_SANITIZED
        // Sanitized builds let the runner open files read-only (ASan reads /proc/self/maps at any
        // time); the mount namespace still shows no /etc, so the open finds nothing and the tiling
        // goes on (docs/security.md). Contained, not a violation.
        QVERIFY2(r.pass(), r.error.c_str());
#else
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("sandbox_violation") != std::string::npos && r.error.find("op_host") != std::string::npos,
                 r.error.c_str());
#endif
    }

    void specNamingAnUnknownInputIsRefused() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        replaceIn(p + "/spec/task.json", "{\"name\": \"y\", \"dtype\": \"float32\"", "{\"name\": \"q\", \"dtype\": \"float32\"");
        replaceIn(p + "/spec/reference.cpp", "ctx.in(\"y\")", "ctx.in(\"q\")");
        auto r = run(p, p + "/spec");
        QVERIFY(!r.pass());
        // The op's required input y is missing from the spec (reported first), naming the field.
        QVERIFY2(r.error.find("task.json: field 'inputs'") != std::string::npos &&
                     r.error.find("'y' is missing") != std::string::npos,
                 r.error.c_str());
    }

    void specWithAnExtraInputIsRefused() {
        QTemporaryDir tmp;
        const std::string p = copyFixture(tmp);
        replaceIn(p + "/spec/task.json", "\"outputs\": [{\"name\": \"z\"",
                  "\"outputs\": [{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [\"N\"]}, {\"name\": \"z\"");
        auto r = run(p, p + "/spec");
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("'w' is not one of the op's outputs (z)") != std::string::npos, r.error.c_str());
    }

    void inPlaceOutputIntInt64InputAndImplOpTiling() {
        const std::string p = SAGE_OP_DATA_DIR "/tiny_accumulate";
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());  // steps up to 5e9 only fit an int64
        QCOMPARE(r.op, std::string("TinyAccumulate"));
        QCOMPARE(r.configs.at(0).tilings.at(0).blockDim, 1u);
    }

    // Issue 46, items 2 and 3: the tiling struct and TilingFunc live only under op_host/arch22/
    // (compiled for a 910B, arch35/ left out), and platform/soc_spec.h with PlatformAscendC
    // answers the chosen profile's architecture, vector cores and UB size.
    void archFolderTilingReadsTheProfileThroughSocSpec() {
        const std::string p = SAGE_OP_DATA_DIR "/arch_scale";
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
        const npu::DeviceProfile& d = evaluator_->devices().get("ascend910b1-sim");
        const auto& t = r.configs.at(0).tilings.at(0);
        QCOMPARE(t.blockDim, uint32_t(d.vectorCores));
        QCOMPARE(t.workspaceBytes, uint64_t(d.ubUsableBytes));
        QCOMPARE(d.npuArch, 2201);
    }

    // Issue 43: an op tree laid out as ops-nn's (tests/eval/data/ops/shim_tree). Its host sources
    // compile each as its own translation unit (two define the same file-local INPUT_X, one calls a
    // function the other defines), the pair_helper op it names in DEPENDENCIES brings the base
    // class its tiling derives from, its tiling includes a REG_OP prototype and reads a ListBool
    // attribute as bools; its shape inference does not compile, which is a note, not a stop. Its
    // kernel compares ORIG_DTYPE_X/Z with DT_ names in #if and static_assert, names int4b_t, and
    // declares its entry through a linkage macro that is `static` in the simulator's build.
    void opTreeHostSourcesDependenciesAndShapeInference() {
        const std::string p = SAGE_OP_DATA_DIR "/shim_tree/family/scale_pair";
        const eval::OpProject project = eval::OpProject::open(p);
        QCOMPARE(project.shapeInferenceSources.size(), size_t(1));
        QCOMPARE(project.dependencyDirs.size(), size_t(1));
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
        QCOMPARE(r.configs.size(), size_t(2));  // flags [true, false] negates, [false, true] does not
        QCOMPARE(r.configs[0].tilings.at(0).blockDim, 3u);  // PairTilingBase::Blocks: 3000 elements
        QCOMPARE(r.notes.size(), size_t(1));
        QVERIFY2(r.notes[0].find("scale_pair_infershape.cpp") != std::string::npos &&
                     r.notes[0].find("no_such_graph_header.h") != std::string::npos,
                 r.notes[0].c_str());
        QVERIFY(r.toText().find("note: the op's shape inference") != std::string::npos);
        QCOMPARE(r.toJson()["notes"].size(), size_t(1));
    }

    // Bad input to the same op: a flags list of one value is refused by the op's tiling through
    // OP_LOGE_FOR_INVALID_VALUE_WITH_REASON, whose line names the attribute and the reason.
    void invalidValueReportNamesTheAttribute() {
        QTemporaryDir tmp;
        const fs::path tree = fs::path(tmp.path().toStdString()) / "shim_tree";
        fs::copy(SAGE_OP_DATA_DIR "/shim_tree", tree, fs::copy_options::recursive);
        const fs::path op = tree / "family/scale_pair";
        replaceIn((op / "spec/task.json").string(), "\"flags\": [true, false]", "\"flags\": [true]");
        auto r = run(op.string(), (op / "spec").string());
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("config 'negated'") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("invalid value: flags; 1; flags must hold two values") != std::string::npos, r.error.c_str());
        // Without the dependency the header of the tiling's base class is missing: the error names it.
        fs::remove_all(tree / "family/pair_helper");
        auto lonely = run(op.string(), (op / "spec").string());
        QVERIFY(!lonely.pass());
        QVERIFY2(lonely.error.find("pair_tiling_base.h") != std::string::npos, lonely.error.c_str());
    }

    // An output the spec marks "verify": false is run but never compared: a reference that writes
    // nothing true for it still passes; unmarked, the same reference fails.
    void anUnverifiedOutputIsNotCompared() {
        QTemporaryDir tmp;
        const fs::path tree = fs::path(tmp.path().toStdString()) / "shim_tree";
        fs::copy(SAGE_OP_DATA_DIR "/shim_tree", tree, fs::copy_options::recursive);
        const fs::path op = tree / "family/scale_pair";
        replaceIn((op / "spec/reference.cpp").string(), "z[i] = x[i] * factor;", "z[i] = 1000 + x[i] * factor;");
        auto wrong = run(op.string(), (op / "spec").string());
        QVERIFY(!wrong.pass());
        replaceIn((op / "spec/task.json").string(), "\"z\", \"dtype\": \"float32\", \"shape\": [\"R\", \"C\"]",
                  "\"z\", \"dtype\": \"float32\", \"shape\": [\"R\", \"C\"], \"verify\": false");
        auto skipped = run(op.string(), (op / "spec").string());
        QVERIFY2(skipped.pass(), skipped.toText().c_str());
        QVERIFY(skipped.configs.at(0).evaluation.verify.cases.at(0).outputs.empty());
    }

    // A dynamic input (a tensor list, ops-nn's foreach ops) is declared in the spec as x_0, x_1,
    // ...: the host tiling sees one input with three instances, the kernel one argument, a tensor
    // list description. A spec without the list's tensors, or with a gap, is refused and told how.
    void tensorListInputReachesTilingAndKernel() {
        const std::string p = SAGE_OP_DATA_DIR "/shim_tree/family/list_sum";
        auto r = run(p, p + "/spec");
        QVERIFY2(r.pass(), r.toText().c_str());
        QCOMPARE(r.opDef["inputs"][0]["param"].get<std::string>(), std::string("dynamic"));
        QCOMPARE(r.configs.at(0).tilings.at(0).tilingBytes, uint64_t(8));
        QTemporaryDir tmp;
        const fs::path spec = fs::path(tmp.path().toStdString()) / "spec";
        fs::copy(p + "/spec", spec, fs::copy_options::recursive);
        replaceIn((spec / "task.json").string(), "\"x_0\"", "\"x_first\"");
        auto missing = run(p, spec.string());
        QVERIFY(!missing.pass());
        QVERIFY2(missing.error.find("'x' is a tensor list (dynamic): declare its tensors as x_0, x_1") != std::string::npos,
                 missing.error.c_str());
        // A gap in the numbering ends the list: x_9 belongs to no input the op has, and is refused.
        replaceIn((spec / "task.json").string(), "\"x_first\"", "\"x_0\"");
        replaceIn((spec / "task.json").string(), "\"x_1\"", "\"x_9\"");
        auto gap = run(p, spec.string());
        QVERIFY(!gap.pass());
        QVERIFY2(gap.error.find("'x_9' is not one of the op's inputs") != std::string::npos, gap.error.c_str());
    }

    void inPlaceOutputMissingFromTheSpecSaysItsName() {
        QTemporaryDir tmp;
        const fs::path dst = fs::path(tmp.path().toStdString()) / "tiny_accumulate";
        fs::copy(SAGE_OP_DATA_DIR "/tiny_accumulate", dst, fs::copy_options::recursive);
        replaceIn((dst / "spec/task.json").string(), "\"acc_ref\"", "\"total\"");
        replaceIn((dst / "spec/reference.cpp").string(), "\"acc_ref\"", "\"total\"");
        auto r = run(dst.string(), (dst / "spec").string());
        QVERIFY(!r.pass());
        QVERIFY2(r.error.find("'acc' is missing: add {\"name\": \"acc_ref\"") != std::string::npos, r.error.c_str());
    }

    void specLookupByOpName() {
        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "specs" / "ops" / "tiny_scale_add";
        fs::create_directories(root);
        toolchain::writeFile((root / "task.json").string(), "{}");
        QCOMPARE(eval::findOpSpec((fs::path(tmp.path().toStdString()) / "specs").string(), fixture_), root.string());
        QCOMPARE(eval::findOpSpec(tmp.path().toStdString(), fixture_), std::string());
    }

    void templateSpecFromTheOpDefinition() {
        std::string error;
        auto def = eval::OpRunner(*evaluator_).describe(eval::OpProject::open(fixture_), "ascend910b1-sim", error);
        QVERIFY2(!def.is_null(), error.c_str());
        auto t = nlohmann::json::parse(eval::opSpecTemplate(def, "tiny_scale_add"));
        QCOMPARE(t["op"].get<std::string>(), std::string("TinyScaleAdd"));
        QCOMPARE(t["inputs"][1]["name"].get<std::string>(), std::string("y"));
        QCOMPARE(t["attrs"]["alpha"].get<double>(), 1.0);
        QVERIFY(eval::opReferenceTemplate(def).find("ctx.out(\"z\")") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestOpProject)
#include "test_op_project.moc"
