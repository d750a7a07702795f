#include "ui/MainWindow.h"
#include "ui/CoreText.h"

#include "sage_agent/AgentLoop.h"
#include "sage_agent/RunStore.h"
#include "sage_eval/TraceExport.h"
#include "ui/AgentController.h"
#include "ui/AgentPanel.h"
#include "ui/ApiKeyStore.h"
#include "ui/CandidateDiffView.h"
#include "ui/DiagnosticsModel.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/EvaluationPresenter.h"
#include "ui/EvaluationService.h"
#include "ui/FindReplaceBar.h"
#include "ui/KernelEditor.h"
#include "ui/MemoryBrowser.h"
#include "ui/MemoryService.h"
#include "ui/OpProjectService.h"
#include "sage_eval/OpProject.h"
#include "ui/SettingsDialog.h"
#include "ui/TaskTreeModel.h"
#include "ui/TimelinePanel.h"
#include "ui/VerificationPanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <fstream>
#include <utility>

namespace sage::ui {

MainWindow::MainWindow(QWidget* parent) : MainWindow(MainWindowOptions{}, parent) {}

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), settings_(WorkbenchSettings::load()) {
    setWindowTitle(tr("SAGE Kernel Workbench"));
    setObjectName(QStringLiteral("SageMainWindow"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    evaluator_ = options_.evaluator;
    if (!evaluator_) {
        try {
            evaluator_ = std::make_shared<const eval::Evaluator>(eval::Evaluator::fromEnvironment());
        } catch (const std::exception& e) {
            evaluatorError_ = QString::fromStdString(e.what());
        }
    }
    std::vector<std::string> dirs;
    for (const auto& d : options_.taskDirs) dirs.push_back(d.toStdString());
    if (dirs.empty() && evaluator_) dirs.push_back(evaluator_->paths().tasksDir());
    tasks_ = eval::TaskSet::load(dirs);

    memory_ = new MemoryService(this);
    connectApiKeys();
    if (evaluator_) {
        service_ = new EvaluationService(evaluator_, this);
        baselineService_ = new EvaluationService(evaluator_, this);
        agent_ = new AgentController(evaluator_, this);
        opService_ = new OpProjectService(evaluator_, this);
        connect(opService_, &OpProjectService::finished, this, [this](const QString& report, bool pass) {
            opReport_->setPlainText(report);
            showPanel(QStringLiteral("op"));
            setMessage(pass ? tr("Op project: PASS") : tr("Op project: FAIL (see the Op project panel)"), 15000);
            emit opProjectFinished(pass);
        });
        connect(opService_, &OpProjectService::evaluated, this, [this](const EvaluationResultPtr& r) {
            if (!opDir_.isEmpty()) presentResult(r, r->task, tr("op project %1").arg(QFileInfo(opDir_).fileName()));
        });
    }
    buildPanels();
    buildActions();
    connect(editor_, &KernelEditor::revisionChanged, this, &MainWindow::updateTitle);
    buildDefaultLayout();
    resizeWithDefaultLayout(QSize(1600, 1000));
    if (options_.restoreLayout) {
        QSettings s;
        restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    }

    QString seed = options_.seedFile;
    if (seed.isEmpty() && evaluator_)
        seed = QString::fromStdString(evaluator_->paths().resources) + QStringLiteral("/memory/seed.jsonl");
    connect(memory_, &MemoryService::opened, this, [this](bool ok, const QString& message) {
        memoryState_ = ok ? MemoryState::Open : MemoryState::Failed;
        setMessage(ok ? tr("Memory: %1").arg(message) : tr("Memory could not be opened: %1").arg(message), 10000);
        if (ok && task_) loadRuns(QString::fromStdString(task_->name));
        if (auto start = std::exchange(deferredAgentStart_, std::nullopt)) startAgent(start->first, start->second);
    });
    memory_->open(dbPath(), seed);

    if (!evaluatorError_.isEmpty())
        setMessage(tr("The evaluation pipeline is unavailable: %1").arg(evaluatorError_), 0);
    else if (!tasks_.errors.empty())
        setMessage(tr("%n task folder(s) were rejected: %1", nullptr, int(tasks_.errors.size()))
                       .arg(QString::fromStdString(tasks_.errors.front())), 15000);
    else
        statusBar()->showMessage(tr("Ready"));
}

void MainWindow::connectApiKeys() {
    apiKeys_ = new ApiKeyStore(this);
    connect(apiKeys_, &ApiKeyStore::written, this, [this](const QString& error) {
        setMessage(error.isEmpty() ? tr("The API key is stored in the desktop keychain.")
                                   : tr("The API key was not stored: %1. It is used for this session only; for "
                                        "headless runs set $%2.").arg(error, settings_.apiKeyEnv), 0);
    });
    connect(apiKeys_, &ApiKeyStore::removed, this, [this](const QString& error) {
        setMessage(error.isEmpty() ? tr("The API key was removed from the desktop keychain.")
                                   : tr("The API key was not removed: %1").arg(error), 0);
    });
    connect(apiKeys_, &ApiKeyStore::keyRead, this, [this](const QString& key, const QString& error) {
        keychainKey_ = key;
        if (!error.isEmpty() || key.isEmpty())
            setMessage(tr("No API key from the desktop keychain%1: set $%2, or store the key in File → Settings.")
                           .arg(error.isEmpty() ? QString() : QStringLiteral(" (") + error + QStringLiteral(")"),
                                settings_.apiKeyEnv), 0);
        if (auto start = std::exchange(deferredAgentStart_, std::nullopt)) startAgent(start->first, start->second);
    });
}

MainWindow::~MainWindow() {
    if (service_) service_->cancel();
    if (baselineService_) baselineService_->cancel();
}

QString MainWindow::dbPath() const {
    return options_.dbPath.isEmpty() ? settings_.effectiveDbPath() : options_.dbPath;
}

QDockWidget* MainWindow::addDock(const QString& name, const QString& title, QWidget* widget, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(QStringLiteral("dock-") + name);
    d->setWidget(widget);
    addDockWidget(area, d);
    docks_[name] = d;
    return d;
}

QDockWidget* MainWindow::dock(const QString& name) const {
    auto it = docks_.find(name);
    return it == docks_.end() ? nullptr : it->second;
}

void MainWindow::buildPanels() {
    buildCentre();
    buildTaskDock();
    buildResultDocks();
    buildAgentAndMemoryDocks();
    presenter_ = new EvaluationPresenter(editor_, diagnosticsModel_, diagnosticsPanel_, verificationPanel_,
                                         timelinePanel_, this);
    presenter_->clear();

    connectNavigation();
    connectBaseline();
    if (service_) {
        connect(service_, &EvaluationService::finished, this, &MainWindow::onEvaluationFinished);
        connect(service_, &EvaluationService::busyChanged, this, &MainWindow::onBusyChanged);
    }
    connectTasksAndMemory();
    if (agentPanel_) connectAgentPanel();
}

// Centre: the editor (with its find bar) and the candidate diff.
void MainWindow::buildCentre() {
    auto* editorPage = new QWidget(this);
    auto* editorLayout = new QVBoxLayout(editorPage);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editor_ = new KernelEditor(editorPage);
    editor_->setObjectName(QStringLiteral("kernelEditor"));
    findBar_ = new FindReplaceBar(editor_, editorPage);
    editorLayout->addWidget(findBar_);
    editorLayout->addWidget(editor_, 1);
    diffView_ = new CandidateDiffView(this);
    centralTabs_ = new QTabWidget(this);
    centralTabs_->setDocumentMode(true);
    centralTabs_->addTab(editorPage, tr("Kernel"));
    centralTabs_->addTab(diffView_, tr("Diff"));
    connect(centralTabs_, &QTabWidget::currentChanged, this, [this](int tab) {
        if (centralTabs_->widget(tab) == diffView_) updateCandidates();  // the editor's text as it is now
    });
    setCentralWidget(centralTabs_);

}

void MainWindow::buildTaskDock() {
    taskModel_ = new TaskTreeModel(this);
    taskModel_->setTasks(tasks_);
    taskView_ = new QTreeView(this);
    taskView_->setObjectName(QStringLiteral("taskTree"));
    taskView_->setModel(taskModel_);
    taskView_->setUniformRowHeights(true);
    taskView_->expandAll();
    taskView_->header()->setStretchLastSection(true);
    taskView_->setColumnWidth(TaskTreeModel::NameColumn, 150);
    addDock(QStringLiteral("tasks"), tr("Tasks"), taskView_, Qt::LeftDockWidgetArea);

}

// Diagnostics, op project, verification and timeline: the bottom docks that show an evaluation.
void MainWindow::buildResultDocks() {
    diagnosticsModel_ = new DiagnosticsModel(this);
    diagnosticsPanel_ = new DiagnosticsPanel(diagnosticsModel_, this);
    addDock(QStringLiteral("diagnostics"), tr("Diagnostics"), diagnosticsPanel_, Qt::BottomDockWidgetArea);
    opReport_ = new QPlainTextEdit(this);
    opReport_->setObjectName(QStringLiteral("opProjectReport"));
    opReport_->setReadOnly(true);
    opReport_->setPlaceholderText(tr("File → Open op project… runs an op directory (op_host + op_kernel) from its own "
                                     "host tiling and verifies it against its spec."));
    addDock(QStringLiteral("op"), tr("Op project"), opReport_, Qt::BottomDockWidgetArea);
    verificationPanel_ = new VerificationPanel(this);
    addDock(QStringLiteral("verification"), tr("Verification"), verificationPanel_, Qt::BottomDockWidgetArea);
    timelinePanel_ = new TimelinePanel(this);
    addDock(QStringLiteral("timeline"), tr("Timeline"), timelinePanel_, Qt::BottomDockWidgetArea);
}

void MainWindow::buildAgentAndMemoryDocks() {
    if (agent_) {
        agentPanel_ = new AgentPanel(agent_, this);
        agentPanel_->setDefaults(settings_.policy, settings_.budget, settings_.memoryMode, settings_.includePending);
        addDock(QStringLiteral("agent"), tr("Agent"), agentPanel_, Qt::RightDockWidgetArea);
    }
    memoryBrowser_ = new MemoryBrowser(memory_, this);
    addDock(QStringLiteral("memory"), tr("Memory"), memoryBrowser_, Qt::RightDockWidgetArea);
}

// Diagnostics and timeline rows lead to their source line in the editor.
void MainWindow::connectNavigation() {
    connect(diagnosticsPanel_, &DiagnosticsPanel::lineActivated, this, [this](int line, int column) {
        centralTabs_->setCurrentIndex(0);
        editor_->goToLine(line, std::max(1, column));
    });
    connect(timelinePanel_, &TimelinePanel::lineActivated, this, [this](int line) {
        centralTabs_->setCurrentIndex(0);
        editor_->goToLine(line);
        setMessage(tr("Line %1: %2 cycles in the last profile").arg(line).arg(editor_->heatCycles(line)));
    });
}

// The timeline's comparison baseline: the current profile or the task's baseline.cpp.
void MainWindow::connectBaseline() {
    connect(timelinePanel_, &TimelinePanel::baselineFromCurrentRequested, this, [this]() {
        if (auto r = presenter_->current(); r && r->evaluation && r->evaluation->profile.present)
            timelinePanel_->setBaseline(r->evaluation, tr("revision %1").arg(r->revision));
        else
            setMessage(tr("Evaluate (F5) first: there is no profile to keep as the baseline."));
    });
    connect(timelinePanel_, &TimelinePanel::baselineFromTaskRequested, this, [this]() {
        if (!task_ || !baselineService_) return;
        EvaluationJob job;
        job.task = task_;
        job.source = QString::fromStdString(task_->baselineSource);
        job.kernelName = QStringLiteral("baseline.cpp");
        job.deviceId = device_->currentData().toString();
        job.seeds = 1;
        job.timeoutSeconds = settings_.evalTimeoutSeconds;
        baselineService_->start(job);
        setMessage(tr("Evaluating the task's baseline.cpp…"));
    });
    if (baselineService_)
        connect(baselineService_, &EvaluationService::finished, this, [this](EvaluationResultPtr r) {
            if (!r->ok()) return setMessage(tr("Baseline evaluation failed: %1").arg(r->error));
            timelinePanel_->setBaseline(r->evaluation, QStringLiteral("baseline.cpp"));
            timelinePanel_->showTab(QStringLiteral("baseline"));
            setMessage(tr("Baseline: %1 cycles").arg(r->evaluation->profile.totalCycles));
        });
}

void MainWindow::connectTasksAndMemory() {
    connect(taskView_, &QTreeView::activated, this, &MainWindow::onTaskActivated);
    connect(taskView_, &QTreeView::clicked, this, [this](const QModelIndex& i) {
        const auto kind = TaskTreeModel::NodeKind(i.data(TaskTreeModel::KindRole).toInt());
        if (kind == TaskTreeModel::NodeKind::Run || kind == TaskTreeModel::NodeKind::Iteration) onTaskActivated(i);
    });
    connect(memoryBrowser_, &MemoryBrowser::message, this, [this](const QString& m) { setMessage(m); });
    connect(memoryBrowser_, &MemoryBrowser::pendingCountChanged, this, [this](int pending) {
        dock(QStringLiteral("memory"))->setWindowTitle(pending ? tr("Memory (%1 to review)").arg(pending) : tr("Memory"));
    });
    connect(memoryBrowser_, &MemoryBrowser::iterationLinkActivated, this, [this](qint64 run, int iteration) {
        showPanel(QStringLiteral("agent"));
        loadIterations(run, iteration);
    });
    connect(presenter_, &EvaluationPresenter::staleChanged, this, [this](bool stale) {
        resultLabel_->setText(stale ? tr("edited since the last evaluation") : presenter_->statusLine());
    });
}

void MainWindow::connectAgentPanel() {
    connect(agentPanel_, &AgentPanel::startRequested, this, [this](bool paused) { startAgent(paused, paused); });
    connect(agentPanel_, &AgentPanel::submitEditRequested, this, [this]() {
        if (agent_->submitEdit(editor_->text())) {
            agent_->resume();
            setMessage(tr("The agent continues from your edit."));
        } else {
            setMessage(tr("The agent is not paused: pause it first."));
        }
    });
    connect(agentPanel_, &AgentPanel::iterationSelected, this, &MainWindow::onIterationSelected);
    connect(agentPanel_, &AgentPanel::experienceActivated, this, [this](qint64 id) {
        showPanel(QStringLiteral("memory"));
        memoryBrowser_->selectExperience(id);
    });
    connect(agentPanel_, &AgentPanel::settingsRequested, this, &MainWindow::openSettings);
    connect(agentPanel_, &AgentPanel::message, this, [this](const QString& m) { setMessage(m); });
    connect(agentPanel_, &AgentPanel::runFinished, this, [this](qint64) {
        memory_->refresh();
        if (task_) loadRuns(QString::fromStdString(task_->name));
    });
    connect(agent_, &AgentController::eventArrived, this, [this](const AgentEventPtr& e) {
        if (e->type == agent::AgentEventType::MemoryUpdated) memory_->refresh();
        if (e->type == agent::AgentEventType::Paused && stepWhenPaused_) {
            stepWhenPaused_ = false;
            agent_->step();
        } else if (e->type == agent::AgentEventType::Paused) {
            rerunShownIterationForTimeline();
        }
    });
}

void MainWindow::resizeWithDefaultLayout(const QSize& wanted) {
    QSize size = wanted;
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (screen && QGuiApplication::platformName() != QLatin1String("offscreen"))
        size = size.boundedTo(screen->availableGeometry().size());  // never larger than the desktop
    resize(size);
    sizeDocks();
    defaultState_ = saveState();
}

void MainWindow::buildDefaultLayout() {
    // The docks never shrink to nothing when the window does (they collapsed after a resize).
    for (const char* name : {"diagnostics", "verification", "timeline", "op"}) dock(QString::fromLatin1(name))->setMinimumHeight(140);
    for (const char* name : {"agent", "memory"})
        if (auto* d = dock(QString::fromLatin1(name))) d->setMinimumWidth(300);
    dock(QStringLiteral("tasks"))->setMinimumWidth(130);
    splitDockWidget(dock(QStringLiteral("diagnostics")), dock(QStringLiteral("timeline")), Qt::Horizontal);
    tabifyDockWidget(dock(QStringLiteral("diagnostics")), dock(QStringLiteral("verification")));
    tabifyDockWidget(dock(QStringLiteral("diagnostics")), dock(QStringLiteral("op")));
    dock(QStringLiteral("diagnostics"))->raise();
    if (auto* a = dock(QStringLiteral("agent"))) {
        tabifyDockWidget(a, dock(QStringLiteral("memory")));
        a->raise();
    }
}

void MainWindow::sizeDocks() {
    // Proportions rather than pixels, so that the editor keeps most of the room at 1366 x 768
    // as at 1600 x 1000: tasks 12 %, agent 26 % of the width; the bottom docks 30 % of the height.
    const int w = width(), h = height();
    resizeDocks({dock(QStringLiteral("tasks"))}, {std::max(130, w * 12 / 100)}, Qt::Horizontal);
    resizeDocks({dock(QStringLiteral("diagnostics")), dock(QStringLiteral("timeline"))}, {w * 38 / 100, w * 62 / 100},
                Qt::Horizontal);
    resizeDocks({dock(QStringLiteral("diagnostics"))}, {std::max(180, h * 30 / 100)}, Qt::Vertical);
    if (auto* a = dock(QStringLiteral("agent"))) resizeDocks({a}, {std::max(300, w * 26 / 100)}, Qt::Horizontal);
}

void MainWindow::restoreDefaultLayout() {
    for (auto& [_, d] : docks_) {
        d->setFloating(false);
        d->show();
    }
    restoreState(defaultState_);
    dock(QStringLiteral("diagnostics"))->raise();
    if (auto* a = dock(QStringLiteral("agent"))) a->raise();
}

void MainWindow::showPanel(const QString& name) {
    if (name == QLatin1String("diff")) return centralTabs_->setCurrentIndex(1);
    if (name == QLatin1String("editor")) return centralTabs_->setCurrentIndex(0);
    if (auto* d = dock(name)) {
        d->show();
        d->raise();
    }
}

bool MainWindow::openTask(const QString& name) {
    const eval::Task* t = tasks_.find(name.toStdString());
    if (!t) {
        setMessage(tr("No task named %1").arg(name));
        return false;
    }
    if (!confirmUnsavedEdits(tr("open %1").arg(name))) return false;
    if (service_) service_->cancel();
    const bool otherTask = !task_ || task_->name != t->name;
    opDir_.clear();
    task_ = std::make_shared<const eval::Task>(*t);
    candidates_.clear();
    const QString draft = KernelDocument::readDraft(name);
    showSource(draft.isEmpty() ? QString::fromStdString(task_->baselineSource) : draft);
    if (otherTask && agentPanel_ && !agent_->active()) agentPanel_->clearRun(name);  // the last task's run is not this one's
    presenter_->clear();
    timelinePanel_->setBaseline(nullptr, {});
    updateCandidates();
    const QModelIndex i = taskModel_->taskIndex(name);
    taskView_->setCurrentIndex(i);
    taskView_->scrollTo(i);
    loadRuns(name);
    setMessage(draft.isEmpty() ? tr("Opened %1 (%2): %3").arg(name, QString::fromStdString(task_->category),
                                                             QString::fromStdString(task_->description))
                               : tr("Opened %1 with your saved draft %2 (Build → Reload task baseline for baseline.cpp)")
                                     .arg(name, KernelDocument::draftPath(name)),
               10000);
    return true;
}

bool MainWindow::hasUnsavedEdits() const { return document_.modified(editor_->text()); }

void MainWindow::showSource(const QString& text, const QString& file) {
    editor_->setSource(text);
    document_.loaded(text, task_ ? QString::fromStdString(task_->name) : QString(), file);
    updateTitle();
}

bool MainWindow::loadKernelFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        setMessage(tr("Cannot read %1: %2").arg(path, f.errorString()));
        return false;
    }
    if (!confirmUnsavedEdits(tr("open %1").arg(QFileInfo(path).fileName()))) return false;
    showSource(QString::fromUtf8(f.readAll()), QFileInfo(path).absoluteFilePath());
    presenter_->clear();
    updateCandidates();
    setMessage(tr("Loaded %1").arg(path));
    return true;
}

