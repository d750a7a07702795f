// The built-in policy on a CANN Bench operator with a compute spec (tests/eval/data/cann_bench_mini/
// level1/scaled_relu: a string attribute choosing the formula, float32 and float16 cases): one draft
// source with a variant per case variant that verifies on every case, and optimiser moves that
// change every variant alike. Also the variant layout's own parser (CaseVariants), and the
// constructs CANN Bench's operators need (tests/agent/data/cann_bench_drafts): an input split into
// parts along a case's axis, lets over attributes computed on the host.
#include "AgentTestSupport.h"
#include "CaseVariants.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/KernelComposer.h"
#include "sage_eval/CannBench.h"
#include "sage_eval/Evaluator.h"
#include "sage_eval/GoldenRunner.h"

#include <QtTest>

using namespace sage;
using nlohmann::json;

namespace {
size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}
} // namespace

class TestBenchDrafts : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet set_;
    std::string pythonProblem_;

    const eval::Task& relu() { return *set_.find("scaled_relu"); }
    const npu::DeviceProfile& device() { return evaluator_->devices().get("ascend910b1-sim"); }
    const eval::Task& gate() { return *set_.find("half_gate"); }
    eval::Evaluation evaluate(const std::string& source, const eval::Task* task = nullptr) {
        eval::EvalRequest req;
        req.source = source;
        return evaluator_->evaluate(task ? *task : relu(), req);
    }

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        evaluator_ = evaluatorCachedIn(cache_.path());
        set_ = eval::TaskSet::load({SAGE_CANN_BENCH_MINI, SAGE_CANN_BENCH_DRAFTS});
        QVERIFY(set_.find("scaled_relu"));
        pythonProblem_ = eval::GoldenRunner(evaluator_->paths()).pythonProblem();
    }

    void variantLayoutSplitsAndJoins() {
        const std::string source = std::string("// head\nconstexpr int K = 1;  // shared\n") + agent::CaseVariants::kMarker +
                                   "\n#if defined(A)\nint a;\n#ifdef INNER\nint inner;\n#endif\n#elif defined(B)\nint b;\n#else\n#error none\n#endif\n";
        const auto v = agent::CaseVariants::split(source);
        QVERIFY(v);
        QCOMPARE(v->blocks.size(), size_t(2));
        QCOMPARE(v->blocks[0].second, std::string("int a;\n#ifdef INNER\nint inner;\n#endif\n"));  // a nested #if stays in its body
        QCOMPARE(v->blocks[1].first, std::string("#elif defined(B)\n"));
        QCOMPARE(v->tail, std::string("#else\n#error none\n#endif\n"));
        QCOMPARE(v->join(), source);
        QCOMPARE(v->file(1), std::string("// head\nconstexpr int K = 1;  // shared\n") + agent::CaseVariants::kMarker + "\nint b;\n");
        QVERIFY(!agent::CaseVariants::split("int plain;\n"));
        QVERIFY(!agent::CaseVariants::split(std::string(agent::CaseVariants::kMarker) + "\nint no_block;\n"));
    }

    // One source, a variant per (dtype, mode): float32 relu and float16 negate for the three cases.
    void draftsOneSourceForEveryCase() {
        const auto d = agent::composeDraft(relu(), device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY2(d.source.find("defined(DTYPE_X_IS_FLOAT32) && defined(DTYPE_Y_IS_FLOAT32) && defined(ATTR_MODE_RELU)") != std::string::npos,
                 d.source.substr(0, 2000).c_str());
        QVERIFY(d.source.find("defined(DTYPE_X_IS_FLOAT16) && defined(DTYPE_Y_IS_FLOAT16) && defined(ATTR_MODE_NEGATE)") != std::string::npos);
        QVERIFY(d.source.find("defined(DTYPE_X_IS_FLOAT32) && defined(DTYPE_Y_IS_FLOAT32) && defined(ATTR_MODE_NEGATE)") != std::string::npos);
        QCOMPARE(count(d.source, "@tunable buffer_num"), size_t(1));  // declared once, shared
        const auto v = agent::CaseVariants::split(d.source);
        QVERIFY(v);
        QCOMPARE(v->blocks.size(), size_t(3));
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(d.source);
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 1500)).c_str());
        QCOMPARE(ev.verify.cases.size(), size_t(3));
    }

    // A structural move (multi-core split) and a knob move change every variant alike, and verify.
    void movesApplyToEveryVariant() {
        const auto d = agent::composeDraft(relu(), device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        std::string why;
        const auto multi = agent::BuiltinPolicy::apply(d.source, {{"type", "transform"}, {"name", "multi_core"}}, nullptr, &device(), &why);
        QVERIFY2(multi, why.c_str());
        const auto v = agent::CaseVariants::split(multi->source);
        QVERIFY(v);
        for (const auto& [guard, body] : v->blocks) QVERIFY2(body.find("GetBlockIdx()") != std::string::npos, guard.c_str());
        QVERIFY(multi->description.find("every case variant") != std::string::npos);
        const auto knob = agent::BuiltinPolicy::apply(multi->source, {{"type", "set_tunable"}, {"name", "buffer_num"}, {"value", 2}},
                                                      nullptr, &device(), &why);
        QVERIFY2(knob, why.c_str());
        QCOMPARE(count(knob->source, "BUFFER_NUM = 2;"), size_t(1));
        const auto after = agent::CaseVariants::split(knob->source);
        for (size_t i = 0; i < v->blocks.size(); ++i) QCOMPARE(after->blocks[i].second, v->blocks[i].second);  // bodies unchanged
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(knob->source);
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 1500)).c_str());
        QVERIFY(ev.profile.blockDim > 1);
    }

    // half_gate: x split in halves along the case's dim (last, first, middle axis; rows of 20
    // floats that are not whole 32-byte units), scaled by 1 / (1 - beta^step). The draft reads
    // each half with a strided copy, computes the scale on the host in double, verifies on every
    // case, and still verifies when the optimiser spreads it over cores.
    void splitAlongAnAxisDraftsAndVerifies() {
        QVERIFY(set_.find("half_gate"));
        QCOMPARE(gate().computeGap, std::string());
        const auto d = agent::composeDraft(gate(), device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY2(d.source.find("std::pow((double(ctx.attr(\"beta\")))") != std::string::npos, d.source.c_str());  // on the host
        QVERIFY(d.source.find("std::log") == std::string::npos);  // not in float on the device
        QVERIFY(d.source.find("(uint64_t)r * 2 + 1") != std::string::npos);  // the second half's rows
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(d.source, &gate());
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 2000)).c_str());
        QCOMPARE(ev.verify.cases.size(), size_t(3));
        std::string why;
        const auto multi = agent::BuiltinPolicy::apply(d.source, {{"type", "transform"}, {"name", "multi_core"}}, nullptr, &device(), &why);
        QVERIFY2(multi, why.c_str());
        const auto ev2 = evaluate(multi->source, &gate());
        QVERIFY2(ev2.success(), (ev2.run.message + " " + ev2.toJson().dump().substr(0, 2000)).c_str());
        QVERIFY(ev2.profile.blockDim > 1);
    }

    // What the split cannot take is refused with the field: a split outside an elementwise spec,
    // a part name that is taken, the split input used whole; pow of a tensor at draft time.
    void splitAndPowMisuseIsRefused() {
        eval::ComputeSpec::Names names{{"x"}, {"y"}, {"beta"}, {}};
        auto refused = [&](const json& spec, const std::string& what) {
            try {
                eval::ComputeSpec::parse(spec, names);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
                return;
            }
            QFAIL(("accepted: " + spec.dump()).c_str());
        };
        refused({{"kind", "rowwise"}, {"split", {{"x", {"a", "b"}}}}, {"out", {{"y", "a"}}}}, "only an elementwise spec splits");
        refused({{"kind", "elementwise"}, {"split", {{"x", {"a", "beta"}}}}, {"out", {{"y", "a"}}}}, "'beta' is already a name");
        refused({{"kind", "elementwise"}, {"split", {{"x", {"a", "b"}}}}, {"out", {{"y", "x * a"}}}}, "'x'");
        refused({{"kind", "elementwise"}, {"split", {{"w", {"a", "b"}}}}, {"out", {{"y", "x"}}}}, "'w' is not an input");
        eval::Task t = gate();
        t.compute = eval::ComputeSpec::parse({{"kind", "elementwise"}, {"split", {{"x", {"a", "b"}}}}, {"out", {{"y", "pow(a, b)"}}}},
                                             {{"x"}, {"y"}, {"dim", "beta", "step"}, {"O", "W"}});
        t.bench = nullptr;
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("pow(x, y) of a tensor") != std::string::npos, d.error.c_str());
    }

    // centre_axis: dim names the last axis in case 1 (a row-wise view) and another axis in cases 2
    // and 3 (an axis view over [O, R, I]); each case runs the variant of its view.
    void aViewPerCaseDraftsAndVerifies() {
        const eval::Task& t = *set_.find("centre_axis");
        QCOMPARE(t.computeGap, std::string());
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY(d.source.find("defined(SAGE_VIEW_LAST)") != std::string::npos);
        QVERIFY(d.source.find("defined(SAGE_VIEW_INNER)") != std::string::npos);
        QCOMPARE(agent::CaseVariants::split(d.source)->blocks.size(), size_t(3));  // float32 last, float32 inner, float16 inner
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(d.source, &t);
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 2000)).c_str());
        QCOMPARE(ev.verify.cases.size(), size_t(3));
    }

    // A view rule that a case cannot satisfy, or a case whose view the spec lacks, is refused
    // before any evaluation, naming the case.
    void aViewTheSpecLacksIsNamed() {
        auto op = std::make_shared<eval::cannbench::Operator>(*set_.find("centre_axis")->bench);
        op->draftSpec["views"].erase("inner");
        QVERIFY2(eval::cannbench::draftGap(*op).find("no view \"inner\" for case 2") != std::string::npos,
                 eval::cannbench::draftGap(*op).c_str());
        op = std::make_shared<eval::cannbench::Operator>(*set_.find("centre_axis")->bench);
        op->draftSpec["view_by"] = "x.last_axis(axis)";
        QVERIFY2(eval::cannbench::draftGap(*op).find("no integer attribute 'axis'") != std::string::npos,
                 eval::cannbench::draftGap(*op).c_str());
    }

    // foreach_scale_add: tensor lists of two members of different sizes, and of one; the draft
    // launches its kernel once per member, and still verifies spread over cores.
    void tensorListsLaunchPerMember() {
        const eval::Task& t = *set_.find("foreach_scale_add");
        QCOMPARE(t.listMembers, std::string("a_count"));
        QVERIFY2(t.description.find("ctx.dim(\"<name>_count\")") != std::string::npos, t.description.c_str());  // what an LLM reads
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY(d.source.find("ctx.dim(\"a_count\")") != std::string::npos);
        QVERIFY(d.source.find("ctx.numel((std::string(\"y\") + member).c_str())") != std::string::npos);
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(d.source, &t);
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 2000)).c_str());
        QCOMPARE(ev.verify.cases.size(), size_t(2));
        std::string why;
        const auto multi = agent::BuiltinPolicy::apply(d.source, {{"type", "transform"}, {"name", "multi_core"}}, nullptr, &device(), &why);
        QVERIFY2(multi, why.c_str());
        const auto ev2 = evaluate(multi->source, &t);
        QVERIFY2(ev2.success(), (ev2.run.message + " " + ev2.toJson().dump().substr(0, 2000)).c_str());
        QVERIFY(ev2.profile.blockDim > 1);
    }

    // list_reduce: a view per value of p (1, inf, and "*" for 0.5), one value per member of the
    // list; amax's partials are combined with the larger, not added.
    void aViewPerAttributeValueReducesEachMember() {
        const eval::Task& t = *set_.find("list_reduce");
        QCOMPARE(t.computeGap, std::string());
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        for (const char* view : {"SAGE_VIEW_1", "SAGE_VIEW_INF", "SAGE_VIEW_0_5"})
            QVERIFY2(d.source.find(std::string("defined(") + view + ")") != std::string::npos, view);
        QVERIFY(d.source.find("ReduceMax(red_") != std::string::npos);
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        std::string why;
        const auto multi = agent::BuiltinPolicy::apply(d.source, {{"type", "transform"}, {"name", "multi_core"}}, nullptr, &device(), &why);
        QVERIFY2(multi, why.c_str());
        for (const std::string& source : {d.source, multi->source}) {
            const auto ev = evaluate(source, &t);
            QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 2000)).c_str());
            QCOMPARE(ev.verify.cases.size(), size_t(3));
        }
    }

    // peak_scale has a case of NaN inputs: the draft's row_max and the scalar max() propagate NaN as
    // PyTorch's do (the vector maximum skips it), and the draft verifies on both cases; without
    // that case the draft keeps the plain reduction.
    void nanPropagatesThroughMaxWhenCasesDrawIt() {
        const eval::Task& t = *set_.find("peak_scale");
        QVERIFY(t.specialValues);
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY(d.source.find("Compare(mask_") != std::string::npos);
        auto op = std::make_shared<eval::cannbench::Operator>(*t.bench);
        op->cases.pop_back();
        const eval::Task plain = eval::cannbench::toTask(op);
        QVERIFY(!plain.specialValues);
        const auto p = agent::composeDraft(plain, device(), {});
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.source.find("Compare(mask_") == std::string::npos);
        if (!pythonProblem_.empty()) QSKIP(pythonProblem_.c_str());
        const auto ev = evaluate(d.source, &t);
        QVERIFY2(ev.success(), (ev.run.message + " " + ev.toJson().dump().substr(0, 2000)).c_str());
        QCOMPARE(ev.verify.cases.size(), size_t(2));
    }

    // A case variant the spec does not cover is named, not drafted wrong.
    void aMissingVariantIsNamed() {
        auto op = std::make_shared<eval::cannbench::Operator>(*relu().bench);
        op->draftSpec["compute_by_value"].erase("negate");
        eval::Task t = eval::cannbench::toTask(op);
        t.compute = relu().compute;  // as if it had loaded
        const auto d = agent::composeDraft(t, device(), {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("no entry for mode = \"negate\"") != std::string::npos, d.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestBenchDrafts)
#include "test_bench_drafts.moc"
