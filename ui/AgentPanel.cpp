#include "ui/AgentPanel.h"
#include "ui/CoreText.h"

#include "ui/RetrievalModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
QPlainTextEdit* makeText(QWidget* parent) {
    auto* t = new QPlainTextEdit(parent);
    t->setReadOnly(true);
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setPointSize(9);
    t->setFont(f);
    t->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    return t;
}
} // namespace

AgentPanel::AgentPanel(AgentController* controller, QWidget* parent) : QWidget(parent), controller_(controller) {
    iterations_ = new IterationListModel(this);
    retrievals_ = new RetrievalModel(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(buildSettingsForm());
    layout->addLayout(buildRunButtons());
    buildStateLabels();
    layout->addWidget(state_);
    layout->addWidget(problem_);
    layout->addWidget(buildIterationsAndDetail(), 1);
    connect(controller_, &AgentController::stateChanged, this, &AgentPanel::updateControls);
    connect(controller_, &AgentController::eventArrived, this, &AgentPanel::onEvent);
    updateControls();
}

// Policy, budget, memory mode and pending entries: the settings of the next run.
QGridLayout* AgentPanel::buildSettingsForm() {
    auto* form = new QGridLayout;
    policy_ = new QComboBox(this);
    policy_->addItems({QStringLiteral("builtin"), QStringLiteral("llm")});
    policy_->setToolTip(tr("builtin: offline policy that edits @tunable constants and applies known transforms;\n"
                           "llm: an OpenAI-compatible model (endpoint in Settings)"));
    auto* policySettings = new QToolButton(this);
    policySettings->setText(tr("Settings…"));
    memoryMode_ = new QComboBox(this);
    memoryMode_->addItems({QStringLiteral("adoption"), QStringLiteral("all_retrieved"), QStringLiteral("similarity"),
                           QStringLiteral("off")});
    memoryMode_->setToolTip(tr("adoption: only adopted experiences are credited (SAGE)"));
    budget_ = new QSpinBox(this);
    budget_->setRange(1, 200);
    budget_->setValue(12);
    budget_->setSuffix(tr(" iterations"));
    includePending_ = new QCheckBox(tr("include pending"), this);
    includePending_->setToolTip(tr("Let the agent read experiences that nobody has reviewed yet"));
    form->addWidget(new QLabel(tr("Policy"), this), 0, 0);
    form->addWidget(policy_, 0, 1);
    form->addWidget(policySettings, 0, 2);
    form->addWidget(new QLabel(tr("Budget"), this), 0, 3);
    form->addWidget(budget_, 0, 4);
    form->addWidget(new QLabel(tr("Memory"), this), 1, 0);
    form->addWidget(memoryMode_, 1, 1);
    form->addWidget(includePending_, 1, 2, 1, 3);
    form->setColumnStretch(5, 1);
    connect(policySettings, &QToolButton::clicked, this, &AgentPanel::settingsRequested);
    return form;
}

QGridLayout* AgentPanel::buildRunButtons() {
    auto* buttons = new QGridLayout;
    int placed = 0;
    auto button = [this, buttons, &placed](const QString& text, const char* name, const QString& tip) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(QString::fromLatin1(name));
        b->setToolTip(tip);
        buttons->addWidget(b, placed / 4, placed % 4);
        ++placed;
        return b;
    };
    start_ = button(tr("Start"), "agentStart",
                    tr("Start a run on the open task, from the kernel in the editor (unless it is empty or the\n"
                       "untouched baseline.cpp: then the policy drafts)"));
    pause_ = button(tr("Pause"), "agentPause", tr("Pause after the current iteration"));
    step_ = button(tr("Step"), "agentStep", tr("Run one iteration, then pause"));
    resume_ = button(tr("Resume"), "agentResume", tr("Continue the run"));
    stop_ = button(tr("Stop"), "agentStop", tr("Cancel the run (the running evaluation is killed)"));
    submit_ = button(tr("Use my edit"), "agentSubmitEdit",
                     tr("While paused: the editor's text becomes the next iteration; the run continues from it"));
    goToBest_ = button(tr("Go to best"), "agentGoToBest",
                       tr("Load the best correct iteration (★, the fewest cycles) into the editor and the panels"));
    buttons->setColumnStretch(4, 1);
    connect(start_, &QPushButton::clicked, this, [this]() { emit startRequested(false); });
    connect(pause_, &QPushButton::clicked, controller_, &AgentController::pause);
    connect(step_, &QPushButton::clicked, this, [this]() {
        if (controller_->active()) controller_->step();
        else emit startRequested(true);  // not running yet: start paused, then step once it pauses
    });
    connect(resume_, &QPushButton::clicked, controller_, &AgentController::resume);
    connect(stop_, &QPushButton::clicked, controller_, &AgentController::stop);
    connect(submit_, &QPushButton::clicked, this, &AgentPanel::submitEditRequested);
    connect(goToBest_, &QPushButton::clicked, this, &AgentPanel::goToBest);
    auto bestKnown = [this]() { goToBest_->setEnabled(iterations_->bestIteration() >= 0); };
    connect(iterations_, &QAbstractItemModel::dataChanged, this, bestKnown);
    connect(iterations_, &QAbstractItemModel::modelReset, this, bestKnown);
    return buttons;
}