quint64 MainWindow::evaluate() { return startJob(EvaluationKind::Evaluate); }
quint64 MainWindow::check() { return startJob(EvaluationKind::Compile); }

void MainWindow::cancelEvaluation() {
    if (service_ && service_->busy()) {
        service_->cancel();
        setMessage(tr("Cancelling…"));
    }
}

quint64 MainWindow::startJob(EvaluationKind kind) {
    if (!opDir_.isEmpty()) return runOpProject() ? 1 : 0;  // F5 / Ctrl+B on an op project run the project
    if (!service_) {
        setMessage(tr("The evaluation pipeline is unavailable: %1").arg(evaluatorError_));
        return 0;
    }
    if (!task_) {
        setMessage(tr("Open a task first (Tasks panel)."));
        return 0;
    }
    EvaluationJob job;
    job.task = task_;
    job.source = editor_->text();
    job.revision = editor_->revision();
    job.kind = kind;
    job.deviceId = device_->currentData().toString();
    job.seeds = settings_.seeds;
    job.timeoutSeconds = settings_.evalTimeoutSeconds;
    const quint64 id = service_->start(job);
    setMessage(kind == EvaluationKind::Compile ? tr("Compiling…") : tr("Evaluating: compile → run → verify → profile…"), 0);
    return id;
}

