// The agent panel driving the real loop (built-in policy) on its own thread: start paused, step
// one iteration, pause, hand the loop an engineer's edit, resume from it. Events arrive through
// the queued adapter; the run and its iterations are in the database afterwards.
#include "UiTestSupport.h"

#include "sage_agent/RunStore.h"
#include "ui/AgentController.h"
#include "ui/AgentPanel.h"
#include "ui/IterationListModel.h"
#include "ui/KernelEditor.h"
#include "ui/MemoryService.h"
#include "ui/TaskTreeModel.h"

#include <QPushButton>

using namespace sage;
using namespace sage::ui;

class TestAgentPanel : public QObject {
    Q_OBJECT
    QTemporaryDir root_;
    std::shared_ptr<const eval::Evaluator> evaluator_;

private slots:
    void initTestCase() {
        QVERIFY(root_.isValid());
        uitest::isolate(root_);
        evaluator_ = uitest::evaluator();
    }

    void stepsPausesAcceptsAnEditAndResumes() {
        auto w = uitest::window(root_, evaluator_, "agent.db");
        QVERIFY(w->openTask("vadd"));
        AgentPanel* panel = w->agentPanel();
        AgentController* agent = w->agentController();
        QVERIFY(panel && agent);
        panel->setDefaults("builtin", 4, "adoption", false);
        IterationListModel* iterations = panel->iterations();
        connect(agent, &AgentController::eventArrived, this, [agent](const AgentEventPtr& e) {
            if (e->type != agent::AgentEventType::Token)
                qInfo("event %s #%d %s: %s (state %d)", agent::eventName(e->type), e->iteration, e->stage.c_str(),
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
        QTest::qWait(300);
        QCOMPARE(iterations->finishedCount(), 1);  // paused: no second iteration
        const auto first = iterations->record(0);
        QVERIFY(first);
        QCOMPARE(first->stage, std::string("draft"));
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
