// The agent panel driving the real loop (built-in policy) on its own thread: start paused, step
// one iteration, pause, hand the loop an engineer's edit, resume from it. Events arrive through
// the queued adapter; the run and its iterations are in the database afterwards.
#include "UiTestSupport.h"

#include <algorithm>

#include "sage_agent/RunStore.h"
#include "ui/AgentController.h"
#include "ui/AgentPanel.h"
#include "ui/IterationListModel.h"
#include "ui/KernelEditor.h"
#include "ui/MemoryService.h"
#include "ui/TaskTreeModel.h"
#include "ui/TimelineData.h"
#include "ui/TimelinePanel.h"
#include "ui/TimelinePlot.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QTableView>

using namespace sage;
using namespace sage::ui;

class TestAgentPanel : public QObject {
    Q_OBJECT
    QTemporaryDir root_;
    std::shared_ptr<const eval::Evaluator> evaluator_;

    // A finished iteration as the loop reports it.
    static AgentEventPtr finished(int index, bool correct, uint64_t cycles, agent::IterationStatus status = agent::IterationStatus::Ok,
                                  const std::string& error = "") {
        auto r = std::make_shared<agent::IterationRecord>();
        r->runId = 7;
        r->index = index;
        r->stage = index == 0 ? memory::Stage::Draft : memory::Stage::Optimize;
        r->origin = "policy";
        r->source = "// candidate " + std::to_string(index) + "\n";
        r->status = status;
        r->correct = correct;
        r->cycles = cycles;
        r->error = error;
        auto e = std::make_shared<agent::AgentEvent>(agent::AgentEvent{agent::AgentEventType::IterationFinished, 7, index,
                                                                        r->stage, "", r, {}});
        return e;
    }

private slots:
    void initTestCase() {
        QVERIFY(root_.isValid());
        uitest::isolate(root_);
        evaluator_ = uitest::evaluator();
    }