void AgentPanel::buildStateLabels() {
    state_ = new QLabel(tr("Idle."), this);
    state_->setTextFormat(Qt::RichText);
    state_->setWordWrap(true);
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("agentProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c62828"));
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problem_->hide();

}

// The iteration table above the selected iteration's response, prompt, experiences and rationale.
QSplitter* AgentPanel::buildIterationsAndDetail() {
    auto* split = new QSplitter(Qt::Vertical, this);
    view_ = new QTableView(split);
    view_->setObjectName(QStringLiteral("iterationTable"));
    view_->setModel(iterations_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(20);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(IterationListModel::IndexColumn, 36);
    view_->setColumnWidth(IterationListModel::StageColumn, 62);
    view_->setColumnWidth(IterationListModel::OriginColumn, 50);
    view_->setColumnWidth(IterationListModel::StatusColumn, 78);
    view_->setColumnWidth(IterationListModel::RewardColumn, 52);
    view_->setColumnWidth(IterationListModel::CyclesColumn, 70);
    view_->setColumnWidth(IterationListModel::RooflineColumn, 58);
    view_->setColumnWidth(IterationListModel::AdoptedColumn, 60);
    tabs_ = new QTabWidget(split);
    response_ = makeText(tabs_);
    prompt_ = makeText(tabs_);
    notes_ = makeText(tabs_);
    auto* retrievalView = new QTableView(tabs_);
    retrievalView->setObjectName(QStringLiteral("retrievalTable"));
    retrievalView->setModel(retrievals_);
    retrievalView->setSelectionBehavior(QAbstractItemView::SelectRows);
    retrievalView->verticalHeader()->hide();
    retrievalView->verticalHeader()->setDefaultSectionSize(20);
    retrievalView->horizontalHeader()->setStretchLastSection(true);
    retrievalView->setColumnWidth(RetrievalModel::IdColumn, 36);
    retrievalView->setColumnWidth(RetrievalModel::TitleColumn, 220);
    tabs_->addTab(response_, tr("Response"));
    tabs_->addTab(prompt_, tr("Prompt"));
    tabs_->addTab(retrievalView, tr("Experiences"));
    tabs_->addTab(notes_, tr("Rationale / diff"));
    split->addWidget(view_);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) {
        if (!i.isValid()) return;
        auto r = iterations_->record(i.row());
        follow_ = i.row() == iterations_->rowCount() - 1;
        if (r) showRecord(r);
        else {
            shownIteration_ = i.data(IterationListModel::IterationRole).toInt();
            tabs_->setCurrentIndex(0);
        }
    });
    connect(retrievalView, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        emit experienceActivated(i.data(RetrievalModel::IdRole).toLongLong());
    });
    return split;
}

void AgentPanel::setDefaults(const QString& policy, int budget, const QString& memoryMode, bool includePending) {
    policy_->setCurrentText(policy);
    budget_->setValue(budget);
    memoryMode_->setCurrentText(memoryMode);
    includePending_->setChecked(includePending);
}

