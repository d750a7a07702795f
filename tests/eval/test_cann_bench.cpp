// CANN Bench read in its own layout (docs/cann-bench.md): a small folder written here in that layout
// (tests/eval/data/cann_bench_mini: a string attribute, inputs of two dtypes, an index check) goes
// through load -> golden (PyTorch, confined) -> the kernel on the simulated device -> CANN Bench's
// criterion -> HAP and the operator score. The criterion and the scores are also pinned on tensors
// built here, on both sides of each threshold.
#include "sage_eval/CannBench.h"
#include "sage_eval/CannCriterion.h"
#include "sage_eval/CannScore.h"
#include "sage_eval/Evaluator.h"
#include "sage_eval/GoldenRunner.h"
#include "sage_toolchain/Process.h"
#include "sage_toolchain/RunJob.h"
#include "sage_toolchain/TensorCodec.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace sage;
namespace fs = std::filesystem;

namespace {
const std::string kMini = std::string(SAGE_TEST_DATA_DIR) + "/cann_bench_mini";

std::string kernel(const char* name) {
    std::ifstream in(std::string(SAGE_TEST_DATA_DIR) + "/cann_bench_kernels/" + name);
    return {std::istreambuf_iterator<char>(in), {}};
}

eval::RawTensor raw(const std::vector<uint8_t>& bytes, const std::string& dtype, std::vector<int64_t> shape) {
    return {bytes.empty() ? nullptr : bytes.data(), bytes.size(), dtype, std::move(shape)};
}

std::string show(const eval::OutputCheck& o) {
    return "pass=" + std::to_string(o.pass) + " mere=" + std::to_string(o.mere) + " mare=" + std::to_string(o.mare) + " reason=" + o.reason;
}
} // namespace