    // The run ends on a worse candidate than its best: the best is marked, selected and shown.
    void aFinishedRunLoadsItsBestIterationNotItsLast() {
        AgentController controller(evaluator_);
        AgentPanel panel(&controller);
        QAbstractItemModelTester tester(panel.iterations(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy selected(&panel, &AgentPanel::iterationSelected);
        emit controller.eventArrived(std::make_shared<agent::AgentEvent>(agent::AgentEvent{agent::AgentEventType::RunStarted, 7, 0, std::nullopt, "vadd", {}, {}}));
        emit controller.eventArrived(finished(0, true, 18000));
        emit controller.eventArrived(finished(1, true, 16455));
        emit controller.eventArrived(finished(2, false, 9000, agent::IterationStatus::SimError));  // fast but wrong: never the best
        emit controller.eventArrived(finished(3, true, 18376));              // the last one
        IterationListModel* model = panel.iterations();
        QCOMPARE(model->bestIteration(), 1);
        QVERIFY(model->index(1, 0).data(IterationListModel::BestRole).toBool());
        QVERIFY(!model->index(3, 0).data(IterationListModel::BestRole).toBool());
        QVERIFY(model->index(1, IterationListModel::IndexColumn).data().toString().contains(QStringLiteral("★")));
        QCOMPARE(panel.iterationView()->currentIndex().row(), 3);  // following the live run
        auto* goToBest = panel.findChild<QPushButton*>("agentGoToBest");
        QVERIFY(goToBest && goToBest->isEnabled());

        selected.clear();
        auto summary = std::make_shared<agent::RunSummary>();
        summary->bestIteration = 1;
        agent::AgentEvent end{agent::AgentEventType::RunFinished, 7, 4, std::nullopt, "no improvement", {}, summary};
        emit controller.eventArrived(std::make_shared<agent::AgentEvent>(end));
        QCOMPARE(panel.iterationView()->currentIndex().row(), 1);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().at(0).value<IterationRecordPtr>()->index, 1);

        // Go to best reloads it even when it is already selected (e.g. after the editor changed).
        selected.clear();
        QTest::mouseClick(goToBest, Qt::LeftButton);
        QCOMPARE(selected.count(), 1);
        panel.selectIteration(3);
        QTest::mouseClick(goToBest, Qt::LeftButton);
        QCOMPARE(panel.iterationView()->currentIndex().row(), 1);
    }

    // A model server that cannot be reached is said where the run is watched, and in the status bar.
    void aFailedPolicyCallIsShownInThePanel() {
        AgentController controller(evaluator_);
        AgentPanel panel(&controller);
        QSignalSpy messages(&panel, &AgentPanel::message);
        emit controller.eventArrived(finished(0, false, 0, agent::IterationStatus::PolicyError,
                                              "cannot reach the model server at http://127.0.0.1:9/v1: Connection refused"));
        QVERIFY(panel.problemText().contains("Connection refused"));
        bool said = false;
        for (const auto& m : messages) said |= m.at(0).toString().contains("Connection refused");
        QVERIFY(said);
        emit controller.eventArrived(finished(1, true, 500));  // the server answered again
        QVERIFY(panel.problemText().isEmpty());
    }

    // Opening another task empties the panel: nothing of the last task's run stays.
    void theAgentPanelBelongsToTheOpenTask() {
        auto w = uitest::window(root_, evaluator_, "pertask.db");
        QVERIFY(w->openTask("vadd"));
        AgentController* agent = w->agentController();
        emit agent->eventArrived(finished(0, true, 1000));
        QCOMPARE(w->agentPanel()->iterations()->rowCount(), 1);
        QVERIFY(w->openTask("vadd_tiny"));
        QCOMPARE(w->agentPanel()->iterations()->rowCount(), 0);
        QVERIFY(w->agentPanel()->responseText().isEmpty());
    }

    void stepsPausesAcceptsAnEditAndResumes() {
        auto w = uitest::window(root_, evaluator_, "agent.db");
        QVERIFY(w->openTask("vadd"));
        AgentPanel* panel = w->agentPanel();
        AgentController* agent = w->agentController();
        QVERIFY(panel && agent);
        panel->setDefaults("builtin", 4, "adoption", false);
        IterationListModel* iterations = panel->iterations();
        std::vector<agent::AgentEventType> seen;  // the loop's events in order, tokens left out
        connect(agent, &AgentController::eventArrived, this, [agent, &seen](const AgentEventPtr& e) {
            if (e->type != agent::AgentEventType::Token) seen.push_back(e->type);
            if (e->type != agent::AgentEventType::Token)
                qInfo("event %s #%d %s: %s (state %d)", agent::eventName(e->type), e->iteration, std::string(memory::toString(e->stage.value_or(memory::Stage::Any))).c_str(),
                      e->text.substr(0, 120).c_str(), int(agent->state()));
        });

        // Step while idle: starts paused and runs exactly one iteration.
        QTRY_VERIFY_WITH_TIMEOUT(w->memoryService()->isOpen(), 30000);
        auto* step = panel->findChild<QPushButton*>("agentStep");
        QVERIFY(step && step->isEnabled());
        QTest::mouseClick(step, Qt::LeftButton);
        QVERIFY(agent->active());
        QTRY_COMPARE_WITH_TIMEOUT(iterations->finishedCount(), 1, 100000);
        qInfo("first iteration finished");
        QTRY_COMPARE_WITH_TIMEOUT(agent->state(), AgentController::State::Paused, 60000);
        // Paused: the loop's thread announced the pause as its last event and waits at the gate,
        // so no second iteration was started (events arrive in the order the loop sends them).
        QCOMPARE(seen.back(), agent::AgentEventType::Paused);
        QCOMPARE(std::count(seen.begin(), seen.end(), agent::AgentEventType::IterationStarted), 1);
        QCOMPARE(iterations->finishedCount(), 1);
        // A stored evaluation keeps no events: the paused iteration is re-run so that the timeline
        // shows it without another click on its row.
        QTRY_VERIFY_WITH_TIMEOUT(w->timelinePanel()->plot()->timeline() &&
                                     w->timelinePanel()->plot()->timeline()->laneCount() > 0, 120000);
        const auto first = iterations->record(0);
        QVERIFY(first);
        QVERIFY(first->stage == memory::Stage::Draft);
        QCOMPARE(first->origin, std::string("policy"));  // the editor held the untouched baseline: the policy drafted
        // Selecting the iteration showed its candidate in the editor.
        QCOMPARE(w->editor()->text(), QString::fromStdString(first->source));

        // Edit while paused and resume from the edit.
        const QString edited = w->editor()->text() + "\n// the engineer's edit\n";
        w->editor()->setText(edited);
        auto* submit = panel->findChild<QPushButton*>("agentSubmitEdit");
        QVERIFY(submit && submit->isEnabled());
        QTest::mouseClick(submit, Qt::LeftButton);
        qInfo("edit submitted");
        QTRY_VERIFY_WITH_TIMEOUT(iterations->finishedCount() >= 2, 100000);
        qInfo("edited iteration finished");
        const auto second = iterations->record(1);
        QVERIFY(second);
        QCOMPARE(second->origin, std::string("human"));
        QCOMPARE(QString::fromStdString(second->source), edited);
        QVERIFY(second->diff.find("the engineer's edit") != std::string::npos);

        // Let the run end (budget 4), then the run is in the database and in the task tree.
        QTRY_COMPARE_WITH_TIMEOUT(agent->state(), AgentController::State::Finished, 100000);
        qInfo("run finished");
        const qint64 runId = agent->runId();
        QVERIFY(runId > 0);
        {
            auto db = std::make_shared<memory::Database>((root_.path() + "/agent.db").toStdString(),
                                                         std::vector<memory::SchemaModule>{agent::AgentSchema::module()});
            agent::RunStore runs(db);
            auto stored = runs.iterations(runId);
            QVERIFY(stored.size() >= 2);
            QCOMPARE(stored[1].origin, std::string("human"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(w->taskModel()->runIndex(runId).isValid(), 30000);
    }

    void startUsesTheEditorsKernelAsIterationZero() {
        auto w = uitest::window(root_, evaluator_, "agent3.db");
        QVERIFY(w->openTask("vadd"));
        AgentPanel* panel = w->agentPanel();
        AgentController* agent = w->agentController();
        panel->setDefaults("builtin", 1, "off", false);
        const QString mine = w->editor()->text() + "\n// my own kernel\n";
        w->editor()->setText(mine);
        QTRY_VERIFY_WITH_TIMEOUT(w->memoryService()->isOpen(), 30000);
        auto* start = panel->findChild<QPushButton*>("agentStart");
        QVERIFY(start && start->isEnabled());
        QTest::mouseClick(start, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(agent->state(), AgentController::State::Finished, 100000);
        QCOMPARE(panel->iterations()->finishedCount(), 1);
        const auto first = panel->iterations()->record(0);
        QVERIFY(first);
        QCOMPARE(first->origin, std::string("engineer"));
        QCOMPARE(QString::fromStdString(first->source), mine);
        QCOMPARE(first->move, std::string("start from the editor"));
        QVERIFY(first->correct);
    }

    void stopCancelsAPausedRun() {
        auto w = uitest::window(root_, evaluator_, "agent2.db");
        QVERIFY(w->openTask("vadd"));
        AgentController* agent = w->agentController();
        QVERIFY(w->startAgent(true));  // right away: the start waits for the new database to be created
        QTRY_COMPARE_WITH_TIMEOUT(agent->state(), AgentController::State::Paused, 60000);
        QVERIFY(agent->runId() > 0);
        agent->stop();
        QTRY_COMPARE_WITH_TIMEOUT(agent->state(), AgentController::State::Finished, 60000);
        QCOMPARE(w->agentPanel()->iterations()->finishedCount(), 0);
    }
};

QTEST_MAIN(TestAgentPanel)
#include "test_agent_panel.moc"
