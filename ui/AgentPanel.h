// The agent dock: policy and its settings, budget, memory mode; Start, Pause, Step, Resume,
// Stop; the live iteration list; and for the selected iteration its prompt, streamed response,
// rationale and the experiences it retrieved and adopted. Selecting an iteration asks the main
// window to show its candidate and evaluation; while paused the engineer may edit the candidate
// in the editor and resume from it.
#pragma once

#include "sage_agent/AgentSettings.h"
#include "ui/AgentController.h"
#include "ui/IterationListModel.h"

#include <QWidget>

class QGridLayout;
class QSplitter;
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace sage::ui {

class RetrievalModel;

class AgentPanel : public QWidget {
    Q_OBJECT
public:
    AgentPanel(AgentController* controller, QWidget* parent = nullptr);
    AgentController* controller() const { return controller_; }
    IterationListModel* iterations() const { return iterations_; }
    RetrievalModel* retrievals() const { return retrievals_; }
    QTableView* iterationView() const { return view_; }

    // The settings shown in the panel over `base` (LLM endpoint etc. come from the settings dialog).
    agent::AgentSettings settings(agent::AgentSettings base) const;
    void setDefaults(const QString& policy, int budget, const QString& memoryMode, bool includePending);
    void selectIteration(int iteration);
    // Selects the iteration and shows it in the other panels, also when it is already selected
    // (a finished or paused run re-runs it for its timeline). False when it is not in the list.
    bool loadIteration(int iteration);
    bool goToBest();
    void showRecords(qint64 runId, const std::vector<IterationRecordPtr>& records);  // a stored run
    void clearRun(const QString& task);  // another task was opened: nothing of the last one's run stays
    QString responseText() const;
    QString problemText() const;  // the last failed policy call's reason, while it is shown
    void showTab(const QString& name);  // response, prompt, experiences, rationale

signals:
    void startRequested(bool paused);
    void submitEditRequested();          // the main window hands the editor's text to the controller
    void iterationSelected(sage::ui::IterationRecordPtr record);
    void experienceActivated(qint64 id);
    void settingsRequested();
    void runFinished(qint64 runId);
    void message(const QString& text);

private:
    QGridLayout* buildSettingsForm();
    QGridLayout* buildRunButtons();  // two rows of four, so that the dock can be narrow (it sets the editor's width)
    void buildStateLabels();
    QSplitter* buildIterationsAndDetail();
    void onEvent(const AgentEventPtr& e);
    void updateControls();
    void showRecord(const IterationRecordPtr& r);
    void showProblem(const agent::IterationRecord& r);
    AgentController* controller_;
    IterationListModel* iterations_;
    RetrievalModel* retrievals_;
    QComboBox *policy_, *memoryMode_;
    QSpinBox* budget_;
    QCheckBox* includePending_;
    QPushButton *start_, *pause_, *step_, *resume_, *stop_, *submit_, *goToBest_;
    QLabel *state_, *problem_;
    QTableView* view_;
    QTabWidget* tabs_;
    QPlainTextEdit *prompt_, *response_, *notes_;
    int streamingIteration_ = -1;
    int shownIteration_ = -1;
    bool follow_ = true;  // select each new iteration as it finishes
};

} // namespace sage::ui