class TestCannBench : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet set_;
    std::string pythonProblem_;

    const eval::Task& task(const char* name) {
        const eval::Task* t = set_.find(name);
        if (!t) qFatal("no task %s", name);
        return *t;
    }

    eval::Evaluation run(const eval::Task& t, const std::string& source) {
        eval::EvalRequest req;
        req.source = source;
        req.kernelName = t.name + ".cpp";
        return evaluator_->evaluate(t, req);
    }

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        auto paths = toolchain::ToolPaths::fromEnvironment();
        paths.binDir = SAGE_TEST_BIN_DIR;
        paths.cacheDir = cache_.path().toStdString();
        evaluator_ = std::make_unique<eval::Evaluator>(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
        set_ = eval::TaskSet::load({kMini});
        QVERIFY2(set_.errors.empty(), set_.errors.empty() ? "" : set_.errors[0].c_str());
        pythonProblem_ = eval::GoldenRunner(paths).pythonProblem();
    }

    // The layout as it is: levels, per-case dtypes and attributes, the metadata's times.
    void loadsTheLayoutAsItIs() {
        QCOMPARE(set_.tasks.size(), size_t(3));
        const auto& relu = task("scaled_relu");
        QVERIFY(relu.bench);
        QCOMPARE(relu.bench->level, std::string("level1"));
        QCOMPARE(relu.bench->proto.function, std::string("scaled_relu"));
        QCOMPARE(relu.cases.size(), size_t(3));
        QCOMPARE(relu.bench->cases[1].attrs["mode"].get<std::string>(), std::string("negate"));
        QCOMPARE(relu.bench->cases[1].dtypes[0].get<std::string>(), std::string("float16"));
        QCOMPARE(*eval::cannbench::numberOf(relu.bench->cases[2].valueRange[0]), -INFINITY);  // YAML's -.inf
        QVERIFY(!eval::cannbench::numberOf(nlohmann::json("inf")));  // a string stays a string
        QVERIFY(relu.bench->cases[0].timing && relu.bench->cases[0].timing->measured);
        QVERIFY(relu.bench->cases[1].timing && !relu.bench->cases[1].timing->measured);  // 10 us = max(10 t_hw, 10): derived
        QCOMPARE(relu.bench->thresholdFor("float16"), std::ldexp(1.0, -10));
        // Its compute spec beside its files (sage_spec.json): the built-in policy drafts it.
        QVERIFY2(relu.computeGap.empty(), relu.computeGap.c_str());
        QVERIFY(relu.compute.present);
        QCOMPARE(relu.cases[1].dims.at("n"), int64_t(1000));
        const auto& masked = task("masked_keep");
        QVERIFY2(masked.computeGap.find("different dtypes") != std::string::npos, masked.computeGap.c_str());
        QVERIFY2(masked.computeGap.find("no compute spec") != std::string::npos, masked.computeGap.c_str());
        const auto& argmax = task("row_argmax");
        QCOMPARE(argmax.bench->level, std::string("level2"));
        QVERIFY(!argmax.bench->proto.outputs[0].compare);
        QCOMPARE(argmax.bench->proto.outputs[0].indexGather.value("value_reduce", ""), std::string("amax"));
        QVERIFY(!argmax.bench->cases[1].timing);  // the metadata has no entry for case 2
    }

    void badFoldersSayWhereAndWhat() {
        QTemporaryDir d;
        const fs::path op = fs::path(d.path().toStdString()) / "broken";
        fs::create_directories(op);
        std::ofstream(op / "golden.py") << "def broken(x): return x\n";
        std::ofstream(op / "proto.yaml") << "operator:\n  name: Broken\n  inputs:\n  - name: x\n  outputs:\n  - name: y\n"
                                            "  schema: broken(Tensor x) -> Tensor y\n";
        std::ofstream(op / "cases.yaml") << "cases:\n- case_id: 1\n  input_shape: [[4], [4]]\n  dtype: [float32]\n";  // 2 shapes, 1 input
        auto error = [&] {
            try {
                eval::cannbench::loadOperator(op.string());
                return std::string();
            } catch (const eval::TaskError& e) {
                return std::string(e.what());
            }
        };
        std::string e = error();
        QVERIFY2(e.find("cases.yaml: field 'cases[0].input_shape'") != std::string::npos, e.c_str());
        std::ofstream(op / "cases.yaml") << "cases:\n- case_id: 1\n  input_shape: [[4]\n";
        e = error();
        QVERIFY2(e.find("cases.yaml:") != std::string::npos && e.find("not valid YAML") != std::string::npos, e.c_str());
        std::ofstream(op / "proto.yaml") << "operator:\n  name: Broken\n  outputs:\n  - name: y\n  schema: no parenthesis\n";
        std::ofstream(op / "cases.yaml") << "cases:\n- case_id: 1\n  input_shape: [[4]]\n";
        e = error();
        QVERIFY2(e.find("proto.yaml: field 'operator.schema'") != std::string::npos, e.c_str());
    }

    // A compute spec's view: dims read from each case's input shapes, and a spec that cannot be
    // drafted says why instead of loading wrong.
    void draftSpecViews() {
        auto op = std::make_shared<eval::cannbench::Operator>(*task("scaled_relu").bench);
        op->cases[0].inputShapes = nlohmann::json::parse("[[2, 3, 5, 7]]");
        op->cases[0].attrs["dim"] = -2;
        op->draftSpec = nlohmann::json::parse(R"J({"view": "shapes", "shapes": {"x": ["A", "R", "B"], "y": ["A", "R", "B"]},
            "dims": {"A": "x.outer(dim)", "R": "x.axis(dim)", "B": "x.inner(dim)", "N": "x.last", "M": "x.lead", "T": "x.numel", "F": "x.0"},
            "compute": {"kind": "axis", "axis": 1, "out": {"y": "x / row_sum(x)"}}})J");
        const auto dims = eval::cannbench::draftDimsOf(*op, op->cases[0]);
        QCOMPARE(dims.at("A"), int64_t(6));
        QCOMPARE(dims.at("R"), int64_t(5));
        QCOMPARE(dims.at("B"), int64_t(7));
        QCOMPARE(dims.at("N"), int64_t(7));
        QCOMPARE(dims.at("M"), int64_t(30));
        QCOMPARE(dims.at("T"), int64_t(210));
        QCOMPARE(dims.at("F"), int64_t(2));
        QCOMPARE(eval::cannbench::draftShapeOf(op->draftSpec, "y"), (std::vector<std::string>{"A", "R", "B"}));
        QVERIFY2(eval::cannbench::draftGap(*op).empty(), eval::cannbench::draftGap(*op).c_str());
        op->draftSpec["dims"]["B"] = "x.inner(missing)";  // an attribute no case has
        std::string gap = eval::cannbench::draftGap(*op);
        QVERIFY2(gap.find("field 'dims.B'") != std::string::npos && gap.find("no integer attribute 'missing'") != std::string::npos, gap.c_str());
        op->draftSpec = nlohmann::json::parse(R"J({"view": "flat", "compute": {"kind": "rowwise", "out": {"y": "x"}}})J");
        gap = eval::cannbench::draftGap(*op);
        QVERIFY2(gap.find("the flat view drafts elementwise (without split) and reduce_all specs") != std::string::npos, gap.c_str());
        op->draftSpec = nlohmann::json::parse(R"J({"view": "flat", "compute": {"kind": "elementwise", "out": {"y": "x * nosuch"}}})J");
        gap = eval::cannbench::draftGap(*op);
        QVERIFY2(gap.find("nosuch") != std::string::npos, gap.c_str());
        const eval::Task t = eval::cannbench::toTask(op);  // not draftable: loads, evaluates, does not claim to draft
        QVERIFY(!t.compute.present);
        QVERIFY(!t.computeGap.empty());
    }

    // Right in every element but one float16 ulp off at 1.0 (relative error exactly 2^-10 = T):
    // MERE is not below T, yet no element exceeds 10 T, so CANN Bench's criterion passes it; eleven
    // ulps off (above 10 T) fails, since the same-precision reference has no such element.
    void oneUlpOffIsJudgedAsCannBenchJudgesIt() {
        const size_t n = 256;
        std::vector<double> golden(n, 1.0), oneUlp(n, 1.0 + std::ldexp(1.0, -10)), elevenUlps(n, 1.0 + 11 * std::ldexp(1.0, -10));
        const auto g = toolchain::encodeTensor("float16", golden);
        const auto a1 = toolchain::encodeTensor("float16", oneUlp), a11 = toolchain::encodeTensor("float16", elevenUlps);
        const double t = std::ldexp(1.0, -10);
        auto one = eval::judgeCannOutput("y", raw(a1, "float16", {16, 16}), raw(g, "float16", {16, 16}), {}, t);
        QVERIFY2(one.pass, show(one).c_str());
        QCOMPARE(one.criterion, std::string("cann"));
        QVERIFY(std::abs(one.mare - t) < 1e-9);
        auto eleven = eval::judgeCannOutput("y", raw(a11, "float16", {16, 16}), raw(g, "float16", {16, 16}), {}, t);
        QVERIFY2(!eleven.pass, show(eleven).c_str());
        QCOMPARE(eleven.mismatches, uint64_t(n));
        QVERIFY2(eleven.reason.find("above 10 T") != std::string::npos, eleven.reason.c_str());
        // Below T on average: the fast path, MERE and MARE as computed.
        std::vector<double> mostlyRight(n, 1.0);
        mostlyRight[0] = 1.0 + std::ldexp(1.0, -10);
        const auto a = toolchain::encodeTensor("float16", mostlyRight);
        auto fine = eval::judgeCannOutput("y", raw(a, "float16", {256}), raw(g, "float16", {256}), {}, t);
        QVERIFY(fine.pass);
        QVERIFY(std::abs(fine.mere - t / n) < 1e-9);
        // The same-precision reference is allowed twice its bad elements: the kernel's 3 against its 1 fail, 2 pass.
        std::vector<double> ref(n, 1.0), kernelBad(n, 1.0);
        ref[5] = 1.5;
        for (int i : {1, 2, 3}) kernelBad[size_t(i)] = 1.5;
        const auto r = toolchain::encodeTensor("float16", ref), k3 = toolchain::encodeTensor("float16", kernelBad);
        QVERIFY(!eval::judgeCannOutput("y", raw(k3, "float16", {256}), raw(g, "float16", {256}), raw(r, "float16", {256}), t).pass);
        kernelBad[3] = 1.0;
        const auto k2 = toolchain::encodeTensor("float16", kernelBad);
        QVERIFY(eval::judgeCannOutput("y", raw(k2, "float16", {256}), raw(g, "float16", {256}), raw(r, "float16", {256}), t).pass);
    }

    void specialValuesAndIntegers() {
        const double nan = std::nan(""), inf = INFINITY, t = std::ldexp(1.0, -13);
        const auto g = toolchain::encodeTensor("float32", {1.0, nan, inf, -inf});
        QVERIFY(eval::judgeCannOutput("y", raw(g, "float32", {4}), raw(g, "float32", {4}), {}, t).pass);
        const auto movedNan = toolchain::encodeTensor("float32", {nan, 1.0, inf, -inf});
        auto o = eval::judgeCannOutput("y", raw(movedNan, "float32", {4}), raw(g, "float32", {4}), {}, t);
        QVERIFY(!o.pass);
        QVERIFY2(o.reason.find("NaN positions") != std::string::npos, o.reason.c_str());
        const auto flipped = toolchain::encodeTensor("float32", {1.0, nan, -inf, -inf});
        QVERIFY(!eval::judgeCannOutput("y", raw(flipped, "float32", {4}), raw(g, "float32", {4}), {}, t).pass);
        const auto gi = toolchain::encodeTensor("int8", {1, -2, 3}), ai = toolchain::encodeTensor("int8", {1, -1, 3});
        QVERIFY(!eval::judgeCannOutput("y", raw(ai, "int8", {3}), raw(gi, "int8", {3}), {}, 0).pass);
        QVERIFY(eval::judgeCannOutput("y", raw(ai, "int8", {3}), raw(gi, "int8", {3}), {}, 1.0).pass);  // dynamic_quant's +-1
        const auto shorter = toolchain::encodeTensor("float32", {1.0, 2.0});
        auto s = eval::judgeCannOutput("y", raw(shorter, "float32", {2}), raw(g, "float32", {4}), {}, t);
        QVERIFY(!s.pass);
        QVERIFY2(s.reason.find("2 float32 elements where the golden has 4") != std::string::npos, s.reason.c_str());
    }

    void indexCheckAcceptsTiesAndRefusesWrongIndices() {
        // x [2, 3]: row 0 ties at 0 and 2, row 1 peaks at 1.
        const auto x = toolchain::encodeTensor("float32", {5, 1, 5, 0, 9, 2});
        for (auto idx : {std::vector<double>{0, 1}, std::vector<double>{2, 1}}) {
            const auto i = toolchain::encodeTensor("int64", idx);
            auto o = eval::judgeIndexOutput("i", raw(i, "int64", {2}), raw(x, "float32", {2, 3}), -1, "amax", false, {});
            QVERIFY2(o.pass, o.reason.c_str());
        }
        const auto wrong = toolchain::encodeTensor("int64", {1, 1}), outOfRange = toolchain::encodeTensor("int64", {0, 3});
        QVERIFY(!eval::judgeIndexOutput("i", raw(wrong, "int64", {2}), raw(x, "float32", {2, 3}), 1, "amax", false, {}).pass);
        QVERIFY(!eval::judgeIndexOutput("i", raw(outOfRange, "int64", {2}), raw(x, "float32", {2, 3}), 1, "amax", false, {}).pass);
        // Along dim 0 with amin: column minima at rows 1, 0, 1.
        const auto cols = toolchain::encodeTensor("int64", {1, 0, 1});
        QVERIFY(eval::judgeIndexOutput("i", raw(cols, "int64", {3}), raw(x, "float32", {2, 3}), 0, "amin", false, {}).pass);
    }

    // CANN Bench passes infinite attributes (masked_scale's scale = inf): they reach the runner.
    void infiniteAttributesTravelToTheRunner() {
        toolchain::RunJob job;
        toolchain::RunSpec run;
        run.attrs = {{"scale", INFINITY}, {"low", -INFINITY}, {"odd", std::nan("")}, {"alpha", 0.5}};
        job.runs.push_back(run);
        const auto back = toolchain::runJobFromJson(nlohmann::json::parse(toolchain::toJson(job).dump()));
        QCOMPARE(back.runs[0].attrs.at("scale"), double(INFINITY));
        QCOMPARE(back.runs[0].attrs.at("low"), -double(INFINITY));
        QVERIFY(std::isnan(back.runs[0].attrs.at("odd")));
        QCOMPARE(back.runs[0].attrs.at("alpha"), 0.5);
    }

    void hapAndScores() {
        QCOMPARE(*eval::hapScore(10, 10, 1), 0.5);   // as fast as CANN's kernel
        QCOMPARE(*eval::hapScore(1, 10, 1), 1.0);    // at the hardware bound
        QVERIFY(*eval::hapScore(19, 10, 1) < 0.5);
        QVERIFY(!eval::hapScore(0, 10, 1));
        QVERIFY(!eval::hapScore(0.5, 1, 1));  // denominator not positive
        QCOMPARE(eval::operatorScore(false, {{true, 1.0}}), 0.0);
        QCOMPARE(eval::operatorScore(true, {{true, 0.5}, {false, std::nullopt}}), 100.0 * (0.2 + (0.3 + 0.25) / 2));
        QCOMPARE(eval::operatorScore(true, {{true, std::nullopt}}), 50.0);
        const auto sums = eval::levelSums({{"a", "level1", 10}, {"b", "level1", 5}, {"c", "level2", 1}});
        QCOMPARE(sums.at("level1"), 15.0);
        QCOMPARE(sums.at("level2"), 1.0);
    }

    // The shims for what torch 1.13 lacks compute what the newer PyTorch documents.
    void goldenShimsPassTheirHandComputedCases() {
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        toolchain::ProcessSpec ps;
        ps.argv = {eval::GoldenRunner::pythonPath(), toolchain::ToolPaths::fromEnvironment().resources + "/cann-bench/golden_shims.py", "--self-test"};
        const auto r = toolchain::runProcess(ps);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.find("ok") != std::string::npos, r.err.c_str());
    }

    // load -> golden -> kernel -> criterion -> HAP, for each of the three operators.
    void endToEndThroughTheGoldens() {
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        for (const char* name : {"scaled_relu", "masked_keep", "row_argmax"}) {
            const auto& t = task(name);
            const auto ev = run(t, kernel((std::string(name) + ".cpp").c_str()));
            QVERIFY2(ev.success(), (std::string(name) + ": " + ev.run.message + " " + ev.toJson().dump().substr(0, 1500)).c_str());
            QCOMPARE(ev.verify.cases.size(), t.cases.size());
            for (const auto& c : ev.verify.cases)
                for (const auto& o : c.outputs) QVERIFY(o.criterion == "cann" || o.criterion == "cann_index");
            const auto score = eval::scoreBenchEvaluation(t, ev);
            QCOMPARE(score["accurate_cases"].get<size_t>(), t.cases.size());
            // HAP from the simulated time and the metadata, exactly as the formula says.
            const auto& first = score["cases"][0];
            QVERIFY(first["device_us"].is_number());
            const double hap = (first["baseline_us"].get<double>() - first["hw_us"].get<double>()) /
                               ((first["device_us"].get<double>() - first["hw_us"].get<double>()) +
                                (first["baseline_us"].get<double>() - first["hw_us"].get<double>()));
            QVERIFY(std::abs(first["hap"].get<double>() - hap) < 1e-12);
            QVERIFY(score["score"].get<double>() > 50);
        }
        // One kernel, two binaries: the string attribute chooses the code (float32 relu, float16 negate).
        const auto& relu = task("scaled_relu");
        const std::string wrong = [&] {
            std::string s = kernel("scaled_relu.cpp");
            s.replace(s.find("#ifdef ATTR_MODE_RELU"), 21, "#if 1");
            return s;
        }();
        const auto bad = run(relu, wrong);
        QVERIFY(bad.compile.ok);
        QVERIFY(!bad.verify.pass);
        QVERIFY(bad.verify.cases[0].pass);   // relu case
        QVERIFY(!bad.verify.cases[1].pass);  // negate case
        QVERIFY2(!bad.verify.cases[1].outputs[0].reason.empty(), bad.verify.cases[1].outputs[0].reason.c_str());
        const auto score = eval::scoreBenchEvaluation(relu, bad);
        QCOMPARE(score["accurate_cases"].get<int>(), 1);
        QVERIFY(score["cases"][1]["hap"].is_null());
        // A second evaluation reads every golden from the cache.
        QVERIFY(fs::exists(fs::path(cache_.path().toStdString()) / "golden"));
    }
};

QTEST_GUILESS_MAIN(TestCannBench)
#include "test_cann_bench.moc"
