// The workbench's main window: the kernel editor (with a diff tab) in the middle and dockable
// panels around it — tasks, diagnostics, verification, timeline, agent, memory. Holds no domain
// logic: it opens tasks, hands the editor's text to the evaluation service and the agent, and
// routes results and selections between the panels. The dock layout is persisted; View →
// "Restore default layout" brings the original back.
#pragma once

#include "sage_eval/Evaluator.h"
#include "ui/EvaluationResult.h"
#include "ui/IterationListModel.h"
#include "ui/KernelDocument.h"
#include "ui/WorkbenchSettings.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QPlainTextEdit;
class QDockWidget;
class QLabel;
class QProgressBar;
class QTabWidget;
class QToolButton;
class QTreeView;

namespace sage::ui {

class AgentController;
class AgentPanel;
class CandidateDiffView;
class DiagnosticsModel;
class DiagnosticsPanel;
class EvaluationPresenter;
class EvaluationService;
class FindReplaceBar;
class KernelEditor;
class MemoryBrowser;
class MemoryService;
class TaskTreeModel;
class TimelinePanel;
class VerificationPanel;

struct MainWindowOptions {
    QStringList taskDirs;       // empty: the resources' task folder
    QString dbPath;             // empty: the settings' (or the default) database
    QString seedFile;           // seeds a new database; empty: resources/memory/seed.jsonl
    bool restoreLayout = true;  // restore the persisted window layout
    std::shared_ptr<const eval::Evaluator> evaluator;  // null: Evaluator::fromEnvironment()
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const MainWindowOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens the task: its saved draft if there is one, else its baseline.cpp. Unsaved edits in
    // the editor are asked about first (save / discard / cancel); false when cancelled.
    bool openTask(const QString& name);
    // File → Save: to `file` (then tracked), the tracked file, or the task's draft.
    bool saveKernel(const QString& file = {});
    bool hasUnsavedEdits() const;
    const KernelDocument& document() const { return document_; }
    // The question asked before unsaved edits would be replaced; tests answer it themselves.
    using UnsavedEditsPrompt = std::function<QMessageBox::StandardButton(const QString& action)>;
    void setUnsavedEditsPrompt(UnsavedEditsPrompt prompt) { unsavedPrompt_ = std::move(prompt); }
    std::shared_ptr<const eval::Task> currentTask() const { return task_; }
    QString opProjectDir() const { return opDir_; }
    bool loadKernelFile(const QString& path);
    // File → Open op project…: shows op_kernel/<op>.cpp and runs the project from its own host
    // tiling against its spec off the GUI thread; the report lands in the "op" dock, and one
    // configuration's evaluation in Diagnostics, Verification and Timeline. Until a task is
    // opened again, F5 runs the op project (saving the editor's text to the kernel file first).
    bool openOpProject(const QString& dir);
    quint64 evaluate();  // F5: compile, run, verify, profile; returns the job id (0: nothing started)
    quint64 check();     // Ctrl+B: compile only
    void cancelEvaluation();
    // Starts the agent on the open task. While the memory database is still being opened (and
    // perhaps created) by the memory thread, the start waits for it: two connections must not
    // create the schema of a new file at once.
    bool startAgent(bool paused = false, bool stepOnce = false);
    bool exportTrace(const QString& path);  // Chrome-trace JSON, or op-summary CSV for *.csv (runs off the GUI thread)
    void restoreDefaultLayout();
    // Resizes the window (to at most the desktop's free area) and lays the docks out for that size.
    void resizeWithDefaultLayout(const QSize& size);
    void showPanel(const QString& name);    // raises a dock: tasks, diagnostics, verification, timeline, agent, memory

