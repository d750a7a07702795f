// The draft constructs that let the compute spec say most of KernelBench level 1: rows streamed in
// chunks (any row length, rows over several trailing axes), running scans, values summed over the
// rows into a [1] output (with a second launch), shape symbols as numbers, erf, and reductions
// along a middle axis (sum, mean, max, min, argmax, argmin). Each KernelBench task written with
// them drafts a kernel that verifies through the real pipeline on both devices (scans over rows of
// any length only where DataCopyPad exists); misuse is refused naming the field.
#include "AgentTestSupport.h"
#include "sage_agent/KernelComposer.h"
#include "sage_npu/DeviceProfile.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace sage;

class TestDraftConstructs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet kb_;

    eval::Evaluation draftAndEvaluate(const eval::Task& t, const std::string& device, agent::DraftResult& d) {
        d = agent::composeDraft(t, evaluator_->devices().get(device), {});
        eval::EvalRequest req;
        req.source = d.source;
        req.deviceId = device;
        req.seeds = 1;
        return evaluator_->evaluate(t, req);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        evaluator_ = evaluatorCachedIn(dir_.path());
        kb_ = eval::TaskSet::load({evaluator_->paths().resources + "/kernelbench/level1"});
        QVERIFY2(kb_.errors.empty(), kb_.errors.empty() ? "" : kb_.errors.front().c_str());
    }

    void kernelBenchTaskDraftsAndVerifies_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("device");
        for (const char* dev : {"ascend910b1-sim", "ascend310p3-sim"})
            for (const char* t : {"kb23_softmax", "kb34_instance_norm", "kb37_frobenius_norm", "kb26_gelu", "kb95_cross_entropy_loss",
                                  "kb98_kl_div_loss", "kb100_hinge_loss", "kb36_rms_norm", "kb47_sum_reduction", "kb51_argmax",
                                  "kb52_argmin", "kb33_batch_norm"})
                QTest::newRow((std::string(t) + "@" + dev).c_str()) << t << dev;
        for (const char* t : {"kb89_cumsum", "kb91_cumsum_reverse", "kb93_masked_cumsum"})
            QTest::newRow((std::string(t) + "@ascend910b1-sim").c_str()) << t << "ascend910b1-sim";
    }
    void kernelBenchTaskDraftsAndVerifies() {
        QFETCH(QString, task);
        QFETCH(QString, device);
        const eval::Task* t = kb_.find(task.toStdString());
        QVERIFY2(t && t->compute.present, qPrintable(task));
        agent::DraftResult d;
        const auto ev = draftAndEvaluate(*t, device.toStdString(), d);
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY2(ev.success(), ev.toJson().dump(1).substr(0, 3000).c_str());
    }

    // An axis spec whose case leaves fewer than 32 bytes after the reduced axis (an arg-max or sum
    // over the last axis, the shape of CANN Bench's last-axis cases) is refused at draft time, naming
    // the case and the spec that fits, instead of drafting a kernel that stops on an assertion.
    void shortInnerAxesAreRefusedBeforeEvaluation() {
        eval::Task t = *kb_.find("kb47_sum_reduction");
        t.cases.front().dims["C"] = 3;  // 3 floats after the reduced axis: 12 bytes
        const auto d = agent::composeDraft(t, evaluator_->devices().get("ascend910b1-sim"), {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("in case 'small' the axes after axis 1 hold 3 element(s)") != std::string::npos, d.error.c_str());
        QVERIFY2(d.error.find("rowwise") != std::string::npos, d.error.c_str());
        t.cases.front().dims["C"] = 8;  // exactly one 32-byte block: served
        QVERIFY2(agent::composeDraft(t, evaluator_->devices().get("ascend910b1-sim"), {}).ok, "one whole block is served");
    }

    // A streamed row longer than one chunk is walked in several passes and still verifies; a row
    // that fits is loaded once (the draft says so in its code).
    void longRowsAreStreamedInPasses() {
        const eval::Task* t = kb_.find("kb23_softmax");
        agent::DraftResult d = agent::composeDraft(*t, evaluator_->devices().get("ascend910b1-sim"), {});
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY(d.source.find("Pass0(row);") != std::string::npos && d.source.find("Pass1(row);") != std::string::npos);
        QVERIFY(d.source.find("rowHeld_ = cols_ <= TILE_ELEMS;") != std::string::npos);
    }

    // The combine launch adds up one partial per core: the draft spread over 8 cores still verifies.
    void totalsOverRowsAreCombinedAcrossCores() {
        const eval::Task* t = kb_.find("kb95_cross_entropy_loss");
        agent::DraftResult d = agent::composeDraft(*t, evaluator_->devices().get("ascend910b1-sim"), {});
        QVERIFY2(d.ok, d.error.c_str());
        const std::string one = "constexpr uint32_t BLOCK_DIM = 1;";
        const auto at = d.source.find(one);
        QVERIFY(at != std::string::npos);
        eval::EvalRequest req;
        req.source = std::string(d.source).replace(at, one.size(), "constexpr uint32_t BLOCK_DIM = 8;");
        req.seeds = 1;
        const auto ev = evaluator_->evaluate(*t, req);
        QVERIFY2(ev.success(), ev.toJson().dump(1).substr(0, 3000).c_str());
        QCOMPARE(ev.profile.coresUsed, 8);
    }

    // A row spread over a leading axis (batch norm: a row per channel, N segments of H*W elements)
    // verifies on both devices whichever way the segments fall: a segment shorter than a chunk, one
    // longer than a chunk (several chunks per segment), one that is not whole 32-byte units.
    void rowsOverLeadingAxesVerifyWithAnySegment_data() {
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("H");
        QTest::addColumn<int>("W");
        for (const char* dev : {"ascend910b1-sim", "ascend310p3-sim"}) {
            QTest::newRow((std::string("short segments@") + dev).c_str()) << dev << 2 << 8;
            QTest::newRow((std::string("segments over a chunk@") + dev).c_str()) << dev << 160 << 128;
            QTest::newRow((std::string("ragged segments@") + dev).c_str()) << dev << 3 << 11;
        }
    }
    void rowsOverLeadingAxesVerifyWithAnySegment() {
        QFETCH(QString, device);
        QFETCH(int, H);
        QFETCH(int, W);
        eval::Task t = *kb_.find("kb33_batch_norm");
        t.cases = {{"case", {{"N", 3}, {"C", 5}, {"H", H}, {"W", W}}, true}};
        agent::DraftResult d;
        const auto ev = draftAndEvaluate(t, device.toStdString(), d);
        QVERIFY2(d.ok, d.error.c_str());
        QVERIFY(d.source.find("SegOffset(row, c0)") != std::string::npos);
        QVERIFY2(ev.success(), ev.toJson().dump(1).substr(0, 3000).c_str());
        // Too many row axes leave nothing to index the rows.
        t.compute.rowLeadAxes = 2;
        const auto none = agent::composeDraft(t, evaluator_->devices().get(device.toStdString()), {});
        QVERIFY(!none.ok);
        QVERIFY2(none.error.find("field 'compute.row_lead_axes'") != std::string::npos, none.error.c_str());
    }

    void misuseIsRefusedNamingTheField_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("expected");
        QTest::newRow("scan inside a reduction") << "kb23_softmax" << "x / row_sum(row_scan_sum(x))" << "cannot be reduced";
        QTest::newRow("nested totals") << "kb95_cross_entropy_loss" << "all_sum(all_mean(row_max(predictions)))" << "cannot be nested";
        QTest::newRow("row left in a total") << "kb95_cross_entropy_loss" << "all_sum(predictions)" << "reduce the row first";
        QTest::newRow("mixed scan directions") << "kb89_cumsum" << "row_scan_sum(x) + row_scan_sum_rev(x)" << "forward and reverse";
    }
    void misuseIsRefusedNamingTheField() {
        QFETCH(QString, task);
        QFETCH(QString, out);
        QFETCH(QString, expected);
        eval::Task t = *kb_.find(task.toStdString());
        t.compute.lets.clear();
        t.compute.outputs.front().expr = eval::parseExpression(out.toStdString());
        const auto d = agent::composeDraft(t, evaluator_->devices().get("ascend910b1-sim"), {});
        QVERIFY(!d.ok);
        QVERIFY2(d.error.find("field 'compute.out") != std::string::npos && d.error.find(expected.toStdString()) != std::string::npos,
                 d.error.c_str());
    }

    // Spec-level checks at load: the new fields and functions only where they mean something.
    void specFieldsAreChecked_data() {
        QTest::addColumn<QString>("compute");
        QTest::addColumn<QString>("field");
        QTest::newRow("row_axes outside rowwise") << R"J({"kind":"elementwise","row_axes":2,"out":{"z":"x"}})J" << "compute.row_axes";
        QTest::newRow("row_axes zero") << R"J({"kind":"rowwise","row_axes":0,"out":{"z":"x"}})J" << "compute.row_axes";
        QTest::newRow("row_lead_axes outside rowwise") << R"J({"kind":"elementwise","row_lead_axes":1,"out":{"z":"x"}})J"
                                                       << "compute.row_lead_axes";
        QTest::newRow("row_lead_axes negative") << R"J({"kind":"rowwise","row_lead_axes":-1,"out":{"z":"x"}})J" << "compute.row_lead_axes";
        QTest::newRow("axis missing") << R"J({"kind":"axis","out":{"z":"row_sum(x)"}})J" << "compute.axis";
        QTest::newRow("axis outside axis kind") << R"J({"kind":"rowwise","axis":1,"out":{"z":"x"}})J" << "compute.axis";
        QTest::newRow("argmax in rowwise") << R"J({"kind":"rowwise","out":{"z":"row_argmax(x)"}})J" << "compute.out.z";
        QTest::newRow("scan in reduce_all") << R"J({"kind":"reduce_all","out":{"z":"row_scan_sum(x)"}})J" << "compute.out.z";
        QTest::newRow("total in elementwise") << R"J({"kind":"elementwise","out":{"z":"all_sum(x)"}})J" << "compute.out.z";
        QTest::newRow("unknown shape symbol") << R"J({"kind":"elementwise","out":{"z":"x * M"}})J" << "compute.out.z";
    }
    void specFieldsAreChecked() {
        QFETCH(QString, compute);
        QFETCH(QString, field);
        const nlohmann::json j = nlohmann::json::parse(compute.toStdString());
        eval::ComputeSpec::Names names{{"x"}, {"z"}, {}, {"N"}};
        try {
            eval::ComputeSpec::parse(j, names);
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("field '" + field.toStdString()) != std::string::npos, e.what());
        }
        // A shape symbol is a number in an expression.
        QVERIFY(eval::ComputeSpec::parse(nlohmann::json::parse(R"J({"kind":"elementwise","out":{"z":"x / N"}})J"), names).present);
    }
};

QTEST_GUILESS_MAIN(TestDraftConstructs)
#include "test_draft_constructs.moc"