void MainWindow::onBusyChanged(bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
}

void MainWindow::onEvaluationFinished(const EvaluationResultPtr& r) {
    if (!r->error.isEmpty()) {
        presenter_->clear(tr("<span style='color:#c62828'>The pipeline failed: %1</span>").arg(r->error.toHtmlEscaped()));
        setMessage(tr("Evaluation failed: %1").arg(r->error), 0);
        return;
    }
    if (r->cancelled) {
        setMessage(tr("Evaluation cancelled."));
        return;
    }
    if (!task_ || r->taskName != QString::fromStdString(task_->name)) return;  // another task is open now
    presentResult(r, task_);
}

void MainWindow::presentResult(const EvaluationResultPtr& r, std::shared_ptr<const eval::Task> task, const QString& origin) {
    presenter_->present(r, std::move(task), origin);
    resultLabel_->setText(presenter_->stale() ? tr("stale result (the text changed)") : presenter_->statusLine());
    setMessage(presenter_->stale() ? tr("The result is for an older text and was not applied to the editor: press F5.")
                                   : presenter_->statusLine());
    const auto& ev = *r->evaluation;
    if (!ev.compile.ok || (!ev.run.diagnostics.empty() && ev.run.status != toolchain::RunStatus::Ok)) showPanel(QStringLiteral("diagnostics"));
    else if (r->kind == EvaluationKind::Evaluate && ev.verify.ran && !ev.verify.pass) showPanel(QStringLiteral("verification"));
    updateCandidates();
    emit evaluationPresented(r);
}