    KernelEditor* editor() const { return editor_; }
    DiagnosticsModel* diagnosticsModel() const { return diagnosticsModel_; }
    DiagnosticsPanel* diagnosticsPanel() const { return diagnosticsPanel_; }
    VerificationPanel* verificationPanel() const { return verificationPanel_; }
    TimelinePanel* timelinePanel() const { return timelinePanel_; }
    AgentPanel* agentPanel() const { return agentPanel_; }
    AgentController* agentController() const { return agent_; }
    MemoryBrowser* memoryBrowser() const { return memoryBrowser_; }
    MemoryService* memoryService() const { return memory_; }
    EvaluationService* evaluationService() const { return service_; }
    EvaluationPresenter* presenter() const { return presenter_; }
    CandidateDiffView* diffView() const { return diffView_; }
    TaskTreeModel* taskModel() const { return taskModel_; }
    QDockWidget* dock(const QString& name) const;
    QString dbPath() const;
    const eval::TaskSet& tasks() const { return tasks_; }

signals:
    void evaluationPresented(sage::ui::EvaluationResultPtr result);
    void opProjectFinished(bool pass);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildPanels();
    void buildCentre();
    void buildTaskDock();
    void buildResultDocks();
    void buildAgentAndMemoryDocks();
    void connectNavigation();
    void connectBaseline();
    void connectTasksAndMemory();
    void connectAgentPanel();
    void buildActions();
    struct BuildActions {
        QAction *check, *evaluate, *cancel;
    };
    QAction* buildFileMenu();  // returns Export trace, which the tool bar shows too
    void buildEditMenu();
    BuildActions buildBuildMenu();
    void buildViewMenu();
    void buildToolBar(const BuildActions& build, QAction* exportAction);
    void buildStatusBar();
    void connectApiKeys();  // the keychain's answers: stored, removed, read (then a deferred agent start)
    void buildDefaultLayout();  // where the docks go (once)
    void sizeDocks();           // how large they are, in proportions of the window
    QDockWidget* addDock(const QString& name, const QString& title, QWidget* widget, Qt::DockWidgetArea area);
    quint64 startJob(EvaluationKind kind);
    void onEvaluationFinished(const EvaluationResultPtr& r);
    void presentResult(const EvaluationResultPtr& r, std::shared_ptr<const eval::Task> task, const QString& origin = {});
    bool runOpProject();  // the open op project, from its files (the editor's text saved to its kernel first)
    void onBusyChanged(bool busy);
    void onIterationSelected(const IterationRecordPtr& record);
    void onTaskActivated(const QModelIndex& index);
    void loadRuns(const QString& task);
    void loadIterations(qint64 runId, int select = -1);
    void updateCandidates();
    bool isCandidate(const QString& text) const;  // the text of an iteration of the shown run
    void rerunShownIterationForTimeline();  // a stored iteration has no events: evaluate it again
    void goToLine();
    void openSettings();
    void setMessage(const QString& text, int ms = 6000);
    bool confirmUnsavedEdits(const QString& action);
    // Replaces the editor's text with one that is saved (a task's file, an iteration): the
    // document tracks `file`, or the task's draft when empty.
    void showSource(const QString& text, const QString& file = {});
    void updateTitle();

    MainWindowOptions options_;
    WorkbenchSettings settings_;
    std::shared_ptr<const eval::Evaluator> evaluator_;
    QString evaluatorError_;
    eval::TaskSet tasks_;
    std::shared_ptr<const eval::Task> task_;
    std::map<int, IterationRecordPtr> candidates_;  // agent iterations shown in the diff pickers
    KernelDocument document_;
    QString opDir_;  // the open op project (F5 runs it); empty while a task is open
    UnsavedEditsPrompt unsavedPrompt_;
    class ApiKeyStore* apiKeys_ = nullptr;
    std::optional<QString> keychainKey_;  // read once per session when the LLM policy needs it; memory only

    EvaluationService* service_ = nullptr;
    EvaluationService* baselineService_ = nullptr;
    class OpProjectService* opService_ = nullptr;
    QPlainTextEdit* opReport_ = nullptr;
    MemoryService* memory_ = nullptr;
    AgentController* agent_ = nullptr;
    EvaluationPresenter* presenter_ = nullptr;

    KernelEditor* editor_ = nullptr;
    FindReplaceBar* findBar_ = nullptr;
    CandidateDiffView* diffView_ = nullptr;
    QTabWidget* centralTabs_ = nullptr;
    TaskTreeModel* taskModel_ = nullptr;
    QTreeView* taskView_ = nullptr;
    DiagnosticsModel* diagnosticsModel_ = nullptr;
    DiagnosticsPanel* diagnosticsPanel_ = nullptr;
    VerificationPanel* verificationPanel_ = nullptr;
    TimelinePanel* timelinePanel_ = nullptr;
    AgentPanel* agentPanel_ = nullptr;
    MemoryBrowser* memoryBrowser_ = nullptr;
    std::map<QString, QDockWidget*> docks_;

    QComboBox* device_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;
    QLabel* resultLabel_ = nullptr;
    QByteArray defaultState_;
    bool stepWhenPaused_ = false;
    enum class MemoryState { Opening, Open, Failed } memoryState_ = MemoryState::Opening;
    std::optional<std::pair<bool, bool>> deferredAgentStart_;  // (paused, stepOnce) until the database is open
};

} // namespace sage::ui