agent::AgentSettings AgentPanel::settings(agent::AgentSettings base) const {
    base.policy = policy_->currentText().toStdString();
    base.budget = budget_->value();
    base.memoryMode = memory::parseEnum<memory::MemoryMode>(memoryMode_->currentText().toStdString())
                          .value_or(memory::kDefaultMemoryMode);
    base.includePending = includePending_->isChecked();
    return base;
}

void AgentPanel::updateControls() {
    using S = AgentController::State;
    const S s = controller_->state();
    const bool active = controller_->active();
    start_->setEnabled(!active);
    pause_->setEnabled(s == S::Running);
    step_->setEnabled(!active || s == S::Paused);
    resume_->setEnabled(s == S::Paused || s == S::Pausing);
    stop_->setEnabled(active);
    submit_->setEnabled(s == S::Paused);
    goToBest_->setEnabled(iterations_->bestIteration() >= 0);
    for (QWidget* w : std::initializer_list<QWidget*>{policy_, memoryMode_, budget_, includePending_}) w->setEnabled(!active);
    const int it = controller_->currentIteration();
    const QString run = controller_->runId() ? tr("run %1").arg(controller_->runId()) : QString();
    switch (s) {
    case S::Idle: state_->setText(tr("Idle. Start runs the agent on the open task.")); break;
    case S::Running: state_->setText(tr("<b>Running</b> %1 · iteration %2").arg(run).arg(std::max(it, 0))); break;
    case S::Pausing: state_->setText(tr("<b>Pausing</b> %1 after iteration %2…").arg(run).arg(std::max(it, 0))); break;
    case S::Paused:
        state_->setText(tr("<b style='color:#ef6c00'>Paused</b> %1 before iteration %2 — edit the candidate and "
                           "press <i>Use my edit</i>, or Step / Resume")
                            .arg(run).arg(it + 1));
        break;
    case S::Finished: {
        const auto best = iterations_->record(iterations_->bestRow());
        state_->setText(best ? tr("<b>Finished</b> %1 · best: iteration %2, %3 cycles (★, loaded)")
                                   .arg(run).arg(best->index).arg(best->cycles)
                             : tr("<b>Finished</b> %1 · no correct iteration").arg(run));
        break;
    }
    }
}

void AgentPanel::onEvent(const AgentEventPtr& e) {
    using T = agent::AgentEventType;
    switch (e->type) {
    case T::RunStarted:
        problem_->hide();
        iterations_->clear();
        retrievals_->clear();
        response_->clear();
        prompt_->clear();
        notes_->clear();
        follow_ = true;
        emit message(tr("Agent run %1 started on %2").arg(e->runId).arg(QString::fromStdString(e->text)));
        break;
    case T::IterationStarted:
        iterations_->iterationStarted(e->iteration, stageText(e->stage.value_or(memory::Stage::Any)));
        streamingIteration_ = e->iteration;
        if (follow_) {
            view_->selectRow(iterations_->rowOf(e->iteration));
            response_->clear();
            prompt_->clear();
            notes_->clear();
            retrievals_->clear();
        }
        break;
    case T::Token:
        if (e->iteration == shownIteration_ || (follow_ && e->iteration == streamingIteration_)) {
            response_->moveCursor(QTextCursor::End);
            response_->insertPlainText(QString::fromStdString(e->text));
            response_->verticalScrollBar()->setValue(response_->verticalScrollBar()->maximum());
        }
        break;
    case T::IterationFinished: {
        if (!e->record) break;
        IterationRecordPtr record = e->record;
        iterations_->iterationFinished(record);
        showProblem(*record);
        if (follow_) {
            const int row = iterations_->rowOf(e->iteration);
            view_->selectRow(row);
            showRecord(record);
        }
        break;
    }
    case T::Error: emit message(tr("Agent: %1").arg(QString::fromStdString(e->text))); break;
    case T::Notice: emit message(tr("Agent note: %1").arg(QString::fromStdString(e->text))); break;
    case T::RunFinished: {
        emit message(tr("Agent run %1 finished: %2").arg(e->runId).arg(QString::fromStdString(e->text)));
        // The run's result is its best iteration, not its last: load that one.
        const int best = e->summary ? e->summary->bestIteration : -1;
        loadIteration(best >= 0 ? best : iterations_->bestIteration());
        emit runFinished(e->runId);
        break;
    }
    default: break;
    }
    updateControls();
}

