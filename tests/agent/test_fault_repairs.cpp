// Issue 11: "a test injects each diagnostic kind and shows the matching repair fixing it". Every
// fault of the catalogue (sage_agent/FaultInjector.h) is injected into the built-in drafts of
// test tasks from several categories; the pipeline must report the fault's diagnostic kind, and
// one repair proposal of the built-in policy (memory off) must give a kernel that verifies. The
// same catalogue drives `sage bench --inject-faults`.
#include "AgentTestSupport.h"
#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/FaultInjector.h"
#include "sage_agent/KernelComposer.h"
#include "sage_eval/Evaluator.h"
#include "sage_npu/DeviceProfile.h"

#include <QtTest>

#include <map>
#include <set>

using namespace sage;

class TestFaultRepairs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<eval::Evaluator> evaluator_;
    eval::TaskSet tasks_;

    struct Case {
        const char* task;
        const char* device;
    };
    // One test task per category the composer drafts with vector code, and one 310P draft.
    const std::vector<Case> cases_ = {{"axpy", "ascend910b1-sim"},      {"elu", "ascend910b1-sim"},
                                      {"log", "ascend910b1-sim"},       {"row_max", "ascend910b1-sim"},
                                      {"rmsnorm", "ascend910b1-sim"},   {"scale_shift", "ascend910b1-sim"},
                                      {"mul_sigmoid", "ascend910b1-sim"}, {"mul", "ascend310p3-sim"}};

    std::string draftOf(const char* task, const char* device) {
        auto d = agent::composeDraft(*tasks_.find(task), evaluator_->devices().get(device), {});
        return d.ok ? d.source : std::string();
    }
    eval::Evaluation evaluate(const char* task, const std::string& source, const char* device) {
        eval::EvalRequest req;
        req.source = source;
        req.deviceId = device;
        req.seeds = 1;
        req.timeoutSeconds = 300;
        return evaluator_->evaluate(*tasks_.find(task), req);
    }
    static bool reports(const eval::Evaluation& ev, const std::string& kind) {
        if (kind == "compile_error") return !ev.compile.ok;
        for (const auto& d : ev.run.diagnostics)
            if (d.kind.name() == kind) return true;
        return false;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        evaluator_ = evaluatorCachedIn(dir_.path());
        tasks_ = eval::TaskSet::load({evaluator_->paths().tasksDir()});
        for (const auto& c : cases_) QVERIFY2(!draftOf(c.task, c.device).empty(), c.task);
    }

    // Every fault has somewhere to go: it applies to the elementwise draft, and to at least
    // three of the drafts above (a catalogue entry that fits nothing we draft tests nothing).
    void everyFaultFitsTheDrafts() {
        std::map<std::string, int> fits;
        for (const auto& c : cases_)
            for (const auto& f : agent::applicableFaults(draftOf(c.task, c.device), &evaluator_->devices().get(c.device))) ++fits[f];
        const auto axpy = agent::applicableFaults(draftOf("axpy", "ascend910b1-sim"), &evaluator_->devices().get("ascend910b1-sim"));
        for (const auto& f : agent::faultCatalogue()) {
            QVERIFY2(std::find(axpy.begin(), axpy.end(), f.name) != axpy.end(), f.name);
            QVERIFY2(fits[f.name] >= 3, f.name);
        }
    }

    void injectedFaultIsReportedAndRepaired_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("fault");
        for (const auto& c : cases_)
            for (const auto& f : agent::applicableFaults(draftOf(c.task, c.device), &evaluator_->devices().get(c.device)))
                QTest::newRow((std::string(c.task) + "/" + c.device + "/" + f).c_str())
                    << QString(c.task) << QString(c.device) << QString::fromStdString(f);
    }
    void injectedFaultIsReportedAndRepaired() {
        QFETCH(QString, task);
        QFETCH(QString, device);
        QFETCH(QString, fault);
        const std::string t = task.toStdString(), dev = device.toStdString();
        const auto& profile = evaluator_->devices().get(dev);
        const std::string draft = draftOf(t.c_str(), dev.c_str());
        std::string why;
        auto injected = agent::injectFault(draft, fault.toStdString(), &profile, &why);
        QVERIFY2(injected, why.c_str());
        auto before = evaluate(t.c_str(), injected->source, dev.c_str());
        // A known gap, kept visible as an expected failure: on row_max the unpadded tail drops each
        // tail row's last 8 halves, the simulator reads zeros for them (with a warning) and the
        // row maxima of the random inputs come out right, so verification does not notice.
        const std::string tag = QTest::currentDataTag();
        auto knownGap = [&tag](const char* gapFault, std::initializer_list<const char*> tasks) {
            for (const char* k : tasks)
                if (tag == std::string(k) + "/ascend910b1-sim/" + gapFault) return true;
            return false;
        };
        if (knownGap("unpadded_tail", {"row_max"}))
            QEXPECT_FAIL("", "streamed rows: the unpadded tail of the chunk copy-in goes unnoticed on row_max", Abort);
        QVERIFY2(!before.success(), "the injected fault went unnoticed");
        QVERIFY2(reports(before, injected->expectedKind),
                 (injected->expectedKind + " expected; got " + before.toJson()["run"].dump().substr(0, 1500)).c_str());

        agent::BuiltinPolicy policy;
        agent::PolicyContext ctx;
        ctx.task = tasks_.find(t);
        ctx.device = &profile;
        ctx.stage = memory::Stage::Repair;
        ctx.parentSource = injected->source;
        ctx.parentEvaluation = &before;
        auto prop = policy.propose(ctx);
        QVERIFY2(prop.ok, (prop.error + " " + prop.rationale).c_str());
        auto after = evaluate(t.c_str(), prop.source, dev.c_str());
        QVERIFY2(after.success(), (prop.move + "\n" + after.toJson()["run"].dump().substr(0, 1500) + "\n" +
                                   after.toJson()["compile"].dump().substr(0, 800)).c_str());
    }

    void unknownOrUnfittingFaultIsRefused() {
        std::string why;
        QVERIFY(!agent::injectFault("int main() {}", "no_such_fault", nullptr, &why));
        QVERIFY(why.find("unknown fault") != std::string::npos);
        QVERIFY(!agent::injectFault("// no queues here\n", "missing_enque", nullptr, &why));
        QVERIFY(why.find("EnQue") != std::string::npos);
        QVERIFY(agent::applicableFaults("", nullptr).empty());
    }
};

QTEST_GUILESS_MAIN(TestFaultRepairs)
#include "test_fault_repairs.moc"
