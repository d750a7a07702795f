// Every list and table of the workbench is a QAbstractItemModel: each is exercised here with
// QAbstractItemModelTester (fatal on any contract violation) while its data changes, and its
// content and roles are checked.
#include "ui/DiagnosticsModel.h"
#include "ui/ExperienceFilterProxy.h"
#include "ui/ExperienceTableModel.h"
#include "ui/IterationListModel.h"
#include "ui/MismatchModel.h"
#include "ui/ProfileCompareModel.h"
#include "ui/RangeStatsModel.h"
#include "ui/RetrievalModel.h"
#include "ui/TaskTreeModel.h"
#include "ui/VerificationModel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace sage;
using namespace sage::ui;
using Tester = QAbstractItemModelTester;

namespace {
toolchain::Diagnostic diag(const char* severity, int line, const char* message, const char* file = "kernel.cpp") {
    toolchain::Diagnostic d;
    d.kind = toolchain::DiagnosticKind::parse(std::string("compile_") + severity);
    d.severity = toolchain::severityFrom(severity);
    d.file = file;
    d.line = line;
    d.column = 5;
    d.message = message;
    return d;
}

eval::Evaluation sampleEvaluation() {
    eval::Evaluation ev;
    ev.task = "vadd";
    ev.kernel = "kernel.cpp";
    ev.compile.ok = true;
    ev.run.status = toolchain::RunStatus::Ok;
    ev.verify.ran = true;
    for (int c = 0; c < 2; ++c) {
        eval::CaseCheck cc;
        cc.caseName = c ? "tail" : "small";
        cc.seed = uint64_t(c);
        cc.pass = c == 0;
        eval::OutputCheck o;
        o.name = "z";
        o.dtype = "float32";
        o.pass = c == 0;
        o.checked = 1001;
        o.mismatches = c ? 2 : 0;
        o.maxAbsError = c ? 3.5 : 0;
        o.reason = c ? "2 of 1001 elements differ" : "";
        o.histogram = {990, 0, 0, 0, 0, 0, 0, 9, 2, 0};
        if (c) o.firstMismatches = {{{999}, 1.0, 4.5, 3.5, 3.5}, {{1000}, 2.0, 0.0, 2.0, 1.0}};
        cc.outputs.push_back(o);
        ev.verify.cases.push_back(cc);
    }
    ev.verify.pass = false;
    ev.profile.present = true;
    ev.profile.totalCycles = 1000;
    ev.profile.timeUs = 0.5;
    ev.profile.rooflineFraction = 0.25;
    ev.profile.pipeCycles = {{"scalar", 10}, {"vec", 200}, {"mac", 0}, {"mte1", 0}, {"mte2", 900}, {"mte3", 400}, {"fixpipe", 0}};
    ev.profile.bottleneck = "mte2_bound";
    ev.profile.lines = {{12, 700, 3}};
    return ev;
}
} // namespace

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void diagnostics() {
        DiagnosticsModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDiagnostics({diag("error", 12, "'length' was not declared"), diag("warning", 3, "unused"),
                          diag("note", 40, "in a header", "kernel_operator.h")},
                         "kernel.cpp");
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), int(DiagnosticsModel::ColumnCount));
        QCOMPARE(m.errorCount(), 1);
        QCOMPARE(m.warningCount(), 1);
        QCOMPARE(m.index(0, DiagnosticsModel::LineColumn).data().toInt(), 12);
        QCOMPARE(m.index(0, 0).data(DiagnosticsModel::LineRole).toInt(), 12);
        QCOMPARE(m.index(2, 0).data(DiagnosticsModel::LineRole).toInt(), 0);  // not in the candidate
        QVERIFY(m.index(2, DiagnosticsModel::MessageColumn).data().toString().startsWith("kernel_operator.h: "));
        QCOMPARE(m.nextLocated(-1, true), 0);
        QCOMPARE(m.nextLocated(0, true), 1);
        QCOMPARE(m.nextLocated(1, true), 0);  // wraps over the header note
        QCOMPARE(m.nextLocated(0, false), 1);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.nextLocated(-1, true), -1);
    }

    void verificationTree() {
        VerificationModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        const auto ev = sampleEvaluation();
        m.setVerification(ev.verify);
        QCOMPARE(m.rowCount(), 2);
        const QModelIndex tail = m.index(1, 0);
        QCOMPARE(m.rowCount(tail), 1);
        QCOMPARE(m.index(1, VerificationModel::ResultColumn).data().toString(), QString("FAIL"));
        QCOMPARE(m.index(0, VerificationModel::ResultColumn).data().toString(), QString("pass"));
        const QModelIndex z = m.index(0, 0, tail);
        QCOMPARE(m.parent(z), tail);
        QCOMPARE(z.data(VerificationModel::CaseRole).toInt(), 1);
        QCOMPARE(m.outputAt(z)->name, std::string("z"));
        QCOMPARE(m.firstFailure(), z);
        QCOMPARE(m.index(0, VerificationModel::MismatchColumn, tail).data().toString(), QString("2 / 1001"));
        QVERIFY(m.index(0, VerificationModel::CriterionColumn, tail).data().toString().isEmpty());  // atol/rtol output
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    // A CANN Bench task's output shows the criterion's own figures (MERE, MARE, threshold T).
    void verificationShowsCannBenchFigures() {
        VerificationModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        eval::VerifySection v;
        v.ran = true;
        eval::CaseCheck c;
        c.caseName = "case3";
        eval::OutputCheck y;
        y.name = "y";
        y.dtype = "float16";
        y.criterion = "cann";
        y.mere = 0.00125;
        y.mare = 0.02;
        y.threshold = 0.0009765625;
        y.reason = "12 elements have a relative error above 10 T";
        eval::OutputCheck idx;
        idx.name = "indices";
        idx.criterion = "cann_index";
        idx.pass = true;
        c.outputs = {y, idx};
        v.cases.push_back(c);
        m.setVerification(v);
        const QModelIndex row = m.index(0, 0);
        QCOMPARE(m.index(0, VerificationModel::CriterionColumn, row).data().toString(), QString("0.00125 / 0.02 (T 0.0009766)"));
        QCOMPARE(m.index(1, VerificationModel::CriterionColumn, row).data().toString(), QString("index check"));
        QCOMPARE(m.index(0, VerificationModel::CriterionColumn).data().toString(), QString("0.00125 / 0.02 (T 0.0009766)"));
        QCOMPARE(m.headerData(VerificationModel::CriterionColumn, Qt::Horizontal).toString(), QString("MERE / MARE (T)"));
        c.outputs[0].mere = c.outputs[0].mare = std::nan("");  // failed before they were computed (NaN positions)
        v.cases = {c};
        m.setVerification(v);
        QCOMPARE(m.index(0, VerificationModel::CriterionColumn, m.index(0, 0)).data().toString(), QString("– (T 0.0009766)"));
    }

    void mismatches() {
        MismatchModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        const auto ev = sampleEvaluation();
        m.setOutput(&ev.verify.cases[1].outputs[0], {1001});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(0, MismatchModel::IndexColumn).data().toString(), QString("[999]"));
        QCOMPARE(m.index(0, MismatchModel::ActualColumn).data().toString(), QString("4.5"));
        QCOMPARE(m.flatIndex(1), qint64(1000));
        eval::OutputCheck twoD;
        twoD.firstMismatches = {{{2, 3}, 0, 1, 1, 1}};
        m.setOutput(&twoD, {4, 8});
        QCOMPARE(m.flatIndex(0), qint64(19));
        m.setOutput(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void rangeStats() {
        RangeStatsModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        RangeSummary s;
        s.ops = {{"DataCopy", 6, 600, 100, 100, 192}, {"Add", 4, 420, 40, 300, 0}};
        m.setSummary(s);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(1, RangeStatsModel::MeanColumn).data().toString(), QString("105.0"));
        QCOMPARE(m.index(0, RangeStatsModel::TotalColumn).data(RangeStatsModel::SortRole).toULongLong(), 600ull);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void baselineComparison() {
        ProfileCompareModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        auto current = sampleEvaluation().profile;
        auto baseline = current;
        baseline.totalCycles = 4000;
        baseline.pipeCycles["mte2"] = 3600;
        m.setProfiles(nullptr, &current);
        QVERIFY(!m.hasBaseline());
        QCOMPARE(m.index(m.rowOf("total"), ProfileCompareModel::DeltaColumn).data().toString(), QString());
        m.setProfiles(&baseline, &current);
        QVERIFY(m.hasBaseline());
        const int total = m.rowOf("total");
        QCOMPARE(m.index(total, ProfileCompareModel::DeltaColumn).data(ProfileCompareModel::DeltaRole).toDouble(), -3000.0);
        QCOMPARE(m.index(total, ProfileCompareModel::RatioColumn).data().toString(), QString("×0.250"));
        QCOMPARE(m.index(m.rowOf("mte2"), ProfileCompareModel::DeltaColumn).data().toString(), QString("-2700"));
        QCOMPARE(m.rowCount(), 3 + 7);
    }

    void taskTree() {
        TaskTreeModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        eval::TaskSet set;
        for (auto [name, cat] : {std::pair{"add", "elementwise"}, {"relu", "activation"}, {"mul", "elementwise"}}) {
            eval::Task task;
            task.name = name;
            task.category = cat;
            task.split = "train";
            set.tasks.push_back(task);
        }
        m.setTasks(set);
        QCOMPARE(m.rowCount(), 2);  // two categories
        const QModelIndex add = m.taskIndex("add");
        QVERIFY(add.isValid());
        QCOMPARE(add.data(TaskTreeModel::KindRole).toInt(), int(TaskTreeModel::NodeKind::Task));
        QCOMPARE(m.index(add.row(), TaskTreeModel::DetailColumn, add.parent()).data().toString(), QString("train"));
        m.setRuns("add", {{7, "finished", "builtin", "adoption", "now", 2, 0}, {8, "running", "llm", "off", "now", -1, 0}});
        QCOMPARE(m.rowCount(m.taskIndex("add")), 2);
        m.setIterations(7, {{7, 0, "draft", "policy", "ok", "", true, 900}, {7, 1, "optimize", "policy", "ok", "x", true, 600}});
        const QModelIndex it = m.iterationIndex(7, 1);
        QVERIFY(it.isValid());
        QCOMPARE(it.data(TaskTreeModel::RunIdRole).toLongLong(), 7ll);
        QCOMPARE(it.data(TaskTreeModel::IterationRole).toInt(), 1);
        QCOMPARE(it.data(TaskTreeModel::TaskNameRole).toString(), QString("add"));
        m.setRuns("add", {{9, "finished", "builtin", "adoption", "now", -1, 0}});  // replaces runs and their iterations
        QCOMPARE(m.rowCount(m.taskIndex("add")), 1);
        QVERIFY(!m.runIndex(7).isValid());
        m.setRuns("nonexistent", {});
    }

    void experiencesAndFilters() {
        ExperienceTableModel m;
        ExperienceFilterProxy proxy;
        proxy.setSourceModel(&m);
        Tester t1(&m, Tester::FailureReportingMode::Fatal);
        Tester t2(&proxy, Tester::FailureReportingMode::Fatal);
        auto list = std::make_shared<std::vector<memory::ExperienceSummary>>();
        auto add = [&](int64_t id, const char* title, memory::ExperienceStatus status, memory::Stage stage, const char* cat) {
            memory::ExperienceSummary s;
            s.id = id;
            s.title = title;
            s.status = status;
            s.stage = stage;
            s.trigger.category = cat;
            s.stats.at(memory::Stage::Repair).q = 0.5;
            s.stats.at(memory::Stage::Repair).retrieved = 4;
            s.stats.at(memory::Stage::Repair).adopted = 2;
            list->push_back(s);
        };
        add(1, "Align DataCopy to 32 bytes", memory::ExperienceStatus::Approved, memory::Stage::Repair, "elementwise");
        add(2, "Double buffer the queues", memory::ExperienceStatus::Pending, memory::Stage::Optimize, "elementwise");
        add(3, "Use ReduceSum for rows", memory::ExperienceStatus::Pending, memory::Stage::Optimize, "reduction");
        m.setEntries(list);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.pendingCount(), 2);
        QCOMPARE(m.categories(), QStringList({"elementwise", "reduction"}));
        QCOMPARE(m.index(0, ExperienceTableModel::StatusColumn).data().toString(), QString("approved"));
        QCOMPARE(m.index(0, ExperienceTableModel::RetrievedColumn).data().toLongLong(), 4ll);
        QCOMPARE(m.rowOf(3), 2);
        proxy.setStatus("pending");
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setCategory("reduction");
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setCategory({});
        proxy.setStage("optimize");
        proxy.setText("double queues");
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, 0).data(ExperienceTableModel::IdRole).toLongLong(), 2ll);
        proxy.setText("zzz");
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setTextMatches({3});  // the store's full-text search found it in the content
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setText({});
        proxy.setStatus({});
        proxy.setStage({});
        QCOMPARE(proxy.rowCount(), 3);
        m.setEntries(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void iterations() {
        IterationListModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.iterationStarted(0, "draft");
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.index(0, IterationListModel::StatusColumn).data().toString(), QString("running…"));
        QVERIFY(!m.index(0, 0).data(IterationListModel::FinishedRole).toBool());
        agent::IterationRecord r;
        r.index = 0;
        r.stage = memory::Stage::Draft;
        r.origin = "policy";
        r.status = agent::IterationStatus::Ok;
        r.correct = true;
        r.cycles = 1234;
        r.rooflineFraction = 0.4;
        r.reward = 1.0;
        r.move = "draft";
        r.adoptions.push_back(agent::adoptionFromJson({{"id", 5}, {"weight", 1.0}}));
        r.adoptions.push_back(agent::adoptionFromJson({{"id", 6}, {"weight", 0.0}}));
        r.adoptions.push_back(agent::adoptionFromJson({{"id", 7}, {"declared", true}}));  // no credit report: declared counts
        auto rec = std::make_shared<const agent::IterationRecord>(r);
        m.iterationFinished(rec);
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.finishedCount(), 1);
        QCOMPARE(m.index(0, IterationListModel::StatusColumn).data().toString(), QString("correct"));
        QCOMPARE(m.index(0, IterationListModel::CyclesColumn).data().toULongLong(), 1234ull);
        QCOMPARE(m.index(0, IterationListModel::AdoptedColumn).data().toString(), QString("#5 #7"));
        // A broken iteration: the status word, no cycles, and the error in the tooltip.
        agent::IterationRecord broken = r;
        broken.index = 1;
        broken.correct = false;
        broken.status = agent::IterationStatus::CompileError;
        broken.cycles = 0;
        broken.error = "kernel.cpp:3: expected ';'";
        m.iterationStarted(1, "repair");
        m.iterationFinished(std::make_shared<const agent::IterationRecord>(broken));
        QCOMPARE(m.index(1, IterationListModel::StatusColumn).data().toString(), QString("compile_error"));
        QVERIFY(!m.index(1, IterationListModel::CyclesColumn).data().isValid());
        QVERIFY(m.index(1, IterationListModel::StatusColumn).data(Qt::ToolTipRole).toString().contains("expected ';'"));
        QCOMPARE(m.index(1, IterationListModel::StageColumn).data().toString(), QString("draft"));  // the record's stage
        m.iterationFinished(nullptr);  // ignored
        QCOMPARE(m.rowCount(), 2);
        m.iterationStarted(2, "optimize");
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.rowOf(2), 2);
        m.setRecords({rec});
        QCOMPARE(m.rowCount(), 1);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void retrievals() {
        RetrievalModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        std::vector<agent::RetrievalRecord> retrieved(2);
        retrieved[0] = {3, "Double buffer", 1, 0.9, 0.8, 0.2, false, {}};
        retrieved[1] = {4, "Bigger tiles", 2, 0.7, 0.6, 0.1, false, {}};
        std::vector<agent::AdoptionRecord> adopted(2);
        adopted[0] = {3, true, true, 1.0, 1.0, 0.2, 0.35};
        adopted[1] = {4, false, false, 0.0, 0.0, 0.1, 0.1};
        m.setIteration(retrieved, adopted);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.adoptedCount(), 1);
        QVERIFY(m.index(0, 0).data(RetrievalModel::AdoptedRole).toBool());
        QCOMPARE(m.index(0, RetrievalModel::AdoptedColumn).data().toString(), QString("declared + evidenced"));
        QCOMPARE(m.index(0, RetrievalModel::QAfterColumn).data().toString(), QString("0.200 → 0.350"));
        QVERIFY(!m.index(1, 0).data(RetrievalModel::AdoptedRole).toBool());
        // The stored JSON shape reads back into the same records (the core boundary).
        const auto back = agent::adoptionFromJson(agent::toJson(adopted[0]));
        QCOMPARE(back.qAfter.value_or(0), 0.35);
        QVERIFY(back.adopted());
        // A declaration the policy made for an entry it was not given still shows (not retrieved).
        m.setIteration({}, {agent::adoptionFromJson({{"id", 9}, {"declared", true}})});
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.adoptedCount(), 1);
        QVERIFY(!m.index(0, RetrievalModel::RankColumn).data().isValid());
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void storedEvaluationReadsBack() {
        const auto ev = sampleEvaluation();
        const auto back = eval::Evaluation::fromJson(ev.toJson());
        QCOMPARE(back.compile.ok, true);
        QCOMPARE(back.verify.cases.size(), size_t(2));
        QCOMPARE(back.verify.cases[1].outputs[0].firstMismatches.size(), size_t(2));
        QCOMPARE(back.verify.cases[1].outputs[0].firstMismatches[0].actual, 4.5);
        QCOMPARE(back.profile.totalCycles, uint64_t(1000));
        QCOMPARE(back.profile.pipeCycles.at("mte2"), uint64_t(900));
        QCOMPARE(back.profile.lines.at(0).line, 12);
        QVERIFY(eval::Evaluation::fromJson(nlohmann::json()).compile.diagnostics.empty());
    }
};

QTEST_MAIN(TestUiModels)
#include "test_ui_models.moc"