bool MainWindow::exportTrace(const QString& path) {
    auto r = presenter_->current();
    if (!r || !r->evaluation || !r->evaluation->profile.present) {
        setMessage(tr("Nothing to export: evaluate (F5) first."));
        return false;
    }
    auto ev = r->evaluation;
    const bool csv = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, path]() {
        setMessage(watcher->result() ? tr("Exported %1").arg(path) : tr("Could not write %1").arg(path));
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([ev, path, csv]() {
        std::ofstream out(path.toStdString());
        if (!out) return false;
        if (csv) out << eval::opSummaryCsv(*ev);
        else out << eval::chromeTrace(*ev).dump();
        return bool(out);
    }));
    return true;
}

bool MainWindow::startAgent(bool paused, bool stepOnce) {
    if (!agent_ || !task_) {
        setMessage(tr("Open a task first."));
        return false;
    }
    if (memoryState_ == MemoryState::Opening) {
        deferredAgentStart_ = {paused, stepOnce};
        setMessage(tr("The agent starts as soon as the memory database is open…"));
        return true;
    }
    // The LLM's key: $<variable> when set (headless runs), else the desktop keychain, read once.
    const bool needsKey = agentPanel_->settings({}).policy == "llm" && qEnvironmentVariableIsEmpty(qPrintable(settings_.apiKeyEnv));
    if (needsKey && !keychainKey_) {
        deferredAgentStart_ = {paused, stepOnce};
        setMessage(tr("Reading the API key from the desktop keychain…"));
        apiKeys_->read();
        return true;
    }
    agent::AgentSettings base;
    if (needsKey) base.llm.apiKey = keychainKey_->toStdString();
    base.device = device_->currentData().toString().toStdString();
    base.seeds = size_t(settings_.seeds);
    base.evalTimeoutSeconds = settings_.evalTimeoutSeconds;
    base.targetRooflineFraction = settings_.targetRoofline;
    base.patience = settings_.patience;
    base.llm.baseUrl = settings_.llmBaseUrl.toStdString();
    base.llm.model = settings_.llmModel.toStdString();
    base.llm.apiKeyEnv = settings_.apiKeyEnv.toStdString();
    // The engineer's kernel in the editor is where the run starts (core decides when it is not).
    const QString text = editor_->text();
    const bool fromEditor = agent::startsFromKernel(*task_, text.toStdString());
    base.llm.contextTokens = settings_.llmContextTokens;
    base.llm.maxTokens = settings_.llmMaxTokens;
    base.llm.temperature = settings_.llmTemperature;
    QString error;
    if (!agent_->start(*task_, agentPanel_->settings(base), dbPath(), paused, &error, fromEditor ? text : QString(),
                       tr("the editor"))) {
        setMessage(tr("The agent did not start: %1").arg(error), 0);
        return false;
    }
    stepWhenPaused_ = stepOnce;
    showPanel(QStringLiteral("agent"));
    return true;
}