void AgentPanel::showProblem(const agent::IterationRecord& r) {
    // An unreachable model server or a refused key must be seen where the run is watched, not
    // only in the Rationale tab of the iteration.
    if (r.status != agent::IterationStatus::PolicyError || r.error.empty()) {
        problem_->hide();
        return;
    }
    const QString text = tr("Iteration %1 (%2): %3").arg(r.index).arg(coreText(toString(r.status)),
                                                                       QString::fromStdString(r.error));
    problem_->setText(text);
    problem_->show();
    emit message(tr("Agent: %1").arg(text));
}

void AgentPanel::showRecord(const IterationRecordPtr& r) {
    if (!r) return;
    shownIteration_ = r->index;
    prompt_->setPlainText(QString::fromStdString(r->prompt));
    if (!r->response.empty() || shownIteration_ != streamingIteration_ || !controller_->active())
        response_->setPlainText(QString::fromStdString(r->response));
    QString notes = tr("Move: %1\nOrigin: %2\n").arg(QString::fromStdString(r->move), QString::fromStdString(r->origin));
    if (!r->rationale.empty()) notes += tr("Rationale: %1\n").arg(QString::fromStdString(r->rationale));
    if (!r->error.empty()) notes += tr("Error: %1\n").arg(QString::fromStdString(r->error));
    for (const auto& n : r->notes) notes += tr("Note: %1\n").arg(QString::fromStdString(n));
    for (const auto& p : r->proposed)
        notes += tr("Proposed experience #%1: %2\n").arg(p.id).arg(QString::fromStdString(p.title));
    notes += QStringLiteral("\n") + QString::fromStdString(r->diff);
    notes_->setPlainText(notes);
    retrievals_->setIteration(r->retrievals, r->adoptions);
    emit iterationSelected(r);
}

void AgentPanel::selectIteration(int iteration) {
    const int row = iterations_->rowOf(iteration);
    if (row >= 0) view_->selectRow(row);
}

bool AgentPanel::loadIteration(int iteration) {
    const int row = iterations_->rowOf(iteration);
    if (row < 0 || !iterations_->record(row)) return false;
    if (view_->selectionModel()->currentIndex().row() == row) showRecord(iterations_->record(row));  // shown again, now settled
    else view_->selectRow(row);
    return true;
}

bool AgentPanel::goToBest() { return loadIteration(iterations_->bestIteration()); }

void AgentPanel::showRecords(qint64 runId, const std::vector<IterationRecordPtr>& records) {
    if (controller_->active()) return;  // the live run owns the list
    iterations_->setRecords(records);
    state_->setText(tr("Stored run %1: %n iteration(s)", nullptr, int(records.size())).arg(runId));
}

void AgentPanel::clearRun(const QString& task) {
    if (controller_->active()) return;  // the live run owns the panel
    iterations_->clear();
    retrievals_->clear();
    response_->clear();
    prompt_->clear();
    notes_->clear();
    problem_->hide();
    shownIteration_ = streamingIteration_ = -1;
    follow_ = true;
    state_->setText(tr("No run of %1 here yet: Start runs the agent on it; its stored runs are under it in the "
                       "Tasks panel.").arg(task.toHtmlEscaped()));
}

QString AgentPanel::responseText() const { return response_->toPlainText(); }
QString AgentPanel::problemText() const { return problem_->isHidden() ? QString() : problem_->text(); }

void AgentPanel::showTab(const QString& name) {
    static const QStringList names = {QStringLiteral("response"), QStringLiteral("prompt"), QStringLiteral("experiences"),
                                      QStringLiteral("rationale")};
    tabs_->setCurrentIndex(std::max(0, int(names.indexOf(name))));
}

} // namespace sage::ui