void MainWindow::onIterationSelected(const IterationRecordPtr& record) {
    if (!record || !task_) return;
    const int index = record->index;
    candidates_[index] = record;
    const std::string& source = record->source;
    if (source.empty()) return;
    if (hasUnsavedEdits() && !isCandidate(editor_->text())) {  // an iteration replaces the text without asking: keep the edits
        QString error;
        if (document_.keepAsDraft(editor_->text(), &error))
            setMessage(tr("Your unsaved edits were kept in %1 (opening the task loads them).")
                           .arg(KernelDocument::draftPath(document_.task())), 15000);
        else
            setMessage(tr("Your edits could not be kept: %1").arg(error), 0);
    }
    showSource(QString::fromStdString(source));
    if (record->evaluation) {
        auto r = std::make_shared<EvaluationResult>();
        r->revision = editor_->revision();
        r->kind = EvaluationKind::Evaluate;
        r->taskName = QString::fromStdString(task_->name);
        r->source = QString::fromStdString(source);
        r->evaluation = std::make_shared<const eval::Evaluation>(*record->evaluation);
        presenter_->present(r, task_, tr("run %1, iteration %2 (stored; re-run for its timeline once the agent pauses or ends)")
                                          .arg(record->runId).arg(index));
    } else {
        presenter_->clear(tr("Iteration %1 has no evaluation (%2).")
                              .arg(index).arg(coreText(toString(record->status))));
    }
    updateCandidates();
    // Not while the loop runs (it would compete for the cores): re-run the candidate for its
    // timeline once the loop pauses or finishes. The compile is cached from the agent's own evaluation.
    if (agent_ && (!agent_->active() || agent_->state() == AgentController::State::Paused)) rerunShownIterationForTimeline();
    // The diff: this iteration against its parent (or the task's baseline for the draft).
    const int parent = record->parent;
    NamedSource right{tr("iteration %1").arg(index), QString::fromStdString(source)};
    auto it = candidates_.find(parent);
    if (parent >= 0 && it != candidates_.end())
        diffView_->compare({tr("iteration %1").arg(parent), QString::fromStdString(it->second->source)}, right);
    else
        diffView_->compare({QStringLiteral("baseline.cpp"), QString::fromStdString(task_->baselineSource)}, right);
}

void MainWindow::rerunShownIterationForTimeline() {
    // A stored evaluation keeps its profile's figures but not its events.
    const auto r = presenter_->current();
    if (service_ && r && !r->timeline && r->evaluation && r->evaluation->profile.present && !presenter_->stale())
        evaluate();
}

bool MainWindow::isCandidate(const QString& text) const {
    const std::string source = text.toStdString();
    for (const auto& [_, r] : candidates_)
        if (r && r->source == source) return true;  // "Use my edit" made it an iteration: it is stored
    return false;
}

void MainWindow::updateCandidates() {
    std::vector<NamedSource> list;
    list.push_back({tr("editor"), editor_->text()});
    if (task_) {
        list.push_back({QStringLiteral("baseline.cpp"), QString::fromStdString(task_->baselineSource)});
        if (!task_->tunedSource.empty()) list.push_back({QStringLiteral("tuned.cpp"), QString::fromStdString(task_->tunedSource)});
    }
    for (const auto& [index, r] : candidates_)
        list.push_back({tr("iteration %1").arg(index), QString::fromStdString(r->source)});
    diffView_->setCandidates(list);
}

void MainWindow::onTaskActivated(const QModelIndex& index) {
    const auto kind = TaskTreeModel::NodeKind(index.data(TaskTreeModel::KindRole).toInt());
    const QString task = index.data(TaskTreeModel::TaskNameRole).toString();
    if (kind == TaskTreeModel::NodeKind::Category) return;
    if (kind == TaskTreeModel::NodeKind::Task) {
        openTask(task);
        return;
    }
    if (!task_ || QString::fromStdString(task_->name) != task) openTask(task);
    const qint64 run = index.data(TaskTreeModel::RunIdRole).toLongLong();
    const int iteration = kind == TaskTreeModel::NodeKind::Iteration ? index.data(TaskTreeModel::IterationRole).toInt() : -1;
    showPanel(QStringLiteral("agent"));
    loadIterations(run, iteration);
}

void MainWindow::loadRuns(const QString& task) {
    if (!memory_->isOpen()) return;
    const std::string name = task.toStdString();
    memory_->run<std::vector<RunRow>>(
        [name](memory::ExperienceStore& store) {
            agent::RunStore runs(store.sharedDatabase());
            std::vector<RunRow> rows;
            for (const auto& r : runs.runs(name))
                rows.push_back({r.id, coreText(toString(r.status)), QString::fromStdString(r.policy),
                                QString::fromStdString(r.memoryMode), QString::fromStdString(r.startedAt), r.bestIteration, 0});
            return rows;
        },
        this, [this, task](std::vector<RunRow> rows) { taskModel_->setRuns(task, rows); });
}

void MainWindow::loadIterations(qint64 runId, int select) {
    memory_->run<std::vector<IterationRecordPtr>>(
        [runId](memory::ExperienceStore& store) {
            agent::RunStore runs(store.sharedDatabase());
            std::vector<IterationRecordPtr> out;
            for (auto& it : runs.iterations(runId)) out.push_back(std::make_shared<const agent::IterationRecord>(std::move(it)));
            return out;
        },
        this, [this, runId, select](std::vector<IterationRecordPtr> records) {
            std::vector<IterationRow> rows;
            for (const auto& r : records) {
                candidates_[r->index] = r;
                rows.push_back({runId, r->index, stageText(r->stage), QString::fromStdString(r->origin),
                                coreText(toString(r->status)), QString::fromStdString(r->move), r->correct,
                                quint64(r->cycles)});
            }
            taskModel_->setIterations(runId, rows);
            if (agentPanel_) {
                agentPanel_->showRecords(runId, records);
                if (select >= 0) agentPanel_->selectIteration(select);
                else if (!agent_->active()) agentPanel_->goToBest();  // a stored run is its best iteration
            }
            updateCandidates();
        });
}

void MainWindow::setMessage(const QString& text, int ms) { statusBar()->showMessage(text, ms); }

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmUnsavedEdits(tr("quit"))) {
        event->ignore();
        return;
    }
    if (options_.restoreLayout) {
        QSettings s;
        s.setValue(QStringLiteral("window/geometry"), saveGeometry());
        s.setValue(QStringLiteral("window/state"), saveState());
    }
    if (agent_ && agent_->active()) agent_->stop();
    QMainWindow::closeEvent(event);
}

bool MainWindow::openOpProject(const QString& dir) {
    if (!opService_) return false;
    eval::OpProject project;
    try {
        project = eval::OpProject::open(dir.toStdString());
    } catch (const std::exception& e) {
        opReport_->setPlainText(QString::fromStdString(e.what()));
        showPanel(QStringLiteral("op"));
        return false;
    }
    if (!loadKernelFile(QString::fromStdString(project.kernelFile))) return false;  // asked about unsaved edits
    // From here on the editor holds the op's kernel: F5 runs the op project, never the last task.
    if (service_) service_->cancel();
    task_.reset();
    candidates_.clear();
    if (agentPanel_ && !agent_->active()) agentPanel_->clearRun(QString::fromStdString(project.name));
    opDir_ = QFileInfo(dir).absoluteFilePath();
    updateTitle();
    return runOpProject();
}

bool MainWindow::runOpProject() {
    const QString spec = OpProjectService::specFor(opDir_, QString::fromStdString(evaluator_->paths().resources));
    const QString name = QFileInfo(opDir_).fileName();
    if (spec.isEmpty()) {
        opReport_->setPlainText(tr("No spec for op '%1': write one with `sage op init %2` (it goes to %2/sage-spec), keep "
                                   "it in %2/spec, or add resources/op-specs/<category>/%1.")
                                    .arg(name, opDir_));
        showPanel(QStringLiteral("op"));
        return false;
    }
    if (opService_->busy()) {
        setMessage(tr("The op project is still running"));
        return false;
    }
    // The project is built from its files: the editor's text goes to the kernel file first.
    if (hasUnsavedEdits() && !saveKernel()) return false;
    opService_->start(opDir_, spec, device_->currentData().toString(), editor_->revision(), editor_->text());
    opReport_->setPlainText(tr("Running %1 with spec %2: host tiling, compile, run, verify, profile…").arg(opDir_, spec));
    setMessage(tr("Op project %1: host tiling → compile → run → verify → profile…").arg(name), 0);
    showPanel(QStringLiteral("op"));
    return true;
}

} // namespace sage::ui
